"""The whole-board rules that are sound by construction never close a live move: every reachable 5x5 state."""

import pytest
from brute import completions_exist, reachable_states

from labyrinth.rules.closure import Closure
from labyrinth.rules.exact_areas import ExactAreas
from labyrinth.rules.matching import TwoMatching
from labyrinth.rules.probe import HeadProbe


@pytest.mark.parametrize(("rule", "at_least"), [(Closure(), 1000), (ExactAreas(), 1000), (TwoMatching(), 50), (HeadProbe(), 1000),
                                               (HeadProbe(3), 1000)],
                         ids=lambda x: getattr(x, "name", str(x)))
def test_the_rule_never_closes_a_live_move_on_any_5x5_state(rule, at_least):
    closed = 0
    for state in reachable_states(5):
        if state.at_end():
            continue
        for effect in rule.effects(state):
            closed += 1
            assert not completions_exist(state.after(effect.move)), (state.compact(), effect.move)
    assert closed > at_least  # it does close moves: the check has something to check
