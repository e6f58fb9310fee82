"""How well each oracle backend keeps ``--time-limit`` on big boards: the overshoot past the limit.

An open board minus one step (``N:R``) is the hardest case for a deadline: the
search walks a long witness, and SAT / CP-SAT first build a model of every
cell. Each backend decides it under limits of 0.01 s and 1 s, after one call
that loads the compiled kernels; the overshoot is the time spent past the limit.

Then the targets the test suite no longer checks (wall-clock time depends on the
machine's load, so tests only check that a time limit gives ``unknown`` or a
checked answer): every backend answers ``101:R`` and ``301:R`` under a 0.05 s
limit within 2 s, and a SAT solve that would take CaDiCaL about 15 s (13x13,
dead by colour count alone) stops within 1 s of a 0.3 s limit. Exit status 1
when a target is missed.

    python bench/limits.py            # about a minute
"""

import platform
import sys
import time
from pathlib import Path

# bench/oracle.py is named like the ``oracle`` package: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.engine import State, parse_state  # noqa: E402
from oracle import get_oracle  # noqa: E402

#: (what, seconds allowed in all): the targets
LARGE_BOARD_SECONDS = 2.0
SAT_INTERRUPT_SECONDS = 1.0


def overshoot_table():
    print(f"{'backend':<7} {'n':>5} {'limit s':>8} {'took s':>8} {'overshoot s':>12}  verdict")
    for n in (101, 301, 1001):
        state = parse_state(f"{n}:R")
        for backend in ("search", "sat", "cpsat", "auto"):
            for limit in (0.01, 1.0):
                with get_oracle(backend, time_limit=limit) as oracle:
                    oracle.decide(state, time_limit=0.01)  # kernels loaded, tables built
                    t0 = time.perf_counter()
                    verdict = oracle.decide(state)
                    took = time.perf_counter() - t0
                shown = {None: "unknown", True: "alive", False: "dead"}[verdict.feasible]
                print(f"{backend:<7} {n:>5} {limit:>8.2f} {took:>8.3f} {max(0.0, took - limit):>12.3f}  {shown}")


def targets():
    """The targets, one line each; True when all are met."""
    from oracle.sat import SatOracle
    from oracle.sat_encode import REQUIRED, TAKEN

    met = True
    for n in (101, 301):
        state = parse_state(f"{n}:R")
        for backend in ("search", "sat", "cpsat", "auto"):
            with get_oracle(backend, time_limit=0.05) as oracle:
                oracle.decide(state)  # loads the compiled kernels once
                t0 = time.perf_counter()
                oracle.decide(state)
                took = time.perf_counter() - t0
            ok = took < LARGE_BOARD_SECONDS
            met &= ok
            print(f"{backend} {n}x{n}, 0.05 s limit: {took:.2f} s (target < {LARGE_BOARD_SECONDS:g} s) "
                  f"{'ok' if ok else 'MISSED'}")
    n = 13
    status = [REQUIRED] * (n * n)
    status[2] = TAKEN
    for solver in ("cadical153", "glucose4"):
        with SatOracle(solver=solver) as sat:
            sat.decide(State.from_moves(n, "R"))  # the encoding built outside the timing
            t0 = time.perf_counter()
            sat.decide_facts(n, 0, n * n - 1, status, time_limit=0.3)
            took = time.perf_counter() - t0
        ok = took < SAT_INTERRUPT_SECONDS
        met &= ok
        print(f"{solver}, a 15 s solve under a 0.3 s limit: {took:.2f} s (target < {SAT_INTERRUPT_SECONDS:g} s) "
              f"{'ok' if ok else 'MISSED'}")
    return met


def main():
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    overshoot_table()
    print()
    return 0 if targets() else 1


if __name__ == "__main__":
    sys.exit(main())
