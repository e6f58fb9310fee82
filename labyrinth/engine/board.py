"""The labyrinth's square board of odd size n: the (1,0) leaper's move graph with fixed corners."""

from functools import lru_cache

import numpy as np

from labyrinth.core.graph import MoveGraph
from labyrinth.errors import BoardSizeError

__all__ = ["DELTAS", "MOVES", "Board"]

#: Move letters in the engine's canonical order; index ``d`` is a direction code.
MOVES = "UDLR"
#: Column and row change of each move: U = row - 1, D = row + 1, L = column - 1, R = column + 1.
DELTAS = ((0, -1), (0, 1), (-1, 0), (1, 0))
#: the most digits a board size may be written with (int() of a long text is slow; no board is that big)
_MAX_SIZE_DIGITS = 9


class Board(MoveGraph):
    """An n x n board, n odd and >= 3, with cells numbered row by row from 0.

    The labyrinth's move graph: the (1,0) leaper, moves named ``U``, ``D``, ``L``, ``R``.
    Cells are addressed either by index ``i = (y - 1) * n + (x - 1)`` or by
    1-based coordinates ``(x, y)``: x is the column, y the row, growing downward.
    The start is (1, 1) and the end corner (n, n).

    >>> b = Board(5)
    >>> b.start, b.end, b.xy(b.end)
    (0, 24, (5, 5))
    >>> [b.xy(c) for c in b.neighbours_of(b.start)]
    [(1, 2), (2, 1)]
    """

    __slots__ = ("n", "start", "end", "letters")

    def __new__(cls, n):
        return _board(_capped(_checked_size(n)))

    def __init__(self, n):
        pass  # built once per size by _build (Board(n) returns the cached board)

    @classmethod
    def _build(cls, n):
        self = object.__new__(cls)
        MoveGraph.__init__(self, n, n, DELTAS, tuple(MOVES))
        self.n = n
        self.start = 0
        self.end = n * n - 1
        self.letters = {int(dx + dy * n): m for m, (dx, dy) in zip(MOVES, DELTAS)}
        return self

    def __reduce__(self):
        return (Board, (self.n,))

    def __repr__(self):
        return f"Board({self.n})"

    def step(self, cell, move):
        """The cell reached from ``cell`` by ``move`` (a letter or code), or -1 off the board."""
        if isinstance(move, str):
            targets = self.targets.get(move)
            if targets is None:
                raise ValueError(f"{move!r} is not a move (expected U, D, L or R)")
            return targets[cell]
        return int(self.neighbours[cell, move])

    def move_between(self, a, b):
        """The letter of the move from cell ``a`` to the adjacent cell ``b``; None if not adjacent."""
        letter = self.letters.get(b - a)
        return letter if letter is not None and self.targets[letter][a] == b else None


def _checked_size(n):
    """``n`` as an int, odd and >= 3; text must be ASCII digits (int() would also read "+7", "1_1", "٧")."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        text = str(n).strip()
        if not (text.isascii() and text.isdigit()):
            raise BoardSizeError("board size must be an odd integer >= 3 (the digits 0-9)", token=text[:24])
        if len(text) > _MAX_SIZE_DIGITS:
            raise BoardSizeError(f"board size is too large (at most {_MAX_SIZE_DIGITS} digits)", token=text[:24])
        n = text
    n = int(n)
    if n < 3 or n % 2 == 0:
        raise BoardSizeError(f"board size must be an odd integer >= 3, got {n}", token=str(n))
    return n


#: The largest board any part of the tool builds (a million cells).
MAX_N = 1001


def _capped(n):
    if n > MAX_N:
        raise BoardSizeError(f"board size {n} is beyond the largest board this tool handles ({MAX_N}x{MAX_N})",
                             token=str(n))
    return n


@lru_cache(maxsize=None)
def _board(n):
    return Board._build(n)
