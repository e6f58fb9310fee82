"""Perfect 2-matchings of the free cells: augmenting paths, a matching from scratch, Karp's patching into a line.

A completion of a state is a set of grid edges in which every free cell has
two (the end corner one, the head one) and which is connected; dropping
connectedness leaves a *perfect 2-matching*, kept here as a 4-bit mask of
matched directions per cell. The kernels:

* :func:`augment`: one more edge for a cell short of one, along an
  alternating path to another such cell (Hopcroft and Karp 1973), breadth
  first, so a repair after a move stays as local as the move;
* :func:`build`: a 2-matching from scratch (greedy, then augmenting paths);
* :func:`as_path`: the pieces (one path from the head to the end, cycles)
  joined over unit squares into one line (Karp 1979's patching);
* :func:`is_line`: is a mask array one line through every free cell?

Changes made through :func:`log_drop` / :func:`log_add` are *logged* (a
cell's mask before its first change, in the rows ``LOGC``/``LOGM``), so a
trial repair is undone by :func:`undo` at the cost of what it changed,
not of a copy of the board.
"""

import numpy as np
from numba import njit

from labyrinth.rules._lines import FRC, NEED, OPT, POP
from labyrinth.rules._lines import ROWS as _LINES_ROWS

__all__ = ["BASE", "LOGC", "LOGI", "LOGM", "OTHER", "ROWS", "alternating_path", "as_path", "augment", "build", "flip",
           "fresh_mark", "is_line", "joins_early", "log_add", "log_cell", "log_drop", "log_start", "logged_mask", "need",
           "root", "stamp", "swap_square", "undo"]

#: first scratch row (after the future-lines rows)
BASE = _LINES_ROWS
PREV, QUEUE, SEEN, LOGC, LOGM, LOGS, LOGI, TCTL = range(BASE, BASE + 8)
#: the scratch rows used here (BASE .. ROWS - 1)
ROWS = BASE + 8
#: columns of the TCTL row: the SEEN stamp, the log's stamp and its length
SSTAMP, LSTAMP, NLOG = 0, 1, 2

#: OTHER[4 * mask + d]: the other direction of a two-edge mask that has ``d`` (-1 if none)
OTHER = np.array([(next((f for f in range(4) if (m >> f) & 1 and f != d), -1) if (m >> d) & 1 else -1)
                  for m in range(16) for d in range(4)], dtype=np.int32)


@njit(cache=True, inline="always")
def need(taken, end, head, c):
    """The edges cell ``c`` uses in a completion: one at the head and the end corner, two if free, none if taken."""
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
def fresh_mark(w, row, ctrl, col):
    """A fresh mark for the marks row ``row``, counted in ``w[ctrl, col]`` (the row cleared when it gets large)."""
    if w[ctrl, col] >= 1 << 30 or w[ctrl, col] < 0:
        w[row, :] = 0
        w[ctrl, col] = 0
    w[ctrl, col] += 1
    return w[ctrl, col]


@njit(cache=True, inline="always")
def stamp(w):
    """A fresh mark for the ``SEEN`` row (cleared when the counter gets large)."""
    return fresh_mark(w, SEEN, TCTL, SSTAMP)


@njit(cache=True, inline="always")
def log_start(w):
    """Begin a new log (the changes made from now on are the ones :func:`undo` puts back)."""
    w[TCTL, NLOG] = 0
    fresh_mark(w, LOGS, TCTL, LSTAMP)


@njit(cache=True, inline="always")
def log_cell(w, m, x):
    """Remember cell ``x``'s mask before its first change since :func:`log_start` (call it before changing ``x``)."""
    if w[LOGS, x] != w[TCTL, LSTAMP]:
        w[LOGS, x] = w[TCTL, LSTAMP]
        k = w[TCTL, NLOG]
        w[LOGC, k] = x
        w[LOGM, k] = m[x]
        w[LOGI, x] = k
        w[TCTL, NLOG] = k + 1


@njit(cache=True, inline="always")
def logged_mask(w, m, x):
    """Cell ``x``'s mask before the logged changes."""
    return w[LOGM, w[LOGI, x]] if w[LOGS, x] == w[TCTL, LSTAMP] else m[x]


@njit(cache=True, inline="always")
def log_drop(nb, w, m, a, d, logging):
    """Unmatch the edge from ``a`` in direction ``d`` (both ends), logged if ``logging``."""
    b = nb[a, d]
    if logging:
        log_cell(w, m, a)
        log_cell(w, m, b)
    m[a] &= ~(1 << d)
    m[b] &= ~(1 << (d ^ 1))


@njit(cache=True, inline="always")
def log_add(nb, w, m, a, d, logging):
    """Match the edge from ``a`` in direction ``d`` (both ends), logged if ``logging``."""
    b = nb[a, d]
    if logging:
        log_cell(w, m, a)
        log_cell(w, m, b)
    m[a] |= 1 << d
    m[b] |= 1 << (d ^ 1)


@njit(cache=True, inline="always")
def swap_square(nb, w, m, p, e, g, logging):
    """Swap the unit square at ``p``: its ``e`` sides (at ``p`` and ``nb[p, g]``) out, its ``g`` sides in."""
    q = nb[p, e]
    p2 = nb[p, g]
    log_drop(nb, w, m, p, e, logging)
    log_drop(nb, w, m, p2, e, logging)
    log_add(nb, w, m, p, g, logging)
    log_add(nb, w, m, q, g, logging)


@njit(cache=True, inline="always")
def joins_early(head, end, free_left, p, p2, q, q2):
    """True if a square swap at ``p`` (``p2``, ``q``, ``q2`` its other corners) adds the edge head-end too early."""
    return free_left > 1 and (p2 == head and p == end or p == head and p2 == end
                              or q2 == head and q == end or q == head and q2 == end)


@njit(cache=True)
def undo(w, m):
    """Put back every mask changed since :func:`log_start`."""
    for k in range(w[TCTL, NLOG]):
        m[w[LOGC, k]] = w[LOGM, k]
    w[TCTL, NLOG] = 0


@njit(cache=True, inline="always")
def root(parent, x):
    """The root of ``x`` in the union-find forest ``parent`` (halving the path on the way)."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def augment(nb, end, taken, head, free_left, m, src, w, logging):
    """Give the node ``src`` (short of edges) one more, along an alternating path to another such node.

    Breadth-first over the residual graph (:func:`alternating_path`) of the
    state's usable edges. False if no such path exists. ``logging`` records
    the changed masks (:func:`undo`).
    """
    b = alternating_path(nb, end, taken, head, free_left, m, src, w[SEEN], w[PREV], w[QUEUE], stamp(w), w, False)
    if b < 0:
        return False
    flip(nb, w, m, w[PREV], b, logging)
    return True


@njit(cache=True, inline="always")
def alternating_path(nb, end, taken, head, free_left, m, src, seen, prev, queue, mark, w, options):
    """The end of an alternating path from ``src`` to another node short of edges (-1: none); ``prev`` leads back.

    Breadth-first over the residual graph: unmatched edges away from
    ``src``'s side, matched edges back (Hopcroft and Karp 1973). The one
    search of the two 2-matchings: with ``options`` False, of the state (the
    usable edges, :func:`need`; ``end``, ``taken``, ``head`` and
    ``free_left`` describe it); with ``options`` True, of the closure's
    lines (the unforced options and the spare need of the rows ``OPT``,
    ``FRC``, ``NEED`` of ``w``, :mod:`labyrinth.rules.closure`). ``seen``
    holds ``mark`` for the cells reached.
    """
    size = seen.shape[0]
    seen[src] = mark
    prev[src] = -1
    queue[0] = src
    qh = 0
    qt = 1
    while qh < qt:
        a = queue[qh]
        qh += 1
        avail = w[OPT, a] & ~w[FRC, a] & ~m[a] if options else 15 & ~m[a]
        for d in range(4):
            if not (avail >> d) & 1:
                continue
            if not options and not _usable(nb, end, taken, head, free_left, a, d):
                continue
            b = nb[a, d]
            if seen[b] == mark:
                continue
            seen[b] = mark
            prev[b] = a
            if POP[m[b]] < (w[NEED, b] - POP[w[FRC, b]] if options else need(taken, end, head, b)):
                return b
            for e in range(4):
                if (m[b] >> e) & 1:
                    c = nb[b, e]
                    if seen[c] != mark:
                        seen[c] = mark
                        prev[c] = b
                        if qt < size:
                            queue[qt] = c
                            qt += 1
    return -1


@njit(cache=True, inline="always")
def flip(nb, w, m, prev, b, logging):
    """Flip the alternating path that ``prev`` leads back from ``b``: unmatched edges in, matched edges out."""
    y = b
    add = True
    while prev[y] >= 0:
        x = prev[y]
        for e in range(4):
            if nb[x, e] == y:
                if add:
                    log_add(nb, w, m, x, e, logging)
                else:
                    log_drop(nb, w, m, x, e, logging)
                break
        add = not add
        y = x


@njit(cache=True)
def build(nb, colour, end, taken, head, free_left, m, w):
    """A perfect 2-matching of the state in ``m`` from scratch (greedy, then augmenting paths); False if none."""
    size = taken.shape[0]
    for c in range(size):
        m[c] = 0
    for c in range(size):
        if need(taken, end, head, c) == 0 or colour[c] != 1:
            continue
        for d in range(4):
            if POP[m[c]] >= need(taken, end, head, c):
                break
            if _usable(nb, end, taken, head, free_left, c, d):
                b = nb[c, d]
                if POP[m[b]] < need(taken, end, head, b):
                    m[c] |= 1 << d
                    m[b] |= 1 << (d ^ 1)
    for c in range(size):
        if colour[c] != 1:
            continue
        while POP[m[c]] < need(taken, end, head, c):
            if not augment(nb, end, taken, head, free_left, m, c, w, False):
                return False
    for c in range(size):
        if POP[m[c]] != need(taken, end, head, c):
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
    This is the whole-board form; the walker's witness patches only the
    cycles a local repair made (:mod:`labyrinth.rules._witness`).
    """
    size = taken.shape[0]
    label = w[PREV]
    parent = w[QUEUE]
    seen = w[SEEN]
    mark = stamp(w)
    total = free_left + 1
    # the path from the head: piece 0 (a two-edge cell is left by the edge it did not come in by)
    count = 1
    seen[head] = mark
    label[head] = 0
    d = -1
    for e in range(4):
        if (m[head] >> e) & 1:
            d = e
    cur = head
    while d >= 0 and count <= total:
        cur = nb[cur, d]
        seen[cur] = mark
        label[cur] = 0
        count += 1
        d = OTHER[4 * m[cur] + (d ^ 1)]
    if count == total:
        return True
    pieces = 1
    for a in range(size):
        if seen[a] == mark or need(taken, end, head, a) == 0:
            continue
        cur = a
        d = -1
        for e in range(4):
            if (m[a] >> e) & 1:
                d = e
                break
        while seen[cur] != mark and d >= 0:
            seen[cur] = mark
            label[cur] = pieces
            cur = nb[cur, d]
            d = OTHER[4 * m[cur] + (d ^ 1)]
        pieces += 1
    for k in range(pieces):
        parent[k] = k
    left = pieces - 1
    changed = True
    while left > 0 and changed:
        changed = False
        for p in range(size):
            if seen[p] != mark:
                continue
            for e in (1, 3):  # each matched edge once: downwards and rightwards from p
                if not (m[p] >> e) & 1:
                    continue
                q = nb[p, e]
                for g in range(4):
                    if g == e or g == (e ^ 1):
                        continue
                    p2 = nb[p, g]
                    if p2 < 0 or seen[p2] != mark or not (m[p2] >> e) & 1:
                        continue
                    q2 = nb[q, g]
                    ra = root(parent, label[p])
                    rb = root(parent, label[p2])
                    if ra == rb:
                        continue
                    if joins_early(head, end, free_left, p, p2, q, q2):
                        continue
                    swap_square(nb, w, m, p, e, g, False)
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
    mark = stamp(w)
    seen = w[SEEN]
    seen[head] = mark
    d = -1
    ends = 0
    for e in range(4):
        if (m[head] >> e) & 1:
            d = e
            ends += 1
    if ends != 1 and free_left > 0:
        return False
    cur = head
    steps = 0
    while d >= 0 and steps < free_left:
        nxt = nb[cur, d]
        if nxt < 0 or taken[nxt] != 0 or seen[nxt] == mark or (m[nxt] >> (d ^ 1)) & 1 == 0:
            return False
        if POP[m[nxt]] != (1 if steps + 1 == free_left else 2):
            return False
        seen[nxt] = mark
        steps += 1
        cur = nxt
        d = OTHER[4 * m[cur] + (d ^ 1)]
    return steps == free_left and cur == end
