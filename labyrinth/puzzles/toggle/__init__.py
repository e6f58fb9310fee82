"""Toggle squares (docs/toggle.md): the press rules, an exact GF(2) oracle, the note's algorithms audited.

A press toggles the cell and its neighbours (the 3x3 block in 2-D, clipped at the edges); a board
is solved when every cell is off (or, by choice, on). See the README's "Toggle squares" section.
"""

from labyrinth.puzzles.toggle.algorithms import (
    ALGORITHMS,
    READINGS,
    Run,
    claim,
    cleared_dimension,
    run,
)
from labyrinth.puzzles.toggle.audit import (
    Audit,
    Counterexample,
    SizeAudit,
    audit,
    smallest_counterexample,
)
from labyrinth.puzzles.toggle.board import (
    GOALS,
    LARGE_SIZE_LIMIT,
    SIZE_LIMIT,
    Board,
    Line,
    check_size,
    goal_board,
    parse_board,
    random_solvable,
    read_board,
)
from labyrinth.puzzles.toggle.draw import render_board, render_run
from labyrinth.puzzles.toggle.solve import (
    Solution,
    WorstCase,
    all_minima,
    brute_minimum,
    is_solvable,
    kernel_basis,
    minimise,
    solve,
    solve_line_state,
    switching_value,
    worst_case,
)
from labyrinth.puzzles.toggle.theorems import CLAIMS, Theorems, check_theorems

__all__ = [
    "ALGORITHMS",
    "CLAIMS",
    "GOALS",
    "LARGE_SIZE_LIMIT",
    "READINGS",
    "SIZE_LIMIT",
    "Audit",
    "Board",
    "Counterexample",
    "Line",
    "Run",
    "SizeAudit",
    "Solution",
    "Theorems",
    "WorstCase",
    "all_minima",
    "audit",
    "brute_minimum",
    "check_size",
    "check_theorems",
    "claim",
    "cleared_dimension",
    "goal_board",
    "is_solvable",
    "kernel_basis",
    "minimise",
    "parse_board",
    "random_solvable",
    "read_board",
    "render_board",
    "render_run",
    "run",
    "smallest_counterexample",
    "solve",
    "solve_line_state",
    "switching_value",
    "worst_case",
]
