"""The ``auto`` backend: a portfolio that answers fast where it can and proves where it must.

Order: (1) reuse — a state on the line of the last witness is alive at no
cost, so every step along a walk's witness is free, and a state whose taken
cells and head were decided before (another file with the same prefix, a
bisection revisiting a prefix) gets that verdict back; (2) the numba search
with a node budget: its pruning refutes most dead states at the root and its
move order finds witnesses on open boards without backtracking; (3) for the
tail, time slices that double: lazy-cut SAT (resumed where it stopped, cuts
kept) alternating with CP-SAT *with* its LP relaxation of the circuit, whose
flow bounds refute the colour-imbalance states of the study that defeat
clause learning and search alike. A timeout is ``unknown``.
"""

import time
from collections import OrderedDict

from labyrinth.engine import Board
from oracle.base import Oracle, expired
from oracle.search import SearchOracle

__all__ = ["AutoOracle"]

_FIRST_SLICE = 0.25  # seconds; every round doubles it
_MEMO_SIZE = 4096  # decided positions remembered
_GENERAL_PER_CELL = 16  # search expansions per free cell before the solvers, off the labyrinth


class AutoOracle(Oracle):
    """Portfolio: reuse, search (``search_nodes`` expansions), then SAT / CP-SAT-LP slices.

    Parameters
    ----------
    time_limit : float or None
        Seconds per query.
    search_nodes : int
        Expansions of the numba search before the solvers (0: none); at least
        two per free cell, since a witness needs one per cell.
    members : tuple of str
        The solvers of the tail, in the order their slices alternate: ``"sat"``, ``"cpsat"``.
    reuse : bool
        Reuse the last witness's line and remember decided positions (False: every
        query is decided afresh, as a confirming second opinion must be).
    """

    name = "auto"

    def __init__(self, time_limit=60.0, search_nodes=3_000, *, members=("sat", "cpsat"), reuse=True):
        super().__init__(time_limit)
        self.search_nodes = search_nodes
        self.members = tuple(members)
        self.reuse = reuse
        self._search = SearchOracle()
        self._sat = None
        self._cpsat = None
        self._line = None  # (n, cells of the last witnessed full line)
        self._memo = OrderedDict()  # (n, taken bytes, head) -> (feasible, witness)

    def _decide(self, state, deadline):
        question = _question(state)
        key = (question, state.taken.tobytes(), state.head)
        if self.reuse:
            reused = self._reuse(state, question)
            if reused is not None:
                return True, reused, {"backend": "auto:reuse"}
            if key in self._memo:
                self._memo.move_to_end(key)
                feasible, witness = self._memo[key]
                return feasible, witness, {"backend": "auto:memo"}
        feasible, witness, work = None, None, {}
        if self.search_nodes > 0:
            # a witness needs one expansion per free cell, so on big boards (a 100x100 number
            # puzzle) a fixed budget would hand an easy state to the solvers: at least two per
            # free cell on the labyrinth, and _GENERAL_PER_CELL on other move graphs, whose
            # Warnsdorff-ordered search backtracks more (20x20 number puzzle: 5 799 expansions,
            # 0.09 s; SAT takes 0.3-0.5 s)
            per_cell = 2 if isinstance(state.board, Board) else _GENERAL_PER_CELL
            budget = max(self.search_nodes, per_cell * state.free_count)
            feasible, witness, work = self._search._decide_budget(state, deadline, budget)
            work["backend"] = "auto:search"
        slice_ = _FIRST_SLICE
        members = {"sat": self._sat_oracle, "cpsat": self._cpsat_oracle}
        while feasible is None and not expired(deadline):
            for name in self.members:
                member = members[name]()
                stop = time.perf_counter() + slice_
                if deadline is not None:
                    stop = min(stop, deadline)
                feasible, witness, more = member._decide(state, stop)
                for counter, value in more.items():
                    if isinstance(value, (int, float)) and not isinstance(value, bool):
                        work[f"{name}_{counter}"] = work.get(f"{name}_{counter}", 0) + value
                if feasible is not None:
                    work["backend"] = f"auto:{name}"
                    break
                if expired(deadline):
                    break
            slice_ *= 2
        if feasible and self.reuse:
            self._remember(state, witness, question)
        if feasible is not None and self.reuse:
            self._memo[key] = (feasible, witness)
            if len(self._memo) > _MEMO_SIZE:
                self._memo.popitem(last=False)
        return feasible, witness, work

    def _sat_oracle(self):
        if self._sat is None:
            from oracle.sat import SatOracle
            self._sat = SatOracle()
        return self._sat

    def _cpsat_oracle(self):
        if self._cpsat is None:
            from oracle.cpsat import CpSatOracle
            self._cpsat = CpSatOracle(params={"linearization_level": 2})
        return self._cpsat

    def _remember(self, state, witness, question):
        board = state.board
        cells = state.path + tuple(board.replay(state.head, witness))
        # the witness's moves: a longer prefix of the line reuses a slice of them, unspelled
        self._line = (question, cells, len(state.path), board.split(witness))

    def _reuse(self, state, question):
        if self._line is None or self._line[0] != question:
            return None
        _, line, base, moves = self._line
        k = len(state.path)
        if line[:k] != state.path:
            return None
        if k >= base:
            return state.board.separator.join(moves[k - base:])
        return state.board.spell(line[k - 1:])

    def close(self):
        for member in (self._sat, self._cpsat):
            if member is not None:
                member.close()
        self._sat = self._cpsat = None


def _question(state):
    """What a state asks besides its cells: the move graph and where the path must end."""
    return (state.board, state.end, state.cycle, state.path[0] if state.cycle else None)
