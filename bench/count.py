"""Counting benchmark: exact board counts by frontier DP, and rank / unrank / sample of walkthroughs.

Usage: python bench/count.py [--sizes 3,5,7,9,11,13,15] [--rank-sizes 9,11,13] [--paths 20] [--seed 1]
Targets (issue 6): 13x13 count under 10 s (Graphillion 2.1: 38.6 s on the project machine, out of
memory at 15x15); the 15x15 count computed; the rank of any 9x9 or 11x11 path under 1 s.
"""

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

# bench/oracle.py is named like the ``oracle`` package: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.engine import State  # noqa: E402
from oracle.count import CompletionCounter, sweep  # noqa: E402
from oracle.rank import sample_walkthrough, walkthrough_rank, walkthrough_unrank  # noqa: E402

#: OEIS A001184 as far as it is pinned in the tests; larger counts are printed for the record
KNOWN = {3: 2, 5: 104, 7: 111_712, 9: 2_688_307_514, 11: 1_445_778_936_756_068,
         13: 17_337_631_013_706_758_184_626}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="3,5,7,9,11,13,15")
    ap.add_argument("--rank-sizes", default="9,11,13")
    ap.add_argument("--paths", type=int, default=20, help="random walkthroughs ranked per size")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"# machine: {platform.processor() or platform.machine()}, python {platform.python_version()}, one core")
    sweep(State.from_moves(3, ""))  # load the compiled kernel

    print("\n## corner-to-corner paths of the n x n board (OEIS A001184)\n")
    print("| n | paths | peak frontier states | words of 62 bits | seconds |")
    print("|---|---|---|---|---|")
    for n in [int(v) for v in args.sizes.split(",")]:
        s = sweep(State.from_moves(n, ""))
        check = "" if n not in KNOWN else (" (= OEIS)" if KNOWN[n] == s.count else " (DIFFERS FROM OEIS)")
        print(f"| {n} | {s.count:,}{check} | {s.peak_states:,} | {s.limbs} | {s.seconds:.2f} |", flush=True)

    print(f"\n## rank / unrank / sample of uniformly random walkthroughs ({args.paths} per size, seed {args.seed})\n")
    print("Each operation starts from an empty count cache. Rank of a complete path: mean and max seconds; "
          "sweeps = completion counts computed per rank (pruned dead states included).\n")
    print("| n | rank mean s | rank max s | sweeps per rank | unrank mean s | sample mean s |")
    print("|---|---|---|---|---|---|")
    for n in [int(v) for v in args.rank_sizes.split(",")]:
        ranks, unranks, samples, sweeps = [], [], [], []
        for i in range(args.paths):
            t0 = time.perf_counter()
            number, state = sample_walkthrough(n, args.seed * 1_000_003 + n * 1_000 + i, CompletionCounter())
            samples.append(time.perf_counter() - t0)
            counter = CompletionCounter()
            t0 = time.perf_counter()
            rank = walkthrough_rank(state, counter)
            ranks.append(time.perf_counter() - t0)
            sweeps.append(counter.misses)
            if rank != number:
                raise SystemExit(f"rank {rank} != sampled number {number} at n={n}")
            t0 = time.perf_counter()
            again = walkthrough_unrank(n, number, CompletionCounter())
            unranks.append(time.perf_counter() - t0)
            if again != state:
                raise SystemExit(f"unrank({number}) != sampled path at n={n}")
        print(f"| {n} | {statistics.mean(ranks):.3f} | {max(ranks):.3f} | {statistics.mean(sweeps):.0f} | "
              f"{statistics.mean(unranks):.3f} | {statistics.mean(samples):.3f} |", flush=True)


if __name__ == "__main__":
    main()
