"""The walker's frame; ``Tables`` (the per-board arrays every compiled rule reads) comes from the graph kernel.

Rules think relative to the last step: *straight* is the heading, *left* and
*right* are the study's left and right of the line's direction of travel
(keep-left order: left, straight, right). Absolute directions are the board's
``U, D, L, R`` = 0, 1, 2, 3; the heading at the start is down.

A pattern drawn on the page has the head moving up: page offset ``(px, py)``
(``px`` to the right, ``py`` down the page) lies at ``px * right + (-py) * straight``
on the board.

>>> left_of("D"), right_of("D"), page_to_board(0, -1, "R"), page_to_board(1, 0, "D")
('R', 'L', (1, 0), (-1, 0))
"""

import numpy as np

from labyrinth.engine._graph import GraphTables as Tables
from labyrinth.engine.board import MOVES

__all__ = ["Tables", "left_of", "page_to_board", "right_of"]

# straight and right unit vectors (dx, dy) per heading U, D, L, R
STRAIGHT = np.array([[0, -1], [0, 1], [-1, 0], [1, 0]], dtype=np.int32)
RIGHT = np.array([[1, 0], [-1, 0], [0, -1], [0, 1]], dtype=np.int32)
#: absolute direction of left / right of each heading
LEFT_DIR = np.array([2, 3, 1, 0], dtype=np.int32)
RIGHT_DIR = np.array([3, 2, 0, 1], dtype=np.int32)


def left_of(move):
    """The absolute move that is *left* of heading ``move``."""
    return MOVES[LEFT_DIR[MOVES.index(move)]]


def right_of(move):
    """The absolute move that is *right* of heading ``move``."""
    return MOVES[RIGHT_DIR[MOVES.index(move)]]


def page_to_board(px, py, move):
    """Board offset ``(dx, dy)`` of page offset ``(px, py)`` for heading ``move``."""
    h = MOVES.index(move)
    return (int(px * RIGHT[h, 0] - py * STRAIGHT[h, 0]), int(px * RIGHT[h, 1] - py * STRAIGHT[h, 1]))
