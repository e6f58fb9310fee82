"""Future lines compiled: the numba propagation decides every state as the Python reference does."""

import numpy as np
import pytest
from conftest import RuleByRule

from labyrinth.engine import State
from labyrinth.engine.walker import random_walk
from labyrinth.rules import get_rule_set
from labyrinth.rules._lines import ROWS, lines_dead
from labyrinth.rules.frame import Tables
from labyrinth.rules.future import FutureLines, future_lines


def _kernel_dead(state, work, cells):
    t = Tables.of(state.board)
    taken = np.array(state.taken, dtype=np.uint8)
    return lines_dead(t.nb, t.end, taken, state.head, state.free_count, work, cells)


@pytest.mark.parametrize("n", [5, 7, 9, 11, 13, 15, 21])
@pytest.mark.parametrize("rules", ["none", "default"])
def test_kernel_and_reference_agree_on_every_state_of_seeded_walks(n, rules):
    # `none` walks reach mostly dead states, `default` walks mostly live ones: both verdicts are exercised
    work = np.zeros((ROWS, n * n), dtype=np.int32)
    cells = np.zeros(8, dtype=np.int32)
    verdicts = {True: 0, False: 0}
    for i in range(12 if n < 15 else 4):
        walk = random_walk(n, get_rule_set(rules), 2026, index=i)
        for k in range(walk.state.steps + 1):
            state = walk.state.prefix(k)
            if state.at_end():
                continue
            want = future_lines(state).dead is not None
            got = _kernel_dead(state, work, cells) > 0
            assert got == want, state.compact()
            verdicts[want] += 1
    assert verdicts[False] > 0
    if rules == "none":
        assert verdicts[True] > 0


def test_a_refutation_names_cells_of_the_board():
    state = State.from_moves(5, "RRRRDDLLL")  # the 2x2 pocket in the top left is cut off below the line
    n = state.n
    work = np.zeros((ROWS, n * n), dtype=np.int32)
    cells = np.zeros(8, dtype=np.int32)
    k = _kernel_dead(state, work, cells)
    assert future_lines(state).dead and k in (1, 2)
    assert all(0 <= c < n * n for c in cells[:k])


@pytest.mark.parametrize("n", [7, 9, 13])
def test_the_rule_closes_exactly_the_moves_the_reference_refutes(n):
    rule = FutureLines()
    for i in range(6):
        walk = random_walk(n, get_rule_set("universal"), 7, index=i)
        for k in range(0, walk.state.steps, 2):
            state = walk.state.prefix(k)
            got = {e.move for e in rule.effects(state)}
            want = {m for m in state.open_moves()
                    if not state.after(m).at_end() and future_lines(state.after(m)).dead}
            assert got == want, state.compact()


@pytest.mark.parametrize("n", [5, 9, 11, 21])
def test_compiled_walks_equal_walks_decided_rule_by_rule(n):
    rules = get_rule_set("default", on=["future-lines"])
    assert rules.compiled()
    for i in range(8 if n < 21 else 3):
        a = random_walk(n, rules, 5, index=i)
        b = random_walk(n, RuleByRule(rules), 5, index=i)
        assert (a.state, a.outcome) == (b.state, b.outcome)
