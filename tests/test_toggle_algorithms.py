"""Toggle squares, the note's algorithms: as described, linear, and audited against the exact minimum."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labyrinth.puzzles.toggle import (
    Board,
    audit,
    claim,
    cleared_dimension,
    is_solvable,
    random_solvable,
    run,
    solve,
)
from labyrinth.puzzles.toggle.algorithms import ALGORITHMS, domain_basis, residuals
from labyrinth.puzzles.toggle.audit import smallest_counterexample

VARIANTS = [("one-way", "text"), ("two-way", "text"), ("two-way", "proof"), ("three-k-plus-one", "text")]


def reference(cells, algorithm, reading="text"):
    """The algorithms transcribed again from the toggle-squares note in plain Python: the presses and the final board."""
    n = cells.shape[0]
    b = cells.copy()
    presses = []

    def press(r, c):
        b[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2] ^= 1
        presses.append((r, c))

    def clear_row(r, pr):
        for c in range(n - 1, -1, -1):  # right to left: the cell diagonally left of each filled cell
            if b[r, c] and c > 0:
                press(pr, c - 1)
        if algorithm == "one-way":
            return
        if algorithm == "three-k-plus-one" and b[r, 0]:  # a single filled cell left: the cell below / above it
            press(pr, 0)
        order = range(n - 1, -1, -1) if algorithm == "two-way" and reading == "text" else range(n)
        for c in order:  # the cell diagonally right of each filled cell
            if b[r, c] and c + 1 < n:
                press(pr, c + 1)

    for r in range(n - 1):
        clear_row(r, r + 1)
    if algorithm != "one-way":
        if algorithm == "three-k-plus-one":
            clear_row(n - 1, n - 1)
        for r in range(n - 1, 0, -1):
            clear_row(r, r - 1)
    return presses, b


def cells_of(seed, n, density=0.5):
    return (np.random.default_rng(seed).random((n, n)) < density).astype(np.uint8)


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 20), st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS))
def test_runs_match_a_second_transcription_of_the_note(n, seed, variant):
    algorithm, reading = variant
    cells = cells_of(seed, n)
    r = run(Board.from_cells(cells), algorithm, reading=reading)
    presses, final = reference(cells, algorithm, reading)
    assert [tuple(p) for p in r.presses[:, :2].tolist()] == presses
    assert np.array_equal(r.final.cells(), final)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 16), st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS))
def test_every_press_answers_a_filled_cell_where_the_note_says(n, seed, variant):
    algorithm, reading = variant
    r = run(Board.from_cells(cells_of(seed, n)), algorithm, reading=reading)
    boards = r.boards()
    for t, (pr, pc, tr, tc, phase) in enumerate(r.press_positions()):
        assert boards[t].cells()[tr - 1, tc - 1] == 1  # the trigger was filled when pressed
        row = {"down": tr + 1, "up": tr - 1, "bottom row": tr}[phase]
        assert pr == row
        allowed = {tc - 1, tc + 1} | ({tc} if algorithm == "three-k-plus-one" and tc == 1 else set())
        if algorithm == "one-way":
            allowed = {tc - 1}
        assert pc in allowed
    assert np.array_equal(boards[-1].cells(), r.final.cells())


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 14), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS))
def test_algorithms_are_linear_over_gf2(n, s1, s2, variant):
    """The board left from B1 + B2 is the sum of the boards left from B1 and from B2."""
    algorithm, reading = variant
    a, b = cells_of(s1, n), cells_of(s2, n)
    left = [run(Board.from_cells(x), algorithm, reading=reading).final.cells() for x in (a, b, a ^ b)]
    assert np.array_equal(left[2], left[0] ^ left[1])


@pytest.mark.parametrize("algorithm, reading", VARIANTS)
def test_sixty_four_boards_at_once_equal_one_at_a_time(algorithm, reading):
    n = 9
    basis = [cells_of(s, n, 0.3) for s in range(100)]
    together = residuals(algorithm, basis, reading=reading)
    for cells, left in zip(basis, together):
        assert np.array_equal(run(Board.from_cells(cells), algorithm, reading=reading).final.cells(), left)


@pytest.mark.parametrize("n", [2, 5, 8, 11, 14])
def test_theorem_3_one_way_clears_every_solvable_3k_plus_2_state(n):
    d, dim = cleared_dimension("one-way", n)
    assert d == dim == (n - 1) ** 2
    for t in range(20):
        assert run(random_solvable(n, (21, n, t)), "one-way").cleared


@pytest.mark.parametrize("n", [3, 6, 9, 12])
def test_theorem_4_holds_as_its_proof_reads_but_not_as_its_text_reads(n):
    d, dim = cleared_dimension("two-way", n, reading="proof")
    assert d == dim == n * n
    d, dim = cleared_dimension("two-way", n, reading="text")
    assert d < dim
    corner = np.zeros((n, n), dtype=np.uint8)
    corner[0, 0] = 1
    text = run(Board.from_cells(corner), "two-way")
    assert not text.cleared  # the lone corner cell: pushed right by a right-to-left scan, it is left behind
    assert run(Board.from_cells(corner), "two-way", reading="proof").cleared


@pytest.mark.parametrize("n", [1, 4, 7, 10, 13])
def test_theorem_5_the_3k_plus_1_variant_clears_every_state(n):
    d, dim = cleared_dimension("three-k-plus-one", n)
    assert d == dim == n * n


@pytest.mark.parametrize("n", [6, 9])
def test_theorem_4_proof_step_clearing_a_row_copies_it_into_the_two_rows_above(n):
    """The proof's claim: a row cleared by presses in the row above, with two blank rows above, reappears in both."""
    rng = np.random.default_rng(n)
    for _ in range(10):
        cells = np.zeros((n, n), dtype=np.uint8)
        cells[-1] = rng.integers(0, 2, n, dtype=np.uint8)
        r = run(Board.from_cells(cells), "two-way", reading="proof")
        first_up = [t for t, p in enumerate(r.press_positions()) if p[2] == n]  # presses answering row n
        if not first_up:
            continue
        after = r.boards()[first_up[-1] + 1].cells()
        assert not after[-1].any()
        assert np.array_equal(after[-2], cells[-1]) and np.array_equal(after[-3], cells[-1])


@pytest.mark.parametrize("n", [5, 8])
def test_on_solvable_3k_plus_2_states_every_algorithm_is_the_one_way(n):
    """Each row of a solvable 3k+2 state is cleared by the left iteration alone, so nothing else ever fires."""
    for t in range(10):
        state = random_solvable(n, (22, n, t))
        presses = run(state, "one-way").presses[:, :2].tolist()
        for algorithm in ("two-way", "three-k-plus-one"):
            assert run(state, algorithm).presses[:, :2].tolist() == presses


def test_claims_name_the_note_theorems():
    assert claim("one-way", 5).startswith("Theorem 3") and claim("one-way", 6) is None
    assert claim("two-way", 6).startswith("Theorem 4") and claim("two-way", 7) is None
    assert claim("three-k-plus-one", 7).startswith("Theorem 5") and claim("three-k-plus-one", 5) is None
    assert set(ALGORITHMS) == {"one-way", "two-way", "three-k-plus-one"}


@pytest.mark.parametrize("algorithm, reading", VARIANTS)
def test_exhaustive_audit_agrees_with_runs_and_the_linear_measure(algorithm, reading):
    report = audit(algorithm, [1, 2, 3, 4], reading=reading)
    for s in report.sizes:
        n = s.n
        assert s.exhaustive and s.states == 2 ** (n * n)
        assert s.cleared == 2 ** s.exact[0] and s.solvable == 2 ** s.exact[1]
        assert s.cleared + s.failed == s.solvable
        if n <= 3:  # recount by running every state one at a time, with the minimum from the solver
            cleared = minimal = 0
            for index in range(2 ** (n * n)):
                cells = np.array([(index >> i) & 1 for i in range(n * n)], dtype=np.uint8).reshape(n, n)
                state = Board.from_cells(cells)
                if not is_solvable(state):
                    continue
                r = run(state, algorithm, reading=reading)
                if r.cleared:
                    cleared += 1
                    minimal += r.clicks == solve(state, minimum=True).presses.count()
            assert (cleared, minimal) == (s.cleared, s.minimal)
        for c in (s.smallest_failure, s.smallest_excess):
            if c is not None:  # the same state the search by cells on finds first
                found = smallest_counterexample(algorithm, n, c.kind, reading=reading, budget=10**5, max_cells=3)
                assert found is not None and found.state == c.state


def test_sampled_audit_reports_non_minimal_runs_with_a_checked_minimum():
    report = audit("one-way", [8], states=40, seed=3)
    s = report.sizes[0]
    assert not s.exhaustive and s.failed == 0 and s.cleared == 40
    c = s.smallest_excess
    assert c is not None and c.run.clicks > c.minimum == c.minimum_presses.count()
    assert solve(c.state, minimum=True).presses.count() == c.minimum


def test_one_way_is_not_minimal_on_5x5():
    """The note's closing remark (one-way needs the fewest presses on 3k+2 boards) fails on 5x5."""
    report = audit("one-way", [5], exhaustive_max_n=4, states=200, seed=5)
    s = report.sizes[0]
    assert s.failed == 0 and s.minimal < s.cleared
    c = report.smallest("not minimal")
    assert c.n == 5 and c.inside_claim and c.run.clicks > c.minimum
    assert run(c.state, "one-way").clicks == c.run.clicks
    # the minimum is real: a smaller press set clears the same board
    assert solve(c.state, minimum=True).presses.count() == c.minimum


def test_domain_basis_spans_the_solvable_states():
    from labyrinth.puzzles.toggle import gf2

    for n in (2, 5, 8):
        basis = domain_basis("one-way", n)
        flat = np.stack([b.reshape(-1) for b in basis])
        assert gf2.dense_rank(flat) == len(basis) == gf2.dense_rank(gf2.press_matrix(n))
