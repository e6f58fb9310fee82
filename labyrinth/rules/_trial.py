"""A trial of one move on the witness: the local repair, then an exact re-routing; the repair kept to replay.

:func:`trial` asks the cheap repair of :mod:`labyrinth.rules._repair`
(augmenting paths, then squares) and, where it leaves cycles, re-routes the
line in a small window round the cell entered
(:mod:`labyrinth.rules._reroute`). A repair that proved a move live is
kept (:func:`keep_repair`), so that when the walker takes that move the
witness replays it instead of searching again (:func:`replay_repair`).
"""

import numpy as np
from numba import njit

from labyrinth.rules._repair import (
    BUF,
    CTRL,
    DEAD,
    LAB,
    LIVE,
    MATE,
    RCNT,
    RDC,
    RDN,
    RDO,
    REROUTED,
    RSTAMP,
    RVER,
    UNKNOWN,
    VER,
    degrees,
    patch,
)
from labyrinth.rules._reroute import INW, VIS, reroute
from labyrinth.rules._twomatch import LOGC, LOGM, NLOG, TCTL, log_cell, log_start, undo

__all__ = ["keep_repair", "replay_repair", "repair", "reroute_move", "take_logged", "trial", "window_stamp"]

#: the windows (radius, search nodes) a trial re-routes in when the repair's 2-matching does not patch
WINDOWS = ((2, 400), (3, 3000))


# --- a trial ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def repair(nb, end, taken, head, free_count, d, w):
    """Repair the line for the move ``d`` (degrees, then squares), every change logged: DEAD, UNKNOWN or LIVE.

    LIVE leaves the line in ``MATE`` with the log; UNKNOWN leaves ``MATE`` as it was.
    """
    c = nb[head, d]
    m = w[MATE]
    for forward in (True, False):
        log_start(w)
        if not degrees(nb, end, taken, head, free_count, d, w, True, forward):
            return DEAD
        if patch(nb, end, c, free_count - 1, w):
            return LIVE
        undo(w, m)
    return UNKNOWN


@njit(cache=True, inline="always")
def window_stamp(w):
    """A fresh mark for the re-routing's rows (both cleared when the counter gets large)."""
    if w[CTRL, RSTAMP] >= 1 << 30 or w[CTRL, RSTAMP] < 0:
        w[INW, :] = 0
        w[VIS, :] = 0
        w[CTRL, RSTAMP] = 0
    w[CTRL, RSTAMP] += 1
    return w[CTRL, RSTAMP]


@njit(cache=True)
def reroute_move(nb, end, taken, head, free_count, d, w):
    """Mend the line for the move ``d`` by re-routing it exactly in a window round the cell entered (``taken``
    marks it): the line in ``BUF`` (REROUTED), or UNKNOWN."""
    width = int(np.sqrt(taken.shape[0]) + 0.5)
    for radius, budget in WINDOWS:
        if reroute(nb, width, end, head, d, free_count, w[MATE], w[LAB], taken, w, window_stamp(w), radius, budget,
                   w[BUF]):
            return REROUTED
    return UNKNOWN


@njit(cache=True)
def trial(nb, end, taken, head, free_count, d, w):
    """Every local repair for the move ``d``: DEAD, LIVE (line in ``MATE``, logged), REROUTED (line in ``BUF``)
    or UNKNOWN (``MATE`` then holds a perfect 2-matching after the move, logged)."""
    verdict = repair(nb, end, taken, head, free_count, d, w)
    if verdict != UNKNOWN:
        return verdict
    if reroute_move(nb, end, taken, head, free_count, d, w) == REROUTED:
        return REROUTED
    # the last repair again, left in ``MATE`` (a perfect 2-matching) for the caller
    log_start(w)
    degrees(nb, end, taken, head, free_count, d, w, True, False)
    return UNKNOWN


@njit(cache=True)
def take_logged(w):
    """Make ``BUF`` (a re-routed line) the masks in ``MATE``, every changed cell logged."""
    m = w[MATE]
    buf = w[BUF]
    log_start(w)
    for x in range(m.shape[0]):
        if m[x] != buf[x]:
            log_cell(w, m, x)
            m[x] = buf[x]


@njit(cache=True)
def keep_repair(w, d):
    """Keep the logged repair in ``MATE`` as move ``d``'s, to replay if the walker takes that move."""
    slab = w.shape[1] // 4
    n = w[TCTL, NLOG]
    w[CTRL, RCNT + d] = 0
    if n >= slab:
        return
    at = d * slab
    for k in range(n):
        x = w[LOGC, k]
        w[RDC, at + k] = x
        w[RDO, at + k] = w[LOGM, k]
        w[RDN, at + k] = w[MATE, x]
    w[CTRL, RCNT + d] = n
    w[CTRL, RVER + d] = w[CTRL, VER]


@njit(cache=True)
def replay_repair(nb, w, d, version):
    """Apply the repair kept for move ``d`` (while the witness had ``version``) to ``MATE``, logged; False if none."""
    n = w[CTRL, RCNT + d]
    if n <= 0 or w[CTRL, RVER + d] != version:
        return False
    at = d * (w.shape[1] // 4)
    m = w[MATE]
    log_start(w)
    for k in range(n):
        x = w[RDC, at + k]
        if m[x] != w[RDO, at + k]:
            undo(w, m)
            return False
        log_cell(w, m, x)
        m[x] = w[RDN, at + k]
    return True
