"""Verifier benchmarks: exhaustive 7x7 audit, fully audited 21x21 walks, minimal patterns of dead 21x21 states.

Usage: python bench/audit.py [--walks 20] [--jobs 2]
Targets (issue 4): exhaustive 7x7 audit under 60 s on 2 cores; an audited random 21x21 walk
under 1 s on average; a minimal pattern for a dead 21x21 state under 1 s at the median.
"""

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

# bench/oracle.py is named like the ``oracle`` package: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.engine import parse_state  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402
from oracle import get_oracle  # noqa: E402
from oracle.sat import SatOracle  # noqa: E402
from verify import PatternError, Store, audit_walk, minimal_pattern, run_campaign  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--walks", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}")
    for rules in ("default", "universal"):
        with Store(":memory:") as store:
            run_campaign(store, n=5, rules_args=(rules, (), ()), exhaustive=True)  # compile outside the timing
            t0 = time.perf_counter()
            _, totals, findings = run_campaign(store, n=7, rules_args=(rules, (), ()), exhaustive=True,
                                               jobs=args.jobs)
            print(f"exhaustive 7x7 audit, {rules}, {args.jobs} jobs: {time.perf_counter() - t0:.1f} s, "
                  f"{totals.steps} states, {totals.queries} oracle queries, {len(findings)} findings")
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
    times, timeouts = [], 0
    with SatOracle() as sat:
        for state in dead:
            t0 = time.perf_counter()
            try:
                minimal_pattern(state, sat, time_limit=20.0)
            except PatternError:
                timeouts += 1  # counted, never guessed
            times.append(time.perf_counter() - t0)
    if times:
        print(f"minimal patterns of {len(times)} dead 21x21 states (re-verified): median "
              f"{statistics.median(times):.2f} s, max {max(times):.2f} s, {timeouts} over the 20 s limit")


if __name__ == "__main__":
    main()
