"""Walker core: keep-left enumeration counts and seeded random walks under the reference rule sets."""

import pytest
from conftest import RuleByRule

from labyrinth.engine import State
from labyrinth.engine.frame import keep_left_order
from labyrinth.engine.walker import enumerate_walks, random_walk
from labyrinth.errors import LabyrinthError
from labyrinth.rules import get_rule_set


def test_keep_left_order_is_left_straight_right():
    assert keep_left_order("D") == "RDL"  # facing down, the left hand points right on screen
    assert keep_left_order("U") == "LUR"
    assert keep_left_order("R") == "URD"
    assert keep_left_order("L") == "DLU"


def test_enumerate_5x5_without_rules_finds_all_104_walkthroughs():
    result = enumerate_walks(State.from_moves(5, ""), get_rule_set("none"))
    assert (result.walkthroughs, result.nodes) == (104, 90_111)
    assert result.stuck == result.nodes - result.walkthroughs - _inner_nodes(5)
    # keep-left: the first line explored turns left (right on screen) and runs along the top
    assert result.first_stuck.moves.startswith("RRRR")


def _inner_nodes(n):
    """Nodes of the full walk tree that have at least one child (independent recount)."""
    start = State.from_moves(n, "")
    inner = 0
    stack = [start]
    while stack:
        s = stack.pop()
        kids = s.open_moves()
        if kids:
            inner += 1
            stack.extend(s.after(m) for m in kids)
    return inner


def test_enumerate_5x5_with_oracle_never_gets_stuck():
    result = enumerate_walks(State.from_moves(5, ""), get_rule_set("oracle"))
    assert (result.walkthroughs, result.stuck) == (104, 0)


def test_enumerate_from_a_saved_prefix_counts_its_subtree():
    rules = get_rule_set("none")
    total = enumerate_walks(State.from_moves(5, ""), rules).walkthroughs
    parts = sum(enumerate_walks(State.from_moves(5, m), rules).walkthroughs for m in "DR")
    assert parts == total


@pytest.mark.parametrize("n", [5, 7, 9])
def test_oracle_walks_always_complete(n):
    rules = get_rule_set("oracle")
    for seed in range(5):
        walk = random_walk(n, rules, seed)
        assert walk.outcome == "complete" and walk.state.is_complete()


def test_random_walk_is_seeded_and_stuck_is_reported():
    rules = get_rule_set("none")
    a, b = random_walk(9, rules, 3), random_walk(9, rules, 3)
    assert a == b
    stuck = [w for w in (random_walk(9, rules, s) for s in range(30)) if w.outcome == "stuck"]
    assert stuck and all(w.stuck_step == w.state.steps and not w.state.open_moves()
                         or w.state.at_end() for w in stuck)


def test_unknown_rule_set_is_a_one_line_error():
    with pytest.raises(LabyrinthError, match="unknown rule set"):
        get_rule_set("magic")


# --- the compiled walker and the default rules ------------------------------------------------------

def test_default_rules_on_5x5_and_7x7_keep_every_walkthrough_and_never_get_stuck():
    # the acceptance figures: 104 and 111 712 walkthroughs (A001184), no stuck leaf
    rules = get_rule_set("default")
    five = enumerate_walks(State.from_moves(5, ""), rules)
    assert (five.walkthroughs, five.stuck) == (104, 0)
    seven = enumerate_walks(State.from_moves(7, ""), rules)
    assert (seven.walkthroughs, seven.stuck) == (111_712, 0)
    assert seven.first_stuck is None


def test_fast_rules_keep_every_7x7_walkthrough_and_report_their_stuck_leaves():
    result = enumerate_walks(State.from_moves(7, ""), get_rule_set("fast"))
    assert result.walkthroughs == 111_712
    if result.stuck:
        # the first stuck state is a real line that the rules leave nowhere to go
        s = result.first_stuck
        assert not s.is_complete() and get_rule_set("fast").open_moves(s) == ""


def test_compiled_and_python_enumeration_agree_on_a_subtree():
    # the same rule set walked by the numba core and by the Python loop (through a wrapper)
    rules = get_rule_set("default")

    start = State.from_moves(7, "DDDRRR")
    fast = enumerate_walks(start, rules)
    slow = enumerate_walks(start, RuleByRule(rules))
    assert (fast.walkthroughs, fast.stuck, fast.nodes) == (slow.walkthroughs, slow.stuck, slow.nodes)
    assert fast.walkthroughs > 0


def test_compiled_random_walks_follow_the_rules():
    rules = get_rule_set("default")
    for seed in range(20):
        walk = random_walk(11, rules, seed)
        state = walk.state
        for k in range(state.steps):
            assert state.moves[k] in rules.open_moves(state.prefix(k))
        if walk.outcome == "stuck":
            assert rules.open_moves(state) == "" and walk.stuck_step == state.steps
        else:
            assert state.is_complete()
    assert random_walk(11, rules, 4) == random_walk(11, rules, 4)
    assert random_walk(11, rules, 4) != random_walk(11, rules, 5)


def test_walk_statistics_are_reproducible_and_consistent():
    from labyrinth.engine.walker import walk_statistics

    rules = get_rule_set("fast")
    a = walk_statistics(9, rules, 50, seed=2)
    b = walk_statistics(9, rules, 50, seed=2)
    assert a.mean == b.mean and a.walks == b.walks
    assert a.low <= a.mean <= a.high
    # every run ends with one stuck walk: walks = completions + runs
    assert a.walks == round(a.mean * a.runs) + a.runs
    # the perfect walker never gets stuck: every run is censored at the cap
    perfect = walk_statistics(5, get_rule_set("oracle"), 2, seed=0, cap=3)
    assert (perfect.mean, perfect.censored) == (3, 2)


@pytest.mark.parametrize("name", ["default", "strong"])
def test_a_big_board_walked_in_slices_of_steps_walks_the_same_walks_as_one_call(name):
    # past SLICED_CELLS a walk is taken SLICE_STEPS steps a call (a stop is seen between calls): the same walk
    import numpy as np

    from labyrinth.rules.frame import Tables
    from labyrinth.rules.walks import SLICE_STEPS, SLICED_CELLS, runs_until_stuck, walk_seed, walk_steps

    n = 51
    board = State.from_moves(n, "").board
    assert board.size > SLICED_CELLS
    runner = get_rule_set(name).runner()
    p = runner.program
    t = Tables.of(board)
    arrays = (p.order, t.nb, t.colour, t.n, t.end, p.patterns.arrays())
    outcomes = set()
    for index in range(3):
        taken = np.zeros(board.size, dtype=np.uint8)
        taken[0] = 1
        path = np.zeros(board.size, dtype=np.int32)
        length, outcome, _ = walk_steps(*arrays, taken, path, 1, np.uint64(walk_seed(5, index)), t.scratch(),
                                        p.area, p.window, p.trig, p.ntrig, -1, True)
        cells, sliced = runner.walk(State.from_moves(n, ""), 5, index)
        assert cells == path[:length].tolist() and sliced == outcome
        assert length > SLICE_STEPS  # the sliced walk went on over several calls
        outcomes.add(outcome)
    # runs until stuck: the kernel's one call and the sliced walks agree on the walks they took
    whole = runs_until_stuck(*arrays, 5, 0, 3, t.scratch(), p.area, p.window, p.trig, p.ntrig)
    assert runner.runs_until_stuck(board, 5, 0, 3) == (int(whole[0]), int(whole[1]))
    assert outcomes  # the walks ran
