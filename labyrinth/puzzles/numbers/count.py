"""All solutions of the number puzzle, counted exactly: :mod:`labyrinth.core.count` on the number puzzle's graph.

What is counted (directed paths per start cell, closed tours, classes under
symmetry and reversal) and how the work is cut (one prefix per symmetry orbit)
is written in :mod:`labyrinth.core.count`; this module fixes the leaps.

>>> r = count_solutions(5)
>>> r.paths, r.per_start[0], r.cycles, r.classes
(12400, 552, 48, 777)
"""

from labyrinth.core import count as _core
from labyrinth.core.count import MAX_CELLS, PathCount, Plan
from labyrinth.core.count_estimate import estimate as _estimate
from labyrinth.puzzles.numbers.board import LEAPS

__all__ = ["MAX_CELLS", "NumbersCount", "Plan", "count_solutions", "estimate", "plan"]

#: the counts of one board (:class:`labyrinth.core.count.PathCount`)
NumbersCount = PathCount


def count_solutions(n, **options):
    """Count the number puzzle's solutions on an n x n board exactly (options: :func:`~labyrinth.core.count.count_paths`)."""
    return _core.count_paths(n, LEAPS, **options)


def plan(n, **options):
    """The units of the count of an n x n board (see :class:`~labyrinth.core.count_plan.Plan`)."""
    return _core.plan(n, LEAPS, **options)


def estimate(n, **options):
    """Knuth's estimate of an n x n count's paths and time (:func:`~labyrinth.core.count_estimate.estimate`)."""
    return _estimate(n, LEAPS, **options)

