"""The labyrinth's speed before and after a change: bench/oracle.py, bench/walker.py and bench/count.py on two trees.

The "before" tree is a temporary git worktree of ``--before`` (a commit); the
"after" tree is this checkout. Each round runs every benchmark once on each
tree, alternating which goes first, so drift of a noisy machine hits both
alike; a figure is the median over rounds. Prints one markdown table with the
change per figure and flags every figure more than 10% worse. Usage::

    python bench/before_after.py [--before 038bf36] [--rounds 2] [--sizes 7,9,13,21] [--states 200]
                                 [--walker-seconds 5] [--walker-only] [--count-sizes 9,11,13]
                                 [--cpu] [--walker-rules default,fast] [--enumeration-only]

``--cpu`` reads the walker's figures from CPU seconds (``bench/walker.py
--clock cpu``), far steadier when other jobs share the machine; the oracle's
and the counts' figures stay wall-clock (their solvers run threads).
``--enumeration-only`` times the keep-left enumerations alone (a few
seconds a round, so many rounds fit: ``--rounds 12``), each round in fresh
processes on both trees.
"""

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: a figure more than this much worse is flagged
TOLERANCE = 0.10


def _run(tree, script, args, own_script=True):
    """``script`` on ``tree``'s package: the tree's own copy, or (``own_script`` False) this checkout's."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    path = (tree if own_script else ROOT) / "bench" / script
    out = subprocess.run([sys.executable, str(path), *args], cwd=tree, env=env,
                         capture_output=True, text=True, check=True)
    return out.stdout


def _oracle_figures(text):
    """``{("oracle", n, backend, "median ms"): value, ...}`` (lower is better) from bench/oracle.py's table."""
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 9 and cells[0].isdigit():
            n, backend = cells[0], cells[1]
            out[(f"oracle {n}x{n}", backend, "median ms")] = float(cells[6])
            out[(f"oracle {n}x{n}", backend, "p95 ms")] = float(cells[7])
    return out


def _walker_figures(text):
    """Walks per second (higher is better) and enumeration seconds (lower is better) from bench/walker.py."""
    out = {}
    section = None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if section and "random" in section and len(cells) in (4, 5) and re.fullmatch(r"[0-9,]+", cells[1]):
            out[("walker 21x21", cells[0], "walks/s")] = float(cells[1].replace(",", ""))
            if len(cells) == 5:
                out[("walker 21x21", cells[0], "walks/s, best block")] = float(cells[2].replace(",", ""))
        elif section and "enumeration" in section and len(cells) == 6 and cells[1].isdigit():
            out[(f"enumerate {cells[1]}x{cells[1]}", cells[0], "seconds")] = float(cells[5])
    return out


def _count_figures(text):
    """Seconds per board count and per rank / unrank / sample (lower is better) from bench/count.py."""
    out = {}
    section = None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not (section and cells and cells[0].isdigit()):
            continue
        if "corner-to-corner" in section and len(cells) == 5:
            out[(f"count {cells[0]}x{cells[0]}", "frontier DP", "seconds")] = float(cells[4])
        elif "rank" in section and len(cells) == 6:
            out[(f"rank {cells[0]}x{cells[0]}", "count cache", "rank mean s")] = float(cells[1])
            out[(f"rank {cells[0]}x{cells[0]}", "count cache", "unrank mean s")] = float(cells[4])
    return out


def _higher_is_better(key):
    return key[2].startswith("walks/s")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="038bf36", help="the commit to compare with (default: before issue 13)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--sizes", default="7,9,13,21")
    ap.add_argument("--states", default="200")
    ap.add_argument("--walker-seconds", default="5")
    ap.add_argument("--walker-only", action="store_true", help="skip bench/oracle.py and bench/count.py")
    ap.add_argument("--count-sizes", default="9,11,13", help="boards counted by bench/count.py (and ranked)")
    ap.add_argument("--cpu", action="store_true", help="the walker's figures in CPU seconds, not wall seconds")
    ap.add_argument("--walker-rules", default="default,fast", help="the rule sets bench/walker.py times")
    ap.add_argument("--enumeration-only", action="store_true",
                    help="the keep-left enumerations only (implies --walker-only): many short rounds")
    args = ap.parse_args(argv)
    args.walker_only = args.walker_only or args.enumeration_only
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", str(before), args.before], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            runs = {"before": [], "after": []}
            trees = {"before": before, "after": ROOT}
            for r in range(args.rounds):
                order = ("before", "after") if r % 2 == 0 else ("after", "before")
                for which in order:
                    figures = {} if args.walker_only else _oracle_figures(_run(trees[which], "oracle.py", [
                        "--sizes", args.sizes, "--states", args.states, "--time-limit", "10"]))
                    # the walker's timing from this checkout on both trees (its API has not changed), so
                    # both get the same measurement, best block included
                    figures.update(_walker_figures(_run(trees[which], "walker.py", [
                        "--seconds", args.walker_seconds, "--runs", "20", "--sizes", "9", "--rules", args.walker_rules,
                        *(["--clock", "cpu"] if args.cpu else []),
                        *(["--enumeration-only"] if args.enumeration_only else [])], own_script=False)))
                    if not args.walker_only:
                        figures.update(_count_figures(_run(trees[which], "count.py", [
                            "--sizes", args.count_sizes, "--rank-sizes", args.count_sizes, "--paths", "5"])))
                    runs[which].append(figures)
                    print(f"round {r + 1}: {which} done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, capture_output=True)
    keys = sorted(set(runs["before"][0]) & set(runs["after"][0]))
    print(f"Before: {args.before}; after: the working tree. {args.rounds} interleaved rounds, median of rounds{'; walker by CPU seconds' if args.cpu else ''}; "
          f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{(time.perf_counter() - t0) / 60:.1f} min.\n")
    print("| figure | backend / rules | measure | before | after | change |")
    print("|---|---|---|---:|---:|---:|")
    worse = []
    for key in keys:
        b = statistics.median(run[key] for run in runs["before"])
        a = statistics.median(run[key] for run in runs["after"])
        change = (a - b) / b if b else 0.0
        bad = -change if _higher_is_better(key) else change
        flag = " **worse**" if bad > TOLERANCE else ""
        if flag:
            worse.append(key)
        print(f"| {key[0]} | {key[1]} | {key[2]} | {b:,.3f} | {a:,.3f} | {100 * change:+.0f}%{flag} |")
    print(f"\n{len(worse)} of {len(keys)} figures more than {100 * TOLERANCE:.0f}% worse.")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
