"""Warnsdorff's walk on the number puzzle from every start, n = 5..20: which starts fail, and why.

For every start a walk under Warnsdorff's rule (ties broken clockwise from
north) is audited by the oracle: a stuck walk either made a first fatal move
(a completion existed from its start) or started where no solution starts at
all. Prints the markdown table the README shows and writes it to
``reports/numbers-warnsdorff.md``. Usage::

    python bench/numbers_walks.py [--sizes 5-20] [--order clockwise] [--backend auto]
"""

import argparse
import platform
import sys
import time
from pathlib import Path

# keep bench/ off the import path (bench/oracle.py would shadow the oracle package)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.core import PathState  # noqa: E402
from labyrinth.core.walk import Warnsdorff  # noqa: E402
from labyrinth.puzzles.numbers import numbers_puzzle  # noqa: E402
from oracle import get_oracle  # noqa: E402
from verify.path_audit import COMPLETE, NO_PATH, STUCK, audit_start  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _sizes(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="5-20")
    ap.add_argument("--order", default="clockwise")
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--out", default=str(ROOT / "reports" / "numbers-warnsdorff.md"))
    args = ap.parse_args(argv)
    rule = Warnsdorff(args.order)
    t0 = time.perf_counter()
    rows = ["| n | starts | walks complete | stuck | of which no solution from the start | "
            "fatal move: median jump (earliest-latest) | seconds |", "|---:|---:|---:|---:|---:|---|---:|"]
    with get_oracle(args.backend, time_limit=60) as oracle:
        for n in _sizes(args.sizes):
            t1 = time.perf_counter()
            puzzle = numbers_puzzle(n)
            audits = [audit_start(PathState(puzzle, (c,)), rule, oracle) for c in range(puzzle.graph.size)]
            stuck = [a for a in audits if a.outcome != COMPLETE]
            no_path = [a for a in audits if a.outcome == NO_PATH]
            fatal = sorted(a.first_fatal_step for a in audits if a.outcome == STUCK
                           and isinstance(a.first_fatal_step, int))
            undecided = sum(1 for a in audits if a.outcome == "unknown" or a.first_fatal_step == "unknown")
            span = f"{fatal[len(fatal) // 2]} ({fatal[0]}-{fatal[-1]})" if fatal else "-"
            if undecided:
                span += f"; {undecided} undecided"
            rows.append(f"| {n} | {len(audits)} | {len(audits) - len(stuck)} | {len(stuck)} | {len(no_path)} | "
                        f"{span} | {time.perf_counter() - t1:.1f} |")
            print(rows[-1], flush=True)
    head = (f"Made by `python bench/numbers_walks.py --sizes {args.sizes} --order {args.order}` "
            f"({(time.perf_counter() - t0) / 60:.1f} min, {platform.machine()}, Python {platform.python_version()}). "
            "Warnsdorff's rule, ties broken " + args.order + "; every start of every board, each stuck walk's "
            "first fatal move found by the oracle (bisection over the walk's prefixes).\n")
    Path(args.out).write_text("# Warnsdorff's walk on the number puzzle\n\n" + head + "\n" + "\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
