"""Oracle benchmark: median, p95 and max query time per backend and board size.

The state set is fixed by the seed: states along solver-guided random walks
(alive, at random depths), their one-wrong-move siblings (dead), and the empty
board. Every backend decides the same states in the same run, so ratios are
measured side by side. Usage::

    python bench/oracle.py [--sizes 7,9,13,21] [--states 200] [--seed 1]
                           [--backends auto,search,sat,cpsat] [--time-limit 10]
"""

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

# this script is named like the ``oracle`` package: keep its own folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.engine import State  # noqa: E402
from oracle import get_oracle  # noqa: E402
from oracle.guided import guided_states  # noqa: E402


def _percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="7,9,13,21")
    ap.add_argument("--states", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backends", default="auto,search,sat,cpsat")
    ap.add_argument("--time-limit", type=float, default=10.0)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    backends = args.backends.split(",")
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}; "
          f"seed {args.seed}; time limit {args.time_limit} s per query")
    print("| n | backend | states | alive | dead | unknown | median ms | p95 ms | max ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    warm = State.from_moves(5, "")
    for name in backends:  # compile / load every backend before timing
        with get_oracle(name) as o:
            o.decide(warm)
    for n in sizes:
        with get_oracle("auto", time_limit=120) as gen:
            states = [State.from_moves(n, "")] + guided_states(n, args.seed, gen, args.states - 1)
        medians = {}
        for name in backends:
            times, counts = [], {True: 0, False: 0, None: 0}
            with get_oracle(name, time_limit=args.time_limit) as oracle:
                for s in states:
                    t0 = time.perf_counter()
                    v = oracle.decide(s)
                    times.append(time.perf_counter() - t0)
                    counts[v.feasible] += 1
            medians[name] = statistics.median(times)
            print(f"| {n} | {name} | {len(states)} | {counts[True]} | {counts[False]} | {counts[None]} | "
                  f"{1e3 * medians[name]:.3f} | {1e3 * _percentile(times, 0.95):.3f} | {1e3 * max(times):.1f} |",
                  flush=True)
        if "auto" in medians and "cpsat" in medians:
            print(f"|   | cpsat / auto median ratio at n={n}: {medians['cpsat'] / medians['auto']:.0f}x | | | | | | | |")


if __name__ == "__main__":
    main()
