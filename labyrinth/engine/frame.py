"""The walker's frame: the heading, left and right of it, keep-left order, and the page a pattern is drawn on.

Rules and walks think relative to the last step: *straight* is the heading
(the direction of the last move; down at the start), *left* and *right* are
the study's left and right of the line's direction of travel, and keep-left
order is left, straight, right. Absolute directions are the board's ``U, D,
L, R`` = 0, 1, 2, 3 (:data:`labyrinth.engine.board.MOVES`).

A pattern drawn on the page has the head moving up: page offset ``(px, py)``
(``px`` to the right, ``py`` down the page) lies at ``px * right + (-py) * straight``
on the board.

This is the one place these are written; the compiled rules read the same
arrays (:mod:`labyrinth.rules.frame` hands them on).

>>> left_of("D"), right_of("D"), keep_left_order("R")
('R', 'L', 'URD')
>>> page_to_board(0, -1, "R"), page_to_board(1, 0, "D"), board_to_page(-1, 0, "D")
((1, 0), (-1, 0), (1, 0))
"""

import numpy as np

from labyrinth.engine.board import MOVES

__all__ = ["LEFT_DIR", "RIGHT", "RIGHT_DIR", "STRAIGHT", "board_to_page", "heading", "keep_left_order", "left_of",
           "page_to_board", "right_of", "turn"]

#: the straight and right unit vectors ``(dx, dy)`` of each heading U, D, L, R
STRAIGHT = np.array([[0, -1], [0, 1], [-1, 0], [1, 0]], dtype=np.int32)
RIGHT = np.array([[1, 0], [-1, 0], [0, -1], [0, 1]], dtype=np.int32)
#: the absolute direction left / right of each heading
LEFT_DIR = np.array([2, 3, 1, 0], dtype=np.int32)
RIGHT_DIR = np.array([3, 2, 0, 1], dtype=np.int32)

_LEFT = {m: MOVES[LEFT_DIR[d]] for d, m in enumerate(MOVES)}
_RIGHT = {m: MOVES[RIGHT_DIR[d]] for d, m in enumerate(MOVES)}


def heading(state):
    """The direction of the line's last move; down (``D``) at the start."""
    return state.moves[-1:] or "D"


def left_of(move):
    """The absolute move that is *left* of heading ``move``."""
    return _LEFT[move]


def right_of(move):
    """The absolute move that is *right* of heading ``move``."""
    return _RIGHT[move]


def keep_left_order(direction):
    """Moves in keep-left order for a heading: left, straight, right.

    >>> keep_left_order("D")
    'RDL'
    """
    return _LEFT[direction] + direction + _RIGHT[direction]


def turn(state):
    """The line's last move relative to the one before it: ``"left"``, ``"straight"`` or ``"right"``.

    >>> from labyrinth.engine.state import State
    >>> turn(State.from_moves(5, "")), turn(State.from_moves(5, "R")), turn(State.from_moves(5, "RD"))
    ('straight', 'left', 'right')
    """
    before = state.moves[-2:-1] or "D"
    last = heading(state)
    return "left" if last == _LEFT[before] else "right" if last == _RIGHT[before] else "straight"


def page_to_board(px, py, move):
    """The board offset ``(dx, dy)`` of page offset ``(px, py)`` for heading ``move``."""
    h = MOVES.index(move)
    return (int(px * RIGHT[h, 0] - py * STRAIGHT[h, 0]), int(px * RIGHT[h, 1] - py * STRAIGHT[h, 1]))


def board_to_page(dx, dy, move):
    """The page offset ``(px, py)`` of board offset ``(dx, dy)`` for heading ``move`` (the inverse of :func:`page_to_board`)."""
    h = MOVES.index(move)
    return (int(dx * RIGHT[h, 0] + dy * RIGHT[h, 1]), int(-(dx * STRAIGHT[h, 0] + dy * STRAIGHT[h, 1])))
