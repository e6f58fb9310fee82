"""The number puzzle's move graph and its two puzzles, ``numbers`` (open) and ``numbers-closed``."""

from functools import lru_cache

from labyrinth.core.graph import move_graph
from labyrinth.core.path import register_puzzle
from labyrinth.core.puzzle import CYCLE, Puzzle

__all__ = ["LEAPS", "numbers_graph", "numbers_puzzle"]

#: Three cells straight, two cells diagonally.
LEAPS = ((3, 0), (2, 2))


def numbers_graph(n):
    """The jumps of the number puzzle on an n x n board.

    >>> numbers_graph(10).names
    ('N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW')
    """
    return move_graph(n, LEAPS)


def numbers_puzzle(n, closed=False):
    """The number puzzle on an n x n board: any start, any end (``closed``: back next to 1)."""
    return _puzzle(numbers_graph(n).n, bool(closed))


@lru_cache(maxsize=64)
def _puzzle(n, closed):
    return Puzzle("numbers-closed" if closed else "numbers", numbers_graph(n), None, CYCLE if closed else None)


register_puzzle("numbers", lambda n: numbers_puzzle(n))
register_puzzle("numbers-closed", lambda n: numbers_puzzle(n, closed=True))
