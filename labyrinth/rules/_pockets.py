"""The pocket checks of the chain verdict: the 7x7 window, a two-part flood, and the pocket cache.

Where the carried chain of cut cells (:mod:`labyrinth.rules._chain`) makes the
block analysis local, :func:`_chain_verdict` still has to rule out the pockets
that :func:`labyrinth.engine.graph.pockets` would find: parts of the free
cells V minus two gates {a, p} (a a free neighbour of the new head c, p in a's
ring of 8) that hold neither c nor the end. The 7x7 window of
:func:`labyrinth.rules._ring._no_pocket_at` decides most pairs; the rest, two
parts both reaching past the window, were flooded by :func:`_chain.pocket_ok`
at every step that looked at them. Here, when V - {a, p} has exactly two parts
(the window counts them exactly: :func:`labyrinth.rules._ring._arcs`), X
holding c and Y:

* :func:`_two_parts` floods X from c and Y from a cell the window found in
  it, one cell each in turn, until one is done: Y's colour sum and whether it
  holds the end follow (from the whole of V's when X finishes first), with
  no union-find and no allocation;
* the pocket cache keeps Y from step to step. The line after the step goes
  on from a free neighbour of the head and can reach Y only through a or p,
  or straight from the head it had: so while a and p stay free and no cell
  of Y next to that head was taken (or is the new head), Y is as it was, and
  the pair is decided from the stored Y alone. Entries live in scratch rows
  PKEY (the pair), PVAL (2 * Y's colour sum + Y holds the end), PAUX (16 *
  that head + the moves from it into Y) and PGEN (the generation); the
  generation in ``scratch[PGEN, 0]`` forgets them all (:func:`pocket_forget`)
  whenever the chain is read afresh off a block search
  (:func:`labyrinth.rules.areas.area_verdict`): the enumeration's track_take
  and track_release, which take cells off the walk and free them, forget the
  chain, so no query meets an entry from another line.

``scratch[PGEN, 1]`` counts cache hits, ``scratch[PKEY, 0]`` two-part floods,
``scratch[PKEY, 1]`` pairs left to :func:`_chain.pocket_ok` (the tests read
them; :func:`pocket_reset` zeroes them).
"""

from numba import njit

from labyrinth.engine import graph
from labyrinth.rules._chain import (
    CUTS,
    KNOWN,
    MARK,
    PASS_,
    PAUX,
    PGEN,
    PKEY,
    PVAL,
    SEALED,
    SUMS,
    pocket_ok,
)
from labyrinth.rules._ring import _RX, _RY, _is_cut, _no_pocket_at, _sides

__all__ = ["POCKETS", "UNPROVED", "pair_ok", "pocket_forget", "pocket_reset"]


@njit(cache=True)
def pocket_reset(scratch):
    """Empty the pocket cache (its rows were never written) and zero its counters."""
    scratch[PGEN, :] = 0
    scratch[PGEN, 0] = 1
    scratch[PKEY, 0] = 0
    scratch[PKEY, 1] = 0


@njit(inline="always")
def pocket_forget(scratch):
    """Forget every stored pocket (the line may have changed otherwise than by steps)."""
    scratch[PGEN, 0] += 1


@njit(cache=True)
def _two_parts(nb, colour, taken, a, p, c, y, head, end, total, scratch):
    """Flood the two parts of V - {a, p}, X from ``c`` and Y from ``y``, in turns until one is done.

    ``total`` is V's colour sum. Returns ``(Y's colour sum, Y holds the end,
    the moves from ``head`` into Y)``, or a move mask of -1 when the floods
    meet (not two parts: the caller falls back to :func:`_chain.pocket_ok`).
    """
    mark = scratch[MARK]
    qx = scratch[graph.DISC]  # the block search's rows, free here
    qy = scratch[graph.LOW]
    taken[a] += 1
    taken[p] += 1
    mark[c] = 1
    mark[y] = 2
    qx[0] = c
    qy[0] = y
    hx = 0
    tx = 1
    hy = 0
    ty = 1
    sx = colour[c]
    sy = colour[y]
    ex = c == end
    ey = y == end
    met = False
    while hx < tx and hy < ty and not met:
        v = qx[hx]
        hx += 1
        for e in range(4):
            w = nb[v, e]
            if w >= 0 and not taken[w]:
                if mark[w] == 0:
                    mark[w] = 1
                    qx[tx] = w
                    tx += 1
                    sx += colour[w]
                    ex = ex or w == end
                elif mark[w] == 2:
                    met = True
        v = qy[hy]
        hy += 1
        for e in range(4):
            w = nb[v, e]
            if w >= 0 and not taken[w]:
                if mark[w] == 0:
                    mark[w] = 2
                    qy[ty] = w
                    ty += 1
                    sy += colour[w]
                    ey = ey or w == end
                elif mark[w] == 1:
                    met = True
    inside = 0
    y_done = hy >= ty
    for e in range(4):
        w = nb[head, e]
        if w >= 0 and not taken[w] and (mark[w] == 2 or (mark[w] == 0 and not y_done)):
            inside |= 1 << e
    for k in range(tx):
        mark[qx[k]] = 0
    for k in range(ty):
        mark[qy[k]] = 0
    taken[a] -= 1
    taken[p] -= 1
    if met:
        return 0, False, -1
    if y_done:
        return sy, ey, inside
    # X is done: Y is the rest of V - {a, p}; the end is no gate (the caller's a is not the end)
    return total - colour[a] - colour[p] - sx, not ex and p != end, inside


@njit(cache=True, inline="always")
def pair_ok(nb, colour, n, taken, a, i, y, c, head, end, total, scratch):
    """:func:`_chain.pocket_ok` (``both``) on the gates a and p = a's ring cell ``i``: no pocket refuted.

    ``y``: a cell of the part of V - {a, p} without ``c`` when it has exactly
    two parts, else -1. Then the pocket cache or :func:`_two_parts` decides.
    """
    p = a + _RY[i] * n + _RX[i]
    if y < 0 or p == c:
        scratch[PKEY, 1] += 1
        return pocket_ok(nb, colour, taken, a, p, c, end, total, scratch, True)
    want = -(colour[p] + colour[a])
    key = 8 * a + i if a < p else 8 * p + (i + 4) % 8
    slot = 2 + key % (taken.shape[0] - 2)
    gen = scratch[PGEN, 0]
    if scratch[PKEY, slot] == key and scratch[PGEN, slot] == gen:
        # Y is as stored unless the line went on into it from the head it had then (or goes now)
        aux = scratch[PAUX, slot]
        then = aux >> 4
        intact = True
        for e in range(4):
            if (aux >> e) & 1:
                w = nb[then, e]
                if taken[w] or w == c:
                    intact = False
        if intact:
            scratch[PGEN, 1] += 1
            v = scratch[PVAL, slot]
            return (v & 1) == 1 or 2 * (v >> 1) == want
    ysum, yend, inside = _two_parts(nb, colour, taken, a, p, c, y, head, end, total, scratch)
    if inside < 0:
        scratch[PKEY, 1] += 1
        return pocket_ok(nb, colour, taken, a, p, c, end, total, scratch, True)
    scratch[PKEY, 0] += 1
    scratch[PKEY, slot] = key
    scratch[PVAL, slot] = 2 * ysum + (1 if yend else 0)
    scratch[PAUX, slot] = 16 * head + inside
    scratch[PGEN, slot] = gen
    # X holds c; Y is a pocket unless it holds the end, and then its colour sum must fit the gates
    return yend or 2 * ysum == want


#: :func:`_chain_verdict` results besides PASS and SEALED
UNPROVED = -1  # run the full analysis
POCKETS = -2  # the blocks pass: run only the pocket search


@njit(cache=True, inline="always")
def _chain_verdict(nb, colour, n, end, taken, c, d, free_count, scratch):
    """The GLOBAL analysis' verdict on the step onto ``c`` (direction ``d``) from local work, where it can tell.

    Precondition (the bookkeeping's): the chain of cut cells in ``scratch`` is
    that of the free cells V (``taken`` as before the step, ``c`` free), and
    ``c`` leaves no dead end beside it. A cut cell ``c`` or one on the end's
    side of a cut cell (the chain's move mask) makes :func:`graph.blocks`
    fail with SPLIT, HEAD_CUT or HANGING: SEALED (the caller tells border from
    line). Otherwise the blocks pass from ``c`` when the first segment, from
    ``c`` to q1 (or the end), has the colour sum (col(c) + col(q1)) / 2: the
    sum of V, which follows from the line's length (the line alternates
    colours from the start corner, whose colour has one cell more on the odd
    board), less the sum beyond q1; the other segments were checked when
    their cut cells joined the chain. A pocket of :func:`graph.pockets` at a
    free neighbour a of ``c`` is then ruled out by :func:`_no_pocket_at`, and
    where its window cannot tell, by :func:`pair_ok` (the pocket cache, else :func:`pocket_ok`);
    when a is q1, the search on G - a stays in the part before q1, whose cut
    cells are a's neighbours that gained a group. Returns PASS, SEALED,
    POCKETS (the blocks pass, the pockets are not proved) or UNPROVED.
    """
    ok = scratch[SUMS, 0]
    if ok < 0:
        return UNPROVED
    if _is_cut(n, taken, c):
        return SEALED
    if ((ok >> d) & 1) == 0:
        return SEALED if ok & KNOWN else UNPROVED
    k = scratch[CUTS, 0]
    first = end if k == 0 else scratch[CUTS, k]
    beyond = 0 if k == 0 else scratch[SUMS, k]
    total = colour[0] * (1 - (n * n - free_count) % 2)
    if 2 * (total - beyond) != colour[c] + colour[first]:
        return UNPROVED
    head = nb[c, d ^ 1]
    seeds = scratch[graph.CULPRIT, 2:10]  # only the culprit row's first two cells are used
    for e in range(4):
        a = nb[c, e]
        if a < 0 or taken[a] or a == end:
            continue
        if _is_cut(n, taken, a):
            if a != first:
                return POCKETS
            # the pocket search on G - q1 sees only X, the part before q1. At the root c: the
            # parts of X - c, each next to q1 (c is no cut cell), so one less than q1's groups
            # without c; one may hang there, of colour sum 0 (c and q1 are neighbours)
            before = total - beyond - colour[a]  # the colour sum of X
            taken[c] = 1
            g = _sides(n, taken, a) & 15
            taken[c] = 0
            if g > 2 or (g == 2 and before - colour[c] != 0):
                return POCKETS
            # elsewhere, at the cut cells of X - q1: q1's neighbours that gained a group
            taken[a] = 1
            gates = 0
            for i in range(8):
                xx = a % n + _RX[i]
                yy = a // n + _RY[i]
                if 0 <= xx < n and 0 <= yy < n:
                    p = yy * n + xx
                    if not taken[p] and p != c and _is_cut(n, taken, p):
                        gates |= 1 << i
            taken[a] = 0
            for i in range(8):
                if (gates >> i) & 1:
                    p = a + _RY[i] * n + _RX[i]
                    if not pocket_ok(nb, colour, taken, a, p, c, -1, before, scratch, False):
                        return POCKETS
        else:
            gates = _no_pocket_at(n, scratch, a, c, end, total * colour[a], seeds)
            if gates < 0:
                return POCKETS
            for i in range(8):
                if (gates >> i) & 1:
                    if not pair_ok(nb, colour, n, taken, a, i, seeds[i], c, head, end, total, scratch):
                        return POCKETS
    return PASS_
