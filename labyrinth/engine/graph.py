"""Necessary conditions for a head-to-end Hamiltonian path on the free cells, in numba.

Shared by the oracle's search (as pruning) and by the walker's area rules
(the study's enclosed-area parity and black/white imbalance), so both reason
about the same graph G: the free cells plus the head.

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

__all__ = ["COLOUR", "CULPRIT", "DEAD", "DISC", "GraphTables", "HANGING", "HASEND", "HEAD_CUT", "LOW", "NEXTD",
           "OPEN", "PARENT", "PARITY", "PASS", "SCRATCH_ROWS", "SEP", "SPLIT", "STACK", "SUB", "blocks", "check",
           "descend", "pockets"]

DEAD = -2
OPEN = -1


#: rows of a scratch block: 0-8 the kernels here, 9-16 the walker's area bookkeeping
#: (:mod:`labyrinth.rules._chain`), 17-34 future lines (:mod:`labyrinth.rules._lines`), 35-42 2-matchings
#: (:mod:`labyrinth.rules._twomatch`), 43-50 re-routing (:mod:`labyrinth.rules._reroute`), 51-63 the walker's
#: witness (:mod:`labyrinth.rules._repair`), 64-73 the closure (:mod:`labyrinth.rules.closure`), 74-81 the exact
#: areas (:mod:`labyrinth.rules.exact_areas`); tests/test_strong.py checks that every rule's rows fit
SCRATCH_ROWS = 82
#: the rows of :func:`blocks` (its depth-first search: discovery time, low point, parent, subtree colour sum,
#: subtree holds the end, separated-by cut, stack, next direction, and the two cells bounding a failing area)
DISC, LOW, PARENT, SUB, HASEND, SEP, STACK, NEXTD, CULPRIT = range(9)


class GraphTables:
    """Read-only arrays of one board size for the graph kernels, cached per size.

    ``nb`` neighbours, ``colour`` checkerboard colours, ``rank`` (far from the
    end first: the search's tie-break), ``work`` one shared scratch block for
    single-threaded callers; :meth:`scratch` gives a fresh one (its rows:
    :data:`SCRATCH_ROWS`).
    """

    _cache = {}

    def __init__(self, board):
        n = board.n
        self.n = n
        self.end = board.end
        self.nb = np.ascontiguousarray(board.neighbours, dtype=np.int32)
        self.colour = np.ascontiguousarray(board.colour, dtype=np.int32)
        cells = np.arange(board.size, dtype=np.int64)
        dist = np.abs(cells % n - (n - 1)) + np.abs(cells // n - (n - 1))
        self.rank = (2 * n - dist).astype(np.int64)
        self.work = self.scratch()

    def scratch(self):
        """Fresh scratch space for the graph kernels (one per thread of work), zeros to begin with."""
        return np.zeros((SCRATCH_ROWS, self.n * self.n), dtype=np.int32)

    @classmethod
    def of(cls, board):
        """The tables of ``board``'s size (built once)."""
        t = cls._cache.get(board.n)
        if t is None:
            t = cls._cache[board.n] = cls(board)
        return t

#: :func:`blocks` verdicts: the graph passes, or the first condition it fails.
PASS = 0
SPLIT = 1  # the free cells fall apart
HEAD_CUT = 2  # the head sits between two areas: it can enter only one
HANGING = 3  # an area hangs off a cut cell with no way on to the end
PARITY = 4  # an area's cell count has the wrong parity for its entry and exit
COLOUR = 5  # parity fits, but one colour has too many cells for the entry and exit



@njit(cache=True)
def _imbalance(colour_sum, wanted):
    """PARITY when the cell count's parity is already wrong, else COLOUR."""
    return PARITY if (colour_sum - wanted) % 2 != 0 else COLOUR


@njit(cache=True)
def check(nb, colour, end, taken, head, free_count, scratch):
    """Return DEAD, OPEN, or the direction (0-3) of a forced move from ``head``.

    ``scratch`` is an int32 array of shape (9 or more, size) reused between calls.
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
    if blocks(nb, colour, end, taken, head, free_count, -1, scratch, scratch[CULPRIT]) != PASS:
        return DEAD
    return forced


@njit(cache=True)
def blocks(nb, colour, end, taken, head, free_count, removed, scratch, culprit):
    """Cut-vertex conditions on G (``removed`` < 0) or on G minus the cell ``removed``.

    On G: connected, the head no cut vertex, every cut vertex separating the
    end's side from the head's, colour balance per segment. On G - a (a = removed),
    assuming G passed: a cut vertex p (the head included) that cuts off a pocket C
    holding neither head nor end means C hangs between p and a only, so the
    path crosses it once, p -> C -> a or back: at most one such pocket per p,
    and colour(C) = -(col(p) + col(a)) / 2.

    Returns PASS (0) or the first failure: SPLIT, HEAD_CUT, HANGING, PARITY or
    COLOUR; for the last three ``culprit[0:2]`` receives the two cells that
    bound the failing area (a cut vertex and the next one towards the end, or
    the pocket's two gates).
    """
    size = taken.shape[0]
    disc = scratch[DISC]
    low = scratch[LOW]
    parent = scratch[PARENT]
    sub = scratch[SUB]
    hasend = scratch[HASEND]
    sep = scratch[SEP]
    stk = scratch[STACK]
    nextd = scratch[NEXTD]  # next direction to try, per vertex on the DFS stack
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
                        culprit[0] = p
                        culprit[1] = removed
                        if sep[p] >= 0:
                            return HANGING
                        sep[p] = v
                        if 2 * sub[v] != -(colour[p] + colour[removed]):
                            return _imbalance(sub[v], -(colour[p] + colour[removed]) // 2)
                elif p != head and low[v] >= disc[p]:
                    # p separates v's subtree from the head's side
                    if not hasend[v] or sep[p] >= 0:
                        culprit[0] = p
                        culprit[1] = v
                        return HANGING
                    sep[p] = v
    if pocket:
        return PASS
    if t != free_count + 1:
        return SPLIT
    if root_children > 1:
        return HEAD_CUT
    # --- colour balance per segment along the chain of cut vertices ----------------
    # Walk from the end up to the head. lower_cut is the nearest cut vertex (or the end)
    # below, lower_sum the colour sum of its separated subtree (0 for the end).
    lower_cut = end
    lower_sum = 0
    v = parent[end]
    while v >= 0:
        if v == head:
            if 2 * (sub[head] - lower_sum) != colour[head] + colour[lower_cut]:
                culprit[0] = head
                culprit[1] = lower_cut
                return _imbalance(sub[head] - lower_sum, (colour[head] + colour[lower_cut]) // 2)
            break
        if sep[v] >= 0:
            if 2 * (colour[v] + sub[sep[v]] - lower_sum) != colour[v] + colour[lower_cut]:
                culprit[0] = v
                culprit[1] = lower_cut
                return _imbalance(colour[v] + sub[sep[v]] - lower_sum, (colour[v] + colour[lower_cut]) // 2)
            lower_cut = v
            lower_sum = sub[sep[v]]
        v = parent[v]
    return PASS


@njit(cache=True)
def pockets(nb, colour, end, taken, head, free_count, radius, scratch):
    """Two-cell cut check around the head: :func:`blocks` on G - a for every free
    cell a (not the end) within Manhattan ``radius`` of the head: PASS, or the first failure.
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
            verdict = blocks(nb, colour, end, taken, head, free_count, a, scratch, scratch[CULPRIT])
            if verdict != PASS:
                return verdict
    return PASS


@njit(inline="always")
def descend(nb, cand, idx, path, taken, depth):
    """One step down a depth-first search: take the next candidate direction at ``depth``.

    Steps onto its cell, pushes it on ``path``, marks it ``taken`` and returns
    the new depth; every numba DFS here (walker enumeration, mining, the
    exhaustive audit, the oracle's search) descends this way.
    """
    d = cand[depth, idx[depth]]
    idx[depth] += 1
    w = nb[path[depth], d]
    path[depth + 1] = w
    taken[w] = 1
    return depth + 1
