"""Move graphs: the cells of a rectangular board and the moves a piece may make between them.

A *leaper* moves by fixed jumps: the labyrinth's line is the (1,0) leaper, the
knight the (1,2) leaper, the number puzzle jumps by (3,0) or (2,2). Every
puzzle of this project is a Hamiltonian path question on such a graph.
"""

import math
from functools import lru_cache

import numpy as np
from numba import njit

from labyrinth.errors import BoardSizeError

__all__ = ["COMPASS", "MoveGraph", "compass_name", "leaper_deltas", "move_graph", "random_image", "start_orbits"]

#: The 16 compass points, clockwise from north (22.5 degrees apart).
COMPASS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")
#: The largest side any move graph may have (a million cells, as the labyrinth's board).
MAX_SIDE = 1001


def compass_name(dx, dy):
    """The compass point nearest to a jump (``dy`` grows downward, so north is ``dy < 0``).

    >>> compass_name(2, -2), compass_name(1, -2), compass_name(0, 3)
    ('NE', 'NNE', 'S')
    """
    angle = math.degrees(math.atan2(dx, -dy)) % 360
    return COMPASS[round(angle / 22.5) % 16]


def leaper_deltas(*leaps):
    """Every jump of the ``(p, q)`` leapers, all signs and both orders, clockwise from north.

    >>> [compass_name(*d) for d in leaper_deltas((1, 2))]
    ['NNE', 'ENE', 'ESE', 'SSE', 'SSW', 'WSW', 'WNW', 'NNW']
    """
    out = set()
    for p, q in leaps:
        for a, b in ((p, q), (q, p)):
            for sx in (1, -1):
                for sy in (1, -1):
                    out.add((sx * a, sy * b))
    out.discard((0, 0))
    return tuple(sorted(out, key=lambda d: (math.atan2(d[0], -d[1]) % (2 * math.pi), abs(d[0]) + abs(d[1]))))


class MoveGraph:
    """The cells of a ``width`` x ``height`` board (row by row from 0) and a set of jumps.

    Attributes
    ----------
    neighbours : ndarray of int32, shape (size, k)
        ``neighbours[c, d]`` is the cell reached from ``c`` by move ``d``, or -1 off the board.
    names : tuple of str
        The name of each move, in column order (compass points unless given).
    separator : str
        How move names are joined in a path (``""`` when every name is one letter).
    colour : ndarray of int8
        A proper 2-colouring (+1 / -1, cell 0 on +1 in each component) when the graph
        is bipartite, else zeros: colour-balance pruning then holds trivially.
    bipartite : bool

    >>> g = move_graph(5, ((3, 0), (2, 2)))
    >>> g.names
    ('N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW')
    >>> [g.xy(c) for c in g.neighbours_of(g.cell(1, 1))]
    [(4, 1), (3, 3), (1, 4)]
    >>> g.bipartite
    False
    """

    __slots__ = ("width", "height", "size", "deltas", "names", "separator", "neighbours", "colour",
                 "bipartite", "targets", "_index", "__weakref__")

    def __init__(self, width, height, deltas, names=None):
        self.width, self.height = int(width), int(height)
        self.size = self.width * self.height
        self.deltas = tuple((int(dx), int(dy)) for dx, dy in deltas)
        names = tuple(names) if names is not None else tuple(compass_name(*d) for d in self.deltas)
        if len(set(names)) != len(names) or len(names) != len(self.deltas):
            raise ValueError(f"move names {names} must be distinct, one per jump")
        self.names = names
        self.separator = "" if all(len(m) == 1 for m in names) else ","
        w, h = self.width, self.height
        xs = np.arange(self.size) % w
        ys = np.arange(self.size) // w
        nb = np.full((self.size, len(self.deltas)), -1, dtype=np.int32)
        for d, (dx, dy) in enumerate(self.deltas):
            ok = (xs + dx >= 0) & (xs + dx < w) & (ys + dy >= 0) & (ys + dy < h)
            nb[ok, d] = ((ys + dy) * w + xs + dx)[ok]
        nb.setflags(write=False)
        self.neighbours = nb
        self.targets = {m: tuple(nb[:, d].tolist()) for d, m in enumerate(names)}  # plain ints, one tolist a move
        self._index = {m: d for d, m in enumerate(names)}
        self.colour, self.bipartite = _two_colouring(nb)

    def __repr__(self):
        return f"MoveGraph({self.width}x{self.height}, {self.separator.join(self.names) or 'no moves'})"

    @property
    def n(self):
        """The side of a square board."""
        return self.width

    def cell(self, x, y):
        """Index of the cell at 1-based column ``x`` and row ``y``."""
        return (y - 1) * self.width + (x - 1)

    def xy(self, cell):
        """1-based ``(x, y)`` of a cell index."""
        return cell % self.width + 1, cell // self.width + 1

    def on_board(self, x, y):
        return 1 <= x <= self.width and 1 <= y <= self.height

    def neighbours_of(self, cell):
        """The cells one move away, in move order."""
        return [int(c) for c in self.neighbours[cell] if c >= 0]

    def step(self, cell, move):
        """The cell reached from ``cell`` by ``move`` (a name or a column), or -1 off the board."""
        if isinstance(move, str):
            d = self._index.get(move)
            if d is None:
                raise ValueError(f"{move!r} is not a move (expected one of {', '.join(self.names)})")
            move = d
        return int(self.neighbours[cell, move])

    def move_between(self, a, b):
        """The name of the move from ``a`` to ``b``; None if no move joins them."""
        for d, c in enumerate(self.neighbours[a]):
            if c == b:
                return self.names[d]
        return None

    def spell(self, cells):
        """The moves along consecutive ``cells`` as one string, joined by :attr:`separator`."""
        if hasattr(cells, "tolist"):  # numpy cells: plain ints once, not per step
            cells = cells.tolist()
        between = self.move_between
        return self.separator.join(between(a, b) for a, b in zip(cells, cells[1:]))

    def split(self, moves):
        """Move names of a path string (the inverse of joining them with :attr:`separator`)."""
        if not moves:
            return []
        return list(moves) if self.separator == "" else [m.strip() for m in moves.split(self.separator)]

    def replay(self, head, moves):
        """The cells ``moves`` reach from ``head`` in order; None if a move is unknown or leaves the board."""
        cells = []
        here = head
        for name in self.split(moves):
            targets = self.targets.get(name)
            if targets is None:
                return None
            here = targets[here]
            if here < 0:
                return None
            cells.append(here)
        return cells

    def symmetries(self):
        """The symmetries of the square that map this graph onto itself, as cell permutations.

        The identity comes first. Each entry is an int array ``p`` with ``p[c]`` the image of cell ``c``.
        """
        return _symmetries(self)


def _two_colouring(nb):
    """(+1/-1 colours, True) when the graph is bipartite, else (zeros, False)."""
    colour = np.zeros(nb.shape[0], dtype=np.int8)
    bipartite = _colour_components(nb, colour)
    if not bipartite:
        colour[:] = 0
    colour.setflags(write=False)
    return colour, bool(bipartite)


@njit(cache=True)
def _colour_components(nb, colour):
    """Breadth-first 2-colouring of every component (cell of lowest index +1); False on an odd cycle."""
    size = nb.shape[0]
    queue = np.empty(size, dtype=np.int64)
    for root in range(size):
        if colour[root] != 0:
            continue
        colour[root] = 1
        queue[0] = root
        head, tail = 0, 1
        while head < tail:
            c = queue[head]
            head += 1
            for d in range(nb.shape[1]):
                o = nb[c, d]
                if o < 0:
                    continue
                if colour[o] == 0:
                    colour[o] = -colour[c]
                    queue[tail] = o
                    tail += 1
                elif colour[o] == colour[c]:
                    return False
    return True


def _square_maps(n):
    """The 8 symmetries of an n x n square as functions of 0-based (x, y), identity first."""
    m = n - 1
    return (lambda x, y: (x, y), lambda x, y: (m - y, x), lambda x, y: (m - x, m - y),
            lambda x, y: (y, m - x), lambda x, y: (m - x, y), lambda x, y: (x, m - y),
            lambda x, y: (y, x), lambda x, y: (m - y, m - x))


def _symmetries(graph):
    w, h = graph.width, graph.height
    maps = _square_maps(w) if w == h else _square_maps(max(w, h))[:1]
    if w != h:
        m_x, m_y = w - 1, h - 1
        maps = maps + (lambda x, y: (m_x - x, y), lambda x, y: (x, m_y - y), lambda x, y: (m_x - x, m_y - y))
    edges = {(a, int(b)) for a in range(graph.size) for b in graph.neighbours[a] if b >= 0}
    out = []
    for f in maps:
        perm = np.empty(graph.size, dtype=np.int64)
        for c in range(graph.size):
            x, y = f(c % w, c // w)
            perm[c] = y * w + x
        if all((int(perm[a]), int(perm[b])) in edges for a, b in edges):
            perm.setflags(write=False)
            out.append(perm)
    return tuple(out)


def start_orbits(graph):
    """The cells in orbits of the board's symmetries: ``[(representative, [cells]), ...]`` by representative.

    >>> [rep for rep, _ in start_orbits(move_graph(4, ((1, 2),)))]
    [0, 1, 5]
    """
    seen, out = set(), []
    maps = graph.symmetries()
    for c in range(graph.size):
        if c in seen:
            continue
        orbit = sorted({int(p[c]) for p in maps})
        seen.update(orbit)
        out.append((c, orbit))
    return out


def random_image(graph, cells, rng, *, keep_start=False):
    """``cells`` mapped by a symmetry of the board drawn from ``rng`` (one that fixes the first cell when ``keep_start``)."""
    maps = [p for p in graph.symmetries() if not keep_start or p[cells[0]] == cells[0]]
    p = rng.choice(maps)
    return tuple(int(p[c]) for c in cells)


def move_graph(n, leaps, *, names=None):
    """The graph of the ``leaps`` leapers (e.g. ``((1, 2),)`` for the knight) on an n x n board (cached).

    >>> move_graph(8, ((1, 2),)).bipartite
    True
    """
    n = _side(n)
    leaps = tuple(tuple(int(v) for v in leap) for leap in leaps)
    return _cached(n, leaps, None if names is None else tuple(names))


@lru_cache(maxsize=64)
def _cached(n, leaps, names):
    return MoveGraph(n, n, leaper_deltas(*leaps), names)


def _side(n):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        text = str(n).strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 9:
            raise BoardSizeError("board size must be a positive integer (the digits 0-9)", token=text[:24])
        n = int(text)
    n = int(n)
    if n < 1:
        raise BoardSizeError(f"board size must be at least 1, got {n}", token=str(n))
    if n > MAX_SIDE:
        raise BoardSizeError(f"board size {n} is beyond the largest board this tool handles "
                             f"({MAX_SIDE}x{MAX_SIDE})", token=str(n))
    return n
