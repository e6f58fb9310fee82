"""One solution of any puzzle (a Hamiltonian path or cycle), found by the oracle and checked: or a proof that there is none.

With a given start the oracle decides that one state. With a free start it
decides one start per orbit of the board's symmetry group (a start s has a
solution iff every image of s has one), so "no solution" is proven over every
start while each orbit is searched once; a closed tour passes through every
cell, so for one a single start decides them all.
"""

import dataclasses
import random
import time

from labyrinth.core.graph import random_image, start_orbits
from labyrinth.core.path import PathState
from labyrinth.core.puzzle import CYCLE
from labyrinth.errors import PathError, TimeLimitError
from oracle.base import OracleBug

__all__ = ["NO_SOLUTION", "SOLVED", "UNKNOWN", "Solution", "require", "solve_puzzle", "start_orbits"]

SOLVED, NO_SOLUTION, UNKNOWN = "solved", "no solution", "unknown"


@dataclasses.dataclass
class Solution:
    """The answer for one board.

    Attributes
    ----------
    n : int
    closed : bool
        True when the last cell must be one move from the first (a closed tour).
    status : str
        ``solved``, ``no solution`` (proven, for the start given or for every start) or ``unknown``.
    state : PathState or None
        The complete path when solved.
    starts_decided : int
        Start cells the oracle decided (one per symmetry orbit when the start is free; one for a closed tour).
    seconds : float
    backend : str
        The oracle backend that found the solution (or, for none, the backends that decided the starts).
    puzzle : str
        The puzzle's name in path notation (``numbers``, ``knight-closed``...).
    """

    n: int
    closed: bool
    status: str
    state: object = None
    starts_decided: int = 0
    seconds: float = 0.0
    backend: str = ""
    puzzle: str = ""

    def grid(self):
        """The numbered grid: rows of the numbers 1..n*n in the order the path visits the cells."""
        n = self.n
        rows = [[0] * n for _ in range(n)]
        for k, c in enumerate(self.state.path, 1):
            rows[c // n][c % n] = k
        return rows

    def text(self):
        """The numbered grid as aligned text."""
        width = len(str(self.n * self.n))
        return "\n".join(" ".join(f"{v:>{width}}" for v in row) for row in self.grid())

    def to_json(self):
        out = {"n": self.n, "closed": self.closed, "status": self.status, "starts_decided": self.starts_decided,
               "seconds": round(self.seconds, 6), "backend": self.backend, "path": None, "start": None, "grid": None}
        if self.state is not None:
            out.update(path=self.state.compact(), start=list(self.state.board.xy(self.state.path[0])),
                       grid=self.grid())
        return out


def solve_puzzle(puzzle, *, start=None, seed=None, oracle=None, time_limit=None):
    """Find one complete path of ``puzzle`` (any start, any end or a cycle; see :class:`Solution`).

    Parameters
    ----------
    puzzle : Puzzle
        A puzzle whose start is free (the start is chosen here).
    start : tuple or None
        1-based ``(x, y)`` of the first cell; None: any cell.
    seed : int or None
        Without a start, draw the start cell at random from this seed (else the
        first start, in reading order, that has a solution); with it, the solution
        is also mapped through a random symmetry of the board that keeps the start.
    oracle : Oracle or None
        The oracle (``auto`` by default); its witness is checked before it is returned.
    time_limit : float or None
        Seconds in all; past it the answer is ``unknown`` (never a guess).

    >>> from labyrinth.puzzles.numbers import numbers_puzzle
    >>> s = solve_puzzle(numbers_puzzle(5), start=(1, 1))
    >>> s.status, s.grid()[0][0], s.state.is_complete()
    ('solved', 1, True)
    """
    from oracle import get_oracle

    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    g = puzzle.graph
    n, closed = g.n, puzzle.end_mode == CYCLE
    rng = random.Random(seed)
    own = oracle is None
    oracle = get_oracle("auto", time_limit=None) if own else oracle
    try:
        if start is not None:
            x, y = start
            if not g.on_board(x, y):
                raise PathError(f"start {x},{y} is off the {n}x{n} board", source="--start", token=f"{x},{y}")
            candidates = [g.cell(x, y)]
        else:
            orbits = start_orbits(g)
            if seed is not None:
                rng.shuffle(orbits)
            candidates = [rep for rep, _ in orbits]
            if closed:
                candidates = candidates[:1]  # a closed tour passes through every cell: one start decides them all
        decided = 0
        undecided = False
        used = {}  # the backends that decided, in order (a "no solution" names them too)
        for cell in candidates:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                undecided = True
                break
            verdict = oracle.decide(PathState(puzzle, (cell,)), time_limit=left)
            used[verdict.backend or getattr(oracle, "name", "")] = True
            if verdict.feasible is None:
                undecided = True
                continue
            decided += 1
            if not verdict.feasible:
                continue
            cells = (cell,) + tuple(g.replay(cell, verdict.witness))
            if seed is not None:
                cells = random_image(g, cells, rng, keep_start=start is not None)
            state = PathState(puzzle, cells)
            if not state.is_complete():  # the oracle checked its witness; this checks the whole grid
                raise OracleBug(f"solution for {n}x{n} is not a complete path")
            return Solution(n, closed, SOLVED, state, decided, time.perf_counter() - t0, verdict.backend,
                            puzzle.name)
        status = UNKNOWN if undecided else NO_SOLUTION
        backend = ",".join(b for b in used if b) or getattr(oracle, "name", "")
        return Solution(n, closed, status, None, decided, time.perf_counter() - t0, backend, puzzle=puzzle.name)
    finally:
        if own:
            oracle.close()


def require(solution, time_limit):
    """Raise :class:`TimeLimitError` for an unknown answer (the CLI's exit 3)."""
    if solution.status == UNKNOWN:
        raise TimeLimitError(f"no answer within {time_limit} s (decided {solution.starts_decided} start(s))",
                             source=f"{_family(solution.puzzle)} {solution.n}x{solution.n}")
    return solution


def _family(name):
    """The puzzle family of a puzzle name (``knight-closed`` -> ``knight``)."""
    return name[:-len("-closed")] if name.endswith("-closed") else name or "puzzle"
