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
