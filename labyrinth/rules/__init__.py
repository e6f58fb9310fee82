"""Rule sets: which moves the walker may take from a state.

So far the two reference sets: ``none`` (every free neighbour is open) and
``oracle`` (a move is open only if the state after it still has a completion:
the perfect walker, for comparison). The research's rules come next.
"""

from labyrinth.rules.sets import RULE_SETS, NoRules, OracleRules, get_rule_set

__all__ = [
    "NoRules",
    "OracleRules",
    "RULE_SETS",
    "get_rule_set",
]
