"""Magic knight's tours: the checker, the search and the CP-SAT model against brute force, the CLI.

The one heavy test (about 30-60 s on one core) is the essential one: every
centrally symmetric semi-magic tour enumerated, pinned to the literature's 17
classes (16 figures) and the puzzle author's best symmetric tour (his figure 2).
"""

import pytest
from brute_puzzle import all_paths
from hypothesis import given, settings
from hypothesis import strategies as st

import labyrinth.cli as cli
from labyrinth.core.graph import MoveGraph, leaper_deltas
from labyrinth.errors import BackendError, LabyrinthError
from labyrinth.puzzles.knight import _magic_search as S
from labyrinth.puzzles.knight import knight_graph
from labyrinth.puzzles.knight._magic_cpsat import count_cpsat
from labyrinth.puzzles.knight.magic import (
    ALL,
    FOUND,
    Conditions,
    canonical,
    check_magic,
    enumerate_magic,
    find_magic,
    geometry_key,
    orbit,
)

#: the puzzle author's best symmetric tour (his figure 2, rows from the top): semi-magic, symmetric, diagonals 264, 256
FIGURE_2 = [[43, 46, 1, 24, 41, 20, 63, 22], [2, 25, 42, 45, 64, 23, 40, 19], [47, 44, 27, 4, 17, 38, 21, 62],
            [26, 3, 48, 37, 28, 61, 18, 39], [7, 50, 29, 60, 5, 16, 35, 58], [30, 53, 6, 49, 36, 59, 12, 15],
            [51, 8, 55, 32, 13, 10, 57, 34], [54, 31, 52, 9, 56, 33, 14, 11]]
#: Beverley's semi-magic tour (1848), the first published; open (Jelliss, Knight's Tour Notes 9)
BEVERLEY = [[1, 30, 47, 52, 5, 28, 43, 54], [48, 51, 2, 29, 44, 53, 6, 27], [31, 46, 49, 4, 25, 8, 55, 42],
            [50, 3, 32, 45, 56, 41, 26, 7], [33, 62, 15, 20, 9, 24, 39, 58], [16, 19, 34, 61, 40, 57, 10, 23],
            [63, 14, 17, 36, 21, 12, 59, 38], [18, 35, 64, 13, 60, 37, 22, 11]]


def cells_of(grid):
    where = {v: y * len(grid) + x for y, row in enumerate(grid) for x, v in enumerate(row)}
    return tuple(where[k] for k in range(1, len(where) + 1))


FIG2 = cells_of(FIGURE_2)
BEV = cells_of(BEVERLEY)
SYM = Conditions(symmetric=True)


# --- the checker -----------------------------------------------------------------------------------------------


def test_published_tours_pass_their_conditions_and_fail_the_others():
    assert check_magic(FIG2, SYM) == ()
    assert check_magic(FIG2, Conditions(closed=True)) == ()
    diag = check_magic(FIG2, Conditions(symmetric=True, diagonals=True))
    assert diag == ("diagonal (1,1)-(8,8) sums to 264, not 260", "diagonal (8,1)-(1,8) sums to 256, not 260")
    assert check_magic(BEV) == ()
    assert any("not closed" in f for f in check_magic(BEV, Conditions(closed=True)))
    assert any("symmetric" in f for f in check_magic(BEV, SYM))


def test_every_image_of_a_tour_keeps_its_conditions():
    images = orbit(FIG2)
    assert len(images) == 16
    assert all(check_magic(t, SYM) == () for t in images)
    assert len({geometry_key(t) for t in images}) == 1
    assert canonical(FIG2) == min(images)


def test_conditions_labels():
    assert Conditions().label == "1-4"
    assert Conditions(closed=True).label == "1-5"
    assert Conditions(symmetric=True, diagonals=True).label == "1-7"
    assert Conditions(closed=True, diagonals=True).label == "1-5, 7"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 62), st.integers(1, 63))
def test_checker_rejects_a_tour_with_two_numbers_swapped(i, d):
    j = (i + d) % 64
    cells = list(FIG2)
    cells[i], cells[j] = cells[j], cells[i]
    faults = check_magic(cells, SYM)
    assert faults  # a swap breaks a move (a knight's path has no two-cell swap that stays one)
    assert any("knight move" in f for f in faults)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 63))
def test_checker_rejects_a_renumbered_closed_tour(shift):
    """The closed figure-2 tour numbered from another cell is a tour, closed, but no longer magic or symmetric."""
    cells = FIG2[shift:] + FIG2[:shift]
    faults = check_magic(cells, SYM)
    if shift == 32:  # the shift by 32 is the half turn: the same tour rotated
        assert faults == ()
    else:
        assert not any("knight move" in f or "closed" in f for f in faults)
        assert any("sums to" in f for f in faults) or any("symmetric" in f for f in faults)


def test_checker_rejects_bad_numberings():
    assert check_magic(FIG2[:-1])[0].startswith("not the numbers 1..64")
    assert check_magic(FIG2[:-1] + (FIG2[0],))[0].startswith("not the numbers 1..64")
    # reversed is still a tour meeting everything; rows of a transposed-by-hand grid are still fine
    assert check_magic(FIG2[::-1], SYM) == ()


# --- the search against brute force on small boards ----------------------------------------------------------------


def _brute_tours(graph, closed):
    """Every directed Hamiltonian path (closed: whose ends are a knight's move apart), by plain DFS."""
    return all_paths(graph, closed=closed)


def _kernel_tours(graph, **kw):
    p = S.plan(graph, starts=range(graph.size), depth=1, **kw)
    out = []
    for u in p.units:
        finished, tours, _, _ = S.run_unit(p, u)
        assert finished
        out += tours
    return out


def _rect(w, h):
    return MoveGraph(w, h, leaper_deltas((1, 2)))


def test_search_finds_every_tour_of_small_boards():
    for g in (_rect(3, 4), _rect(4, 3), _rect(4, 5)):
        brute = _brute_tours(g, closed=False)
        assert sorted(_kernel_tours(g, half=False, closed=False, magic=False)) == sorted(brute)


def test_search_counts_published_figures():
    # 5x5: 1728 directed open tours, 304 from a corner (OEIS A165134); none closed (odd board)
    five = _kernel_tours(knight_graph(5), half=False, closed=False, magic=False)
    assert len(five) == 1728 and sum(t[0] == 0 for t in five) == 304


def test_line_sums_prune_exactly():
    """Rows only on 4x5 (each row of 4 cells summing to 42): the search against brute force filtered by sums."""
    g = _rect(4, 5)
    rows = [([y * 4 + x for x in range(4)], 4, 42) for y in range(5)]
    brute = [t for t in _brute_tours(g, closed=False)
             if all(sum(t.index(c) + 1 for c in cells) == 42 for cells, _, _ in rows)]
    got = _kernel_tours(g, half=False, closed=False, magic=True, lines=rows)
    assert sorted(got) == sorted(brute)
    cols = [([y * 4 + x for y in range(5)], 5, 52) for x in range(4)]  # 5*21/2 is no integer: 52 is a near miss
    brute_c = [t for t in _brute_tours(g, closed=False)
               if all(sum(t.index(c) + 1 for c in cells) == 52 for cells, _, _ in cols)]
    assert sorted(_kernel_tours(g, half=False, closed=False, magic=True, lines=cols)) == sorted(brute_c)


def test_half_search_finds_the_centrally_symmetric_closed_tours():
    """6x6 from one corner: the symmetric search agrees with every closed tour filtered by the definition."""
    g = knight_graph(6)
    p = S.plan(g, half=False, closed=True, magic=False, starts=[0], depth=0)
    closed = S.run_unit(p, p.units[0])[1]
    assert len(closed) == 2 * 9862 // 1  # 9862 closed tours (cycles) of 6x6, each through the corner both ways
    sym = [t for t in closed if all(t[(i + 18) % 36] == 35 - t[i] for i in range(36))]
    h = S.plan(g, half=True, closed=True, magic=False, starts=[0], depth=0)
    assert sorted(S.run_unit(h, h.units[0])[1]) == sorted(sym)
    assert sym


def test_half_lines_follow_from_the_symmetry():
    cl, slots, targets, top = S.half_lines(8, 8, True)
    assert top == 32 and sorted(set(targets.tolist())) == [-1, 66, 132]
    # the pair targets sum to 1 + ... + 32 over the four pairs of rows
    assert sum(t for t, s in zip(targets.tolist(), slots.tolist()) if s == 8) == 2 * sum(range(1, 33))


# --- CP-SAT against the search ---------------------------------------------------------------------------------------


def test_cpsat_model_agrees_with_the_search_on_small_boards():
    g = _rect(3, 4)
    got = count_cpsat(g, closed=False, magic=False, time_limit=60)
    assert got is not None and sorted(got) == sorted(_brute_tours(g, closed=False))
    g = _rect(4, 6)  # rows 50, columns 75: no semi-magic tour, no closed tour (4 x n); both agree
    assert count_cpsat(g, closed=False, magic=True, time_limit=60) == []
    assert _kernel_tours(g, half=False, closed=False, magic=True) == []
    assert count_cpsat(g, closed=True, magic=False, time_limit=60) == []


# --- 8x8 ---------------------------------------------------------------------------------------------------------------


def test_find_a_closed_semi_magic_tour():
    r = find_magic(Conditions(closed=True), time_limit=120, seed=3)
    assert r.status == FOUND and len(r.tours) == 1
    assert check_magic(r.tours[0], Conditions(closed=True)) == ()
    assert r.tours[0].is_complete() and r.tours[0].cycle


@pytest.fixture(scope="module")
def symmetric():
    return enumerate_magic(SYM, jobs=2)


def test_every_symmetric_tour(symmetric):
    """Heavy (about 30 s on 2 cores): the literature's 17 rotation-symmetric classes, 16 figures, none diagonal."""
    r = symmetric
    assert r.status == ALL and r.units_done == r.units_total
    assert len(r.classes) == 17 and len(r.tours) == 17 * 16
    assert r.geometry_classes == 16
    assert r.closed_classes == 17 and r.diagonal_classes == 0
    assert all(check_magic(s, SYM) == () for s in r.tours)
    assert canonical(FIG2) in {s.path for s in r.classes}
    assert len({s.path for s in r.tours}) == len(r.tours)


def _half_lines_8(main, anti):
    """The half mode's lines on 8x8 written out by hand, the diagonals' first-half sums ``main`` and ``anti``."""
    lines = [([c for yy in (y, 7 - y) for c in range(yy * 8, yy * 8 + 8)], 8, 132) for y in range(4)]
    lines += [([yy * 8 + xx for xx in (x, 7 - x) for yy in range(8)], 8, 132) for x in range(4)]
    lines += [(list(range(y * 8, y * 8 + 8)), 4, -1) for y in range(8)]
    lines += [([y * 8 + x for y in range(8)], 4, -1) for x in range(8)]
    return lines + [([i * 9 for i in range(8)], 4, main), ([i * 8 + 7 - i for i in range(8)], 4, anti)]


def test_half_search_diagonal_lines():
    """Figure 2's diagonals are 264 and 256: first-half sums 68 and 64 (2 L + 128). From its first 10 cells the
    search with those targets finds it, with 66 and 66 (condition 7) it does not; the built-in lines agree."""
    g = knight_graph(8)
    prefix = S.Unit(FIG2[:10])

    def tours(**kw):
        p = S.plan(g, half=True, closed=True, starts=[FIG2[0]], depth=0, **kw)
        finished, found, _, _ = S.run_unit(p, prefix)
        assert finished
        return found

    assert FIG2 in tours(lines=_half_lines_8(68, 64))
    assert all(check_magic(t, SYM) == () for t in tours(lines=_half_lines_8(68, 64)))
    assert tours(lines=_half_lines_8(66, 66)) == tours(diagonals=True) == []
    assert FIG2 in tours(diagonals=False)


def test_bad_arguments():
    with pytest.raises(LabyrinthError):
        find_magic(Conditions(), jobs=0)
    with pytest.raises(LabyrinthError):
        find_magic(Conditions(), time_limit=-1)
    with pytest.raises(BackendError):
        find_magic(Conditions(), backend="nope")


# --- CLI -----------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["knight", "magic", "--jobs", "0"],
    ["knight", "magic", "--time-limit", "-3"],
    ["knight", "magic", "--seed", "x"],
    ["knight", "magic", "--all", "--backend", "cpsat"],
    ["knight", "magic", "--all", "--seed", "1"],
    ["knight", "magic", "--frobnicate"],
])
def test_cli_bad_input(argv, capsys):
    try:
        status = cli.main(argv)
    except SystemExit as exit_:
        status = exit_.code
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_finds_a_tour(capsys):
    assert cli.main(["knight", "magic", "--seed", "3", "--time-limit", "120"]) == 0
    out = capsys.readouterr().out
    assert "knight magic 1-4: found" in out
    path = next(line for line in out.splitlines() if line.startswith("knight:8@"))
    from labyrinth.core.path import parse_path

    assert check_magic(parse_path(path)) == ()
    assert out.count("| 260") == 8


def test_cli_time_limit_is_unknown(capsys):
    status = cli.main(["knight", "magic", "--closed", "--diagonals", "--time-limit", "0.5"])
    assert status == 3
    assert "unknown" in capsys.readouterr().err
