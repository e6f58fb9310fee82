"""Verifier benchmarks: exhaustive 7x7 audit, fully audited 21x21 walks, minimal patterns of dead 21x21 states.

Usage: python bench/audit.py [--walks 20] [--jobs 2] [--oracle-walks 1000] [--skip-exhaustive]
Targets (issue 4): exhaustive 7x7 audit under 60 s on 2 cores; an audited random 21x21 walk
under 1 s on average; a minimal pattern for a dead 21x21 state under 1 s at the median.
Acceptance run here as a benchmark: ``--rules oracle`` has zero findings on 7x7 exhaustive and on
1 000 random walks each at 9, 11 and 13.
"""

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

# bench/oracle.py is named like the ``oracle`` package: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.engine import load_trace, parse_state  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402
from oracle import first_dead_step, get_oracle  # noqa: E402
from verify import AuditSettings, PatternError, Store, audit_walk, minimal_pattern, run_campaign  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--walks", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--oracle-walks", type=int, default=0, metavar="K",
                    help="also audit K oracle-rule walks at 9, 11 and 13 (the acceptance run: 1000)")
    ap.add_argument("--skip-exhaustive", action="store_true")
    args = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}")
    for rules in () if args.skip_exhaustive else ("default", "universal", "oracle"):
        with Store(":memory:") as store:
            run_campaign(store, AuditSettings(
                n=5, rules_args=(rules, (), ()), exhaustive=True))  # compile outside the timing
            t0 = time.perf_counter()
            _, totals, findings = run_campaign(store, AuditSettings(
                n=7, rules_args=(rules, (), ()), exhaustive=True, jobs=args.jobs))
            print(f"exhaustive 7x7 audit, {rules}, {args.jobs} jobs: {time.perf_counter() - t0:.1f} s, "
                  f"{totals.steps} states, {totals.queries} oracle queries, {len(findings)} findings, "
                  f"{totals.walkthroughs} walkthroughs, {totals.stuck} stuck")
    for n in (9, 11, 13) if args.oracle_walks else ():
        with Store(":memory:") as store:
            t0 = time.perf_counter()
            _, totals, findings = run_campaign(store, AuditSettings(
                n=n, rules_args=("oracle", (), ()), walks=args.oracle_walks, seed=1, jobs=args.jobs))
            print(f"oracle-rule walks {n}x{n}: {args.oracle_walks} walks, {args.jobs} jobs, "
                  f"{time.perf_counter() - t0:.1f} s: {totals.walkthroughs} walkthroughs, {totals.stuck} stuck, "
                  f"{len(findings)} findings, {totals.queries} oracle queries")
    rules = get_rule_set("default")
    seconds, dead = [], []
    with get_oracle("auto") as oracle:
        audit_walk(9, rules, 0, 0, oracle)
        for i in range(args.walks):
            t0 = time.perf_counter()
            found, _ = audit_walk(21, rules, 1, i, oracle, fired=False)
            seconds.append(time.perf_counter() - t0)
            dead += [parse_state(f.dead_state) for f in found if f.kind == "missed-dead"]
    print(f"audited random 21x21 walks (default, {args.walks} walks): mean {statistics.mean(seconds):.2f} s, "
          f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s")
    _patterns("dead 21x21 states of the audited walks", dead)
    corpus = []
    with get_oracle("auto") as oracle:
        for path in sorted(CORPUS.glob("*.txt")):
            state = load_trace(path).state
            if state.n == 21:
                step, _ = first_dead_step(state, oracle)
                if step is not None:
                    corpus.append(state.prefix(step))
    _patterns("first dead states of the corpus's 21x21 files", corpus)


def _patterns(what, states):
    times, timeouts = [], 0
    for state in states:
        t0 = time.perf_counter()
        try:
            minimal_pattern(state, time_limit=20.0)
        except PatternError:
            timeouts += 1  # counted, never guessed
        times.append(time.perf_counter() - t0)
    if times:
        print(f"minimal patterns of {len(times)} {what} (re-verified): median "
              f"{statistics.median(times):.2f} s, max {max(times):.2f} s, {timeouts} over the 20 s limit")


if __name__ == "__main__":
    main()
