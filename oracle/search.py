"""The ``search`` backend: exact depth-first completion search compiled with numba.

Sound pruning (connectivity, dead ends, forced moves, cut-vertex order and
colour balance per block; see :mod:`oracle._kernel`) with a Warnsdorff move
order (fewest onward moves first, then away from the end) that walks open
boards to a witness without backtracking. The search is resumable: it runs in
node budgets between which the deadline is checked, so a time limit costs
nothing when unused and yields ``unknown`` when hit.
"""


import numpy as np

from labyrinth.engine import MOVES
from labyrinth.engine._graph import GraphTables
from oracle import _kernel
from oracle.base import Oracle, expired

__all__ = ["SearchOracle", "prune"]

_CHUNK = 20_000
#: Cell visits per deadline check: a node costs about one pass over the free
#: cells, so the chunk shrinks with the board (4 081 nodes at 7x7, 19 at
#: 101x101, 2 at 301x301) and the deadline is looked at every few milliseconds.
_CHUNK_WORK = 200_000
#: Expansions tried with the cheap pruning alone before the search restarts with
#: the two-cell cut check around the head (slower per node, far fewer nodes on hard states).
_FAST_NODES = 3_000
_POCKET_RADIUS = 2


def prune(state, radius=0):
    """Apply the search's pruning to ``state`` alone.

    ``radius`` > 0 adds the two-cell cut check around the head.
    Returns ``"dead"`` when a necessary condition fails (so no completion
    exists), else the forced move letter or ``None``.

    >>> from labyrinth.engine import State
    >>> prune(State.from_moves(5, "RRRRDLLL"))   # (1,2) is walled in: must go there now
    'L'
    >>> prune(State.from_moves(5, "RRRRDDLLLUL"))  # (1,2)...(1,5) can not all be reached
    'dead'
    """
    if state.at_end():
        return None if state.free_count == 0 else "dead"
    t = GraphTables.of(state.board)
    taken = np.array(state.taken, dtype=np.uint8)
    r = _kernel.check(t.nb, t.colour, state.board.end, taken, state.head, state.free_count, t.work)
    if r == _kernel.DEAD:
        return "dead"
    if radius and _kernel.pockets(t.nb, t.colour, state.board.end, taken, state.head, state.free_count,
                                      radius, t.work) != 0:
        return "dead"
    return None if r == _kernel.OPEN else MOVES[r]


class SearchOracle(Oracle):
    """Exact depth-first search; ``node_limit`` bounds the expansions (None: unbounded)."""

    name = "search"

    def __init__(self, time_limit=None, node_limit=None):
        super().__init__(time_limit)
        self.node_limit = node_limit

    def _decide(self, state, deadline):
        return self._decide_budget(state, deadline, self.node_limit)

    def _decide_budget(self, state, deadline, limit):
        """Search with at most ``limit`` expansions (None: unbounded) -> (feasible, witness, work)."""
        first = _FAST_NODES if limit is None else min(_FAST_NODES, limit)
        status, witness, work = self.run(state, deadline, first, radius=0)
        if status == _kernel.BUDGET and (limit is None or limit > first) and not expired(deadline):
            rest = None if limit is None else limit - first
            status, witness, more = self.run(state, deadline, rest, radius=_POCKET_RADIUS)
            work = {k: work[k] + more[k] for k in work}
        if status == _kernel.FOUND:
            return True, witness, work
        if status == _kernel.EXHAUSTED:
            return False, None, work
        return None, None, work

    def run(self, state, deadline=None, node_limit=None, radius=0):
        """Search ``state``; returns ``(status, witness, work)`` with a kernel status code.

        ``radius`` > 0 adds the two-cell cut check within that distance of the head.
        """
        board = state.board
        t = GraphTables.of(board)
        size = board.size
        taken = np.array(state.taken, dtype=np.uint8)
        path = np.empty(size + 1, dtype=np.int32)
        base = len(state.path) - 1
        path[: base + 1] = state.path
        frame = np.array([-1, state.free_count], dtype=np.int64)
        cand = np.zeros((size + 1, 4), dtype=np.int8)
        ncand = np.zeros(size + 1, dtype=np.int8)
        idx = np.zeros(size + 1, dtype=np.int8)
        counters = np.zeros(2, dtype=np.int64)
        chunk = max(1, min(_CHUNK, _CHUNK_WORK // size))
        while True:
            budget = chunk
            if node_limit is not None:
                budget = min(budget, node_limit - int(counters[0]))
                if budget <= 0:
                    status = _kernel.BUDGET
                    break
            status = _kernel.search(t.nb, t.colour, board.end, taken, path, base, frame, cand, ncand,
                                    idx, t.work, t.rank, radius, budget, counters)
            if status != _kernel.BUDGET:
                break
            if expired(deadline):
                break
        work = {"nodes": int(counters[0]), "backtracks": int(counters[1])}
        witness = None
        if status == _kernel.FOUND:
            cells = path[base: int(frame[0]) + 1]
            witness = "".join(board.move_between(int(a), int(b)) for a, b in zip(cells, cells[1:]))
        return status, witness, work
