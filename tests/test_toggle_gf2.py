"""Toggle squares, the exact oracle: packing, the press rule, the Kronecker solve against plain elimination."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.puzzles.toggle import (
    Board,
    gf2,
    is_solvable,
    kernel_basis,
    parse_board,
    random_solvable,
)


def boards(max_n=70):
    """Square 0/1 arrays of assorted sizes (across word boundaries too) and densities."""
    def make(args):
        n, seed, density = args
        return (np.random.default_rng(seed).random((n, n)) < density).astype(np.uint8)

    return st.tuples(st.integers(1, max_n), st.integers(0, 2**32 - 1),
                     st.sampled_from([0.0, 0.05, 0.5, 0.95, 1.0])).map(make)


def press_by_rule(cells):
    """The board toggled by pressing every cell set in ``cells``: the 3x3 block rule, applied press by press."""
    n = cells.shape[0]
    out = np.zeros((n, n), dtype=np.uint8)
    for i, j in zip(*np.nonzero(cells)):
        out[max(i - 1, 0):i + 2, max(j - 1, 0):j + 2] ^= 1
    return out


@settings(max_examples=60, deadline=None)
@given(boards(140))
def test_packing_round_trips(cells):
    assert np.array_equal(gf2.unpack(gf2.pack(cells), cells.shape[1]), cells)
    b = Board.from_cells(cells)
    assert b.count() == int(cells.sum())
    assert parse_board(b.text()) == b


@settings(max_examples=60, deadline=None)
@given(boards())
def test_packed_presses_follow_the_press_rule(cells):
    assert np.array_equal(gf2.apply_cells(cells), press_by_rule(cells))


@pytest.mark.parametrize("n", range(1, 13))
def test_press_matrix_is_the_kronecker_product_of_the_line_matrix(n):
    a = gf2.line_matrix(n)
    assert np.array_equal(gf2.press_matrix(n), np.kron(a, a))
    # and it is the rule: column (i, j) is what pressing (i, j) toggles
    m = gf2.press_matrix(n)
    for i in range(n):
        for j in range(n):
            x = np.zeros((n, n), dtype=np.uint8)
            x[i, j] = 1
            assert np.array_equal(m[:, i * n + j], press_by_rule(x).reshape(-1))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8, 11, 14, 17, 20, 23, 26])
def test_kronecker_solve_agrees_with_plain_elimination(n):
    """Solvable exactly when dense Gauss-Jordan on the n^2 x n^2 matrix says so; every solution checked by the rule."""
    m = gf2.press_matrix(n)
    rng = np.random.default_rng(n)
    verdicts = set()
    for t in range(12):
        if t % 3 == 0:  # a state known to be solvable: the board of some presses
            b = press_by_rule(rng.integers(0, 2, (n, n), dtype=np.uint8))
        else:
            b = rng.integers(0, 2, (n, n), dtype=np.uint8)
        x, ok = gf2.solve_cells(b)
        dense = gf2.dense_solve(m, b.reshape(-1))
        assert ok == (dense is not None)
        verdicts.add(ok)
        if ok:
            assert np.array_equal(press_by_rule(x), b)
            assert np.array_equal(press_by_rule(dense.reshape(n, n)), b)
    assert verdicts == ({True, False} if n % 3 == 2 else {True})


@settings(max_examples=80, deadline=None)
@given(boards(40))
def test_solvable_exactly_when_rows_and_columns_are_even_on_v(cells):
    """For n = 3k+2: B is solvable iff B v = 0 and v^T B = 0 (v = 110110...11); else always."""
    n = cells.shape[0]
    x, ok = gf2.solve_cells(cells)
    v = gf2.kernel_vector(n)
    if v is None:
        assert ok
    else:
        assert ok == (not ((cells.astype(int) @ v) % 2).any() and not ((v @ cells.astype(int)) % 2).any())
    if ok:
        assert np.array_equal(press_by_rule(x), cells)


@pytest.mark.parametrize("n", range(1, 40))
def test_line_solve_agrees_with_elimination(n):
    a = gf2.line_matrix(n)
    rng = np.random.default_rng(100 + n)
    for _ in range(6):
        c = rng.integers(0, 2, n, dtype=np.uint8)
        x, ok = gf2.solve_line(c)
        dense = gf2.dense_solve(a, c)
        assert ok == (dense is not None)
        if ok:
            assert np.array_equal((a.astype(int) @ x) % 2, c)


@pytest.mark.parametrize("n", [2, 5, 8, 11, 14, 29])
def test_kernel_basis_is_in_the_kernel_and_independent(n):
    basis = kernel_basis(n)
    assert len(basis) == 2 * n - 1
    for b in basis:
        assert not press_by_rule(b.cells()).any()
    flat = np.stack([b.cells().reshape(-1) for b in basis])
    assert gf2.dense_rank(flat) == 2 * n - 1
    if n <= 11:  # and it is the whole kernel: nullity by plain elimination
        assert n * n - gf2.dense_rank(gf2.press_matrix(n)) == 2 * n - 1


@pytest.mark.parametrize("n", [1, 3, 4, 6, 7, 9])
def test_no_kernel_off_3k_plus_2(n):
    assert kernel_basis(n) == [] and gf2.dense_rank(gf2.press_matrix(n)) == n * n


@pytest.mark.parametrize("n", [1000, 1001, 1002])
def test_large_board_is_solved_and_checked(n):
    b = random_solvable(n, seed=7)
    x = gf2.solve_packed(b.words, n)
    assert x is not None and np.array_equal(gf2.apply_packed(x, n), b.words)
    assert is_solvable(b)
    flipped = b.cells()
    flipped[0, 0] ^= 1
    assert is_solvable(Board.from_cells(flipped)) == (n % 3 != 2)


@pytest.mark.parametrize("n", [2, 5, 8])
def test_random_solvable_states_are_uniform_over_the_solvable_space(n):
    """Every draw is solvable (to both goals), and draws differ (not a fixed state)."""
    draws = [random_solvable(n, (3, t)) for t in range(20)]
    assert all(is_solvable(b) for b in draws)
    if n == 2:  # the solvable 2x2 states: all off, all on (one press toggles all four)
        assert {b.text() for b in draws} == {"00\n00\n", "11\n11\n"}
    else:
        assert len({b.text() for b in draws}) == 20
    on = [random_solvable(n, (4, t), goal="on") for t in range(5)]
    assert all(is_solvable(b, goal="on") for b in on)
