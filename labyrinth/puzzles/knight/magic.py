"""Magic knight's tours on 8x8 (docs/knight.md): find one, enumerate all, or prove there is none.

The puzzle page's seven conditions: (1-2) a knight's tour numbered 1..64,
(3-4) every column and every row sums to 260 (*semi-magic*), (5) closed:
64 is a knight's move from 1, (6) symmetric about the centre, (7) both
diagonals sum to 260 too (*magic*). Rows and columns are always required;
:class:`Conditions` chooses 5, 6 and 7.

What a *tour* is here: a numbered path 1..64 (the magic property depends on
the numbering). A closed tour numbered from another cell, or backwards, is
another tour. Tours fall into *classes* under the 8 symmetries of the board
and reversal (number ``i`` becomes ``65 - i``), a group of 16 that keeps
every condition; most classes have 16 tours. The literature (Stertenbrink's
enumeration, 2003; Jelliss, *Knight's Tour Notes*): 140 classes of semi-magic
tours, 2 240 tours, 63 classes closed, none with both diagonals 260.

*Symmetric about the centre* (condition 6), derived from the puzzle page's argument: the
route is its own image under the half turn ``rot``. The image of a tour is a
tour on the same cells, so ``rot`` acts on the numbering as a symmetry of the
path. An open path's only non-trivial symmetry is its reversal, which would
map the middle move (32 -> 33) onto itself; no knight's move is its own image
under the half turn (its midpoint would be the centre, so both of its sides
odd), so a symmetric route is closed, as the puzzle page says. On a closed tour
the half turn is a symmetry of the 64-cycle without fixed cells (no cell is
its own image on 8x8) and without a fixed move (as above): among the
rotations and reflections of a 64-cycle only the shift by 32 is such an
involution. So: **the image of the cell numbered i holds i + 32 (mod 64, in
1..64)**, e.g. 43 at a1 and 11 at h8 in the puzzle author's best symmetric tour (his figure 2).

Two searches stand behind :func:`find_magic` and :func:`enumerate_magic`
(``backend``):

* ``search`` (default): a depth-first search in numba writing 1, 2, 3...
  along the path and cutting a branch when a row or column can no longer
  reach 260 (the puzzle author's method; :mod:`._magic_kernel`). With the
  symmetry it writes only 1..32 (the images get 33..64), which is why the
  symmetric tours are all enumerated in well under a minute;
* ``cpsat``: an OR-Tools CP-SAT model (:mod:`._magic_cpsat`): ``AddCircuit``
  over the knight's graph, a position per cell, linear sums.

Every tour returned has passed :func:`check_magic`, which knows only the
definitions (coordinates, numbers, sums), nothing of either search.
"""

import dataclasses
import random
import time

from labyrinth.core.graph import random_image
from labyrinth.core.path import PathState
from labyrinth.errors import BackendError, LabyrinthError, TimeLimitError
from labyrinth.puzzles.knight._magic_common import (
    ALL,
    FOUND,
    MAGIC_SUM,
    NONE,
    SIZE,
    UNKNOWN,
    Conditions,
    N,
    _knight,
    canonical,
    check_magic,
    geometry_key,
    grid_of,
    is_closed,
    orbit,
)
from labyrinth.puzzles.knight.board import knight_graph, knight_puzzle

BACKENDS = ("search", "cpsat")

__all__ = [
    "ALL",
    "FOUND",
    "MAGIC_SUM",
    "N",
    "NONE",
    "SIZE",
    "UNKNOWN",
    "Conditions",
    "MagicResult",
    "canonical",
    "check_magic",
    "enumerate_magic",
    "find_magic",
    "geometry_key",
    "grid_of",
    "is_closed",
    "orbit",
    "require",
]


@dataclasses.dataclass
class MagicResult:
    """The answer of :func:`find_magic` or :func:`enumerate_magic`.

    Attributes
    ----------
    conditions : Conditions
    status : str
        ``found`` (a tour), ``none`` (proven: no tour meets the conditions),
        ``all`` (every tour enumerated) or ``unknown`` (the time limit came
        first: what was found is listed, ``covered`` says how much was searched).
    tours : tuple of PathState
        The tours found (every tour of every class found, with ``all``).
    classes : tuple of PathState
        One tour per class (its least member), in order.
    seconds : float
    backend : str
    nodes : int
        Search nodes (``search`` backend; CP-SAT's branches for ``cpsat``).
    units_done, units_total : int
        Units of work finished and planned (each unit: the tours from one prefix).
    covered : str
        What the search covered, in words (for partial runs: what is still open).
    """

    conditions: Conditions
    status: str
    tours: tuple = ()
    classes: tuple = ()
    seconds: float = 0.0
    backend: str = "search"
    nodes: int = 0
    units_done: int = 0
    units_total: int = 0
    covered: str = ""

    @property
    def closed_tours(self):
        return sum(1 for s in self.tours if _knight(s.path[-1], s.path[0]))

    @property
    def closed_classes(self):
        return sum(1 for s in self.classes if _knight(s.path[-1], s.path[0]))

    @property
    def geometry_classes(self):
        """Distinct figures among the classes (see :func:`geometry_key`)."""
        return len({geometry_key(s) for s in self.classes})

    @property
    def diagonal_classes(self):
        """Classes whose tours also have both diagonals 260 (condition 7)."""
        return sum(1 for s in self.classes if not check_magic(s, Conditions(diagonals=True)))

    def to_json(self):
        return {"conditions": self.conditions.to_json(), "status": self.status, "tours": len(self.tours),
                "classes": len(self.classes), "closed_tours": self.closed_tours,
                "closed_classes": self.closed_classes, "geometry_classes": self.geometry_classes,
                "diagonal_classes": self.diagonal_classes,
                "seconds": round(self.seconds, 3), "backend": self.backend, "nodes": self.nodes,
                "units_done": self.units_done, "units_total": self.units_total, "covered": self.covered,
                "paths": [s.compact() for s in (self.classes or self.tours)],
                "grids": [grid_of(s.path) for s in (self.classes or self.tours)]}


def _state(cells, conditions):
    faults = check_magic(cells, conditions)
    if faults:
        from oracle.base import OracleBug

        raise OracleBug(f"a search returned a tour that fails the check: {faults[0]}")
    return PathState(knight_puzzle(N, closed=conditions.needs_closed), cells)


def _check_args(conditions, time_limit, jobs, backend):
    if not isinstance(conditions, Conditions):
        raise LabyrinthError(f"expected Conditions, got {type(conditions).__name__}", source="conditions")
    if time_limit is not None and not time_limit > 0:
        raise LabyrinthError(f"time limit must be > 0 seconds, got {time_limit}", source="time_limit")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise LabyrinthError(f"jobs must be an integer >= 1, got {jobs!r}", source="jobs")
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend (known: {', '.join(BACKENDS)})", source="backend", token=str(backend))


def _spec(conditions, half):
    return {"n": N, "half": half, "closed": conditions.needs_closed or half, "magic": True,
            "diagonals": conditions.diagonals, "depth": 2 if half else 3}


def find_magic(conditions=Conditions(), *, time_limit=None, seed=None, jobs=1, backend="search"):
    """One tour meeting ``conditions`` (checked), or a proof that none exists, or ``unknown`` past the time limit.

    With the ``search`` backend the centrally symmetric tours are searched
    first, whatever the conditions: each of them meets 1-6, and they are all
    searched in well under a minute. If none meets the conditions and the
    conditions do not ask for symmetry, every tour is searched (the whole
    space: expect ``unknown`` within any practical time limit).

    Parameters
    ----------
    conditions : Conditions
    time_limit : float or None
        Seconds in all (None: no limit).
    seed : int or None
        Shuffle the order of the search's units, and return a random image of
        the tour under the board's symmetries and reversal (None: a fixed order).
    jobs : int
        Worker processes.
    backend : str
        ``search`` (default) or ``cpsat``.
    """
    _check_args(conditions, time_limit, jobs, backend)
    t0 = time.perf_counter()
    deadline = None if time_limit is None else time.time() + time_limit
    rng = random.Random(seed)
    if backend == "cpsat":
        from labyrinth.puzzles.knight._magic_cpsat import solve_cpsat

        status, cells, branches = solve_cpsat(conditions, time_limit=time_limit, seed=seed or 0, workers=jobs)
        tours = ()
        if cells is not None:
            tours = (_state(_image(cells, rng, seed), conditions),)
        return MagicResult(conditions, status, tours, (), time.perf_counter() - t0, "cpsat", branches,
                           covered="the whole space (CP-SAT)" if status != UNKNOWN else "unknown (CP-SAT)")
    nodes = done = total = 0
    parts = []
    for half in (True,) if conditions.symmetric else (True, False):
        units = _unit_count(conditions, half)
        total += units
        order = list(range(units))
        if seed is not None:
            rng.shuffle(order)
        finished = 0
        for res in _results(conditions, half, deadline, jobs, order, True):
            nodes += res.nodes
            finished += res.finished
            for cells in res.tours[:1]:
                done += finished
                state = _state(_image(cells, rng, seed), conditions)
                return MagicResult(conditions, FOUND, (state,), (), time.perf_counter() - t0, "search", nodes,
                                   done, total, _covered(parts + [(half, finished, units)]))
        done += finished
        parts.append((half, finished, units))
        if finished < units:
            return MagicResult(conditions, UNKNOWN, (), (), time.perf_counter() - t0, "search", nodes, done, total,
                               _covered(parts))
    return MagicResult(conditions, NONE, (), (), time.perf_counter() - t0, "search", nodes, done, total,
                       _covered(parts))


def _unit_count(conditions, half):
    if half:
        from labyrinth.puzzles.knight._magic_search import plan

        return len(plan(**_spec(conditions, True)).units)
    from labyrinth.puzzles.knight.semimagic import plan_units

    return len(plan_units(conditions))


def _results(conditions, half, deadline, jobs, order, stop_at_first):
    """The unit results of one search: the symmetric half search, or the semi-magic units (:mod:`.semimagic`)."""
    if half:
        from labyrinth.puzzles.knight._magic_search import run_plan

        yield from run_plan(_spec(conditions, True), order=order, deadline=deadline, jobs=jobs,
                            stop_at_first=stop_at_first)
        return
    from labyrinth.puzzles.knight.semimagic import plan_units, run_units

    units = plan_units(conditions)
    if order is not None:
        units = [units[i] for i in order]
    yield from run_units(units, conditions, deadline=deadline, jobs=jobs, stop_at_first=stop_at_first)


def _image(cells, rng, seed):
    if seed is None:
        return tuple(cells)
    cells = random_image(knight_graph(N), tuple(cells), rng)
    return cells[::-1] if rng.random() < 0.5 else cells


def _covered(parts):
    out = []
    for half, finished, units in parts:
        what = "the centrally symmetric tours" if half else "all tours (semi-magic units)"
        if finished == units:
            out.append(f"{what}: searched completely ({units} units)")
        else:
            out.append(f"{what}: {finished} of {units} units finished (the rest open)")
    return "; ".join(out)


def enumerate_magic(conditions=Conditions(), *, time_limit=None, jobs=1, on_solution=None):
    """Every tour meeting ``conditions``, with the counts of tours and of classes (or what was found in time).

    The search covers every tour whose cell 1 lies in the fundamental region
    of the board (10 cells: one of each orbit of the 8 symmetries); each class
    has a member there, and the class of each tour found is completed by its
    images. ``status`` is ``all`` when every unit finished (``none`` when that
    found nothing), else ``unknown``: the tours and classes found so far are
    listed and ``covered`` says how many units finished.
    ``on_solution(state)`` hears each new class's least tour as it is found.

    With ``symmetric`` the search writes only half of each tour: complete on
    8x8 in well under a minute (see ``reports/knight_magic.md``). Without
    it, the units are those of :mod:`.semimagic` (a pair of cells for 1 and
    64, and the first moves at both ends), which covers the same classes:
    the whole enumeration takes hours, so run it as the resumable campaign
    of :mod:`verify.semimagic_campaign` (``labyrinth knight magic --all``); here
    expect a partial result within any short time limit.
    """
    _check_args(conditions, time_limit, jobs, "search")
    t0 = time.perf_counter()
    deadline = None if time_limit is None else time.time() + time_limit
    half = conditions.symmetric
    classes = {}
    nodes = finished = 0
    for res in _results(conditions, half, deadline, jobs, None, False):
        nodes += res.nodes
        finished += res.finished
        for cells in res.tours:
            key = canonical(cells)
            if key not in classes:
                classes[key] = _state(key, conditions)
                if on_solution is not None:
                    on_solution(classes[key])
    units = _unit_count(conditions, half)
    keys = sorted(classes)
    tours = sorted({t for k in keys for t in orbit(k)})
    status = (ALL if tours else NONE) if finished == units else UNKNOWN
    covered = _covered([(half, finished, units)])
    return MagicResult(conditions, status, tuple(_state(t, conditions) for t in tours),
                       tuple(classes[k] for k in keys), time.perf_counter() - t0, "search", nodes, finished, units,
                       covered)


def require(result, time_limit):
    """Raise :class:`TimeLimitError` for an ``unknown`` answer that found nothing (the CLI's exit 3)."""
    if result.status == UNKNOWN and not result.tours:
        raise TimeLimitError(f"unknown: no answer within {time_limit:g} s ({result.covered})",
                             source=f"knight magic {result.conditions.label}")
    return result
