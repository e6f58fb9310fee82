"""Numba kernel of the path counter: frontier-based dynamic programming over grid cells.

The sweep counts the Hamiltonian paths between two *terminal* cells of a
grid graph with obstacles (every non-obstacle cell visited once). Cells are
processed in row-major order; between two cells the *frontier* is the line
that separates processed from unprocessed cells, crossed by ``width + 1``
edges ("plugs"): the down edges of the cells processed in the current row,
the edge from the last processed cell to the right, and the down edges of
the previous row still to be met. Each plug carries two bits:

* ``0``: no path edge crosses there;
* ``1`` / ``2``: the left / right end of a path piece whose two ends both
  cross the frontier (pieces cannot cross, so they nest like brackets);
* ``3``: the one crossing end of a piece whose other end is a terminal.

This is the "plug" (connectivity-state) dynamic programming in its
bracket encoding, after Knuth, TAOCP 7.1.4 (Simpath, frontier-based
enumeration) and Iwashita, Nakazawa, Kawahara, Uno and Minato, "Efficient
computation of the number of paths in a grid graph with minimal perfect
hash functions" (2013), here specialised to Hamiltonian paths: an ordinary
cell takes exactly two path edges, a terminal exactly one, an obstacle none.
The bracket encoding is canonical, so a packed frontier is a hash key.

Counts exceed 64 bits from 13 x 13 on: every count is held in ``limbs``
unsigned words of 62 bits (base 2**62), added with carries, and an addition
that carries out of the top word is reported (the caller retries with more
words), so the result is exact.
"""

import numpy as np
from numba import njit

__all__ = ["BITS", "EMPTY", "OBSTACLE", "ORDINARY", "TERMINAL", "advance", "start", "sweep"]

#: bits per limb of a count
BITS = 62
OBSTACLE = 0
ORDINARY = 1
TERMINAL = 2
#: the empty slot of the hash table (all 32 plugs set to 3: a frontier holds at most two 3s)
EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
_MASK = np.uint64((1 << BITS) - 1)
_SHIFT = np.uint64(BITS)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _plug(key, i):
    return np.int64((key >> np.uint64(2 * i)) & np.uint64(3))


@njit(cache=True)
def _set(key, i, v):
    s = np.uint64(2 * i)
    return (key & ~(np.uint64(3) << s)) | (np.uint64(v) << s)


@njit(cache=True)
def _match(key, i, nplugs):
    """The plug holding the bracket that pairs with the one at plug ``i`` (3s are skipped).

    A ``1`` opens: its ``2`` lies to the right; a ``2`` closes: its ``1`` lies to the left.
    """
    mine = _plug(key, i)
    other = 3 - mine
    step = 1 if mine == 1 else -1
    depth = 1
    j = i + step
    while 0 <= j < nplugs:
        p = _plug(key, j)
        if p == mine:
            depth += 1
        elif p == other:
            depth -= 1
            if depth == 0:
                return j
        j += step
    return -1


@njit(cache=True, inline="always")
def _slot(table, key):
    """The row of ``key`` in the open-addressing table, or of the empty row where it belongs."""
    mask = table.shape[0] - 1
    i = np.int64((((key + np.uint64(1)) * _GOLDEN) >> np.uint64(24)) & np.uint64(mask))
    while table[i, 0] != key and table[i, 0] != EMPTY:
        i = (i + 1) & mask
    return i


@njit(cache=True, inline="always")
def _add(dst, i, src, s, limbs):
    """``dst[i, 1:] += src[s, 1:]`` in base 2**62; True if the top limb overflows."""
    carry = np.uint64(0)
    for b in range(1, limbs + 1):
        v = dst[i, b] + src[s, b] + carry
        dst[i, b] = v & _MASK
        carry = v >> _SHIFT
    return carry != 0


@njit(cache=True)
def _grown(table, filled, used):
    """The table rehashed at twice its size, and its new list of occupied rows."""
    bigger = np.zeros((2 * table.shape[0], table.shape[1]), dtype=np.uint64)
    bigger[:, 0] = EMPTY
    moved = np.empty(bigger.shape[0], dtype=np.int64)
    for j in range(used):
        i = _slot(bigger, table[filled[j], 0])
        bigger[i, :] = table[filled[j], :]
        moved[j] = i
    return bigger, moved


@njit(cache=True)
def _capacity(m):
    """A power of two that holds ``m`` keys at a load of at most 0.7."""
    cap = 16
    while 10 * m > 7 * cap:
        cap *= 2
    return cap


@njit(cache=True, inline="always")
def _successors(key, c, k, down, right, nplugs, out):
    """Write the frontiers that follow ``key`` after cell ``c`` of kind ``k`` to ``out``; return their number.

    -1 means the line closed here (the caller checks that nothing is left open).
    """
    sd = np.uint64(2 * c)
    sr = np.uint64(2 * c + 2)
    left_p = _plug(key, c)
    up_p = _plug(key, c + 1)
    base = key & ~(np.uint64(15) << sd)
    if k == OBSTACLE:
        if left_p == 0 and up_p == 0:
            out[0] = key
            return 1
        return 0
    if left_p == 0 and up_p == 0:
        if k == ORDINARY:
            if down and right:
                out[0] = base | (np.uint64(1) << sd) | (np.uint64(2) << sr)
                return 1
            return 0
        n_out = 0
        if down:
            out[n_out] = base | (np.uint64(3) << sd)
            n_out += 1
        if right:
            out[n_out] = base | (np.uint64(3) << sr)
            n_out += 1
        return n_out
    if left_p == 0 or up_p == 0:
        x = left_p | up_p
        if k == ORDINARY:
            n_out = 0
            if down:
                out[n_out] = base | (np.uint64(x) << sd)
                n_out += 1
            if right:
                out[n_out] = base | (np.uint64(x) << sr)
                n_out += 1
            return n_out
        # a terminal ends the piece that reaches it
        if x == 3:
            out[0] = base
            return -1
        pos = c if left_p != 0 else c + 1
        far = _match(key, pos, nplugs)
        out[0] = _set(base, far, 3)
        return 1
    if k == TERMINAL:
        return 0
    if left_p == 1 and up_p == 1:
        out[0] = _set(base, _match(key, c + 1, nplugs), 1)
        return 1
    if left_p == 2 and up_p == 2:
        out[0] = _set(base, _match(key, c, nplugs), 2)
        return 1
    if left_p == 2 and up_p == 1:
        out[0] = base
        return 1
    if left_p == 3 and up_p == 3:
        out[0] = base
        return -1
    if left_p == 3 or up_p == 3:
        # a piece from a terminal meets a two-ended piece: the latter's far end now leads to the terminal
        pos = c + 1 if left_p == 3 else c
        far = _match(key, pos, nplugs)
        out[0] = _set(base, far, 3)
        return 1
    return 0  # left 1 and up 2: the two ends of one piece would close a cycle


@njit(cache=True)
def start(limbs):
    """The frontier before the first cell: one state, no plug set, counted once."""
    states = np.zeros((1, limbs + 1), dtype=np.uint64)
    states[0, 1] = 1
    return states


@njit(cache=True)
def advance(width, height, kind, states, first_row, stop_row):
    """Sweep rows ``first_row .. stop_row - 1`` from the frontier ``states`` met before ``first_row``.

    ``states`` holds rows of (frontier key, count in base-2**62 limbs).
    Returns ``(states, closed, overflow, peak)``: the frontier after
    ``stop_row - 1``; the count of finished paths (only the last non-obstacle
    cell can finish one); whether any count overflowed its limbs; and the
    largest number of frontier states held at once.
    """
    limbs = states.shape[1] - 1
    nplugs = width + 1
    last = -1
    for c in range(width * height):
        if kind[c] != OBSTACLE:
            last = c
    m = states.shape[0]
    states = states.copy()
    peak = m
    overflow = False
    closed = np.zeros((1, limbs + 1), dtype=np.uint64)
    # the states after the current cell go to a hash table of rows (frontier key, count)
    table = np.zeros((16, limbs + 1), dtype=np.uint64)
    table[:, 0] = EMPTY
    filled = np.empty(16, dtype=np.int64)  # the table's occupied rows, in the order they were filled
    out = np.empty(2, dtype=np.uint64)
    for r in range(first_row, stop_row):
        for c in range(width):
            here = r * width + c
            k = kind[here]
            down = r + 1 < height and kind[here + width] != OBSTACLE
            right = c + 1 < width and kind[here + 1] != OBSTACLE
            cap = _capacity(m + m // 4)  # about as many states follow as there were; grown when more do
            if cap > table.shape[0]:
                table = np.zeros((cap, limbs + 1), dtype=np.uint64)
                table[:, 0] = EMPTY
                filled = np.empty(cap, dtype=np.int64)
            used = 0
            for s in range(m):
                n_out = _successors(states[s, 0], c, k, down, right, nplugs, out)
                if n_out < 0:
                    if out[0] == 0 and here == last:
                        overflow |= _add(closed, 0, states, s, limbs)
                    continue
                if 10 * (used + 2) > 7 * table.shape[0]:
                    table, filled = _grown(table, filled, used)
                for o in range(n_out):
                    i = _slot(table, out[o])
                    if table[i, 0] == EMPTY:
                        table[i, 0] = out[o]
                        filled[used] = i
                        used += 1
                    overflow |= _add(table, i, states, s, limbs)
            # move the occupied rows out (emptying the table); after a row's last cell,
            # shift every plug one place on: the next row starts with an empty left plug
            if used > states.shape[0]:
                states = np.empty((2 * used, limbs + 1), dtype=np.uint64)
            shift = np.uint64(2) if c == width - 1 else np.uint64(0)
            for j in range(used):
                i = filled[j]
                states[j, 0] = table[i, 0] << shift
                table[i, 0] = EMPTY
                for b in range(1, limbs + 1):
                    states[j, b] = table[i, b]
                    table[i, b] = 0
            m = used
            peak = max(peak, m)
    return states[:m].copy(), closed[0, 1:].copy(), overflow, peak


@njit(cache=True)
def sweep(width, height, kind, limbs):
    """Count the Hamiltonian paths between the two terminals of a ``height`` x ``width`` grid.

    ``kind[cell]`` (row-major) is OBSTACLE, ORDINARY or TERMINAL; there must
    be exactly two terminals. Returns ``(count, overflow, peak)``: the count as
    ``limbs`` base-2**62 words (least significant first), whether it
    overflowed them (then the count is meaningless), and the largest number
    of frontier states held at once.
    """
    _, closed, overflow, peak = advance(width, height, kind, start(limbs), 0, height)
    return closed, overflow, peak
