"""The walker's witness: one completion of the current state, carried from step to step and repaired locally.

A *witness* is a line from the head through every free cell to the end
corner (a completion), kept as a perfect 2-matching of the free cells
(``MATE``: a 4-bit mask of the line's directions per cell) and as the
sequence of its cells (``SEQ``, ``POS``: the cell at each position, the
position of each cell, from an offset ``BASE`` that a step along the
witness advances by one). It proves moves *live* without asking any
other rule:

* the witness's own first step is live (the rest of the witness completes it);
* another move ``c = p_i`` (the witness goes ``head, p_1, ..., p_i, ...``) breaks
  two of its edges; augmenting paths (Hopcroft and Karp 1973) repair the
  degrees, and the repaired 2-matching is a line from ``c`` plus cycles.
  The pieces are read off the positions alone: every edge the repair
  removed cuts the old sequence, so the pieces are unions of the
  intervals between cuts joined by the edges it added (a few, where the
  repair was local). Cycles are patched into the line over unit squares
  whose two sides lie in two pieces (Karp 1979's patching, as
  :func:`labyrinth.rules.matching.as_path` does on the whole board), scanning
  only the cycles' own cells;
* a move after which no augmenting path repairs the degrees has no perfect
  2-matching, so no completion: it is *dead* (the two-matching rule).

Every change to ``MATE`` during a trial is logged (cell, old mask) and
undone, so asking about a move costs the repair's local work, not a copy
of the board. The state the witness belongs to is kept as a snapshot of
``taken`` (``TK``); :func:`sync` compares it with the state it is given:
the same state, one step on (the walker took a move: the witness advances
or is repaired and re-read), or anything else (rebuilt from scratch: a
2-matching, then patched over the whole board). A witness is re-read cell
by cell whenever it changes, and that walk checks it is one line through
every free cell, so a verdict never rests on a stale structure.
"""

import numpy as np
from numba import njit

from labyrinth.rules._lines import POP
from labyrinth.rules._reroute import INW, VIS, absorb, reroute
from labyrinth.rules._reroute import ROWS as _REROUTE_ROWS

__all__ = ["BASE", "BUF", "CTRL", "DEAD", "LIVE", "MATCHING", "MATE", "MODE", "NONE", "PATH", "ROWS", "UNKNOWN", "as_path",
           "augment", "build", "install", "is_line", "mend", "move_witness", "query", "query_reroute", "sync"]

#: first scratch row of the witness (after the re-routing's rows, which follow the future lines')
BASE = _REROUTE_ROWS
MATE, SEQ, POS, TK, LOGC, LOGM, LOGS, PREV, QUEUE, SEEN, CUTS, SEGP, BUF, RDC, RDO, RDN, CTRL = range(BASE, BASE + 17)
#: the scratch rows the witness uses (BASE .. ROWS - 1)
ROWS = BASE + 17
#: columns of the CTRL row: what ``MATE`` holds, the state it belongs to, the sequence's offset, the log, stamps,
#: the witness's version (every change counts one), and per move the repair kept for it (entries, version)
MODE, WHEAD, WFREE, WBASE, NLOG, LSTAMP, SSTAMP, RSTAMP, VER = range(9)
RCNT = 9  # .. 12
RVER = 13  # .. 16
#: ``CTRL[MODE]``: no 2-matching known (the state has none, or nothing was built yet), a perfect 2-matching, a line
NONE, MATCHING, PATH = 0, 1, 2
#: verdicts of :func:`query`
DEAD, UNKNOWN, LIVE = 0, 1, 2
#: a LIVE verdict of :func:`_trial` whose line is in ``BUF`` (a re-routing), not in ``MATE``
_REROUTED = 3
#: the windows (radius, search nodes) a trial re-routes in when the repair's 2-matching does not patch
_WINDOWS = ((2, 400), (3, 3000))
#: cycle cells a patch scans for squares before it gives up (the re-routing and the other rules take over)
_SCAN = 256

#: _OTHER[4 * mask + d]: the other direction of a two-edge mask that has ``d`` (-1 if none)
_OTHER = np.array([(next((f for f in range(4) if (m >> f) & 1 and f != d), -1) if (m >> d) & 1 else -1)
                   for m in range(16) for d in range(4)], dtype=np.int32)


# --- small pieces -------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _need(taken, end, head, c):
    if c == head or c == end:
        return 1
    return 0 if taken[c] else 2


@njit(cache=True, inline="always")
def _usable(nb, end, taken, head, free_left, a, d):
    """True if the edge from node ``a`` in direction ``d`` joins two nodes and may be used."""
    b = nb[a, d]
    if b < 0:
        return False
    if taken[b] != 0 and b != head:
        return False
    if free_left > 1 and ((a == head and b == end) or (a == end and b == head)):
        return False
    return True


@njit(cache=True, inline="always")
def _stamp(w, col, row):
    """A fresh mark for the stamp row ``row`` (its counter in ``CTRL[col]``; cleared when it gets large)."""
    if w[CTRL, col] >= 1 << 30 or w[CTRL, col] < 0:
        w[row, :] = 0
        w[CTRL, col] = 0
    w[CTRL, col] += 1
    return w[CTRL, col]


@njit(cache=True, inline="always")
def _log(w, x, logging):
    """Remember cell ``x``'s mask before its first change in this trial."""
    if logging and w[LOGS, x] != w[CTRL, LSTAMP]:
        w[LOGS, x] = w[CTRL, LSTAMP]
        k = w[CTRL, NLOG]
        w[LOGC, k] = x
        w[LOGM, k] = w[MATE, x]
        w[CTRL, NLOG] = k + 1


@njit(cache=True, inline="always")
def _drop(nb, w, m, a, d, logging):
    b = nb[a, d]
    _log(w, a, logging)
    _log(w, b, logging)
    m[a] &= ~(1 << d)
    m[b] &= ~(1 << (d ^ 1))


@njit(cache=True, inline="always")
def _add(nb, w, m, a, d, logging):
    b = nb[a, d]
    _log(w, a, logging)
    _log(w, b, logging)
    m[a] |= 1 << d
    m[b] |= 1 << (d ^ 1)


@njit(cache=True, inline="always")
def _window_stamp(w):
    """A fresh mark for the re-routing's rows (both cleared when the counter gets large)."""
    if w[CTRL, RSTAMP] >= 1 << 30 or w[CTRL, RSTAMP] < 0:
        w[INW, :] = 0
        w[VIS, :] = 0
        w[CTRL, RSTAMP] = 0
    w[CTRL, RSTAMP] += 1
    return w[CTRL, RSTAMP]


@njit(cache=True)
def _undo(w):
    """Put back every mask the trial changed."""
    m = w[MATE]
    for k in range(w[CTRL, NLOG]):
        m[w[LOGC, k]] = w[LOGM, k]
    w[CTRL, NLOG] = 0


@njit(cache=True, inline="always")
def _root(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


# --- degrees: augmenting paths and a 2-matching from scratch -----------------------------------------------
@njit(cache=True)
def augment(nb, end, taken, head, free_left, m, src, w, logging):
    """Give the node ``src`` (short of edges) one more, along an alternating path to another such node.

    Breadth-first over the residual graph: unmatched usable edges away from
    ``src``'s side, matched edges back (Hopcroft and Karp 1973). False if no
    such path exists. ``logging`` records the changed masks for :func:`_undo`
    (only when ``m`` is the ``MATE`` row).
    """
    size = taken.shape[0]
    stamp = _stamp(w, SSTAMP, SEEN)
    seen = w[SEEN]
    prev = w[PREV]
    queue = w[QUEUE]
    seen[src] = stamp
    prev[src] = -1
    queue[0] = src
    qh = 0
    qt = 1
    while qh < qt:
        a = queue[qh]
        qh += 1
        for d in range(4):
            if (m[a] >> d) & 1 == 1 or not _usable(nb, end, taken, head, free_left, a, d):
                continue
            b = nb[a, d]
            if seen[b] == stamp:
                continue
            seen[b] = stamp
            prev[b] = a
            if POP[m[b]] < _need(taken, end, head, b):
                # flip the path: unmatched edges in, matched edges out
                y = b
                add = True
                while prev[y] >= 0:
                    x = prev[y]
                    for e in range(4):
                        if nb[x, e] == y:
                            if add:
                                _add(nb, w, m, x, e, logging)
                            else:
                                _drop(nb, w, m, x, e, logging)
                            break
                    add = not add
                    y = x
                return True
            for e in range(4):
                if (m[b] >> e) & 1:
                    c = nb[b, e]
                    if seen[c] != stamp:
                        seen[c] = stamp
                        prev[c] = b
                        if qt < size:
                            queue[qt] = c
                            qt += 1
    return False


@njit(cache=True)
def build(nb, colour, end, taken, head, free_left, m, w):
    """A perfect 2-matching of the state in ``m`` from scratch (greedy, then augmenting paths); False if none."""
    size = taken.shape[0]
    for c in range(size):
        m[c] = 0
    for c in range(size):
        if _need(taken, end, head, c) == 0 or colour[c] != 1:
            continue
        for d in range(4):
            if POP[m[c]] >= _need(taken, end, head, c):
                break
            if _usable(nb, end, taken, head, free_left, c, d):
                b = nb[c, d]
                if POP[m[b]] < _need(taken, end, head, b):
                    m[c] |= 1 << d
                    m[b] |= 1 << (d ^ 1)
    for c in range(size):
        if colour[c] != 1:
            continue
        while POP[m[c]] < _need(taken, end, head, c):
            if not augment(nb, end, taken, head, free_left, m, c, w, False):
                return False
    for c in range(size):
        if POP[m[c]] != _need(taken, end, head, c):
            return False
    return True


@njit(cache=True)
def as_path(nb, end, taken, head, free_left, m, w):
    """Turn the perfect 2-matching ``m`` into one line from the head to the end (a completion); True on success.

    The matching is a path from the head to the end plus cycles. Two of its
    pieces joined by a unit square (two parallel matched edges, one in each)
    become one when the square swaps its sides (Karp 1979's patching, as
    used for Hamiltonian cycles in grid graphs): a cycle patched into the
    path makes a longer path, two cycles one cycle; every degree is kept.
    The squares are scanned until one piece is left or no square joins two
    pieces: then False, nothing proven (``m`` stays a perfect 2-matching).
    This is the whole-board form; :func:`query` patches only the cycles a
    local repair made.
    """
    size = taken.shape[0]
    label = w[PREV]
    parent = w[QUEUE]
    seen = w[SEEN]
    stamp = _stamp(w, SSTAMP, SEEN)
    total = free_left + 1
    # the path from the head: piece 0 (a two-edge cell is left by the edge it did not come in by)
    count = 1
    seen[head] = stamp
    label[head] = 0
    d = -1
    for e in range(4):
        if (m[head] >> e) & 1:
            d = e
    cur = head
    while d >= 0:
        cur = nb[cur, d]
        seen[cur] = stamp
        label[cur] = 0
        count += 1
        d = _OTHER[4 * m[cur] + (d ^ 1)]
    if count == total:
        return True
    pieces = 1
    for a in range(size):
        if seen[a] == stamp or _need(taken, end, head, a) == 0:
            continue
        cur = a
        d = -1
        for e in range(4):
            if (m[a] >> e) & 1:
                d = e
                break
        while seen[cur] != stamp:
            seen[cur] = stamp
            label[cur] = pieces
            cur = nb[cur, d]
            d = _OTHER[4 * m[cur] + (d ^ 1)]
        pieces += 1
    for k in range(pieces):
        parent[k] = k
    left = pieces - 1
    changed = True
    while left > 0 and changed:
        changed = False
        for p in range(size):
            if seen[p] != stamp:
                continue
            for e in (1, 3):  # each matched edge once: downwards and rightwards from p
                if not (m[p] >> e) & 1:
                    continue
                q = nb[p, e]
                for g in range(4):
                    if g == e or g == (e ^ 1):
                        continue
                    p2 = nb[p, g]
                    if p2 < 0 or seen[p2] != stamp or not (m[p2] >> e) & 1:
                        continue
                    q2 = nb[q, g]
                    ra = _root(parent, label[p])
                    rb = _root(parent, label[p2])
                    if ra == rb:
                        continue
                    if free_left > 1 and (p2 == head and p == end or p == head and p2 == end
                                          or q2 == head and q == end or q == head and q2 == end):
                        continue
                    _drop(nb, w, m, p, e, False)
                    _drop(nb, w, m, p2, e, False)
                    _add(nb, w, m, p, g, False)
                    _add(nb, w, m, q, g, False)
                    parent[rb] = ra
                    left -= 1
                    changed = True
                    break
                if left == 0:
                    break
            if left == 0:
                break
    return left == 0


@njit(cache=True)
def is_line(nb, end, taken, head, free_left, m, w):
    """True if the masks ``m`` draw one line from the head through every free cell to the end (checked cell by cell)."""
    stamp = _stamp(w, SSTAMP, SEEN)
    seen = w[SEEN]
    seen[head] = stamp
    d = -1
    bad = 0
    for e in range(4):
        if (m[head] >> e) & 1:
            d = e
            bad += 1
    if bad != 1 and free_left > 0:
        return False
    cur = head
    steps = 0
    while d >= 0 and steps < free_left:
        nxt = nb[cur, d]
        if nxt < 0 or taken[nxt] != 0 or seen[nxt] == stamp or (m[nxt] >> (d ^ 1)) & 1 == 0:
            return False
        seen[nxt] = stamp
        steps += 1
        cur = nxt
        d = _OTHER[4 * m[cur] + (d ^ 1)]
    return steps == free_left and cur == end and POP[m[end]] == 1


@njit(cache=True)
def install(nb, end, taken, head, free_left, m, w):
    """Make the line ``m`` (checked with :func:`is_line`) the witness of the state :func:`sync` last kept; True if it is one."""
    if not is_line(nb, end, taken, head, free_left, m, w):
        return False
    w[MATE, :] = m
    _read(nb, end, head, free_left, w)
    w[CTRL, MODE] = PATH
    return True


# --- the witness as a sequence ------------------------------------------------------------------------------
@njit(cache=True)
def _read(nb, end, head, free_left, w):
    """Read ``MATE`` from the head into ``SEQ``/``POS`` (offset 0); True if it is one line through every node.

    Every cell passed must have exactly its two line edges (one at the
    head and the end), so a line of the right length is the whole of ``MATE``.
    """
    m = w[MATE]
    seq = w[SEQ]
    pos = w[POS]
    d = -1
    for e in range(4):
        if (m[head] >> e) & 1:
            d = e
    bad = 0 if POP[m[head]] == 1 or free_left == 0 else 1
    cur = head
    j = 0
    seq[0] = head
    pos[head] = 0
    limit = free_left
    while d >= 0 and j < limit:
        cur = nb[cur, d]
        j += 1
        seq[j] = cur
        pos[cur] = j
        if POP[m[cur]] != (1 if j == limit else 2):
            bad += 1
        d = _OTHER[4 * m[cur] + (d ^ 1)]
    w[CTRL, WBASE] = 0
    return bad == 0 and j == free_left and cur == end


@njit(cache=True)
def _line_length(nb, head, w):
    """Read the line piece of ``MATE`` from the head into ``SEQ``/``POS``; how many cells follow the head."""
    m = w[MATE]
    seq = w[SEQ]
    pos = w[POS]
    d = -1
    for e in range(4):
        if (m[head] >> e) & 1:
            d = e
    cur = head
    j = 0
    seq[0] = head
    pos[head] = 0
    limit = seq.shape[0] - 1
    while d >= 0 and j < limit:
        cur = nb[cur, d]
        j += 1
        seq[j] = cur
        pos[cur] = j
        d = _OTHER[4 * m[cur] + (d ^ 1)]
    w[CTRL, WBASE] = 0
    return j


#: the bands (cells round a cycle) and search nodes :func:`mend` takes a cycle into the line with
_BANDS = ((1, 500), (2, 2000), (3, 8000), (4, 20000))


@njit(cache=True)
def mend(nb, end, taken, head, free_left, w):
    """Make the perfect 2-matching in ``MATE`` one line (a witness): unit squares, then cycles taken up locally.

    First Karp's patching over the whole board (:func:`as_path`); then each
    cycle left is taken into the line by an exact re-routing of the line's
    pieces in a band round it (:func:`labyrinth.rules._reroute.absorb`).
    True if ``MATE`` is then a line (read into ``SEQ``: the mode is PATH).
    """
    m = w[MATE]
    if as_path(nb, end, taken, head, free_left, m, w) and _read(nb, end, head, free_left, w):
        return True
    size = taken.shape[0]
    seq = w[SEQ]
    pos = w[POS]
    last = _line_length(nb, head, w)
    progress = True
    while progress and last < free_left:
        progress = False
        stamp = _stamp(w, SSTAMP, SEEN)
        for a in range(size):
            if last == free_left:
                break
            if _need(taken, end, head, a) != 2 or (pos[a] <= last and seq[pos[a]] == a) or w[SEEN, a] == stamp:
                continue
            # ``a`` lies on a cycle: try to take it into the line, in wider and wider bands
            for band, budget in _BANDS:
                if absorb(nb, end, head, free_left, m, seq, pos, last, a, band, w, _window_stamp(w), budget, w[BUF]):
                    m[:] = w[BUF]
                    last = _line_length(nb, head, w)
                    progress = True
                    break
            if not progress:
                _mark_cycle(nb, m, a, w, stamp)
    return last == free_left and _read(nb, end, head, free_left, w)


@njit(cache=True)
def _mark_cycle(nb, m, a, w, stamp):
    """Mark the cells of the cycle of ``m`` through ``a`` in ``SEEN`` (a cycle tried once a pass)."""
    d = -1
    for e in range(4):
        if (m[a] >> e) & 1:
            d = e
            break
    cur = a
    while d >= 0 and w[SEEN, cur] != stamp:
        w[SEEN, cur] = stamp
        cur = nb[cur, d]
        d = _OTHER[4 * m[cur] + (d ^ 1)]


@njit(cache=True)
def _settle(nb, end, taken, head, free_left, w, ok_matching):
    """After ``MATE`` changed for the state (``taken``, ``head``): the mode it is in, ``SEQ`` read if a line."""
    if not ok_matching:
        w[CTRL, MODE] = NONE
        return NONE
    if _read(nb, end, head, free_left, w) or mend(nb, end, taken, head, free_left, w):
        w[CTRL, MODE] = PATH
        return PATH
    w[CTRL, MODE] = MATCHING
    return MATCHING


@njit(cache=True)
def _keep_state(taken, head, free_count, w):
    tk = w[TK]
    for i in range(taken.shape[0]):
        tk[i] = taken[i]
    w[CTRL, WHEAD] = head
    w[CTRL, WFREE] = free_count


@njit(cache=True)
def _rebuild(nb, colour, end, taken, head, free_count, w):
    ok = build(nb, colour, end, taken, head, free_count, w[MATE], w)
    _keep_state(taken, head, free_count, w)
    return _settle(nb, end, taken, head, free_count, w, ok)


# --- one move: the local repair -----------------------------------------------------------------------------
@njit(cache=True)
def _degrees(nb, end, taken, head, free_count, d, w, logging, forward=True):
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
            _drop(nb, w, m, head, e, logging)
            if x != c:
                short[k] = x
                k += 1
    # the new head keeps the edge leading on along the witness (the one back drops: the cell before it and
    # the old head's next cell are the two left short; on the grid they differ, as no three cells are
    # pairwise adjacent), unless that edge leads into the end corner too early
    keep = -1
    if w[CTRL, MODE] == PATH:
        pos = w[POS]
        for e in range(4):
            if (m[c] >> e) & 1 and (pos[nb[c, e]] > pos[c]) == forward:
                keep = e
    for e in range(4):
        if (m[c] >> e) & 1 == 1 and left > 1 and nb[c, e] == end:
            _drop(nb, w, m, c, e, logging)
            short[k] = end
            k += 1
            if keep == e:
                keep = -1
    for e in range(4):
        if POP[m[c]] > 1 and (m[c] >> e) & 1 == 1 and e != keep:
            short[k] = nb[c, e]
            k += 1
            _drop(nb, w, m, c, e, logging)
    if POP[m[c]] < 1:
        short[k] = c
        k += 1
    for i in range(k):
        s = short[i]
        while POP[m[s]] < _need(taken, end, c, s):
            if not augment(nb, end, taken, c, left, m, s, w, logging):
                return False
    return True


@njit(cache=True, inline="always")
def _segment(w, base, ncut, x):
    """The interval of the old sequence that holds ``x``: how many cuts lie before it."""
    r = w[POS, x] - base
    lo = 0
    hi = ncut
    cuts = w[CUTS]
    while lo < hi:
        mid = (lo + hi) >> 1
        if cuts[mid] < r:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _cuts(nb, w):
    """The line's edges the logged changes removed, as sorted positions (after the head) in ``CUTS``; how many.

    A cut at ``q`` removes the edge between positions ``q`` and ``q + 1``;
    -1 if a removed edge was not one of the line read.
    """
    m = w[MATE]
    pos = w[POS]
    base = w[CTRL, WBASE]
    cuts = w[CUTS]
    ncut = 0
    for k in range(w[CTRL, NLOG]):
        x = w[LOGC, k]
        gone = w[LOGM, k] & ~m[x]
        for e in range(4):
            if (gone >> e) & 1:
                y = nb[x, e]
                if x < y:
                    a = pos[x] - base
                    b = pos[y] - base
                    if a - b != 1 and b - a != 1:
                        return -1
                    cuts[ncut] = a if a < b else b
                    ncut += 1
    cuts[:ncut].sort()
    return ncut


@njit(cache=True)
def _take_logged(w):
    """Make ``BUF`` (a re-routed line) the masks in ``MATE``, every changed cell logged."""
    m = w[MATE]
    buf = w[BUF]
    w[CTRL, NLOG] = 0
    _stamp(w, LSTAMP, LOGS)
    for x in range(m.shape[0]):
        if m[x] != buf[x]:
            _log(w, x, True)
            m[x] = buf[x]


@njit(cache=True)
def _retrace(nb, end, c, left, w):
    """Re-read the line after a logged repair from the pieces it kept, rewriting only the positions that moved.

    The new line (from ``c``, ``left`` cells after it) runs through the old
    line's intervals between cuts, each whole, one way or the other, joined
    by the edges the repair added: it is traced interval by interval. When
    it ends with an old interval run forwards to the end corner, that tail
    keeps its positions and only the cells before it are rewritten (the
    origin moves on by the one cell that left); otherwise every position is.
    False (nothing changed) if the logged changes do not make one line.
    """
    m = w[MATE]
    seq = w[SEQ]
    pos = w[POS]
    base = w[CTRL, WBASE]
    cuts = w[CUTS]
    ncut = _cuts(nb, w)
    if ncut < 0:
        return False
    old = left + 1  # the old line's last position (the end corner)
    pa = w[PREV]  # the pieces: old positions from .. to, in the new line's order
    pb = w[QUEUE]
    npc = 0
    x = c
    prev = -1
    count = 0
    while True:
        px = pos[x] - base
        s = _segment(w, base, ncut, x)
        if s == 0 or npc > ncut:
            return False
        lo = cuts[s - 1] + 1
        hi = cuts[s] if s < ncut else old
        if px == lo:
            pa[npc] = lo
            pb[npc] = hi
            y = seq[base + hi]
            inner = seq[base + hi - 1] if hi > lo else prev
        elif px == hi:
            pa[npc] = hi
            pb[npc] = lo
            y = seq[base + lo]
            inner = seq[base + lo + 1] if hi > lo else prev
        else:
            return False
        npc += 1
        count += hi - lo + 1
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
    if count != left + 1:
        return False
    # lay the pieces out: from the origin + 1, or only up to the tail run forwards to the end corner
    tail = npc
    stop = old + 1
    if pa[npc - 1] <= pb[npc - 1] and pb[npc - 1] == old:
        tail = npc - 1
        stop = pa[npc - 1]
    tmp = w[BUF]
    j = 0
    for i in range(tail):
        a = pa[i]
        b = pb[i]
        if a <= b:
            for q in range(a, b + 1):
                tmp[j] = seq[base + q]
                j += 1
        else:
            for q in range(a, b - 1, -1):
                tmp[j] = seq[base + q]
                j += 1
    start = base + stop - j
    for i in range(j):
        x = tmp[i]
        seq[start + i] = x
        pos[x] = start + i
    w[CTRL, WBASE] = start
    return True


@njit(cache=True)
def _patch(nb, end, head, c, left, w):
    """After a logged repair of a line: True if the repaired 2-matching is one line from ``c``, patching cycles.

    The removed edges cut the old sequence into intervals; the added edges
    join intervals into pieces (a union-find over intervals); a piece other
    than the one of ``c`` is a cycle, and its cells are scanned for a unit
    square whose parallel side lies in another piece.
    """
    m = w[MATE]
    seq = w[SEQ]
    base = w[CTRL, WBASE]
    cuts = w[CUTS]
    parent = w[SEGP]
    nlog = w[CTRL, NLOG]
    ncut = _cuts(nb, w)
    if ncut < 0:
        return False  # not edges of the line read: nothing proven
    for s in range(ncut + 1):
        parent[s] = s
    pieces = ncut  # the intervals past the first (the first holds the old head alone)
    for k in range(nlog):
        x = w[LOGC, k]
        new = m[x] & ~w[LOGM, k]
        for e in range(4):
            if (new >> e) & 1:
                y = nb[x, e]
                if x < y:
                    ra = _root(parent, _segment(w, base, ncut, x))
                    rb = _root(parent, _segment(w, base, ncut, y))
                    if ra != rb:
                        parent[rb] = ra
                        pieces -= 1
    if pieces <= 1:
        return True
    # squares at the cells the repair changed first (a cycle it made mostly touches one), then every cycle's cells
    nlog = w[CTRL, NLOG]
    for k in range(nlog):
        p = w[LOGC, k]
        if m[p] != 0 and _square(nb, end, c, left, w, ncut, base, p):
            pieces -= 1
            if pieces <= 1:
                return True
    changed = True
    scanned = 0
    while pieces > 1 and changed and scanned < _SCAN:
        changed = False
        for s in range(1, ncut + 1):
            rs = _root(parent, s)
            if rs == _root(parent, _segment(w, base, ncut, c)):
                continue
            lo = cuts[s - 1] + 1
            hi = cuts[s] if s < ncut else left + 1
            for j in range(lo, min(hi, lo + _SCAN - scanned) + 1):
                scanned += 1
                if _square(nb, end, c, left, w, ncut, base, seq[base + j]):
                    pieces -= 1
                    changed = True
                    break
            if pieces <= 1 or scanned >= _SCAN:
                break
    return pieces <= 1


@njit(cache=True)
def _square(nb, end, c, left, w, ncut, base, p):
    """Swap a unit square with a side of ``p``'s in one piece and the parallel side in another; True if one was."""
    m = w[MATE]
    parent = w[SEGP]
    rs = _root(parent, _segment(w, base, ncut, p))
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
            rb = _root(parent, _segment(w, base, ncut, p2))
            if rb == rs:
                continue
            if left > 1 and (p2 == c and p == end or p == c and p2 == end
                             or q2 == c and q == end or q == c and q2 == end):
                continue
            _drop(nb, w, m, p, e, True)
            _drop(nb, w, m, p2, e, True)
            _add(nb, w, m, p, g, True)
            _add(nb, w, m, q, g, True)
            parent[rb] = rs
            return True
    return False


@njit(cache=True)
def _repair(nb, end, taken, head, free_count, d, w):
    """Repair the line for the move ``d`` (degrees, then squares), every change logged: DEAD, UNKNOWN or LIVE.

    LIVE leaves the line in ``MATE`` with the log; UNKNOWN leaves ``MATE`` as it was.
    """
    c = nb[head, d]
    for forward in (True, False):
        w[CTRL, NLOG] = 0
        _stamp(w, LSTAMP, LOGS)
        if not _degrees(nb, end, taken, head, free_count, d, w, True, forward):
            return DEAD
        if _patch(nb, end, head, c, free_count - 1, w):
            return LIVE
        _undo(w)
    return UNKNOWN


@njit(cache=True)
def _reroute_move(nb, end, taken, head, free_count, d, w):
    """Mend the line for the move ``d`` by re-routing it exactly in a window round the cell entered: the line
    in ``BUF`` (_REROUTED), or UNKNOWN."""
    width = int(np.sqrt(taken.shape[0]) + 0.5)
    for radius, budget in _WINDOWS:
        if reroute(nb, width, end, head, d, free_count, w[MATE], w[SEQ], w[POS], w[CTRL, WBASE], w,
                   _window_stamp(w), radius, budget, w[BUF]):
            return _REROUTED
    return UNKNOWN


@njit(cache=True)
def _trial(nb, end, taken, head, free_count, d, w):
    """Every local repair for the move ``d``: DEAD, LIVE (line in ``MATE``, logged), _REROUTED (line in
    ``BUF``) or UNKNOWN (``MATE`` then holds a perfect 2-matching after the move, logged)."""
    verdict = _repair(nb, end, taken, head, free_count, d, w)
    if verdict != UNKNOWN:
        return verdict
    if _reroute_move(nb, end, taken, head, free_count, d, w) == _REROUTED:
        return _REROUTED
    # the last repair again, left in ``MATE`` (a perfect 2-matching) for the caller
    w[CTRL, NLOG] = 0
    _stamp(w, LSTAMP, LOGS)
    _degrees(nb, end, taken, head, free_count, d, w, True, False)
    return UNKNOWN


@njit(cache=True)
def _keep_repair(w, d):
    """Keep the logged repair in ``MATE`` as move ``d``'s, to replay if the walker takes that move."""
    size = w.shape[1]
    slab = size // 4
    n = w[CTRL, NLOG]
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
def _replay_repair(w, d):
    """Apply the repair kept for move ``d`` to ``MATE``, logged; False if none is kept for this witness."""
    n = w[CTRL, RCNT + d]
    if n <= 0 or w[CTRL, RVER + d] != w[CTRL, VER]:
        return False
    at = d * (w.shape[1] // 4)
    m = w[MATE]
    w[CTRL, NLOG] = 0
    _stamp(w, LSTAMP, LOGS)
    for k in range(n):
        x = w[RDC, at + k]
        if m[x] != w[RDO, at + k]:
            _undo(w)
            return False
        _log(w, x, True)
        m[x] = w[RDN, at + k]
    return True


# --- the state: kept in step with the walker ----------------------------------------------------------------
@njit(cache=True)
def sync(nb, colour, end, taken, head, free_count, w):
    """Make the witness belong to the state (``taken`` with the head, ``free_count`` free cells); its mode.

    The same state costs one comparison of ``taken`` with the snapshot; one
    step on along the witness a constant more; one step on elsewhere a
    local repair and one read of the new line; anything else a rebuild.
    """
    size = taken.shape[0]
    mode = w[CTRL, MODE]
    w[CTRL, VER] += 1  # repairs kept for the moves of an earlier witness are not replayed
    if mode != NONE or w[CTRL, WFREE] > 0:
        tk = w[TK]
        diff = 0
        for i in range(size):
            diff += taken[i] ^ tk[i]
        wh = w[CTRL, WHEAD]
        if diff == 0 and head == wh and w[CTRL, WFREE] == free_count:
            w[CTRL, VER] -= 1  # the same witness: its kept repairs still hold
            return mode
        if diff == 1 and tk[head] == 0 and w[CTRL, WFREE] == free_count + 1 and mode != NONE:
            d = -1
            for e in range(4):
                if nb[wh, e] == head:
                    d = e
            if d >= 0:
                tk[head] = 1
                w[CTRL, WHEAD] = head
                w[CTRL, WFREE] = free_count
                if mode == PATH and w[SEQ, w[CTRL, WBASE] + 1] == head:
                    m = w[MATE]
                    m[wh] = 0
                    m[head] &= ~(1 << (d ^ 1))
                    w[CTRL, WBASE] += 1
                    return PATH
                # the repair reads the state before the step (old head ``wh``) with the cell entered taken
                if mode == PATH:
                    w[CTRL, VER] -= 1
                    replayed = _replay_repair(w, d)
                    w[CTRL, VER] += 1
                    if replayed and _retrace(nb, end, head, free_count, w):
                        w[CTRL, NLOG] = 0
                        return PATH
                    if replayed:
                        _undo(w)
                    verdict = _trial(nb, end, taken, wh, free_count + 1, d, w)
                    if verdict == _REROUTED:
                        _take_logged(w)
                        verdict = LIVE
                    if verdict == LIVE and _retrace(nb, end, head, free_count, w):
                        w[CTRL, NLOG] = 0
                        return PATH
                    ok = verdict != DEAD
                else:
                    w[CTRL, NLOG] = 0
                    ok = _degrees(nb, end, taken, wh, free_count + 1, d, w, False)
                w[CTRL, NLOG] = 0
                return _settle(nb, end, taken, head, free_count, w, ok)
    return _rebuild(nb, colour, end, taken, head, free_count, w)


@njit(cache=True)
def query(nb, colour, end, taken, head, free_count, d, w):
    """Is the move ``d`` DEAD (no perfect 2-matching after it), LIVE (a completion found) or UNKNOWN?

    The cheap repairs only (the witness's own step, augmenting paths and
    squares); :func:`query_reroute` tries the costlier re-routing, which a
    rule set asks after its cheap rules. :func:`sync` must have run for this
    state. The cell entered must be free and not the end corner.
    """
    mode = w[CTRL, MODE]
    if mode == NONE:
        return DEAD
    c = nb[head, d]
    if mode == PATH:
        if w[SEQ, w[CTRL, WBASE] + 1] == c:
            return LIVE
        taken[c] = 1
        verdict = _repair(nb, end, taken, head, free_count, d, w)
        taken[c] = 0
        if verdict == LIVE:
            _keep_repair(w, d)
        _undo(w)
        return verdict
    # a 2-matching but no line: repair a copy, then patch it over the whole board
    buf = w[BUF]
    buf[:] = w[MATE]
    taken[c] = 1
    w[CTRL, NLOG] = 0
    _stamp(w, LSTAMP, LOGS)
    ok = _degrees(nb, end, taken, head, free_count, d, w, True)
    verdict = DEAD
    if ok:
        verdict = LIVE if as_path(nb, end, taken, c, free_count - 1, w[MATE], w) else UNKNOWN
    taken[c] = 0
    w[MATE, :] = buf
    w[CTRL, NLOG] = 0
    return verdict


@njit(cache=True)
def query_reroute(nb, end, taken, head, free_count, d, w):
    """LIVE if re-routing the witness in a window round the cell the move ``d`` enters mends it, else UNKNOWN.

    Only where the witness is a line of this very state (the rule set keeps it
    in step: :func:`sync`); a rule set without one gets UNKNOWN.
    """
    if w[CTRL, MODE] != PATH or w[CTRL, WHEAD] != head or w[CTRL, WFREE] != free_count:
        return UNKNOWN
    return LIVE if _reroute_move(nb, end, taken, head, free_count, d, w) == _REROUTED else UNKNOWN


@njit(cache=True)
def move_witness(nb, colour, end, taken, head, free_count, d, w, out):
    """The completion a LIVE verdict of :func:`query` found for move ``d``, as direction masks in ``out``; False if none.

    For tests and explanations: the witness itself is left as it was.
    """
    mode = sync(nb, colour, end, taken, head, free_count, w)
    if mode == NONE:
        return False
    c = nb[head, d]
    saved = w[MATE].copy()
    taken[c] = 1
    if mode == PATH:
        verdict = _trial(nb, end, taken, head, free_count, d, w)
        if verdict == _REROUTED:
            w[MATE, :] = w[BUF]
            verdict = LIVE
    else:
        w[CTRL, NLOG] = 0
        verdict = UNKNOWN if _degrees(nb, end, taken, head, free_count, d, w, False) else DEAD
    if verdict == UNKNOWN and as_path(nb, end, taken, c, free_count - 1, w[MATE], w):
        verdict = LIVE
    taken[c] = 0
    out[:] = w[MATE]
    w[MATE, :] = saved
    w[CTRL, NLOG] = 0
    return verdict == LIVE

