"""A state of the labyrinth: the line drawn so far from (1,1), as an immutable path.

The labyrinth is one puzzle of the graph core (:mod:`labyrinth.core`): the
(1,0) leaper on an n x n board from the corner (1,1) to the corner (n,n).
:class:`State` is the core's :class:`~labyrinth.core.PathState` on that
puzzle, with the labyrinth's own notation (``N:MOVES``) and its moves as one
string of letters.
"""

from functools import lru_cache

from labyrinth.core.path import PathState
from labyrinth.core.puzzle import Puzzle
from labyrinth.engine import search
from labyrinth.engine.board import MOVES, Board
from labyrinth.errors import PathError

__all__ = ["State", "labyrinth_puzzle"]


@lru_cache(maxsize=None)
def labyrinth_puzzle(n):
    """The labyrinth of size n as a puzzle of the core: the board, from (1,1) to (n,n), with its own search kernel.

    >>> p = labyrinth_puzzle(5)
    >>> p.name, p.graph.xy(p.start), p.graph.xy(p.end)
    ('labyrinth', (1, 1), (5, 5))
    """
    board = Board(n)
    return Puzzle("labyrinth", board, board.start, board.end, kernels=search)


class State(PathState):
    """A line from the start (1,1): its cells in order, the last one being the ``head``.

    Cells on the line are ``taken``; the others are ``free``. The line may enter
    the end corner only as its last cell.

    >>> s = State.from_moves(5, "RRD")
    >>> s.head, s.steps, s.moves, s.open_moves()
    (7, 3, 'RRD', 'DLR')
    >>> s.after("L").compact()
    '5:RRDL'
    """

    __slots__ = ("_moves",)

    noun = "line"
    moves_expected = "U, D, L or R"
    end_name = "the end corner "

    def __init__(self, board, path=None, *, _trusted=False):
        if isinstance(board, Puzzle):
            board = board.graph
        elif not isinstance(board, Board):
            board = Board(board)
        path = (board.start,) if path is None else path
        PathState.__init__(self, labyrinth_puzzle(board.n), path, _trusted=_trusted)
        self._moves = None

    # --- construction -------------------------------------------------------
    @classmethod
    def from_moves(cls, n, moves, *, source=None):
        """Replay a string of U/D/L/R letters from the start; errors name the step and letter."""
        board = n if isinstance(n, Board) else Board(n)
        path = cls._replay(labyrinth_puzzle(board.n), board.start, moves, source)
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

    # --- the labyrinth's own views ----------------------------------------------
    @property
    def moves(self):
        """The line as U/D/L/R letters from the start (computed once: states are immutable)."""
        if self._moves is None:
            letters = self.board.letters
            self._moves = "".join(letters[c - a] for a, c in zip(self.path, self.path[1:]))
        return self._moves

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
        state = self._grown(self.board.step(self.head, move))
        state._moves = None if self._moves is None else self._moves + move
        return state

    def extended(self, moves):
        """The state after a string of further moves, checked like :meth:`from_moves`."""
        return State.from_moves(self.board, self.moves + moves)

    def compact(self):
        """The ``N:MOVES`` notation."""
        return f"{self.n}:{self.moves}"

    def __repr__(self):
        return f"State({self.compact()!r})"

    def __reduce__(self):
        return (_rebuild, (self.board.n, self.path))


def _rebuild(n, path):
    return State(Board(n), path, _trusted=True)
