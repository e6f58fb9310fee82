"""One tour of a path puzzle through the oracle, by board size, backend and end mode: the time it takes.

For each size, each of ``open`` and ``closed`` and each backend the oracle
decides the state "the first cell alone" from the corner (1,1), three times in
one process after a warm-up on the same size (the figure is the median; the
first call pays the move graph's tables). Every witness is checked. Prints a
markdown table. Usage::

    python bench/solve.py [--puzzle numbers] [--sizes 10,20,50,100] [--backends search,auto] [--repeat 3]
"""

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

# keep bench/ off the import path (bench/oracle.py would shadow the oracle package)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.core import parse_path  # noqa: E402
from oracle import check_witness, get_oracle  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzle", default="numbers", help="a puzzle of path notation: numbers, knight")
    ap.add_argument("--sizes", default="10,20,50,100")
    ap.add_argument("--backends", default="search,auto")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=300.0)
    args = ap.parse_args(argv)
    print(f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}. "
          f"Command: `python bench/solve.py --puzzle {args.puzzle} --sizes {args.sizes} --backends {args.backends} "
          f"--repeat {args.repeat}`\n")
    print("| board | tour | backend | verdict | median s | min s | nodes |")
    print("|---|---|---|---|---:|---:|---:|")
    for n in (int(x) for x in args.sizes.split(",")):
        for closed in (False, True):
            state = parse_path(f"{args.puzzle}{'-closed' if closed else ''}:{n}@1,1:")
            for backend in args.backends.split(","):
                with get_oracle(backend, time_limit=args.time_limit) as oracle:
                    oracle.decide(state)  # warm-up: the move graph's tables are kept per graph
                times = []
                for _ in range(args.repeat):
                    with get_oracle(backend, time_limit=args.time_limit) as oracle:  # a fresh one: no memo
                        t0 = time.perf_counter()
                        verdict = oracle.decide(state)
                        times.append(time.perf_counter() - t0)
                    if verdict.feasible and not check_witness(state, verdict.witness):
                        raise SystemExit(f"{backend}: witness for {n}x{n} does not check")
                verdict_text = {True: "tour", False: "none", None: "unknown"}[verdict.feasible]
                print(f"| {n}x{n} | {'closed' if closed else 'open'} | {backend} | {verdict_text} | "
                      f"{statistics.median(times):.3f} | {min(times):.3f} | {verdict.work.get('nodes', '')} |",
                      flush=True)


if __name__ == "__main__":
    main()
