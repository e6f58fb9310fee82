"""The closure rule: at least as strong as its parts (its soundness: tests/test_sound_rules.py)."""

import pytest

from labyrinth.engine.walker import random_walk
from labyrinth.rules import get_rule_set
from labyrinth.rules.closure import Closure
from labyrinth.rules.future import FutureLines
from labyrinth.rules.matching import TwoMatching


@pytest.mark.parametrize("n", [9, 11, 13])
def test_whatever_future_lines_or_the_matching_close_the_closure_closes(n):
    parts = (FutureLines(), TwoMatching())
    closure = Closure()
    more = 0
    for i in range(60 if n < 13 else 20):
        walk = random_walk(n, get_rule_set("universal"), 3, index=i)
        for k in range(walk.state.steps):
            state = walk.state.prefix(k)
            by_parts = {e.move for rule in parts for e in rule.effects(state)}
            by_closure = {e.move for e in closure.effects(state)}
            assert by_parts <= by_closure, state.compact()
            more += len(by_closure - by_parts)
    assert more > 0


def test_the_closure_closes_a_move_onto_the_end_corner_with_cells_left():
    # the line cannot go on from the end corner: entering it early is dead, whatever the area rules say
    from labyrinth.engine import State
    state = State.from_moves(5, "RRRRDDD")  # the head right above the end corner, 16 cells left beside it
    assert state.board.neighbours[state.head, 1] == state.end and state.free_count > 1
    effects = {e.move: e for e in Closure().effects(state)}
    assert "D" in effects
    assert "L" not in effects  # the other way on is live


@pytest.mark.parametrize("n", [7, 9])
def test_strong_without_its_area_rules_never_walks_into_the_end_corner_early(n):
    rules = get_rule_set("strong", off=["near-border", "older-line", "count-area", "colour-imbalance"])
    for i in range(40):
        walk = random_walk(n, rules, 2026, index=i)
        assert not (walk.state.head == walk.state.end and walk.state.free_count > 0), walk.state.compact()
