"""The general search's cut-vertex pruning (one Tarjan DFS: block-cut tree, colour per segment, two-cell cuts).

:func:`blocks` asks that G (the free cells plus the head) is connected, that
the head is not a cut vertex and that the block-cut tree is a path from the
head's block, with colour balance per segment between consecutive cut
vertices; :func:`pockets` asks it of G minus each free cell near the head.
:func:`labyrinth.core.prune.check` runs :func:`blocks` after its degree and
forced-edge conditions (the overview of all of them is in
:mod:`labyrinth.core.prune`).

Cut vertices come from one iterative Tarjan depth-first search (Tarjan 1972,
"Depth-first search and linear graph algorithms"), rooted at the head.
"""

from numba import njit

__all__ = ["COLOUR", "HANGING", "HEAD_CUT", "PASS", "SPLIT", "blocks", "pockets"]

#: :func:`blocks` verdicts: the graph passes, or the first condition it fails.
PASS = 0
SPLIT = 1  # the free cells fall apart
HEAD_CUT = 2  # the head sits between two parts: it can enter only one
HANGING = 3  # a part hangs off a cut vertex with no way on (or two parts need the end)
COLOUR = 4  # a segment's colour sum does not fit its entry and exit


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
