"""The certificate checker's board: the state after the move, its nodes, needs and edges, and the facts so far.

Part of the checker (:mod:`verify.certificates.check`): the standard library only.
"""

import dataclasses

__all__ = ["MAX_SIZE", "Board", "Facts", "Invalid", "Outcome", "edge_key", "parse_state"]

_MOVES = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
#: the largest board a certificate may be about (the command line's limit too)
MAX_SIZE = 1001


def parse_state(state):
    """``(n, line)`` of a state ``"N:MOVES"`` (the line's cells from the start); :class:`Invalid` if it does not parse."""
    if not isinstance(state, str) or state.count(":") != 1:
        raise Invalid(f"state {str(state)[:40]!r} is not N:MOVES")
    size, moves = state.split(":")
    if (not (size.isascii() and size.isdigit()) or len(size) > 4 or not 3 <= int(size) <= MAX_SIZE
            or int(size) % 2 == 0):
        raise Invalid(f"state {state[:40]!r}: the size must be an odd number from 3 to {MAX_SIZE}")
    n = int(size)
    line = [0]
    seen = {0}
    for i, letter in enumerate(moves):
        if letter not in _MOVES:
            raise Invalid(f"state {state[:40]!r}: step {i + 1}: {letter!r} is not one of U, D, L, R")
        if line[-1] == n * n - 1:
            raise Invalid(f"state {state[:40]!r}: step {i + 1}: the line already ended at the end corner")
        dx, dy = _MOVES[letter]
        x, y = line[-1] % n + dx, line[-1] // n + dy
        if not (0 <= x < n and 0 <= y < n) or y * n + x in seen:
            raise Invalid(f"state {state[:40]!r}: step {i + 1}: {letter} leaves the board or revisits a cell")
        line.append(y * n + x)
        seen.add(y * n + x)
    return n, line


class Invalid(Exception):
    """A step that does not hold (``reason``), at ``step`` (1-based; nested ``case`` steps as ``3.2``)."""

    def __init__(self, reason, step=None):
        super().__init__(reason)
        self.reason = reason
        self.step = step


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What a step derives: ``dead``, or edges it ``forces`` and ``removes``; ``reads``: the edges it looked at."""

    dead: bool = False
    forces: frozenset = frozenset()
    removes: frozenset = frozenset()
    reads: frozenset = frozenset()


def edge_key(a, b):
    """An edge as the pair of its cells, smaller first."""
    return (a, b) if a < b else (b, a)


class _Need(dict):
    """A node's need, worked out when first asked: 1 for the head and the end corner, 2 for the rest."""

    def __init__(self, board):
        super().__init__()
        self.board = board

    def __missing__(self, c):
        self[c] = 1 if c == self.board.head or c == self.board.end else 2
        return self[c]


class _Adjacency(dict):
    """A node's neighbours among the nodes, worked out when first asked (the head-end edge only at the last cell)."""

    def __init__(self, board):
        super().__init__()
        self.board = board

    def __missing__(self, c):
        b = self.board
        grid = _GRID.get(b.n)
        if grid is None:
            grid = _GRID[b.n] = _grid(b.n)
        ends = (b.head, b.end) if b.free > 1 else ()
        out = tuple(d for d in grid[c] if d in b.nodes and not (c in ends and d in ends and c != d))
        self[c] = out
        return out


#: board size -> every cell's neighbours on the board (up, down, left, right)
_GRID = {}


def _grid(n):
    out = []
    for c in range(n * n):
        x, y = c % n, c // n
        out.append(tuple(c + dx + dy * n for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0))
                         if 0 <= x + dx < n and 0 <= y + dy < n))
    return out


class Board:
    """The state after the move, as the steps see it: nodes, their needs and the edges between them."""

    def __init__(self, n, line):
        self.n = n
        self.head = line[-1]
        self.end = n * n - 1
        self.free = n * n - len(line)
        self.nodes = frozenset(range(n * n)).difference(line[:-1])
        self.need = _Need(self)
        self.adj = _Adjacency(self)

    @classmethod
    def after(cls, state, move):
        """The board after ``move`` from ``state`` (``"N:MOVES"``); :class:`Invalid` if either does not parse."""
        n, line = parse_state(state)
        if not isinstance(move, str) or len(move) != 1 or move not in _MOVES:
            raise Invalid(f"move {move!r} is not one of U, D, L, R")
        if line[-1] == n * n - 1:
            raise Invalid("the line has already ended at the end corner: there is no move")
        dx, dy = _MOVES[move]
        x, y = line[-1] % n + dx, line[-1] // n + dy
        if not (0 <= x < n and 0 <= y < n) or y * n + x in line:
            raise Invalid(f"the move {move} leaves the board or enters the line")
        return cls(n, line + [y * n + x])

    def xy(self, c):
        """1-based ``(x, y)`` of a cell."""
        return c % self.n + 1, c // self.n + 1

    def name(self, c):
        return "(%d,%d)" % self.xy(c)

    def colour(self, c):
        """+1 on the start's colour (black), -1 on the other (white)."""
        return 1 if (c % self.n + c // self.n) % 2 == 0 else -1

    def cell(self, value, what="cell"):
        """The node a step names as ``[x, y]``; :class:`Invalid` if it is no node of the board."""
        if isinstance(value, (list, tuple)) and len(value) == 2:
            x, y = value
            if type(x) is int and type(y) is int and 1 <= x <= self.n and 1 <= y <= self.n:
                c = (y - 1) * self.n + (x - 1)
                if c not in self.nodes:
                    raise Invalid(f"{what} ({x},{y}) is on the line behind the head")
                return c
            if type(x) is int and type(y) is int:
                raise Invalid(f"{what} ({x},{y}) is off the board")
        raise Invalid(f"{what} {value!r} is not [x, y]")

    def cells(self, values, what="cells", empty=False):
        """A set of distinct nodes a step names."""
        if not isinstance(values, (list, tuple)) or (not values and not empty):
            raise Invalid(f"{what} must be a{'' if empty else ' non-empty'} list of [x, y]")
        out = [self.cell(v, what) for v in values]
        if len(set(out)) != len(out):
            raise Invalid(f"{what} name a cell twice")
        return frozenset(out)

    def edge(self, value):
        """The edge a step names as ``[[x, y], [x, y]]``."""
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise Invalid(f"edge {value!r} is not [[x, y], [x, y]]")
        a, b = self.cell(value[0], "edge end"), self.cell(value[1], "edge end")
        if b not in self.adj[a]:
            raise Invalid(f"{self.name(a)}-{self.name(b)} is no edge of the board")
        return edge_key(a, b)


class Facts:
    """Forced and removed edges so far (a step reads them only through these four methods)."""

    def __init__(self, forced=(), removed=()):
        self.forced = set(forced)
        self.removed = set(removed)

    def copy(self):
        return Facts(self.forced, self.removed)

    def options(self, board, c):
        """The neighbours of ``c`` joined to it by an edge not removed (forced ones included)."""
        return [d for d in board.adj[c] if edge_key(c, d) not in self.removed]

    def forced_of(self, board, c):
        """The neighbours of ``c`` joined to it by a forced edge."""
        return [d for d in board.adj[c] if edge_key(c, d) in self.forced]

    def is_forced(self, e):
        return e in self.forced

    def is_removed(self, e):
        return e in self.removed
