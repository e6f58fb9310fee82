"""Numba kernel of the magic knight's tour search: depth-first, numbers in order, line sums pruned.

The search writes the numbers 1, 2, 3... along a knight's path (the head
holds the last one) and cuts a branch as soon as one of its *lines* cannot
reach its target, the pruning the puzzle's author used (docs/knight.md:
"after 49 moves in a row with 7 filled fields, the sum should be between 196
and 214"). A line is a set of cells with a number of *slots* still to fill
and a target sum (or none, a count only): when ``r`` slots are left and every
number still to come is above ``a`` (the number just written) and at most
``M``, the rest of the line lies between the sum of ``a+1 .. a+r`` and the sum
of ``M-r+1 .. M``.

Two modes, both on any rectangular board (``size`` cells, the half turn being
``c -> size-1-c``):

* *full*: the path of all ``size`` cells, open or closed; a line per row,
  column (and diagonal), target the magic sum;
* *half* (centrally symmetric tours): the path writes 1 .. size/2 and every
  cell's image under the half turn gets the number plus size/2 at the same
  time, so the whole tour is closed from the first half alone
  (docs/knight.md: a symmetric route is closed). A line is then a
  pair of rows (columns) ``{y, h-1-y}`` whose first-half numbers must sum to
  the target minus the images' share, and each single row a count of at most
  half its cells (:mod:`labyrinth.puzzles.knight._magic_search` derives both).

Pruning on the path, each step sound (a branch is cut only when no completion
exists): every free cell still needs two path neighbours among the free cells
and the ends of the pieces still to draw (the head, and in half mode the
image of the first cell, the image of the head and the first cell; in closed
full mode the first cell), except the one last cell of an open path, and the
cell the path must end next to keeps a free neighbour.

The search runs in slices of a bounded number of nodes (:func:`run`), its
whole state in arrays (:func:`start`), so the caller can stop at a deadline
between slices; solutions go to a buffer the caller drains.
"""

import numpy as np
from numba import njit

__all__ = ["R_BASE", "R_BUF", "R_DEPTH", "R_DONE", "R_FOUND", "R_NODES", "new_state", "run", "start"]

#: registers: cells on the path, the prefix length, nodes, solutions found, solutions in the buffer, finished
R_DEPTH, R_BASE, R_NODES, R_FOUND, R_BUF, R_DONE = 0, 1, 2, 3, 4, 5
_REGS = 6


def new_state(size, buffer):
    """Fresh arrays of one search: ``(path, nxt, taken, deg, reg, out)`` (the line sums are the caller's)."""
    return (np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.uint8),
            np.zeros(size, np.int64), np.zeros(_REGS, np.int64), np.zeros((buffer, size), np.int64))


@njit(cache=True)
def _take(c, num, half, nb, cell_lines, taken, deg, lsum, lcnt):
    taken[c] = 1
    for k in range(nb.shape[1]):
        o = nb[c, k]
        if o >= 0:
            deg[o] -= 1
    if half:
        c2 = nb.shape[0] - 1 - c
        taken[c2] = 1
        for k in range(nb.shape[1]):
            o = nb[c2, k]
            if o >= 0:
                deg[o] -= 1
    for j in range(cell_lines.shape[1]):
        ln = cell_lines[c, j]
        if ln < 0:
            break
        lsum[ln] += num
        lcnt[ln] += 1


@njit(cache=True)
def _free(c, num, half, nb, cell_lines, taken, deg, lsum, lcnt):
    taken[c] = 0
    for k in range(nb.shape[1]):
        o = nb[c, k]
        if o >= 0:
            deg[o] += 1
    if half:
        c2 = nb.shape[0] - 1 - c
        taken[c2] = 0
        for k in range(nb.shape[1]):
            o = nb[c2, k]
            if o >= 0:
                deg[o] += 1
    for j in range(cell_lines.shape[1]):
        ln = cell_lines[c, j]
        if ln < 0:
            break
        lsum[ln] -= num
        lcnt[ln] -= 1


@njit(cache=True)
def _lines_ok(a, top, lslots, ltarget, lsum, lcnt):
    """Every line can still reach its target with numbers above ``a`` and at most ``top``."""
    for ln in range(lslots.shape[0]):
        r = lslots[ln] - lcnt[ln]
        if r < 0:
            return False
        t = ltarget[ln]
        if t >= 0:
            need = t - lsum[ln]
            tri = r * (r - 1) // 2
            if need < r * (a + 1) + tri or need > r * top - tri:
                return False
    return True


@njit(cache=True)
def _path_ok(depth, length, half, closed, path, adj, taken, deg):
    """The free cells can still be covered (two path neighbours each, see the module's docstring)."""
    size = taken.shape[0]
    if depth >= length:
        return True
    h = path[depth - 1]
    first = path[0]
    weak = 0
    if half:
        t = size - 1 - first
        h2 = size - 1 - h
        if deg[t] < 1:
            return False
    elif closed and deg[first] < 1:
        return False
    for c in range(size):
        if taken[c]:
            continue
        av = deg[c] + adj[c, h]
        if half:
            av += adj[c, t] + adj[c, h2] + adj[c, first]
        elif closed:
            av += adj[c, first]
        if av < 2:
            if half or closed or av == 0:
                return False
            weak += 1
            if weak > 1:
                return False
    return True


@njit(cache=True)
def start(nb, adj, cell_lines, lslots, ltarget, half, closed, top, length, prefix,
          path, nxt, taken, deg, lsum, lcnt, reg):
    """Set up a search of the tours beginning with ``prefix`` (cells, one move apart); False if it has none."""
    size = nb.shape[0]
    for c in range(size):
        taken[c] = 0
        nxt[c] = 0
        d = 0
        for k in range(nb.shape[1]):
            if nb[c, k] >= 0:
                d += 1
        deg[c] = d
    lsum[:] = 0
    lcnt[:] = 0
    reg[:] = 0
    ok = True
    for i in range(prefix.shape[0]):
        c = prefix[i]
        if c < 0 or c >= size or taken[c] or (i > 0 and adj[prefix[i - 1], c] == 0) or i >= length:
            ok = False
            break
        _take(c, i + 1, half, nb, cell_lines, taken, deg, lsum, lcnt)
        path[i] = c
        reg[R_DEPTH] = i + 1
        if not (_lines_ok(i + 1, top, lslots, ltarget, lsum, lcnt)
                and _path_ok(i + 1, length, half, closed, path, adj, taken, deg)):
            ok = False
            break
    reg[R_BASE] = prefix.shape[0]
    if not ok:
        reg[R_DONE] = 1
    return ok


@njit(cache=True)
def _closes(depth, half, closed, path, adj):
    size = adj.shape[0]
    if half:
        return adj[path[depth - 1], size - 1 - path[0]] == 1
    if closed:
        return adj[path[depth - 1], path[0]] == 1
    return True


@njit(cache=True)
def run(nb, adj, cell_lines, lslots, ltarget, half, closed, top, length,
        path, nxt, taken, deg, lsum, lcnt, reg, out, budget):
    """Go on with a search of :func:`start` for about ``budget`` nodes; True when it is finished.

    Each tour found is written to ``out[reg[R_BUF]]`` as its cells in number
    order (in half mode the images follow the first half); the search stops
    early (False) when the buffer is full, for the caller to drain it.
    """
    size = nb.shape[0]
    if reg[R_DONE]:
        return True
    nodes = reg[R_NODES]
    stop = nodes + budget
    while True:
        depth = reg[R_DEPTH]
        if depth == length:
            if _closes(depth, half, closed, path, adj):
                row = reg[R_BUF]
                for i in range(length):
                    out[row, i] = path[i]
                    if half:
                        out[row, length + i] = size - 1 - path[i]
                reg[R_BUF] = row + 1
                reg[R_FOUND] += 1
            if depth - 1 < reg[R_BASE]:
                reg[R_DONE] = 1
                reg[R_NODES] = nodes
                return True
            _free(path[depth - 1], depth, half, nb, cell_lines, taken, deg, lsum, lcnt)
            reg[R_DEPTH] = depth - 1
            if reg[R_BUF] == out.shape[0]:
                reg[R_NODES] = nodes
                return False
            continue
        if nodes >= stop:
            reg[R_NODES] = nodes
            return False
        h = path[depth - 1]
        i = nxt[depth - 1]
        moved = False
        while i < nb.shape[1]:
            c = nb[h, i]
            i += 1
            if c < 0 or taken[c]:
                continue
            nodes += 1
            _take(c, depth + 1, half, nb, cell_lines, taken, deg, lsum, lcnt)
            path[depth] = c
            if (_lines_ok(depth + 1, top, lslots, ltarget, lsum, lcnt)
                    and _path_ok(depth + 1, length, half, closed, path, adj, taken, deg)):
                nxt[depth - 1] = i
                nxt[depth] = 0
                reg[R_DEPTH] = depth + 1
                moved = True
                break
            _free(c, depth + 1, half, nb, cell_lines, taken, deg, lsum, lcnt)
        if not moved:
            if depth <= reg[R_BASE]:
                reg[R_DONE] = 1
                reg[R_NODES] = nodes
                return True
            _free(h, depth, half, nb, cell_lines, taken, deg, lsum, lcnt)
            reg[R_DEPTH] = depth - 1
