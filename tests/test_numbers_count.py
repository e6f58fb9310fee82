"""``labyrinth numbers count`` and its library: exact counts against brute force, symmetry, classes, the CLI."""

import argparse
import json
from pathlib import Path

import numpy as np
import pytest
from brute_puzzle import all_paths, count_paths, path_classes
from conftest import check_golden

import labyrinth.cli as cli
from labyrinth.cli._numbers import register_count, table
from labyrinth.core import _count_kernel as K
from labyrinth.core import count as CC
from labyrinth.core import count_plan as CP
from labyrinth.errors import LabyrinthError, TimeLimitError
from labyrinth.puzzles.numbers import LEAPS, numbers_graph, numbers_puzzle
from labyrinth.puzzles.numbers import count as C
from labyrinth.view.heatmap import colour_of, render_heatmap

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(scope="module")
def five():
    return C.count_solutions(5)


def _all_paths(n):
    """Every directed Hamiltonian path of the n x n board, by plain depth-first search."""
    return all_paths(numbers_graph(n))


def _brute_classes(n):
    return path_classes(numbers_graph(n), _all_paths(n))


# --- the counts ------------------------------------------------------------------------------------------------
def test_five_agrees_with_brute_force_per_start_cell(five):
    assert list(five.per_start) == count_paths(numbers_puzzle(5))
    assert five.paths == 12_400 and five.undirected == 6_200


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_small_boards_open_and_closed_agree_with_brute_force(n):
    r = C.count_solutions(n)
    assert list(r.per_start) == count_paths(numbers_puzzle(n))
    closed = count_paths(numbers_puzzle(n, closed=True))
    assert closed == [r.closed_per_start] * (n * n) and r.closed == sum(closed)
    assert r.closed_per_start == 2 * r.cycles


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_classes_agree_with_a_brute_canonical_form(n):
    r = C.count_solutions(n, closed=False)
    assert r.classes == _brute_classes(n)
    assert r.cycles is None and r.closed is None


def test_five_classes_and_fixed_paths(five):
    assert five.classes == 777 and five.group_order == 8
    # only the half turn, composed with reversal, fixes 5x5 paths: the centre in the middle
    assert five.fixed_by_reversal == (0, 0, 32, 0, 0, 0, 0, 0)
    g = numbers_graph(5)
    half_turn = tuple(int(v) for v in g.symmetries()[2])
    assert sum(1 for p in _all_paths(5) if tuple(half_turn[c] for c in reversed(p)) == p) == 32


def test_counts_are_constant_on_orbits_of_start_cells():
    r = C.count_solutions(6, closed=False)
    g = numbers_graph(6)
    for p in g.symmetries():
        assert all(r.per_start[int(p[c])] == r.per_start[c] for c in range(g.size))
    assert r.paths == 8_250_272 and r.classes == 515_743


def test_orbit_expansion_matches_a_search_without_symmetry():
    """Every start cell searched on its own, without symmetry or memo, gives the per-start counts of the plan."""
    g = numbers_graph(5)
    nb = np.ascontiguousarray(g.neighbours, dtype=np.int64)
    table = K.new_table(4)
    got = []
    for s in range(g.size):
        state = K.start(nb, np.array([s], dtype=np.int64), np.ones(g.size, dtype=np.uint8))
        while not K.run(nb, *state, table, 100, 0, 1, 100, np.zeros((g.size + 1, 3), dtype=np.int64), 1 << 30):
            pass
        got.append(int(state[2][K.R_LO]))
    assert tuple(got) == C.count_solutions(5, closed=False).per_start


def test_plan_searches_only_orbit_representatives():
    p = C.plan(5, closed=False)
    opens = [u for u in p.units if u[1] == "open"]
    # one prefix of each orbit of first moves: every image accounted once
    assert sum(len(p.images[name]) for name, *_ in opens) == sum(1 for _ in CP._prefixes(numbers_graph(5), 1))
    assert len(opens) < len(CP._prefixes(numbers_graph(5), 1)) / 6


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_any_split_gives_the_same_counts(depth, five):
    r = C.count_solutions(5, depth=depth, closed_depth=depth)
    assert (r.per_start, r.cycles, r.classes) == (five.per_start, five.cycles, five.classes)


def test_search_in_small_slices_resumes_exactly():
    g = numbers_graph(5)
    nb = np.ascontiguousarray(g.neighbours, dtype=np.int64)
    table = K.new_table(8)
    state = K.start(nb, np.array([0], dtype=np.int64), np.ones(g.size, dtype=np.uint8))
    slices = 0
    while not K.run(nb, *state, table, 4, 14, 2, 6, np.zeros((g.size + 1, 3), dtype=np.int64), 7):
        slices += 1
    assert slices > 10 and int(state[2][K.R_LO]) == count_paths(numbers_puzzle(5))[0]


def test_two_word_counts_carry_exactly():
    """The kernel's base-2**62 total: a carry into the high word is exact (the closed count of 6x6, split)."""
    assert int(K.BASE) == 1 << 62
    r = C.count_solutions(6, open_paths=False)
    assert r.cycles == 13_138 and r.closed_per_start == 26_276


def test_local_workers_give_the_same_counts(five):
    r = C.count_solutions(5, jobs=2)
    assert (r.per_start, r.cycles, r.classes) == (five.per_start, five.cycles, five.classes)


def test_a_log_resumes_a_count(tmp_path, five):
    log = tmp_path / "units.jsonl"
    C.count_solutions(5, log=log)
    lines = log.read_text().splitlines()
    assert len(lines) == five.units
    r = C.count_solutions(5, log=log)  # everything is in the log: no unit runs again
    assert r.per_start == five.per_start and r.classes == five.classes
    assert len(log.read_text().splitlines()) == five.units


def test_past_the_deadline_the_count_is_unknown(monkeypatch):
    monkeypatch.setattr(CC, "SLICE_NODES", 64)
    with pytest.raises(TimeLimitError, match="unknown"):
        C.count_solutions(6, time_limit=0.05)


def test_boards_past_64_cells_are_refused():
    with pytest.raises(LabyrinthError, match="8x8"):
        C.plan(9)


# --- the heat map ----------------------------------------------------------------------------------------------
def test_heatmap_golden_five(five):
    svg = render_heatmap(five.grid(), title="number puzzle 5x5: solutions per start cell",
                         caption=["5x5: 12,400 solutions (directed paths), 777 up to symmetry and reversal"])
    check_golden(GOLDEN / "numbers_heatmap_5.svg", svg)
    assert svg.count("<rect") >= 25 and "552" in svg and "(1,1): 552 solutions start here" in svg


def test_heatmap_scale_and_empty_boards():
    assert colour_of(0, 1, 9) == "#ffffff" and colour_of(1, 1, 9) != colour_of(9, 1, 9)
    svg = render_heatmap([[0, 0], [0, 0]])
    assert "no solutions from any cell" in svg


# --- the command line ------------------------------------------------------------------------------------------
def _main():
    """``labyrinth.cli.main`` with the numbers family (a stand-in for it when it is not wired in yet)."""
    parser = cli._parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if "numbers" in sub.choices:
        return cli.main

    class Numbers:
        @staticmethod
        def register(s):
            numbers = s.add_parser("numbers", help="the number puzzle")
            register_count(numbers.add_subparsers(dest="numbers_command", required=True, metavar="COMMAND"))

    def main(argv):
        old = cli._FAMILIES
        cli._FAMILIES = old + (Numbers,)
        try:
            return cli.main(argv)
        finally:
            cli._FAMILIES = old

    return main


def call(args, capsys):
    try:
        code = _main()(args)
    except SystemExit as done:
        code = done.code
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_table(capsys, five):
    code, out, err = call(["numbers", "count", "-n", "5", "--no-progress"], capsys)
    assert code == 0 and err == ""
    assert table(five.grid()) in out
    assert "paths: 12400 directed (6200 undirected)" in out
    assert "closed tours: 2400 directed (96 from each start cell), 48 Hamiltonian cycles" in out
    assert "reversal: 777" in out


def test_cli_json_and_svg(capsys, tmp_path, five):
    svg = tmp_path / "heat.svg"
    code, out, err = call(["numbers", "count", "-n", "5", "--json", "--svg", str(svg), "--jobs", "2"], capsys)
    obj = json.loads(out)
    assert code == 0 and obj["paths"] == 12_400 and obj["per_start"] == five.grid() and obj["classes"] == 777
    assert obj["cycles"] == 48 and obj["closed"] == 2400 and obj["jobs"] == 2
    assert svg.read_text().startswith("<?xml") and "wrote" in err


def test_cli_closed_only(capsys):
    code, out, _ = call(["numbers", "count", "-n", "5", "--closed-only", "--json"], capsys)
    obj = json.loads(out)
    assert code == 0 and obj["cycles"] == 48 and obj["paths"] is None and obj["per_start"] is None


@pytest.mark.parametrize("args, message", [
    (["-n", "0"], "at least 1"),
    (["-n", "-3"], "expected a board size"),
    (["-n", "x"], "expected a board size"),
    (["-n", "8"], "--allow-large"),
    (["-n", "9", "--allow-large"], "64-bit"),
    (["-n", "5", "--jobs", "0"], "expected an integer"),
    (["-n", "5", "--time-limit", "-1"], "seconds"),
    (["-n", "5", "--svg", "{tmp}/no/such/folder/x.svg"], "no such folder"),
    (["-n", "5", "--closed-only", "--svg", "x.svg"], "--closed-only"),
])
def test_cli_bad_input_is_one_line_exit_2(args, message, capsys, tmp_path):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]  # a folder in the test's own, known not to exist
    code, out, err = call(["numbers", "count", *args], capsys)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_cli_time_limit_is_unknown_exit_3(capsys, monkeypatch):
    monkeypatch.setattr(CC, "SLICE_NODES", 64)
    code, out, err = call(["numbers", "count", "-n", "6", "--time-limit", "0.05", "--no-progress"], capsys)
    assert code == 3 and out == "" and "unknown" in err and len(err.strip().splitlines()) == 1


def test_mirror_units_split_by_first_moves_add_up():
    """8x8 splits the paths fixed by a symmetry and reversal by their first moves: on 6x6 they add up to 808."""
    g = numbers_graph(6)
    perm = tuple(int(v) for v in g.symmetries()[4])
    whole = CC._count_unit(6, LEAPS, "whole", "fixed", (4,), (), None)[2]
    parts = [CC._count_unit(6, LEAPS, "part", "fixed", (4, *prefix), (), None)[2] for prefix in CP._half_prefixes(g, perm, 1)]
    assert whole == sum(parts) == 808 and len(parts) > 36


def test_mirror_search_in_small_slices_resumes_exactly(monkeypatch):
    monkeypatch.setattr(CC, "SLICE_NODES", 3)
    assert CC._count_unit(5, LEAPS, "half turn", "fixed", (2,), (), None)[2] == 32
