"""Walker benchmark: random walks per second, keep-left enumeration time, the study's statistic.

All rule sets run in one process, side by side. Usage::

    python bench/walker.py [--seconds 5] [--sizes 9,11,13,15,17,19,21] [--runs 1000] [--seed 1]
                           [--rules default,fast] [--clock wall|cpu] [--enumeration-only]

``--clock cpu`` times by this process's CPU seconds (``time.process_time``)
instead of the wall clock: on a shared machine, other jobs then slow a
figure much less (they take the core, not this process's seconds), which is
what a before/after comparison under load needs (``bench/before_after.py --cpu``).
"""

import argparse
import platform
import time

from labyrinth.engine import State
from labyrinth.engine.walker import STUDY_7X7_RULES, enumerate_walks, walk_statistics
from labyrinth.rules import get_rule_set

#: the length of one timed block of walks (the best block is reported beside the mean)
BLOCK_SECONDS = 0.25


#: the clock the figures are read from (``--clock``): wall seconds, or this process's CPU seconds
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def walks_per_second(rules, n, seconds, seed, clock=time.perf_counter):
    """Random walks from the empty line for ``seconds``: (walks/s, walks/s in the best block, mean length, completion rate).

    The run is timed in blocks of :data:`BLOCK_SECONDS`; as with ``timeit``'s
    repeats, the best block is what the machine does when nothing else takes
    the core, the mean is what this run got.
    """
    # bench/before_after.py runs this script on older trees too, where the runner hung off the program
    runner = rules.runner() if hasattr(rules, "runner") else rules.program().runner
    start = State.from_moves(n, "")
    runner.walk(start, seed)  # compile
    t0 = clock()
    k = complete = steps = 0
    best = 0.0
    while clock() - t0 < seconds:
        b0, k0 = clock(), k
        while clock() - b0 < BLOCK_SECONDS:
            cells, outcome = runner.walk(start, seed, k)
            k += 1
            complete += outcome
            steps += len(cells) - 1
        best = max(best, (k - k0) / (clock() - b0))
    dt = clock() - t0
    return k / dt, best, steps / k, complete / k


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--sizes", default="9,11,13,15,17,19,21")
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="default,fast")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                    help="time by the wall clock or by this process's CPU seconds (steadier on a shared machine)")
    ap.add_argument("--enumeration-only", action="store_true",
                    help="time the keep-left enumerations only (a before/after of many short rounds)")
    args = ap.parse_args(argv)
    clock = CLOCKS[args.clock]
    names = args.rules.split(",")
    sets = {name: get_rule_set(name) for name in names}
    print(f"# machine: {platform.processor() or platform.machine()}, python {platform.python_version()}, one core, {args.clock} clock")
    if not args.enumeration_only:
        print("\n## random 21x21 walks (one core)\n")
        print(f"| rules | walks/s | best {BLOCK_SECONDS} s block, walks/s | mean steps | completed |")
        print("|---|---|---|---|---|")
        for name, rules in sets.items():
            rate, best, length, done = walks_per_second(rules, 21, args.seconds, args.seed, clock)
            print(f"| {name} | {rate:,.0f} | {best:,.0f} | {length:.0f} | {done:.3f} |")
    print("\n## keep-left enumeration\n")
    print("| rules | n | walkthroughs | stuck | nodes | seconds |")
    print("|---|---|---|---|---|---|")
    for name, rules in sets.items():
        for n in (5, 7):
            enumerate_walks(State.from_moves(5, ""), rules)  # compile
            t0 = clock()
            r = enumerate_walks(State.from_moves(n, ""), rules)
            print(f"| {name} | {n} | {r.walkthroughs:,} | {r.stuck:,} | {r.nodes:,} | {clock() - t0:.2f} |")
    if args.enumeration_only:
        return
    print(f"\n## walkthroughs before the first stuck walk ({args.runs} runs, seed {args.seed})\n")
    print("| n | study (7x7 rules) | " + " | ".join(f"{name} mean [95% CI]" for name in names) + " |")
    print("|---|---|" + "---|" * len(names))
    for n in [int(s) for s in args.sizes.split(",")]:
        cells = []
        for name, rules in sets.items():
            st = walk_statistics(n, rules, args.runs, args.seed)
            cells.append(f"{st.mean:.2f} [{st.low:.2f}, {st.high:.2f}] ({st.seconds:.0f} s)")
        print(f"| {n} | {STUDY_7X7_RULES.get(n, '-')} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
