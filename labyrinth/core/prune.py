"""Necessary conditions for a completion on any move graph, in numba: the general search's pruning.

The question: is there a path from the head through every free cell (a
Hamiltonian path of G = the free cells plus the head, starting at the head)
that ends on ``end`` (fixed-end mode, ``end >= 0``) or anywhere (free-end
mode, ``end == FREE_END``)? A closed tour is reduced to the fixed end by the
caller: its first cell is given back as free and made the end. Graphs of any
degree k are read from ``nb.shape[1]``; ``-1`` is off the board.

The conditions (all sound, see each function), as :func:`check` applies them:

* degrees: every free cell other than the end has two usable neighbours
  (free, or the head), the end one; in free-end mode a cell with one usable
  neighbour can only be the last cell, so two of them are dead and one is
  *the* end for the rest of the checks; a free cell whose only other usable
  neighbour is the head must be entered now unless it can be the end;
* forced edges (:func:`propagate`): a vertex with as many live edges as it
  needs uses them all, one with that many forced edges uses no other, to a
  fixed point; forced edges must not close a cycle or join head and end early;
* G is connected, the head is not a cut vertex, every cut vertex separates
  exactly one part from the head's side, and those parts are nested, i.e. the
  block-cut tree is a path from the head's block: towards the end (fixed end),
  or towards wherever the path will stop (free end)
  (:func:`~labyrinth.core.blocks.blocks`);
* colour balance per segment between consecutive cut vertices (bipartite
  graphs only: with the all-zero colouring of a non-bipartite graph every sum
  is 0 and every test holds);
* optionally, two-cell cuts ``{p, a}`` for the free cells a within graph
  distance ``radius`` of the head (:func:`~labyrinth.core.blocks.pockets`).

The cut-vertex conditions (the last three) are :mod:`labyrinth.core.blocks`.
Every check runs over a list of the free cells, so it costs the free cells,
not the board.
"""

import numpy as np
from numba import njit

from labyrinth.core.blocks import PASS, blocks

__all__ = ["DEAD", "FREE_END", "INFO_LEN", "OPEN", "SCRATCH_ROWS", "check", "distances", "propagate"]

DEAD = -2
OPEN = -1
#: ``end`` of free-end mode: the path may stop on any cell.
FREE_END = -1

#: rows of the int32 scratch block (shape (SCRATCH_ROWS, size + 1), zeros to begin with) the
#: kernels share: 0-7 :func:`~labyrinth.core.blocks.blocks` on G (kept for the skips of
#: :func:`labyrinth.core.search._expand`), 8-15 :func:`~labyrinth.core.blocks.blocks`
#: for :func:`~labyrinth.core.blocks.pockets`, 16-17 a queue and marks (all zero between calls), 18-22
#: :func:`labyrinth.core.search._local_block`,
#: 23-30 :func:`propagate` (column ``size`` is its virtual end)
SCRATCH_ROWS = 31
_PROP = 23
#: ``info`` entries filled by :func:`check` (an int64 array of length INFO_LEN)
INFO_LEN = 4


@njit(cache=True)
def check(nb, colour, end, taken, head, free_count, freel, scratch, info, skip_blocks=False, parent_end=-1):
    """Degrees, forced moves and :func:`blocks` on G: DEAD, OPEN, or the cell the head must enter now.

    ``info[0]`` receives the end the path must stop on (``end``, the one cell
    of a free-end state with a single usable neighbour, or FREE_END);
    ``info[1]``, ``info[2]`` two cells one of which the next move must enter
    (both -1 when there is no such restriction).

    Free-end reasoning: a cell with one usable neighbour is an end point of
    the path and the head is the other, so it is the last cell. A cell c with
    exactly two usable neighbours, one the head, is either the last cell or
    an interior cell using both, the edge from the head included, and the
    head has a single edge left: the next move. So with the end known, such
    a c (not the end) is forced; with the end unknown, two of them mean the
    next move enters one and the other is the end, and three are dead.

    Then :func:`propagate` (forced edges; it may settle the end of a free-end
    state, and the next move), then :func:`blocks` with the end settled on.

    ``freel[:free_count]`` lists the free cells, in any order.
    ``skip_blocks``: the caller knows :func:`blocks` passes if the end is
    ``parent_end`` (see :func:`_expand`). ``info[3]`` receives 1 when
    :func:`blocks` ran and passed (its DFS is left in ``scratch[0:8]``), 2 when
    it ran and failed, 0 when it did not run.
    """
    k = nb.shape[1]
    info[1] = -1
    info[2] = -1
    info[3] = 0
    one = -1  # free-end mode: the cell with a single usable neighbour
    pair0 = -1
    pair1 = -1
    npair = 0
    deg = scratch[_PROP]
    tight = scratch[16]
    ntight = 0
    for i in range(free_count):
        c = freel[i]
        cnt = 0
        by_head = False
        for d in range(k):
            m = nb[c, d]
            if m < 0:
                continue
            if not taken[m]:
                cnt += 1
            elif m == head:
                cnt += 1
                by_head = True
        deg[c] = cnt  # for propagate()
        if cnt <= 2:
            tight[ntight] = c
            ntight += 1
        if c == end:
            if cnt < 1:
                return DEAD
            continue
        if cnt < 2:
            if end >= 0 or cnt == 0 or one >= 0:
                return DEAD
            one = c
            continue
        if cnt == 2 and by_head:
            if npair == 0:
                pair0 = c
            elif npair == 1:
                pair1 = c
            npair += 1
    eff = end if end >= 0 else one
    info[0] = eff
    forced = OPEN
    if eff >= 0:
        if npair >= 2:
            return DEAD
        if npair == 1:
            forced = pair0
    else:
        if npair >= 3:
            return DEAD
        if npair == 2:
            info[1] = pair0
            info[2] = pair1
    r = propagate(nb, eff, taken, head, free_count, freel, scratch, ntight)
    if r == DEAD or (r >= 0 and forced >= 0 and r != forced):
        return DEAD
    if r >= 0:
        forced = r
    if eff < 0:
        x = taken.shape[0]
        if scratch[_PROP + 3, x] == 1:  # the virtual end's edge is forced: its cell is the end
            eff = scratch[_PROP + 1, x]
            info[0] = eff
    if skip_blocks and eff == parent_end:
        return forced
    if blocks(nb, colour, eff, taken, head, free_count, freel, -1, scratch) != PASS:
        info[3] = 2
        return DEAD
    info[3] = 1
    return forced


@njit(cache=True)
def propagate(nb, end, taken, head, free_count, freel, scratch, ntight):
    """Forced-edge propagation on G: DEAD, OPEN, or the cell the head must enter now.

    A completion uses one edge at the head and at the end and two at every
    other free cell; in free-end mode a virtual end X (column ``size``) joins
    every free cell and takes the end's part, so exactly one free cell uses
    one edge of G. So a vertex whose live edges number what it needs uses them
    all (they are *forced*), and a vertex with that many forced edges uses no
    other (those are deleted, lowering its neighbours' counts); repeat to a
    fixed point. Dead when a vertex keeps fewer live edges than it needs, gets
    more forced ones, or forced edges close a cycle or join the head to the
    end (X) without covering every vertex (forced edges form paths: each
    path's ends point at each other).

    Expects, as :func:`check` leaves them, each free cell's count of usable
    neighbours in ``scratch[_PROP]`` and the ``ntight`` free cells with at
    most 2 of them first in ``scratch[16]``: only those can act before any
    other did, and the others' rows are filled when first reached (stamped
    with a per-call epoch), so a call costs what it finds, not the board.

    Leaves, per vertex v reached (rows from ``_PROP``; the head and X always):
    live edge count, the forced partners, their count (``fc``, so
    ``fc[X] == 1`` names the end), and bits of deleted edges by move (bit k:
    the edge to X), e.g. the head's.
    """
    k = nb.shape[1]
    x = taken.shape[0]
    deg = scratch[_PROP]  # usable neighbours (a free cell's X edge not counted; see off)
    f1 = scratch[_PROP + 1]
    f2 = scratch[_PROP + 2]
    fc = scratch[_PROP + 3]
    oe = scratch[_PROP + 4]  # the other end of the forced path a path end lies on
    sz = scratch[_PROP + 5]  # that path's vertex count (kept at both ends)
    dl = scratch[_PROP + 6]
    stamp = scratch[_PROP + 7]  # stamp[x]: the epoch of this call
    queue = scratch[16]
    inq = scratch[17]
    cap = x + 1
    free_end = end < 0
    off = 1 if free_end else 0  # a free cell's edge to X
    last = x if free_end else end  # the vertex the path must reach last
    total = free_count + 1 + off
    epoch = stamp[x] + 1
    if epoch >= 1 << 30:
        for c in range(x):
            stamp[c] = 0
        epoch = 1
    stamp[x] = epoch
    for i in range(2):
        v = head if i == 0 else x
        f1[v] = -1
        f2[v] = -1
        fc[v] = 0
        oe[v] = v
        sz[v] = 1
        dl[v] = 0
    stamp[head] = epoch
    cnt = 0
    for d in range(k):
        u = nb[head, d]
        if u >= 0 and not taken[u]:
            cnt += 1
    deg[head] = cnt
    deg[x] = free_count if free_end else 0
    qt = 0
    for i in range(ntight):  # keep those already tight, in place
        c = queue[i]
        stamp[c] = epoch
        f1[c] = -1
        f2[c] = -1
        fc[c] = 0
        oe[c] = c
        sz[c] = 1
        dl[c] = 0
        if deg[c] + off <= (1 if c == last else 2):
            queue[qt] = c
            qt += 1
            inq[c] = 1
    if deg[head] <= 1:
        queue[qt] = head
        qt += 1
        inq[head] = 1
    if free_end and free_count <= 1:
        queue[qt] = x
        qt += 1
        inq[x] = 1
    qn = qt
    qh = 0
    if qt == cap:
        qt = 0
    status = OPEN
    while qn > 0:
        v = queue[qh]
        qh = qh + 1 if qh + 1 < cap else 0
        qn -= 1
        inq[v] = 0
        need = 1 if v == head or v == last else 2
        live = deg[v] + (off if v != head and v != x else 0)
        if live < need:
            status = DEAD
            break
        if fc[v] == need and live > need:
            force = False
        elif live == need and fc[v] < need:
            force = True
        else:
            continue
        # every live edge of v that is not forced: delete it (v is saturated) or force it (v is tight)
        top = free_count if v == x else k + 1
        for j in range(top):
            if v == x:
                u = freel[j]
                if stamp[u] != epoch:
                    stamp[u] = epoch
                    f1[u] = -1
                    f2[u] = -1
                    fc[u] = 0
                    oe[u] = u
                    sz[u] = 1
                    dl[u] = 0
                if (dl[u] >> k) & 1:
                    continue
                bit_v = -1
                bit_u = k
            elif j == k:
                if not free_end or v == head or (dl[v] >> k) & 1:
                    continue
                u = x
                bit_v = k
                bit_u = -1
            else:
                u = nb[v, j]
                if u < 0 or (taken[u] and not (u == head and v != head)) or (dl[v] >> j) & 1:
                    continue
                if stamp[u] != epoch:
                    stamp[u] = epoch
                    f1[u] = -1
                    f2[u] = -1
                    fc[u] = 0
                    oe[u] = u
                    sz[u] = 1
                    dl[u] = 0
                bit_v = j
                bit_u = -1
                for e in range(k):
                    if nb[u, e] == v:
                        bit_u = e
                        break
            if u == f1[v] or u == f2[v]:
                continue
            if not force:
                if bit_v >= 0:
                    dl[v] |= 1 << bit_v
                if bit_u >= 0:
                    dl[u] |= 1 << bit_u
                deg[v] -= 1
                deg[u] -= 1
            else:
                need_u = 1 if u == head or u == last else 2
                if fc[v] >= need or fc[u] >= need_u:
                    status = DEAD
                    break
                a = oe[v]
                b = oe[u]
                if a == u:  # v and u already end one forced path: a cycle
                    status = DEAD
                    break
                size_ab = sz[v] + sz[u]
                oe[a] = b
                oe[b] = a
                sz[a] = size_ab
                sz[b] = size_ab
                if size_ab < total and ((a == head and b == last) or (a == last and b == head)):
                    status = DEAD
                    break
                if f1[v] < 0:
                    f1[v] = u
                else:
                    f2[v] = u
                if f1[u] < 0:
                    f1[u] = v
                else:
                    f2[u] = v
                fc[v] += 1
                fc[u] += 1
            if inq[u] == 0:
                inq[u] = 1
                queue[qt] = u
                qt = qt + 1 if qt + 1 < cap else 0
                qn += 1
        if status == DEAD:
            break
    while qn > 0:
        inq[queue[qh]] = 0
        qh = qh + 1 if qh + 1 < cap else 0
        qn -= 1
    if status == DEAD:
        return DEAD
    if fc[head] == 1:
        return f1[head]
    return OPEN


@njit(cache=True)
def distances(nb, source):
    """Moves from ``source`` to every cell over the whole graph (-1: unreachable)."""
    size = nb.shape[0]
    dist = np.full(size, -1, dtype=np.int64)
    queue = np.empty(size, dtype=np.int64)
    dist[source] = 0
    queue[0] = source
    lo = 0
    hi = 1
    while lo < hi:
        c = queue[lo]
        lo += 1
        for d in range(nb.shape[1]):
            w = nb[c, d]
            if w >= 0 and dist[w] < 0:
                dist[w] = dist[c] + 1
                queue[hi] = w
                hi += 1
    return dist
