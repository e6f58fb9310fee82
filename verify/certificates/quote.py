"""The sound sets' reason for a move another rule set left open: what audits quote beside a missed-dead finding.

A missed-dead finding says a rule set (``default``, the research program's,
an external engine's) left a move open into a dead state. When a sound set
closes that move (``strong``, else the stronger :data:`SOUND_SETS` in turn:
the first that does is named), its certificate says why the move is dead, in
words the researcher can check on the board; when all of them leave it open
too, the finding needs an argument beyond them (a search).

>>> q = quote("9:RRDDDRDR", "D")
>>> q["closed"], q["rules"], q["words"]
(True, 'strong', ['1. these 15 black cells need 30 line ends; their 16 white neighbours can give 29: dead'])
"""

import functools

from verify.certificates.build import certificate
from verify.certificates.check import check
from verify.certificates.words import sentences

__all__ = ["SOUND_SETS", "quote", "quote_text"]

#: the sound named sets asked, weakest first (each closes what the one before it does, and more)
SOUND_SETS = ("strong", "strong+", "strong++", "strong+++")


@functools.lru_cache(maxsize=None)
def _rules(name):
    from labyrinth.rules import get_rule_set

    return get_rule_set(name)


def quote(state, move):
    """The sound sets' verdict on ``move`` from ``state`` (``N:MOVES`` or a state) and, when one closes it, why.

    Returns ``{"closed": bool, "rules": str or None, "certificate": dict or None, "words": [...]}``:
    ``closed`` says whether a set of :data:`SOUND_SETS` closes the move and
    ``rules`` names the first that does; the certificate (checked) and its
    sentences come with it, None when the builder finds none (a missing
    certificate).
    """
    from labyrinth.engine import State

    if isinstance(state, str):
        size, moves = state.split(":", 1)
        state = State.from_moves(int(size), moves)
    name = None
    if move in state.open_moves():
        name = next((s for s in SOUND_SETS if move not in _rules(s).open_moves(state)), None)
    if name is None:
        return {"closed": False, "rules": None, "certificate": None, "words": []}
    text = state.compact()
    cert = certificate(text, move)
    if cert is None or not check(text, move, cert).valid:
        return {"closed": True, "rules": name, "certificate": None, "words": []}
    return {"closed": True, "rules": name, "certificate": cert, "words": sentences(text, move, cert)}


def quote_text(q):
    """One paragraph for a report: the reason of the sound set that closes the move, or that none has one."""
    if not q["closed"]:
        return f"{SOUND_SETS[-1]} leaves this move open too: no certificate (the argument needs a search)"
    if q["certificate"] is None:
        return f"{q['rules']} closes this move, but the builder finds no certificate (missing)"
    k = len(q["certificate"]["steps"])
    return (f"{q['rules']} closes it; its certificate ({k} step{'' if k == 1 else 's'}, checked): "
            + " ".join(q["words"]))
