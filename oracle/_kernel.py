"""Numba kernels for the depth-first completion search: pruning and a resumable search loop.

Pruning (each rule is a necessary condition for a head-to-end Hamiltonian path
on the graph G of the free cells plus the head):

* every free cell other than the end has two usable neighbours (free or head),
  the end at least one; a free cell whose only other neighbour is the head
  forces the next move (two such cells: dead) — the study's "C-shape";
* G is connected, the head is not a cut vertex of G, and every cut vertex
  splits G into exactly two parts, the head's and the end's (so the
  block-cut tree is a path from the head's block to the end's block);
* colour balance per segment: between consecutive cut vertices a and b the
  path is a Hamiltonian path of that segment, so its checkerboard colour sum
  is (col(a) + col(b)) / 2 (the study's black/white count, applied per block).

Cut vertices come from one iterative Tarjan depth-first search (Tarjan 1972,
"Depth-first search and linear graph algorithms"), rooted at the head: every
cut vertex must then be an ancestor of the end, so segment colour sums are
differences of subtree sums.
"""

import numpy as np
from numba import njit

DEAD = -2
OPEN = -1

FOUND = 1
EXHAUSTED = 0
BUDGET = 2


@njit(cache=True)
def check(nb, colour, end, taken, head, free_count, scratch):
    """Return DEAD, OPEN, or the direction (0-3) of a forced move from ``head``.

    ``scratch`` is an int32 array of shape (8, size) reused between calls.
    """
    size = taken.shape[0]
    forced = OPEN
    # --- degrees and forced moves -------------------------------------------------
    for c in range(size):
        if taken[c]:
            continue
        cnt = 0
        by_head = -1
        for d in range(4):
            m = nb[c, d]
            if m < 0:
                continue
            if not taken[m]:
                cnt += 1
            elif m == head:
                cnt += 1
                by_head = d
        if c == end:
            if cnt < 1:
                return DEAD
            continue
        if cnt < 2:
            return DEAD
        if cnt == 2 and by_head >= 0:
            # the move from head to c is the opposite of d
            hd = by_head ^ 1
            if forced != OPEN and forced != hd:
                return DEAD
            forced = hd
    if not blocks(nb, colour, end, taken, head, free_count, -1, scratch):
        return DEAD
    return forced


@njit(cache=True)
def blocks(nb, colour, end, taken, head, free_count, removed, scratch):
    """Cut-vertex conditions on G (``removed`` < 0) or on G minus the cell ``removed``.

    On G: connected, the head no cut vertex, every cut vertex separating the
    end's side from the head's, colour balance per segment. On G - a (a = removed),
    assuming G passed: a cut vertex p (the head included) that cuts off a pocket C
    holding neither head nor end means C hangs between p and a only, so the
    path crosses it once, p -> C -> a or back: at most one such pocket per p,
    and colour(C) = -(col(p) + col(a)) / 2.
    """
    size = taken.shape[0]
    disc = scratch[0]
    low = scratch[1]
    parent = scratch[2]
    sub = scratch[3]
    hasend = scratch[4]
    sep = scratch[5]
    stk = scratch[6]
    nextd = scratch[7]  # next direction to try, per vertex on the DFS stack
    for c in range(size):
        disc[c] = -1
        sep[c] = -1
    pocket = removed >= 0
    if pocket:
        disc[removed] = -2  # never entered
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
    while sp >= 0:
        v = stk[sp]
        if nextd[v] < 4:
            d = nextd[v]
            nextd[v] += 1
            w = nb[v, d]
            if w < 0 or (taken[w] and w != head) or disc[w] == -2:
                continue
            if disc[w] < 0:
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
            elif w != parent[v]:
                if disc[w] < low[v]:
                    low[v] = disc[w]
        else:
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
                            return False
                        sep[p] = v
                        if 2 * sub[v] != -(colour[p] + colour[removed]):
                            return False
                elif p != head and low[v] >= disc[p]:
                    # p separates v's subtree from the head's side
                    if not hasend[v] or sep[p] >= 0:
                        return False
                    sep[p] = v
    if pocket:
        return True
    if t != free_count + 1:
        return False  # not connected
    if root_children > 1:
        return False  # the head is a cut vertex
    # --- colour balance per segment along the chain of cut vertices ----------------
    # Walk from the end up to the head. lower_cut is the nearest cut vertex (or the end)
    # below, lower_sum the colour sum of its separated subtree (0 for the end).
    lower_cut = end
    lower_sum = 0
    v = parent[end]
    while v >= 0:
        if v == head:
            if 2 * (sub[head] - lower_sum) != colour[head] + colour[lower_cut]:
                return False
            break
        if sep[v] >= 0:
            if 2 * (colour[v] + sub[sep[v]] - lower_sum) != colour[v] + colour[lower_cut]:
                return False
            lower_cut = v
            lower_sum = sub[sep[v]]
        v = parent[v]
    return True


@njit(cache=True)
def pockets(nb, colour, end, taken, head, free_count, radius, scratch):
    """Two-cell cut check around the head: :func:`blocks` on G - a for every free
    cell a (not the end) within Manhattan ``radius`` of the head; True if all pass.
    """
    n = 1
    while n * n < taken.shape[0]:
        n += 1
    hx = head % n
    hy = head // n
    for y in range(max(0, hy - radius), min(n, hy + radius + 1)):
        for x in range(max(0, hx - radius), min(n, hx + radius + 1)):
            if abs(x - hx) + abs(y - hy) > radius:
                continue
            a = y * n + x
            if taken[a] or a == end:
                continue
            if not blocks(nb, colour, end, taken, head, free_count, a, scratch):
                return False
    return True


@njit(cache=True)
def _expand(nb, colour, end, taken, path, depth, free_count, cand, ncand, idx, scratch, rank, radius):
    """Fill the candidate moves at ``depth``; 0 if pruned or none, else their number."""
    head = path[depth]
    idx[depth] = 0
    ncand[depth] = 0
    if head == end:
        return 0
    r = check(nb, colour, end, taken, head, free_count, scratch)
    if r == DEAD:
        return 0
    if radius > 0 and not pockets(nb, colour, end, taken, head, free_count, radius, scratch):
        return 0
    if r >= 0:
        cand[depth, 0] = r
        ncand[depth] = 1
        return 1
    k = 0
    keys = np.empty(4, dtype=np.int64)
    for d in range(4):
        w = nb[head, d]
        if w < 0 or taken[w]:
            continue
        if w == end and free_count > 1:
            continue
        onward = 0
        for e in range(4):
            x = nb[w, e]
            if x >= 0 and not taken[x]:
                onward += 1
        # Warnsdorff: fewest onward moves first; ties broken by the precomputed rank
        keys[k] = onward * 4096 + rank[w]
        cand[depth, k] = d
        k += 1
    # insertion sort of k <= 4 candidates by key
    for i in range(1, k):
        kk = keys[i]
        dd = cand[depth, i]
        j = i - 1
        while j >= 0 and keys[j] > kk:
            keys[j + 1] = keys[j]
            cand[depth, j + 1] = cand[depth, j]
            j -= 1
        keys[j + 1] = kk
        cand[depth, j + 1] = dd
    ncand[depth] = k
    return k


@njit(cache=True)
def search(nb, colour, end, taken, path, base, frame, cand, ncand, idx, scratch, rank, radius, budget, counters):
    """Resumable depth-first search for a completion.

    ``path[base]`` is the head of the query state; ``frame[0]`` holds the current
    depth (``-1`` = not started), ``frame[1]`` the free-cell count. Runs at most
    ``budget`` node expansions, then returns BUDGET with everything saved in the
    arrays; FOUND leaves the completion in ``path[base:frame[0] + 1]``.
    ``counters[0]`` counts expansions, ``counters[1]`` backtracks. ``radius`` > 0
    adds the two-cell cut check of :func:`pockets` at every node.
    """
    depth = frame[0]
    free_count = frame[1]
    if depth < 0:
        depth = base
        counters[0] += 1
        if free_count == 0:
            frame[0] = depth
            return FOUND if path[depth] == end else EXHAUSTED
        _expand(nb, colour, end, taken, path, depth, free_count, cand, ncand, idx, scratch, rank, radius)
    steps = 0
    while True:
        if steps >= budget:
            frame[0] = depth
            frame[1] = free_count
            return BUDGET
        if idx[depth] < ncand[depth]:
            d = cand[depth, idx[depth]]
            idx[depth] += 1
            w = nb[path[depth], d]
            depth += 1
            path[depth] = w
            taken[w] = 1
            free_count -= 1
            steps += 1
            counters[0] += 1
            if free_count == 0:
                if w == end:
                    frame[0] = depth
                    frame[1] = 0
                    return FOUND
                ncand[depth] = 0
                idx[depth] = 0
                continue
            _expand(nb, colour, end, taken, path, depth, free_count, cand, ncand, idx, scratch, rank, radius)
        else:
            if depth == base:
                frame[0] = depth
                frame[1] = free_count
                return EXHAUSTED
            taken[path[depth]] = 0
            free_count += 1
            depth -= 1
            counters[1] += 1
