"""The exact-areas rule: it decides areas the counting rules only approximate (its soundness: tests/test_sound_rules.py)."""

from conftest import RuleByRule

from labyrinth.engine.walker import random_walk
from labyrinth.rules import get_rule_set


def test_walks_with_it_equal_walks_decided_rule_by_rule():
    rules = get_rule_set("universal", on=["exact-areas"])
    for i in range(6):
        a = random_walk(11, rules, 2, index=i)
        b = random_walk(11, RuleByRule(rules), 2, index=i)
        assert (a.state, a.outcome) == (b.state, b.outcome)
