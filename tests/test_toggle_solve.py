"""Toggle squares, fewest presses: the switching reduction and CP-SAT against brute force; worst cases."""

import itertools

import numpy as np
import pytest
from numba import njit

from labyrinth.puzzles.toggle import (
    Board,
    all_minima,
    brute_minimum,
    gf2,
    minimise,
    random_solvable,
    solve,
    worst_case,
)
from labyrinth.puzzles.toggle import _kernels as K
from labyrinth.puzzles.toggle.solve import _rows_as_ints, switching_value

#: Berlekamp's switching game on m x m, m = 1..8: OEIS A005311 (P. C. Fishburn and N. J. A. Sloane, "The solution
#: to Berlekamp's switching game", Discrete Math. 74 (1989) 263-290; n = 10 corrected by J. Carlson and
#: D. Stolarski, Discrete Math. 287 (2004) 145-150). Published figures, pinned with their source.
A005311 = [0, 1, 2, 4, 7, 11, 16, 22]


@njit(cache=False)
def _fewest_by_state(n, masks):
    """For every press pattern of an n x n board, its state; keep the fewest presses per state (-1: none)."""
    size = n * n
    best = np.full(1 << size, -1, dtype=np.int16)
    for p in range(1 << size):
        b = 0
        c = 0
        q = p
        bit = 0
        while q:
            if q & 1:
                b ^= masks[bit]
                c += 1
            q >>= 1
            bit += 1
        if best[b] < 0 or c < best[b]:
            best[b] = c
    return best


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_every_minimum_is_the_fewest_over_all_press_patterns(n):
    """all_minima (one corner pattern per coset, kernel enumerated) against every one of the 2^(n^2) patterns."""
    table = _fewest_by_state(n, K.press_masks(n))
    states, minima = all_minima(n)
    reachable = np.nonzero(table >= 0)[0]
    assert np.array_equal(np.sort(states), reachable)
    assert np.array_equal(minima, table[states])
    assert len(states) == 2 ** gf2.dense_rank(gf2.press_matrix(n))


def _brute_force_minimum(state):
    """The fewest presses by trying every press pattern with the least cells first (boards up to 4x4)."""
    n = state.n
    target = state.cells()
    for w in range(n * n + 1):
        for cells in itertools.combinations(range(n * n), w):
            x = np.zeros(n * n, dtype=np.uint8)
            x[list(cells)] = 1
            if np.array_equal(gf2.apply_cells(x.reshape(n, n)), target):
                return w
    return None


@pytest.mark.parametrize("n", [2, 3, 4])
def test_minimum_against_the_plainest_brute_force(n):
    for t in range(6 if n < 4 else 2):
        state = random_solvable(n, (11, n, t))
        s = solve(state, minimum=True)
        assert s.minimum == "proven" and s.presses.count() == _brute_force_minimum(state)


@pytest.mark.parametrize("n", [2, 5, 8, 11])
@pytest.mark.parametrize("method", ["enumerate", "cpsat"])
def test_switching_reduction_agrees_with_the_whole_kernel(n, method):
    """The reduced search (enumeration or CP-SAT) finds what trying all 2^(2n-1) kernel elements finds."""
    for t in range(5 if n < 11 else 2):
        state = random_solvable(n, (12, n, t))
        s = solve(state, minimum=True, method=method, time_limit=60)
        count, best = brute_minimum(Board(gf2.solve_packed(state.words, n), n))
        assert s.minimum == "proven" and s.presses.count() == count == s.lower_bound
        assert np.array_equal(gf2.apply_cells(s.presses.cells()), state.cells())
        assert np.array_equal(gf2.apply_cells(best.cells()), state.cells())


def test_minimum_of_sparse_states_on_a_larger_board():
    """Beyond brute force: a board made by k presses needs at most k; CP-SAT and enumeration agree (n = 29)."""
    n = 29
    rng = np.random.default_rng(5)
    for k in (1, 3, 6):
        x = np.zeros((n, n), dtype=np.uint8)
        x.reshape(-1)[rng.choice(n * n, k, replace=False)] = 1
        state = Board.from_cells(gf2.apply_cells(x))
        a = solve(state, minimum=True, method="enumerate")
        b = solve(state, minimum=True, method="cpsat", time_limit=60)
        assert a.minimum == b.minimum == "proven"
        assert a.presses.count() == b.presses.count() <= k


def test_minimum_goal_on():
    for n in (3, 5):
        state = random_solvable(n, (13, n), goal="on")
        s = solve(state, "on", minimum=True)
        target = np.ones((n, n), dtype=np.uint8) ^ state.cells()
        assert np.array_equal(gf2.apply_cells(s.presses.cells()), target)
        assert s.presses.count() == brute_minimum(Board(gf2.solve_packed(Board.from_cells(target).words, n), n))[0]


def test_unsolvable_state_has_no_solution():
    cells = np.zeros((5, 5), dtype=np.uint8)
    cells[0, 0] = 1  # the corner cell alone (Theorem 1's argument: its first row is not a sum of 1-D presses)
    s = solve(Board.from_cells(cells), minimum=True)
    assert not s.solvable and s.presses is None


def test_cpsat_past_its_time_limit_is_unknown_not_a_guess():
    n = 152  # a 102 x 102 switching core: far beyond a 0.05 s proof
    state = random_solvable(n, 1)
    s = solve(state, minimum=True, method="cpsat", time_limit=0.05)
    assert s.minimum == "unknown"
    assert np.array_equal(gf2.apply_packed(s.presses.words, n), state.words)  # still a solution
    assert s.lower_bound is None or s.lower_bound <= s.presses.count()


def test_enumeration_past_its_time_limit_is_unknown_not_a_guess():
    n = 47  # a 32 x 32 switching core: 2^31 column flips, far beyond 0.05 s
    state = random_solvable(n, 2)
    s = solve(state, minimum=True, method="enumerate", time_limit=0.05)
    assert s.minimum == "unknown" and s.lower_bound is None
    assert np.array_equal(gf2.apply_packed(s.presses.words, n), state.words)  # still a solution
    first = Board(gf2.solve_packed(state.words, n), n)
    assert s.presses.count() <= first.count()


def _switching_brute(m):
    """The switching game's value by trying every m x m matrix with row 0 and column 0 zero (m <= 5)."""
    best = 0
    free = (m - 1) * (m - 1)
    for bits in range(1 << free):
        block = np.zeros((m, m), dtype=np.uint8)
        block[1:, 1:] = np.array([(bits >> i) & 1 for i in range(free)], dtype=np.uint8).reshape(m - 1, m - 1)
        value, _ = K.core_minimum(_rows_as_ints(block), m)
        best = max(best, value)
    return best


@pytest.mark.parametrize("m", [1, 2, 3, 4, 5])
def test_switching_search_against_brute_force(m):
    value, block, proven, _ = switching_value(m)
    assert proven and value == _switching_brute(m)
    assert K.core_minimum(_rows_as_ints(block), m)[0] == value


def test_switching_values_match_the_published_sequence():
    got = [switching_value(m)[0] for m in range(1, 9)]
    assert got == A005311


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_worst_case_is_the_largest_exhaustive_minimum(n):
    _, minima = all_minima(n)
    w = worst_case(n)
    assert w.proven and w.value == int(minima.max())
    assert solve(w.state, minimum=True).presses.count() == w.value


@pytest.mark.parametrize("n", [8, 11])
def test_worst_case_witness_needs_that_many_presses_by_brute_force(n):
    w = worst_case(n)
    assert w.proven and "brute force" in w.checked
    count, _ = brute_minimum(Board(gf2.solve_packed(w.state.words, n), n))
    assert count == w.value
    # and no sampled solvable state needs more
    for t in range(200):
        s = solve(random_solvable(n, (14, n, t)), minimum=True)
        assert s.presses.count() <= w.value


@pytest.mark.parametrize("n", [1, 3, 4, 6])
def test_worst_case_off_3k_plus_2_is_pressing_everything(n):
    w = worst_case(n)
    assert w.value == n * n and w.presses.count() == n * n
    assert solve(w.state, minimum=True).presses.count() == n * n


def test_minimise_keeps_the_toggled_board():
    rng = np.random.default_rng(9)
    for n in (5, 8, 14, 20):
        x = Board.from_cells(rng.integers(0, 2, (n, n), dtype=np.uint8))
        best, proven, bound, _ = minimise(x)
        assert proven and best.count() == bound <= x.count()
        assert np.array_equal(gf2.apply_cells(best.cells()), gf2.apply_cells(x.cells()))
