"""How well each oracle backend keeps ``--time-limit`` on big boards: the overshoot past the limit.

An open board minus one step (``N:R``) is the hardest case for a deadline: the
search walks a long witness, and SAT / CP-SAT first build a model of every
cell. Each backend decides it under limits of 0.01 s and 1 s, after one call
that loads the compiled kernels; the overshoot is the time spent past the limit.

    python bench/limits.py            # about a minute
"""

import platform
import sys
import time
from pathlib import Path

# bench/oracle.py is named like the ``oracle`` package: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.engine import parse_state  # noqa: E402
from oracle import get_oracle  # noqa: E402


def main():
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
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


if __name__ == "__main__":
    main()
