"""The certificate checker: replays a certificate's steps on the board and accepts it only when every step holds.

A certificate says "after move M from state S the line has no completion".
It is a list of steps about the line's *edges* in the state after M: the
nodes are the free cells and the head; an edge joins two neighbouring nodes
(the head-end edge only when the end is the last free cell); the head and
the end corner need one line edge, every other free cell two. Each step
derives facts (edges *forced*: used by every completion; edges *removed*:
used by none) from the board and the facts of the steps before it, or a
contradiction, which ends the certificate. The step kinds and why each is
sound are in docs/certificates.md; :data:`KINDS` maps each kind to its check.

The checker stands alone: this module, its board (:mod:`verify.certificates.board`)
and its step kinds (:mod:`verify.certificates.kinds`) import nothing but the
standard library (no rule, no oracle); it reads the state's size and moves,
the move and the steps, and trusts nothing a step claims. Adding a step kind:
see :mod:`verify.certificates.kinds`.

>>> cert = {"steps": [{"kind": "degree", "cell": [1, 2], "dead": True}]}
>>> check("5:RD", "R", cert).valid          # (1,2) keeps one free neighbour after R: it needs two
True
>>> check("5:RD", "L", cert)                 # after L, (1,2) is the head and needs one edge: it has one
Verdict(valid=False, step=1, reason='the step claims a contradiction it does not show')
"""

import dataclasses

from verify.certificates.board import MAX_SIZE, Board, Facts, Invalid, Outcome, parse_state
from verify.certificates.kinds import AREA_CELLS, AREA_NODES, KINDS, balance_range

__all__ = ["AREA_CELLS", "AREA_NODES", "KINDS", "MAX_DEPTH", "MAX_SIZE", "Board", "Facts", "Invalid", "Outcome",
           "Verdict", "balance_range", "check", "holds", "parse_state", "replay"]

#: how deeply ``case`` steps may nest
MAX_DEPTH = 8


@dataclasses.dataclass(frozen=True)
class Verdict:
    """The checker's answer: ``valid``, else the first failing ``step`` (1-based; None: the whole) and why."""

    valid: bool
    step: object = None
    reason: str = ""


def _claims(board, step):
    out = []
    for key in ("forces", "removes"):
        value = step.get(key, [])
        if not isinstance(value, (list, tuple)):
            raise Invalid(f"{key} must be a list of edges")
        out.append(frozenset(board.edge(v) for v in value))
    return out


def holds(board, facts, step, depth=0):
    """Check one step on ``facts`` and apply what it claims; its :class:`Outcome`, or :class:`Invalid`."""
    if not isinstance(step, dict) or step.get("kind") not in KINDS:
        raise Invalid(f"unknown step kind {step.get('kind') if isinstance(step, dict) else step!r}")
    if step["kind"] == "case":
        got = KINDS["case"](board, facts, step, run=lambda steps, inner: _run(board, steps, inner, depth + 1))
    else:
        got = KINDS[step["kind"]](board, facts, step)
    forces, removes = _claims(board, step)
    if step.get("dead") is True:
        if not got.dead:
            raise Invalid("the step claims a contradiction it does not show")
    elif got.dead:
        raise Invalid("the step shows a contradiction it does not claim")
    else:
        if not forces and not removes:
            raise Invalid("the step claims nothing")
        if not forces <= got.forces or not removes <= got.removes:
            raise Invalid("the step claims an edge it does not derive")
        facts.forced |= forces
        facts.removed |= removes
    return got


def _run(board, steps, facts, depth=0):
    """Replay ``steps`` on ``facts`` (changed in place); the outcomes; :class:`Invalid` at the first bad step."""
    if depth > MAX_DEPTH:
        raise Invalid(f"cases nest deeper than {MAX_DEPTH}")
    if not isinstance(steps, (list, tuple)) or not steps:
        raise Invalid("a certificate is a non-empty list of steps")
    outcomes = []
    for i, step in enumerate(steps, 1):
        try:
            got = holds(board, facts, step, depth)
        except Invalid as err:
            inner = f"{i}.{err.step}" if err.step is not None else i
            raise Invalid(err.reason, inner) from None
        outcomes.append(got)
        if got.dead:
            if i != len(steps):
                raise Invalid("steps follow the contradiction", i + 1)
            return outcomes
    raise Invalid("the steps end without a contradiction")


def replay(board, steps, facts=None):
    """The outcome of each step of a certificate on ``board``; :class:`Invalid` at the first that fails.

    ``facts``: what holds before the first step (a case's supposition; a copy is used), else nothing.
    """
    return _run(board, steps, Facts() if facts is None else facts.copy())


def check(state, move, certificate):
    """Check a certificate that ``move`` from ``state`` (``"N:MOVES"``) leaves no completion.

    Parameters
    ----------
    state : str
        The state before the move, ``N:MOVES``.
    move : str
        ``U``, ``D``, ``L`` or ``R``.
    certificate : dict
        ``{"steps": [...]}``, as :func:`verify.certificates.certify` writes it.

    Returns
    -------
    Verdict
    """
    try:
        board = Board.after(state, move)
        if board.free == 0:
            raise Invalid("the move completes the line: nothing is dead")
        if not isinstance(certificate, dict):
            raise Invalid("a certificate is an object with a list of steps")
        replay(board, certificate.get("steps"))
    except Invalid as err:
        return Verdict(False, err.step, err.reason)
    except RecursionError:
        return Verdict(False, None, "the certificate nests too deeply")
    return Verdict(True)
