"""Minimal stuck patterns of dead 21x21 states: time per pattern, by the class of argument that refutes the state.

The states are the missed-dead findings of ``--walks`` fully audited random
21x21 walks of the ``default`` rules (seed 1), as in ``bench/audit.py``. With
``--before COMMIT`` the same states are also timed on a temporary git worktree
of that commit, the two trees alternating round by round (this machine is
noisy: only ratios measured side by side mean anything). Usage::

    python bench/patterns.py [--walks 20] [--limit 20] [--before COMMIT] [--rounds 2]
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path.pop(0)  # the package, not this folder's scripts
sys.path.insert(0, os.environ.get("BENCH_ROOT", str(ROOT)))  # the tree being timed


def dead_states(walks):
    """The missed-dead states (compact text) of ``walks`` audited random 21x21 walks of ``default``."""
    from labyrinth.rules import get_rule_set
    from oracle import get_oracle
    from verify import audit_walk

    rules = get_rule_set("default")
    dead = []
    with get_oracle("auto") as oracle:
        for i in range(walks):
            found, _ = audit_walk(21, rules, 1, i, oracle, fired=False)
            dead += [f.dead_state for f in found if f.kind == "missed-dead"]
    return dead


def time_patterns(states, limit):
    """``[(seconds, facts or None on timeout)]`` of :func:`verify.minimal_pattern` per state."""
    from labyrinth.engine import parse_state
    from verify import PatternError, minimal_pattern

    out = []
    for text in states:
        t0 = time.perf_counter()
        try:
            facts = len(minimal_pattern(parse_state(text), time_limit=limit).facts)
        except PatternError:
            facts = None  # counted as over the limit, never guessed
        out.append((time.perf_counter() - t0, facts))
    return out


def _summary(rows, limit):
    seconds = [s for s, _ in rows]
    over = sum(f is None for _, f in rows)
    return (f"median {statistics.median(seconds):.2f} s, mean {statistics.mean(seconds):.2f} s, "
            f"max {max(seconds):.1f} s, {over} of {len(rows)} over {limit:g} s")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--walks", type=int, default=20)
    ap.add_argument("--limit", type=float, default=20.0, help="seconds per pattern")
    ap.add_argument("--before", metavar="COMMIT", help="also time the states on this commit, alternating")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--states-file", help=argparse.SUPPRESS)  # the child run of --before
    args = ap.parse_args(argv)
    if args.states_file:
        states = json.loads(Path(args.states_file).read_text())
        print(json.dumps(time_patterns(states, args.limit)))
        return
    from labyrinth.engine import parse_state
    from verify.explain import explain

    print(f"# machine: {platform.processor() or platform.machine()}, python {platform.python_version()}, one core")
    states = dead_states(args.walks)
    kinds = [explain(parse_state(s)).kind for s in states]
    print(f"{len(states)} dead 21x21 states from {args.walks} audited walks")
    if not args.before:
        runs = {"this tree": [time_patterns(states, args.limit) for _ in range(args.rounds)]}
    else:
        runs = _side_by_side(states, args)
    for name, rounds in runs.items():
        for r, rows in enumerate(rounds, 1):
            print(f"{name}, round {r}: {_summary(rows, args.limit)}")
    last = runs["this tree"][-1]
    print("\n| class (verify/explain.py) | states | median s | max s | over the limit |")
    print("|---|---|---|---|---|")
    for kind in sorted(set(kinds)):
        rows = [row for row, k in zip(last, kinds) if k == kind]
        sec = [s for s, _ in rows]
        print(f"| {kind} | {len(rows)} | {statistics.median(sec):.2f} | {max(sec):.1f} | "
              f"{sum(f is None for _, f in rows)} |")


def _side_by_side(states, args):
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.before], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            file = Path(tmp) / "states.json"
            file.write_text(json.dumps(states))
            runs = {"before": [], "this tree": []}
            trees = [("before", tree), ("this tree", ROOT)]
            for r in range(args.rounds):
                for name, where in trees if r % 2 == 0 else trees[::-1]:
                    script = where / "bench" / "patterns.py"
                    if not script.exists():
                        script = ROOT / "bench" / "patterns.py"  # the before tree predates this script
                    env = dict(os.environ, PYTHONPATH=str(where), BENCH_ROOT=str(where))
                    out = subprocess.run([sys.executable, str(script), "--states-file", str(file), "--limit",
                                          str(args.limit)], cwd=where, env=env, capture_output=True, text=True,
                                         check=True)
                    runs[name].append([tuple(x) for x in json.loads(out.stdout.strip().splitlines()[-1])])
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
    return runs


if __name__ == "__main__":
    main()
