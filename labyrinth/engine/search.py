"""The labyrinth's own numba kernel for the depth-first completion search: a resumable search loop.

The labyrinth's puzzle hands it to the oracle (``Puzzle.kernels``): the 4-move
grid runs here, every other move graph on the core's general kernel
(:mod:`labyrinth.core.search`). Its pruning is :mod:`labyrinth.engine.graph` (dead ends, forced moves, block
order, colour balance per block), shared with the walker's area rules.
"""

import numpy as np
from numba import njit

from labyrinth.core.search import sort_candidates
from labyrinth.engine.graph import DEAD, OPEN, check, descend, pockets

__all__ = ["BUDGET", "DEAD", "EXHAUSTED", "FOUND", "OPEN", "check", "pockets", "search"]

FOUND = 1
EXHAUSTED = 0
BUDGET = 2


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
    if radius > 0 and pockets(nb, colour, end, taken, head, free_count, radius, scratch) != 0:
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
    sort_candidates(keys, cand, depth, k)
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
            depth = descend(nb, cand, idx, path, taken, depth)
            w = path[depth]
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
