"""Probe: the closure once more for each way the line can leave the cell a move enters (singleton consistency).

The closure (:mod:`labyrinth.rules.closure`) propagates future lines,
two-matching exchanges and connectedness to a fixed point. Where it neither
refutes the state after a move nor patches its fixed point into a completion,
the state may still be dead in a way each of its continuations shows: the
line must leave the cell it has just entered by one of that cell's options,
and the closure may refute every one of them. Trying each option in turn
and propagating is *singleton consistency* (Debruyne and Bessière 1997),
the standard strengthening of a propagator in constraint programming, here
at the one cell where the line has to go on. It is sound: every completion
of the state after the move leaves the entered cell by one of its options
(it has a step left to take), so when the closure refutes the state with
each option forced, no completion exists.

Many stuck walks of ``strong`` are of this kind: the walk
enters a state whose every next move the closure refutes
(``bench/strong_misses.py``: *seen after* 0). The probe asks only about the
moves the closure left open without proving them live, so a walk pays for
it only at the few states without a witness.

``probe-cut:K`` closes each supposition with the cut rule's forced edges
too (:func:`labyrinth.rules.cut.cut_rounds` after the closure): a
supposition is refuted where the closure, or the edges it forces across the
bridges and two-edge cuts of its options, meet a contradiction. That is as
sound (the cut rule's deductions hold in every completion of the supposed
state) and never weaker than ``probe:K``; it sees the dead states where a
move leaves the line a next step that only the cut refutes (a 101x101 stuck
walk of ``strong+++``, seed 2029, run 206: its last move opened a state whose
two ways on the closure and the cut refute, one of them the cut alone).

>>> from labyrinth.rules import get_rule_set
>>> [r.name for r in get_rule_set("strong+").active][-2:]     # strong's rules, then the probe
['closure', 'probe']
>>> [r.name for r in get_rule_set("strong+++", on=["probe-cut:3"]).active][-3:]
['cut', 'probe:3', 'probe-cut:3']
"""

import numpy as np
from numba import njit

from labyrinth.rules import _lines, codes
from labyrinth.rules._lines import FRC, NEED, OPT, POP
from labyrinth.rules.base import DISABLE, CompiledRule
from labyrinth.rules.closure import closure_after_move, closure_rounds, completion_kept
from labyrinth.rules.cut import cut_rounds

__all__ = ["CODE", "CUT_CODE", "MAX_DEPTH", "HeadProbe", "probe_masks"]

#: the rule code of ``probe`` (depth 1); ``probe:K`` has code ``CODE + K - 1``
CODE = codes.PROBE
#: the rule code of ``probe-cut:1``; ``probe-cut:K`` has code ``CUT_CODE + K - 1``
CUT_CODE = codes.PROBE_CUT
#: the deepest look-ahead ``probe:K`` takes
MAX_DEPTH = codes.PROBE_MAX_DEPTH
#: rows of the look-ahead's path: per level, the frontier cell, its options still to try, the option tried
_CELL, _WAYS, _WAY = range(3)


@njit(cache=True)
def _replay(nb, colour, end, w, head, d, path, level, cut, cells):
    """From the state's kept fixed point: the move ``d``, then the ways on of ``path``'s first ``level`` levels
    forced, propagated and closed (with ``cut``, the cut rule's rounds after the closure); 0, or how many
    ``cells`` refute it."""
    _lines.restore(w)
    k = _lines.after_move(nb, w, head, d, cells)
    for i in range(level):
        if k:
            return k
        k = _lines.force(nb, w, path[_CELL, i], path[_WAY, i], cells)
        if k == 0:
            k = _lines.propagate(nb, w, cells)
    return _closed(nb, colour, end, w, head, k, cut, cells)


@njit(cache=True, inline="always")
def _closed(nb, colour, end, w, head, k, cut, cells):
    """The closure after a supposition propagated to ``k`` (0: no contradiction yet), then with ``cut`` the cut
    rule's rounds; 0, or how many ``cells`` refute it."""
    if k == 0:
        k = closure_rounds(nb, colour, w, head, cells)
    if k == 0 and cut:
        k = cut_rounds(nb, colour, w, head, end, cells)
    return k


@njit(cache=True, inline="always")
def _expand(w, head, end, path, level):
    """Put the frontier (the far end of the head's piece of line) and its ways on at ``level``; False where
    there is nothing to suppose (the line reached the end corner, or the closure left one way on)."""
    u = _lines._other_end(w, _lines._find(w, head), head)
    if u == end or POP[w[FRC, u]] >= w[NEED, u]:
        return False
    ways = w[OPT, u] & ~w[FRC, u]
    if ways == 0:
        return False
    path[_CELL, level] = u
    path[_WAYS, level] = ways
    return True


@njit(cache=True)
def _looked_ahead(nb, colour, end, taken, free_count, w, head, d, depth, cut, path, cells):
    """0 when a ``depth``-deep look-ahead does not refute the move ``d``, else how many ``cells`` show it.

    A depth-first search of the suppositions: each level supposes in turn
    every way the line can leave the frontier, and a level is refuted when
    the closure refutes each of its ways on, or each deeper level under it.
    The first supposition the closure leaves standing at the deepest level
    (or where nothing is left to suppose) ends it: the move is not refuted.
    So does a supposition whose fixed point patches into a completion
    (:func:`labyrinth.rules.closure.completion_kept`): the move is live, and
    its line is kept for the witness.
    """
    k = _replay(nb, colour, end, w, head, d, path, 0, cut, cells)
    if k:
        return k
    if not _expand(w, head, end, path, 0):
        return 0
    level = 0
    while True:
        ways = path[_WAYS, level]
        if ways == 0:
            if level == 0:
                cells[0] = nb[head, d]
                return 1  # every way on refuted, at every level
            level -= 1  # this level refuted: its parent's supposition goes
            continue
        e = 0
        while not (ways >> e) & 1:
            e += 1
        path[_WAYS, level] = ways & ~(1 << e)
        path[_WAY, level] = e
        if _replay(nb, colour, end, w, head, d, path, level + 1, cut, cells):
            continue
        if level + 1 < depth and completion_kept(nb, end, taken, head, free_count, d, w):
            return 0  # a completion under this supposition: the move is live
        if level + 1 < depth and _expand(w, head, end, path, level + 1):
            level += 1
            continue
        return 0


@njit(cache=True)
def probe_masks(nb, colour, end, taken, head, free_count, moves, w, trig, ntrig, depth, cut):
    """Which of the moves ``moves`` (bits 0-3) the closure refutes with each way on from the cell entered forced.

    The future lines of the state are found once and kept; each move, and
    each option of the cell it enters, starts again from them. A move the
    closure refutes outright is closed too (the probe is the closure and
    more); the entered cell is the trigger of a move only the probe closes.
    ``depth`` above 1 looks further ahead (``probe:K``, :func:`_looked_ahead`); ``cut`` closes each
    supposition with the cut rule too (``probe-cut:K``).
    """
    asked, out = _lines.start_moves(nb, end, taken, head, free_count, moves, w, trig, ntrig)
    if asked == 0:
        return out
    if depth > 1:
        path = np.zeros((3, depth), dtype=np.int64)
        for d in range(4):
            if (asked >> d) & 1:
                k = _looked_ahead(nb, colour, end, taken, free_count, w, head, d, depth, cut, path, trig[d])
                if k:
                    out |= 1 << d
                    ntrig[d] = k
        return out
    for d in range(4):
        if not (asked >> d) & 1:
            continue
        _lines.restore(w)
        k = closure_after_move(nb, colour, w, head, d, trig[d])
        if k == 0 and cut:
            k = cut_rounds(nb, colour, w, head, end, trig[d])
        if k:
            out |= 1 << d
            ntrig[d] = k
            continue
        c = nb[head, d]
        ways = w[OPT, c] & ~w[FRC, c]
        if POP[w[FRC, c]] >= w[NEED, c] or ways == 0:
            continue  # the closure already chose the way on: nothing to probe
        dead = True
        for e in range(4):
            if not (ways >> e) & 1:
                continue
            _lines.restore(w)
            k = _lines.after_move(nb, w, head, d, trig[d])
            if k == 0:
                k = _lines.force(nb, w, c, e, trig[d])
            if k == 0:
                k = _lines.propagate(nb, w, trig[d])
            k = _closed(nb, colour, end, w, head, k, cut, trig[d])
            if k == 0:
                dead = False
                break
        if dead:
            out |= 1 << d
            trig[d, 0] = c
            ntrig[d] = 1
    return out


class HeadProbe(CompiledRule):
    """Disable a move when the closure refutes every way the line can leave the cell it enters (``probe``), or
    every way on ``depth`` levels deep (``probe:K``, a look-ahead along the head)."""

    kind = DISABLE
    optional = True

    def __init__(self, depth=1, cut=False):
        self.depth = int(depth)
        self.cut = bool(cut)
        if self.cut:
            self.name = f"probe-cut:{self.depth}"
            self.code = CUT_CODE + self.depth - 1
            self.summary = (f"the probe {self.depth} level{'s' if self.depth > 1 else ''} deep, each supposition "
                            "closed by the closure and then the cut rule (its bridges and two-edge cuts): a move "
                            "whose every branch they refute is closed")
        elif self.depth == 1:
            self.name = "probe"
            self.code = CODE
            self.summary = ("the closure once more for each way on from the cell a move enters (singleton "
                            "consistency): a move whose every way on the closure refutes is closed")
        else:
            self.name = f"probe:{self.depth}"
            self.code = CODE + self.depth - 1
            self.summary = (f"the probe {self.depth} levels deep: each way on from the far end of the line is "
                            "supposed in turn and closed, and again from there; a move whose every branch "
                            "the closure refutes is closed")

    def __repr__(self):
        return f"HeadProbe({self.depth}, cut=True)" if self.cut else f"HeadProbe({self.depth})"
