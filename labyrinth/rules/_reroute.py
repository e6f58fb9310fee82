"""Local re-routing of a line: kept outside a small region, searched exactly inside it.

When the walker's move leaves its witness (:mod:`labyrinth.rules._witness`)
and a repair of the degrees does not patch into one line over unit squares,
the line can often be mended where it broke. Cut it at the rim of a small
region: inside, it is a sequence of pieces, each entering at one cell (its
*start port*) and leaving at another (its *end port*). A set of disjoint
paths inside the region, one per piece between the same ports, covering every
free cell of the region, joins the unchanged outside into one line: the
pieces are met in the same order, so no cycle can form. That is a small exact
search, a depth-first search with the degree pruning of the study's dead
ends (a free cell needs two ways on, a port one), bounded in nodes: past its
budget nothing is proven. Two regions are used:

* :func:`reroute`: a window round the cell a move enters; the first piece
  (which began at the old head) must now begin at that cell;
* :func:`absorb`: a cycle of a 2-matching (a pocket the line passes by) with
  a band of cells round it; the cycle's cells, which belong to no piece,
  must be taken up by the pieces passing through the band.

This is the classical local re-routing of a Hamiltonian path (the 2-opt and
Or-opt moves of travelling-salesman local search, Lin and Kernighan 1973),
done exactly inside the region because the grid's pockets, which a
unit-square patch cannot enter, are small.
"""

import numpy as np
from numba import njit

from labyrinth.rules._twomatch import OTHER as _OTHER
from labyrinth.rules._twomatch import ROWS as _TWOMATCH_ROWS

__all__ = ["BASE", "INW", "ROWS", "VIS", "absorb", "reroute", "splice"]

#: first scratch row of the re-routing (after the 2-matching's rows)
BASE = _TWOMATCH_ROWS
INW, VIS, ROLE, STK, IT, SG, PS, RC = range(BASE, BASE + 8)
#: the scratch rows the re-routing uses (BASE .. ROWS - 1)
ROWS = BASE + 8
#: ROLE of a region cell: free (no port); a port is ``2 * k + 1`` (start of piece ``k``) or ``2 * k + 2`` (its end)
PLAIN = 0
#: regions of more cells are not searched
MAX_CELLS = 160


@njit(cache=True, inline="always")
def _short(nb, w, stamp, x, tip):
    """True if the unvisited region cell ``x`` has fewer ways left than it needs (two; one for a port)."""
    ways = 0
    for e in range(4):
        y = nb[x, e]
        if y >= 0 and w[INW, y] == stamp and (w[VIS, y] != stamp or y == tip):
            ways += 1
    return ways < (2 if w[ROLE, x] == PLAIN else 1)


@njit(cache=True, inline="always")
def _on_line(taken, onl, mark, x):
    """True if ``x`` lies on the line: a free cell (``mark`` < 0: the line is a witness through every one), or
    one marked ``mark`` in ``onl`` (the line piece of a 2-matching)."""
    return taken[x] == 0 if mark < 0 else onl[x] == mark


@njit(cache=True, inline="always")
def _beside(nb, mate, lab, x, later):
    """The line's cell after ``x`` (``later``) or before it, by the labels (-1 at the line's ends)."""
    out = -1
    for e in range(4):
        if (mate[x] >> e) & 1:
            y = nb[x, e]
            if (lab[y] > lab[x]) == later:
                out = y
    return out


@njit(cache=True)
def _route(nb, end, start, gone, left, mate, lab, taken, onl, mark, w, stamp, ncells, budget, out, split):
    """Search the pieces of the line through the region (its cells in ``RC[:ncells]``, marked ``INW == stamp``).

    The line is ``mate``'s, ordered by the labels ``lab`` (its cells: see
    :func:`_on_line`). ``gone`` is a cell leaving the line (the old head: the
    piece after it begins at ``start`` instead), or -1. True if every region
    cell was covered; then ``out`` holds the new line as direction masks
    (the others are ``mate``'s).
    """
    rc = w[RC]
    keys = np.empty(ncells, dtype=np.int64)
    nk = 0
    for i in range(ncells):
        x = rc[i]
        w[ROLE, x] = PLAIN
        if (x != start or gone < 0) and _on_line(taken, onl, mark, x):
            keys[nk] = (np.int64(lab[x]) << 21) | i
            nk += 1
    keys = np.sort(keys[:nk])
    # the pieces of the line inside the region, in the line's order: ports, and cells left as they are
    seg = w[SG]
    k = 0
    todo = ncells
    fixed = 0
    for i in range(nk):
        x = rc[keys[i] & ((1 << 21) - 1)]
        before = _beside(nb, mate, lab, x, False)
        after = _beside(nb, mate, lab, x, True)
        first = before >= 0 and before == gone
        into = before < 0 or first or w[INW, before] != stamp
        away = after < 0 or w[INW, after] != stamp
        if into:
            seg[2 * k] = start if first else x
            if not first:
                w[ROLE, x] = 2 * k + 1
        if away:
            seg[2 * k + 1] = x
            if into and not first:  # a single cell entered and left from outside: it stays as it is
                w[VIS, x] = stamp
                fixed += 1
                continue
            w[ROLE, x] = 2 * k + 2
            k += 1
    todo -= fixed
    pieces = k
    j = split[0]
    if j >= pieces:
        return -1
    if pieces == 0 or (gone >= 0 and seg[0] != start):
        return 0
    if j >= 0:
        for i in range(2 * pieces - 1, 2 * j, -1):
            seg[i + 2] = seg[i]
        seg[2 * j + 1] = split[1]
        seg[2 * j + 2] = split[2]
        w[ROLE, split[1]] = 1
        w[ROLE, split[2]] = 1
        pieces += 1
    # depth-first search, piece by piece from its start port to its end port
    stk = w[STK]
    it = w[IT]
    pstart = w[PS]  # the depth at which each piece began
    depth = 0
    stk[0] = seg[0]
    it[0] = 0
    w[VIS, seg[0]] = stamp
    pstart[0] = 0
    piece = 0
    visited = 1
    nodes = 0
    found = False
    while depth >= 0:
        x = stk[depth]
        if x == seg[2 * piece + 1] and it[depth] == 0:
            it[depth] = 5  # arrived: on return, backtrack
            if piece == pieces - 1:
                if visited == todo:
                    found = True
                    break
            else:
                s = seg[2 * piece + 2]
                piece += 1
                depth += 1
                stk[depth] = s
                it[depth] = 0
                pstart[piece] = depth
                w[VIS, s] = stamp
                visited += 1
                continue
        advanced = False
        while it[depth] < 4:
            e = it[depth]
            it[depth] += 1
            y = nb[x, e]
            if y < 0 or w[INW, y] != stamp or w[VIS, y] == stamp:
                continue
            if w[ROLE, y] != PLAIN and y != seg[2 * piece + 1]:
                continue
            if x == start and y == end and left > 1:
                continue
            nodes += 1
            if nodes > budget:
                depth = -1
                break
            w[VIS, y] = stamp
            # the cells beside x lose it as a way on (x is no longer the tip)
            dead = False
            for f in range(4):
                z = nb[x, f]
                if z >= 0 and z != y and w[INW, z] == stamp and w[VIS, z] != stamp and _short(nb, w, stamp, z, y):
                    dead = True
                    break
            if dead:
                w[VIS, y] = 0
                continue
            depth += 1
            stk[depth] = y
            it[depth] = 0
            visited += 1
            advanced = True
            break
        if advanced or depth < 0:
            continue
        if depth == pstart[piece] and piece > 0:
            piece -= 1
        if depth > 0:
            w[VIS, x] = 0
            visited -= 1
        depth -= 1
    if not found:
        return 0
    # the new line: the outside kept, the pieces inside as found
    out[:] = mate
    if gone >= 0:
        out[gone] = 0
        for e in range(4):
            y = nb[gone, e]
            if y >= 0:
                out[y] &= ~(1 << (e ^ 1))
    for j in range(depth + 1):
        x = stk[j]
        keep = 0
        for e in range(4):
            y = nb[x, e]
            if (mate[x] >> e) & 1 and y != gone and w[INW, y] != stamp:
                keep |= 1 << e
        out[x] = keep
    p = 1
    for j in range(depth):
        if p < pieces and j + 1 == pstart[p]:
            p += 1  # the jump from one piece's end port to the next piece's start port: no edge
            continue
        x = stk[j]
        y = stk[j + 1]
        for e in range(4):
            if nb[x, e] == y:
                out[x] |= 1 << e
                out[y] |= 1 << (e ^ 1)
    return 1


@njit(cache=True)
def reroute(nb, n, end, head, d, free_count, mate, lab, taken, w, stamp, radius, budget, out):
    """Mend the witness after the move ``d`` inside the window of ``radius`` round the cell it enters.

    ``mate``/``lab`` are the witness of the state (its line from ``head``
    through every free cell, ordered by the labels; ``free_count`` free
    cells; ``taken`` marks the cell entered too); ``stamp`` a fresh mark for
    the rows ``INW`` and ``VIS``. True if a completion after the move was
    found; then ``out`` holds it as direction masks. ``budget`` bounds the
    search's nodes.
    """
    c = nb[head, d]
    cx = c % n
    cy = c // n
    rc = w[RC]
    ncells = 0
    for yy in range(max(0, cy - radius), min(n, cy + radius + 1)):
        for xx in range(max(0, cx - radius), min(n, cx + radius + 1)):
            x = yy * n + xx
            if x != c and taken[x] != 0:
                continue
            w[INW, x] = stamp
            rc[ncells] = x
            ncells += 1
    return _route(nb, end, c, head, free_count - 1, mate, lab, taken, lab, -1, w, stamp, ncells, budget, out, (-1, -1, -1)) > 0


@njit(cache=True)
def absorb(nb, end, head, free_left, mate, lab, taken, onl, mark, cycle, band, w, stamp, budget, out):
    """Take the cycle of the 2-matching ``mate`` through ``cycle`` into its line, re-routed round the cycle.

    The line is the piece from ``head``: its cells are marked ``mark`` in
    ``onl`` and ordered by the labels ``lab`` (it need not reach every cell);
    the region is the cycle's cells and the line's cells within ``band``
    steps of them, with every other cycle met there whole. True if the
    pieces of the line through the region could take up the cycle; then
    ``out`` holds the new 2-matching (one piece fewer at least).
    """
    rc = w[RC]
    ncells = 0
    # the cycle (walked by its masks), then the band round it, breadth first
    d = -1
    for e in range(4):
        if (mate[cycle] >> e) & 1:
            d = e
            break
    cur = cycle
    while True:
        if ncells >= MAX_CELLS:
            return False
        w[INW, cur] = stamp
        rc[ncells] = cur
        ncells += 1
        cur = nb[cur, d]
        d = _OTHER[4 * mate[cur] + (d ^ 1)]
        if cur == cycle or d < 0:
            break
    if cur != cycle:
        return False
    lo = 0
    for _ in range(band):
        hi = ncells
        for i in range(lo, hi):
            x = rc[i]
            for e in range(4):
                y = nb[x, e]
                if y < 0 or w[INW, y] == stamp or y == head or mate[y] == 0:
                    continue
                if onl[y] == mark:
                    if ncells >= MAX_CELLS:
                        return False
                    w[INW, y] = stamp
                    rc[ncells] = y
                    ncells += 1
                    continue
                # another cycle: the whole of it joins the region (a cycle is re-routed whole or not at all)
                f = -1
                for g in range(4):
                    if (mate[y] >> g) & 1:
                        f = g
                        break
                cur = y
                while f >= 0 and w[INW, cur] != stamp:
                    if ncells >= MAX_CELLS:
                        return False
                    w[INW, cur] = stamp
                    rc[ncells] = cur
                    ncells += 1
                    cur = nb[cur, f]
                    f = _OTHER[4 * mate[cur] + (f ^ 1)]
        lo = hi
    return _route(nb, end, head, -1, free_left, mate, lab, taken, onl, mark, w, stamp, ncells, budget, out, (-1, -1, -1)) > 0


@njit(cache=True)
def splice(nb, n, end, head, free_left, mate, lab, taken, onl, mark, contact, radius, w, stamp, budget, out):
    """Take a cycle too large for :func:`absorb` into the line through a window on one arc of it.

    The region is the window of ``radius`` round ``contact`` (a cell of the
    cycle): the line's cells in it and the arc of the cycle through
    ``contact`` that stays in it. The arc's ends ``u`` and ``v`` are joined by
    the rest of the cycle, outside; one piece of the line is split in two,
    the first re-routed to end at ``u``, the second to begin at ``v``, so the
    line runs out along the rest of the cycle and back. That is the 2-opt
    move of the travelling salesman's local search (Lin and Kernighan 1973)
    with the pieces inside the window searched exactly. Each piece and both
    ends are tried (``budget`` nodes each); True if one worked, then ``out``
    holds the new 2-matching (one cycle fewer).
    """
    cx = contact % n
    cy = contact // n
    # the arc through ``contact``: backwards to ``u``, forwards to ``v``, while in the window
    first = -1
    for e in range(4):
        if (mate[contact] >> e) & 1:
            first = e
            break
    if first < 0:
        return False
    rc = w[RC]
    ncells = 0
    w[INW, contact] = stamp
    rc[ncells] = contact
    ncells += 1
    ends = np.empty(2, dtype=np.int64)
    for side in range(2):
        # side 0 leaves by ``first``, side 1 by the other way
        d = first
        if side == 1:
            d = _OTHER[4 * mate[contact] + first]
        cur = contact
        while True:
            y = nb[cur, d]
            if w[INW, y] == stamp:
                return False  # the whole cycle lies in the window: :func:`absorb`'s case
            if abs(y % n - cx) > radius or abs(y // n - cy) > radius:
                break
            w[INW, y] = stamp
            rc[ncells] = y
            ncells += 1
            cur = y
            d = _OTHER[4 * mate[cur] + (d ^ 1)]
            if d < 0:
                return False
        ends[side] = cur
    if ends[0] == ends[1]:
        return False
    for yy in range(max(0, cy - radius), min(n, cy + radius + 1)):
        for xx in range(max(0, cx - radius), min(n, cx + radius + 1)):
            x = yy * n + xx
            if x != head and w[INW, x] != stamp and mate[x] != 0 and onl[x] == mark:
                w[INW, x] = stamp
                rc[ncells] = x
                ncells += 1
    for j in range(ncells):
        for side in range(2):
            for i in range(ncells):
                w[VIS, rc[i]] = 0
            got = _route(nb, end, head, -1, free_left, mate, lab, taken, onl, mark, w, stamp, ncells, budget, out,
                         (j, ends[side], ends[1 - side]))
            if got > 0:
                return True
            if got < 0:
                return False
    return False
