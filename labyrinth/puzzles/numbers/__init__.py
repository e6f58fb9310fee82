"""The number puzzle (docs/numbers.md): write 1..n*n on an n x n board, each number a jump from the last.

A jump is three cells straight (N, E, S, W) or two cells diagonally (NE, SE, SW, NW):
the (3,0) and (2,2) leapers. A solution is a Hamiltonian path of that move graph,
from any start; a *closed* solution also jumps from the last number back to 1.
"""

from labyrinth.puzzles.numbers.board import LEAPS, numbers_graph, numbers_puzzle

__all__ = ["LEAPS", "numbers_graph", "numbers_puzzle"]
