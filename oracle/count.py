"""Exact counting: the number of completions of a state, and of corner-to-corner paths of a board.

A *completion* of a state is a Hamiltonian path of the free cells plus the
head, from the head to the end corner; the cells taken before the head are
obstacles. The count comes from frontier-based dynamic programming over the
cells (Knuth, TAOCP 7.1.4, "Simpath"; Iwashita et al. 2013): see
:mod:`oracle._count_kernel`. Before the sweep, the grid is cropped to the
rows and columns holding free cells and turned (any of the square's eight
symmetries: the count does not depend on them) so that the sweep's frontier
crosses as few free cells as possible; the search oracle's necessary
conditions (:mod:`labyrinth.engine.graph`) answer 0 for plainly dead states
without a sweep. A :class:`CompletionCounter` caches counts and resumes
sweeps from frontiers stored for earlier states (:class:`Snapshots`).

>>> count_paths(5)
104
>>> from labyrinth.engine import State
>>> count_completions(State.from_moves(5, "RRRRD"))
23
>>> count_completions(State.from_moves(5, "D" * 4 + "R" * 4))   # the line reached the end too early
0
"""

import collections
import dataclasses
import math
import time

import numpy as np

from labyrinth.engine import Board, State
from labyrinth.errors import LabyrinthError
from oracle import _count_kernel as _k

__all__ = ["MAX_WIDTH", "CompletionCounter", "Snapshots", "Sweep", "count_completions", "count_paths", "sweep"]

#: the widest grid a sweep handles: 2 bits per plug, ``width + 1`` plugs in a 64-bit frontier key
MAX_WIDTH = 31
#: a frontier key's growth per extra plug, for choosing the cheapest orientation
_GROWTH = 2.6


def count_paths(n):
    """The number of Hamiltonian paths from corner (1,1) to corner (n,n) of the n x n board.

    These are OEIS A001184 (odd n); ``n`` must be odd and at least 3.

    >>> [count_paths(n) for n in (3, 5, 7)]
    [2, 104, 111712]
    """
    return count_completions(State.from_moves(Board(n), ""))


def count_completions(state, *, prune=True):
    """The number of completions of ``state`` (1 for a complete state, 0 for a dead one).

    Parameters
    ----------
    state : State
        Any state of the labyrinth.
    prune : bool
        Answer 0 without a sweep when the search oracle's necessary
        conditions already fail (switch off to test the sweep alone).

    Returns
    -------
    int
        The exact number of head-to-end Hamiltonian paths of the free cells plus the head.
    """
    return sweep(state, prune=prune).count


@dataclasses.dataclass(frozen=True)
class Sweep:
    """One count and what it took: the grid swept, the frontier states, the words per count.

    ``width`` x ``height`` is the cropped and turned grid (0 x 0 when no sweep
    ran: a finished or pruned state), ``peak_states`` the most frontier
    states held at once, ``limbs`` the 62-bit words per count.
    """

    count: int
    width: int = 0
    height: int = 0
    peak_states: int = 0
    limbs: int = 0
    seconds: float = 0.0


def sweep(state, *, prune=True, snapshots=None):
    """Count the completions of ``state`` and report the sweep (see :class:`Sweep`).

    With a :class:`Snapshots` store, the sweep goes row by row and starts
    from the longest run of first rows already swept for an earlier state
    (the symmetry is chosen for the least work left), storing the frontiers
    it meets in turn: states along one line differ near the start corner
    only, so swept from the end corner's side they share most rows.

    >>> s = sweep(State.from_moves(7, "RRRRRRD"))   # the first row is taken: a 6 x 7 grid is left
    >>> s.count == count_completions(State.from_moves(7, "RRRRRRD")), sorted((s.width, s.height))
    (True, [6, 7])
    """
    t0 = time.perf_counter()
    board, taken, head = state.board, np.asarray(state.taken), state.head
    free = board.size - int(taken.sum())
    if head == board.end:
        return Sweep(1 if free == 0 else 0)
    if board.n > MAX_WIDTH:
        raise LabyrinthError(f"counting handles boards up to {MAX_WIDTH}x{MAX_WIDTH}", token=str(board.n))
    if prune and _dead(board, taken, head, free):
        return Sweep(0, seconds=time.perf_counter() - t0)
    kind = np.where(taken != 0, _k.OBSTACLE, _k.ORDINARY).astype(np.int8).reshape(board.n, board.n)
    kind.flat[head] = _k.TERMINAL
    kind.flat[board.end] = _k.TERMINAL
    limbs = max(1, math.ceil((free + 1) / 2 / _k.BITS))  # the count has about half a bit per cell; more on overflow
    while True:
        if snapshots is None:
            grid = _oriented(_cropped(kind))
            height, width = grid.shape
            words, overflow, peak = _k.sweep(width, height, grid.ravel(), limbs)
        else:
            grid, first, states = _resumable(_cropped(kind), snapshots, limbs)
            height, width = grid.shape
            words, overflow, peak = snapshots.sweep(grid, limbs, first, states)
        if not overflow:
            count = sum(int(w) << (_k.BITS * i) for i, w in enumerate(words))
            return Sweep(count, width, height, int(peak), limbs, time.perf_counter() - t0)
        limbs *= 2


class Snapshots:
    """Frontiers met part-way through sweeps, to start later sweeps of grids that begin alike.

    The frontier after the first ``r`` rows depends on those rows and on the
    next one (a path edge may go down only onto a cell that is not an
    obstacle), so it is stored under the bytes of the first ``r + 1`` rows,
    the width and the words per count. At most ``max_rows`` frontier states
    are kept, the least recently used dropped first.
    """

    def __init__(self, max_rows=4_000_000):
        self.max_rows = max_rows
        self.rows = 0
        self.hits = 0
        self._store = collections.OrderedDict()

    def longest(self, grid, limbs):
        """``(r, frontier)``: the most rows of ``grid`` whose sweep is stored, and the frontier after them."""
        height, width = grid.shape
        flat = grid.ravel()
        for r in range(height - 1, 0, -1):
            states = self._store.get((width, limbs, flat[:(r + 1) * width].tobytes()))
            if states is not None:
                return r, states
        return 0, None

    def sweep(self, grid, limbs, first=0, states=None):
        """:func:`oracle._count_kernel.sweep` of ``grid`` with counts of ``limbs`` words.

        The sweep starts at row ``first`` from its frontier ``states`` (found by
        :meth:`longest` for the same ``limbs``), or from the first row; the
        frontiers met are stored unless a count overflowed.
        """
        height, width = grid.shape
        flat = np.ascontiguousarray(grid).ravel()
        if states is None:
            first, states = 0, _k.start(limbs)
        else:
            self.hits += 1
            self._store.move_to_end((width, limbs, flat[:(first + 1) * width].tobytes()))
        met, overflow, peak = [], False, 0
        for r in range(first, height):
            states, closed, over, top = _k.advance(width, height, flat, states, r, r + 1)
            overflow |= over
            peak = max(peak, top)
            if r + 1 < height:
                met.append(((width, limbs, flat[:(r + 2) * width].tobytes()), states))
        if not overflow:  # frontiers of an overflowed sweep hold wrapped counts: never reuse them
            for key, value in met:
                self._put(key, value)
        return closed, overflow, peak

    def _put(self, key, states):
        if key in self._store or len(states) > self.max_rows:
            return
        self._store[key] = states
        self.rows += len(states)
        while self.rows > self.max_rows:
            _, dropped = self._store.popitem(last=False)
            self.rows -= len(dropped)


def _dead(board, taken, head, free):
    """True when the search oracle's necessary conditions fail (no completion exists)."""
    from labyrinth.engine.graph import DEAD, GraphTables, check

    t = GraphTables.of(board)
    return check(t.nb, t.colour, board.end, np.ascontiguousarray(taken, dtype=np.uint8), head, free, t.work) == DEAD


def _cropped(kind):
    """``kind`` without the outer rows and columns that hold only obstacles."""
    rows = np.flatnonzero((kind != _k.OBSTACLE).any(axis=1))
    cols = np.flatnonzero((kind != _k.OBSTACLE).any(axis=0))
    return kind[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]


def _symmetries(kind):
    """The eight copies of ``kind`` under the square's symmetries (the count is the same for all)."""
    for turn in range(4):
        turned = np.rot90(kind, turn)
        yield np.ascontiguousarray(turned)
        yield np.ascontiguousarray(turned.T)


def _oriented(kind):
    """The symmetric copy of ``kind`` estimated cheapest to sweep."""
    return min(_symmetries(kind), key=lambda grid: _row_costs(grid).sum())


def _resumable(kind, snapshots, limbs):
    """``(grid, first row, frontier)``: the symmetric copy cheapest to sweep from its longest stored start."""
    best, best_cost = None, math.inf
    for grid in _symmetries(kind):
        first, states = snapshots.longest(grid, limbs)
        cost = _row_costs(grid)[first:].sum()
        if cost < best_cost:
            best, best_cost = (grid, first, states), cost
    return best


def _row_costs(kind):
    """Estimated sweep work per row: the frontier states grow with the plugs that can carry a path edge."""
    open_ = kind != _k.OBSTACLE
    plugs = np.append((open_[:-1] & open_[1:]).sum(axis=1), 0)
    return _GROWTH ** plugs * kind.shape[1]


class CompletionCounter:
    """Completion counts with a cache keyed by the taken cells and the head.

    Rank, unrank and sampling ask for the same states again and again (every
    walkthrough shares its prefixes), so they share one counter; its sweeps
    also share their first rows (:class:`Snapshots`).

    >>> counter = CompletionCounter()
    >>> start = State.from_moves(5, "")
    >>> counter(start) == counter(start.after("R")) + counter(start.after("D"))
    True
    >>> counter.misses, counter.hits
    (3, 0)
    """

    def __init__(self, max_entries=1_000_000, max_rows=4_000_000):
        self.max_entries = max_entries
        self.misses = 0
        self.hits = 0
        self.snapshots = Snapshots(max_rows)
        self._cache = {}

    def __call__(self, state):
        """The number of completions of ``state``."""
        key = (state.n, state.taken.tobytes(), state.head)
        hit = self._cache.get(key)
        if hit is not None:
            self.hits += 1
            return hit
        self.misses += 1
        value = sweep(state, snapshots=self.snapshots).count
        if len(self._cache) >= self.max_entries:
            self._cache.clear()
        self._cache[key] = value
        return value
