"""SVG pictures of number-puzzle paths: :mod:`labyrinth.core.draw` (any move graph; row and column sums optional)."""

from labyrinth.core.draw import DRAW_LIMIT, render_path

__all__ = ["DRAW_LIMIT", "render_path"]
