"""Numba kernels for the completion search on any move graph: pruning and a resumable search loop.

The question at every node: is there a path from the head through every free
cell (a Hamiltonian path of G = the free cells plus the head, starting at the
head) that ends on ``end`` (fixed-end mode, ``end >= 0``) or anywhere
(free-end mode, ``end == FREE_END``)? A closed tour is reduced to the fixed
end by the caller: its first cell is given back as free and made the end.
Graphs of any degree k are read from ``nb.shape[1]``; ``-1`` is off the board.

Necessary conditions checked at every node (all sound, see each function):

* degrees: every free cell other than the end has two usable neighbours
  (free, or the head), the end one; in free-end mode a cell with one usable
  neighbour can only be the last cell, so two of them are dead and one is
  *the* end for the rest of the node's checks; a free cell whose only other
  usable neighbour is the head must be entered now unless it can be the end;
* G is connected, the head is not a cut vertex, every cut vertex separates
  exactly one part from the head's side, and those parts are nested, i.e. the
  block-cut tree is a path from the head's block: towards the end (fixed end),
  or towards wherever the path will stop (free end);
* colour balance per segment between consecutive cut vertices (bipartite
  graphs only: with the all-zero colouring of a non-bipartite graph every sum
  is 0 and every test holds);
* optionally, two-cell cuts ``{p, a}`` for the free cells a within graph
  distance ``radius`` of the head (:func:`pockets`).

Cut vertices come from one iterative Tarjan depth-first search (Tarjan 1972,
"Depth-first search and linear graph algorithms"), rooted at the head. That
pass over the board is skipped after a step that provably leaves its verdict
standing (a corridor step, or one whose neighbourhood stays 2-connected: see
:func:`_expand`), so a long run costs about one degree scan per step.

Move order: Warnsdorff (fewest onward moves first), ties by a caller-given
rank (:mod:`oracle.search`: farther from a fixed end, then nearer the board's
edge, then a seeded permutation in restart variants), then move order.
"""

import numpy as np
from numba import njit

__all__ = ["BUDGET", "DEAD", "EXHAUSTED", "FOUND", "FREE_END", "INFO_LEN", "OPEN", "SCRATCH_ROWS",
           "blocks", "check", "distances", "pockets", "search"]

DEAD = -2
OPEN = -1
#: ``end`` of free-end mode: the path may stop on any cell.
FREE_END = -1

FOUND = 1
EXHAUSTED = 0
BUDGET = 2

#: :func:`blocks` verdicts: the graph passes, or the first condition it fails.
PASS = 0
SPLIT = 1  # the free cells fall apart
HEAD_CUT = 2  # the head sits between two parts: it can enter only one
HANGING = 3  # a part hangs off a cut vertex with no way on (or two parts need the end)
COLOUR = 4  # a segment's colour sum does not fit its entry and exit

#: rows of the int32 scratch block (shape (SCRATCH_ROWS, size), zeros to begin with) the kernels
#: share: 0-7 :func:`blocks` on G (kept for the skips of :func:`_expand`), 8-15 :func:`blocks`
#: for :func:`pockets`, 16-17 a queue and marks (all zero between calls), 18-22 :func:`_local_block`
SCRATCH_ROWS = 23
#: ``info`` entries filled by :func:`check` (an int64 array of length INFO_LEN)
INFO_LEN = 4
#: :func:`_local_block` looks this many moves around the last head
LOCAL_RADIUS = 2


@njit(cache=True)
def check(nb, colour, end, taken, head, free_count, scratch, info, skip_blocks=False, parent_end=-1):
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

    ``skip_blocks``: the caller knows :func:`blocks` passes if the end is
    ``parent_end`` (see :func:`_expand`). ``info[3]`` receives 1 when
    :func:`blocks` ran and passed (its DFS is left in ``scratch[0:8]``), 2 when
    it ran and failed, 0 when it did not run.
    """
    size = taken.shape[0]
    k = nb.shape[1]
    info[1] = -1
    info[2] = -1
    info[3] = 0
    one = -1  # free-end mode: the cell with a single usable neighbour
    pair0 = -1
    pair1 = -1
    npair = 0
    for c in range(size):
        if taken[c]:
            continue
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
    if skip_blocks and eff == parent_end:
        return forced
    if blocks(nb, colour, eff, taken, head, free_count, -1, scratch) != PASS:
        info[3] = 2
        return DEAD
    info[3] = 1
    return forced


@njit(cache=True)
def blocks(nb, colour, end, taken, head, free_count, removed, scratch):
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

    Returns PASS or the first failure (SPLIT, HEAD_CUT, HANGING, COLOUR).
    """
    size = taken.shape[0]
    k = nb.shape[1]
    disc = scratch[0]
    low = scratch[1]
    parent = scratch[2]
    sub = scratch[3]  # colour sum of the DFS subtree
    hasend = scratch[4]
    sep = scratch[5]  # the separated child of a cut vertex, else -1
    stk = scratch[6]
    nextd = scratch[7]  # next move to try, per vertex on the DFS stack
    for c in range(size):
        disc[c] = -2 if taken[c] else -1  # -2: never entered
        sep[c] = -1
    pocket = removed >= 0
    if pocket:
        disc[removed] = -2
    sp = 0
    stk[0] = head
    disc[head] = 0
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
            if x < 0:
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
def pockets(nb, colour, end, taken, head, free_count, radius, scratch):
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
        verdict = blocks(nb, colour, end, taken, head, free_count, a, scratch[8:16])
        if verdict != PASS:
            break
    return verdict


@njit(cache=True)
def _local_block(nb, taken, h, w, radius, scratch):
    """True when the new head ``w`` and the free neighbours of the last head ``h``
    all lie in one block (a 2-connected piece) of the subgraph induced by the
    cells (free, or ``w``) within ``radius`` moves of ``h`` through such cells.

    Iterative Tarjan DFS rooted at w (Tarjan 1972): a vertex u is in the block
    of the root's child c above it iff no tree edge x -> y between c and u has
    low(y) >= disc(x).
    """
    k = nb.shape[1]
    queue = scratch[16]
    mark = scratch[17]
    disc = scratch[18]
    low = scratch[19]
    parent = scratch[20]
    stk = scratch[21]
    nextd = scratch[22]
    hi = 0
    for d in range(k):
        x = nb[h, d]
        if x >= 0 and (not taken[x] or x == w) and mark[x] == 0:
            mark[x] = 1
            queue[hi] = x
            hi += 1
    first = hi  # w and the other neighbours of h
    lo = 0
    for _ in range(radius - 1):
        stop = hi
        for i in range(lo, stop):
            c = queue[i]
            for d in range(k):
                x = nb[c, d]
                if x >= 0 and (not taken[x] or x == w) and mark[x] == 0:
                    mark[x] = 1
                    queue[hi] = x
                    hi += 1
        lo = stop
    for i in range(hi):
        disc[queue[i]] = -1
    disc[w] = 0
    low[w] = 0
    parent[w] = -1
    nextd[w] = 0
    stk[0] = w
    sp = 0
    t = 1
    while sp >= 0:
        v = stk[sp]
        d = nextd[v]
        nxt = -1
        while d < k:
            x = nb[v, d]
            d += 1
            if x < 0 or mark[x] != 1:
                continue
            dx = disc[x]
            if dx == -1:
                nxt = x
                break
            if dx < low[v] and x != parent[v]:
                low[v] = dx
        nextd[v] = d
        if nxt >= 0:
            disc[nxt] = t
            low[nxt] = t
            t += 1
            parent[nxt] = v
            nextd[nxt] = 0
            sp += 1
            stk[sp] = nxt
            continue
        sp -= 1
        if sp >= 0:
            p = stk[sp]
            if low[v] < low[p]:
                low[p] = low[v]
    ok = True
    top = -1
    for i in range(first):
        u = queue[i]
        if u == w:
            continue
        if disc[u] < 0:
            ok = False
            break
        y = u
        x = parent[u]
        while x != w:
            if low[y] >= disc[x]:
                ok = False
                break
            y = x
            x = parent[x]
        if not ok:
            break
        if top < 0:
            top = y
        elif top != y:
            ok = False
            break
    for i in range(hi):
        mark[queue[i]] = 0
    return ok


@njit(cache=True)
def _full_check(nb, colour, end, taken, head, free_count, scratch):
    """:func:`check` without skips, on scratch rows of its own (audits only)."""
    info = np.zeros(INFO_LEN, dtype=np.int64)
    return check(nb, colour, end, taken, head, free_count, scratch[8:16], info)


@njit(cache=True)
def _expand(nb, colour, end, taken, path, base, depth, free_count, cand, ncand, idx, scratch, info, rank, radius,
            ends, frame, counters, audit):
    """Fill the candidate cells at ``depth``, best first; their number (0 if pruned or none).

    :func:`blocks` costs a pass over the board, but a step from h to w changes
    G only by dropping h, so two cases skip it (when the end stays the parent's):

    * a corridor step, h's only free neighbour being w: h was a leaf of G on w,
      the block {h, w} drops off the front of the chain (w, its cut vertex, is
      the new head), and no free cell's degree changed;
    * w and h's other free neighbours N lie in one 2-connected piece L of G - h
      (:func:`_local_block`), and w is no cut vertex of G. For any v, the parts
      of G - v - h each touch h, and L - v is connected, so they are one: G - h
      has no new cut vertex, each cut vertex of G keeps its far part, and the
      head's segment only lost h, its colour sum moving from (col(h) + col(c)) / 2
      to (col(w) + col(c)) / 2 as col(w) = -col(h) (all zero off bipartite graphs).
      If w *is* a cut vertex of G, it cuts N off its far part in G - h: dead.

    Either way the cut vertices of the child are those of the parent but w, so
    those of the nearest ancestor that ran :func:`blocks` (its DFS in
    ``scratch[0:8]``, at depth ``frame[2]``; -1 when there is none) tell whether w is one.

    ``audit`` (for tests) runs the full check too wherever a skip decided, and
    counts the disagreements in ``counters[3]``.
    """
    head = path[depth]
    idx[depth] = 0
    ncand[depth] = 0
    if head == end:
        return 0
    k = nb.shape[1]
    skip = False
    parent_end = -2
    if depth > base:
        parent_end = ends[depth - 1]
        prev = path[depth - 1]
        skip = True
        for d in range(k):
            x = nb[prev, d]
            if x >= 0 and not taken[x]:
                skip = False
                break
        if not skip and frame[2] >= 0:
            if scratch[5, head] >= 0:  # sep[] of blocks(): w separates a part of G
                if audit and _full_check(nb, colour, end, taken, head, free_count, scratch) != DEAD:
                    counters[3] += 1
                return 0
            skip = _local_block(nb, taken, prev, head, LOCAL_RADIUS, scratch)
    r = check(nb, colour, end, taken, head, free_count, scratch, info, skip, parent_end)
    if audit and skip and info[3] == 0 and r != DEAD:
        if _full_check(nb, colour, end, taken, head, free_count, scratch) != r:
            counters[3] += 1
    if info[3] != 0:
        counters[2] += 1
    if info[3] == 1:
        frame[2] = depth
    elif info[3] == 2:
        frame[2] = -1
    ends[depth] = info[0]
    if r == DEAD:
        return 0
    eff = info[0]
    if radius > 0 and eff >= 0 and pockets(nb, colour, eff, taken, head, free_count, radius, scratch) != PASS:
        return 0
    if r >= 0:
        cand[depth, 0] = r
        ncand[depth] = 1
        return 1
    only0 = info[1]
    only1 = info[2]
    keys = np.empty(k, dtype=np.int64)
    n = 0
    for d in range(k):
        w = nb[head, d]
        if w < 0 or taken[w]:
            continue
        if w == eff and free_count > 1:
            continue
        if only0 >= 0 and w != only0 and w != only1:
            continue
        onward = 0
        for e in range(k):
            x = nb[w, e]
            if x >= 0 and not taken[x]:
                onward += 1
        # Warnsdorff: fewest onward moves first; ties by the precomputed rank, then move order
        keys[n] = onward * (1 << 48) + rank[w]
        cand[depth, n] = w
        n += 1
    for i in range(1, n):  # stable insertion sort of at most k candidates
        kk = keys[i]
        ww = cand[depth, i]
        j = i - 1
        while j >= 0 and keys[j] > kk:
            keys[j + 1] = keys[j]
            cand[depth, j + 1] = cand[depth, j]
            j -= 1
        keys[j + 1] = kk
        cand[depth, j + 1] = ww
    ncand[depth] = n
    return n


@njit(cache=True)
def search(nb, colour, end, taken, path, base, frame, cand, ncand, idx, scratch, info, rank, radius,
           budget, counters, ends, audit=False):
    """Resumable depth-first search for a completion.

    ``path[base]`` is the head of the query state; ``frame[0]`` holds the current
    depth (``-1`` = not started), ``frame[1]`` the free-cell count, ``frame[2]``
    the depth whose :func:`blocks` DFS ``scratch`` holds (-1: none), ``ends``
    the end each depth's checks settled on. ``cand``
    (shape (size + 1, k)) holds candidate cells per depth. Runs at most
    ``budget`` node expansions, then returns BUDGET with everything saved in
    the arrays; FOUND leaves the completion in ``path[base:frame[0] + 1]``.
    ``counters[0]`` counts expansions, ``counters[1]`` backtracks, ``counters[2]``
    the nodes that ran :func:`blocks` (the others skipped it), ``counters[3]``
    the skips a full check disagreed with (``audit`` only); ``radius`` > 0
    adds :func:`pockets` at every node.
    """
    depth = frame[0]
    free_count = frame[1]
    if depth < 0:
        depth = base
        counters[0] += 1
        if free_count == 0:
            frame[0] = depth
            return FOUND if end < 0 or path[depth] == end else EXHAUSTED
        frame[2] = -1
        _expand(nb, colour, end, taken, path, base, depth, free_count, cand, ncand, idx, scratch, info, rank, radius,
                ends, frame, counters, audit)
    steps = 0
    while True:
        if steps >= budget:
            frame[0] = depth
            frame[1] = free_count
            return BUDGET
        if idx[depth] < ncand[depth]:
            w = cand[depth, idx[depth]]
            idx[depth] += 1
            depth += 1
            path[depth] = w
            taken[w] = 1
            free_count -= 1
            steps += 1
            counters[0] += 1
            if free_count == 0:
                if end < 0 or w == end:
                    frame[0] = depth
                    frame[1] = 0
                    return FOUND
                ncand[depth] = 0
                idx[depth] = 0
                continue
            _expand(nb, colour, end, taken, path, base, depth, free_count, cand, ncand, idx, scratch, info, rank,
                    radius, ends, frame, counters, audit)
        else:
            if depth == base:
                frame[0] = depth
                frame[1] = free_count
                return EXHAUSTED
            taken[path[depth]] = 0
            free_count += 1
            depth -= 1
            counters[1] += 1
            if depth < frame[2]:
                frame[2] = -1


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
