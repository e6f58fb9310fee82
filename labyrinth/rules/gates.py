"""Gates: the areas strung between single-cell gates decided exactly by search and CP-SAT, however large (issue 40).

After a move, the free cells and the new head form a graph G. A cell
whose removal cuts the head from the end corner is a *gate*: the line
passes it once, so G falls into areas strung between gates, and a
completion is exactly a chain of Hamiltonian paths, one per area, each
from the gate it enters by to the gate it leaves by (Tarjan 1972 finds the
gates). :mod:`labyrinth.rules.exact_areas` decides areas of up to 40 cells
by depth-first search inside the walker; this rule decides areas of up to
:data:`MAX_CELLS` cells: first by the search oracle's exact depth-first search
(:func:`oracle.search.crossing`, a budget of nodes: it crosses most live areas
at once and exhausts small dead ones), then by OR-Tools CP-SAT (one
``AddCircuit`` over the area's cells, one worker, a *deterministic* budget of
:data:`BUDGET` units), so the same state gets the same answer on every
machine; past both budgets the area counts as traversable: never a guess.

Why: the stuck walks of ``strong+++`` at 61x61 and 101x101
(``reports/strong-plus-plus-plus-misses.md``) walk into a pocket behind a
gate whose Hamiltonian path from the head to the gate does not exist, for
reasons no polynomial argument of the closure sees (191 and 469 cells; CP-SAT
refutes them in 0.03 s and 0.1 s). The rule is sound: it closes a move only
when some area of the state after it has no path through all its cells
between its gates, and then the state has no completion. Where no cell
cuts the head from the end, the one area is every free cell and the rule
asks the whole question within its budgets: 4 of the 7 stuck walks at 61x61
left when areas had at most 1 000 cells went dead with no gate at all (1 489
to 2 863 free cells; CP-SAT refutes three of them in 0.02 to 0.05 units).

It is a *pausing* rule: it has no numba kernel. The compiled walker of a
sound set (:class:`labyrinth.rules.walks.PausingRunner`) stops only at a
move that it would take and that no rule of the set proved live (the
closure found no completion), and asks this rule about it; with
``strong+++`` that is a few states a walk. Verdicts are cached by the area,
its entry and its exit, so the areas behind the head's are solved once.

>>> from labyrinth.engine import State
>>> state = State.from_moves(7, "DDDDDDRRRURDRUULU")     # the example of exact_areas: L leaves (4,4) cut off
>>> [e.move for e in GatedAreas().effects(state)]
['L']
"""

import collections
import functools

import numpy as np
from numba import njit
from ortools.sat.python import cp_model

from labyrinth.rules.base import DISABLE, Effect
from labyrinth.rules.exact_areas import gate_search

__all__ = ["BUDGET", "GatedAreas", "MAX_CELLS", "SEARCH_NODES", "SEARCH_SPARE", "area_chain", "area_verdict",
           "search_nodes"]

#: areas of more cells count as traversable (not decided): every area of a 61x61 board (3 721 cells), the
#: late areas of a 101x101 walk, where a CP-SAT call that ends undecided costs about a second
MAX_CELLS = 4000
#: CP-SAT's deterministic time limit per area (``max_deterministic_time``: the same answer on every machine);
#: without probing, the dead areas of the stuck walks of ``strong+++`` and of ``strong++++`` with 1 000 cells at
#: most (bench/strong_gates.py) took 0.009 to 0.067 units (0.04 to 0.4 s, 356 to 2 863 cells); a live area
#: that neither the search nor CP-SAT crosses in time costs the whole budget, 0.2 s to 0.5 s
BUDGET = 0.1
#: the exact search's expansions on an area before CP-SAT takes over (:func:`search_nodes`)
SEARCH_NODES = 5000
#: the spare nodes of the search on an area larger than SEARCH_NODES - SEARCH_SPARE cells
SEARCH_SPARE = 1000
#: verdicts kept (area, entry, exit) before the cache is emptied
CACHE_SIZE = 4096


@njit(cache=True)
def area_chain(nb, end, taken, head):
    """The gates between the head and the end corner, in order, and each cell's area.

    Returns ``(gates, label)``: ``gates`` the cells (head first, end corner
    last) that every path from the head to the end passes through, and
    ``label[c]`` the index ``i`` of the area of cell ``c`` (cells reached
    from gate ``i`` before gate ``i + 1``; the gate itself is in area ``i``),
    -1 for a taken cell. No gates (an empty array) when the end corner is not
    reachable: other rules see that.
    """
    size = taken.shape[0]
    disc = np.empty(size, np.int64)
    low = np.empty(size, np.int64)
    parent = np.empty(size, np.int64)
    stack = np.empty(size, np.int64)
    label = np.full(size, -1, np.int64)
    gate_search(nb, taken, head, disc, low, parent, np.empty(size, np.int64), stack)
    if disc[end] < 0:
        return np.empty(0, np.int64), label
    # the gates: the cells u on the tree path from the end up to the head whose child c on it has low[c] >= disc[u]
    rev = np.empty(size, np.int64)
    k = 0
    rev[k] = end
    k += 1
    c = end
    u = parent[end]
    while u >= 0:
        if u == head or low[c] >= disc[u]:
            rev[k] = u
            k += 1
        c = u
        u = parent[u]
    gates = rev[:k][::-1].copy()
    # areas: flood from each gate in order, stopping at the next gate and at cells already labelled
    for i in range(k - 1):
        stop = gates[i + 1]
        top = 0
        stack[0] = gates[i]
        label[gates[i]] = i
        while top >= 0:
            v = stack[top]
            top -= 1
            for d in range(4):
                w = nb[v, d]
                if w < 0 or w == stop or label[w] >= 0 or (taken[w] and w != head):
                    continue
                label[w] = i
                top += 1
                stack[top] = w
    label[end] = max(k - 2, 0) if label[end] < 0 else label[end]
    return gates, label


def area_verdict(board, cells, entry, exit_, budget=None):
    """True when a path from ``entry`` through every cell of ``cells`` (which holds both) ends on ``exit_``;
    False when none does; None when neither the search nor CP-SAT decides it within its budget
    (``budget``: CP-SAT's deterministic time, :data:`BUDGET` when None).

    First the exact depth-first search of :func:`oracle.search.crossing`, at
    most :func:`search_nodes` expansions: it crosses most live areas at once
    (Warnsdorff's order on a grid seldom backtracks) and exhausts small dead
    ones. What it leaves goes to CP-SAT: one ``AddCircuit`` over the area, one
    worker, ``max_deterministic_time`` ``budget``, no linear relaxation, which
    refutes the large pockets the search gets lost in. Both budgets count
    work, not seconds, so a verdict is the same on every machine.
    """
    from oracle.search import crossing

    cells = [int(c) for c in cells]
    if len(cells) == 1:
        return entry == exit_
    verdict = crossing(board, cells, entry, exit_, search_nodes(len(cells)))
    if verdict is not None:
        return verdict
    return _circuit_verdict(board.neighbours, cells, entry, exit_, BUDGET if budget is None else budget)


def search_nodes(cells):
    """The search's budget on an area of ``cells`` cells: :data:`SEARCH_NODES`, or a node a cell and
    :data:`SEARCH_SPARE` more on a larger area.

    The first restart round of the search oracle takes it: Warnsdorff's order
    (3 000 nodes and one a cell), then two short probes in other orders with what
    is left. On an area of a few hundred cells the probes cross a fifth of the
    areas Warnsdorff's order does not; on an area of thousands of cells,
    Warnsdorff's order crosses it in about a node a cell or not at all, and a
    node costs a pass over many cells, so it gets its pass and a little spare.
    """
    return max(SEARCH_NODES, cells + SEARCH_SPARE)


def _circuit_verdict(nb, cells, entry, exit_, budget):
    """CP-SAT on one area: a Hamiltonian circuit through its cells and a dummy node from ``exit_`` to ``entry``."""
    index = {c: i for i, c in enumerate(cells)}
    model = cp_model.CpModel()
    dummy = len(cells)
    arcs = [(index[exit_], dummy, model.new_constant(1)), (dummy, index[entry], model.new_constant(1))]
    for c in cells:
        if c == exit_:
            continue
        for b in nb[c]:
            b = int(b)
            if b >= 0 and b in index and b != entry:
                arcs.append((index[c], index[b], model.new_bool_var("")))
    model.add_circuit(arcs)
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1
    params.random_seed = 0
    params.catch_sigint_signal = False
    params.max_deterministic_time = budget
    # no linear relaxation: on these areas it refutes in a third of the time and crosses more of them in budget;
    # no probing: the refutations of the misses of strong++++ at 61x61 and 101x101 then take half the work
    params.linearization_level = 0
    params.cp_model_probing_level = 0
    result = solver.solve(model)
    if result in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if result == cp_model.INFEASIBLE:
        return False
    return None


@functools.lru_cache(maxsize=8)
def _neighbours(board):
    """The board's neighbour table as the kernel's int64 array (one per board)."""
    return np.ascontiguousarray(board.neighbours, dtype=np.int64)


class GatedAreas:
    """Disable a move after which an area between gates has no path through its cells (CP-SAT, exactly)."""

    name = "gates"
    kind = DISABLE
    optional = True
    #: no numba kernel: the compiled walker of a sound set stops at the moves it must see (PausingRunner)
    pauses = True
    #: not a pattern rule
    spec = None
    summary = ("the areas the line can enter and leave only through single cells must each have a path through "
               f"all their cells between their gates: decided exactly by search and CP-SAT for areas of up to "
               f"{MAX_CELLS} cells")

    def __init__(self):
        self._cache = collections.OrderedDict()

    def __repr__(self):
        return f"{type(self).__name__}()"

    def move_dead(self, board, taken, head, d):
        """True when some area cannot be traversed after the move ``d`` (what the pausing walker asks)."""
        return self.dead_area(board, taken, head, d) is not None

    def dead_area(self, board, taken, head, d):
        """``(cells, entry, exit)`` of an area that cannot be traversed after the move ``d``, or None.

        ``taken`` is the state's array of taken cells (left as it was).
        """
        nb = _neighbours(board)
        end = board.end
        b = int(nb[head, d])
        taken[b] = 1
        try:
            gates, label = area_chain(nb, end, taken, b)
        finally:
            taken[b] = 0
        if len(gates) < 2:
            return None
        order = np.argsort(label, kind="stable")
        counts = np.bincount(label[label >= 0], minlength=len(gates) - 1)
        starts = np.concatenate(([0], np.cumsum(counts)))
        first = int(np.searchsorted(label[order], 0))
        for i in range(len(gates) - 1):
            size = int(counts[i]) + 1  # its cells and the gate it leaves by
            if size <= 2 or size > MAX_CELLS:
                continue
            cells = order[first + starts[i]: first + starts[i + 1]]
            exit_ = int(gates[i + 1])
            key = (int(gates[i]), exit_, np.sort(cells).tobytes())
            verdict = self._cache.get(key)
            if key not in self._cache:
                verdict = area_verdict(board, np.append(cells, exit_) if label[exit_] != i else cells, int(gates[i]),
                                       exit_)
                self._cache[key] = verdict
                if len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
            if verdict is False:
                return tuple(int(c) for c in cells), int(gates[i]), exit_
        return None

    def effects(self, state):
        """A DISABLE effect per free move after which some area cannot be traversed (its two gates as the trigger)."""
        from labyrinth.engine.board import MOVES

        board = state.board
        taken = np.array(state.taken, dtype=np.uint8)
        out = []
        for d, move in enumerate(MOVES):
            if move not in state.open_moves():
                continue
            found = self.dead_area(board, taken, state.head, d)
            if found is not None:
                out.append(Effect(self.name, DISABLE, move, found[1:]))
        return out
