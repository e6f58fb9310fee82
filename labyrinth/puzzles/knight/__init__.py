"""The knight's tour and the magic knight's tour (docs/knight.md).

A knight jumps one cell one way and two the other: the (1,2) leaper. A tour is a
Hamiltonian path of that move graph; a *closed* tour also jumps from the last
cell back to the first. The graph is bipartite (a knight always changes colour),
so the oracle's colour-balance pruning applies.
"""

from labyrinth.puzzles.knight.board import LEAPS, knight_graph, knight_puzzle

__all__ = ["LEAPS", "knight_graph", "knight_puzzle"]
