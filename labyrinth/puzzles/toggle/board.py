"""Toggle-squares boards: n x n grids of 0/1 cells, read from rows of 0/1, goals, and random solvable states.

A board holds either a state (1 = the cell is on, "filled" in the toggle-squares note, docs/toggle.md) or a
press pattern (1 = press that cell). Any ``n >= 1`` is a board size; the size policy below
refuses, in one line and before any work, boards that would exhaust memory.

>>> b = parse_board("010\\n111\\n010\\n")
>>> b.n, b.count(), b.positions()[:2]
(3, 5, [(1, 2), (2, 1)])
>>> print(b.text(), end="")
010
111
010
"""

import os
import stat
import sys

import numpy as np

from labyrinth.errors import FormatError, LabyrinthError, ToggleSizeError
from labyrinth.puzzles.toggle import gf2

__all__ = [
    "GOALS",
    "LARGE_SIZE_LIMIT",
    "SIZE_LIMIT",
    "Board",
    "Line",
    "check_size",
    "goal_board",
    "parse_board",
    "random_solvable",
    "read_board",
]

#: boards up to this size are accepted as they are (a 16384 x 16384 board is 32 MiB packed)
SIZE_LIMIT = 16384
#: and up to this one with ``allow_large`` (512 MiB per packed board; a solve holds about six)
LARGE_SIZE_LIMIT = 65536
#: the goals a board can be solved to: every cell off (the note's goal) or every cell on
GOALS = ("off", "on")


def check_size(n, *, allow_large=False, limit=SIZE_LIMIT, large_limit=LARGE_SIZE_LIMIT, what="a toggle board",
               source=None):
    """``n`` as an int if it is a board size (an integer >= 1 within the size policy), else a one-line error.

    ``source`` names where the size came from (``-n``, a file) in the message.
    """
    if isinstance(n, str):
        text = n.strip()
        if not text.lstrip("+").isdigit():
            raise ToggleSizeError(f"{what} size is a whole number >= 1", source=source, token=n)
        n = int(text)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ToggleSizeError(f"{what} size is a whole number >= 1", source=source, token=str(n))
    n = int(n)
    if n < 1:
        raise ToggleSizeError(f"{what} size is a whole number >= 1", source=source, token=str(n))
    if n > large_limit or (n > limit and not allow_large):
        hint = f"; up to {large_limit} with --allow-large" if n <= large_limit and large_limit > limit else ""
        raise ToggleSizeError(f"{what} is at most {limit}x{limit}{hint} (memory: n^2/8 bytes per board, "
                              "several boards per solve)", source=source, token=str(n))
    return n


class Board:
    """An ``n x n`` grid of 0/1 cells, bit-packed: ``words[i]`` holds row ``i``, cell ``j`` at bit ``j % 64`` of word ``j // 64``.

    Rows and columns are 0-based inside the library and 1-based (``positions``) for people.
    """

    __slots__ = ("n", "words")

    def __init__(self, words, n):
        self.n = int(n)
        self.words = np.ascontiguousarray(words, dtype=np.uint64)
        if self.words.shape != (self.n, gf2.words(self.n)):
            raise ValueError(f"packed rows of shape {self.words.shape} for n = {n}")

    @classmethod
    def from_cells(cls, cells):
        """A board from a square 0/1 array (anything numpy turns into one)."""
        cells = np.asarray(cells, dtype=np.uint8)
        if cells.ndim != 2 or cells.shape[0] != cells.shape[1] or cells.shape[0] < 1:
            raise ValueError(f"a board is a square 0/1 array, not shape {cells.shape}")
        if (cells > 1).any():
            raise ValueError("a board's cells are 0 or 1")
        return cls(gf2.pack(cells), cells.shape[0])

    @classmethod
    def zeros(cls, n):
        """The board with every cell off (no presses)."""
        return cls(np.zeros((n, gf2.words(n)), dtype=np.uint64), n)

    @classmethod
    def ones(cls, n):
        """The board with every cell on."""
        return cls(np.repeat(gf2.pack(np.ones((1, n), dtype=np.uint8)), n, axis=0), n)

    def cells(self):
        """The cells as an ``n x n`` uint8 array of 0/1."""
        return gf2.unpack(self.words, self.n)

    def count(self):
        """How many cells are 1 (cells on, or presses)."""
        return int(np.bitwise_count(self.words).sum())

    def positions(self):
        """The 1-based ``(row, column)`` of every cell set, in reading order."""
        rows, cols = np.nonzero(self.cells())
        return [(int(r) + 1, int(c) + 1) for r, c in zip(rows, cols)]

    def text(self):
        """Rows of 0/1, one per line (the input format)."""
        cells = self.cells()
        return "".join(row.tobytes().translate(_DIGITS).decode("ascii") + "\n" for row in cells)

    def copy(self):
        return Board(self.words.copy(), self.n)

    def __xor__(self, other):
        if self.n != other.n:
            raise ValueError("boards of different sizes")
        return Board(self.words ^ other.words, self.n)

    def __eq__(self, other):
        return isinstance(other, Board) and self.n == other.n and np.array_equal(self.words, other.words)

    __hash__ = None

    def __repr__(self):
        return f"Board(n={self.n}, on={self.count()})"


_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


class Line:
    """A 1-D board of ``n`` cells (the note's Lemmas 1-2, docs/toggle.md): a press toggles the cell and its two neighbours.

    Shares :class:`Board`'s reading methods, with positions ``(1, j)``, so that solutions print alike.
    """

    __slots__ = ("cells_1d", "n")

    def __init__(self, cells):
        self.cells_1d = np.ascontiguousarray(cells, dtype=np.uint8)
        if self.cells_1d.ndim != 1 or self.cells_1d.size < 1 or (self.cells_1d > 1).any():
            raise ValueError("a line is a non-empty 0/1 vector")
        self.n = int(self.cells_1d.size)

    def cells(self):
        """The cells as a ``1 x n`` uint8 array of 0/1."""
        return self.cells_1d[None, :].copy()

    def count(self):
        return int(self.cells_1d.sum())

    def positions(self):
        """The 1-based ``(1, column)`` of every cell set."""
        return [(1, int(j) + 1) for j in np.nonzero(self.cells_1d)[0]]

    def text(self):
        return self.cells_1d.tobytes().translate(_DIGITS).decode("ascii") + "\n"

    def __xor__(self, other):
        return Line(self.cells_1d ^ other.cells_1d)

    def __eq__(self, other):
        return isinstance(other, Line) and np.array_equal(self.cells_1d, other.cells_1d)

    __hash__ = None

    def __repr__(self):
        return f"Line(n={self.n}, on={self.count()})"


def goal_board(n, goal):
    """The board a solution must reach: every cell off (``"off"``) or on (``"on"``)."""
    if goal not in GOALS:
        raise LabyrinthError(f"the goal is one of {', '.join(GOALS)}", token=str(goal))
    return Board.zeros(n) if goal == "off" else Board.ones(n)


def parse_board(text, *, source="<text>", allow_large=False, allow_line=False):
    """Read a board from rows of ``0``/``1`` (spaces and tabs between cells are ignored, blank lines skipped).

    With ``allow_line``, a single row of ``n >= 2`` cells is a 1-D board (a :class:`Line`).
    Raises :class:`~labyrinth.errors.FormatError` naming the line and the symbol for anything
    else, ragged rows, a board that is not square or empty input, and
    :class:`~labyrinth.errors.ToggleSizeError` past the size policy.

    >>> parse_board("0110", allow_line=True)
    Line(n=4, on=2)
    """
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)
    lines = data.replace(b"\r", b"").split(b"\n")
    rows, numbers = [], []
    for number, line in enumerate(lines, 1):
        row = line.translate(None, b" \t")
        if row:
            rows.append(row)
            numbers.append(number)
    if not rows:
        raise FormatError("empty input: a board is rows of 0 (off) and 1 (on)", source=source)
    for row, number in zip(rows, numbers):
        if row.translate(None, b"01"):
            line = lines[number - 1].decode("utf-8", "replace")
            symbol = next(ch for ch in line if ch not in "01 \t\r")
            raise FormatError("a cell is 0 (off) or 1 (on)", source=f"{source}:{number}", token=symbol)
    width = len(rows[0])
    for row, number in zip(rows, numbers):
        if len(row) != width:
            raise FormatError(f"a row of {len(row)} cells after rows of {width}: every row must be as long",
                              source=f"{source}:{number}")
    check_size(width, allow_large=allow_large, source=source)
    if allow_line and len(rows) == 1 and width > 1:
        return Line(np.frombuffer(rows[0], dtype=np.uint8) - ord("0"))
    if len(rows) != width:
        line = " (or one row: a 1-D board)" if allow_line else ""
        raise FormatError(f"{len(rows)} row{'s' * (len(rows) != 1)} of {width} cell{'s' * (width != 1)}: "
                          f"a toggle board is square (n rows of n cells){line}", source=source)
    cells = np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(width, width) - ord("0")
    return Board(gf2.pack(cells), width)


def read_board(path, *, allow_large=False, allow_line=False):
    """Read a board from a file, or from standard input for ``-``; a one-line error for anything unreadable.

    ``allow_line``: a single row of cells is a 1-D board (see :func:`parse_board`).

    Only regular files are read (not devices, pipes by name or folders), and no more bytes than
    the size policy's largest board can take.
    """
    limit = LARGE_SIZE_LIMIT if allow_large else SIZE_LIMIT
    cap = limit * (2 * limit + 2) + 1024  # digits, spaces between them, line ends
    if path == "-":
        data = sys.stdin.buffer.read(cap + 1)
        if len(data) > cap:
            raise ToggleSizeError(f"more than {cap} bytes: larger than a {limit}x{limit} board", source="<stdin>")
        return parse_board(data, source="<stdin>", allow_large=allow_large, allow_line=allow_line)
    try:
        info = os.stat(path)
    except OSError as err:
        raise LabyrinthError(f"cannot read: {err.strerror or err}", source=path) from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise LabyrinthError(f"cannot read a board from it: {kind}", source=path)
    if info.st_size > cap:
        raise ToggleSizeError(f"{info.st_size} bytes: larger than a {limit}x{limit} board"
                              + ("" if allow_large else " (--allow-large raises the limit)"), source=path)
    try:
        with open(path, "rb") as f:
            data = f.read(cap + 1)
    except OSError as err:
        raise LabyrinthError(f"cannot read: {err.strerror or err}", source=path) from None
    return parse_board(data, source=path, allow_large=allow_large, allow_line=allow_line)


def random_solvable(n, seed, goal="off"):
    """A board drawn uniformly from the states that can be solved to ``goal``.

    The board toggled by a uniformly random press pattern, plus the goal: the press map is
    linear, so its image is hit uniformly (every state when ``n`` is not ``3k+2``).

    >>> b = random_solvable(5, seed=1)
    >>> from labyrinth.puzzles.toggle.solve import is_solvable
    >>> is_solvable(b)
    True
    """
    rng = np.random.default_rng(seed)
    w = gf2.words(n)
    x = rng.integers(0, np.iinfo(np.uint64).max, size=(n, w), dtype=np.uint64, endpoint=True)
    x[:, -1] &= np.uint64((1 << (n % 64)) - 1) if n % 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
    state = Board(gf2.apply_packed(x, n), n)
    return state ^ goal_board(n, goal) if goal != "off" else state
