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
  or towards wherever the path will stop (free end) (:func:`blocks`);
* colour balance per segment between consecutive cut vertices (bipartite
  graphs only: with the all-zero colouring of a non-bipartite graph every sum
  is 0 and every test holds);
* optionally, two-cell cuts ``{p, a}`` for the free cells a within graph
  distance ``radius`` of the head (:func:`pockets`).

Cut vertices come from one iterative Tarjan depth-first search (Tarjan 1972,
"Depth-first search and linear graph algorithms"), rooted at the head.
Every check runs over a list of the free cells, so it costs the free cells,
not the board.
"""

import numpy as np
from numba import njit

__all__ = ["COLOUR", "DEAD", "FREE_END", "HANGING", "HEAD_CUT", "INFO_LEN", "OPEN", "PASS", "SCRATCH_ROWS",
           "SPLIT", "blocks", "check", "distances", "pockets", "propagate"]

DEAD = -2
OPEN = -1
#: ``end`` of free-end mode: the path may stop on any cell.
FREE_END = -1

#: :func:`blocks` verdicts: the graph passes, or the first condition it fails.
PASS = 0
SPLIT = 1  # the free cells fall apart
HEAD_CUT = 2  # the head sits between two parts: it can enter only one
HANGING = 3  # a part hangs off a cut vertex with no way on (or two parts need the end)
COLOUR = 4  # a segment's colour sum does not fit its entry and exit

#: rows of the int32 scratch block (shape (SCRATCH_ROWS, size + 1), zeros to begin with) the
#: kernels share: 0-7 :func:`blocks` on G (kept for the skips of
#: :func:`labyrinth.core._search._expand`), 8-15 :func:`blocks`
#: for :func:`pockets`, 16-17 a queue and marks (all zero between calls), 18-22
#: :func:`labyrinth.core._search._local_block`,
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
def blocks(nb, colour, end, taken, head, free_count, freel, removed, scratch):
    """Cut-vertex conditions on G (``removed`` < 0) or on G minus the free cell ``removed``.

    On G: connected; the head no cut vertex (the path leaves it once); every
    other cut vertex v interior to the path, so G - v has exactly two parts,
    the head's and the end's: one separated DFS subtree, holding the end when
    it is known; with the end unknown the separated subtrees all hold it, so
    they are nested. Between consecutive cut vertices a, b the path is a
    Hamiltonian path of that segment, whose colour sum is (col(a) + col(b)) / 2;
    the last segment of a free-end path, from the deepest cut vertex p (or the
    head) to an unknown end x, sums to (col(p) + col(x)) / 2: 0 or col(p).

    On G - a (a = ``removed``; ``end`` must be known and G must have passed): a
    cut vertex p (the head included) that cuts off a part C holding neither
    head nor end has only p and a to pass through, so the path crosses C once,
    p -> C -> a or back (twice would close a cycle): at most one such C per p,
    with colour sum -(col(p) + col(a)) / 2.

    ``freel[:free_count]`` lists the free cells (any order): only they and the
    head are reset and entered, so a check costs the free cells, not the board.
    Returns PASS or the first failure (SPLIT, HEAD_CUT, HANGING, COLOUR).
    """
    k = nb.shape[1]
    disc = scratch[0]
    low = scratch[1]
    parent = scratch[2]
    sub = scratch[3]  # colour sum of the DFS subtree
    hasend = scratch[4]
    sep = scratch[5]  # the separated child of a cut vertex, else -1
    stk = scratch[6]
    nextd = scratch[7]  # next move to try, per vertex on the DFS stack
    for i in range(free_count):  # taken cells other than the head are never entered
        c = freel[i]
        disc[c] = -1
        sep[c] = -1
    pocket = removed >= 0
    if pocket:
        disc[removed] = -2
    sp = 0
    stk[0] = head
    disc[head] = 0
    sep[head] = -1
    low[head] = 0
    parent[head] = -1
    sub[head] = colour[head]
    hasend[head] = 1 if head == end else 0
    nextd[head] = 0
    t = 1
    root_children = 0
    ncut = 0
    deep = -1  # free end: the cut vertex whose separated subtree starts deepest
    while sp >= 0:
        v = stk[sp]
        d = nextd[v]
        w = -1
        while d < k:  # the next unvisited neighbour of v, updating low[v] on the way
            x = nb[v, d]
            d += 1
            if x < 0 or (taken[x] and x != head):
                continue
            dx = disc[x]
            if dx == -1:
                w = x
                break
            if dx >= 0 and dx < low[v] and x != parent[v]:
                low[v] = dx
        nextd[v] = d
        if w >= 0:
            disc[w] = t
            low[w] = t
            t += 1
            parent[w] = v
            sub[w] = colour[w]
            hasend[w] = 1 if w == end else 0
            nextd[w] = 0
            sp += 1
            stk[sp] = w
            if v == head:
                root_children += 1
            continue
        sp -= 1
        if sp >= 0:
            p = stk[sp]
            if low[v] < low[p]:
                low[p] = low[v]
            sub[p] += sub[v]
            if hasend[v]:
                hasend[p] = 1
            if pocket:
                if (p == head or low[v] >= disc[p]) and not hasend[v]:
                    if sep[p] >= 0:
                        return HANGING
                    sep[p] = v
                    if 2 * sub[v] != -(colour[p] + colour[removed]):
                        return COLOUR
            elif p != head and low[v] >= disc[p]:
                # p separates v's subtree from the head's side
                if sep[p] >= 0 or (end >= 0 and not hasend[v]):
                    return HANGING
                sep[p] = v
                ncut += 1
                if deep < 0 or disc[v] > disc[sep[deep]]:
                    deep = p
    if pocket:
        return PASS
    if t != free_count + 1:
        return SPLIT
    if root_children > 1:
        return HEAD_CUT
    # --- the chain of cut vertices, and colour balance per segment ------------------
    # Walk up from the far end of the chain to the head. lower_cut is the nearest cut
    # vertex (or the end) below, lower_sum the colour sum of its separated subtree.
    if end >= 0:
        lower_cut = end
        lower_sum = 0
        v = parent[end]
        prev = end
    else:
        if deep < 0:  # no cut vertex: one segment from the head to an unknown end
            if sub[head] != 0 and sub[head] != colour[head]:
                return COLOUR
            return PASS
        last = colour[deep] + sub[sep[deep]]
        if last != 0 and last != colour[deep]:
            return COLOUR
        lower_cut = deep
        lower_sum = sub[sep[deep]]
        v = parent[deep]
        prev = deep
        ncut -= 1
    while v >= 0:
        if v == head:
            if 2 * (sub[head] - lower_sum) != colour[head] + colour[lower_cut]:
                return COLOUR
            break
        if sep[v] >= 0:
            if sep[v] != prev:  # free end: the separated parts are not nested
                return HANGING
            ncut -= 1
            if 2 * (colour[v] + sub[sep[v]] - lower_sum) != colour[v] + colour[lower_cut]:
                return COLOUR
            lower_cut = v
            lower_sum = sub[sep[v]]
        prev = v
        v = parent[v]
    if end < 0 and ncut != 0:  # a cut vertex off the chain: its part can not hold the end
        return HANGING
    return PASS


@njit(cache=True)
def pockets(nb, colour, end, taken, head, free_count, freel, radius, scratch):
    """Two-cell cuts around the head: :func:`blocks` on G - a for every free cell a
    (not the end) within graph distance ``radius`` of the head, through free cells.

    Needs a known end (PASS when ``end`` < 0). PASS, or the first failure.
    """
    if end < 0:
        return PASS
    k = nb.shape[1]
    queue = scratch[16]
    mark = scratch[17]
    queue[0] = head
    mark[head] = 1
    lo = 0
    hi = 1
    for _ in range(radius):
        stop = hi
        for i in range(lo, stop):
            c = queue[i]
            for d in range(k):
                w = nb[c, d]
                if w >= 0 and not taken[w] and mark[w] != 1:
                    mark[w] = 1
                    queue[hi] = w
                    hi += 1
        lo = stop
    for i in range(hi):
        mark[queue[i]] = 0
    verdict = PASS
    for i in range(1, hi):
        a = queue[i]
        if a == end:
            continue
        verdict = blocks(nb, colour, end, taken, head, free_count, freel, a, scratch[8:16])
        if verdict != PASS:
            break
    return verdict


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
