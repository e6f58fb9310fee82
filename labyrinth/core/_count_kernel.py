"""Numba kernels of the path counter (any move graph of at most 64 cells): depth-first search, sound pruning, a tail memo.

A *search* counts the Hamiltonian paths of a move graph (at most 64 cells:
the taken cells are one 64-bit mask) that begin with a given prefix (the
head last) and end on a cell allowed by ``end_ok``. It runs in slices of a
bounded number of nodes (:func:`run`), its whole state in arrays
(:func:`start`), so the caller can stop at a deadline between slices.

Pruning, each step sound (a branch is cut only when no completion exists):

* *ends*: the path still to draw goes from the head through every free
  cell; each free cell but the last has two path neighbours among the free
  cells and the head, the last has one. A free cell with none kills the
  branch; a cell with one must be the end (two such, or one that may not
  end the path, kill it). Moving the head changes this only for the free
  neighbours of the cell just left, so it is checked incrementally, with
  ``deg`` (free neighbours per cell) kept up to date;
* *next or end*: a free neighbour of the head with one free neighbour of
  its own is entered from the head next, or ends the path; three kill the
  branch, two leave only those two moves;
* *forced edges* (:func:`~labyrinth.core._count_propagate._propagate`, from ``prop_min`` free cells up): the
  path still to draw is a path from the head to a virtual cell T joined to
  every cell that may end it; the head and T take one path edge, every free
  cell two. A cell with only as many candidate edges as it needs takes them
  all; a cell with all its edges forced loses its other candidates; repeat.
  Too few candidates, too many forced edges, a cycle of forced edges, or
  the forced piece from the head reaching T short of the last cell kill the
  branch. On 7x7 this cuts the nodes about threefold.

*Tail memo*: the number of completions of a state depends only on the taken
cells and the head (for a fixed ``end_ok``), so the counts of states with
``memo_lo`` to ``memo_hi`` free cells (every ``memo_step``-th number of free
cells from ``memo_hi`` down: a lookup costs a cache miss, and a state just
below one looked up is rarely met again) go to a lossy hash table (``keys``,
``heads``, ``vals``: a slot holds the last state stored there, checked
exactly on lookup); the same cells taken in another order are then
answered at once.

Counts are exact: the running total is two int64 words ``(hi, lo)`` in base
2**62, and a state kept in the memo has few free cells (its count is far
below 2**62).

:func:`~labyrinth.core._count_mirror.mirror_start` and
:func:`~labyrinth.core._count_mirror.mirror_run` count, the same way in slices,
the paths that an involution of the board maps onto themselves reversed
(for Burnside's lemma).
"""

import numpy as np
from numba import njit

from labyrinth.core._count_propagate import _ONE, _bit, _low, _propagate

__all__ = ["BASE", "R_HI", "R_LO", "R_LVL", "R_NODES", "new_table", "run", "start"]

#: the base of the two-word counts
BASE = np.int64(1 << 62)
#: registers of a search (``reg``): level, count (high, low words), nodes visited, free cells at the root
R_LVL, R_HI, R_LO, R_NODES, R_FREE = 0, 1, 2, 3, 4
#: bit registers (``bits``): taken cells, cells with at most two free neighbours, cells that may end, all cells
B_MASK, B_LOW, B_ENDABLE, B_FULL = 0, 1, 2, 3
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_ANSWERED = 1 << 20
#: a memo slot's second word: the head in the top 7 bits, the count below (an empty slot has head 127)
_HEAD_SHIFT = np.uint64(57)
_COUNT_MASK = np.uint64((1 << 57) - 1)
_NO_HEAD = np.uint64(127 << 57)


def new_table(log2_slots):
    """An empty memo table of ``2**log2_slots`` slots of two words: the taken cells, then the head and count."""
    table = np.zeros((1 << int(log2_slots), 2), dtype=np.uint64)
    table[:, 1] = _NO_HEAD
    return table


# --- the memo ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _slot(mask, head, slots):
    h = (mask ^ (np.uint64(head) << np.uint64(57)) ^ np.uint64(head)) * _GOLDEN
    return np.int64((h >> np.uint64(24)) & np.uint64(slots - 1))


# --- the search ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _take(nb, deg, c, low):
    for d in range(nb.shape[1]):
        u = nb[c, d]
        if u >= 0:
            deg[u] -= 1
            if deg[u] == 2:
                low |= _bit(u)
    return low


@njit(cache=True)
def _give(nb, deg, c, low):
    for d in range(nb.shape[1]):
        u = nb[c, d]
        if u >= 0:
            deg[u] += 1
            if deg[u] == 3:
                low &= ~_bit(u)
    return low


@njit(cache=True)
def _root_end(adj, deg, mask, full, head, free, endable):
    """The cell that must end the path (-1: none yet), or -2 when no completion exists (a full scan)."""
    endc = -1
    rest = full & ~mask
    x = rest
    while x:
        u = _low(x)
        x &= x - _ONE
        a = deg[u] + (1 if adj[u] & _bit(head) else 0)
        if a == 0:
            return -2
        if a == 1:
            if endc >= 0 or not endable & _bit(u):
                return -2
            endc = u
    if rest & endable == 0:
        return -2
    return endc


@njit(cache=True)
def start(nb, prefix, end_ok):
    """The state of a search of the paths that begin with ``prefix`` and end where ``end_ok``.

    Returns ``(adj, deg, reg, bits, path, endc, cand, ncand, pos, lo0, hi0)``; pass
    them to :func:`run`. A prefix that cannot be completed gets a search with
    nothing left to do (count 0); a prefix through every cell counts 1 if it may end there.
    """
    size = nb.shape[0]
    k = nb.shape[1]
    deg = np.zeros(size, dtype=np.int32)
    adj = np.zeros(size, dtype=np.uint64)
    for c in range(size):
        for d in range(k):
            if nb[c, d] >= 0:
                deg[c] += 1
                adj[c] |= _bit(nb[c, d])
    bits = np.zeros(4, dtype=np.uint64)
    bits[B_FULL] = ~np.uint64(0) if size == 64 else _bit(size) - _ONE
    low = np.uint64(0)
    for c in range(size):
        if deg[c] <= 2:
            low |= _bit(c)
        if end_ok[c]:
            bits[B_ENDABLE] |= _bit(c)
    mask = np.uint64(0)
    for i in range(prefix.shape[0]):
        low = _take(nb, deg, prefix[i], low)
        mask |= _bit(prefix[i])
    bits[B_MASK] = mask
    bits[B_LOW] = low
    free = size - prefix.shape[0]
    head = prefix[prefix.shape[0] - 1]
    depth = free + 1
    reg = np.zeros(5, dtype=np.int64)
    reg[R_FREE] = free
    path = np.zeros(depth, dtype=np.int64)
    endc = np.zeros(depth, dtype=np.int64)
    cand = np.zeros((depth, k), dtype=np.int64)
    ncand = np.zeros(depth, dtype=np.int64)
    pos = np.zeros(depth, dtype=np.int64)
    lo0 = np.zeros(depth, dtype=np.int64)
    hi0 = np.zeros(depth, dtype=np.int64)
    path[0] = head
    pos[0] = -1
    if free == 0:
        reg[R_LO] = 1 if end_ok[head] else 0
        reg[R_LVL] = -1
        reg[R_NODES] = 1
    else:
        endc[0] = _root_end(adj, deg, mask, bits[B_FULL], head, free, bits[B_ENDABLE])
        if endc[0] == -2:
            reg[R_LVL] = -1
            reg[R_NODES] = 1
    return adj, deg, reg, bits, path, endc, cand, ncand, pos, lo0, hi0


@njit(cache=True)
def run(nb, adj, deg, reg, bits, path, endc, cand, ncand, pos, lo0, hi0,
        table, memo_lo, memo_hi, memo_step, prop_min, stats, budget):
    """Go on with a search (see :func:`start`) for about ``budget`` nodes; True when it is finished.

    The count so far is ``reg[R_HI] * 2**62 + reg[R_LO]``, the nodes visited
    ``reg[R_NODES]``. ``stats[f]`` gathers, per number of free cells, the nodes
    entered, the memo hits and the nodes that had no completion.
    """
    k = nb.shape[1]
    slots = table.shape[0]
    free = reg[R_FREE]
    lvl = reg[R_LVL]
    hi = reg[R_HI]
    lo = reg[R_LO]
    nodes = reg[R_NODES]
    stop = nodes + budget
    mask = bits[B_MASK]
    low = bits[B_LOW]
    endable = bits[B_ENDABLE]
    full = bits[B_FULL]
    pcand = np.zeros(nb.shape[0], dtype=np.uint64)
    pforced = np.zeros(nb.shape[0], dtype=np.uint64)
    parent = np.zeros(nb.shape[0], dtype=np.int64)
    csize = np.zeros(nb.shape[0], dtype=np.int64)
    while lvl >= 0:
        h = path[lvl]
        f = free - lvl
        if pos[lvl] < 0:
            if nodes >= stop:
                break  # a node boundary: the state in the arrays is complete
            nodes += 1
            stats[f, 0] += 1
            pos[lvl] = 0
            ncand[lvl] = 0
            lo0[lvl] = lo
            hi0[lvl] = hi
            if f == 1:
                # the one free cell must be next to the head, and may end the path
                if adj[h] & ~mask & endable:
                    lo += 1
                    if lo >= BASE:
                        lo -= BASE
                        hi += 1
            else:
                if memo_lo <= f <= memo_hi and (memo_hi - f) % memo_step == 0:
                    s = _slot(mask, h, slots)
                    if table[s, 0] == mask and table[s, 1] >> _HEAD_SHIFT == np.uint64(h):
                        stats[f, 1] += 1
                        lo += np.int64(table[s, 1] & _COUNT_MASK)
                        if lo >= BASE:
                            lo -= BASE
                            hi += 1
                        pos[lvl] = _ANSWERED
                dead = False
                allowed = ~np.uint64(0)
                if pos[lvl] == 0 and f >= prop_min:
                    vmask = (full & ~mask) | _bit(h)
                    if _propagate(adj, vmask, h, endable, low | _bit(h), pcand, pforced, parent, csize):
                        allowed = pcand[h]
                    else:
                        dead = True
                if pos[lvl] == 0 and not dead:
                    # next or end: free neighbours of the head with at most one free neighbour
                    e = endc[lvl]
                    f1a = -1
                    f1b = -1
                    nf = 0
                    for d in range(k):
                        u = nb[h, d]
                        if u >= 0 and not mask & _bit(u) and deg[u] <= 1:
                            if deg[u] == 0:
                                dead = True  # entered from the head, it would end the path with cells left
                                break
                            nf += 1
                            if nf == 1:
                                f1a = u
                            elif nf == 2:
                                f1b = u
                            else:
                                dead = True
                                break
                    if not dead:
                        n = 0
                        if nf == 2:
                            # one is next, the other ends the path
                            if e >= 0 and e != f1a and e != f1b:
                                dead = True
                            else:
                                if (e < 0 or e == f1b) and endable & _bit(f1b) and f1a != e:
                                    cand[lvl, n] = f1a
                                    n += 1
                                if (e < 0 or e == f1a) and endable & _bit(f1a) and f1b != e:
                                    cand[lvl, n] = f1b
                                    n += 1
                        elif nf == 1 and e >= 0 and e != f1a:
                            cand[lvl, 0] = f1a  # it cannot be the end: it is next
                            n = 1
                        else:
                            for d in range(k):
                                u = nb[h, d]
                                if u >= 0 and u != e and allowed & ~mask & _bit(u):
                                    cand[lvl, n] = u
                                    n += 1
                        ncand[lvl] = n
        # the next child, or leave
        if pos[lvl] < ncand[lvl]:
            w = cand[lvl, pos[lvl]]
            pos[lvl] += 1
            low = _take(nb, deg, w, low)
            mask |= _bit(w)
            # the free neighbours of the cell just left lost the head: one link left makes an end, none kills
            e = endc[lvl]
            ok = True
            for d in range(k):
                u = nb[h, d]
                if u >= 0 and not mask & _bit(u):
                    a = deg[u]
                    if adj[u] & _bit(w):
                        a += 1
                    if a == 0:
                        ok = False
                        break
                    if a == 1:
                        if not endable & _bit(u) or (e >= 0 and e != u):
                            ok = False
                            break
                        e = u
            if ok:
                lvl += 1
                path[lvl] = w
                endc[lvl] = e
                pos[lvl] = -1
            else:
                low = _give(nb, deg, w, low)
                mask &= ~_bit(w)
            continue
        # leave the node: store its count if memoised
        if lo == lo0[lvl] and hi == hi0[lvl]:
            stats[f, 2] += 1
        if memo_lo <= f <= memo_hi and (memo_hi - f) % memo_step == 0 and f > 1 and pos[lvl] < _ANSWERED:
            below = (hi - hi0[lvl]) * BASE + (lo - lo0[lvl])
            if below <= np.int64(_COUNT_MASK):
                s = _slot(mask, h, slots)
                table[s, 0] = mask
                table[s, 1] = (np.uint64(h) << _HEAD_SHIFT) | np.uint64(below)
        if lvl == 0:
            lvl = -1
            break
        low = _give(nb, deg, h, low)
        mask &= ~_bit(h)
        lvl -= 1
    reg[R_LVL] = lvl
    reg[R_HI] = hi
    reg[R_LO] = lo
    reg[R_NODES] = nodes
    bits[B_MASK] = mask
    bits[B_LOW] = low
    return lvl < 0
