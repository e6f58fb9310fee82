"""Every knight's tour of a small board, counted exactly: :mod:`labyrinth.core.count` on the knight's graph.

``paths`` are the directed open tours (OEIS A165134: 1 728 on 5x5, 6 637 920
on 6x6), ``cycles`` the undirected closed tours (OEIS A001230: 9 862 on
6x6; none on odd boards), ``per_start`` the open tours from each cell.

>>> r = count_tours(5)
>>> r.paths, r.cycles, r.per_start[0]
(1728, 0, 304)
"""

from labyrinth.core.count import PathCount, count_paths
from labyrinth.puzzles.knight.board import LEAPS

__all__ = ["PathCount", "count_tours"]


def count_tours(n, **options):
    """Count the knight's tours of the n x n board exactly (options: :func:`~labyrinth.core.count.count_paths`)."""
    return count_paths(n, LEAPS, **options)
