"""The labyrinth's board, states and path notations.

Glossary
--------
board
    The n x n grid, n odd and >= 3; cells are numbered row by row from 0 and
    addressed as 1-based ``(x, y)`` (x = column, y = row growing downward).
start, end
    The corners (1, 1) and (n, n): the line starts at one and must end at the other.
line, path
    The cells drawn so far, in order from the start.
head
    The last cell of the line, where the next move starts.
taken, free
    Cells on the line, and cells not yet on it.
move
    One of ``U``, ``D``, ``L``, ``R``; a move is *open* when it reaches a free cell.
completion, witness
    A path from the head through every free cell, ending at the end corner; an
    oracle's witness is one such completion, written as moves.
alive, dead, complete
    A state is alive if it has a completion, dead if it has none, complete if
    the line already covers the board and ends at the end corner.
feasible move
    An open move after which the state is still alive.
first dead step
    The smallest number of moves after which a line has no completion.
trace
    A research program file: a path plus the options that program allowed at each cell.
"""

from labyrinth.core.path import register_puzzle
from labyrinth.engine.board import DELTAS, MOVES, Board
from labyrinth.engine.formats import (
    RESEARCH_DIRECTIONS,
    Trace,
    format_compact,
    format_trace,
    load_state,
    load_trace,
    parse_compact,
    parse_state,
    parse_trace,
)
from labyrinth.engine.state import State, labyrinth_puzzle

# the labyrinth is a puzzle of the core: its path notation reads N:MOVES into a State
register_puzzle("labyrinth", labyrinth_puzzle, state=State, short=parse_compact)

__all__ = [
    "Board",
    "DELTAS",
    "MOVES",
    "RESEARCH_DIRECTIONS",
    "State",
    "Trace",
    "format_compact",
    "format_trace",
    "labyrinth_puzzle",
    "load_state",
    "load_trace",
    "parse_compact",
    "parse_state",
    "parse_trace",
]
