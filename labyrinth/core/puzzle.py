"""A puzzle: a move graph plus where the path must start and end.

The oracle's question is the same for every puzzle: can the free cells still be
covered by one path from the head, ending where the puzzle requires: on a
fixed cell, anywhere, or next to the first cell so that the path closes into a
cycle (a *closed tour*).
"""

import dataclasses

from labyrinth.core.graph import MoveGraph

__all__ = ["CYCLE", "FIXED", "FREE", "Puzzle"]

#: Where a path may start or end: on a given cell, anywhere, or (end only) back next to the start.
FIXED, FREE, CYCLE = "fixed", "free", "cycle"


@dataclasses.dataclass(frozen=True, eq=False)
class Puzzle:
    """A Hamiltonian path puzzle on a move graph.

    Attributes
    ----------
    name : str
        The puzzle's name in path notation (``numbers``, ``knight``...).
    graph : MoveGraph
    start : int or None
        The fixed first cell, or None when any cell may start.
    end : int, None or CYCLE
        The fixed last cell, None when the path may end anywhere, or :data:`CYCLE`
        when the last cell must be one move from the first (a closed tour).
    kernels : module or None
        The puzzle's own numba kernels, where it has faster ones than the
        core's general search (the labyrinth's 4-move grid:
        :mod:`labyrinth.engine.search`, with ``check``, ``pockets`` and
        ``search``); None runs the general kernels of :mod:`labyrinth.core`.
    """

    name: str
    graph: MoveGraph
    start: object = None
    end: object = None
    kernels: object = dataclasses.field(default=None, repr=False)

    @property
    def start_mode(self):
        return FREE if self.start is None else FIXED

    @property
    def end_mode(self):
        if self.end is None:
            return FREE
        return CYCLE if self.end == CYCLE else FIXED

    @property
    def n(self):
        return self.graph.n

    def __eq__(self, other):
        return (isinstance(other, Puzzle) and (self.name, self.graph, self.start, self.end)
                == (other.name, other.graph, other.start, other.end))

    def __hash__(self):
        return hash((self.name, id(self.graph), self.start, self.end))

    def __repr__(self):
        return f"Puzzle({self.name!r}, {self.graph!r}, start={self.start_mode}, end={self.end_mode})"
