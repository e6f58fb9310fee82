"""Exact linear algebra over GF(2) for toggle squares: bit-packed boards, the press matrices and their solve.

A press toggles the cell and its neighbours (the toggle-squares note, docs/toggle.md: in 1-D the cell and its two
neighbours, in 2-D the 3x3 block clipped at the edges). The 1-D press matrix ``A`` is the
``n x n`` tridiagonal matrix of ones; the 2-D press matrix is the Kronecker product ``A (x) A``,
so pressing the cells set in a 0/1 matrix ``X`` toggles ``A X A`` (``A`` is symmetric).

Solving ``A X A = B`` is two tridiagonal solves with ``n`` right-hand sides each: ``A Z = B``
row by row on packed rows (whole-row XORs), then ``X A = Z`` along each row. Each solve forces
every unknown from the first one ("light chasing", i.e. elimination of the tridiagonal ``A`` done
once) and fixes the first one from the last equation. When ``n = 3k+2`` that last equation has no
free part: ``A`` has rank ``n - 1`` with kernel ``v = 110110...11``, and the residual decides.

>>> import numpy as np
>>> b = np.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]], dtype=np.uint8)
>>> x, ok = solve_cells(b)
>>> ok, bool((apply_cells(x) == b).all())
(True, True)
"""

import numpy as np

from labyrinth.puzzles.toggle import _kernels as K

__all__ = [
    "apply_cells",
    "apply_packed",
    "dense_rank",
    "dense_solve",
    "kernel_vector",
    "line_matrix",
    "pack",
    "period_pattern",
    "press_matrix",
    "solve_cells",
    "solve_line",
    "solve_packed",
    "unpack",
    "words",
]


def words(n):
    """uint64 words per packed row of ``n`` cells."""
    return (n + 63) // 64


def pack(cells):
    """Bit-pack a 0/1 matrix (rows x columns) into uint64 words per row (cell ``j`` = bit ``j % 64`` of word ``j // 64``)."""
    cells = np.ascontiguousarray(cells, dtype=np.uint8)
    rows, cols = cells.shape
    w = words(cols)
    out = np.zeros((rows, w * 8), dtype=np.uint8)
    out[:, : (cols + 7) // 8] = np.packbits(cells, axis=1, bitorder="little")
    return out.view("<u8").astype(np.uint64, copy=False)


def unpack(packed, cols):
    """The 0/1 matrix (uint8) of a packed one with ``cols`` cells per row."""
    raw = np.ascontiguousarray(packed, dtype="<u8").view(np.uint8)
    return np.unpackbits(raw, axis=1, count=cols, bitorder="little")


def period_pattern(n, ones=(0, 1)):
    """The 0/1 vector of length ``n`` with ones at the indices ``i`` with ``i % 3`` in ``ones``.

    >>> period_pattern(5).tolist()
    [1, 1, 0, 1, 1]
    """
    return np.isin(np.arange(n) % 3, ones).astype(np.uint8)


def kernel_vector(n):
    """The kernel of the 1-D press matrix: ``v = 110110...11`` when ``n = 3k+2``, else ``None`` (``A`` invertible).

    >>> kernel_vector(5).tolist(), kernel_vector(6)
    ([1, 1, 0, 1, 1], None)
    """
    return period_pattern(n) if n % 3 == 2 else None


def line_matrix(n):
    """The 1-D press matrix ``A``: column ``j`` is what pressing cell ``j`` toggles (the note's Lemma 2, docs/toggle.md).

    >>> line_matrix(4).tolist()
    [[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1]]
    """
    a = np.zeros((n, n), dtype=np.uint8)
    idx = np.arange(n)
    a[idx, idx] = 1
    a[idx[1:], idx[:-1]] = 1
    a[idx[:-1], idx[1:]] = 1
    return a


def press_matrix(n):
    """The dense 2-D press matrix ``A (x) A`` (``n^2 x n^2``, cells in row-major order), built from the rule itself.

    Built cell by cell from "a press toggles the 3x3 block around it, clipped at the edges", not
    from the Kronecker product, so that tests can compare the two.
    """
    size = n * n
    m = np.zeros((size, size), dtype=np.uint8)
    for i in range(n):
        for j in range(n):
            for ii in range(max(i - 1, 0), min(i + 2, n)):
                for jj in range(max(j - 1, 0), min(j + 2, n)):
                    m[ii * n + jj, i * n + j] = 1
    return m


def apply_packed(x, n):
    """``A X A`` for a packed ``n x n`` press pattern: the board its presses toggle (packed)."""
    return K.apply_presses(np.ascontiguousarray(x, dtype=np.uint64), n)


def apply_cells(x):
    """``A X A`` for a 0/1 press matrix (uint8 in, uint8 out)."""
    n = x.shape[0]
    return unpack(apply_packed(pack(x), n), n)


def solve_packed(b, n):
    """One solution ``X`` of ``A X A = B`` (packed ``n x n``), or ``None`` when ``B`` is not solvable.

    Every ``B`` is solvable unless ``n = 3k+2``; then exactly the ``B`` with ``B v = 0`` and
    ``v^T B = 0`` are, and the solution returned is the one with zero first row of ``Z = X A`` and
    zero first column of ``X``.
    """
    b = np.ascontiguousarray(b, dtype=np.uint64)
    singular = n % 3 == 2
    z, r = K.chase_rows(b, n)
    hpat = period_pattern(n)  # the homogeneous chase: rows 1,1,0,1,1,0,...
    if r.any():
        if singular:
            return None
        z[hpat.astype(bool)] ^= r
    x, rcol = K.chase_columns(z, n)
    if rcol.any():
        if singular:
            return None
        x[rcol.astype(bool)] ^= pack(hpat[None, :])[0]
    return x


def solve_cells(b):
    """``(X, solvable)`` for a 0/1 board: a press matrix with ``A X A = B``, or ``(None, False)``."""
    n = b.shape[0]
    x = solve_packed(pack(b), n)
    return (None, False) if x is None else (unpack(x, n), True)


def solve_line(c):
    """``(x, solvable)`` for a 1-D board: presses with ``A x = c`` (one of two when ``n = 3k+2``), by light chasing.

    The 2-D column chase on a single row is exactly the 1-D solve.

    >>> solve_line(np.array([1, 0, 0], dtype=np.uint8))[0].tolist()
    [0, 1, 1]
    """
    c = np.asarray(c, dtype=np.uint8)
    n = c.shape[0]
    x, res = K.chase_columns(pack(c[None, :]), n)
    if res[0]:
        if n % 3 == 2:
            return None, False
        x[0] ^= pack(period_pattern(n)[None, :])[0]
    return unpack(x, n)[0], True


def _eliminate(rows, cols, rhs=None):
    """Reduce packed rows in place (Gauss-Jordan over GF(2)); return the pivot columns.

    ``rhs``: a 0/1 vector carried along (same row operations), or ``None``.
    """
    pivots = []
    r = 0
    nrows = rows.shape[0]
    for c in range(cols):
        if r == nrows:
            break
        word, bit = c >> 6, np.uint64(1) << np.uint64(c & 63)
        hits = np.nonzero(rows[r:, word] & bit)[0]
        if hits.size == 0:
            continue
        p = r + hits[0]
        if p != r:
            rows[[r, p]] = rows[[p, r]]
            if rhs is not None:
                rhs[[r, p]] = rhs[[p, r]]
        others = np.nonzero(rows[:, word] & bit)[0]
        others = others[others != r]
        rows[others] ^= rows[r]
        if rhs is not None:
            rhs[others] ^= rhs[r]
        pivots.append(c)
        r += 1
    return pivots


def dense_rank(matrix):
    """Rank over GF(2) of a dense 0/1 matrix, by plain elimination (no structure used).

    >>> dense_rank(line_matrix(5)), dense_rank(line_matrix(6))
    (4, 6)
    """
    m = np.asarray(matrix, dtype=np.uint8)
    return len(_eliminate(pack(m), m.shape[1]))


def dense_solve(matrix, b):
    """One solution of ``M y = b`` over GF(2) by plain Gauss-Jordan elimination, or ``None`` (free variables 0)."""
    m = np.asarray(matrix, dtype=np.uint8)
    rows = pack(m)
    rhs = np.asarray(b, dtype=np.uint8).copy()
    pivots = _eliminate(rows, m.shape[1], rhs)
    if rhs[len(pivots):].any():
        return None
    y = np.zeros(m.shape[1], dtype=np.uint8)
    y[pivots] = rhs[: len(pivots)]
    return y
