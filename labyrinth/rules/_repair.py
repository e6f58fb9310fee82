"""The witness's local repair after a move: its rows, its labels, the degrees mended, the pieces patched.

The witness (:mod:`labyrinth.rules._witness`) is a line from the head
through every free cell to the end corner: the masks ``MATE`` (a
perfect 2-matching) and an integer *label* per cell, increasing along the
line (``LAB``). Labels, not positions: a repair moves pieces of the line
about, and labels spaced apart let the pieces it keeps in order keep their
labels while the few cells it moves get new ones in the gaps (the list
labelling of order-maintenance structures, Dietz and Sleator 1987); only
when a gap is too narrow is the whole line labelled again.

A move to ``c = p_i`` off the witness breaks two of its edges; augmenting
paths mend the degrees (:func:`degrees`), and the result is a line from
``c`` plus cycles. Every edge the repair removed cuts the old line, so its
pieces are unions of the old line's intervals between cuts joined by the
edges it added (:func:`patch`, a union-find over a few intervals); a
cycle is patched into another piece over a unit square (Karp 1979),
scanning the cells the repair changed first, then the cycle's own cells.
"""

import numpy as np
from numba import njit

from labyrinth.rules._lines import POP
from labyrinth.rules._reroute import ROWS as _REROUTE_ROWS
from labyrinth.rules._twomatch import (
    LOGC,
    LOGM,
    NLOG,
    OTHER,
    TCTL,
    augment,
    joins_early,
    log_drop,
    logged_mask,
    need,
    root,
    swap_square,
)

__all__ = ["ASK", "BASE", "BUF", "CTRL", "KDIR", "KVER", "LAB", "MATE", "ONL", "OUT_CLOSED", "OUT_OPEN", "PENDING",
           "ROWS", "TK", "degrees", "patch", "read", "retrace", "successor"]

#: first scratch row of the witness (after the re-routing's rows)
BASE = _REROUTE_ROWS
MATE, LAB, TK, CUTS, CUTL, CUTH, SEGP, BUF, RDC, RDO, RDN, ONL, CTRL = range(BASE, BASE + 13)
#: the scratch rows the witness uses (BASE .. ROWS - 1)
ROWS = BASE + 13
#: columns of the CTRL row: what ``MATE`` holds, the state it belongs to, stamps, the witness's version (every
#: change counts one), and per move the repair kept for it (entries, version)
MODE, WHEAD, WFREE, RSTAMP, OSTAMP, VER, FAILS, LASTF = range(8)
RCNT = 8  # .. 11
RVER = 12  # .. 15
#: the move whose line the closure left in ``BUF`` (:func:`labyrinth.rules.closure.closure_masks` proved it live by
#: one), and the witness's version then: the walker taking that move installs it (:func:`labyrinth.rules._witness.sync`)
KDIR, KVER = 16, 17
#: a pausing walk (:class:`labyrinth.rules.walks.PausingRunner`): nonzero when the walker stops at a move no rule proved
#: live, to have it checked outside (``ASK``); the moves checked outside at this state, closed and left open; the
#: move the walker stopped at (boards of at least 5 x 5: the row has ``n * n`` columns)
ASK, OUT_CLOSED, OUT_OPEN, PENDING = 18, 19, 20, 21
#: ``CTRL[MODE]``: no 2-matching known (the state has none, or nothing was built yet), a perfect 2-matching, a line
NONE, MATCHING, PATH = 0, 1, 2
#: verdicts of a repair
DEAD, UNKNOWN, LIVE = 0, 1, 2
#: a LIVE verdict whose line is in ``BUF`` (a re-routing), not in ``MATE``
REROUTED = 3
#: cycle cells a patch scans for squares before it gives up (the re-routing and the other rules take over)
SCAN = 256
#: the labels' range (the scratch rows hold 32-bit integers)
_LOW = -(1 << 31) + 1
_HIGH = (1 << 31) - 1


# --- labels --------------------------------------------------------------------------------------------------
@njit(cache=True)
def read(nb, end, head, free_left, w):
    """Label the line of ``MATE`` from the head, evenly spread; True if it is one line through every node.

    Every cell passed must have exactly its two line edges (one at the
    head and the end), so a line of the right length is the whole of ``MATE``.
    """
    m = w[MATE]
    lab = w[LAB]
    spacing = (_HIGH - _LOW) // (free_left + 2)
    d = -1
    for e in range(4):
        if (m[head] >> e) & 1:
            d = e
    bad = 0 if POP[m[head]] == 1 or free_left == 0 else 1
    cur = head
    j = 0
    lab[head] = _LOW + spacing
    while d >= 0 and j < free_left:
        cur = nb[cur, d]
        j += 1
        lab[cur] = _LOW + (j + 1) * spacing
        if POP[m[cur]] != (1 if j == free_left else 2):
            bad += 1
        d = OTHER[4 * m[cur] + (d ^ 1)]
    return bad == 0 and j == free_left and cur == end


@njit(cache=True, inline="always")
def successor(nb, w, head):
    """The witness's cell after the head (its first step)."""
    m = w[MATE, head]
    for e in range(4):
        if (m >> e) & 1:
            return nb[head, e]
    return -1


@njit(cache=True, inline="always")
def _next(nb, w, m, x, later):
    """The old line's cell after ``x`` (``later``) or before it: by the masks before the logged changes."""
    lab = w[LAB]
    k = logged_mask(w, m, x)
    out = -1
    for e in range(4):
        if (k >> e) & 1:
            y = nb[x, e]
            if (lab[y] > lab[x]) == later:
                out = y
    return out


# --- the degrees ---------------------------------------------------------------------------------------------
@njit(cache=True)
def degrees(nb, end, taken, head, free_count, d, w, logging, forward=True):
    """Repair ``MATE`` for the move ``d`` (``taken`` marks the cell entered): True if every degree is met.

    The old head leaves with its edge; the cell entered keeps one edge (the
    one leading on along the witness where it can, not the one to the end
    while other cells remain); the cells left short get augmenting paths.
    """
    m = w[MATE]
    c = nb[head, d]
    left = free_count - 1
    short = w[CUTS]  # borrowed: the short cells (at most 6), before the cuts are collected
    k = 0
    for e in range(4):
        if (m[head] >> e) & 1:
            x = nb[head, e]
            log_drop(nb, w, m, head, e, logging)
            if x != c:
                short[k] = x
                k += 1
    # the new head keeps the edge leading on along the witness (the one back drops: the cell before it and
    # the old head's next cell are the two left short; on the grid they differ, as no three cells are
    # pairwise adjacent), unless that edge leads into the end corner too early
    keep = -1
    if w[CTRL, MODE] == PATH:
        lab = w[LAB]
        for e in range(4):
            if (m[c] >> e) & 1 and (lab[nb[c, e]] > lab[c]) == forward:
                keep = e
    for e in range(4):
        if (m[c] >> e) & 1 == 1 and left > 1 and nb[c, e] == end:
            log_drop(nb, w, m, c, e, logging)
            short[k] = end
            k += 1
            if keep == e:
                keep = -1
    for e in range(4):
        if POP[m[c]] > 1 and (m[c] >> e) & 1 == 1 and e != keep:
            short[k] = nb[c, e]
            k += 1
            log_drop(nb, w, m, c, e, logging)
    if POP[m[c]] < 1:
        short[k] = c
        k += 1
    for i in range(k):
        s = short[i]
        while POP[m[s]] < need(taken, end, c, s):
            if not augment(nb, end, taken, c, left, m, s, w, logging):
                return False
    return True


# --- the pieces ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _cuts(nb, w):
    """The old line's edges the logged changes removed, sorted along the line; how many.

    Cut ``i`` lies between ``CUTL[i]`` and ``CUTH[i]`` (the cell before and
    after it); ``CUTS[i]`` is the label of ``CUTL[i]``.
    """
    m = w[MATE]
    lab = w[LAB]
    n = 0
    for k in range(w[TCTL, NLOG]):
        x = w[LOGC, k]
        gone = w[LOGM, k] & ~m[x]
        for e in range(4):
            if (gone >> e) & 1:
                y = nb[x, e]
                if x < y:
                    n += 1
    keys = np.empty(n, dtype=np.int64)
    lows = np.empty(n, dtype=np.int64)
    highs = np.empty(n, dtype=np.int64)
    i = 0
    for k in range(w[TCTL, NLOG]):
        x = w[LOGC, k]
        gone = w[LOGM, k] & ~m[x]
        for e in range(4):
            if (gone >> e) & 1:
                y = nb[x, e]
                if x < y:
                    lo, hi = (x, y) if lab[x] < lab[y] else (y, x)
                    keys[i] = ((np.int64(lab[lo]) - _LOW) << 20) | i
                    lows[i] = lo
                    highs[i] = hi
                    i += 1
    keys = np.sort(keys)
    for i in range(n):
        j = keys[i] & ((1 << 20) - 1)
        w[CUTL, i] = lows[j]
        w[CUTH, i] = highs[j]
        w[CUTS, i] = w[LAB, lows[j]]
    return n


@njit(cache=True, inline="always")
def _segment(w, ncut, x):
    """The interval of the old line that holds ``x``: how many cuts lie before it."""
    key = w[LAB, x]
    lo = 0
    hi = ncut
    cuts = w[CUTS]
    while lo < hi:
        mid = (lo + hi) >> 1
        if cuts[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _square(nb, end, c, left, w, ncut, p):
    """Swap a unit square with a side of ``p``'s in one piece and the parallel side in another; True if one was."""
    m = w[MATE]
    parent = w[SEGP]
    rs = root(parent, _segment(w, ncut, p))
    for e in range(4):
        if not (m[p] >> e) & 1:
            continue
        q = nb[p, e]
        for g in range(4):
            if g == e or g == (e ^ 1):
                continue
            p2 = nb[p, g]
            if p2 < 0 or not (m[p2] >> e) & 1:
                continue
            q2 = nb[q, g]
            rb = root(parent, _segment(w, ncut, p2))
            if rb == rs:
                continue
            if joins_early(c, end, left, p, p2, q, q2):
                continue
            swap_square(nb, w, m, p, e, g, True)
            parent[rb] = rs
            return True
    return False


@njit(cache=True)
def patch(nb, end, c, left, w):
    """After a logged repair of the line: True if the repaired 2-matching is one line from ``c``, patching cycles.

    The removed edges cut the old line into intervals; the added edges join
    intervals into pieces (a union-find over intervals); a piece other than
    the one of ``c`` is a cycle, and squares are sought at the cells the
    repair changed, then at most :data:`SCAN` cells of the cycles.
    """
    m = w[MATE]
    parent = w[SEGP]
    ncut = _cuts(nb, w)
    for s in range(ncut + 1):
        parent[s] = s
    pieces = ncut  # the intervals past the first (the first holds the old head alone)
    nlog = w[TCTL, NLOG]
    for k in range(nlog):
        x = w[LOGC, k]
        new = m[x] & ~w[LOGM, k]
        for e in range(4):
            if (new >> e) & 1:
                y = nb[x, e]
                if x < y:
                    ra = root(parent, _segment(w, ncut, x))
                    rb = root(parent, _segment(w, ncut, y))
                    if ra != rb:
                        parent[rb] = ra
                        pieces -= 1
    if pieces <= 1:
        return True
    for k in range(nlog):
        p = w[LOGC, k]
        if m[p] != 0 and _square(nb, end, c, left, w, ncut, p):
            pieces -= 1
            if pieces <= 1:
                return True
    changed = True
    scanned = 0
    while pieces > 1 and changed and scanned < SCAN:
        changed = False
        for s in range(1, ncut + 1):
            if root(parent, s) == root(parent, _segment(w, ncut, c)):
                continue
            p = w[CUTH, s - 1]
            last = w[CUTL, s] if s < ncut else end
            while p >= 0 and scanned < SCAN:
                scanned += 1
                if _square(nb, end, c, left, w, ncut, p):
                    pieces -= 1
                    changed = True
                    break
                if p == last:
                    break
                p = _next(nb, w, m, p, True)
            if pieces <= 1 or scanned >= SCAN:
                break
    return pieces <= 1


# --- the new line, labelled ------------------------------------------------------------------------------------
@njit(cache=True)
def retrace(nb, end, c, left, w):
    """Label the line a logged repair made: the old line's intervals it keeps in order keep their labels.

    The new line (from ``c``, ``left`` cells after it) runs through the old
    line's intervals between cuts, each whole, one way or the other, joined
    by the edges the repair added: it is traced interval by interval. The
    heaviest chain of intervals run forwards in their old order keeps its
    labels; the other intervals' cells get labels in the gaps between them.
    False (the caller labels the whole line) if the logged changes do not
    make one line or a gap is too narrow.
    """
    m = w[MATE]
    lab = w[LAB]
    ncut = _cuts(nb, w)
    # the pieces: interval s, run forwards or backwards, in the new line's order
    seg = np.empty(ncut + 1, dtype=np.int64)
    fwd = np.empty(ncut + 1, dtype=np.bool_)
    npc = 0
    x = c
    prev = -1
    while True:
        s = _segment(w, ncut, x)
        if s == 0 or npc > ncut:
            return False
        first = w[CUTH, s - 1]
        last = w[CUTL, s] if s < ncut else end
        if x == first:
            y = last
            inner = _next(nb, w, m, last, False) if first != last else prev
            fwd[npc] = True
        elif x == last:
            y = first
            inner = _next(nb, w, m, first, True) if first != last else prev
            fwd[npc] = False
        else:
            return False
        seg[npc] = s
        npc += 1
        if y == end:
            break
        z = -1
        for e in range(4):
            if (m[y] >> e) & 1 and nb[y, e] != inner:
                z = nb[y, e]
        if z < 0:
            return False
        prev = y
        x = z
    if npc != ncut:
        return False  # an interval left out: not one line
    # the heaviest chain of forward intervals in increasing old order keeps its labels (weights: label spans)
    best = np.zeros(npc, dtype=np.int64)
    back = np.full(npc, -1, dtype=np.int64)
    top = -1
    for i in range(npc):
        if not fwd[i]:
            continue
        si = seg[i]
        span = np.int64(lab[w[CUTL, si] if si < ncut else end]) - lab[w[CUTH, si - 1]] + 1
        best[i] = span
        for j in range(i):
            if fwd[j] and seg[j] < si and best[j] + span > best[i]:
                best[i] = best[j] + span
                back[i] = j
        if top < 0 or best[i] > best[top]:
            top = i
    keep = np.zeros(npc, dtype=np.bool_)
    i = top
    while i >= 0:
        keep[i] = True
        i = back[i]
    # the other intervals, run by run between kept ones: every run's cells walked first (by the old labels),
    # then labelled in the gaps
    buf = w[BUF]
    runs = np.empty(npc + 1, dtype=np.int64)  # where each piece's cells begin in ``buf`` (kept pieces: none)
    count = 0
    for i in range(npc):
        runs[i] = count
        if keep[i]:
            continue
        si = seg[i]
        first = w[CUTH, si - 1]
        last = w[CUTL, si] if si < ncut else end
        p = first if fwd[i] else last
        stop = last if fwd[i] else first
        while True:
            buf[count] = p
            count += 1
            if p == stop or count > left + 1:
                break
            p = _next(nb, w, m, p, fwd[i])
    runs[npc] = count
    below = np.int64(_LOW)
    i = 0
    while i < npc:
        if keep[i]:
            si = seg[i]
            below = lab[w[CUTL, si] if si < ncut else end]
            i += 1
            continue
        j = i
        while j < npc and not keep[j]:
            j += 1
        above = np.int64(_HIGH)
        if j < npc:
            above = lab[w[CUTH, seg[j] - 1]]
        a = runs[i]
        b = runs[j]
        if above - below - 1 < b - a:
            return False
        step = (above - below) // (b - a + 1)
        for t in range(a, b):
            lab[buf[t]] = below + (t - a + 1) * step
        below = lab[buf[b - 1]]
        i = j
    return True
