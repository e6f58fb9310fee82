"""The dedicated search for magic knight's tours: its lines, its units of work, and running them.

A *unit* is the set of tours beginning with a given prefix (a start cell and
a few moves); the units of a plan cover every tour whose first cell lies in
the board's fundamental region (one cell of each orbit of the 8 symmetries),
so every class under those symmetries and reversal has a member among them.

The lines of the half (centrally symmetric) mode follow from the symmetry
``num(rot c) = num(c) + size/2`` (see :func:`half_lines`).
"""

import time

import numpy as np

from labyrinth.core.graph import start_orbits
from labyrinth.jobs.pool import WorkerPool
from labyrinth.puzzles.knight import _magic_kernel as _k

__all__ = ["Plan", "Unit", "UnitResult", "full_lines", "half_lines", "plan", "run_plan", "run_unit", "start_cells"]

#: nodes per slice between two looks at the clock (and at a stop signal: well under a second on any machine)
SLICE_NODES = 1 << 20
#: tours held by the kernel before the caller drains them
BUFFER = 256


def full_lines(w, h, diagonals):
    """Lines of the full mode: every row and column (and, if square, both diagonals) sums to the magic sum.

    Returns ``(cell_lines, slots, targets, top)``: each cell's lines (padded
    with -1), each line's number of cells and target sum, the largest number.
    A row of ``w`` cells holding numbers 1..w*h sums to ``w*(w*h+1)/2`` on average:
    that is the target (the semi-magic condition needs it to be an integer).
    """
    size = w * h
    rows = [[y * w + x for x in range(w)] for y in range(h)]
    cols = [[y * w + x for y in range(h)] for x in range(w)]
    lines = [(r, w * (size + 1) // 2) for r in rows] + [(c, h * (size + 1) // 2) for c in cols]
    if diagonals:
        lines += [([i * w + i for i in range(w)], w * (size + 1) // 2),
                  ([i * w + (w - 1 - i) for i in range(w)], w * (size + 1) // 2)]
    return _arrays(size, [(cells, len(cells), t) for cells, t in lines]) + (size,)


def half_lines(w, h, diagonals):
    """Lines of the half mode, derived from the central symmetry ``num(rot c) = num(c) + size/2``.

    Write ``m = size/2`` and ``S = w*(size+1)/2`` (a row's magic sum). A cell
    of row ``y`` numbered ``a <= m`` puts ``a + m`` on its image in row
    ``h-1-y``. If row ``y`` holds ``k`` first-half numbers (sum ``L_y``), the
    images of row ``h-1-y``'s give it the rest: its sum is ``L_y + L_{h-1-y}
    + (w-k) m``, and row ``h-1-y``'s is ``L_y + L_{h-1-y} + k m``. Both are
    ``S`` exactly when ``k = w/2`` and ``L_y + L_{h-1-y} = S - (w/2) m``: one
    line per pair of rows (``w`` slots, that target) and a count line per row
    (``w/2`` slots). Likewise the columns, and a diagonal (its own image)
    holds one number of each pair: ``2 L + (w/2) m = S``.
    On 8x8: pair target 132, diagonal target 66.

    >>> cl, slots, targets, top = half_lines(8, 8, False)
    >>> sorted(set(int(t) for t in targets)), top
    ([-1, 132], 32)
    """
    size = w * h
    m = size // 2
    row_sum, col_sum = w * (size + 1) // 2, h * (size + 1) // 2
    lines = []
    for y in range(h // 2):
        cells = [yy * w + x for yy in (y, h - 1 - y) for x in range(w)]
        lines.append((cells, w, row_sum - (w // 2) * m))
    for x in range(w // 2):
        cells = [y * w + xx for xx in (x, w - 1 - x) for y in range(h)]
        lines.append((cells, h, col_sum - (h // 2) * m))
    for y in range(h):
        lines.append(([y * w + x for x in range(w)], w // 2, -1))
    for x in range(w):
        lines.append(([y * w + x for y in range(h)], h // 2, -1))
    if diagonals:
        t = (row_sum - (w // 2) * m) // 2
        lines.append(([i * w + i for i in range(w)], w // 2, t))
        lines.append(([i * w + (w - 1 - i) for i in range(w)], w // 2, t))
    return _arrays(size, lines) + (m,)


def _arrays(size, lines):
    per_cell = [[] for _ in range(size)]
    for j, (cells, _slots, _t) in enumerate(lines):
        for c in cells:
            per_cell[c].append(j)
    width = max(1, max(len(p) for p in per_cell))
    cell_lines = np.full((size, width), -1, np.int64)
    for c, ls in enumerate(per_cell):
        cell_lines[c, :len(ls)] = ls
    slots = np.array([s for _c, s, _t in lines] or [0], np.int64)[:len(lines)]
    targets = np.array([t for _c, _s, t in lines] or [0], np.int64)[:len(lines)]
    return cell_lines, slots, targets


class Unit:
    """One unit of work: the tours beginning with ``prefix`` (cells)."""

    __slots__ = ("prefix",)

    def __init__(self, prefix):
        self.prefix = tuple(int(c) for c in prefix)

    def __repr__(self):
        return f"Unit({self.prefix})"


class Plan:
    """What one search covers: the board, the mode and its lines, and the units."""

    def __init__(self, graph, *, half, closed, magic, diagonals, starts, depth, lines=None):
        self.graph = graph
        self.half, self.closed, self.magic, self.diagonals = bool(half), bool(closed), bool(magic), bool(diagonals)
        w, h = graph.width, graph.height
        if lines is not None:
            cl, slots, targets = _arrays(graph.size, lines)
            top = graph.size // 2 if half else graph.size
        elif half:
            cl, slots, targets, top = half_lines(w, h, diagonals) if magic else _no_lines(graph.size, graph.size // 2)
        else:
            cl, slots, targets, top = full_lines(w, h, diagonals) if magic else _no_lines(graph.size, graph.size)
        self.cell_lines, self.slots, self.targets, self.top = cl, slots, targets, top
        self.length = graph.size // 2 if half else graph.size
        self.nb = np.ascontiguousarray(graph.neighbours, dtype=np.int64)
        adj = np.zeros((graph.size, graph.size), np.uint8)
        for c in range(graph.size):
            for o in self.nb[c]:
                if o >= 0:
                    adj[c, o] = 1
        self.adj = adj
        self.starts = tuple(int(c) for c in starts)
        self.units = _prefixes(graph, self.starts, depth, half)

    def args(self):
        return (self.nb, self.adj, self.cell_lines, self.slots, self.targets, self.half, self.closed, self.top,
                self.length)


def _no_lines(size, top):
    return np.full((size, 1), -1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), top


def start_cells(graph):
    """One cell of each orbit of the board's symmetries (the lowest index), e.g. the 10 cells A1..D4 on 8x8.

    >>> from labyrinth.puzzles.knight import knight_graph
    >>> [knight_graph(8).xy(c) for c in start_cells(knight_graph(8))]
    [(1, 1), (2, 1), (3, 1), (4, 1), (2, 2), (3, 2), (4, 2), (3, 3), (4, 3), (4, 4)]
    """
    return [rep for rep, _ in start_orbits(graph)]


def _prefixes(graph, starts, depth, half):
    size = graph.size
    out = []

    def extend(path, used):
        if len(path) > depth:
            out.append(Unit(path))
            return
        for o in graph.neighbours_of(path[-1]):
            if o in used or (half and size - 1 - o in used):
                continue
            used.add(o)
            extend(path + [o], used)
            used.discard(o)

    for s in starts:
        extend([s], {s, size - 1 - s} if half else {s})
    return out


def plan(graph=None, *, n=8, half, closed, magic=True, diagonals=False, starts=None, depth=3, lines=None):
    """The units of a search: every tour whose first cell is in ``starts`` (default :func:`start_cells`).

    ``graph`` defaults to the knight's on ``n`` x ``n``; ``depth`` moves after the start make each unit's prefix;
    ``lines`` (``[(cells, slots, target or -1), ...]``) replaces the lines of the conditions.
    """
    if graph is None:
        from labyrinth.puzzles.knight.board import knight_graph

        graph = knight_graph(n)
    return Plan(graph, half=half, closed=closed, magic=magic, diagonals=diagonals,
                starts=start_cells(graph) if starts is None else starts, depth=depth, lines=lines)


def run_unit(the_plan, unit, deadline=None, on_tours=None):
    """Search one unit: ``(finished, tours, nodes, seconds)``; tours as tuples of cells in number order.

    Stops unfinished past ``deadline`` (``time.time()``, checked between
    slices); ``on_tours(list)`` hears each batch of tours as it is found.
    """
    t0 = time.perf_counter()
    size = the_plan.graph.size
    path, nxt, taken, deg, reg, out = _k.new_state(size, BUFFER)
    lsum = np.zeros(the_plan.slots.shape[0], np.int64)
    lcnt = np.zeros(the_plan.slots.shape[0], np.int64)
    args = the_plan.args()
    tours = []
    _k.start(*args, np.asarray(unit.prefix, np.int64), path, nxt, taken, deg, lsum, lcnt, reg)
    while True:
        done = _k.run(*args, path, nxt, taken, deg, lsum, lcnt, reg, out, SLICE_NODES)
        k = int(reg[_k.R_BUF])
        if k:
            batch = [tuple(int(c) for c in row) for row in out[:k]]
            reg[_k.R_BUF] = 0
            tours.extend(batch)
            if on_tours is not None:
                on_tours(batch)
        if done:
            return True, tours, int(reg[_k.R_NODES]), time.perf_counter() - t0
        if deadline is not None and time.time() > deadline:
            return False, tours, int(reg[_k.R_NODES]), time.perf_counter() - t0


class UnitResult:
    """What one unit gave: ``index`` into the plan's units, ``finished``, ``tours``, ``nodes``, ``seconds``."""

    __slots__ = ("index", "finished", "tours", "nodes", "seconds")

    def __init__(self, index, finished, tours, nodes, seconds):
        self.index, self.finished, self.tours, self.nodes, self.seconds = index, finished, tours, nodes, seconds


def run_plan(spec, *, order=None, deadline=None, jobs=1, stop_at_first=False):
    """Run the units of ``plan(**spec)`` (in ``order``, a list of indices), yielding a :class:`UnitResult` each.

    With ``jobs`` > 1 the units run on that many forked worker processes.
    Past ``deadline`` (``time.time()``) the running units stop unfinished and
    the rest are not started. With ``stop_at_first`` the run stops after the
    first unit that found a tour (a generator: the caller may also stop early).
    """
    the_plan = plan(**spec)
    order = list(range(len(the_plan.units))) if order is None else list(order)
    if jobs <= 1:
        for i in order:
            if deadline is not None and time.time() > deadline:
                return
            finished, tours, nodes, seconds = run_unit(the_plan, the_plan.units[i], deadline)
            yield UnitResult(i, finished, tours, nodes, seconds)
            if stop_at_first and tours:
                return
        return
    with WorkerPool(jobs, _worker_init, (spec,)) as pool:
        results = pool.map_unordered(_worker, [(i, deadline) for i in order])
        try:
            for res in results:
                yield UnitResult(*res)
                if stop_at_first and res[2]:
                    return
        finally:
            results.close()  # the caller stopped early: the units still running are given up


_PLAN = {}


def _worker_init(spec):
    _PLAN["plan"] = plan(**spec)


def _worker(index, deadline):
    if deadline is not None and time.time() > deadline:
        return index, False, [], 0, 0.0
    the_plan = _PLAN["plan"]
    finished, tours, nodes, seconds = run_unit(the_plan, the_plan.units[index], deadline)
    return index, finished, tours, nodes, seconds
