"""The exact-areas rule: sound, and it decides areas the counting rules only approximate."""

from conftest import RuleByRule

from labyrinth.engine.walker import random_walk
from labyrinth.rules import get_rule_set
from labyrinth.rules.exact_areas import ExactAreas
from oracle import get_oracle


def test_it_never_closes_a_live_move_on_random_states_and_adds_to_the_universal_rules():
    rule = ExactAreas()
    universal = get_rule_set("universal")
    added = 0
    with get_oracle("auto") as oracle:
        for n, i in [(n, i) for n in (7, 9, 11, 13) for i in range(15)]:
            walk = random_walk(n, universal, 123, index=i)
            for k in range(walk.state.steps):
                state = walk.state.prefix(k)
                closed = {e.move for e in rule.effects(state)}
                for move in closed:
                    assert oracle.decide(state.after(move)).feasible is False, (state.compact(), move)
                added += len(closed & set(universal.open_moves(state)))
    assert added > 0


def test_walks_with_it_equal_walks_decided_rule_by_rule():
    rules = get_rule_set("universal", on=["exact-areas"])
    for i in range(6):
        a = random_walk(11, rules, 2, index=i)
        b = random_walk(11, RuleByRule(rules), 2, index=i)
        assert (a.state, a.outcome) == (b.state, b.outcome)
