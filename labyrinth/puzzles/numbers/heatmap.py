"""The number puzzle's heat map of solutions per start cell: :mod:`labyrinth.core.heatmap` (any board)."""

from labyrinth.core.heatmap import COLOURS, PALETTE, colour_of, render_heatmap

__all__ = ["COLOURS", "PALETTE", "colour_of", "render_heatmap"]
