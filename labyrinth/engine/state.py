"""A state of the labyrinth: the line drawn so far from (1,1), as an immutable path."""

import numpy as np

from labyrinth.engine.board import MOVES, Board
from labyrinth.errors import PathError

__all__ = ["State"]


class State:
    """A line from the start (1,1): its cells in order, the last one being the ``head``.

    Cells on the line are ``taken``; the others are ``free``. The line may enter
    the end corner only as its last cell.

    >>> s = State.from_moves(5, "RRD")
    >>> s.head, s.steps, s.moves, s.open_moves()
    (7, 3, 'RRD', 'DLR')
    >>> s.after("L").compact()
    '5:RRDL'
    """

    __slots__ = ("board", "path", "_taken", "_moves")

    def __init__(self, board, path=None, *, _trusted=False):
        if not isinstance(board, Board):
            board = Board(board)
        self.board = board
        path = (board.start,) if path is None else tuple(int(c) for c in path)
        if not _trusted:
            _check_path(board, path)
        self.path = path
        self._taken = None
        self._moves = None

    # --- construction -------------------------------------------------------
    @classmethod
    def from_moves(cls, n, moves, *, source=None):
        """Replay a string of U/D/L/R letters from the start; errors name the step and letter."""
        board = n if isinstance(n, Board) else Board(n)
        path = [board.start]
        seen = {board.start}
        for i, letter in enumerate(moves):
            if letter not in MOVES:
                raise PathError(
                    f"step {i + 1}: {letter!r} is not a move (expected U, D, L or R)",
                    source=source, token=letter)
            here = path[-1]
            if here == board.end:
                raise PathError(f"step {i + 1}: the line already ended at the end corner {board.xy(board.end)}",
                                source=source, token=letter)
            nxt = board.step(here, letter)
            if nxt < 0:
                raise PathError(f"step {i + 1}: move {letter} from {board.xy(here)} leaves the board",
                                source=source, token=letter)
            if nxt in seen:
                raise PathError(f"step {i + 1}: move {letter} from {board.xy(here)} revisits {board.xy(nxt)}",
                                source=source, token=letter)
            seen.add(nxt)
            path.append(nxt)
        state = cls(board, path, _trusted=True)
        state._moves = moves
        return state

    @classmethod
    def from_cells(cls, n, cells, *, source=None):
        """A state from 1-based ``(x, y)`` cells, the first of which must be (1,1)."""
        board = n if isinstance(n, Board) else Board(n)
        path = []
        for i, (x, y) in enumerate(cells):
            if not board.on_board(x, y):
                raise PathError(f"step {i}: cell {(x, y)} is off the {board.n}x{board.n} board",
                                source=source, token=f"{x},{y}")
            path.append(board.cell(x, y))
        try:
            return cls(board, path)
        except PathError as err:
            raise err.located(source) from None

    # --- views ----------------------------------------------------------------
    @property
    def n(self):
        return self.board.n

    @property
    def head(self):
        return self.path[-1]

    @property
    def steps(self):
        return len(self.path) - 1

    @property
    def moves(self):
        """The line as U/D/L/R letters from the start (computed once: states are immutable)."""
        if self._moves is None:
            letters = self.board.letters
            self._moves = "".join(letters[c - a] for a, c in zip(self.path, self.path[1:]))
        return self._moves

    @property
    def taken(self):
        """Boolean array over cells: True where the line has been (the head included)."""
        if self._taken is None:
            t = np.zeros(self.board.size, dtype=np.uint8)
            t[list(self.path)] = 1
            t.setflags(write=False)
            self._taken = t
        return self._taken

    @property
    def end(self):
        """The cell the line must end on: the end corner (see :mod:`labyrinth.core.path`)."""
        return self.board.end

    #: the line never closes into a cycle
    cycle = False

    @property
    def free_count(self):
        return self.board.size - len(self.path)

    def free(self):
        """Indices of the cells not yet on the line."""
        return [int(c) for c in np.flatnonzero(self.taken == 0)]

    def is_complete(self):
        """Every cell covered and the head on the end corner."""
        return self.head == self.board.end and self.free_count == 0

    def at_end(self):
        return self.head == self.board.end

    def open_moves(self):
        """Letters, in ``UDLR`` order, of the moves onto free neighbours (none once at the end)."""
        if self.at_end():
            return ""
        nb = self.board.neighbours[self.head]
        t = self.taken
        return "".join(MOVES[d] for d in range(4) if nb[d] >= 0 and not t[nb[d]])

    def after(self, move):
        """The state after one more move; :class:`PathError` if the move is not open."""
        if move not in self.open_moves():
            raise PathError(f"move {move!r} is not open at {self.compact()}", token=move)
        state = State(self.board, self.path + (self.board.step(self.head, move),), _trusted=True)
        if self._moves is not None:
            state._moves = self._moves + move
        return state

    def prefix(self, steps):
        """The state after the first ``steps`` moves of this line."""
        return State(self.board, self.path[: steps + 1], _trusted=True)

    def extended(self, moves):
        """The state after a string of further moves, checked like :meth:`from_moves`."""
        return State.from_moves(self.board, self.moves + moves)

    def compact(self):
        """The ``N:MOVES`` notation."""
        return f"{self.n}:{self.moves}"

    def cells_xy(self):
        return [self.board.xy(c) for c in self.path]

    # --- value semantics --------------------------------------------------------
    def __eq__(self, other):
        return isinstance(other, State) and other.board.n == self.board.n and other.path == self.path

    def __hash__(self):
        return hash((self.board.n, self.path))

    def __repr__(self):
        return f"State({self.compact()!r})"

    def __reduce__(self):
        return (_rebuild, (self.board.n, self.path))


def _rebuild(n, path):
    return State(Board(n), path, _trusted=True)


def _check_path(board, path):
    if not path or path[0] != board.start:
        raise PathError("the line must start at (1,1)")
    seen = set()
    for i, c in enumerate(path):
        if not 0 <= c < board.size:
            raise PathError(f"step {i}: cell {c} is off the board")
        if c in seen:
            raise PathError(f"step {i}: revisits {board.xy(c)}", token="%d,%d" % board.xy(c))
        if i and board.move_between(path[i - 1], c) is None:
            raise PathError(f"step {i}: {board.xy(path[i - 1])} -> {board.xy(c)} is not a single step",
                            token="%d,%d" % board.xy(c))
        if i and path[i - 1] == board.end:
            raise PathError(f"step {i}: the line already ended at the end corner {board.xy(board.end)}",
                            token="%d,%d" % board.xy(c))
        seen.add(c)
