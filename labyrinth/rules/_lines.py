"""The future-lines propagation in numba: the compiled form of :func:`labyrinth.rules.future.future_lines`.

The same degree conditions and the same four deductions as the Python
reference (see :mod:`labyrinth.rules.future`), run from a work list instead
of whole-board sweeps: a cell is looked at again only when one of its
options or forced edges changed. The deductions are monotone (fewer options
and more forced edges only ever allow more deductions), so the fixed point,
and with it the verdict "dead or not", does not depend on the order in which
they are made: the kernel and the Python rule decide every state alike
(``tests/test_lines_kernel.py`` compares them on seeded walks, 5x5 to 21x21).

Pieces of forced line are kept in a union-find with each piece's two end
cells, so the loop rule (an option joining the two ends of one piece) and
the early-join rule (an option joining the head's piece to the end's piece
while other cells remain) look only at the ends of the piece that just grew:
every other cell of a piece has all its forced edges, and the third
deduction strips its options anyway.

Rows of the walker's scratch block (:meth:`labyrinth.engine._graph.GraphTables.scratch`)
from :data:`BASE` on hold the work: options and forced edges as 4-bit
direction masks, needs, the union-find, and the work list.
"""

from numba import njit

__all__ = ["BASE", "CODE", "ROWS", "lines_dead", "lines_masks"]

#: the rule code of ``future-lines`` in :mod:`labyrinth.rules.program`
CODE = 6

#: first scratch row of the future-lines work (rows 0-16 belong to the area analysis)
BASE = 17
OPT, FRC, NEED, PARENT, SIZE, END1, END2, QUEUE, INQ = range(BASE, BASE + 9)
#: the scratch rows this kernel uses (BASE .. ROWS - 1)
ROWS = BASE + 9

_POP = (0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4)


@njit(cache=True, inline="always")
def _find(w, c):
    p = w[PARENT]
    r = c
    while p[r] != r:
        r = p[r]
    while p[c] != r:
        nxt = p[c]
        p[c] = r
        c = nxt
    return r


@njit(cache=True, inline="always")
def _push(w, c, tail, size):
    if w[INQ, c] == 0:
        w[INQ, c] = 1
        w[QUEUE, tail % size] = c
        return tail + 1
    return tail


@njit(cache=True, inline="always")
def _dir(nb, a, b):
    for d in range(4):
        if nb[a, d] == b:
            return d
    return -1


@njit(cache=True, inline="always")
def _other_end(w, r, c):
    """The end of piece ``r`` that is not ``c`` (``c`` itself for a single cell)."""
    return w[END2, r] if w[END1, r] == c else w[END1, r]


@njit(cache=True)
def lines_dead(nb, end, taken, head, free_left, w, cells):
    """How many cells show that the future lines refute the state (0: they do not); the cells go to ``cells``.

    A refutation is a cell with too few options, a forced edge too many, a
    loop, or the head joined to the end too early. ``taken`` marks the line
    (the head included), ``free_left`` counts the free cells; ``w`` is the
    scratch block (rows :data:`BASE` .. :data:`ROWS` - 1).
    """
    if free_left == 0:
        return 0
    size = taken.shape[0]
    total = free_left + 1
    opt = w[OPT]
    frc = w[FRC]
    need = w[NEED]
    tail = 0
    for c in range(size):
        w[INQ, c] = 0
        if taken[c] and c != head:
            opt[c] = 0
            frc[c] = 0
            need[c] = 0
            continue
        need[c] = 1 if (c == end or c == head) else 2
        m = 0
        for d in range(4):
            x = nb[c, d]
            if x >= 0 and (not taken[x] or x == head):
                m |= 1 << d
        opt[c] = m
        frc[c] = 0
        w[PARENT, c] = c
        w[SIZE, c] = 1
        w[END1, c] = c
        w[END2, c] = c
    if free_left > 1:
        d = _dir(nb, head, end)
        if d >= 0:
            opt[head] &= ~(1 << d)
            opt[end] &= ~(1 << (d ^ 1))
    for c in range(size):
        if need[c]:
            tail = _push(w, c, tail, size)
    qh = 0
    while qh < tail:
        c = w[QUEUE, qh % size]
        qh += 1
        w[INQ, c] = 0
        o = opt[c]
        nd = need[c]
        if _POP[o] < nd:
            cells[0] = c
            return 1
        if _POP[o] == nd and _POP[frc[c]] < nd:
            for d in range(4):
                if (opt[c] >> d) & 1 and not (frc[c] >> d) & 1:
                    x = nb[c, d]
                    if _POP[frc[c]] >= nd or _POP[frc[x]] >= need[x]:
                        cells[0] = c
                        cells[1] = x
                        return 2
                    frc[c] |= 1 << d
                    frc[x] |= 1 << (d ^ 1)
                    tail = _push(w, x, tail, size)
                    tail = _push(w, c, tail, size)
                    # join the two pieces
                    rc = _find(w, c)
                    rx = _find(w, x)
                    if rc == rx:
                        cells[0] = c
                        return 1
                    ec = _other_end(w, rc, c)
                    ex = _other_end(w, rx, x)
                    if w[SIZE, rc] < w[SIZE, rx]:
                        rc, rx = rx, rc
                    w[PARENT, rx] = rc
                    w[SIZE, rc] += w[SIZE, rx]
                    w[END1, rc] = ec
                    w[END2, rc] = ex
                    rh = _find(w, head)
                    re = _find(w, end)
                    if rh == re and w[SIZE, rh] < total:
                        cells[0] = head
                        cells[1] = end
                        return 2
                    # the loop rule: the new piece's two ends may not be joined
                    e = _dir(nb, ec, ex)
                    if e >= 0 and (opt[ec] >> e) & 1 and not (frc[ec] >> e) & 1:
                        opt[ec] &= ~(1 << e)
                        opt[ex] &= ~(1 << (e ^ 1))
                        tail = _push(w, ec, tail, size)
                        tail = _push(w, ex, tail, size)
                    # the early-join rule: the head's piece and the end's piece may not meet yet
                    if rh != re and w[SIZE, rh] + w[SIZE, re] < total:
                        u = _other_end(w, rh, head)
                        v = _other_end(w, re, end)
                        e = _dir(nb, u, v)
                        if e >= 0 and (opt[u] >> e) & 1 and not (frc[u] >> e) & 1:
                            opt[u] &= ~(1 << e)
                            opt[v] &= ~(1 << (e ^ 1))
                            tail = _push(w, u, tail, size)
                            tail = _push(w, v, tail, size)
            o = opt[c]
        if _POP[frc[c]] == nd and _POP[o] > nd:
            extra = o & ~frc[c]
            for d in range(4):
                if (extra >> d) & 1:
                    x = nb[c, d]
                    opt[c] &= ~(1 << d)
                    opt[x] &= ~(1 << (d ^ 1))
                    tail = _push(w, x, tail, size)
    return 0


@njit(cache=True)
def lines_masks(nb, end, taken, head, free_count, moves, w, trig, ntrig):
    """Which of the moves ``moves`` (bits 0-3) the future lines refute, as the ``future-lines`` rule closes them.

    A move onto the end corner is left to the other rules (the Python rule
    skips it too); the cells that show a refutation go to ``trig[d]``.
    """
    out = 0
    for d in range(4):
        c = nb[head, d]
        if not (moves >> d) & 1 or c < 0 or taken[c] or c == end:
            continue
        taken[c] = 1
        k = lines_dead(nb, end, taken, c, free_count - 1, w, trig[d])
        taken[c] = 0
        if k:
            out |= 1 << d
            ntrig[d] = k
    return out
