"""``strong``'s reason for a move another rule set left open: what audits quote beside a missed-dead finding.

A missed-dead finding says a rule set (``default``, the research program's,
an external engine's) left a move open into a dead state. When ``strong``
closes that move, its certificate says why the move is dead, in words the
researcher can check on the board; when ``strong`` leaves it open too, the
finding needs an argument beyond it (a search).

>>> q = quote("9:RRDDDRDR", "D")
>>> q["closed"], q["words"]
(True, ['1. these 15 black cells need 30 line ends; their 16 white neighbours can give 29: dead'])
"""

import functools

from verify.certificates.build import certificate
from verify.certificates.check import check
from verify.certificates.words import sentences

__all__ = ["quote", "quote_text"]


@functools.lru_cache(maxsize=1)
def _strong():
    from labyrinth.rules import get_rule_set

    return get_rule_set("strong")


def quote(state, move):
    """``strong``'s verdict on ``move`` from ``state`` (``N:MOVES`` or a state) and, when it closes it, why.

    Returns ``{"closed": bool, "certificate": dict or None, "words": [...]}``:
    ``closed`` says whether ``strong`` closes the move; the certificate
    (checked) and its sentences come with it, None when the builder finds
    none (a missing certificate).
    """
    from labyrinth.engine import State

    if isinstance(state, str):
        size, moves = state.split(":", 1)
        state = State.from_moves(int(size), moves)
    closed = move in state.open_moves() and move not in _strong().open_moves(state)
    if not closed:
        return {"closed": False, "certificate": None, "words": []}
    text = state.compact()
    cert = certificate(text, move)
    if cert is None or not check(text, move, cert).valid:
        return {"closed": True, "certificate": None, "words": []}
    return {"closed": True, "certificate": cert, "words": sentences(text, move, cert)}


def quote_text(q):
    """One paragraph for a report: strong's reason, or that it has none."""
    if not q["closed"]:
        return "strong leaves this move open too: no certificate (the argument needs a search)"
    if q["certificate"] is None:
        return "strong closes this move, but the builder finds no certificate (missing)"
    k = len(q["certificate"]["steps"])
    return f"strong closes it; its certificate ({k} step{'' if k == 1 else 's'}, checked): " + " ".join(q["words"])
