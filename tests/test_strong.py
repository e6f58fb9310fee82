"""The `strong` rule set: sound rules only, perfect on 7x7, and its proven-live shortcut changes no decision."""

import numpy as np
import pytest
from conftest import RuleByRule

from labyrinth.engine import State
from labyrinth.engine.walker import enumerate_walks, random_walk
from labyrinth.rules import get_rule_set, matching
from labyrinth.rules.frame import Tables
from oracle import check_witness


def test_strong_is_compiled_sound_and_lists_its_rules():
    rules = get_rule_set("strong")
    assert rules.compiled() and rules.sound
    assert [r.name for r in rules.active] == ["c-shape", "two-matching", "near-border", "older-line", "count-area",
                                              "colour-imbalance", "closure"]
    assert list(rules.program().order).count(matching.CERTIFY_CODE) == 1


def test_every_rule_kernel_s_scratch_rows_fit_the_scratch_block():
    # the kernels index rows past their own block without bounds checks: a row too many corrupts memory
    from labyrinth.engine.graph import SCRATCH_ROWS
    from labyrinth.rules import _lines, _repair, _reroute, _twomatch, closure, exact_areas
    blocks = [(_lines.BASE, _lines.ROWS), (_twomatch.BASE, _twomatch.ROWS), (_reroute.BASE, _reroute.ROWS),
              (_repair.BASE, _repair.ROWS), (closure.BASE, closure.ROWS), (exact_areas.BASE, exact_areas.ROWS)]
    for (_, end), (start, _) in zip(blocks, blocks[1:]):
        assert end == start  # one block after another, none overlapping
    assert exact_areas.ROWS <= SCRATCH_ROWS


def test_strong_walks_every_7x7_walkthrough_and_never_gets_stuck():
    # a perfect walker on 7x7: all 111 712 corner-to-corner paths (OEIS A001184), no stuck leaf
    result = enumerate_walks(State.from_moves(7, ""), get_rule_set("strong"))
    assert (result.walkthroughs, result.stuck) == (111_712, 0)


@pytest.mark.parametrize("n", [5, 7, 9, 13, 21])
def test_the_proven_live_shortcut_changes_no_walk(n):
    rules = get_rule_set("strong")
    for i in range(12 if n < 13 else 3):
        a = random_walk(n, rules, 19, index=i)
        b = random_walk(n, RuleByRule(rules), 19, index=i)
        assert (a.state, a.outcome) == (b.state, b.outcome)


def _line(state, mask_row):
    """The cells of the line a 2-matching row draws from the head, as moves."""
    board = state.board
    moves, prev, cur = [], -1, state.head
    while True:
        nxt = [board.neighbours[cur, d] for d in range(4) if (mask_row[cur] >> d) & 1 and board.neighbours[cur, d] != prev]
        if not nxt:
            return "".join(moves)
        moves.append(board.move_between(cur, int(nxt[0])))
        prev, cur = cur, int(nxt[0])


@pytest.mark.parametrize("n", [9, 15])
def test_a_move_proven_live_has_a_completion_that_checks(n):
    # the certificate is a real completion of the state after the move, not a guess
    t = Tables.of(State.from_moves(n, "").board)
    proven = 0
    for i in range(4):
        walk = random_walk(n, get_rule_set("strong"), 5, index=i)
        work = t.scratch()
        for k in range(0, walk.state.steps - 1):
            state = walk.state.prefix(k)
            taken = np.array(state.taken, dtype=np.uint8)
            trig = np.zeros((4, 64), dtype=np.int32)
            ntrig = np.zeros(4, dtype=np.int32)
            out = matching.matching_masks(t.nb, t.colour, t.end, taken, state.head, state.free_count, 15, work,
                                          trig, ntrig, True)
            for d in range(4):
                if (out >> (d + 8)) & 1:
                    after = state.after("UDLR"[d])
                    found = np.zeros(n * n, dtype=np.int32)
                    assert matching.move_witness(t.nb, t.colour, t.end, taken, state.head, state.free_count, d,
                                                 work, found)
                    witness = _line(after, found)
                    assert check_witness(after, witness), (state.compact(), d)
                    proven += 1
    assert proven > 100


@pytest.mark.parametrize("extra", [("future-lines",), ("exact-areas",), ("probe",), ("probe:2",), ("probe:4",), ("cut",),
                                   ("gates",), ("window:2",), ("window:3",), ("exact-areas", "window:3"),
                                   ("probe-cut:1",), ("probe-cut:3",), ("subtour",)])
def test_a_rule_added_to_strong_keeps_what_strong_switches_on_and_never_makes_it_weaker(extra):
    # `--on` adds: the set keeps its two-matching and closure, and a sound rule added closes at least as much
    strong = get_rule_set("strong")
    more = get_rule_set("strong", on=extra)
    assert more.sound and {"two-matching", "closure"} <= {r.name for r in more.active}
    assert {r.name for r in strong.active} | set(extra) == {r.name for r in more.active}
    compared = 0
    for n, i in [(7, 0), (7, 1), (9, 0), (11, 0)]:
        walk = random_walk(n, strong, 31, index=i)
        for k in range(walk.state.steps):
            state = walk.state.prefix(k)
            assert set(more.open_moves(state)) <= set(strong.open_moves(state)), (state.compact(), extra)
            compared += 1
    assert compared > 200


def _strong_walked(n, index, steps):
    """Walk ``index`` of seed 2026 of the compiled `strong` walker, ``steps`` steps in on the n x n board:
    ``(nb, colour, end, taken, head, free, scratch)``."""
    from labyrinth.rules.walks import _run_arrays, walk_seed, walk_steps
    p = get_rule_set("strong").runner().program
    board = State.from_moves(n, "").board
    taken = np.zeros(board.size, np.uint8)
    taken[0] = 1
    path = np.zeros(board.size, np.int32)
    arrays, w = _run_arrays(p, board), Tables.of(board).scratch()
    length, _, _ = walk_steps(*arrays, taken, path, 1, np.uint64(walk_seed(2026, index)), w, p.area, p.window,
                              p.trig, p.ntrig, steps, True)
    return arrays[1], arrays[2], arrays[4], taken, int(path[length - 1]), board.size - length, w


def test_a_small_cycle_the_mend_leaves_is_entered_once_and_the_line_checks():
    # walk 10 of seed 2026 on 61x61, 196 steps in: the repair leaves a 2-matching that neither the mend nor the
    # closure's fixed point mended makes a line; the pocket entered once does (_recover._pocket_witness)
    from labyrinth.rules import _recover, _repair, _twomatch, _witness, closure
    nb, colour, end, taken, head, free, w = _strong_walked(61, 10, 196)
    assert _witness.sync(nb, colour, end, taken, head, free, w) == _repair.MATCHING
    old = w.copy()
    assert closure.closure_dead(nb, colour, end, taken, head, free, old, np.zeros(4, np.int64)) == 0
    old[_repair.MATE] = old[closure.FRC] | old[closure.CM]
    assert not _witness.mend(nb, end, taken, head, free, old)
    assert _recover.closure_witness(nb, colour, end, taken, head, free, w)
    assert _twomatch.is_line(nb, end, taken, head, free, w[_repair.MATE].copy(), w)


def test_the_line_the_closure_proves_a_move_live_by_becomes_the_witness_when_the_walker_takes_it():
    # walk a 21x21 strong walk one step a call: where the step taken is the move the closure proved live by a
    # completion (KDIR, at the witness's version then), the next sync installs that very line (no repair, no mend)
    from labyrinth.rules import _repair, _twomatch, _witness
    from labyrinth.rules.walks import RUNNING, _run_arrays, walk_seed, walk_steps
    n = 21
    p = get_rule_set("strong").runner().program
    board = State.from_moves(n, "").board
    installed = 0
    for index in range(6):
        taken = np.zeros(board.size, np.uint8)
        taken[0] = 1
        path = np.zeros(board.size, np.int32)
        arrays, w = _run_arrays(p, board), Tables.of(board).scratch()
        nb, colour, end = arrays[1], arrays[2], arrays[4]
        length, outcome, rng, first = 1, RUNNING, np.uint64(walk_seed(2026, index)), True
        while outcome == RUNNING:
            length, outcome, rng = walk_steps(*arrays, taken, path, length, np.uint64(rng), w, p.area, p.window,
                                              p.trig, p.ntrig, 1, first)
            first = False
            version = w[_repair.CTRL, _repair.VER]  # the version the state before the step was asked at
            if outcome != RUNNING or length < 3:
                continue
            before, head = int(path[length - 2]), int(path[length - 1])
            taken_move = [d for d in range(4) if nb[before, d] == head][0]
            if w[_repair.CTRL, _repair.KVER] != version or w[_repair.CTRL, _repair.KDIR] != taken_move:
                continue
            line = w[_repair.BUF].copy()
            free = board.size - length
            assert _twomatch.is_line(nb, end, taken, head, free, line, w)
            assert _witness.sync(nb, colour, end, taken, head, free, w) == _repair.PATH
            assert (w[_repair.MATE] == line).all()
            installed += 1
    assert installed > 0


def test_a_pocket_with_a_wide_neck_is_opened_and_the_line_checks():
    # walk 7 of seed 2026 on 101x101, 4159 steps in: the 2-matching keeps a cycle of 34 cells in a pocket whose
    # neck the line's excursion also takes, so no pair of edges out of the cycle bounds it; one edge out forced
    # opens it (_recover._opened), and the closure's fixed point then patches into a line
    from labyrinth.rules import _recover, _repair, _twomatch, _witness, closure
    nb, colour, end, taken, head, free, w = _strong_walked(101, 7, 4159)
    assert _witness.sync(nb, colour, end, taken, head, free, w) == _repair.MATCHING
    old = w.copy()
    assert closure.closure_dead(nb, colour, end, taken, head, free, old, np.zeros(4, np.int64)) == 0
    old[_repair.MATE] = old[closure.FRC] | old[closure.CM]
    assert not _witness.mend(nb, end, taken, head, free, old)
    assert _recover.closure_witness(nb, colour, end, taken, head, free, w)
    line = w[_repair.MATE].copy()
    assert _twomatch.is_line(nb, end, taken, head, free, line, w)
    # the line, read independently: from the head through every free cell to the end corner
    seen, cell, came = {head}, head, -1
    while True:
        ways = [d for d in range(4) if (line[cell] >> d) & 1 and d != came]
        if cell == end or not ways:
            break
        cell, came = int(nb[cell, ways[0]]), ways[0] ^ 1
        assert not taken[cell] and cell not in seen
        seen.add(cell)
    assert cell == end and len(seen) == free + 1


def test_the_closure_started_from_the_witness_refutes_exactly_what_it_refutes_from_nothing():
    # the closure's matching starts from the walker's line (closure._seed) or from nothing; which perfect
    # 2-matching it starts from must not change a verdict or the cells that show it
    from labyrinth.rules import _repair, closure
    from labyrinth.rules.walks import RUNNING, _run_arrays, walk_seed, walk_steps
    n = 21
    p = get_rule_set("strong").runner().program
    board = State.from_moves(n, "").board
    compared = refuted = 0
    for index in range(3):
        taken = np.zeros(board.size, np.uint8)
        taken[0] = 1
        path = np.zeros(board.size, np.int32)
        arrays, w = _run_arrays(p, board), Tables.of(board).scratch()
        nb, colour, end = arrays[1], arrays[2], arrays[4]
        length, outcome, rng, first = 1, RUNNING, np.uint64(walk_seed(2026, index)), True
        while outcome == RUNNING:
            length, outcome, rng = walk_steps(*arrays, taken, path, length, np.uint64(rng), w, p.area, p.window,
                                              p.trig, p.ntrig, 1, first)
            first = False
            if outcome != RUNNING or w[_repair.CTRL, _repair.MODE] != _repair.PATH:
                continue
            head, free = int(path[length - 1]), board.size - length
            verdicts = []
            for mode in (_repair.PATH, _repair.NONE):
                work = w.copy()
                work[_repair.CTRL, _repair.MODE] = mode
                work[_repair.CTRL, _repair.FAILS] = 0
                trig, ntrig = np.full((4, 64), -1, np.int64), np.zeros(4, np.int64)
                out = closure.closure_masks(nb, colour, end, taken, head, free, 15, work, trig, ntrig)
                verdicts.append((out & 15, [sorted(trig[d, :ntrig[d]]) for d in range(4) if (out >> d) & 1]))
            assert verdicts[0] == verdicts[1], (index, length)
            compared += 1
            refuted += bin(verdicts[0][0]).count("1")
    assert compared > 500 and refuted > 50


@pytest.mark.parametrize("n,walks", [(9, 300), (15, 100), (21, 40), (31, 6)])
def test_strong_with_local_area_reach_walks_the_walks_of_the_global_reach(n, walks):
    # strong's area rules analyse only steps that touch a wall or the line: what the global analysis adds, the
    # closure after them refutes, so a seeded walk (which depends only on the open moves) is the same walk
    from labyrinth.rules.closure import Closure
    from labyrinth.rules.cshape import CShape
    from labyrinth.rules.ruleset import RuleSet
    from labyrinth.rules.sets import UNIVERSAL
    strong = get_rule_set("strong")
    assert {r.reach for r in strong.active if hasattr(r, "reach")} == {"local"}
    wide = RuleSet("strong-global", [CShape(), matching.TwoMatching(), *(r("global") for r in UNIVERSAL[1:]),
                                     Closure()], frozenset(), {"two-matching", "closure"}, sound=True)
    start = State.from_moves(n, "")
    ours, theirs = strong.runner(), wide.runner()
    for i in range(walks):
        assert ours.walk(start, 2027, i) == theirs.walk(start, 2027, i), (n, i)
