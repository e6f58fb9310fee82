"""Counting the paths an involution maps onto themselves reversed (Burnside's lemma): a search apart from the counter.

:func:`mirror_start` and :func:`mirror_run` count them the same way as
:mod:`labyrinth.core._count_kernel` counts all paths, in slices, but over
half paths, with a pruning of their own and no memo.
"""

import numpy as np
from numba import njit

__all__ = ["mirror_run", "mirror_start"]


# --- paths fixed by a symmetry composed with reversal -----------------------------------------------------------
@njit(cache=True)
def _mirror_take(nb, taken, deg, c, cc, sign):
    """Take (``sign`` -1) or give back (+1) cell ``c`` and its image ``cc``."""
    for x in (c, cc):
        taken[x] = 1 if sign < 0 else 0
        for d in range(nb.shape[1]):
            u = nb[x, d]
            if u >= 0:
                deg[u] += sign


@njit(cache=True)
def mirror_start(nb, perm, prefix):
    """The state of a search of the paths ``p`` with ``p[L - 1 - i] == perm[p[i]]`` whose first half begins with ``prefix``.

    ``perm`` must be an involution of the cells that maps moves to moves,
    fixing exactly ``L mod 2`` cells (else no path is fixed: the caller
    checks), and ``prefix`` a path through distinct pairs ``{c, perm[c]}``
    of at most ``L // 2`` cells, not through the fixed cell. Such a path is
    its first half ``q`` (one cell of each pair) followed by ``perm`` of ``q``
    reversed, with the fixed cell in the middle on an odd board: the search
    counts the halves. Returns ``(taken, deg, path, pos, reg)`` for :func:`mirror_run`
    (``reg``: level, count, nodes, the prefix's last level).
    """
    size = nb.shape[0]
    k = nb.shape[1]
    half = size // 2
    taken = np.zeros(size, dtype=np.uint8)
    deg = np.zeros(size, dtype=np.int64)
    for c in range(size):
        for d in range(k):
            if nb[c, d] >= 0:
                deg[c] += 1
    path = np.zeros(max(half, 1), dtype=np.int64)
    pos = np.zeros(max(half, 1), dtype=np.int64)
    m = prefix.shape[0]
    for i in range(m):
        path[i] = prefix[i]
        _mirror_take(nb, taken, deg, prefix[i], perm[prefix[i]], -1)
    reg = np.zeros(4, dtype=np.int64)
    reg[0] = m - 1
    reg[3] = m - 1
    return taken, deg, path, pos, reg


@njit(cache=True)
def mirror_run(nb, perm, taken, deg, path, pos, reg, budget):
    """Go on with a search of :func:`mirror_start` for about ``budget`` nodes; True when it is finished.

    The count so far is ``reg[1]``. Pruning (*ends*): the rest of the path
    runs from the head to its image through every free cell, so each free
    cell needs two links among the free cells and the two heads.
    """
    size = nb.shape[0]
    k = nb.shape[1]
    half = size // 2
    fixed = -1
    for c in range(size):
        if perm[c] == c:
            fixed = c
    lvl = reg[0]
    total = reg[1]
    nodes = reg[2]
    base = reg[3]
    stop = nodes + budget
    while lvl >= base:
        h = path[lvl]
        if pos[lvl] == 0:
            if nodes >= stop:
                break
            nodes += 1
            if lvl == half - 1:
                # the last cell of the half: it must join its image (or the fixed middle cell)
                target = perm[h] if fixed < 0 else fixed
                for d in range(k):
                    if nb[h, d] == target:
                        total += 1
                        break
                pos[lvl] = k
        if pos[lvl] < k:
            d = pos[lvl]
            pos[lvl] += 1
            w = nb[h, d]
            if w < 0 or taken[w] or w == fixed:
                continue
            gw = perm[w]
            _mirror_take(nb, taken, deg, w, gw, -1)
            # the free cells next to the old heads lost them: each needs two links to free cells or the new heads
            ok = True
            for c in (h, perm[h]):
                for dd in range(k):
                    u = nb[c, dd]
                    if u >= 0 and not taken[u]:
                        a = deg[u]
                        for d3 in range(k):
                            v = nb[u, d3]
                            if v == w or v == gw:
                                a += 1
                        if a < 2:
                            ok = False
            if ok:
                lvl += 1
                path[lvl] = w
                pos[lvl] = 0
            else:
                _mirror_take(nb, taken, deg, w, gw, 1)
            continue
        # leave this level
        if lvl > base:
            _mirror_take(nb, taken, deg, h, perm[h], 1)
        lvl -= 1
    reg[0] = lvl
    reg[1] = total
    reg[2] = nodes
    return lvl < base
