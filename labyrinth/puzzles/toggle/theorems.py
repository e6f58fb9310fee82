"""The claims of the toggle-squares note (docs/toggle.md) checked by computation for every board size up to a bound.

For each ``n``: the rank of the 1-D press matrix ``A`` by plain elimination, and the rank of the
2-D press matrix by plain elimination of the ``n^2`` presses built cell by cell from the press
rule (banded: ``_kernels.band_rank``), with no use of the Kronecker structure. The general proof
(``rank(A (x) A) = rank(A)^2`` over any field, README) is then checked against it as one more
claim. Each claim of the note (and four of ours, used by the solver) is checked for every
size it speaks about; see :data:`CLAIMS`.

>>> t = check_theorems(8, algorithms_max_n=5)
>>> [r.rank2 for r in t.rows]
[1, 1, 9, 16, 16, 36, 49, 49]
>>> sorted(c.key for c in t.claims if not c.holds)
['one-way-minimal', 'theorem-4']
"""

import dataclasses
import time

import numpy as np

from labyrinth.puzzles.toggle import _kernels as K
from labyrinth.puzzles.toggle import gf2
from labyrinth.puzzles.toggle.algorithms import algorithm_code, cleared_dimension
from labyrinth.puzzles.toggle.board import Board, goal_board, random_solvable
from labyrinth.puzzles.toggle.solve import all_minima, kernel_basis

__all__ = ["CLAIMS", "Claim", "SizeRow", "Theorems", "check_theorems", "form"]

#: key -> (source, statement)
CLAIMS = {
    "lemma-1": ("the note, Lemma 1",
                "a 1-D board is solvable for every state exactly when 100...0 can be formed by presses"),
    "lemma-2": ("the note, Lemma 2",
                "det A = 0 exactly when n = 3k+2, and det A(n) = det A(n-1) XOR det A(n-2) (1 0 1 1 0 1 ...)"),
    "lemma-2-presses": ("the note, Lemma 2",
                        ("100...0 is formed for 3k and 3k+1 by the presses of the proof; for 3k+2, 11...1 is "
                         "formed in two different ways")),
    "theorem-1": ("the note, Theorem 1",
                  "3k+2 boards are not solvable for every state (e.g. the corner cell alone)"),
    "theorem-2": ("the note, Theorem 2", "3k and 3k+1 boards are solvable for every state"),
    "dimension": ("the note, dimension section (conjecture)",
                  "the solvable states of a 3k+2 board form a space of dimension (3k+1)^2"),
    "corner": ("the note, dimension section",
               "the presses of an (n-1) x (n-1) corner are linearly independent"),
    "kronecker": ("ours (README)", ("rank(A (x) A) = rank(A)^2: the 2-D rank by elimination is the square of the "
                                    "1-D rank (the general proof of Theorems 1-2 and the dimension)")),
    "kernel": ("ours (README)", "when n = 3k+2, ker(A (x) A) = {v a^T + b v^T}, v = 110110...11: dimension 2n-1"),
    "criterion": ("ours (README)", ("when n = 3k+2, B is solvable exactly when every row and every column of B "
                                    "has an even number of cells on where v = 1")),
    "all-on": ("ours (README)", "the all-on state is solvable for every n (so is goal 'on' whenever goal 'off' is)"),
    "theorem-3": ("the note, Theorem 3", "the one-way algorithm clears every solvable state of a 3k+2 board"),
    "theorem-4": ("the note, Theorem 4",
                  "the two-way algorithm clears every state of a 3k board (reading: as written, right to left)"),
    "theorem-4-proof": ("the note, Theorem 4",
                        "the two-way algorithm clears every state of a 3k board (reading: as its proof, left to right)"),
    "theorem-5": ("the note, Theorem 5",
                  "the 3k+1 variant clears every state of a 3k+1 board"),
    "one-way-minimal": ("the note, closing remarks",
                        ("the one-way algorithm on 3k+2 boards needs the fewest presses (every solvable state, "
                         "boards up to 5x5)")),
}


def form(n):
    """``3k``, ``3k+1`` or ``3k+2``."""
    return ("3k", "3k+1", "3k+2")[n % 3]


@dataclasses.dataclass
class SizeRow:
    """One board size: the 1-D rank, the 2-D rank (both by plain elimination) and what follows from them."""

    n: int
    rank1: int
    rank2: int

    @property
    def form(self):
        return form(self.n)

    @property
    def det1(self):
        return int(self.rank1 == self.n)

    @property
    def nullity2(self):
        return self.n * self.n - self.rank2


@dataclasses.dataclass
class Claim:
    """A claim and the sizes it was checked on; ``failures`` lists the sizes where it does not hold."""

    key: str
    source: str
    statement: str
    sizes: list
    failures: list
    note: str = ""

    @property
    def holds(self):
        return not self.failures


@dataclasses.dataclass
class Theorems:
    max_n: int
    algorithms_max_n: int
    rows: list
    claims: list
    seconds: float


def _unit(n, i):
    e = np.zeros(n, dtype=np.uint8)
    e[i] = 1
    return e


def _formed(n, presses):
    """The 1-D board formed by pressing the listed cells (1-based), straight from the press rule."""
    out = np.zeros(n, dtype=np.uint8)
    for p in presses:
        out[max(p - 2, 0):min(p + 1, n)] ^= 1
    return out


def check_theorems(max_n, *, algorithms_max_n=40, independence_max_n=60, progress=None):
    """Check every claim for every ``n`` from 1 to ``max_n``; see the module docstring.

    Parameters
    ----------
    max_n : int
    algorithms_max_n : int
        Theorems 3-5 are checked up to this size, exactly, on a basis of the claimed states.
    independence_max_n : int
        Up to this size every one of the ``2n - 1`` kernel boards is pressed and they are shown
        independent by dense elimination; beyond, eight random members of the kernel are pressed
        (the ``2n - 1`` are independent by their shape: ``v_0 = 1``).
    progress : callable or None
        Called with 1 after each size.
    """
    t0 = time.perf_counter()
    sizes = list(range(1, max_n + 1))
    fails = {key: [] for key in CLAIMS}
    checked = {key: [] for key in CLAIMS}
    rows = []
    rng = np.random.default_rng(2024)
    for n in sizes:
        a = gf2.line_matrix(n)
        rank1 = gf2.dense_rank(a)
        rank2 = K.band_rank(n, np.ones(n * n, dtype=np.bool_))
        rows.append(SizeRow(n, rank1, rank2))
        singular = n % 3 == 2

        def note(key, ok, n=n):
            checked[key].append(n)
            if not ok:
                fails[key].append(n)

        # Lemma 1: full rank <=> 100...0 is formed (light chasing, the presses checked by the rule)
        x, ok = gf2.solve_line(_unit(n, 0))
        formed = ok and np.array_equal(_formed(n, list(np.nonzero(x)[0] + 1)), _unit(n, 0))
        note("lemma-1", (rank1 == n) == formed)
        # Lemma 2: the determinant pattern and its recurrence
        det = int(rank1 == n)
        ok2 = det == int(not singular)
        if n >= 3:
            ok2 = ok2 and det == rows[-2].det1 ^ rows[-3].det1
        note("lemma-2", ok2)
        k = n // 3
        if n % 3 == 0:
            presses = list(range(2, 3 * k, 3)) + list(range(3, 3 * k + 1, 3))
            note("lemma-2-presses", np.array_equal(_formed(n, presses), _unit(n, 0)))
        elif n % 3 == 1:
            presses = list(range(1, 3 * k + 2, 3)) + list(range(3, 3 * k + 1, 3))
            note("lemma-2-presses", np.array_equal(_formed(n, presses), _unit(n, 0)))
        else:
            first, second = list(range(1, 3 * k + 2, 3)), list(range(2, 3 * k + 3, 3))
            ones = np.ones(n, dtype=np.uint8)
            note("lemma-2-presses", first != second and np.array_equal(_formed(n, first), ones)
                 and np.array_equal(_formed(n, second), ones))
        # Theorems 1 and 2, the dimension conjecture
        if singular:
            corner_cell = np.zeros((n, n), dtype=np.uint8)
            corner_cell[0, 0] = 1
            note("theorem-1", rank2 < n * n and gf2.solve_cells(corner_cell)[1] is False)
            note("dimension", rank2 == (n - 1) ** 2)
        else:
            note("theorem-2", rank2 == n * n)
        note("kronecker", rank2 == rank1 * rank1)
        # the corner presses are independent (by elimination, as the whole press matrix)
        if n >= 2:
            corner_cells = np.zeros((n, n), dtype=np.bool_)
            corner_cells[: n - 1, : n - 1] = True
            note("corner", K.band_rank(n, corner_cells.reshape(-1)) == (n - 1) ** 2)
        # ours: the kernel, the solvability criterion, the all-on state
        if singular:
            nullity = n * n - rank2
            if n <= independence_max_n:  # each basis board is pressed to nothing, and they are independent
                basis = kernel_basis(n)
                in_kernel = all(not gf2.apply_packed(bb.words, n).any() for bb in basis)
                flat = np.stack([bb.cells().reshape(-1) for bb in basis])
                note("kernel", in_kernel and len(basis) == 2 * n - 1 == nullity == gf2.dense_rank(flat))
            else:  # random members v a^T + b v^T are pressed to nothing; the 2n - 1 are independent as v_0 = 1
                vv = gf2.kernel_vector(n)
                members = [np.outer(vv, rng.integers(0, 2, n, dtype=np.uint8))
                           ^ np.outer(rng.integers(0, 2, n, dtype=np.uint8), vv) for _ in range(8)]
                in_kernel = all(not gf2.apply_packed(gf2.pack(x), n).any() for x in members)
                note("kernel", in_kernel and nullity == 2 * n - 1)
            v = gf2.kernel_vector(n).astype(np.int64)
            agree = True
            for t in range(4):
                b = random_solvable(n, (2024, n, t)).cells() if t % 2 else rng.integers(0, 2, (n, n), dtype=np.uint8)
                criterion = not ((b @ v) % 2).any() and not ((v @ b) % 2).any()
                agree = agree and criterion == gf2.solve_cells(b)[1]
            note("criterion", agree)
        ones = goal_board(n, "on")
        x = gf2.solve_packed(ones.words, n)
        note("all-on", x is not None and Board(gf2.apply_packed(x, n), n) == ones)
        # Theorems 3-5, exactly (the algorithms are linear): run on a basis of the claimed states
        if n <= algorithms_max_n:
            if singular:
                d, dim = cleared_dimension("one-way", n)
                note("theorem-3", d == dim)
            elif n % 3 == 0:
                d, dim = cleared_dimension("two-way", n)
                note("theorem-4", d == dim)
                d, dim = cleared_dimension("two-way", n, reading="proof")
                note("theorem-4-proof", d == dim)
            else:
                d, dim = cleared_dimension("three-k-plus-one", n)
                note("theorem-5", d == dim)
        if singular and n <= 5:
            states, minima = all_minima(n)
            code, rd = algorithm_code("one-way")
            clicks = K.run_states(n, code, rd, states)
            note("one-way-minimal", bool((clicks == minima).all()))
        if progress:
            progress(1)
    claims = []
    for key, (source, statement) in CLAIMS.items():
        sizes_checked = checked[key]
        extra = ""
        if key in ("theorem-3", "theorem-4", "theorem-4-proof", "theorem-5"):
            extra = f"checked up to n = {min(max_n, algorithms_max_n)}"
        claims.append(Claim(key, source, statement, sizes_checked, fails[key], extra))
    return Theorems(max_n, algorithms_max_n, rows, claims, time.perf_counter() - t0)
