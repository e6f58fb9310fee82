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

Rows of the walker's scratch block (:meth:`labyrinth.engine.graph.GraphTables.scratch`)
from :data:`BASE` on hold the work: options and forced edges as 4-bit
direction masks, needs, the union-find, and the work list.
"""

import numpy as np
from numba import njit

from labyrinth.rules import codes
from labyrinth.rules._moves import asked_moves, refute_all

__all__ = ["BASE", "CODE", "POP", "ROWS", "after_move", "force", "keep", "lines_dead", "lines_masks", "propagate",
           "remove", "restore", "setup", "start_moves"]

#: the rule code of ``future-lines`` in :mod:`labyrinth.rules.program`
CODE = codes.LINES

#: first scratch row of the future-lines work (rows 0-16 belong to the area analysis)
BASE = 17
OPT, FRC, NEED, PARENT, SIZE, END1, END2, QUEUE, INQ, CTRL = range(BASE, BASE + 10)
#: a copy of rows OPT .. END2 and CTRL: the fixed point of the state before the move, restored for each move
SAVED = BASE + 10
_FIELDS = 7  # rows OPT .. END2
#: the scratch rows this kernel uses (BASE .. ROWS - 1)
ROWS = BASE + 18
#: columns of the CTRL row: the work list's head and tail, the state's head, end and node count, the list's length
QHEAD, QTAIL, HEAD, END, TOTAL, QLEN = range(6)
#: the CTRL columns that belong to the propagation (later columns are other kernels' counters, never restored)
_CTRL_COLUMNS = 6

#: bits set in a 4-bit direction mask (a numpy array: numba indexes it as a constant, unlike a tuple)
POP = np.array([0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4], dtype=np.int32)


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
def _push(w, c):
    if w[INQ, c] == 0:
        w[INQ, c] = 1
        t = w[CTRL, QTAIL]
        w[QUEUE, t] = c
        t += 1
        w[CTRL, QTAIL] = 0 if t == w.shape[1] else t  # a ring: a cell is queued at most once at a time
        w[CTRL, QLEN] += 1


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


@njit(cache=True, inline="always")
def _remove(nb, w, c, d):
    """Drop the option from ``c`` in direction ``d`` (both sides) and look at both cells again."""
    x = nb[c, d]
    w[OPT, c] &= ~(1 << d)
    w[OPT, x] &= ~(1 << (d ^ 1))
    _push(w, c)
    _push(w, x)


@njit(cache=True, inline="always")
def force(nb, w, c, d, cells):
    """Force the option from ``c`` in direction ``d`` into the line; 0, or how many ``cells`` show a contradiction.

    Joins the two pieces, then applies the loop rule to the new piece's ends
    and the early-join rule to the head's and the end's pieces.
    """
    x = nb[c, d]
    frc = w[FRC]
    need = w[NEED]
    if POP[frc[c]] >= need[c] or POP[frc[x]] >= need[x]:
        cells[0] = c
        cells[1] = x
        return 2
    frc[c] |= 1 << d
    frc[x] |= 1 << (d ^ 1)
    _push(w, x)
    _push(w, c)
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
    head = w[CTRL, HEAD]
    end = w[CTRL, END]
    total = w[CTRL, TOTAL]
    rh = _find(w, head)
    re = _find(w, end)
    if rh == re and w[SIZE, rh] < total:
        cells[0] = head
        cells[1] = end
        return 2
    # the loop rule: the new piece's two ends may not be joined
    e = _dir(nb, ec, ex)
    if e >= 0 and (w[OPT, ec] >> e) & 1 == 1 and not (frc[ec] >> e) & 1:
        _remove(nb, w, ec, e)
    # the early-join rule: the head's piece and the end's piece may not meet yet
    if rh != re and w[SIZE, rh] + w[SIZE, re] < total:
        u = _other_end(w, rh, head)
        v = _other_end(w, re, end)
        e = _dir(nb, u, v)
        if e >= 0 and (w[OPT, u] >> e) & 1 == 1 and not (frc[u] >> e) & 1:
            _remove(nb, w, u, e)
    return 0


@njit(cache=True)
def remove(nb, w, c, d):
    """Drop an option that no completion uses (both sides), for callers that deduce such options."""
    _remove(nb, w, c, d)


@njit(cache=True)
def setup(nb, end, taken, head, free_left, w):
    """Options, needs and single-cell pieces of the state in ``w``; the cells that can start a deduction are
    queued for :func:`propagate`."""
    size = taken.shape[0]
    opt = w[OPT]
    frc = w[FRC]
    need = w[NEED]
    inq = w[INQ]
    parent = w[PARENT]
    psize = w[SIZE]
    end1 = w[END1]
    end2 = w[END2]
    w[CTRL, QHEAD] = 0
    w[CTRL, QTAIL] = 0
    w[CTRL, QLEN] = 0
    w[CTRL, HEAD] = head
    w[CTRL, END] = end
    w[CTRL, TOTAL] = free_left + 1
    taken[head] = 0  # the head counts as a node while the options are read
    for c in range(size):
        inq[c] = 0
        frc[c] = 0
        parent[c] = c
        psize[c] = 1
        end1[c] = c
        end2[c] = c
        if taken[c] != 0:
            opt[c] = 0
            need[c] = 0
            continue
        need[c] = 2
        m = 0
        x = nb[c, 0]
        if x >= 0:
            if taken[x] == 0:
                m |= 1
        x = nb[c, 1]
        if x >= 0:
            if taken[x] == 0:
                m |= 2
        x = nb[c, 2]
        if x >= 0:
            if taken[x] == 0:
                m |= 4
        x = nb[c, 3]
        if x >= 0:
            if taken[x] == 0:
                m |= 8
        opt[c] = m
    taken[head] = 1
    need[end] = 1
    need[head] = 1
    if free_left > 1:
        d = _dir(nb, head, end)
        if d >= 0:
            opt[head] &= ~(1 << d)
            opt[end] &= ~(1 << (d ^ 1))
    # only a cell with no more options than it needs can start a deduction (nothing is forced yet);
    # the others are queued when a neighbour's change reaches them
    for c in range(size):
        if need[c] > 0:
            if POP[opt[c]] <= need[c]:
                _push(w, c)


@njit(cache=True)
def propagate(nb, w, cells):
    """Run the deductions over the queued cells to a fixed point; 0, or how many ``cells`` show a contradiction."""
    size = w.shape[1]
    opt = w[OPT]
    frc = w[FRC]
    need = w[NEED]
    while w[CTRL, QLEN] > 0:
        h = w[CTRL, QHEAD]
        c = w[QUEUE, h]
        h += 1
        w[CTRL, QHEAD] = 0 if h == size else h
        w[CTRL, QLEN] -= 1
        w[INQ, c] = 0
        nd = need[c]
        if POP[opt[c]] < nd:
            cells[0] = c
            return 1
        if POP[opt[c]] == nd and POP[frc[c]] < nd:
            for d in range(4):
                if (opt[c] >> d) & 1 == 1 and not (frc[c] >> d) & 1:
                    k = force(nb, w, c, d, cells)
                    if k:
                        return k
        if POP[frc[c]] == nd and POP[opt[c]] > nd:
            extra = opt[c] & ~frc[c]
            for d in range(4):
                if (extra >> d) & 1:
                    _remove(nb, w, c, d)
    return 0


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
    setup(nb, end, taken, head, free_left, w)
    return propagate(nb, w, cells)


@njit(cache=True, inline="always")
def start_moves(nb, end, taken, head, free_count, moves, w, trig, ntrig):
    """The opening of a kernel that asks about moves from the state's future lines: ``(asked, refuted)``.

    ``asked`` is the mask of the moves of ``moves`` (bits 0-3) the kernel is
    asked about (:func:`labyrinth.rules._moves.asked_moves`), with the state's
    fixed point found and kept (:func:`keep`) for each move to
    :func:`restore`; ``refuted`` is then 0. Where no move is asked about, or
    the future lines refute the state itself, ``asked`` is 0 and ``refuted``
    every move asked about (the cells that show it in each ``trig[d]``,
    :func:`labyrinth.rules._moves.refute_all`): the kernel's answer.
    """
    asked = asked_moves(nb, end, taken, head, moves)
    if asked == 0:
        return 0, 0
    k = lines_dead(nb, end, taken, head, free_count, w, trig[0])
    if k:
        return 0, refute_all(asked, k, trig, ntrig)
    keep(w)
    return asked, 0


@njit(cache=True)
def lines_masks(nb, end, taken, head, free_count, moves, w, trig, ntrig):
    """Which of the moves ``moves`` (bits 0-3) the future lines refute, as the ``future-lines`` rule closes them.

    The propagation runs once for the state, then for each move only from
    its fixed point with the step forced: the state after a move is the
    state before it with the edge head-cell forced (the old head used up,
    the cell entered needing one more edge, as a head does; the pieces'
    sizes and the node count differ by the same one cell), and the
    deductions are monotone, so the fixed point is the one a propagation of
    the state after the move reaches from scratch (tests compare both on
    seeded walks). A move onto the end corner is left to the other rules
    (the Python rule skips it too); the cells that show a refutation go to
    ``trig[d]``.
    """
    asked, out = start_moves(nb, end, taken, head, free_count, moves, w, trig, ntrig)
    first = True
    for d in range(4):
        if not (asked >> d) & 1:
            continue
        if not first:
            restore(w)
        first = False
        k = after_move(nb, w, head, d, trig[d])
        if k:
            out |= 1 << d
            ntrig[d] = k
    return out


@njit(cache=True, inline="always")
def keep(w):
    """Keep the fixed point in the work rows, to :func:`restore` before each move."""
    w[SAVED:SAVED + _FIELDS, :] = w[OPT:OPT + _FIELDS, :]
    w[SAVED + _FIELDS, :_CTRL_COLUMNS] = w[CTRL, :_CTRL_COLUMNS]


@njit(cache=True, inline="always")
def restore(w):
    """The fixed point :func:`keep` kept, back in the work rows, with an empty work list."""
    w[OPT:OPT + _FIELDS, :] = w[SAVED:SAVED + _FIELDS, :]
    w[CTRL, :_CTRL_COLUMNS] = w[SAVED + _FIELDS, :_CTRL_COLUMNS]
    w[INQ, :] = 0


@njit(cache=True)
def after_move(nb, w, head, d, cells):
    """From the state's fixed point in the work rows, the fixed point after the move ``d`` (the step forced);
    0, or how many ``cells`` show a contradiction."""
    if not (w[OPT, head] >> d) & 1:
        # the propagation already dropped this step: no completion takes it
        cells[0] = head
        cells[1] = nb[head, d]
        return 2
    if (w[FRC, head] >> d) & 1:
        return 0  # the propagation forced this very step: the fixed point is the state after it
    k = force(nb, w, head, d, cells)
    if k == 0:
        k = propagate(nb, w, cells)
    return k
