"""The commented template of each extension point (rule, backend, puzzle) imports and works as its comments say."""

import pytest
from brute import completions_exist, reachable_states

from labyrinth.core import parse_path
from labyrinth.engine import State
from labyrinth.rules import OPTIONAL, RuleSet
from labyrinth.rules.template import DeadEndTarget
from oracle import BACKENDS, get_oracle
from oracle.template import PlainSearch


def test_the_template_rule_is_sound_and_fires_on_5x5():
    rule = DeadEndTarget()
    closed = 0
    for state in reachable_states(5):
        for effect in rule.effects(state):
            closed += 1
            assert not completions_exist(state.after(effect.move)), (state.compact(), effect.move)
    assert closed > 100


def test_the_template_rule_switched_on_closes_its_moves_in_a_rule_set():
    rules = RuleSet("mine", [DeadEndTarget()], on=["dead-end-target"])
    state = State.from_moves(5, "DDDDRRR")  # R reaches the end corner with cells left
    decision = rules.decide(state)
    assert (state.open_moves(), decision.open, rules.open_moves(state)) == ("UR", "U", "U")
    assert [e.rule for e in decision.disabled["R"]] == ["dead-end-target"]
    assert RuleSet("mine", [DeadEndTarget()]).open_moves(state) == "UR"  # optional: off unless switched on
    assert not rules.compiled()  # a Python rule: the set walks in Python, as the template says
    assert DeadEndTarget not in OPTIONAL  # a template is not registered


@pytest.mark.parametrize("text", ["5:RRDD", "5:DRRU", "5:RRRRDDDD", "7:RRRRRRDDDDDLLLLL"])
def test_the_template_backend_agrees_with_the_search_backend(text):
    state = State.from_moves(int(text.split(":")[0]), text.split(":")[1])
    assert PlainSearch().decide(state).feasible == get_oracle("search").decide(state).feasible
    assert "plain" not in BACKENDS


@pytest.mark.parametrize("text", ["template:4@1,1:E,S", "template-closed:4@2,2:", "template:3@2,2:N,SW"])
def test_the_template_puzzle_is_read_by_name_and_solved(text):
    state = parse_path(text)  # imported by name on first use, as a new puzzle's package is
    assert state.compact() == text
    mine, theirs = PlainSearch().decide(state), get_oracle("search").decide(state)
    assert mine.feasible == theirs.feasible
