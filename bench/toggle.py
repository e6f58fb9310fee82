"""Toggle-squares benchmark: the 10 000 x 10 000 solve, every 5x5 minimum, the 8x8 / 11x11 worst cases, theorems.

Usage: python bench/toggle.py [--n 10000,10001] [--seed 1] [--theorems-max-n 200] [--skip-cli]
Targets (the toggle-squares issue): solvability and one solution of a random 10 000 x 10 000 board
under 20 s; the proven minimum presses of every solvable 5x5 state (2^16) under a minute; the
worst case over all solvable 8x8 and 11x11 states, proven; ``theorems --max-n 200`` under a minute.
"""

import argparse
import os
import platform
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

# bench/oracle.py is named like the ``oracle`` package: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import numpy as np  # noqa: E402  (after the path fix above)

from labyrinth.puzzles.toggle import (  # noqa: E402
    all_minima,
    brute_minimum,
    check_theorems,
    gf2,
    random_solvable,
    worst_case,
)
from labyrinth.puzzles.toggle.board import Board  # noqa: E402
from labyrinth.puzzles.toggle.solve import switching_value  # noqa: E402

#: OEIS A005311, Berlekamp's switching game on m x m, m = 1..8 (Fishburn and Sloane, Discrete Math. 74 (1989)
#: 263-290; Carlson and Stolarski, Discrete Math. 287 (2004) 145-150): compared with the search, not used by it
A005311 = [0, 1, 2, 4, 7, 11, 16, 22]


def _machine():
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, python {platform.python_version()}, numpy {np.__version__}"


def bench_large(n, seed):
    print(f"\n## solvability and one solution of a random {n} x {n} board (seed {seed})\n")
    print("| step | seconds |")
    print("|---|---|")
    t0 = time.perf_counter()
    state = random_solvable(n, seed)
    t1 = time.perf_counter()
    x = gf2.solve_packed(state.words, n)
    t2 = time.perf_counter()
    ok = x is not None and np.array_equal(gf2.apply_packed(x, n), state.words)
    t3 = time.perf_counter()
    if not ok:
        raise SystemExit("the large solve failed its check")
    print(f"| draw the board (A X A of random presses X) | {t1 - t0:.2f} |")
    print(f"| solvable? + one solution (two tridiagonal chases) | {t2 - t1:.2f} |")
    print(f"| check: A X A == B | {t3 - t2:.2f} |")
    print(f"| total in process | {t3 - t0:.2f} |")
    print(f"\n{n}x{n}: {state.count():,} cells on, {Board(x, n).count():,} presses, checked.")
    if n % 3 == 2:  # the corner cell flipped: not solvable (Theorem 1), and the oracle must say so
        state.words[0, 0] ^= np.uint64(1)
        t4 = time.perf_counter()
        none = gf2.solve_packed(state.words, n)
        t5 = time.perf_counter()
        if none is not None:
            raise SystemExit("a state off the solvable space was solved")
        print(f"The same board with its corner cell flipped: not solvable, answered in {t5 - t4:.2f} s.")


def bench_cli(args):
    """One ``labyrinth`` command end to end (interpreter start and imports included): its wall time."""
    cmd = [sys.executable, "-m", "labyrinth.cli", *args]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    print(f"\nCLI end to end: `labyrinth {' '.join(args)}`: {wall:.2f} s")


def bench_five():
    print("\n## proven minimum presses of every solvable 5x5 state\n")
    t0 = time.perf_counter()
    states, minima = all_minima(5)
    t1 = time.perf_counter()
    hist = Counter(int(m) for m in minima)
    print(f"{len(states):,} solvable states, each against all 2^9 solutions: {t1 - t0:.2f} s")
    print("\n| presses | states |")
    print("|---|---|")
    for k in sorted(hist):
        print(f"| {k} | {hist[k]:,} |")
    # a second, independent route on a sample: the switching reduction against brute force over the kernel
    from labyrinth.puzzles.toggle.solve import minimise

    picks = np.random.default_rng(5).choice(len(states), 2000, replace=False)
    t2 = time.perf_counter()
    for i in picks:
        cells = np.array([(int(states[i]) >> b) & 1 for b in range(25)], dtype=np.uint8).reshape(5, 5)
        x = Board(gf2.solve_packed(gf2.pack(cells), 5), 5)
        if minimise(x)[0].count() != minima[i]:
            raise SystemExit("the switching reduction disagrees with the exhaustive minimum")
    print(f"\n(the switching reduction agrees on 2000 of them: {time.perf_counter() - t2:.2f} s)")


def bench_worst(sizes):
    print("\n## worst case over all solvable states (the kernel's covering radius)\n")
    print("| n | worst | = k^2 + 2k(k+1) + G(m) | switching search nodes | proven | witness check | seconds |")
    print("|---|---|---|---|---|---|---|")
    for n in sizes:
        w = worst_case(n)
        k = (n - 2) // 3
        print(f"| {n} | {w.value} | {k * k} + {2 * k * (k + 1)} + G({w.switching_m}) = {w.switching_value} | "
              f"{w.nodes:,} | {'yes' if w.proven else 'NO'} | {w.checked} | {w.seconds:.2f} |", flush=True)
    print("\n| m | G(m) by the search | OEIS A005311 | nodes | seconds |")
    print("|---|---|---|---|---|")
    for m in range(1, 9):
        t0 = time.perf_counter()
        g, _, proven, nodes = switching_value(m)
        print(f"| {m} | {g}{'' if proven else ' (not proven)'} | {A005311[m - 1]} | {nodes:,} | "
              f"{time.perf_counter() - t0:.2f} |", flush=True)


def bench_theorems(max_n):
    print(f"\n## theorems --max-n {max_n}\n")
    t0 = time.perf_counter()
    t = check_theorems(max_n)
    wall = time.perf_counter() - t0
    failing = [f"{c.key} (n = {c.failures[0]}, ...)" for c in t.claims if not c.holds]
    print(f"{max_n} sizes in {wall:.2f} s; claims failing: {', '.join(failing) or 'none'}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=lambda t: [int(v) for v in t.split(",")], default=[10_000, 10_001],
                    help="board sizes of the large solve (default 10000,10001: a 3k+1 and a 3k+2 size)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--theorems-max-n", type=int, default=200)
    ap.add_argument("--skip-cli", action="store_true")
    args = ap.parse_args(argv)
    print(f"# machine: {_machine()}")
    t0 = time.perf_counter()
    random_solvable(5, 0)
    gf2.solve_packed(random_solvable(5, 0).words, 5)
    brute_minimum(Board.zeros(5))
    print(f"(numba kernels loaded or compiled: {time.perf_counter() - t0:.2f} s, not counted below)")
    for n in args.n:
        bench_large(n, args.seed)
        if not args.skip_cli:
            bench_cli(["toggle", "solve", "--random", "-n", str(n), "--seed", str(args.seed)])
    bench_five()
    if not args.skip_cli:
        bench_cli(["toggle", "solve", "--all", "-n", "5"])
    bench_worst([2, 5, 8, 11])
    if not args.skip_cli:
        bench_cli(["toggle", "solve", "--worst", "-n", "11"])
    bench_theorems(args.theorems_max_n)
    if not args.skip_cli:
        bench_cli(["toggle", "theorems", "--max-n", str(args.theorems_max_n), "--no-progress"])


if __name__ == "__main__":
    main()
