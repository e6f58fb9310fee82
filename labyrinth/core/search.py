"""The general search loop in numba: depth-first, resumable, for any move graph.

Its pruning is :mod:`labyrinth.core.prune`. A step costs about one pass over
the free cells: the cut-vertex pass is skipped after a step that provably
leaves its verdict standing (a corridor step, or one whose neighbourhood stays
2-connected: see :func:`_expand`), and positions found dead are remembered
(:func:`search`), so a dead end reached again in another order costs nothing.

Move order: Warnsdorff (fewest onward moves first), ties by a caller-given
rank (:mod:`oracle.search`: farther from a fixed end, then nearer the board's
edge, then a seeded permutation in restart variants), then move order; the
caller's restarts also try the two other orders below.
"""

import numpy as np
from numba import njit

from labyrinth.core.blocks import PASS, pockets
from labyrinth.core.prune import (
    _PROP,
    DEAD,
    INFO_LEN,
    SCRATCH_ROWS,
    check,
)

__all__ = ["BUDGET", "EXHAUSTED", "FOUND", "RANKED", "REVERSE", "WARNSDORFF", "search", "sort_candidates"]

#: move orders of :func:`search`: fewest onward moves first (Warnsdorff), most
#: first, or by the rank alone (cells with a single way on still first)
WARNSDORFF = 0
REVERSE = 1
RANKED = 2

FOUND = 1
EXHAUSTED = 0
BUDGET = 2

#: :func:`_local_block` looks this many moves around the last head
LOCAL_RADIUS = 2


@njit(inline="always")
def sort_candidates(keys, cand, depth, n):
    """Order the first ``n`` candidates of row ``depth`` by ``keys`` (a stable insertion sort: n is a
    cell's degree, at most 16), the move order of every depth-first search here and of the labyrinth's."""
    for i in range(1, n):
        kk = keys[i]
        ww = cand[depth, i]
        j = i - 1
        while j >= 0 and keys[j] > kk:
            keys[j + 1] = keys[j]
            cand[depth, j + 1] = cand[depth, j]
            j -= 1
        keys[j + 1] = kk
        cand[depth, j + 1] = ww


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
def _full_check(nb, colour, end, taken, head, free_count, freel, scratch):
    """:func:`check` without skips, on a scratch block of its own (audits only)."""
    info = np.zeros(INFO_LEN, dtype=np.int64)
    own = np.zeros((SCRATCH_ROWS, scratch.shape[1]), dtype=np.int32)
    return check(nb, colour, end, taken, head, free_count, freel, own, info)


@njit(cache=True)
def _expand(nb, colour, end, taken, path, base, depth, free_count, freel, cand, ncand, idx, scratch, info, rank,
            order, radius, ends, frame, counters, audit):
    """Fill the candidate cells at ``depth``, best first; their number (0 if pruned or none).

    :func:`~labyrinth.core.blocks.blocks` costs a depth-first pass over G, but a
    step from h to w changes G only by dropping h, so two cases skip it (when
    the end stays the parent's):

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
    those of the nearest ancestor that ran ``blocks`` (its DFS in
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
                if audit and _full_check(nb, colour, end, taken, head, free_count, freel, scratch) != DEAD:
                    counters[3] += 1
                return 0
            skip = _local_block(nb, taken, prev, head, LOCAL_RADIUS, scratch)
    r = check(nb, colour, end, taken, head, free_count, freel, scratch, info, skip, parent_end)
    if audit and skip and info[3] == 0 and r != DEAD:
        if _full_check(nb, colour, end, taken, head, free_count, freel, scratch) != r:
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
    if radius > 0 and eff >= 0 and pockets(nb, colour, eff, taken, head, free_count, freel, radius, scratch) != PASS:
        return 0
    if r >= 0:
        cand[depth, 0] = r
        ncand[depth] = 1
        return 1
    only0 = info[1]
    only1 = info[2]
    gone = scratch[_PROP + 6, head]  # moves propagate() deleted
    keys = np.empty(k, dtype=np.int64)
    n = 0
    for d in range(k):
        w = nb[head, d]
        if w < 0 or taken[w] or (gone >> d) & 1:
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
        if order == WARNSDORFF:
            keys[n] = onward * (1 << 48) + rank[w]
        elif order == REVERSE:
            keys[n] = (k - onward) * (1 << 48) + rank[w]
        else:  # RANKED: the rank alone, but a cell with one way on first
            keys[n] = (0 if onward <= 1 else 1 << 48) + rank[w]
        cand[depth, n] = w
        n += 1
    sort_candidates(keys, cand, depth, n)
    ncand[depth] = n
    return n


@njit(cache=True)
def _same_set(table, slot, tbits):
    """True when the taken set kept in ``table[4:, slot]`` is ``tbits``."""
    for j in range(tbits.shape[0]):
        if table[4 + j, slot] != tbits[j]:
            return False
    return True


@njit(cache=True)
def search(nb, colour, end, taken, path, base, frame, cand, ncand, idx, scratch, info, rank, order, radius,
           budget, counters, ends, freel, fpos, zob, table, tbits, audit=False):
    """Resumable depth-first search for a completion.

    ``path[base]`` is the head of the query state; ``frame[0]`` holds the current
    depth (``-1`` = not started), ``frame[1]`` the free-cell count, ``frame[2]``
    the depth whose :func:`blocks` DFS ``scratch`` holds (-1: none), ``ends``
    the end each depth's checks settled on, ``freel[:frame[1]]`` the free cells
    (``fpos`` the index of each in ``freel``). ``cand``
    (shape (size + 1, k)) holds candidate cells per depth. Runs at most
    ``budget`` node expansions, then returns BUDGET with everything saved in
    the arrays; FOUND leaves the completion in ``path[base:frame[0] + 1]``.
    ``counters[0]`` counts expansions, ``counters[1]`` backtracks, ``counters[2]``
    the nodes that ran :func:`blocks` (the others skipped it), ``counters[3]``
    the skips a full check disagreed with (``audit`` only), ``counters[4]`` the
    nodes found dead in ``table``; ``radius`` > 0 adds :func:`pockets` at every node.

    Dead positions are remembered, exactly: ``frame[3:5]`` hold two 64-bit
    Zobrist hashes of the taken cells (``zob[0:2]`` per cell), a position's key
    adds ``zob[2:4]`` of its head, and ``tbits`` is the taken set as a bitset
    (64 cells a word). ``table`` (rows key 1, key 2, generation, head, then the
    bitset's words; a power-of-two number of columns) keeps the exhausted
    positions of generation ``frame[5]``: a position met again (the same taken
    cells and head, reached in another order) is dead at once. The keys only
    find the slot and reject most misses; a hit also compares the head and
    every word of the taken set, so a remembered verdict is never another
    position's. Whether a position is alive depends on nothing else within one
    question (its end, or a closed tour's first cell), so the caller may keep a
    generation over several searches of one question.
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
        _expand(nb, colour, end, taken, path, base, depth, free_count, freel, cand, ncand, idx, scratch, info, rank,
                order, radius, ends, frame, counters, audit)
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
            i = fpos[w]  # w leaves the free list: the last free cell takes its place
            last = freel[free_count]
            freel[i] = last
            fpos[last] = i
            frame[3] ^= zob[0, w]
            frame[4] ^= zob[1, w]
            tbits[w >> 6] ^= np.int64(1) << np.int64(w & 63)
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
            key1 = frame[3] ^ zob[2, w]
            key2 = frame[4] ^ zob[3, w]
            slot = key1 & (table.shape[1] - 1)
            if (table[0, slot] == key1 and table[1, slot] == key2 and table[2, slot] == frame[5]
                    and table[3, slot] == w and _same_set(table, slot, tbits)):
                counters[4] += 1
                ncand[depth] = 0
                idx[depth] = 0
                continue
            _expand(nb, colour, end, taken, path, base, depth, free_count, freel, cand, ncand, idx, scratch, info,
                    rank, order, radius, ends, frame, counters, audit)
        else:
            if depth == base:
                frame[0] = depth
                frame[1] = free_count
                return EXHAUSTED
            w = path[depth]
            key1 = frame[3] ^ zob[2, w]  # exhausted: remember it dead
            slot = key1 & (table.shape[1] - 1)
            table[0, slot] = key1
            table[1, slot] = frame[4] ^ zob[3, w]
            table[2, slot] = frame[5]
            table[3, slot] = w
            for j in range(tbits.shape[0]):
                table[4 + j, slot] = tbits[j]
            frame[3] ^= zob[0, w]
            frame[4] ^= zob[1, w]
            tbits[w >> 6] ^= np.int64(1) << np.int64(w & 63)
            taken[w] = 0
            freel[free_count] = w
            fpos[w] = free_count
            free_count += 1
            depth -= 1
            counters[1] += 1
            if depth < frame[2]:
                frame[2] = -1
