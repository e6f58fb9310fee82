"""The graph core every puzzle stands on: move graphs, puzzles and path states.

Glossary
--------
move graph
    The cells of a board and the jumps between them (:class:`MoveGraph`); a
    *leaper* ``(p, q)`` jumps p cells one way and q the other. The labyrinth is
    the (1,0) leaper, the knight (1,2), the number puzzle (3,0) plus (2,2).
puzzle
    A move graph plus where the path starts (a fixed cell, or anywhere) and
    ends (a fixed cell, anywhere, or back next to the start: a *cycle*, closed tour).
path, head, taken, free
    The cells drawn so far in order, the last of them, the cells on the path
    and the cells not yet on it.
completion, witness
    A path from the head through every free cell that ends where the puzzle
    requires; a witness is one, written as the moves after the head.
alive, dead
    A state with a completion, and one without.
bipartite
    A move graph whose cells 2-colour so every move changes colour (the knight's,
    the labyrinth's); only there does colour-balance pruning apply.
"""

from labyrinth.core.graph import (
    COMPASS,
    MoveGraph,
    compass_name,
    leaper_deltas,
    move_graph,
    random_image,
    start_orbits,
)
from labyrinth.core.path import PUZZLES, PathState, parse_path, register_puzzle
from labyrinth.core.puzzle import CYCLE, FIXED, FREE, Puzzle

__all__ = [
    "COMPASS",
    "CYCLE",
    "FIXED",
    "FREE",
    "MoveGraph",
    "PUZZLES",
    "PathState",
    "Puzzle",
    "compass_name",
    "leaper_deltas",
    "move_graph",
    "parse_path",
    "random_image",
    "register_puzzle",
    "start_orbits",
]
