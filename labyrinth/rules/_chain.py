"""The chain of cut cells of the free cells along a walk, the small-side floods that keep it, and its verdicts.

The walker's bookkeeping (:mod:`labyrinth.rules.areas`) proves a PASS of the
GLOBAL area analysis from local work. When the free cells V have cut cells
and the last verdict passed, V's block-cut tree is a path from the head's
block to the end's block (Tarjan 1972; Hopcroft and Tarjan 1973, "Efficient
algorithms for graph manipulation", for the biconnected components): a
chain of cut cells q1 .. qk, q1 next to the head. Kept here, in scratch
rows beyond those of :func:`labyrinth.engine.graph.blocks`:

* ``scratch[CUTS, 0]`` the chain's length k, ``scratch[CUTS, k]`` .. ``scratch[CUTS, 1]``
  q1 .. qk (the head's side on top, so a step pushes and pops at the top);
* ``scratch[SUMS, i]`` the colour sum of the part of V - q beyond the cut
  cell q = ``scratch[CUTS, i]`` (the end's side), so a segment's colour sum
  between two cut cells is a difference of two of them, as in ``blocks``;
* ``scratch[SUMS, 0]`` the moves (bit per direction) whose cell lies on the
  head's side of every cut cell the last step created, plus KNOWN (a chain
  read off a block search knows no move), or -1: no chain;
* ``scratch[MARK]`` all zero between floods (the floods' labels).

A step only removes a cell of the first block, so the blocks beyond q1 stay;
the first block may lose q1 (nothing was left before it) or split at new cut
cells around the cell taken, and :func:`parts` measures each new cut cell's
two sides by flooding them in turns until the smaller one is done.
"""

import numpy as np
from numba import njit

from labyrinth.engine import graph
from labyrinth.rules._ring import (
    _RX,
    _RY,
    ROW_WINDOWS,
    _cuts_in,
    _is_cut,
    _ring_groups,
    row_windows_mark,
)

__all__ = [
    "CUTS",
    "KNOWN",
    "MARK",
    "PAUX",
    "PGEN",
    "PKEY",
    "PVAL",
    "ROWS",
    "SUMS",
    "chain_reset",
    "parts",
    "pocket_ok",
    "split_at",
]

#: scratch rows of the chain (``blocks`` uses rows 0-8)
MARK, CUTS, SUMS = 9, 10, 11
#: scratch rows of the pocket cache (:mod:`labyrinth.rules._pockets`)
PKEY, PVAL, PGEN, PAUX = 12, 13, 14, 15
#: the scratch rows in all (the row windows of :mod:`labyrinth.rules._ring` last)
ROWS = ROW_WINDOWS + 1
#: in ``scratch[SUMS, 0]``: the move mask is known (a chain read off a block search knows no move)
KNOWN = 16
#: ``info`` columns of :func:`parts` per label: cells, colour sum, holds ``c``, holds the end, part (root
#: label), queue head and tail (its queue in ``scratch[label]``), seed; then the whole part's four counts
CELLS, SUM, HAS_C, HAS_END, ROOT, HEAD, TAIL, SEED, WHOLE = 0, 1, 2, 3, 4, 5, 6, 7, 8
INFO = 12
#: verdicts of :func:`_chain_verdict`: the graph's PASS, and SEALED as :func:`labyrinth.rules.areas.area_status` says it
PASS_ = graph.PASS
SEALED = 8

@njit(cache=True)
def chain_reset(scratch):
    """Clear the flood marks and start an empty chain (V without cut cells) open to every move."""
    scratch[MARK, :] = 0
    scratch[CUTS, 0] = 0
    scratch[SUMS, 0] = 15 | KNOWN


@njit(inline="always")
def _find(info, k):
    while info[k, ROOT] != k:
        k = info[k, ROOT]
    return k


@njit(cache=True)
def parts(nb, colour, taken, ns, c, end, scratch, info):
    """Flood the parts of the free cells holding the seeds ``info[:ns, SEED]``, in turns, until at most one is unfinished.

    Label ``j`` floods from seed j (a seed already reached starts none);
    floods that meet merge (union-find on the labels, ROOT). Each turn grows
    every unfinished part by one cell, so the work is about the number of
    parts times the second-largest part, not the whole board. Fills
    ``info[j]``: CELLS, SUM, HAS_C, HAS_END over the cells label j reached.
    Returns the root label of the one unfinished part, or -1 if all
    finished; its counts are partial (see :func:`totals`). Leaves the flooded
    cells marked in ``scratch[MARK]`` (label + 1): read them, then call :func:`unmark`.
    """
    mark = scratch[MARK]
    for j in range(ns):
        info[j, ROOT] = j
        info[j, HEAD] = 0
        info[j, TAIL] = 0
        info[j, CELLS] = 0
        info[j, SUM] = 0
        info[j, HAS_C] = 0
        info[j, HAS_END] = 0
        s = info[j, SEED]
        if mark[s] == 0:
            mark[s] = j + 1
            scratch[j, 0] = s
            info[j, TAIL] = 1
            info[j, CELLS] = 1
            info[j, SUM] = colour[s]
            info[j, HAS_C] = 1 if s == c else 0
            info[j, HAS_END] = 1 if s == end else 0
    while True:
        moved = 0  # the parts grown this turn, a bit per root label
        alive = 0
        for j in range(ns):
            if info[j, HEAD] >= info[j, TAIL]:
                continue
            r = _find(info, j)
            if (moved >> r) & 1:
                continue
            moved |= 1 << r
            alive += 1
            v = scratch[j, info[j, HEAD]]
            info[j, HEAD] += 1
            for e in range(4):
                w = nb[v, e]
                if w < 0 or taken[w]:
                    continue
                m = mark[w]
                if m == 0:
                    mark[w] = j + 1
                    scratch[j, info[j, TAIL]] = w
                    info[j, TAIL] += 1
                    info[j, CELLS] += 1
                    info[j, SUM] += colour[w]
                    if w == c:
                        info[j, HAS_C] = 1
                    if w == end:
                        info[j, HAS_END] = 1
                else:
                    x = _find(info, m - 1)
                    y = _find(info, j)
                    if x != y:
                        info[max(x, y), ROOT] = min(x, y)
        if alive <= 1:
            break
    open_ = -1
    for j in range(ns):
        if info[j, HEAD] < info[j, TAIL]:
            open_ = _find(info, j)
    for j in range(ns):
        info[j, ROOT] = _find(info, j)
    return open_


@njit(cache=True)
def unmark(scratch, ns, info):
    """Clear the marks :func:`parts` left (its queues still list the cells)."""
    mark = scratch[MARK]
    for j in range(ns):
        for i in range(info[j, TAIL]):
            mark[scratch[j, i]] = 0


@njit(cache=True)
def totals(ns, info, open_, cells, total, gated_c, gated_end):
    """Per part (root label r): ``info[r, WHOLE + k]`` = CELLS, SUM, HAS_C, HAS_END of the whole part.

    The unfinished part ``open_`` gets what the finished ones leave of
    ``cells`` free cells of colour sum ``total`` (the gates already taken out);
    ``gated_c`` / ``gated_end`` say ``c`` / the end is in no part.
    """
    for r in range(ns):
        for k in range(4):
            info[r, WHOLE + k] = 0
    for j in range(ns):
        r = info[j, ROOT]
        for k in range(4):
            info[r, WHOLE + k] += info[j, k]
    if open_ >= 0:
        rest_cells = cells
        rest_sum = total
        rest_c = 0 if gated_c else 1
        rest_end = 0 if gated_end else 1
        for r in range(ns):
            if r != open_ and info[r, ROOT] == r:
                rest_cells -= info[r, WHOLE + CELLS]
                rest_sum -= info[r, WHOLE + SUM]
                rest_c -= info[r, WHOLE + HAS_C]
                rest_end -= info[r, WHOLE + HAS_END]
        info[open_, WHOLE + CELLS] = rest_cells
        info[open_, WHOLE + SUM] = rest_sum
        info[open_, WHOLE + HAS_C] = rest_c
        info[open_, WHOLE + HAS_END] = rest_end


@njit(cache=True)
def _gate_seeds(nb, taken, g, info, ns):
    """Add the free neighbours of the gate cell ``g`` (taken already) as seeds; returns the new number."""
    for e in range(4):
        w = nb[g, e]
        if w >= 0 and not taken[w]:
            info[ns, SEED] = w
            ns += 1
    return ns


@njit(cache=True)
def pocket_ok(nb, colour, taken, a, p, c, end, total, scratch, both):
    """True if the free cells minus {a, p} leave no pocket that ``blocks`` on G - a refutes at p.

    ``taken`` marks the line before the step (``c``, the new head, free);
    ``total`` is the colour sum of the free cells. A pocket is a part holding
    neither ``c`` nor the end (p may be either); the search refutes two
    pockets, or one whose colour sum is not -(col(a) + col(p)) / 2 (the path
    crosses it once, from p to a or back). Exact, as
    :func:`labyrinth.rules._ring._no_pocket_at` is in its window. Without
    ``both`` the floods start from p's neighbours only: they stay in the part
    of the free cells minus a that holds p, of colour sum ``total`` (``end``
    -1: the end is not there).
    """
    taken[a] += 1
    taken[p] += 1
    info = np.empty((8, INFO), dtype=np.int64)
    ns = _gate_seeds(nb, taken, p, info, 0)
    if both:
        ns = _gate_seeds(nb, taken, a, info, ns)
    open_ = parts(nb, colour, taken, ns, c, end, scratch, info)
    unmark(scratch, ns, info)
    taken[a] -= 1
    taken[p] -= 1
    sum_ = total - colour[p] - (colour[a] if both else 0)
    totals(ns, info, open_, 0, sum_, p == c, end < 0 or p == end)
    pockets = 0
    for r in range(ns):
        if info[r, ROOT] != r or (r != open_ and info[r, WHOLE + CELLS] == 0):
            continue
        if info[r, WHOLE + HAS_C] == 0 and info[r, WHOLE + HAS_END] == 0:
            pockets += 1
            if pockets > 1 or 2 * info[r, WHOLE + SUM] != -(colour[p] + colour[a]):
                return False
    return True


@njit(cache=True)
def split_at(nb, colour, taken, x, h, end, cells, total, scratch, side):
    """The two sides of the new cut cell ``x``: the moves from ``h`` onto its far side from the end.

    ``cells`` and ``total`` are the free cells' number and colour sum.
    Writes the end's side's cell count and colour sum to ``side[0:2]``;
    returns a bit mask of the directions from ``h`` whose cell is free and
    on the other side, or -1 if V - x does not have exactly two parts, one
    holding the end.
    """
    taken[x] += 1
    info = np.empty((8, INFO), dtype=np.int64)
    ns = _gate_seeds(nb, taken, x, info, 0)
    open_ = parts(nb, colour, taken, ns, -1, end, scratch, info)
    totals(ns, info, open_, cells - 1, total - colour[x], True, x == end)
    count = 0
    far = -1
    for r in range(ns):
        if info[r, ROOT] != r or (r != open_ and info[r, WHOLE + CELLS] == 0):
            continue
        count += 1
        if info[r, WHOLE + HAS_END]:
            far = r
    mask = -1
    if count == 2 and far >= 0:
        side[0] = info[far, WHOLE + CELLS]
        side[1] = info[far, WHOLE + SUM]
        mark = scratch[MARK]
        mask = 0
        for e in range(4):
            q = nb[h, e]
            if q < 0 or taken[q]:
                continue
            r = info[mark[q] - 1, ROOT] if mark[q] else open_
            if r >= 0 and r != far:
                mask |= 1 << e
    unmark(scratch, ns, info)
    taken[x] -= 1
    return mask


@njit(cache=True)
def _take(n, taken, h, area, scratch):
    """Mark ``h`` taken and keep the counts and row windows; returns (ring groups before, after, h was a cut cell)."""
    before = _ring_groups(n, taken, h)
    cut = 1 if _is_cut(n, taken, h) else 0
    taken[h] = 1
    row_windows_mark(n, scratch, h, 0)
    after = _ring_groups(n, taken, h)
    area[4, 1] += _cuts_in(after) - _cuts_in(before) - cut
    area[4, 2] = (area[4, 2] & ~1) + 2 * cut
    return before, after, cut


@njit(cache=True)
def _chain_step(nb, colour, n, end, taken, h, before, after, left, scratch):
    """Carry the chain of cut cells over the step onto ``h`` (taken now; ``left`` free cells remain).

    Requires the chain valid before the step and ``h`` a non-cut cell on the
    head's side of its first cut cell q1. Only cells around ``h`` change their
    group count: q1 drops out when nothing was left before it (2 groups -> 1),
    and a cell whose count went from 1 to 2 is a new cut cell between the
    head and q1, measured by :func:`split_at`. Returns False (the chain is
    lost) for any other change, when no move can stay on the head's side of
    every new cut cell, or when a new segment's colour balance fails.
    """
    total = colour[0] * (1 - (n * n - left) % 2)
    k = scratch[CUTS, 0]
    xs = np.empty(8, dtype=np.int64)
    nx = 0
    for i in range(8):
        gb = (before >> (3 * i)) & 7
        ga = (after >> (3 * i)) & 7
        if gb == ga:
            continue
        r = (h // n + _RY[i]) * n + h % n + _RX[i]
        if gb >= 2:
            if ga != 1 or k == 0 or scratch[CUTS, k] != r:
                return False
            k -= 1
        elif gb == 1 and ga == 2 and r != end:
            xs[nx] = r
            nx += 1
        else:
            return False
    mask = 15
    cells = np.empty(8, dtype=np.int64)
    sums = np.empty(8, dtype=np.int64)
    side = np.empty(2, dtype=np.int64)
    for j in range(nx):
        m = split_at(nb, colour, taken, xs[j], h, end, left, total, scratch, side)
        if m < 0:
            return False
        mask &= m
        cells[j] = side[0]
        sums[j] = side[1]
    if mask == 0:
        return False
    # push the new cut cells, nearest the end (fewest cells beyond) first
    for _ in range(nx):
        best = -1
        for j in range(nx):
            if xs[j] >= 0 and (best < 0 or cells[j] < cells[best]):
                best = j
        x = xs[best]
        xs[best] = -1
        w = end if k == 0 else scratch[CUTS, k]
        beyond = 0 if k == 0 else scratch[SUMS, k]
        if 2 * (colour[x] + sums[best] - beyond) != colour[x] + colour[w]:
            return False
        k += 1
        scratch[CUTS, k] = x
        scratch[SUMS, k] = sums[best]
    scratch[CUTS, 0] = k
    scratch[SUMS, 0] = mask | KNOWN
    return True


@njit(cache=True)
def track_step(nb, colour, n, end, taken, head, d, left, area, scratch):
    """Take the step from ``head`` in direction ``d`` after a decision; returns the new head.

    ``left`` counts the free cells after the step. If the chain of cut cells
    was known and the cell entered lay on the head's side of all of them
    (its area verdict was PASS, or it is no cut cell and the chain's move
    mask has it), :func:`_chain_step` carries the chain over; bit 0 of
    ``area[4, 2]`` says it did. Without cut cells and splits the chain is
    empty and known anyway.
    """
    c = nb[head, d]
    if area[4, 1] <= 0:
        taken[c] = 1
        return c
    ok = scratch[SUMS, 0]
    allowed = (area[4, 2] & 1) == 1 and (area[d, 0] == PASS_ or ((ok >> d) & 1) == 1)
    before, after, cut = _take(n, taken, c, area, scratch)
    if (allowed and cut == 0 and _chain_step(nb, colour, n, end, taken, c, before, after, left, scratch)
            and scratch[CUTS, 0] == area[4, 1] - 1):
        area[4, 2] |= 1
    elif area[4, 1] == 1 and area[4, 2] < 2:
        scratch[CUTS, 0] = 0
        scratch[SUMS, 0] = 15 | KNOWN
        area[4, 2] |= 1
    return c


@njit(cache=True)
def _chain_from_blocks(end, head, scratch):
    """Read the chain of cut cells off a passing :func:`graph.blocks` search (no move known to stay before q1)."""
    parent = scratch[graph.PARENT]
    sub = scratch[graph.SUB]
    sep = scratch[graph.SEP]
    k = 0
    v = parent[end]
    while v >= 0 and v != head:
        if sep[v] >= 0:
            k += 1
            scratch[CUTS, k] = v
            scratch[SUMS, k] = sub[sep[v]]
        v = parent[v]
    scratch[CUTS, 0] = k
    scratch[SUMS, 0] = 0
