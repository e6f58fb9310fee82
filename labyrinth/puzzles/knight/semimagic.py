"""Every semi-magic knight's tour of 8x8: the units of the enumeration, one unit's search, and the classes found.

A *semi-magic* tour numbers the 64 cells 1..64 along a knight's tour so
that every row and column sums to 260 (the puzzle page's conditions 1-4,
:mod:`labyrinth.puzzles.knight.magic`); ``closed`` and ``diagonals`` narrow
the enumeration to conditions 1-5 and 1-4, 7.

How the work is cut (after the 2003 enumeration by Mackay, Meyrignac and
Stertenbrink, magictour.free.fr, whose 136 "ranges" are the same pairs):

* every tour has a pair *(cell of 1, cell of 64)*, on opposite colours. The
  16 symmetries of the problem (the board's 8, each with or without
  reversal, i becoming 65 - i) act on these pairs; there are 136 orbits.
  Searching the tours of one pair per orbit finds every class (a tour's
  class holds a tour of every pair of its pair's orbit);
* a pair's tours are cut by their first ``depth`` moves from cell 1 and
  their last ``depth`` moves into cell 64: a *unit*, named like
  ``a1-h1 b3.c5 g3.e4`` (the pair, then the cells of 2, 3... and of 63, 62...).
  When some of the 16 symmetries map the pair onto itself, only one unit of
  each set of units they map onto each other is kept;
* a unit is searched by the numba kernel :mod:`._semimagic_kernel` (both
  ends at once, line sums bounded) in slices, so that a deadline is seen.

Every tour a unit returns has passed :func:`~labyrinth.puzzles.knight._magic_common.check_magic`.
"""

import dataclasses
import time
from functools import lru_cache

import numpy as np

from labyrinth.errors import LabyrinthError
from labyrinth.jobs.pool import WorkerPool
from labyrinth.puzzles.knight import _semimagic_kernel as _k
from labyrinth.puzzles.knight._magic_common import (
    MAGIC_SUM,
    SIZE,
    Conditions,
    N,
    canonical,
    check_magic,
    grid_of,
    is_closed,
    orbit,
)

__all__ = [
    "DEPTH",
    "Unit",
    "UnitResult",
    "cell_name",
    "pair_orbits",
    "parse_unit",
    "plan_units",
    "run_unit",
    "run_units",
    "same_orbit_pairs",
    "scheme_count",
    "summarize",
    "unit_pair",
]

#: moves at each end that make a unit's name (75 735 units for conditions 1-4, 11 659 of them closed)
DEPTH = 2
#: nodes per slice between two looks at the clock (and at a stop signal: well under a second on any machine)
SLICE_NODES = 1 << 20
#: tours held by the kernel before the caller drains them
BUFFER = 64
_FILES = "abcdefgh"


def cell_name(c):
    """Algebraic name of a cell index ``(y-1)*8 + (x-1)``: ``a1`` is 0, ``h8`` is 63.

    >>> cell_name(0), cell_name(17), cell_name(63)
    ('a1', 'b3', 'h8')
    """
    return f"{_FILES[c % N]}{c // N + 1}"


def _cell_of(name, unit, source):
    if len(name) != 2 or name[0] not in _FILES or name[1] not in "12345678":
        raise LabyrinthError(f"{name!r} is not a cell of the 8x8 board", source=source, token=unit)
    return (int(name[1]) - 1) * N + _FILES.index(name[0])


@dataclasses.dataclass(frozen=True)
class Unit:
    """The tours with ``prefix`` on 1, 2, ... and ``suffix`` on 64, 63, ... (cells)."""

    prefix: tuple
    suffix: tuple

    @property
    def name(self):
        head = f"{cell_name(self.prefix[0])}-{cell_name(self.suffix[0])}"
        return " ".join([head] + [".".join(map(cell_name, w[1:])) or "-" for w in (self.prefix, self.suffix)])


def unit_pair(name):
    """A unit's pair of end cells (``"a1-h1"``: cells of 1 and 64), read from its name without checking it.

    Cheap where :func:`parse_unit` is not: campaigns group the 75 735 unit names by pair.

    >>> unit_pair("a1-b1 b3.a5 a3.b5")
    'a1-b1'
    """
    return name.split()[0]


def parse_unit(text, source="unit"):
    """The :class:`Unit` named ``text``: ``a1-h1 b3.c5 g3.e4`` (``-`` or nothing for no moves); else a one-line error.

    >>> parse_unit("a1-h1 b3.c5 g3").name
    'a1-h1 b3.c5 g3'
    >>> parse_unit("a1-h1 - g3").prefix, parse_unit("a1-h1").name
    ((0,), 'a1-h1 - -')
    """
    parts = str(text).split()
    if not 1 <= len(parts) <= 3 or parts[0].count("-") != 1:
        raise LabyrinthError("not a unit name like 'a1-h1 b3.c5 g3.e4' (the cells of 1 and 64, then of 2, 3... "
                             "and of 63, 62...)", source=source, token=str(text))
    s, e = parts[0].split("-")
    moves = [[c for c in part.split(".") if c] if part != "-" else [] for part in parts[1:]] + [[], []]
    pre = tuple(_cell_of(c, text, source) for c in [s] + moves[0])
    suf = tuple(_cell_of(c, text, source) for c in [e] + moves[1])
    cells = pre + suf
    if len(set(cells)) != len(cells):
        raise LabyrinthError("a cell is named twice", source=source, token=str(text))
    for walk in (pre, suf):
        for a, b in zip(walk, walk[1:]):
            if not _knight(a, b):
                raise LabyrinthError(f"{cell_name(a)} to {cell_name(b)} is not a knight's move", source=source,
                                     token=str(text))
    return Unit(pre, suf)


# --- symmetries and the plan -------------------------------------------------------------------
@lru_cache(maxsize=1)
def _symmetries():
    """The board's 8 symmetries as tuples ``p`` (cell ``c`` goes to ``p[c]``), the identity first."""
    out = []
    for t in range(8):
        p = []
        for c in range(SIZE):
            x, y = c % N, c // N
            if t & 1:
                x = N - 1 - x
            if t & 2:
                y = N - 1 - y
            if t & 4:
                x, y = y, x
            p.append(y * N + x)
        out.append(tuple(p))
    return tuple(out)


def _colour(c):
    return (c % N + c // N) & 1


def _images(s, e):
    """The 16 images of the pair (cell of 1, cell of 64): ``(pair, symmetry, reversed)``."""
    return [((p[e], p[s]) if rev else (p[s], p[e]), p, rev) for p in _symmetries() for rev in (False, True)]


@lru_cache(maxsize=4)
def pair_orbits(closed=False):
    """One pair (cell of 1, cell of 64) of each orbit, the least: 136 pairs, 21 of them a knight's move apart.

    >>> len(pair_orbits()), len(pair_orbits(closed=True))
    (136, 21)
    """
    reps = set()
    for s in range(SIZE):
        for e in range(SIZE):
            if _colour(s) != _colour(e) and (not closed or _knight(s, e)):
                reps.add(min(pair for pair, _, _ in _images(s, e)))
    return tuple(sorted(reps))


def same_orbit_pairs(closed=False):
    """The pairs of the plan (``"c2-f2"``: cells of 1 and 64) whose two ends lie in one orbit of the board.

    A class with such ends is the one the puzzle author's search finds twice
    (:func:`scheme_count`); run first (``--first same-orbit``), they say how
    many there are long before the whole enumeration ends.

    >>> len(same_orbit_pairs()), same_orbit_pairs()[:3]
    (22, ('a1-h1', 'b1-g1', 'b1-h2'))
    """
    syms = _symmetries()
    return tuple(f"{cell_name(s)}-{cell_name(e)}" for s, e in pair_orbits(closed)
                 if min(p[s] for p in syms) == min(p[e] for p in syms))


def _knight(a, b):
    return sorted((abs(a % N - b % N), abs(a // N - b // N))) == [1, 2]


def _walks(start, depth, avoid):
    """Every extension of the walk ``start`` (a tuple of cells) by ``depth`` knight's moves onto new cells."""
    out = [tuple(start)]
    for _ in range(depth):
        out = [w + (o,) for w in out for o in range(SIZE) if _knight(w[-1], o) and o not in w and o not in avoid]
    return out


def plan_units(conditions=Conditions(), depth=DEPTH, scope=None):
    """The units of the enumeration under ``conditions``, in a fixed order (see the module's docstring).

    ``scope`` (a :class:`Unit` or its name) restricts the plan to the tours
    that begin and end as it does: its units extend it by ``depth`` moves at
    each end (no symmetry is used then). A part of the work that can be
    handed out on its own, and the small plans of the tests.
    """
    scope = scope.name if isinstance(scope, Unit) else scope
    return list(_plan(conditions, depth, scope))


@lru_cache(maxsize=8)
def _plan(conditions, depth, scope):
    """:func:`plan_units` as a tuple, kept: a status or a report asks for the same plan more than once (~0.3 s)."""
    if scope is not None:
        scope = parse_unit(scope)
        if not _closes_ok(scope, conditions):
            return ()
        return tuple(Unit(pre, suf) for pre in _walks(scope.prefix, depth, set(scope.suffix))
                     for suf in _walks(scope.suffix, depth, set(pre)))
    units = []
    for s, e in pair_orbits(conditions.needs_closed):
        stab = [(p, rev) for pair, p, rev in _images(s, e) if pair == (s, e)]
        for pre in _walks((s,), depth, {e}):
            for suf in _walks((e,), depth, set(pre)):
                images = [(tuple(p[c] for c in suf), tuple(p[c] for c in pre)) if rev
                          else (tuple(p[c] for c in pre), tuple(p[c] for c in suf)) for p, rev in stab]
                if min(images) == (pre, suf):
                    units.append(Unit(pre, suf))
    return tuple(units)


def _closes_ok(unit, conditions):
    """A scope's ends: on opposite colours, and a knight's move apart when the tours must be closed."""
    s, e = unit.prefix[0], unit.suffix[0]
    return _colour(s) != _colour(e) and (not conditions.needs_closed or _knight(s, e))


# --- one unit --------------------------------------------------------------------------------
#: unions of rows (and of columns) three or more apart: no knight's move joins them, so their numbers are
#: pairwise non-consecutive like a line's; bounded as one more line each (the ones that paid, of all 19 such sets:
#: with the 16 rows and columns they make 32 lines, four whole vectors of the kernel's line loop)
UNIONS = ((0, 3), (4, 7), (0, 3, 6), (1, 4, 7), (0, 3, 7), (0, 4, 7), (0, 5), (2, 7))
#: the line count is padded to a multiple of this with inert lines (no cells, target 0): the kernel's line loop
#: is vectorised, and a ragged tail costs more than the idle lanes
LINE_PAD = 8


@lru_cache(maxsize=4)
def _tables(diagonals):
    """The kernel's tables: knight moves (bitboards), each cell's lines, ``off[c, line]`` and each line's target.

    Lines: the 8 rows, the 8 columns, the two diagonals (``diagonals``), then
    the :data:`UNIONS` of rows and of columns, then inert lines up to a
    multiple of :data:`LINE_PAD`. ``off[c, line]`` is the least
    number of moves from a head on ``c`` to a cell of the line, less 1 (a
    move changes each coordinate by 1 or 2, never by 0, and never stays on
    a diagonal); a union takes its lines' least. The line tables are int16
    (the kernel's line state too): its line loop is vectorised.
    """
    kn = np.zeros(SIZE, np.uint64)
    for c in range(SIZE):
        for o in range(SIZE):
            if _knight(c, o):
                kn[c] |= np.uint64(1) << np.uint64(o)
    base = 2 * N + (2 if diagonals else 0)
    unions = [[b + r for r in rows] for rows in UNIONS for b in (0, N)]
    lines = -(-(base + len(unions)) // LINE_PAD) * LINE_PAD
    cell_lines = np.full((SIZE, 2 + 2 + 2 * len(UNIONS)), -1, np.int64)
    off = np.zeros((SIZE, lines), np.int16)
    for c in range(SIZE):
        x, y = c % N, c // N
        ls = [y, N + x]
        if diagonals and x == y:
            ls.append(2 * N)
        if diagonals and x + y == N - 1:
            ls.append(2 * N + 1)
        ls += [base + i for i, members in enumerate(unions) if y in members or N + x in members]
        cell_lines[c, :len(ls)] = ls
        for ln in range(2 * N):
            d = abs(ln - y) if ln < N else abs(ln - N - x)
            off[c, ln] = (2 if d == 0 else (d + 1) // 2) - 1
        if diagonals:
            off[c, 2 * N] = int(x == y)
            off[c, 2 * N + 1] = int(x + y == N - 1)
        for i, members in enumerate(unions):
            off[c, base + i] = min(off[c, ln] for ln in members)
    targets = np.array([MAGIC_SUM] * base + [MAGIC_SUM * len(m) for m in unions], np.int16)
    targets = np.concatenate([targets, np.zeros(lines - len(targets), np.int16)])
    return kn, cell_lines, off, targets


@lru_cache(maxsize=4)
def _line_masks(diagonals):
    """The kernel's ``lmask`` (bitboards): ``[0, line]`` the line's cells, ``[o, line]`` (o = 1, 2) the cells off it at ``off`` o or more."""
    _kn, cell_lines, off, _t = _tables(diagonals)
    lmask = np.zeros((3, off.shape[1]), np.uint64)
    for c in range(SIZE):
        bit = np.uint64(1) << np.uint64(c)
        for ln in range(off.shape[1]):
            if ln in cell_lines[c]:
                lmask[0, ln] |= bit
            else:
                for o in (1, 2):
                    if off[c, ln] >= o:
                        lmask[o, ln] |= bit
    return lmask


@dataclasses.dataclass
class UnitResult:
    """What one unit gave: its name, whether it finished, the tours (cells in number order), nodes, seconds."""

    name: str
    finished: bool
    tours: tuple
    nodes: int
    seconds: float

    def to_json(self):
        return {"tours": [list(t) for t in self.tours], "nodes": self.nodes, "seconds": round(self.seconds, 3)}


def run_unit(unit, conditions=Conditions(), *, deadline=None, slice_nodes=SLICE_NODES):
    """Search one unit: every tour in it meeting ``conditions`` (each re-checked), or unfinished past ``deadline``.

    ``deadline`` is a ``time.time()``, looked at between slices of ``slice_nodes`` nodes.
    """
    if isinstance(unit, str):
        unit = parse_unit(unit)
    t0 = time.perf_counter()
    kn, cell_lines, off, targets = _tables(conditions.diagonals)
    lmask = _line_masks(conditions.diagonals)
    state = _k.new_state(off.shape[1], SIZE)
    out = np.zeros((BUFFER, SIZE), np.int64)
    colour = _colour(unit.prefix[0])
    odd = np.uint64(sum(1 << c for c in range(SIZE) if _colour(c) == colour))
    _k.start(kn, cell_lines, targets, odd, np.asarray(unit.prefix, np.int64), np.asarray(unit.suffix, np.int64),
             *state)
    regs = state[0]
    tours = []
    while True:
        done = _k.run(kn, cell_lines, odd, off, lmask, *state, out, slice_nodes)
        for row in out[:regs[_k.R_OUT]]:
            tours.append(_checked(row, conditions))
        regs[_k.R_OUT] = 0
        if done or (deadline is not None and time.time() > deadline):
            return UnitResult(unit.name, bool(done), tuple(tours), int(regs[_k.R_NODES]), time.perf_counter() - t0)


def _checked(numbers, conditions):
    cells = [0] * SIZE
    for c, k in enumerate(numbers):
        cells[int(k) - 1] = c
    faults = check_magic(cells, conditions)
    if faults:
        from oracle.base import OracleBug

        raise OracleBug(f"the semi-magic search returned a tour that fails the check: {faults[0]}")
    return tuple(cells)


def run_units(units, conditions=Conditions(), *, deadline=None, jobs=1, stop_at_first=False):
    """Run ``units`` (in order) in this process or on ``jobs`` forked processes, yielding a :class:`UnitResult` each.

    Past ``deadline`` the running units stop unfinished and the rest are not
    started; with ``stop_at_first`` the run ends after the first unit that
    found a tour (a generator: the caller may also stop early). For the
    whole enumeration, use the resumable campaign (:mod:`verify.semimagic_campaign`).
    """
    names = [u if isinstance(u, str) else u.name for u in units]
    if jobs <= 1 or len(names) <= 1:
        for name in names:
            if deadline is not None and time.time() > deadline:
                return
            res = run_unit(name, conditions, deadline=deadline)
            yield res
            if stop_at_first and res.tours:
                return
        return
    with WorkerPool(jobs) as pool:
        results = pool.map_unordered(_pool_unit, [(n, conditions, deadline) for n in names])
        try:
            for res in results:
                yield res
                if stop_at_first and res.tours:
                    return
        finally:
            results.close()  # the caller stopped early: the units still running are given up


def _pool_unit(name, conditions, deadline):
    if deadline is not None and time.time() > deadline:
        return UnitResult(name, False, (), 0, 0.0)
    return run_unit(name, conditions, deadline=deadline)


# --- classes and counts ----------------------------------------------------------------------
def summarize(tours):
    """Classes and counts of a set of tours: ``{classes, tours, closed_classes, open_classes, ...}``.

    ``classes`` are the least tours (:func:`canonical`) of the classes, sorted;
    ``tours`` counts every tour of every class (the orbits' union).
    """
    classes = sorted({canonical(t) for t in tours})
    every = set()
    for c in classes:
        every |= orbit(c)
    closed = sum(1 for c in classes if is_closed(c))
    diag = sorted({_diagonal_pair(t) for t in every}, key=lambda d: (abs(d[0] - MAGIC_SUM) + abs(d[1] - MAGIC_SUM), d))
    return {"classes": classes, "tours": len(every), "closed_classes": closed, "open_classes": len(classes) - closed,
            "closed_tours": sum(1 for t in every if is_closed(t)), "best_diagonals": diag[:3],
            "grids": [grid_of(c) for c in classes]}


def _diagonal_pair(cells):
    g = grid_of(cells)
    main = sum(g[i * N + i] for i in range(N))
    anti = sum(g[i * N + N - 1 - i] for i in range(N))
    return tuple(sorted((main, anti)))


#: the puzzle author's start fields in the order he lists them (A1, B1, B2, C1, C2, C3, D1, D2, D3, D4): one cell
#: per orbit of the board's symmetries
START_FIELDS = (0, 1, 9, 2, 10, 18, 3, 11, 19, 27)


def scheme_count(classes, order=START_FIELDS):
    """How many tours of ``classes`` the puzzle author's search reports: his count of "different" tours.

    His search (the puzzle page, "acceleration by symmetry" and "by
    parallelization") starts only on the 10 start fields; from a start field
    it allows only ends whose field (the start field of the end's orbit)
    comes no earlier in ``order``, to skip the reversed tours; of the
    openings (first 10 moves) that are images of each other it keeps one;
    it reports every tour it finds. A class is then reported once, or twice
    when its two ends lie in one orbit: the tour and the image of its
    reversal both start on that start field, and their openings are not
    images of each other. A diagonal start field (A1, B2, C3, D4) starts two
    of a class's tours, a tour and its mirror image in that diagonal, but
    their openings are mirror images too, so one of them is never searched.
    The count does not depend on ``order``.
    """
    field = {}
    for c in range(SIZE):
        field[c] = next(f for f in order if f in {p[c] for p in _symmetries()})
    rank = {f: i for i, f in enumerate(order)}
    count = 0
    for cls in classes:
        found = [t for t in orbit(cls) if t[0] in rank and rank[field[t[-1]]] >= rank[t[0]]]
        # a tour and its image under a symmetry that keeps the start field: one opening of the two is searched
        count += len({min(tuple(p[c] for c in t) for p in _symmetries() if p[t[0]] == t[0]) for t in found})
    return count
