"""Plain-text drawings of states in the study's style: ``#`` taken, ``.`` free, head marked."""

__all__ = ["LEGEND", "draw", "legend"]

#: what the symbols of :func:`draw` mean
LEGEND = "o the start, # the line, ^ v < > the head (its last move), . free, E the end corner"

_ARROWS = {"U": "^", "D": "v", "L": "<", "R": ">"}


def draw(state, marks=None):
    """Rows of the board: ``.`` free, ``#`` taken, ``o`` start, the head as its last move's arrow,
    ``E`` the free end corner; ``marks`` maps cells to characters drawn over these.

    >>> from labyrinth.engine import State
    >>> print(draw(State.from_moves(3, "RD")))
    o#.
    .v.
    ..E
    """
    b = state.board
    rows = []
    last = state.moves[-1:] or None
    for y in range(b.n):
        row = []
        for x in range(b.n):
            c = y * b.n + x
            if marks and c in marks:
                ch = marks[c]
            elif c == state.head and last:
                ch = _ARROWS[last]
            elif c == b.start:
                ch = "o"
            elif state.taken[c]:
                ch = "#"
            elif c == b.end:
                ch = "E"
            else:
                ch = "."
            row.append(ch)
        rows.append("".join(row))
    return "\n".join(rows)


def legend(marks=None):
    """The legend line of a drawing, with the meaning of any extra ``marks`` symbols.

    >>> legend({"x": "the move"})
    '(o the start, # the line, ^ v < > the head (its last move), . free, E the end corner, x the move)'
    """
    extra = "".join(f", {sym} {meaning}" for sym, meaning in (marks or {}).items())
    return f"({LEGEND}{extra})"
