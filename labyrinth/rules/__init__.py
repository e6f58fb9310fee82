"""Rules and rule sets: which moves the walker may take from a state, and why.

So far: the protocol (:mod:`labyrinth.rules.base`), the study's C-shape rule,
and the two reference sets ``none`` (every free neighbour is open) and
``oracle`` (a move is open only if the state after it still has a completion:
the perfect walker, for comparison). The remaining universal rules, the
pattern language and the ``default`` set come next.
"""

from labyrinth.rules.base import Decision, Effect, Rule, RuleSet
from labyrinth.rules.cshape import CShape
from labyrinth.rules.sets import RULE_SETS, NoRules, OracleRules, get_rule_set

__all__ = [
    "CShape",
    "Decision",
    "Effect",
    "NoRules",
    "OracleRules",
    "RULE_SETS",
    "Rule",
    "RuleSet",
    "get_rule_set",
]
