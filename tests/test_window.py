"""The window rule window:R: sound on every board, exact when the window holds the whole board, memoised."""

import numpy as np
import pytest
from brute import completions_exist, reachable_states

from labyrinth.engine import State
from labyrinth.engine.walker import random_walk
from labyrinth.errors import LabyrinthError
from labyrinth.rules import get_rule_set
from labyrinth.rules.patterns import WINDOW_LEN
from labyrinth.rules.window import FEASIBLE, INFEASIBLE, WindowRule, traversable
from oracle import get_oracle


def test_a_window_that_holds_the_whole_5x5_board_decides_exactly():
    # radius 5 round any cell of a 5x5 board reaches past every edge: no outside is left, the rule is the oracle
    rule = WindowRule(5)
    closed = 0
    for state in reachable_states(5):
        if state.at_end():
            continue
        got = {e.move for e in rule.effects(state)}
        want = {m for m in state.open_moves()
                if not state.after(m).at_end() and not completions_exist(state.after(m))}
        assert got == want, state.compact()
        closed += len(got)
    assert closed > 1000


@pytest.mark.parametrize("radius", [1, 2, 3])
def test_the_window_rule_never_closes_a_live_move(radius):
    rule = WindowRule(radius)
    closed = 0
    with get_oracle("auto") as oracle:
        for n in (7, 9, 11):
            for i in range(12):
                walk = random_walk(n, get_rule_set("universal"), 9, index=i)
                for k in range(0, walk.state.steps, 2):
                    state = walk.state.prefix(k)
                    for effect in rule.effects(state):
                        closed += 1
                        assert oracle.decide(state.after(effect.move)).feasible is False, state.compact()
    if radius > 1:
        assert closed > 0


def _window(rows):
    """A window drawn as text: # off or taken, . free, E the end, H the head at the centre."""
    codes = {"O": 0, "#": 1, ".": 2, "E": 3, "H": 1}
    cells = [codes[ch] for row in rows for ch in row.split()]
    return np.array(cells, dtype=np.int64), len(rows)


def test_small_windows_by_hand():
    # two cells to visit in opposite corners, reached from outside: visit one, go round, visit the other, leave
    win, side = _window(["# # .", "# H .", ". # #"])
    assert traversable(win, side, 10_000) == FEASIBLE
    # under the board's top edge, two cells with one way in each besides the head: visit one from the head,
    # go round below to the other, and then there is no way left out to the end
    win, side = _window(["O O O", ". H #", "# . #"])
    assert traversable(win, side, 10_000) == INFEASIBLE
    # one cell below the head: step in and leave downwards for the end
    win, side = _window(["O O O", "# H #", "# . #"])
    assert traversable(win, side, 10_000) == FEASIBLE
    # the end in the window: go left and out, round below, and come back into the end from the right
    win, side = _window(["O O O", ". H E", "# # #"])
    assert traversable(win, side, 10_000) == FEASIBLE


def test_window_names_are_checked():
    assert [r.name for r in get_rule_set("universal", on=["window:3"]).active][-1] == "window:3"
    for bad in ("window:0", "window:9", "window:x"):
        with pytest.raises(LabyrinthError):
            get_rule_set("universal", on=[bad])


def test_walks_reuse_the_memo_and_decide_as_the_rule_alone():
    rules = get_rule_set("universal", on=["window:2"])
    program = rules.program()
    before = int(np.count_nonzero(program.window[WINDOW_LEN + 4::5]))  # the memo's verdict words
    for i in range(3):
        walk = random_walk(9, rules, 4, index=i)
        decided = State.from_moves(9, "")
        for move in walk.state.moves:
            assert move in rules.decide(decided).open
            decided = decided.after(move)
    filled = int(np.count_nonzero(program.window[WINDOW_LEN + 4::5]))
    assert filled > before
