"""The clearing algorithms of the toggle-squares note (docs/toggle.md), exactly as the note describes them.

* ``one-way`` (Theorem 3, claimed for the solvable states of ``3k+2`` boards): "Scan every row
  from top to bottom. For every row, scan every cell from right to left, and for every filled
  cell, click the cell to the bottom-left of it." A filled cell in the first column has no
  bottom-left cell and stays; the last row has no row below and is never scanned.
* ``two-way`` (Theorem 4, claimed for ``3k`` boards): every row top to bottom is cleared by the
  row below it: right to left, press bottom-left of each filled cell ("the left iteration");
  "Then scan the cells in that row, from right to left and for every filled cell click the cell
  to the bottom-right of it." Then the same from the bottom row up, pressing top-left and
  top-right. The text scans the second iteration right to left; the proof of Theorem 4 pushes
  a lone cell rightwards ("by pressing to the right of the filled squares one eventually gets to
  a 000...011 state"), which only works scanning left to right. Both readings run:
  ``reading="text"`` (the default: the algorithm as written) and ``reading="proof"``.
* ``three-k-plus-one`` (Theorem 5, claimed for ``3k+1`` boards): as two-way, but "if at the end
  of the left iteration, there is a single filled cell, one has to press on its lower or upper
  cell", the right iteration presses "to the right of the leftmost filled square" (left to
  right), and after the downward scan the bottom row is cleared "by pressing cells of the bottom
  row" (which moves it to the row above) before the upward scan.

Every decision "press if this cell is filled" is a GF(2)-linear function of the starting board,
so the boards an algorithm clears form a linear subspace; :func:`cleared_dimension` measures it
exactly by running the algorithm on 64 basis boards at once (one per bit of a word).

>>> from labyrinth.puzzles.toggle.board import parse_board
>>> r = run(parse_board("100\\n000\\n000\\n"), "two-way", reading="proof")
>>> r.cleared, [p[:2] for p in r.press_positions()]
(True, [(2, 2), (2, 3), (3, 2), (3, 3)])
>>> run(parse_board("100\\n000\\n000\\n"), "two-way").cleared
False
"""

import dataclasses

import numpy as np

from labyrinth.errors import LabyrinthError
from labyrinth.puzzles.toggle import _kernels as K
from labyrinth.puzzles.toggle import gf2
from labyrinth.puzzles.toggle.board import Board

__all__ = [
    "ALGORITHMS",
    "PASSES",
    "READINGS",
    "Run",
    "algorithm_code",
    "claim",
    "cleared_dimension",
    "run",
]

#: the algorithms by name, in the note's order
ALGORITHMS = ("one-way", "two-way", "three-k-plus-one")
#: how two-way's second iteration is scanned: as its text says (right to left), or as its proof needs
READINGS = ("text", "proof")
#: the pass each press belongs to
PASSES = ("down", "bottom row", "up")
_CODES = {"one-way": K.ONE_WAY, "two-way": K.TWO_WAY, "three-k-plus-one": K.THREE_K_PLUS_ONE}
_CLAIMS = {
    "one-way": (2, "Theorem 3: clears every solvable state of a 3k+2 board"),
    "two-way": (0, "Theorem 4: clears every state of a 3k board"),
    "three-k-plus-one": (1, "Theorem 5: clears every state of a 3k+1 board"),
}


def algorithm_code(name, reading="text"):
    """The kernel's codes for an algorithm and reading, or a one-line error."""
    if name not in _CODES:
        raise LabyrinthError(f"the algorithms are {', '.join(ALGORITHMS)}", token=str(name))
    if reading not in READINGS:
        raise LabyrinthError(f"a reading is {' or '.join(READINGS)}", token=str(reading))
    return _CODES[name], READINGS.index(reading)


def claim(name, n):
    """What the note claims the algorithm does on an ``n x n`` board, or ``None`` (no claim for that size)."""
    residue, text = _CLAIMS[name]
    return text if n % 3 == residue else None


@dataclasses.dataclass
class Run:
    """One run of an algorithm: its presses in order and the board it leaves.

    ``presses``: one row per press, ``(press row, press col, trigger row, trigger col, pass)``,
    0-based; the trigger is the filled cell the press answered.
    """

    algorithm: str
    reading: str
    state: Board
    presses: np.ndarray
    final: Board

    @property
    def cleared(self):
        """Whether the board ends with every cell off."""
        return self.final.count() == 0

    @property
    def clicks(self):
        """Presses made, a cell pressed twice counting twice."""
        return int(self.presses.shape[0])

    def net(self):
        """The cells pressed an odd number of times: the press pattern the run amounts to."""
        cells = np.zeros((self.state.n, self.state.n), dtype=np.uint8)
        for r, c in self.presses[:, :2]:
            cells[r, c] ^= 1
        return Board.from_cells(cells)

    def press_positions(self):
        """Each press as 1-based ``(row, col, trigger row, trigger col, pass name)``."""
        return [(int(p[0]) + 1, int(p[1]) + 1, int(p[2]) + 1, int(p[3]) + 1, PASSES[int(p[4])])
                for p in self.presses]

    def boards(self):
        """The board before the first press and after each press (a list of ``clicks + 1`` boards)."""
        cells = self.state.cells().copy()
        out = [Board.from_cells(cells)]
        n = self.state.n
        for r, c in self.presses[:, :2]:
            cells[max(r - 1, 0):min(r + 2, n), max(c - 1, 0):min(c + 2, n)] ^= 1
            out.append(Board.from_cells(cells))
        return out


def _capacity(n):
    """The most presses a run can make: one per decision (at most 2n + 1 per row, 2n row clears)."""
    return 2 * n * (2 * n + 1) + 8


def run(state, algorithm, *, reading="text"):
    """Run one of the note's algorithms on ``state`` (the goal is the note's: every cell off)."""
    code, rd = algorithm_code(algorithm, reading)
    cells = state.cells().copy()
    log = np.zeros((_capacity(state.n), 5), dtype=np.int32)
    k = K.run_algorithm(cells, code, rd, log)
    if k > log.shape[0]:
        raise AssertionError("press log overflow")  # a bug: the capacity bounds every decision
    return Run(algorithm, reading, state, log[:k].copy(), Board.from_cells(cells))


def domain_basis(algorithm, n):
    """A basis of the boards the note claims ``algorithm`` clears on ``n x n`` (every board if no claim).

    The solvable states of a ``3k+2`` board are spanned by the boards of the ``(n-1)^2`` presses of
    the top-left corner (independent: the note's dimension section).
    """
    if algorithm == "one-way" and n % 3 == 2:
        out = []
        for i in range(n - 1):
            for j in range(n - 1):
                x = np.zeros((n, n), dtype=np.uint8)
                x[i, j] = 1
                out.append(gf2.apply_cells(x))
        return out
    out = []
    for i in range(n):
        for j in range(n):
            x = np.zeros((n, n), dtype=np.uint8)
            x[i, j] = 1
            out.append(x)
    return out


def residuals(algorithm, basis, *, reading="text"):
    """The board each basis board is left as, 64 at a time: bit ``t`` of a word is basis board ``t``."""
    code, rd = algorithm_code(algorithm, reading)
    n = basis[0].shape[0]
    log = np.zeros((0, 5), dtype=np.int32)
    out = []
    for start in range(0, len(basis), 64):
        chunk = basis[start:start + 64]
        board = np.zeros((n, n), dtype=np.uint64)
        for t, b in enumerate(chunk):
            board |= b.astype(np.uint64) << np.uint64(t)
        K.run_algorithm(board, code, rd, log)
        for t in range(len(chunk)):
            out.append(((board >> np.uint64(t)) & np.uint64(1)).astype(np.uint8))
    return out


def cleared_dimension(algorithm, n, *, reading="text", space=None):
    """``(d, D)``: the algorithm clears a ``2^d``-board subspace of the ``2^D`` boards of ``space``.

    ``space``: ``"claim"`` (default: the boards the note claims it clears, or every board
    when it claims nothing for ``n``), ``"solvable"`` or ``"all"``. Exact, by linearity.
    """
    if space is None or space == "claim":
        basis = domain_basis(algorithm, n) if claim(algorithm, n) else domain_basis("two-way", n)
    elif space == "solvable":
        basis = domain_basis("one-way", n) if n % 3 == 2 else domain_basis("two-way", n)
    elif space == "all":
        basis = domain_basis("two-way", n)
    else:
        raise LabyrinthError("a space is claim, solvable or all", token=str(space))
    left = residuals(algorithm, basis, reading=reading)
    flat = np.stack([r.reshape(-1) for r in left])
    rank = gf2.dense_rank(flat) if flat.any() else 0
    return len(basis) - rank, len(basis)
