"""numba kernels for toggle squares, all in one file so that numba's per-file cache never goes stale.

Boards are bit-packed: row ``i`` of an ``n x n`` board is ``words(n)`` uint64 words, cell
``(i, j)`` (0-based) is bit ``j % 64`` of word ``j // 64``; bits past ``n`` stay zero. Small
boards used in exhaustive loops are single integers with cell ``(i, j)`` at bit ``i * n + j``.
"""

import numpy as np
from numba import njit

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)

# the steps of the note's algorithms (algorithms.py names them)
ONE_WAY, TWO_WAY, THREE_K_PLUS_ONE = 0, 1, 2
# how a row is cleared: the left iteration only; then a right iteration scanned right to left (the text of
# Theorem 4) or left to right (its proof); the 3k+1 scheme adds the edge press between the two
LEFT, LEFT_RIGHT_TEXT, LEFT_RIGHT_PROOF, LEFT_EDGE_RIGHT = 0, 1, 2, 3
# passes, recorded with each press
DOWN, BOTTOM, UP = 0, 1, 2


@njit(cache=True, inline="always")
def popcount(x):
    """Set bits of a uint64 (SWAR)."""
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit(cache=True)
def last_mask(n):
    """The valid bits of a row's last word."""
    r = n % 64
    return ~_ZERO if r == 0 else (_ONE << np.uint64(r)) - _ONE


@njit(cache=True)
def apply_presses(x, n):
    """``A X A`` over GF(2): the board toggled by pressing every cell set in ``X``."""
    w = x.shape[1]
    col = np.empty_like(x)
    for i in range(n):
        for k in range(w):
            v = x[i, k]
            if i > 0:
                v ^= x[i - 1, k]
            if i + 1 < n:
                v ^= x[i + 1, k]
            col[i, k] = v
    out = np.empty_like(x)
    top = np.uint64(63)
    for i in range(n):
        for k in range(w):
            v = col[i, k]
            left = v << _ONE  # cell j receives cell j - 1
            if k > 0:
                left |= col[i, k - 1] >> top
            right = v >> _ONE  # cell j receives cell j + 1
            if k + 1 < w:
                right |= col[i, k + 1] << top
            out[i, k] = v ^ left ^ right
        out[i, w - 1] &= last_mask(n)
    return out


@njit(cache=True)
def chase_rows(b, n):
    """Solve ``A Z = B`` row by row with ``Z``'s first row zero; return ``Z`` and the last equation's residual row.

    Row ``i + 1`` of ``Z`` is forced: ``Z[i+1] = B[i] ^ Z[i] ^ Z[i-1]`` (whole packed rows), so this is
    Gaussian elimination of the tridiagonal ``A`` done once for all ``n`` right-hand sides at a time.
    """
    w = b.shape[1]
    z = np.zeros_like(b)
    for i in range(n - 1):
        for k in range(w):
            v = b[i, k] ^ z[i, k]
            if i > 0:
                v ^= z[i - 1, k]
            z[i + 1, k] = v
    r = np.empty(w, dtype=np.uint64)
    for k in range(w):
        v = b[n - 1, k] ^ z[n - 1, k]
        if n > 1:
            v ^= z[n - 2, k]
        r[k] = v
    return z, r


@njit(cache=True)
def chase_columns(z, n):
    """Solve ``X A = Z`` along each row (``n`` cells), bit by bit, with ``X``'s first column zero.

    Returns ``X`` and the residual of each row's last equation.
    """
    rows = z.shape[0]
    x = np.zeros_like(z)
    res = np.zeros(rows, dtype=np.uint8)
    for i in range(rows):
        xm1 = _ZERO  # x[j - 1]
        x0 = _ZERO  # x[j]
        for j in range(n - 1):
            zj = (z[i, j >> 6] >> np.uint64(j & 63)) & _ONE
            x1 = zj ^ x0 ^ xm1
            if x1:
                x[i, (j + 1) >> 6] |= _ONE << np.uint64((j + 1) & 63)
            xm1 = x0
            x0 = x1
        zl = (z[i, (n - 1) >> 6] >> np.uint64((n - 1) & 63)) & _ONE
        res[i] = np.uint8(zl ^ x0 ^ xm1)
    return x, res


# ---------------------------------------------------------------- minimum presses: the switching core


@njit(cache=True)
def core_minimum_range(rows, m, best, best_a, start, stop):
    """Fewest ones of ``Y ^ a 1^T ^ 1 b^T`` over the column flips ``a = t << 1``, ``start <= t < stop``.

    ``rows``: the ``m`` rows of ``Y`` as ``m``-bit integers. For a fixed ``a`` each row is flipped
    or not on its own (cost ``min(w, m - w)``), so the minimum is over the ``2^(m-1)`` choices of
    ``a`` with bit 0 clear (``a`` and its complement give the same matrices). ``best`` and
    ``best_a`` are the incumbent (a flip already known to cost ``best``); a choice replaces it only
    when strictly cheaper, and a choice is dropped as soon as its partial cost reaches ``best``.
    Returns ``(best, best_a)``.
    """
    full = np.uint64((1 << m) - 1) if m < 64 else ~_ZERO
    for t in range(start, stop):
        a = np.uint64(t) << _ONE
        cost = 0
        for i in range(m):
            c = popcount((rows[i] ^ a) & full)
            cost += c if 2 * c <= m else m - c
            if cost >= best:
                break
        if cost < best:
            best = cost
            best_a = t << 1
    return best, best_a


@njit(cache=True)
def core_minimum(rows, m):
    """Fewest ones of ``Y ^ a 1^T ^ 1 b^T`` over every column flip ``a`` (bit 0 clear): ``(value, a)``."""
    return core_minimum_range(rows, m, m * m + 1, 0, 0, 1 << (m - 1))


@njit(cache=True)
def switching_cost_table(m):
    """``cost[x, a] = min(w, m - w)`` with ``w`` the ones of row ``x ^ a`` (rows and ``a`` with column 0 clear)."""
    size = 1 << (m - 1)
    cost = np.empty((size, size), dtype=np.int32)
    for x in range(size):
        for a in range(size):
            c = popcount(np.uint64(x ^ a))
            cost[x, a] = c if 2 * c <= m else m - c
    return cost


@njit(cache=True)
def switching_search(m, target, cost, limit):
    """Depth-first search for an ``m x m`` 0/1 matrix whose switching minimum is at least ``target``.

    Canonical form (every matrix is equivalent to one): column 0 zero (row flips), row 0 zero
    (column flips), rows nondecreasing and columns 1.. lexicographically nondecreasing (row and
    column permutations; double-lex). A row is an ``(m-1)``-bit integer, column 1 the top bit.
    A node is cut when ``min_a partial_a + (rows left) * floor(m/2) < target``.
    Returns ``(status, rows, nodes)``: status 1 found (rows hold it), 0 none exists, -1 node limit hit.
    """
    size = 1 << (m - 1)
    half = m // 2
    partial = np.zeros((m + 1, size), dtype=np.int32)
    for a in range(size):
        partial[1, a] = cost[0, a]
    rows = np.zeros(m, dtype=np.int64)
    nxt = np.zeros(m + 1, dtype=np.int64)
    ties = np.zeros(m + 1, dtype=np.int64)
    tmask = 0
    for p in range(1, m - 1):
        tmask |= 1 << p
    ties[1] = tmask
    if m == 1:
        return (1 if target <= 0 else 0), rows, 0
    d = 1
    nxt[1] = 0
    nodes = 0
    while d >= 1:
        if nxt[d] >= size:
            d -= 1
            continue
        x = nxt[d]
        nxt[d] = x + 1
        if x < rows[d - 1]:
            nxt[d] = rows[d - 1]
            continue
        if (x & ~(x << 1) & ties[d]) != 0:
            continue
        nodes += 1
        if limit > 0 and nodes > limit:
            return -1, rows, nodes
        lo = 1 << 30
        for a in range(size):
            v = partial[d, a] + cost[x, a]
            partial[d + 1, a] = v
            lo = min(lo, v)
        if lo + (m - d - 1) * half < target:
            continue
        rows[d] = x
        if d + 1 == m:
            return 1, rows, nodes
        ties[d + 1] = ties[d] & ~(x ^ (x << 1)) & tmask
        d += 1
        nxt[d] = x
    return 0, rows, nodes


# ---------------------------------------------------------------- the note's algorithms


@njit(cache=True)
def _toggle(board, r, c, d):
    n = board.shape[0]
    for rr in range(max(r - 1, 0), min(r + 2, n)):
        for cc in range(max(c - 1, 0), min(c + 2, n)):
            board[rr, cc] ^= d


@njit(cache=True)
def _press(board, pr, pc, tr, tc, d, phase, log, k):
    _toggle(board, pr, pc, d)
    if k < log.shape[0]:
        log[k, 0] = pr
        log[k, 1] = pc
        log[k, 2] = tr
        log[k, 3] = tc
        log[k, 4] = phase
    return k + 1


@njit(cache=True)
def _clear_row(board, r, pr, mode, phase, log, k):
    """One row cleared by presses in row ``pr``, scanning as ``mode`` says (see the module constants)."""
    n = board.shape[1]
    # the left iteration: cells right to left, for every filled cell press the cell diagonally left of it
    for c in range(n - 1, -1, -1):
        d = board[r, c]
        if d != 0 and c >= 1:
            k = _press(board, pr, c - 1, r, c, d, phase, log, k)
    if mode == LEFT:
        return k
    if mode == LEFT_EDGE_RIGHT:  # a single filled cell left at the edge: press the cell below (above) it
        d = board[r, 0]
        if d != 0:
            k = _press(board, pr, 0, r, 0, d, phase, log, k)
    if mode == LEFT_RIGHT_TEXT:  # "scan the cells in that row, from right to left ... bottom-right of it"
        for c in range(n - 1, -1, -1):
            d = board[r, c]
            if d != 0 and c + 1 < n:
                k = _press(board, pr, c + 1, r, c, d, phase, log, k)
    else:  # left to right: "pressing to the right of the leftmost filled square"
        for c in range(n):
            d = board[r, c]
            if d != 0 and c + 1 < n:
                k = _press(board, pr, c + 1, r, c, d, phase, log, k)
    return k


@njit(cache=True)
def run_algorithm(board, algorithm, reading, log):
    """Run one of the note's algorithms on ``board`` in place; return the number of presses.

    ``board``: 0/1 cells (uint8), or uint64 words holding 64 boards at once, one per bit (every
    decision is then taken per bit: the algorithms are linear over GF(2)). ``log`` receives
    ``(press row, press col, trigger row, trigger col, pass)`` while it has room.
    """
    n = board.shape[0]
    k = 0
    if algorithm == ONE_WAY:
        for r in range(n - 1):
            k = _clear_row(board, r, r + 1, LEFT, DOWN, log, k)
        return k
    mode = LEFT_EDGE_RIGHT
    if algorithm == TWO_WAY:
        mode = LEFT_RIGHT_TEXT if reading == 0 else LEFT_RIGHT_PROOF
    for r in range(n - 1):
        k = _clear_row(board, r, r + 1, mode, DOWN, log, k)
    if algorithm == THREE_K_PLUS_ONE:
        k = _clear_row(board, n - 1, n - 1, mode, BOTTOM, log, k)
    for r in range(n - 1, 0, -1):
        k = _clear_row(board, r, r - 1, mode, UP, log, k)
    return k


@njit(cache=True)
def _run_state(board, state, n, algorithm, reading, log):
    for i in range(n):
        for j in range(n):
            board[i, j] = (state >> (i * n + j)) & 1
    k = run_algorithm(board, algorithm, reading, log)
    for i in range(n):
        for j in range(n):
            if board[i, j] != 0:
                return -1
    return k


@njit(cache=True)
def run_every_state(n, algorithm, reading, first, count):
    """Run the algorithm on the states ``first .. first + count - 1`` (cell (i, j) = bit i*n+j).

    Returns the presses per state, ``-1`` where the board is not cleared at the end.
    """
    board = np.zeros((n, n), dtype=np.uint8)
    log = np.zeros((0, 5), dtype=np.int32)
    out = np.empty(count, dtype=np.int16)
    for s in range(count):
        out[s] = _run_state(board, first + s, n, algorithm, reading, log)
    return out


@njit(cache=True)
def run_states(n, algorithm, reading, states):
    """As :func:`run_every_state`, for the states listed (integers)."""
    board = np.zeros((n, n), dtype=np.uint8)
    log = np.zeros((0, 5), dtype=np.int32)
    out = np.empty(states.shape[0], dtype=np.int16)
    for s in range(states.shape[0]):
        out[s] = _run_state(board, states[s], n, algorithm, reading, log)
    return out


# ---------------------------------------------------------------- small boards as integers


@njit(cache=True)
def press_masks(n):
    """The state toggled by each press, as an integer per cell (bit ``i * n + j``)."""
    out = np.zeros(n * n, dtype=np.int64)
    for i in range(n):
        for j in range(n):
            m = 0
            for ii in range(max(i - 1, 0), min(i + 2, n)):
                for jj in range(max(j - 1, 0), min(j + 2, n)):
                    m |= 1 << (ii * n + jj)
            out[i * n + j] = m
    return out


@njit(cache=True)
def states_of(presses, masks):
    """The state of each press pattern (integers)."""
    out = np.empty(presses.shape[0], dtype=np.int64)
    for s in range(presses.shape[0]):
        p = presses[s]
        b = 0
        c = 0
        while p:
            if p & 1:
                b ^= masks[c]
            p >>= 1
            c += 1
        out[s] = b
    return out


@njit(cache=True)
def coset_minimum(presses, kernel):
    """Fewest presses in ``p ^ kernel`` for each pattern ``p`` (integers): brute force over the kernel."""
    out = np.empty(presses.shape[0], dtype=np.int16)
    for s in range(presses.shape[0]):
        best = 1 << 14
        for t in range(kernel.shape[0]):
            c = popcount(np.uint64(presses[s] ^ kernel[t]))
            best = min(best, c)
        out[s] = best
    return out


@njit(cache=True)
def gray_minimum(x0, basis):
    """Fewest set bits of ``x0 ^ (a combination of basis rows)``, over all ``2^d`` combinations (Gray code order).

    ``x0`` and each basis row are flat arrays of words. Returns ``(fewest, combination)`` where
    bit ``t`` of the combination says whether basis row ``t`` is in the best one.
    """
    d = basis.shape[0]
    w = x0.shape[0]
    cur = x0.copy()
    best = 0
    for k in range(w):
        best += popcount(cur[k])
    arg = 0
    for t in range(1, 1 << d):
        bit = 0
        while not (t >> bit) & 1:
            bit += 1
        c = 0
        for k in range(w):
            cur[k] ^= basis[bit, k]
            c += popcount(cur[k])
        if c < best:
            best = c
            arg = t ^ (t >> 1)
    return best, arg


# ---------------------------------------------------------------- the 2-D press matrix by banded elimination


@njit(cache=True)
def _lowest_bit(x):
    """Index of the lowest set bit of a nonzero uint64."""
    return popcount((x & (~x + _ONE)) - _ONE)


@njit(cache=True)
def band_rank(n, include):
    """Rank over GF(2) of the presses of an ``n x n`` board whose cells are flagged in ``include`` (row-major).

    Each press is built from the rule (the 3x3 block around the cell, clipped at the edges) as a
    vector of ``n^2`` cells and reduced against the pivots found so far, in row-major order:
    plain Gaussian elimination, no use of the Kronecker structure. A press of cell ``r`` has its
    cells in ``[r - n - 1, r + n + 1]``, and so has every pivot it is reduced by (they come from
    earlier cells), so each vector lives in a window of ``2n + 3`` bits and the work is
    ``O(n^4 / 64)``.
    """
    size = n * n
    width = (2 * n + 3 + 63) // 64 + 1  # words of a window, whatever its alignment
    basis = np.zeros((size, width), dtype=np.uint64)  # pivot column p: its vector, from word base[p]
    base = np.zeros(size, dtype=np.int64)
    has = np.zeros(size, dtype=np.bool_)
    cur = np.zeros(width, dtype=np.uint64)
    rank = 0
    for r in range(size):
        if not include[r]:
            continue
        i, j = r // n, r % n
        b0 = max(r - n - 1, 0) >> 6
        for k in range(width):
            cur[k] = _ZERO
        for ii in range(max(i - 1, 0), min(i + 2, n)):
            for jj in range(max(j - 1, 0), min(j + 2, n)):
                c = ii * n + jj
                cur[(c >> 6) - b0] |= _ONE << np.uint64(c & 63)
        k = 0
        while True:
            while k < width and cur[k] == _ZERO:
                k += 1
            if k == width:
                break  # reduced to zero: dependent on earlier presses
            p = ((b0 + k) << 6) + _lowest_bit(cur[k])
            if not has[p]:
                for t in range(width):
                    basis[p, t] = cur[t]
                base[p] = b0
                has[p] = True
                rank += 1
                break
            off = base[p] - b0  # <= 0: the pivot's window starts at or before this one
            for t in range(width):
                s = t + off
                if 0 <= s < width and s >= k:
                    cur[s] ^= basis[p, t]
    return rank
