"""Plain-text pictures of a path on any move graph: its numbered grid."""

__all__ = ["numbered_grid"]


def numbered_grid(state, marks=None):
    """The board as rows of the numbers the path wrote (``.`` on free cells; ``marks`` maps a cell to a letter).

    >>> from labyrinth.core import PathState
    >>> from labyrinth.puzzles.numbers import numbers_puzzle
    >>> print(numbered_grid(PathState.from_moves(numbers_puzzle(4), (1, 1), "E"), {15: "x"}))
     1  .  .  2
     .  .  .  .
     .  .  .  .
     .  .  .  x
    """
    board = state.board
    marks = marks or {}
    number = {c: k for k, c in enumerate(state.path, 1)}
    width = len(str(board.size))
    rows = []
    for y in range(board.height):
        cells = range(y * board.width, (y + 1) * board.width)
        rows.append(" ".join(f"{marks.get(c) or number.get(c, '.'):>{width}}" for c in cells).rstrip())
    return "\n".join(rows)
