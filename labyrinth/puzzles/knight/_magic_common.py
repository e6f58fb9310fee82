"""What a magic knight's tour of 8x8 is, and when two are the same: conditions, the check, classes.

Shared by the searches (:mod:`.magic`, :mod:`.semimagic`, :mod:`._magic_cpsat`),
which all import from here and never from each other's higher levels.
The definitions and the symmetric condition's argument are in
:mod:`labyrinth.puzzles.knight.magic`; :func:`check_magic` knows only the
definitions (coordinates, numbers, sums), nothing of any search.
"""

import dataclasses

from labyrinth.core.path import PathState
from labyrinth.puzzles.knight.board import knight_graph

__all__ = [
    "ALL",
    "FOUND",
    "MAGIC_SUM",
    "N",
    "NONE",
    "SIZE",
    "UNKNOWN",
    "Conditions",
    "canonical",
    "check_magic",
    "geometry_key",
    "grid_of",
    "is_closed",
    "orbit",
]

N = 8
SIZE = N * N
#: the magic sum of 8x8: 8 * (64 + 1) / 2
MAGIC_SUM = N * (SIZE + 1) // 2
#: outcomes: a tour found; none exists (proven); every tour enumerated; the time limit came first
FOUND, NONE, ALL, UNKNOWN = "found", "none", "all", "unknown"


@dataclasses.dataclass(frozen=True)
class Conditions:
    """Which of the puzzle page's conditions a tour must meet, beyond 1-4 (a tour; rows and columns 260).

    >>> Conditions(symmetric=True).label, Conditions(diagonals=True).label
    ('1-6', '1-4, 7')
    >>> Conditions(symmetric=True).needs_closed
    True
    """

    closed: bool = False
    symmetric: bool = False
    diagonals: bool = False

    @property
    def needs_closed(self):
        """Closed, asked for or implied: a centrally symmetric tour is closed (see the module's docstring)."""
        return self.closed or self.symmetric

    @property
    def numbers(self):
        """The puzzle page's condition numbers these stand for."""
        out = [1, 2, 3, 4]
        if self.needs_closed:
            out.append(5)
        if self.symmetric:
            out.append(6)
        if self.diagonals:
            out.append(7)
        return tuple(out)

    @property
    def label(self):
        """The conditions as the puzzle page numbers them: ``1-4``, ``1-6``, ``1-4, 7``..."""
        nums = self.numbers
        run = 4
        while run + 1 in nums:
            run += 1
        rest = [str(k) for k in nums if k > run]
        return ", ".join([f"1-{run}", *rest])

    def to_json(self):
        return {"closed": self.needs_closed, "symmetric": self.symmetric, "diagonals": self.diagonals,
                "conditions": list(self.numbers)}


def _cells_of(tour):
    if isinstance(tour, PathState):
        return tuple(tour.path)
    return tuple(int(c) for c in tour)


def check_magic(tour, conditions=Conditions()):
    """What is wrong with ``tour`` under ``conditions``: a tuple of faults, empty when it meets them all.

    Independent of every search: it reads only the cells in number order (a
    :class:`PathState` or a sequence of cell indices ``(y-1)*8 + (x-1)``) and
    checks the definitions: 64 cells each once, each step a knight's move
    (one and two cells apart), rows and columns 260, and as asked 64 a knight's
    move from 1, the cell numbered i's image under the half turn numbered
    i + 32 (mod 64), both diagonals 260.

    >>> check_magic(range(64))[:1]
    ('step 1: (1,1) -> (2,1) is not a knight move',)
    """
    cells = _cells_of(tour)
    faults = []
    if len(cells) != SIZE or sorted(cells) != list(range(SIZE)):
        return (f"not the numbers 1..{SIZE} each on one cell ({len(cells)} cells, {len(set(cells))} distinct)",)
    xy = [(c % N, c // N) for c in cells]

    def knight(a, b):
        return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]

    for i in range(1, SIZE):
        if not knight(xy[i - 1], xy[i]):
            faults.append(f"step {i}: ({xy[i - 1][0] + 1},{xy[i - 1][1] + 1}) -> "
                          f"({xy[i][0] + 1},{xy[i][1] + 1}) is not a knight move")
    number = [0] * SIZE
    for k, c in enumerate(cells, 1):
        number[c] = k
    for y in range(N):
        s = sum(number[y * N + x] for x in range(N))
        if s != MAGIC_SUM:
            faults.append(f"row {y + 1} sums to {s}, not {MAGIC_SUM}")
    for x in range(N):
        s = sum(number[y * N + x] for y in range(N))
        if s != MAGIC_SUM:
            faults.append(f"column {x + 1} sums to {s}, not {MAGIC_SUM}")
    if conditions.needs_closed and not knight(xy[-1], xy[0]):
        faults.append(f"not closed: 64 at ({xy[-1][0] + 1},{xy[-1][1] + 1}) is not a knight move from 1")
    if conditions.symmetric:
        for c in range(SIZE):
            image = (N - 1 - c % N) + (N - 1 - c // N) * N
            want = (number[c] - 1 + SIZE // 2) % SIZE + 1
            if number[image] != want:
                faults.append(f"not symmetric about the centre: {number[c]} at ({c % N + 1},{c // N + 1}), "
                              f"{number[image]} (not {want}) at its image")
                break
    if conditions.diagonals:
        for name, diag in (("diagonal (1,1)-(8,8)", [i * N + i for i in range(N)]),
                           ("diagonal (8,1)-(1,8)", [i * N + N - 1 - i for i in range(N)])):
            s = sum(number[c] for c in diag)
            if s != MAGIC_SUM:
                faults.append(f"{name} sums to {s}, not {MAGIC_SUM}")
    return tuple(faults)


def orbit(cells):
    """The tours a tour's class holds: its images under the 8 symmetries of the board, each also reversed."""
    cells = _cells_of(cells)
    out = set()
    for p in knight_graph(N).symmetries():
        image = tuple(int(p[c]) for c in cells)
        out.add(image)
        out.add(image[::-1])
    return out


def geometry_key(cells):
    """A tour's figure up to the board's symmetries: its moves as unordered pairs (the closing move too, if any).

    Tours with the same key draw the same figure: a closed tour numbered from
    another cell, or two numberings of one path (Jelliss's *geometry classes*).
    """
    cells = _cells_of(cells)
    moves = list(zip(cells, cells[1:]))
    if _knight(cells[-1], cells[0]):
        moves.append((cells[-1], cells[0]))
    best = None
    for p in knight_graph(N).symmetries():
        key = tuple(sorted(tuple(sorted((int(p[a]), int(p[b])))) for a, b in moves))
        best = key if best is None or key < best else best
    return best


def canonical(cells):
    """The least tour (as a tuple of cells) of a tour's class: the class's name."""
    return min(orbit(cells))


def _knight(a, b):
    return sorted((abs(a % N - b % N), abs(a // N - b // N))) == [1, 2]



def is_closed(cells):
    """Whether 64 is a knight's move from 1."""
    cells = _cells_of(cells)
    return _knight(cells[-1], cells[0])


def grid_of(cells):
    """The numbered grid by rows (64 integers, row 1 first, each row from column 1): the number on each cell.

    >>> grid_of(range(64))[:3]
    [1, 2, 3]
    """
    cells = _cells_of(cells)
    number = [0] * len(cells)
    for k, c in enumerate(cells, 1):
        number[c] = k
    return number
