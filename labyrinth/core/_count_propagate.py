"""The path counter's forced-edge pruning on 64-bit cell masks, and the mask helpers it shares with the search.

A pruning rule of its own (see *forced edges* in :mod:`labyrinth.core._count_kernel`),
kept apart from the search loop and its memo that call it.
"""

import numpy as np
from numba import njit

__all__ = []

_ONE = np.uint64(1)


# --- bits -------------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _bit(c):
    return _ONE << np.uint64(c)


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def _low(x):
    """Index of the lowest set bit of a non-zero mask."""
    return _popcount((x & (~x + _ONE)) - _ONE)


# --- forced-edge propagation ----------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _find(parent, u):
    while parent[u] != u:
        parent[u] = parent[parent[u]]
        u = parent[u]
    return u


@njit(cache=True, inline="always")
def _touch(u, touched, adj, vmask, cand, forced, parent, csize):
    """Set up cell ``u`` (candidates: its neighbours among the cells left) the first time it is met."""
    b = _bit(u)
    if touched & b:
        return touched
    cand[u] = adj[u] & vmask
    forced[u] = np.uint64(0)
    parent[u] = u
    csize[u] = 1
    return touched | b


@njit(cache=True)
def _propagate(adj, vmask, head, endable, seeds, cand, forced, parent, csize):
    """Forced-edge propagation on the cells left (``vmask``: the free cells and the head); False: dead.

    Only cells with few candidates can be forced, so the work starts from
    ``seeds`` (the head and the cells with at most two free neighbours) and
    cells are set up when first met. On return ``cand[head]`` holds the moves left.
    """
    total = _popcount(vmask)
    hb = _bit(head)
    touched = np.uint64(0)
    touched = _touch(head, touched, adj, vmask, cand, forced, parent, csize)
    tc = vmask & endable & ~hb  # cells still joined to T
    tf = np.uint64(0)  # the cell whose edge to T is forced (the end)
    dirty = seeds & vmask
    tdirty = True
    while dirty or tdirty:
        if tdirty:
            tdirty = False
            c = _popcount(tc)
            fc = _popcount(tf)
            if c < 1 or fc > 1:
                return False
            if fc == 1 and c > 1:
                dirty |= tc & ~tf
                tc = tf
            elif c == 1 and fc == 0:
                tf = tc
                dirty |= tc
            continue
        u = _low(dirty)
        dirty &= dirty - _ONE
        touched = _touch(u, touched, adj, vmask, cand, forced, parent, csize)
        ub = _bit(u)
        in_tc = (tc & ub) != 0
        in_tf = (tf & ub) != 0
        want = 1 if u == head else 2
        c = _popcount(cand[u]) + (1 if in_tc else 0)
        fc = _popcount(forced[u]) + (1 if in_tf else 0)
        if c < want or fc > want:
            return False
        if fc == want and c > fc:
            y = cand[u] & ~forced[u]
            cand[u] = forced[u]
            while y:
                v = _low(y)
                y &= y - _ONE
                touched = _touch(v, touched, adj, vmask, cand, forced, parent, csize)
                cand[v] &= ~ub
                dirty |= _bit(v)
            if in_tc and not in_tf:
                tc &= ~ub
                tdirty = True
        elif c == want and fc < c:
            y = cand[u] & ~forced[u]
            while y:
                v = _low(y)
                y &= y - _ONE
                touched = _touch(v, touched, adj, vmask, cand, forced, parent, csize)
                ru = _find(parent, u)
                rv = _find(parent, v)
                if ru == rv:
                    return False  # a cycle of forced edges
                if csize[ru] < csize[rv]:
                    ru, rv = rv, ru
                parent[rv] = ru
                csize[ru] += csize[rv]
                forced[u] |= _bit(v)
                forced[v] |= ub
                dirty |= _bit(v)
            if in_tc and not in_tf:
                tf |= ub
                tdirty = True
    if tf:
        e = _low(tf)
        touched = _touch(e, touched, adj, vmask, cand, forced, parent, csize)
        r = _find(parent, head)
        if r == _find(parent, e) and csize[r] < total:
            return False  # the forced piece from the head reaches the end short of the last cell
    return True
