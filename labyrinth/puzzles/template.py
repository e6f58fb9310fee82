"""TEMPLATE: a new path puzzle, to copy: the king's tour (a king visits every cell once), registered as ``template``.

``tests/test_templates.py`` keeps this module importable and checks that path notation reads it and the
oracle solves it. To add your own puzzle, follow docs/architecture.md ("Adding things"):

1. make a package ``labyrinth/puzzles/<name>/``: this file's code in its ``board.py``, its public names
   re-exported by its ``__init__.py`` (see :mod:`labyrinth.puzzles.knight`). Path notation finds it by name:
   a puzzle ``<name>`` or ``<name>-<variant>`` lives in ``labyrinth.puzzles.<name>``, imported on first use,
   and its numba kernels, if it has any, are cached with the rest (:mod:`labyrinth._jitcache` finds the package);
2. describe its moves as leaps (:func:`labyrinth.core.graph.move_graph`; ``(1, 2)`` is the knight) or build a
   :class:`~labyrinth.core.graph.MoveGraph` of your own, and say where a path starts and ends
   (:class:`~labyrinth.core.puzzle.Puzzle`: a fixed cell, anywhere, or :data:`~labyrinth.core.puzzle.CYCLE`);
3. register it: ``register_puzzle(name, factory)`` at import (one line per variant). The oracle
   (``oracle.solve.solve_puzzle``), walks and audits then work on it unchanged;
4. (optional) a command family: a ``labyrinth/cli/_<name>.py`` with a :class:`labyrinth.cli._puzzle.PuzzleSpec`
   (its size policy included) and ``register(sub)``, listed in ``labyrinth/cli/__init__.py``
   (see :mod:`labyrinth.cli._knight`).
"""

from functools import lru_cache

from labyrinth.core.graph import move_graph
from labyrinth.core.path import register_puzzle
from labyrinth.core.puzzle import CYCLE, Puzzle

__all__ = ["LEAPS", "king_puzzle"]

#: One cell straight or one cell diagonally: the king.
LEAPS = ((1, 0), (1, 1))


def king_puzzle(n, closed=False):
    """The king's tour on an n x n board: any start, any end (``closed``: back next to the first cell).

    >>> king_puzzle(4).graph.names
    ('N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW')
    """
    return _puzzle(int(n), bool(closed))


@lru_cache(maxsize=64)  # one puzzle per size: oracles keep their tables per move graph
def _puzzle(n, closed):
    return Puzzle("template-closed" if closed else "template", move_graph(n, LEAPS), None, CYCLE if closed else None)


register_puzzle("template", lambda n: king_puzzle(n))
register_puzzle("template-closed", lambda n: king_puzzle(n, closed=True))
