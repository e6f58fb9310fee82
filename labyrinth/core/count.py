"""Every Hamiltonian path of a leaper's move graph, counted exactly: per start cell, closed tours, classes under symmetry.

The graph is named by its board side and leaps (``n, leaps``: the number
puzzle's ``((3, 0), (2, 2))``, the knight's ``((1, 2),)``), so that worker
processes rebuild it from two small values. What is counted, on an n x n board
(``size = n * n`` cells):

* ``per_start[c]``: the directed Hamiltonian paths that start on cell ``c``
  (the solutions that write 1 there); ``paths`` is their sum. A path and
  its reverse are two solutions (they start on different cells);
* ``cycles``: the Hamiltonian cycles, undirected and without a start (the
  closed solutions up to where 1 is written and the direction). Every cycle
  passes through every cell in two directions, so ``closed_per_start`` is
  ``2 * cycles`` on every cell and ``closed`` (the closed solutions) is
  ``size * 2 * cycles``;
* ``classes``: the classes of paths under the board's symmetries (the
  rotations and reflections that map moves to moves, :meth:`MoveGraph.symmetries`)
  and reversal, by Burnside's lemma over the group ``G x {identity, reversal}``:
  ``classes = (sum over g of fix(g) + fix(g reversed)) / (2 |G|)``. A
  symmetry other than the identity fixes no path (it would fix every cell);
  ``g`` composed with reversal fixes a path only when ``g`` is an involution,
  and those paths are counted directly, by their first halves
  (:func:`~labyrinth.core._count_mirror.mirror_start`):
  exact, and far cheaper than a canonical form of every path found (there
  are billions on 7x7).

On a bipartite graph (the knight's) a unit whose free cells cannot
alternate in colour from the head to an allowed end is counted 0 at once
(the colour balance: a path through every free cell alternates colours, so
the free cells of the head's colour number ``floor(k / 2)`` of ``k``, and
the last one has the head's colour iff ``k`` is even). The balance is the
same after every move of a path, so it is checked once, at the unit's root;
it settles the 5x5 knight's starts on the minority colour, and odd boards'
closed tours, without a search.

How the work is cut (the number puzzle author's idea, generalised): a path and its
images under the symmetries have the same count of completions, so only
one prefix (the first ``depth`` moves) of each orbit is searched, and its
count is credited to the start cell of every distinct image. A start cell
off the axes thus stands for its 8 images; a start on a diagonal, whose
stabiliser is a reflection, has its first moves searched up to that
reflection. Each searched prefix is a *unit*; the closed tours are counted
from one cell of fewest moves ``s`` (a cycle through ``s`` uses two of its
neighbours ``a < b``: the paths ``s, a, ..., b``), in units by first moves.

Units run through :mod:`labyrinth.jobs.executors`, like an audit's: in this
process, on local worker processes (``jobs``) or on Ray (``executor="ray"``),
each worker keeping its memo table between units. Each unit runs the numba
search (:mod:`labyrinth.core._count_kernel`) in slices and stops
at the deadline: then the count is unknown, and :class:`TimeLimitError` is
raised (no partial total is ever returned). Finished units can be logged
(``log``) so that a rerun skips them.

>>> from labyrinth.puzzles.numbers import LEAPS
>>> r = count_paths(5, LEAPS)
>>> r.paths, r.per_start[0], r.cycles, r.classes
(12400, 552, 48, 777)
"""

import collections
import dataclasses
import json
import os
import time

import numpy as np

from labyrinth.core import _count_kernel as _k
from labyrinth.core import _count_mirror
from labyrinth.core.count_plan import MAX_CELLS, Plan, _perms, plan
from labyrinth.core.graph import move_graph
from labyrinth.errors import LabyrinthError, TimeLimitError

__all__ = ["MAX_CELLS", "PathCount", "Plan", "count_paths", "plan"]

#: nodes per slice of a unit's search (about a quarter of a second), between looks at the deadline and at a stop
SLICE_NODES = 1 << 19
#: the memo keeps states with size/4 to size/2 + MEMO_ABOVE_HALF free cells, every MEMO_STEP-th level
MEMO_ABOVE_HALF = 6
MEMO_STEP = 3
#: forced-edge propagation from this many free cells up
PROP_MIN = 8


@dataclasses.dataclass(frozen=True)
class PathCount:
    """The exact counts of one board (see the module's docstring for what each one is).

    ``fixed_by_reversal[i]`` is the number of paths that symmetry ``i``
    (in :meth:`MoveGraph.symmetries` order) composed with reversal maps onto
    themselves; ``units`` and ``nodes`` say how much searching it took, ``seconds`` the wall time.
    """

    n: int
    per_start: tuple
    paths: int
    cycles: int
    closed_per_start: int
    closed: int
    classes: int
    group_order: int
    fixed_by_reversal: tuple
    units: int
    nodes: int
    seconds: float

    @property
    def undirected(self):
        """The paths up to direction (a path of one cell is its own reverse)."""
        if self.paths is None:
            return None
        return self.paths if self.n == 1 else self.paths // 2

    def grid(self):
        """``per_start`` as rows of the board (row 1 first)."""
        return [list(self.per_start[y * self.n:(y + 1) * self.n]) for y in range(self.n)]

    def to_json(self):
        return {"n": self.n, "paths": self.paths, "undirected": self.undirected,
                "per_start": None if self.per_start is None else self.grid(), "cycles": self.cycles,
                "closed_per_start": self.closed_per_start, "closed": self.closed, "classes": self.classes,
                "group_order": self.group_order, "fixed_by_reversal": list(self.fixed_by_reversal),
                "units": self.units, "nodes": self.nodes, "seconds": round(self.seconds, 3)}


# --- worker side ---------------------------------------------------------------------------------------------
_CTX = {}


def default_memo_log2(n):
    """Memo slots (log2) per worker: 16 bytes each, so 2**24 is 256 MB."""
    return 12 if n <= 5 else 22 if n == 6 else 24


def memo_band(size):
    """The free cells (low, high, step) of the states kept in the memo (measured on 6x6 and 7x7)."""
    return max(6, size // 4), size // 2 + MEMO_ABOVE_HALF, MEMO_STEP


def _init(memo_log2):
    """Set up a worker: its memo tables are made on first use, for each board and end set."""
    _CTX.clear()
    _CTX["args"] = (memo_log2,)


def _ensure(init_args):
    if _CTX.get("args") != tuple(init_args):
        _init(*init_args)


def _ray_task(init_args, fn, fargs):
    """One unit on a Ray worker: the worker keeps its memo tables between units."""
    _ensure(init_args)
    return fn(*fargs)


def _table(n, leaps, ends):
    """The memo table of this worker for the graph ``(n, leaps)`` and end set ``ends`` (None: any end)."""
    key = (n, tuple(leaps), ends)
    tables = _CTX.setdefault("tables", {})
    table = tables.get(key)
    if table is None:
        log2 = _CTX.get("args", (default_memo_log2(n),))[0]
        if ends is not None:
            # the closed units of one first move share a table; the last such table is dropped
            for old in [k for k in tables if k[2] is not None]:
                del tables[old]
            log2 = max(10, log2 - 2)
        table = tables[key] = _k.new_table(log2)
    return table


def _count_unit(n, leaps, name, kind, cells, ends, deadline):
    """Run one unit: ``(name, kind, count or None when the deadline passed, nodes, seconds, pid)``."""
    t0 = time.perf_counter()
    leaps = _leaps(leaps)
    graph = move_graph(n, leaps)
    nb = np.ascontiguousarray(graph.neighbours, dtype=np.int64)
    if kind != "fixed" and not _balanced(graph, cells, ends if kind == "closed" else None):
        return name, kind, 0, 1, time.perf_counter() - t0, os.getpid()
    if kind == "fixed":
        perm = np.asarray(graph.symmetries()[cells[0]], dtype=np.int64)
        starts = [cells[1:]] if len(cells) > 1 else [(c,) for c in range(graph.size) if perm[c] != c]
        count = nodes = 0
        for prefix in starts:
            state = _count_mirror.mirror_start(nb, perm, np.asarray(prefix, dtype=np.int64))
            while not _count_mirror.mirror_run(nb, perm, *state, SLICE_NODES):
                if deadline is not None and time.time() > deadline:
                    return name, kind, None, nodes + int(state[4][2]), time.perf_counter() - t0, os.getpid()
            count += int(state[4][1])
            nodes += int(state[4][2])
        return name, kind, count, nodes, time.perf_counter() - t0, os.getpid()
    end_ok = np.ones(graph.size, dtype=np.uint8)
    if kind == "closed":
        end_ok[:] = 0
        end_ok[list(ends)] = 1
    table = _table(n, leaps, tuple(ends) if kind == "closed" else None)
    lo, hi, step = memo_band(graph.size)
    stats = np.zeros((graph.size + 1, 3), dtype=np.int64)
    state = _k.start(nb, np.asarray(cells, dtype=np.int64), end_ok)
    while not _k.run(nb, *state, table, lo, hi, step, PROP_MIN, stats, SLICE_NODES):
        if deadline is not None and time.time() > deadline:
            return name, kind, None, int(state[2][_k.R_NODES]), time.perf_counter() - t0, os.getpid()
    reg = state[2]
    count = int(reg[_k.R_HI]) * int(_k.BASE) + int(reg[_k.R_LO])
    return name, kind, count, int(reg[_k.R_NODES]), time.perf_counter() - t0, os.getpid()


def _balanced(graph, prefix, ends):
    """False when the colours rule out every completion of ``prefix`` (ending on ``ends``; None: anywhere).

    On a bipartite graph the rest of the path alternates colours from the
    head: of its ``k`` free cells, ``ceil(k / 2)`` have the other colour, and
    the last has the head's colour iff ``k`` is even.
    """
    if not graph.bipartite or len(prefix) >= graph.size:
        return True
    colour = graph.colour
    head = colour[prefix[-1]]
    taken = set(prefix)
    k = graph.size - len(taken)
    other = sum(1 for c in range(graph.size) if c not in taken and colour[c] != head)
    if other != (k + 1) // 2:
        return False
    last = head if k % 2 == 0 else -head
    return ends is None or any(colour[e] == last for e in ends)


# --- driver side ---------------------------------------------------------------------------------------------
class _Queue:
    """The units of a count as :mod:`labyrinth.jobs.executors` takes them (its claims interface, with no store)."""

    def __init__(self, tasks):
        self.queue = collections.deque(tasks)
        self.stopped = False

    def take(self):
        from labyrinth.jobs.claims import DONE

        if self.stopped or not self.queue:
            return DONE
        return self.queue.popleft()

    def wait_take(self):
        task = self.take()
        return None if not isinstance(task, tuple) else task

    def beating(self):
        pass

    def close(self):
        pass


def read_log(path, n, leaps=None):
    """Units already counted, from a log file written by :func:`count_paths` (name -> (count, nodes)).

    A line of another board, or of another graph (``leaps``; a line without them is the number
    puzzle's, the only one counted before the count took any graph), is skipped.
    """
    done = {}
    try:
        with open(path, encoding="utf-8") as fh:
            for i, line in enumerate(fh):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                    other = leaps is not None and _leaps(rec.get("leaps", _LEGACY_LEAPS)) != _leaps(leaps)
                    if rec["n"] == n and not other:
                        done[rec["unit"]] = (int(rec["count"]), int(rec.get("nodes", 0)))
                except (ValueError, KeyError, TypeError):
                    raise LabyrinthError("not a unit log line (JSON with n, unit, count)", source=f"{path}:{i + 1}") \
                        from None
    except FileNotFoundError:
        pass
    except OSError as err:
        raise LabyrinthError(f"cannot read: {err.strerror or err}", source=str(path)) from None
    return done


#: the leaps of a log line that names none (written when only the number puzzle was counted)
_LEGACY_LEAPS = ((2, 2), (3, 0))


def _leaps(leaps):
    return tuple(sorted(tuple(int(v) for v in leap) for leap in leaps))


def count_paths(n, leaps, *, open_paths=True, closed=True, jobs=1, executor="local", address=None, time_limit=None,
                depth=None, closed_depth=None, memo_log2=None, log=None, progress=None):
    """Count the Hamiltonian paths and cycles of the ``leaps`` graph on an n x n board exactly (see :class:`PathCount`).

    Parameters
    ----------
    leaps : tuple of (int, int)
        The leapers whose moves make the graph (:func:`~labyrinth.core.graph.move_graph`).
    open_paths, closed : bool
        Count the paths (per start cell, and their classes), the closed tours, or both.
        A part not counted is None in the result.
    jobs : int
        Worker processes (local), or CPUs of a local Ray cluster.
    executor : str
        ``local`` (this process when ``jobs`` is 1) or ``ray`` (``address``: a running cluster).
    time_limit : float or None
        Seconds for the whole count; past it :class:`TimeLimitError` (the count is unknown).
    depth, closed_depth : int or None
        Moves in an open (closed) unit's prefix (default: by board size; ``closed_depth`` follows ``depth``).
    memo_log2 : int or None
        Memo slots per worker, log2 (16 bytes each; default by board size).
    log : path or None
        Append every finished unit to this file (JSON lines) and skip those it already holds.
    progress : callable or None
        ``progress(done, total)`` after every unit.
    """
    from labyrinth.jobs.executors import run_local, run_ray, run_serial

    t0 = time.perf_counter()
    deadline = None if time_limit is None else time.time() + time_limit
    leaps = _leaps(leaps)
    graph = move_graph(n, leaps)
    the_plan = plan(n, leaps, depth=depth, open_paths=open_paths, closed=closed,
                    closed_depth=depth if closed_depth is None else closed_depth)
    done = read_log(log, n, leaps) if log is not None else {}
    results = {}
    nodes = 0
    for name, *_ in the_plan.units:
        if name in done:
            results[name] = done[name][0]
            nodes += done[name][1]
    memo_log2 = default_memo_log2(n) if memo_log2 is None else int(memo_log2)
    init_args = (memo_log2,)
    tasks = [(_count_unit, (n, leaps, name, kind, cells, ends, deadline), name)
             for name, kind, cells, ends in the_plan.units if name not in results]
    queue = _Queue(tasks)
    late = []
    total = len(the_plan.units)
    logfile = open(log, "a", encoding="utf-8") if log is not None and tasks else None  # noqa: SIM115

    def finish(result):
        nonlocal nodes
        name, kind, count, unit_nodes, seconds, pid = result
        if count is None:
            late.append(name)
            queue.stopped = True
            return
        results[name] = count
        nodes += unit_nodes
        if logfile is not None:
            logfile.write(json.dumps({"n": n, "leaps": [list(v) for v in leaps], "unit": name, "count": count,
                                      "nodes": unit_nodes,
                                      "seconds": round(seconds, 3), "pid": pid}) + "\n")
            logfile.flush()
        if progress is not None:
            progress(len(results), total)
        if deadline is not None and time.time() > deadline:
            queue.stopped = True

    try:
        if progress is not None:
            progress(len(results), total)
        if not tasks:
            pass
        elif executor == "ray":
            run_ray(queue, _ray_task, init_args, jobs, address, finish)
        elif executor != "local":
            raise LabyrinthError("unknown executor (local or ray)", token=executor)
        elif jobs <= 1 or len(tasks) <= 1:
            _init(*init_args)  # fresh memo tables: each count starts cold, and frees them at the end
            run_serial(queue, lambda: _ensure(init_args), finish)
        else:
            _warm_up()  # load the kernels once here, not in every forked worker
            run_local(queue, _init, init_args, jobs, finish)
    finally:
        if logfile is not None:
            logfile.close()
        if executor == "local" and (jobs <= 1 or len(tasks) <= 1):
            _CTX.pop("tables", None)
    missing = total - len(results)
    if late or missing:
        raise TimeLimitError(f"the {n}x{n} count ran out of time with {missing} of {total} units left: "
                             "the totals are unknown" + (f" (finished units are kept in {log})" if log else ""))
    return _assemble(graph, the_plan, results, open_paths, closed, nodes, time.perf_counter() - t0)


#: the 3x3 graph whose count loads every kernel (the number puzzle's: it has units of every kind)
_WARM_LEAPS = ((2, 2), (3, 0))


def _warm_up():
    """Load every kernel of a unit (a 3x3 count of each kind: numba's cache is read once per process)."""
    saved = dict(_CTX)
    _init(10)
    for name, kind, cells, ends in plan(3, _WARM_LEAPS).units:
        _count_unit(3, _WARM_LEAPS, name, kind, cells, ends, None)
    _CTX.clear()
    _CTX.update(saved)


def _assemble(graph, the_plan, results, open_paths, closed, nodes, seconds):
    perms = _perms(graph)
    per_start = paths = classes = None
    fixed = ()
    if open_paths:
        counts = [0] * graph.size
        for name, kind, _, _ in the_plan.units:
            if kind == "open":
                for s in the_plan.images[name]:
                    counts[s] += results[name]
        per_start = tuple(counts)
        paths = sum(counts)
        fixed = [0] * len(perms)
        for name, kind, cells, _ in the_plan.units:
            if kind == "fixed":
                fixed[cells[0]] += results[name]
        if graph.size == 1:
            fixed = [1] * len(perms)  # the one path is its own reverse, under every (identity) symmetry
        fixed = tuple(fixed)
        identity = tuple(range(graph.size))
        burnside = sum(paths if p == identity else 0 for p in perms) + sum(fixed)
        if burnside % (2 * len(perms)):
            raise AssertionError(f"Burnside's sum {burnside} is not a multiple of {2 * len(perms)}")
        classes = burnside // (2 * len(perms))
    cycles = closed_per_start = closed_total = None
    if closed:
        cycles = sum(results[name] for name, kind, _, _ in the_plan.units if kind == "closed")
        closed_per_start = 2 * cycles
        closed_total = graph.size * closed_per_start
    return PathCount(n=graph.n, per_start=per_start, paths=paths, cycles=cycles,
                        closed_per_start=closed_per_start, closed=closed_total, classes=classes,
                        group_order=len(perms), fixed_by_reversal=fixed, units=len(the_plan.units), nodes=nodes,
                        seconds=seconds)
