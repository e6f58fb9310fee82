"""Named rule sets: ``none`` and ``oracle``."""

from labyrinth.errors import LabyrinthError

__all__ = ["RULE_SETS", "NoRules", "OracleRules", "get_rule_set"]


class NoRules:
    """Every move onto a free neighbour is open."""

    name = "none"

    def open_moves(self, state):
        return state.open_moves()


class OracleRules:
    """A move is open only when the state after it has a completion (the perfect walker).

    Raises :class:`LabyrinthError` if the oracle cannot decide a move in time:
    the walker never guesses.
    """

    name = "oracle"

    def __init__(self, oracle=None):
        if oracle is None:
            from oracle import get_oracle
            oracle = get_oracle("auto")
        self.oracle = oracle

    def open_moves(self, state):
        out = []
        for move in state.open_moves():
            nxt = state.after(move)
            verdict = self.oracle.decide(nxt)
            if verdict.feasible is None:
                raise LabyrinthError("oracle timed out deciding a move", source=nxt.compact())
            if verdict.feasible:
                out.append(move)
        return "".join(out)


RULE_SETS = {"none": NoRules, "oracle": OracleRules}


def get_rule_set(name):
    """A rule set by name; a one-line error for unknown names."""
    if name not in RULE_SETS:
        raise LabyrinthError(f"unknown rule set (choose from {', '.join(RULE_SETS)})", token=name)
    return RULE_SETS[name]()
