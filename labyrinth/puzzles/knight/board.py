"""The knight's move graph and its two puzzles, ``knight`` (open tour) and ``knight-closed``."""

from functools import lru_cache

from labyrinth.core.graph import move_graph
from labyrinth.core.path import register_puzzle
from labyrinth.core.puzzle import CYCLE, Puzzle

__all__ = ["LEAPS", "knight_graph", "knight_puzzle"]

#: One cell one way, two the other.
LEAPS = ((1, 2),)


def knight_graph(n):
    """The knight's jumps on an n x n board, named by the nearest of 16 compass points.

    >>> knight_graph(8).names
    ('NNE', 'ENE', 'ESE', 'SSE', 'SSW', 'WSW', 'WNW', 'NNW')
    >>> knight_graph(8).bipartite
    True
    """
    return move_graph(n, LEAPS)


def knight_puzzle(n, closed=False):
    """The knight's tour on an n x n board: any start, any end (``closed``: the last cell a knight's move from the first)."""
    return _puzzle(knight_graph(n).n, bool(closed))


@lru_cache(maxsize=64)
def _puzzle(n, closed):
    return Puzzle("knight-closed" if closed else "knight", knight_graph(n), None, CYCLE if closed else None)


register_puzzle("knight", lambda n: knight_puzzle(n))
register_puzzle("knight-closed", lambda n: knight_puzzle(n, closed=True))
