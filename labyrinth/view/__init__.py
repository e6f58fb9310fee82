"""Pictures, reports and a browser viewer: states, findings and patterns drawn the way the study draws them.

* :mod:`~labyrinth.view.model`: what a picture shows (rules, oracle, stuck pattern), as plain data;
* :mod:`~labyrinth.view.svg`: SVG pictures of states and of patterns (``labyrinth draw``);
* :mod:`~labyrinth.view.paths`: numbered-grid pictures of a path on any move graph (knight, number puzzle);
* :mod:`~labyrinth.view.heatmap`: a board's heat map of a count per start cell;
* :mod:`~labyrinth.view.charts`: line charts for the reports;
* :mod:`~labyrinth.view.report`: one self-contained HTML page for a findings store (``labyrinth report``);
* :mod:`~labyrinth.view.server`: the local step-through viewer (``labyrinth serve``).
"""

from labyrinth.view.model import Blame, PatternView, StateView, describe, place_pattern, stuck_pattern
from labyrinth.view.svg import inline, render, render_pattern, to_png

__all__ = [
    "Blame",
    "PatternView",
    "StateView",
    "describe",
    "inline",
    "place_pattern",
    "render",
    "render_pattern",
    "stuck_pattern",
    "to_png",
]
