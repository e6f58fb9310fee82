"""Toggle squares, the note's claims checked by computation; the theorem table of docs/toggle.md is computed, not typed."""

import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from labyrinth.puzzles.toggle import Board, check_theorems, gf2, run
from labyrinth.puzzles.toggle import _kernels as K

PAGE = Path(__file__).resolve().parent.parent / "docs" / "toggle.md"


@pytest.fixture(scope="module")
def theorems():
    return check_theorems(30, algorithms_max_n=12)


def integer_det(matrix):
    """The determinant over the rationals (exact, Gaussian elimination with fractions)."""
    m = [[Fraction(int(v)) for v in row] for row in matrix]
    n, det = len(m), Fraction(1)
    for c in range(n):
        p = next((r for r in range(c, n) if m[r][c] != 0), None)
        if p is None:
            return 0
        if p != c:
            m[c], m[p] = m[p], m[c]
            det = -det
        det *= m[c][c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            m[r] = [a - f * b for a, b in zip(m[r], m[c])]
    return int(det)


def test_one_d_determinants_mod_2(theorems):
    """Lemma 2's pattern, against the integer determinant of A taken mod 2."""
    for row in theorems.rows[:24]:
        assert row.det1 == integer_det(gf2.line_matrix(row.n)) % 2


def test_two_d_rank_by_band_elimination_equals_dense_elimination_and_the_kronecker_rank(theorems):
    """The banded elimination of the rule's presses against plain Gauss-Jordan of the whole n^2 x n^2 matrix."""
    for row in theorems.rows:
        assert row.rank2 == row.rank1 ** 2
        if row.n <= 16:
            assert row.rank2 == gf2.dense_rank(gf2.press_matrix(row.n))


@pytest.mark.parametrize("n", [2, 3, 5, 7, 8, 11, 13])
def test_band_rank_of_any_set_of_presses_equals_dense_elimination(n):
    rng = np.random.default_rng(n)
    m = gf2.press_matrix(n)
    for density in (0.2, 0.6, 0.9):
        include = rng.random(n * n) < density
        assert K.band_rank(n, include) == gf2.dense_rank(m[:, include])


def test_claims_hold_except_where_the_note_is_wrong(theorems):
    by_key = {c.key: c for c in theorems.claims}
    failing = {k for k, c in by_key.items() if not c.holds}
    assert failing == {"theorem-4", "one-way-minimal"}
    # Theorem 4 as written fails on every 3k board: the lone corner cell is never cleared
    assert by_key["theorem-4"].failures == [n for n in range(3, 13, 3)]
    for n in by_key["theorem-4"].failures[:2]:
        corner = np.zeros((n, n), dtype=np.uint8)
        corner[0, 0] = 1
        assert not run(Board.from_cells(corner), "two-way").cleared
    assert by_key["one-way-minimal"].failures == [5]
    # every claim was checked on every size of the form it speaks about
    assert by_key["theorem-1"].sizes == by_key["dimension"].sizes == [n for n in range(1, 31) if n % 3 == 2]
    assert by_key["theorem-2"].sizes == [n for n in range(1, 31) if n % 3 != 2]
    assert by_key["theorem-3"].sizes == [2, 5, 8, 11]
    assert by_key["lemma-1"].sizes == list(range(1, 31))


def _page_table():
    text = PAGE.read_text(encoding="utf-8")
    section = text[text.index("## The theorems"):]
    rows = re.findall(r"^\| (\d+) \| (3k(?:\+[12])?) \| (\d+) \| ([01]) \| (\d+) \| (\d+) \| 2\^(\d+) \|$", section,
                      flags=re.MULTILINE)
    return [tuple(int(v) if v.isdigit() else v for v in r) for r in rows]


def test_the_pages_theorem_table_is_what_the_computation_gives(theorems):
    table = _page_table()
    assert len(table) >= 20, "docs/toggle.md's theorem table is missing"
    computed = {r.n: (r.n, r.form, r.rank1, r.det1, r.rank2, r.nullity2, r.rank2) for r in theorems.rows}
    for row in table:
        assert row == computed[row[0]]
