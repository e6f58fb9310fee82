"""Audit the note's algorithms against the exact oracle: does each clear the board, in how many presses, against the proven minimum.

Every state is tried on boards up to ``exhaustive_max_n`` (5x5: all 2^25 states), seeded random
solvable states beyond. A failure is a solvable state the algorithm leaves unsolved (a state that
is not solvable cannot be cleared by anything, so it is counted apart); a run is minimal when it
makes no more presses (a cell pressed twice counts twice) than the proven minimum. For each size
the audit also measures, exactly, the subspace of solvable states the algorithm clears (the
algorithms are linear: :func:`~labyrinth.puzzles.toggle.algorithms.cleared_dimension`), and it
names the smallest counterexamples: fewest cells on, then earliest in reading order.
"""

import dataclasses
import itertools
import time

import numpy as np

from labyrinth.puzzles.toggle import _kernels as K
from labyrinth.puzzles.toggle import gf2
from labyrinth.puzzles.toggle.algorithms import (
    algorithm_code,
    claim,
    cleared_dimension,
    run,
)
from labyrinth.puzzles.toggle.board import Board, random_solvable
from labyrinth.puzzles.toggle.solve import all_minima, is_solvable, minimise

__all__ = [
    "EXACT_MAX_N",
    "Audit",
    "Counterexample",
    "SizeAudit",
    "audit",
    "smallest_counterexample",
]

#: the exact cleared-subspace measurement runs up to this size (n^2 basis boards, 64 per run)
EXACT_MAX_N = 48
#: states tried per size by the search for the smallest counterexample on sampled sizes
SEARCH_BUDGET = 20_000


@dataclasses.dataclass
class Counterexample:
    """A state where the algorithm fails or is not minimal, with its run and the proven minimum."""

    n: int
    kind: str  # "fails" or "not minimal"
    state: Board
    run: object
    minimum: int | None
    minimum_presses: Board | None
    inside_claim: bool
    how_found: str


@dataclasses.dataclass
class SizeAudit:
    """The audit of one board size."""

    n: int
    claim: str | None
    exhaustive: bool
    states: int
    solvable: int
    cleared: int
    failed: int
    minimal: int
    unknown: int
    presses_mean: float | None
    presses_max: int | None
    excess_max: int | None
    exact: tuple | None
    smallest_failure: Counterexample | None
    smallest_excess: Counterexample | None
    seconds: float


@dataclasses.dataclass
class Audit:
    """An algorithm audited over several sizes."""

    algorithm: str
    reading: str
    seed: int
    states_per_size: int
    sizes: list

    def smallest(self, kind, *, inside_claim=None):
        """The smallest counterexample of a kind over all sizes (smallest board first), or ``None``."""
        found = []
        for s in self.sizes:
            c = s.smallest_failure if kind == "fails" else s.smallest_excess
            if c is not None and (inside_claim is None or c.inside_claim == inside_claim):
                found.append(c)
        return min(found, key=lambda c: (c.n, c.state.count(), c.state.positions())) if found else None


def _key(index, n):
    """Order of small states: fewest cells on, then earliest cells in reading order."""
    return (index.bit_count(), [i for i in range(n * n) if (index >> i) & 1])


def _board_of(index, n):
    cells = np.array([(index >> i) & 1 for i in range(n * n)], dtype=np.uint8).reshape(n, n)
    return Board.from_cells(cells)


def _example(algorithm, reading, n, kind, state, how):
    r = run(state, algorithm, reading=reading)
    best = None
    count = None
    x = gf2.solve_packed(state.words, n)
    if x is not None:
        best, proven, _, _ = minimise(Board(x, n))
        count = best.count() if proven else None
    return Counterexample(n, kind, state, r, count, best, claim(algorithm, n) is not None, how)


def audit(algorithm, sizes, *, reading="text", states=1000, seed=0, exhaustive_max_n=5, time_limit=10.0,
          progress=None):
    """Audit ``algorithm`` on each board size in ``sizes``.

    Parameters
    ----------
    algorithm : str
        One of :data:`~labyrinth.puzzles.toggle.algorithms.ALGORITHMS`.
    sizes : list of int
    reading : {"text", "proof"}
        How two-way's second iteration is scanned (see :mod:`~labyrinth.puzzles.toggle.algorithms`).
    states : int
        Seeded random solvable states per size past ``exhaustive_max_n``.
    seed : int
    exhaustive_max_n : int
        Every state (``2^(n^2)``) up to this size; at most 5.
    time_limit : float
        CP-SAT seconds per state for minima of large ``3k+2`` boards (past them: ``unknown``).
    progress : callable or None
        Called with the number of states just finished, for a progress bar.
    """
    algorithm_code(algorithm, reading)
    out = []
    for n in sizes:
        t0 = time.perf_counter()
        if n <= min(exhaustive_max_n, 5):
            size = _exhaustive(algorithm, reading, n, progress)
        else:
            size = _sampled(algorithm, reading, n, states, seed, time_limit, progress)
        if n <= EXACT_MAX_N:
            size.exact = cleared_dimension(algorithm, n, reading=reading, space="solvable")
            if size.exhaustive and size.cleared != 2 ** size.exact[0]:
                raise AssertionError("the exhaustive run and the linear measurement disagree")  # a bug
        size.seconds = time.perf_counter() - t0
        out.append(size)
    return Audit(algorithm, reading, seed, states, out)


def _exhaustive(algorithm, reading, n, progress):
    code, rd = algorithm_code(algorithm, reading)
    total = 1 << (n * n)
    chunk = 1 << 20
    clicks = np.empty(total, dtype=np.int16)
    for first in range(0, total, chunk):
        count = min(chunk, total - first)
        clicks[first:first + count] = K.run_every_state(n, code, rd, first, count)
        if progress:
            progress(count)
    table = np.full(total, -1, dtype=np.int16)
    states, minima = all_minima(n)
    table[states] = minima
    solvable = table >= 0
    cleared = clicks >= 0
    if (cleared & ~solvable).any():
        raise AssertionError("an algorithm cleared an unsolvable state")  # a bug in the oracle or the runner
    failed = solvable & ~cleared
    excess = np.where(cleared, clicks - table, 0)
    if (excess < 0).any():
        raise AssertionError("an algorithm beat the proven minimum")  # a bug
    smallest_failure = smallest_excess = None
    for mask, kind in ((failed, "fails"), (excess > 0, "not minimal")):
        idx = np.nonzero(mask)[0]
        if idx.size:
            weights = np.bitwise_count(idx)
            few = idx[weights == weights.min()]
            best = min((int(i) for i in few), key=lambda i: _key(i, n))
            ex = _example(algorithm, reading, n, kind, _board_of(best, n), "every state tried")
            if kind == "fails":
                smallest_failure = ex
            else:
                smallest_excess = ex
    c = clicks[cleared]
    return SizeAudit(n, claim(algorithm, n), True, total, int(solvable.sum()), int(cleared.sum()), int(failed.sum()),
                     int((cleared & (excess == 0)).sum()), 0, float(c.mean()) if c.size else None,
                     int(c.max()) if c.size else None, int(excess.max()) if c.size else None, None,
                     smallest_failure, smallest_excess, 0.0)


def _sampled(algorithm, reading, n, states, seed, time_limit, progress):
    solvable = cleared = failed = minimal = unknown = 0
    presses, excesses = [], []
    worst_fail = worst_excess = None
    for i in range(states):
        state = random_solvable(n, (seed, n, i))
        r = run(state, algorithm, reading=reading)
        solvable += 1
        if not r.cleared:
            failed += 1
            key = (state.count(), state.positions())
            if worst_fail is None or key < worst_fail[0]:
                worst_fail = (key, state)
        else:
            cleared += 1
            presses.append(r.clicks)
            best, proven, _, _ = minimise(Board(gf2.solve_packed(state.words, n), n), time_limit=time_limit)
            if not proven:
                unknown += 1
            else:
                e = r.clicks - best.count()
                if e < 0:
                    raise AssertionError("an algorithm beat the proven minimum")  # a bug
                excesses.append(e)
                minimal += e == 0
                key = (state.count(), state.positions())
                if e > 0 and (worst_excess is None or key < worst_excess[0]):
                    worst_excess = (key, state)
        if progress:
            progress(1)
    smallest = {}
    for kind, sample in (("fails", worst_fail), ("not minimal", worst_excess)):
        if sample is None:
            smallest[kind] = None
            continue
        found = smallest_counterexample(algorithm, n, kind, reading=reading)
        smallest[kind] = found or _example(algorithm, reading, n, kind, sample[1],
                                           f"the smallest of {states} random states (no state with fewer "
                                           f"cells on found in {SEARCH_BUDGET} tries)")
    return SizeAudit(n, claim(algorithm, n), False, states, solvable, cleared, failed, minimal, unknown,
                     float(np.mean(presses)) if presses else None, max(presses) if presses else None,
                     max(excesses) if excesses else None, None, smallest["fails"], smallest["not minimal"], 0.0)


def smallest_counterexample(algorithm, n, kind, *, reading="text", budget=SEARCH_BUDGET, max_cells=4):
    """The first solvable state, by fewest cells on then reading order, where the algorithm fails (``kind="fails"``) or is not minimal.

    Tries at most ``budget`` states with up to ``max_cells`` cells on; ``None`` if none of them is one.
    """
    tried = 0
    for w in range(1, max_cells + 1):
        for cells in itertools.combinations(range(n * n), w):
            tried += 1
            if tried > budget:
                return None
            grid = np.zeros(n * n, dtype=np.uint8)
            grid[list(cells)] = 1
            state = Board.from_cells(grid.reshape(n, n))
            if not is_solvable(state):
                continue
            r = run(state, algorithm, reading=reading)
            if kind == "fails":
                if not r.cleared:
                    return _example(algorithm, reading, n, kind, state, f"states tried by cells on ({tried})")
                continue
            if r.cleared:
                best, proven, _, _ = minimise(Board(gf2.solve_packed(state.words, n), n))
                if proven and r.clicks > best.count():
                    return _example(algorithm, reading, n, kind, state, f"states tried by cells on ({tried})")
    return None
