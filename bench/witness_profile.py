"""Where a big walk's time goes: the steps walked with the witness a line, and those with only a 2-matching (issue 40).

    python bench/witness_profile.py                        # strong, 101x101, walks 0-7 of seed 2026
    python bench/witness_profile.py -n 41 --rules strong+ --walks 0-19

A sound set carries a witness (a completion) from step to step
(:mod:`labyrinth.rules._witness`); where a move breaks it and no repair mends it,
it falls back to a perfect 2-matching with cycles, and every move is then
decided the expensive way (the closure over the whole board) until a patching
makes it a line again. The walk is taken in slices of a few steps (the same
walk as one call, :func:`labyrinth.rules.walks.walk_steps`); after each slice
the witness's mode is read off the scratch block, and the slice's time counted
against it. Prints one Markdown row a walk and the totals.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from labyrinth.engine import State  # noqa: E402
from labyrinth.rules import _repair, get_rule_set  # noqa: E402
from labyrinth.rules.frame import Tables  # noqa: E402
from labyrinth.rules.walks import RUNNING, _run_arrays, walk_seed, walk_steps  # noqa: E402

MODES = {_repair.PATH: "line", _repair.MATCHING: "2-matching", _repair.NONE: "none"}


def profile(runner, n, seed, index, slice_steps):
    """``{mode: [steps, seconds]}`` of one walk, and its outcome and length."""
    p = runner.program
    board = State.from_moves(n, "").board
    taken = np.zeros(board.size, np.uint8)
    taken[0] = 1
    path = np.zeros(board.size, np.int32)
    arrays, scratch = _run_arrays(p, board), Tables.of(board).scratch()
    length, outcome, rng, first = 1, RUNNING, np.uint64(walk_seed(seed, index)), True
    out = {name: [0, 0.0] for name in MODES.values()}
    while outcome == RUNNING:
        before = length
        t0 = time.perf_counter()
        length, outcome, rng = walk_steps(*arrays, taken, path, length, np.uint64(rng), scratch, p.area, p.window,
                                          p.trig, p.ntrig, slice_steps, first)
        first = False
        mode = MODES.get(int(scratch[_repair.CTRL, _repair.MODE]), "none")
        out[mode][0] += length - before
        out[mode][1] += time.perf_counter() - t0
    return out, outcome, length


def _walks(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=101)
    ap.add_argument("--rules", default="strong")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--walks", default="0-7", help="walk numbers, A-B")
    ap.add_argument("--slice", type=int, default=8, help="steps a kernel call (the mode is read between calls)")
    args = ap.parse_args(argv)
    runner = get_rule_set(args.rules).runner()
    runner.walk(State.from_moves(9, ""), 1)  # compile or load
    print(f"{args.rules}, {args.n}x{args.n}, seed {args.seed}: steps and seconds by the witness's mode after each "
          f"slice of {args.slice} steps\n")
    print("| walk | outcome | steps | line: steps | line: s | 2-matching: steps | 2-matching: s | s |")
    print("|---|---|---|---|---|---|---|---|")
    total = {name: [0, 0.0] for name in MODES.values()}
    for index in _walks(args.walks):
        got, outcome, length = profile(runner, args.n, args.seed, index, args.slice)
        for name, (steps, sec) in got.items():
            total[name][0] += steps
            total[name][1] += sec
        line, matching = got["line"], got["2-matching"]
        print(f"| {index} | {'complete' if outcome else 'stuck'} | {length - 1} | {line[0]} | {line[1]:.2f} | "
              f"{matching[0]} | {matching[1]:.2f} | {sum(v[1] for v in got.values()):.2f} |", flush=True)
    for name, (steps, sec) in total.items():
        if steps:
            print(f"\n{name}: {steps} steps, {sec:.1f} s, {1e6 * sec / steps:.0f} us a step", end="")
    print()


if __name__ == "__main__":
    main()
