"""What every compiled rule reads: ``Tables`` (the per-board arrays of the graph kernel) and the walker's frame.

The frame (heading, left, right, keep-left order, the page a pattern is drawn
on) is written once, in :mod:`labyrinth.engine.frame`; the rules' kernels read
its arrays from here: ``STRAIGHT`` and ``RIGHT`` (unit vectors per heading
U, D, L, R = 0, 1, 2, 3), ``LEFT_DIR`` and ``RIGHT_DIR`` (the direction left
and right of each heading).
"""

from labyrinth.engine.frame import LEFT_DIR, RIGHT, RIGHT_DIR, STRAIGHT
from labyrinth.engine.graph import GraphTables as Tables

__all__ = ["LEFT_DIR", "RIGHT", "RIGHT_DIR", "STRAIGHT", "Tables"]
