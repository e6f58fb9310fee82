"""The subtour relaxation (`--on subtour`): what it refutes that `strong+++` does not, and what it costs (issue 40).

Three parts, written to ``--report`` (reports/subtour.md):

1. every reachable 5x5 state: how many have no completion (brute force) and how many the relaxation refutes;
2. the dead moves of seeded random walks of the rule set ``none`` on 7x7 to 11x11 (each move of each state, the
   oracle deciding): closed by ``strong+++``, refuted by the relaxation, by one and not the other;
3. the stuck walks of the strongest configuration (``--misses``, from ``bench/strong_misses.py``): for each with a
   known first dead step, the relaxation on the dead state (verdict, seconds, the regions of its refutation) and on
   the state before it (a live state: what the rule costs where it closes nothing);
4. the first dead state of every stuck walk stored for every sound set (``reports/*misses.jsonl`` and the gates'
   test data): how many the relaxation refutes.

    python bench/subtour.py                      # about 5 minutes on one core
"""

import argparse
import json
import pathlib
import platform
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

from labyrinth.engine import State  # noqa: E402
from labyrinth.engine.walker import random_walk  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402
from labyrinth.rules.subtour import ROUNDS, check, refutation, refutation_of  # noqa: E402
from oracle import get_oracle  # noqa: E402


def every_5x5():
    """``(states, dead, refuted)`` over every reachable 5x5 state not at its end."""
    from brute import completions_exist, reachable_states

    states = dead = refuted = 0
    for state in reachable_states(5):
        if state.at_end() or not state.free_count:
            continue
        states += 1
        live = completions_exist(state)
        found = refutation_of(state)
        if found is not None and live:
            raise AssertionError(f"unsound: {state.compact()}")
        dead += not live
        refuted += found is not None
    return states, dead, refuted


def random_dead_moves(n, walks, seed):
    """Over the moves of the live states of ``walks`` walks of ``none``: ``{dead, strong, subtour, both, neither}``.

    A dead state is left out: a rule set that forces a move there keeps it open whatever it is, and the
    walker of a sound set never stands on one unless it is already stuck.
    """
    none, strong = get_rule_set("none"), get_rule_set("strong+++")
    out = dict(states=0, moves=0, dead=0, strong=0, subtour=0, both=0, neither=0)
    with get_oracle("auto") as oracle:
        for i in range(walks):
            walk = random_walk(n, none, seed, index=i)
            for k in range(walk.state.steps):
                state = walk.state.prefix(k)
                if oracle.decide(state).feasible is not True:
                    continue
                out["states"] += 1
                closed = set(state.open_moves()) - set(strong.open_moves(state))
                for move in state.open_moves():
                    after = state.after(move)
                    out["moves"] += 1
                    if after.at_end() or oracle.decide(after).feasible is not False:
                        continue
                    by_strong, by_lp = move in closed, refutation_of(after) is not None
                    out["dead"] += 1
                    out["strong"] += by_strong
                    out["subtour"] += by_lp
                    out["both"] += by_strong and by_lp
                    out["neither"] += not (by_strong or by_lp)
    return out


def misses(path):
    """Per stored stuck walk with a known first dead step: the relaxation on the dead state and the state before."""
    rows = []
    for line in pathlib.Path(path).read_text().splitlines():
        rec = json.loads(line)
        if "first_dead_step" not in rec:
            rows.append(dict(rec, verdict=None))
            continue
        n, moves = rec["line"].split(":")
        k = rec["first_dead_step"]
        dead, before = State.from_moves(int(n), moves[:k]), State.from_moves(int(n), moves[:k - 1])
        t0 = time.perf_counter()
        found = refutation_of(dead)
        t1 = time.perf_counter()
        live = refutation_of(before)
        t2 = time.perf_counter()
        ok = found is not None and check(dead.board, np.array(dead.taken, np.uint8), dead.head, found)
        regions = sorted((len(r) for r, _ in found.regions), reverse=True) if found else []
        rows.append(dict(rec, verdict=found is not None, checked=ok, seconds=round(t1 - t0, 2), regions=regions,
                         before=live is None, before_seconds=round(t2 - t1, 2)))
    return rows


#: every stored stuck walk of a sound set with its first dead step: the misses reports, then the gates' test data
STORED = ("strong-misses", "strong-plus-misses", "strong-plus-plus-misses", "strong-plus-plus-plus-misses",
          "strong-plus-plus-plus-plus-misses", "strong-gates-probe-cut-misses")


#: the rounds a state the rule's budget leaves unrefuted is given again in the stored-misses part
MORE_ROUNDS = 200


def stored_misses():
    """``[(file, dead states, refuted, refuted with MORE_ROUNDS, slowest seconds)]`` over :data:`STORED` and
    tests/data/gates-misses.jsonl."""
    out = []
    paths = [ROOT / "reports" / f"{name}.jsonl" for name in STORED] + [ROOT / "tests" / "data" / "gates-misses.jsonl"]
    for path in paths:
        total = refuted = more = 0
        slowest = 0.0
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if "first_dead_step" not in rec or "line" not in rec:
                continue
            n, moves = rec["line"].split(":")
            state = State.from_moves(int(n), moves[:rec["first_dead_step"]])
            t0 = time.perf_counter()
            found = refutation_of(state) is not None
            slowest = max(slowest, time.perf_counter() - t0)
            refuted += found
            more += found or refutation(state.board, np.array(state.taken, np.uint8), state.head,
                                        rounds=MORE_ROUNDS) is not None
            total += 1
        out.append((str(path.relative_to(ROOT)), total, refuted, more, slowest))
    return out


def report(small, randoms, rows, stored, seconds):
    lines = ["# The subtour relaxation (`--on subtour`): what it refutes and what it costs", "",
             "Command: `python bench/subtour.py`, "
             f"{platform.machine()}, python {platform.python_version()}, {seconds / 60:.1f} min.", "",
             "`labyrinth.rules.subtour`: the degree equations of the free cells and the subtour cuts of regions, "
             "weights in [0, 1], cutting planes with GLOP and max flows, each refutation checked in integers "
             "(docs/rules-learn.md says why it is sound).", "",
             "## Every reachable 5x5 state", "",
             f"{small[0]} states not at their end, {small[1]} without a completion (brute force); the relaxation "
             f"refutes **{small[2]}** of them and no state with a completion.", "",
             "## Dead moves of random walks", "",
             "Each move of each live state of seeded walks of the rule set `none` (which closes nothing), the "
             "oracle deciding whether the state after it has a completion; of the dead moves, which `strong+++` "
             "closes and which the relaxation refutes.", "",
             "| n | walks | live states | moves | dead | closed by `strong+++` | refuted by `subtour` | both | by `subtour` only "
             "| by `strong+++` only | neither |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (n, walks), r in randoms.items():
        lines.append(f"| {n} | {walks} | {r['states']} | {r['moves']} | {r['dead']} | {r['strong']} | {r['subtour']} | {r['both']} "
                     f"| {r['subtour'] - r['both']} | {r['strong'] - r['both']} | {r['neither']} |")
    lines += ["", "## The stuck walks of `strong++++ --on probe-cut:3`", "",
              "The first dead step of each (reports/strong-gates-probe-cut-misses.md): the relaxation on the dead "
              "state, and on the state before it, which has a completion (there the rule runs its whole budget and "
              "closes nothing).", "",
              "| n | walk (seed, index) | dead at | free | refuted (checked) | seconds | regions (cells) "
              "| before: refuted? | seconds |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        walk = f"{r['seed']}, {r['index'] >> 32}<<32+{r['index'] & 0xFFFFFFFF}"
        if r["verdict"] is None:
            lines.append(f"| {r['n']} | {walk} | no dead step found | | | | | | |")
            continue
        lines.append(f"| {r['n']} | {walk} | {r['first_dead_step']} | {r['free_at_dead']} | "
                     f"{'yes' if r['verdict'] else 'no'} ({'yes' if r['checked'] else 'no'}) | {r['seconds']} | "
                     f"{', '.join(map(str, r['regions']))} | {'no' if r['before'] else 'YES (unsound!)'} | "
                     f"{r['before_seconds']} |")
    lines += ["", "## Every stored stuck walk of every sound set", "",
              "The first dead state of each stuck walk the misses reports of `strong` to `strong++++ --on "
              "probe-cut:3` found (a dead step the oracle located), and the gates' test data:", "",
              f"| stuck walks of | dead states | refuted (the rule's {ROUNDS} rounds) | refuted with {MORE_ROUNDS} "
              "rounds | slowest refutation in the budget (s) |", "|---|---|---|---|---|"]
    for path, total, refuted, more, slowest in stored:
        lines.append(f"| `{path}` | {total} | {refuted} | {more} | {slowest:.1f} |")
    lines.append(f"| all | {sum(s[1] for s in stored)} | {sum(s[2] for s in stored)} | {sum(s[3] for s in stored)} "
                 "| |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--misses", default="reports/strong-gates-probe-cut-misses.jsonl")
    ap.add_argument("--walks", default="7:100,9:40,11:20", help="N:WALKS,... of the random part")
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--report", default="reports/subtour.md")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    small = every_5x5()
    print("5x5", small, flush=True)
    randoms = {}
    for part in filter(None, args.walks.split(",")):
        n, walks = map(int, part.split(":"))
        randoms[(n, walks)] = random_dead_moves(n, walks, args.seed)
        print(n, randoms[(n, walks)], flush=True)
    rows = misses(ROOT / args.misses)
    for r in rows:
        print({k: r.get(k) for k in ("n", "seed", "verdict", "seconds", "regions", "before", "before_seconds")},
              flush=True)
    stored = stored_misses()
    print(stored, flush=True)
    text = report(small, randoms, rows, stored, time.perf_counter() - t0)
    (ROOT / args.report).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
