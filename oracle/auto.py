"""The ``auto`` backend: a portfolio that answers fast where it can and proves where it must.

Order: (1) witness reuse — a state on the line of the last witness is alive
at no cost, which makes every step along a walk free; (2) the numba search
with a node budget (its pruning refutes most dead states at the root, its
move order finds witnesses on open boards without backtracking); (3) lazy-cut
SAT with the time that is left, for the hard tail. A timeout is ``unknown``.
"""

from oracle.base import Oracle
from oracle.search import SearchOracle

__all__ = ["AutoOracle"]


class AutoOracle(Oracle):
    """Portfolio of search then SAT; ``search_nodes`` is the search's budget per query."""

    name = "auto"

    def __init__(self, time_limit=60.0, search_nodes=3_000):
        super().__init__(time_limit)
        self.search_nodes = search_nodes
        self._search = SearchOracle()
        self._sat = None
        self._line = None  # (n, cells of the last witnessed full line)

    def _decide(self, state, deadline):
        reused = self._reuse(state)
        if reused is not None:
            return True, reused, {"backend": "auto:reuse"}
        status, witness, work = self._search._decide_budget(state, deadline, self.search_nodes)
        if status is not None:
            work["backend"] = "auto:search"
            if status:
                self._remember(state, witness)
            return status, witness, work
        sat = self._sat_oracle()
        feasible, witness, more = sat._decide(state, deadline)
        work.update(more)
        work["backend"] = "auto:sat"
        if feasible:
            self._remember(state, witness)
        return feasible, witness, work

    def _sat_oracle(self):
        if self._sat is None:
            from oracle.sat import SatOracle
            self._sat = SatOracle()
        return self._sat

    def _remember(self, state, witness):
        board = state.board
        cells = list(state.path)
        for m in witness:
            cells.append(board.step(cells[-1], m))
        self._line = (board.n, tuple(cells))

    def _reuse(self, state):
        if self._line is None or self._line[0] != state.n:
            return None
        line = self._line[1]
        k = len(state.path)
        if line[:k] != state.path:
            return None
        board = state.board
        return "".join(board.move_between(a, b) for a, b in zip(line[k - 1:], line[k:]))

    def close(self):
        if self._sat is not None:
            self._sat.close()
            self._sat = None
