"""The walker's incremental area bookkeeping changes no decision of the global area analysis.

The reference is the same rule set compiled with ``incremental=False``: every
GLOBAL step then runs the whole-board block and pocket search, as before the
bookkeeping existed. Walks and per-state verdicts must agree (the enumeration does not use the bookkeeping).
"""

import random

import numpy as np
import pytest

from labyrinth.engine import State
from labyrinth.rules import areas, get_rule_set
from labyrinth.rules.frame import Tables
from labyrinth.rules.program import Program, decide


def _programs(name="default"):
    active = get_rule_set(name).active
    return Program(active), Program(active, incremental=False)


@pytest.mark.parametrize("n,walks", [(5, 300), (7, 300), (9, 200), (11, 100), (13, 60), (21, 25)])
def test_random_walks_are_identical_to_the_full_analysis(n, walks):
    fast, full = _programs()
    start = State.from_moves(n, "")
    for k in range(walks):
        assert fast.runner.walk(start, 11, k) == full.runner.walk(start, 11, k), (n, k)


def test_walks_from_a_saved_prefix_are_identical():
    fast, full = _programs()
    start = State.from_moves(13, "RRRRDDLLLLDDRRRRRRRRUUUU")
    for k in range(40):
        assert fast.runner.walk(start, 5, k) == full.runner.walk(start, 5, k)


def _lines(n, count, seed):
    """Random self-avoiding lines from the start (no rules: dead and split states too)."""
    rng = random.Random(seed)
    for _ in range(count):
        state = State.from_moves(n, "")
        for _ in range(rng.randrange(1, n * n)):
            moves = state.open_moves()
            if not moves:
                break
            state = state.after(rng.choice(moves))
        yield state


@pytest.mark.parametrize("n", [7, 9, 15])
def test_every_area_verdict_matches_on_random_lines(n):
    """With the bookkeeping started on the line, each direction's verdict equals the full analysis'."""
    fast, full = _programs()
    t = Tables.of(State.from_moves(n, "").board)
    arrays = fast.patterns.arrays()
    compared = 0
    for state in _lines(n, 150, n):
        if state.at_end():
            continue
        heading = "UDLR".index(state.moves[-1]) if state.steps else 1
        verdicts = []
        for program in (fast, full):
            taken = np.array(state.taken, dtype=np.uint8)
            scratch = t.scratch()  # the bookkeeping keeps its chain of cut cells there
            areas.track_init(t.nb, n, taken, program.area, scratch)
            mask = decide(program.order, t.nb, t.colour, n, t.end, taken, state.head, heading, state.free_count,
                          scratch, program.area, *arrays, program.window, program.trig, program.ntrig)
            verdicts.append((mask, program.area[:4, 0].tolist()))
            areas.track_stop(program.area)
            assert np.array_equal(taken, state.taken)
        assert verdicts[0] == verdicts[1], state.compact()
        compared += 1
    assert compared > 100


def test_bookkeeping_counts_match_a_recount_along_a_walk_and_back():
    """track_take / track_release keep the cut count equal to a fresh count, and never miss a split."""
    n = 11
    t = Tables.of(State.from_moves(n, "").board)
    area = np.zeros((5, 3), dtype=np.int32)
    area[4, 0] = areas.GLOBAL
    for state in _lines(n, 30, 3):
        taken = np.zeros(n * n, dtype=np.uint8)
        taken[0] = 1
        areas.track_init(t.nb, n, taken, area, t.scratch())
        for cell in state.path[1:]:
            areas.track_take(n, taken, cell, area)
        counts = (int(area[4, 1]), int(area[4, 2]) >> 1 > 0)
        fresh = np.zeros((5, 3), dtype=np.int32)
        fresh[4, 0] = areas.GLOBAL
        areas.track_init(t.nb, n, taken.copy(), fresh, t.scratch())
        # the cut count is exact; the split count only errs on the safe side (a line that used up a
        # part it had cut off leaves the rest connected, but the count still says "maybe split")
        assert counts[0] == fresh[4, 1] and (counts[1] or fresh[4, 2] >> 1 == 0), state.compact()
        for cell in reversed(state.path[1:]):
            areas.track_release(n, taken, cell, area)
        assert (area[4, 1], area[4, 2] >> 1) == (1, 0)  # the board minus its start corner has no cut cell
        areas.track_stop(area)
