"""The certificates of the moves a rule set closes at a state, each checked before it is handed out.

>>> from labyrinth.engine import State
>>> from labyrinth.rules import get_rule_set
>>> found = closed_certificates(State.from_moves(7, "RRDDDL"), get_rule_set("strong"))
>>> sorted(found), [len(c["steps"]) for c in found.values()]
(['D', 'L'], [1, 1])
"""

from verify.certificates.build import certificate
from verify.certificates.check import check

__all__ = ["closed_certificates", "closed_moves"]


def closed_moves(state, rules):
    """The moves into free cells that ``rules`` leaves closed at ``state``, in U, D, L, R order."""
    open_now = rules.decide(state).open if rules.explains else rules.open_moves(state)
    return [m for m in state.open_moves() if m not in open_now]


def closed_certificates(state, rules, moves=None):
    """Move -> certificate for every move ``rules`` closes at ``state`` (None: the builder finds none).

    ``moves`` names the closed moves when the caller already knows them.
    Every certificate returned is accepted by the checker; one it rejects
    would be a bug in the builder, and is raised as ``RuntimeError``.
    """
    text = state.compact()
    out = {}
    for m in (closed_moves(state, rules) if moves is None else moves):
        cert = certificate(text, m)
        if cert is not None:
            verdict = check(text, m, cert)
            if not verdict.valid:
                raise RuntimeError(f"the checker rejects the certificate built for {text} {m}: {verdict.reason}")
        out[m] = cert
    return out
