"""A state of any puzzle: the path drawn so far on its move graph, as an immutable value.

Every oracle backend, walker and audit reads a state through the same few
names, whichever puzzle it belongs to (the labyrinth's :class:`~labyrinth.engine.State`
has them too): ``board`` (the move graph), ``path``, ``head``, ``taken``,
``free_count``, ``free()``, ``end`` (the fixed last cell or None), ``cycle``
(the path must close next to its first cell), ``open_moves()``, ``after(move)``,
``compact()`` and ``board.spell`` / ``board.replay`` for witnesses.

Notation: ``PUZZLE:N@X,Y:MOVES``, the puzzle's name, the board size, the first
cell and the moves joined by the board's separator, e.g. ``numbers:10@5,5:NE,S,S``.
"""

import importlib
import re

import numpy as np

from labyrinth.core.puzzle import CYCLE
from labyrinth.errors import FormatError, LabyrinthError, PathError

__all__ = ["PUZZLES", "PathState", "parse_path", "register_puzzle"]

#: Puzzle name -> factory ``f(n) -> Puzzle``, for reading path notation.
PUZZLES = {}
#: Puzzle name -> its own state class, where it has one (the labyrinth's :class:`~labyrinth.engine.State`).
STATE_TYPES = {}
#: Puzzle name -> a reader of its short notation (the labyrinth's ``N:MOVES``).
SHORT_FORMS = {}
#: The package of a puzzle named ``NAME`` or ``NAME-VARIANT`` is ``labyrinth.puzzles.NAME`` (imported on first use,
#: by name: the core never imports a puzzle; a puzzle imports the core and registers); the labyrinth's is the engine.
_PACKAGE = "labyrinth.puzzles.{}"
_LABYRINTH = "labyrinth.engine"

_NOTATION = re.compile(r"^\s*([a-z][a-z0-9-]*):([0-9]{1,9})@([0-9]{1,9}),([0-9]{1,9}):([A-Za-z,]*)\s*$")


def register_puzzle(name, factory, *, state=None, short=None):
    """Make ``name`` readable in path notation; ``factory(n)`` builds the puzzle of size n.

    ``state`` is the puzzle's own :class:`PathState` subclass (built as
    ``state(puzzle, path)``), ``short`` a reader of a short notation that
    :func:`parse_path` tries for text of the form ``N:MOVES``.
    """
    PUZZLES[name] = factory
    if state is not None:
        STATE_TYPES[name] = state
    if short is not None:
        SHORT_FORMS[name] = short
    return factory


def _registered(name):
    """Import the package of a shipped puzzle on first use, so that it registers itself; None for an unknown name.

    >>> _registered("knight-closed") is not None, _registered("no-such-puzzle")
    (True, None)
    """
    if name not in PUZZLES and re.fullmatch(r"[a-z][a-z0-9-]*", name):
        module = _LABYRINTH if name == "labyrinth" else _PACKAGE.format(name.split("-")[0])
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name != module:
                raise  # the puzzle's package is there but cannot import: say so
    return PUZZLES.get(name)


class PathState:
    """A path on a puzzle's move graph: its cells in order, the last one being the ``head``.

    >>> from labyrinth.puzzles.numbers import numbers_puzzle
    >>> s = PathState.from_moves(numbers_puzzle(5), (1, 1), "E,S")
    >>> s.cells_xy(), s.open_moves()
    ([(1, 1), (4, 1), (4, 4)], ('W', 'NW'))
    >>> s.compact()
    'numbers:5@1,1:E,S'
    """

    __slots__ = ("puzzle", "board", "path", "_taken")

    #: what the path is called in messages (the labyrinth says "line")
    noun = "path"

    def __init__(self, puzzle, path, *, _trusted=False):
        self.puzzle = puzzle
        self.board = puzzle.graph
        self.path = tuple(int(c) for c in path)
        if not _trusted:
            _check_path(puzzle, self.path, self.noun)
        self._taken = None

    # --- construction -------------------------------------------------------------
    @classmethod
    def from_moves(cls, puzzle, first, moves, *, source=None):
        """Replay ``moves`` (names joined by the board's separator) from ``first`` (a cell or 1-based ``(x, y)``)."""
        g = puzzle.graph
        if isinstance(first, tuple):
            x, y = first
            if not g.on_board(x, y):
                raise PathError(f"first cell {(x, y)} is off the {g.width}x{g.height} board",
                                source=source, token=f"{x},{y}")
            first = g.cell(x, y)
        if puzzle.start is not None and first != puzzle.start:
            raise PathError(f"the path must start at {g.xy(puzzle.start)}", source=source, token="%d,%d" % g.xy(first))
        return cls(puzzle, cls._replay(puzzle, first, moves, source), _trusted=True)

    #: how an error names the moves a step may take (None: "one of" the board's move names)
    moves_expected = None
    #: how an error names the puzzle's fixed end cell before its ``(x, y)`` ("the end corner ")
    end_name = ""

    @classmethod
    def _replay(cls, puzzle, first, moves, source):
        """The cells of ``moves`` replayed from cell ``first``; a :class:`PathError` names the first bad step."""
        g = puzzle.graph
        expected = cls.moves_expected or "one of " + ", ".join(g.names)
        end = puzzle.end if puzzle.end != CYCLE else None
        path = [first]
        seen = {first}
        for i, name in enumerate(g.split(moves)):
            if name not in g.targets:
                raise PathError(f"step {i + 1}: {name!r} is not a move (expected {expected})", source=source, token=name)
            here = path[-1]
            if here == end:
                raise PathError(f"step {i + 1}: the {cls.noun} already ended at {cls.end_name}{g.xy(here)}",
                                source=source, token=name)
            nxt = g.targets[name][here]
            if nxt < 0:
                raise PathError(f"step {i + 1}: move {name} from {g.xy(here)} leaves the board",
                                source=source, token=name)
            if nxt in seen:
                raise PathError(f"step {i + 1}: move {name} from {g.xy(here)} revisits {g.xy(nxt)}",
                                source=source, token=name)
            seen.add(nxt)
            path.append(nxt)
        return path

    # --- views ----------------------------------------------------------------------
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
    def end(self):
        """The cell the path must end on, or None (ends anywhere, or closes a cycle)."""
        end = self.puzzle.end
        return None if end is None or end == CYCLE else end

    @property
    def cycle(self):
        """True when the last cell must be one move from the first (a closed tour)."""
        return self.puzzle.end == CYCLE

    @property
    def moves(self):
        return self.board.spell(self.path)

    @property
    def taken(self):
        """uint8 array over cells: 1 where the path has been (the head included)."""
        if self._taken is None:
            t = np.zeros(self.board.size, dtype=np.uint8)
            t[list(self.path)] = 1
            t.setflags(write=False)
            self._taken = t
        return self._taken

    @property
    def free_count(self):
        return self.board.size - len(self.path)

    def free(self):
        """Indices of the cells not yet on the path."""
        return [int(c) for c in np.flatnonzero(self.taken == 0)]

    def at_end(self):
        """True when the head stands on the fixed end cell (no move is left)."""
        return self.end is not None and self.head == self.end

    def is_complete(self):
        """Every cell covered, ending where the puzzle requires."""
        if self.free_count:
            return False
        if self.cycle:
            return len(self.path) > 2 and self.path[0] in self.board.neighbours[self.head]
        return self.end is None or self.head == self.end

    def open_moves(self):
        """Names, in move order, of the moves onto free cells (none once on the fixed end)."""
        if self.at_end():
            return ()
        t = self.taken
        return tuple(self.board.names[d] for d, c in enumerate(self.board.neighbours[self.head])
                     if c >= 0 and not t[c])

    def after(self, move):
        """The state after one more move; :class:`PathError` if the move is not open."""
        if move not in self.open_moves():
            raise PathError(f"move {move!r} is not open at {self.compact()}", token=move)
        return self._grown(self.board.targets[move][self.head])

    def _grown(self, cell):
        """This state with ``cell`` appended (known good: no re-check; the taken cells grow by one)."""
        nxt = object.__new__(type(self))
        nxt.puzzle, nxt.board, nxt.path, nxt._taken = self.puzzle, self.board, self.path + (int(cell),), None
        if self._taken is not None:
            taken = self._taken.copy()
            taken[cell] = 1
            taken.setflags(write=False)
            nxt._taken = taken
        return nxt

    def prefix(self, steps):
        """The state after the first ``steps`` moves of this path."""
        return type(self)(self.puzzle, self.path[: steps + 1], _trusted=True)

    def compact(self):
        """The ``PUZZLE:N@X,Y:MOVES`` notation."""
        x, y = self.board.xy(self.path[0])
        return f"{self.puzzle.name}:{self.board.n}@{x},{y}:{self.moves}"

    def cells_xy(self):
        return [self.board.xy(c) for c in self.path]

    # --- value semantics --------------------------------------------------------------
    def __eq__(self, other):
        return isinstance(other, PathState) and other.puzzle == self.puzzle and other.path == self.path

    def __hash__(self):
        return hash((self.puzzle.name, self.board.size, self.path))

    def __repr__(self):
        return f"PathState({self.compact()!r})"

    def __reduce__(self):
        return (_rebuild, (self.puzzle.name, self.board.n, self.path))


def _rebuild(name, n, path):
    return STATE_TYPES.get(name, PathState)(_registered(name)(n), path, _trusted=True)


def _check_path(puzzle, path, noun="path"):
    """Raise :class:`PathError` naming the first step of ``path`` that is not a move of ``puzzle``."""
    g = puzzle.graph
    end = puzzle.end if puzzle.end != CYCLE else None
    if not path:
        raise PathError(f"a {noun} has at least its first cell")
    if puzzle.start is not None and path[0] != puzzle.start:
        raise PathError(f"the {noun} must start at {g.xy(puzzle.start)}")
    seen = set()
    for i, c in enumerate(path):
        if not 0 <= c < g.size:
            raise PathError(f"step {i}: cell {c} is off the board")
        if c in seen:
            raise PathError(f"step {i}: revisits {g.xy(c)}", token="%d,%d" % g.xy(c))
        if i and g.move_between(path[i - 1], c) is None:
            raise PathError(f"step {i}: {g.xy(path[i - 1])} -> {g.xy(c)} is not a single step",
                            token="%d,%d" % g.xy(c))
        if i and path[i - 1] == end:
            raise PathError(f"step {i}: the {noun} already ended at {g.xy(end)}", token="%d,%d" % g.xy(c))
        seen.add(c)


def parse_path(text, *, source=None):
    """A state from ``PUZZLE:N@X,Y:MOVES``, or from the labyrinth's ``N:MOVES``.

    >>> parse_path("numbers:5@1,1:E").head
    3
    """
    src = source or text.strip()
    m = _NOTATION.match(text)
    if not m:
        if text.count(":") == 1 and "@" not in text:
            _registered("labyrinth")
            return SHORT_FORMS["labyrinth"](text, source=source)
        raise FormatError("expected PUZZLE:N@X,Y:MOVES (e.g. numbers:10@1,1:E,S)", source=src,
                          token=text.strip()[:40] or "(empty)")
    name, n, x, y, moves = m.groups()
    factory = _registered(name)
    if factory is None:
        raise FormatError(f"unknown puzzle (known: {', '.join(sorted(PUZZLES))})", source=src, token=name)
    try:
        state = PathState.from_moves(factory(n), (int(x), int(y)), moves, source=src)
    except LabyrinthError as err:
        raise err.located(src) from None
    kind = STATE_TYPES.get(name)
    return state if kind is None else kind(state.puzzle, state.path, _trusted=True)
