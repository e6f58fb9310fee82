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

>>> from labyrinth.rules import get_rule_set
>>> [r.name for r in get_rule_set("strong+").active][-2:]     # strong's rules, then the probe
['closure', 'probe']
"""

from numba import njit

from labyrinth.rules import _lines
from labyrinth.rules._lines import FRC, NEED, OPT, POP
from labyrinth.rules.base import DISABLE, CompiledRule
from labyrinth.rules.closure import closure_rounds

__all__ = ["CODE", "HeadProbe", "probe_masks"]

CODE = 10


@njit(cache=True)
def _refuted(nb, colour, w, head, d, cells):
    """From the state's fixed point (kept), the closure after the move ``d``: 0, or how many ``cells`` refute it."""
    k = _lines.after_move(nb, w, head, d, cells)
    if k == 0:
        k = closure_rounds(nb, colour, w, head, cells)
    return k


@njit(cache=True)
def probe_masks(nb, colour, end, taken, head, free_count, moves, w, trig, ntrig):
    """Which of the moves ``moves`` (bits 0-3) the closure refutes with each way on from the cell entered forced.

    The future lines of the state are found once and kept; each move, and
    each option of the cell it enters, starts again from them. A move the
    closure refutes outright is closed too (the probe is the closure and
    more); the entered cell is the trigger of a move only the probe closes.
    """
    out = 0
    asked = 0
    for d in range(4):
        c = nb[head, d]
        if (moves >> d) & 1 and c >= 0 and taken[c] == 0 and c != end:
            asked |= 1 << d
    if asked == 0:
        return 0
    k = _lines.lines_dead(nb, end, taken, head, free_count, w, trig[0])
    if k:
        for d in range(4):
            if (asked >> d) & 1:
                out |= 1 << d
                trig[d, :k] = trig[0, :k]
                ntrig[d] = k
        return out
    _lines.keep(w)
    for d in range(4):
        if not (asked >> d) & 1:
            continue
        _lines.restore(w)
        k = _refuted(nb, colour, w, head, d, trig[d])
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
            if k == 0:
                k = closure_rounds(nb, colour, w, head, trig[d])
            if k == 0:
                dead = False
                break
        if dead:
            out |= 1 << d
            trig[d, 0] = c
            ntrig[d] = 1
    return out


class HeadProbe(CompiledRule):
    """Disable a move when the closure refutes every way the line can leave the cell it enters."""

    name = "probe"
    code = CODE
    kind = DISABLE
    optional = True
    summary = ("the closure once more for each way on from the cell a move enters (singleton consistency): a move "
               "whose every way on the closure refutes is closed")
