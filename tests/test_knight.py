"""The knight's tour on the shared core: tours through the oracle, proofs of none, counts, Warnsdorff audits, pictures, CLI.

Heavy checks, kept because they are the essential ones: the 6x6 counts
(6 637 920 directed open tours, 9 862 closed: a few seconds) and a compiled
brute force of every 5x5 tour (about a second).
"""

import json
import math
import re
from pathlib import Path

import pytest
from brute_puzzle import all_paths, count_paths_compiled, path_classes, puzzle_alive
from conftest import check_golden

from labyrinth.cli import main
from labyrinth.core import PathState, parse_path
from labyrinth.core.walk import Warnsdorff, walk
from labyrinth.puzzles.knight import knight_puzzle
from labyrinth.puzzles.knight.count import count_tours
from labyrinth.puzzles.knight.solve import NO_SOLUTION, SOLVED, tour
from labyrinth.view.paths import line_sums, magic_sum, render_path
from oracle import check_witness, get_oracle
from verify.path_audit import COMPLETE, NO_PATH, STUCK, audit_start

GOLDEN = Path(__file__).resolve().parent / "golden"
#: an open 5x5 tour from the corner (the golden picture's path)
TOUR_5 = "knight:5@1,1:ESE,ENE,SSW,SSE,WNW,WSW,NNE,NNE,ESE,SSW,WSW,NNW,NNE,ESE,SSE,WSW,WNW,NNE,ENE,SSE,SSW,WNW,NNW,ESE"


def _is_knight_tour(cells, n, closed):
    """Every cell once, each step a knight's jump (|dx|, |dy| = 1, 2 in some order); closed: back to the first."""
    xy = [(c % n, c // n) for c in cells]
    if sorted(cells) != list(range(n * n)):
        return False
    jumps = list(zip(xy, xy[1:])) + ([(xy[-1], xy[0])] if closed else [])
    return all(sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2] for a, b in jumps)


@pytest.fixture(scope="module")
def brute_five():
    """Directed open tours per start cell of 5x5, by a plain depth-first search."""
    return count_paths_compiled(knight_puzzle(5))


# ---------------------------------------------------------------- tours


@pytest.mark.parametrize("n, closed", [(1, False), (5, False), (6, False), (6, True), (8, False), (8, True),
                                       (20, True), (50, False)])
def test_tour_is_a_valid_knights_tour(n, closed):
    result = tour(n, closed=closed, time_limit=120)
    assert result.status == SOLVED and result.state.is_complete()
    assert _is_knight_tour(result.state.path, n, closed)
    assert sorted(v for row in result.grid() for v in row) == list(range(1, n * n + 1))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_no_open_tour_on_boards_2_to_4(n):
    """Published: open tours exist for n = 1 and n >= 5 only; here proven, and the brute force agrees."""
    result = tour(n)
    assert result.status == NO_SOLUTION
    assert sum(count_paths_compiled(knight_puzzle(n))) == 0


@pytest.mark.parametrize("n", [5, 7, 9, 101])
def test_no_closed_tour_on_odd_boards(n):
    """A closed tour alternates colours, so it needs as many cells of each: odd boards have none, proven."""
    result = tour(n, closed=True, time_limit=120)
    assert result.status == NO_SOLUTION and result.state is None


def test_open_five_from_each_start_agrees_with_brute_force(brute_five):
    """5x5: a tour from a cell iff the brute force counts one; none from the 12 minority-colour cells."""
    for cell, paths in enumerate(brute_five):
        x, y = cell % 5 + 1, cell // 5 + 1
        result = tour(5, start=(x, y))
        assert (result.status == SOLVED) == (paths > 0)
        if (x + y) % 2:  # the minority colour: 12 cells against 13
            assert result.status == NO_SOLUTION
        else:
            assert result.state.path[0] == cell and _is_knight_tour(result.state.path, 5, False)


def test_seeded_tours_differ_and_stay_valid():
    paths = set()
    for seed in range(4):
        result = tour(8, seed=seed)
        assert result.status == SOLVED and _is_knight_tour(result.state.path, 8, False)
        paths.add(result.state.path)
    assert len(paths) > 1


# ---------------------------------------------------------------- counts


def test_count_five_agrees_with_brute_force(brute_five):
    r = count_tours(5)
    assert list(r.per_start) == brute_five
    assert r.paths == 1_728  # OEIS A165134
    assert r.cycles == 0 and r.closed == 0  # odd board
    assert r.per_start[0] == 304


def test_count_six_pins_the_published_figures():
    """OEIS A165134: 6 637 920 directed open tours; A001230: 9 862 undirected closed tours (a few seconds)."""
    r = count_tours(6)
    assert r.paths == 6_637_920 and r.cycles == 9_862
    assert r.closed_per_start == 2 * 9_862 and r.closed == 36 * 2 * 9_862
    g = knight_puzzle(6).graph
    for p in g.symmetries():
        assert all(r.per_start[int(p[c])] == r.per_start[c] for c in range(g.size))


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_count_small_boards_open_and_closed_agree_with_brute_force(n):
    r = count_tours(n)
    assert list(r.per_start) == count_paths_compiled(knight_puzzle(n))
    assert r.closed_per_start * n * n == sum(count_paths_compiled(knight_puzzle(n, closed=True)))


def test_count_classes_agree_with_a_brute_canonical_form():
    """The 5x5 classes under the board's symmetries and reversal, against a canonical form of every tour."""
    g = knight_puzzle(5).graph
    tours = all_paths(g, starts=(0, 2, 12))  # orbit representatives with tours; every tour is an image of one
    assert count_tours(5, closed=False).classes == path_classes(g, tours)


# ---------------------------------------------------------------- Warnsdorff


def test_roth_picks_the_tied_move_farthest_from_the_centre():
    """At every step: the fewest onward moves, then the farthest from the centre, then the first clockwise."""
    for n in (8, 11):
        puzzle = knight_puzzle(n)
        state = PathState(puzzle, (puzzle.graph.cell(3, 2),))
        rule = Warnsdorff("roth")
        ties_seen = 0
        while True:
            ranked = rule.ranked(state)
            if not ranked:
                break
            best = min(k for k, _ in ranked)
            tied = [m for k, m in ranked if k == best]
            centre = ((n + 1) / 2, (n + 1) / 2)

            def dist(m):
                x, y = puzzle.graph.xy(puzzle.graph.targets[m][state.head])
                return math.hypot(x - centre[0], y - centre[1])

            far = max(dist(m) for m in tied)
            expected = next(m for m in tied if math.isclose(dist(m), far))
            ties_seen += len({round(dist(m), 9) for m in tied}) > 1
            (chosen,) = rule.open_moves(state)
            assert chosen == expected
            state = state.after(chosen)
        assert ties_seen > 0


def test_tie_breaks_differ_and_random_is_seeded():
    puzzle = knight_puzzle(8)
    start = PathState(puzzle, (puzzle.graph.cell(4, 4),))
    walks = {order: walk(start, Warnsdorff(order)).state.path for order in ("clockwise", "anticlockwise", "roth")}
    assert len(set(walks.values())) == 3
    a, b = (walk(start, Warnsdorff("random"), seed=5) for _ in range(2))
    assert a == b


@pytest.mark.parametrize("order", ["clockwise", "roth", "random"])
def test_audit_first_fatal_move_matches_brute_force(order, brute_five):
    """Every 5x5 start: a stuck walk's fatal step is the first prefix without completion (by brute force),
    the feasible moves there are exactly the others that complete, and a start with no tour is named so."""
    puzzle = knight_puzzle(5)
    outcomes = set()
    with get_oracle("auto") as oracle:
        for cell in range(puzzle.graph.size):
            a = audit_start(PathState(puzzle, (cell,)), Warnsdorff(order), oracle, seed=cell)
            final = parse_path(a.walk)
            outcomes.add(a.outcome)
            if a.outcome == COMPLETE:
                assert _is_knight_tour(final.path, 5, False)
            elif a.outcome == NO_PATH:
                assert brute_five[cell] == 0
            else:
                assert a.outcome == STUCK and brute_five[cell] > 0
                k = a.first_fatal_step
                assert puzzle_alive(final.prefix(k - 1)) and not puzzle_alive(final.prefix(k))
                before = final.prefix(k - 1)
                assert a.fatal_move == final.board.split(final.moves)[k - 1]
                truly = {m for m in before.open_moves() if m != a.fatal_move and puzzle_alive(before.after(m))}
                assert set(a.feasible_moves) == truly and truly
                assert check_witness(before, a.witness)
    assert NO_PATH in outcomes


def test_clockwise_audit_of_eight_by_eight():
    """8x8, ties clockwise: every start audited; each stuck one has a fatal move after which the oracle finds none."""
    puzzle = knight_puzzle(8)
    with get_oracle("auto") as oracle:
        audits = [audit_start(PathState(puzzle, (c,)), Warnsdorff(), oracle) for c in range(64)]
        stuck = [a for a in audits if a.outcome == STUCK]
        assert not [a for a in audits if a.outcome == NO_PATH]  # every 8x8 start has a tour
        assert stuck
        for a in stuck:
            final = parse_path(a.walk)
            k = a.first_fatal_step
            assert oracle.decide(final.prefix(k - 1)).feasible and not oracle.decide(final.prefix(k)).feasible


# ---------------------------------------------------------------- pictures


def test_line_sums_of_a_tour():
    state = parse_path(TOUR_5)
    sums = line_sums(state)
    grid = [[0] * 5 for _ in range(5)]
    for k, c in enumerate(state.path, 1):
        grid[c // 5][c % 5] = k
    assert sums["rows"] == [sum(r) for r in grid]
    assert sums["columns"] == [sum(grid[y][x] for y in range(5)) for x in range(5)]
    assert sums["diagonals"] == (sum(grid[i][i] for i in range(5)), sum(grid[i][4 - i] for i in range(5)))
    assert sum(sums["rows"]) == sum(sums["columns"]) == 25 * 26 // 2 == 5 * magic_sum(5)


def test_render_tour_golden():
    state = parse_path(TOUR_5)
    assert state.is_complete() and _is_knight_tour(state.path, 5, False)
    svg = render_path(state, margins=True)
    check_golden(GOLDEN / "knight-5-tour.svg", svg)
    rows = line_sums(state)["rows"]
    assert all(f"<title>row {i}: sum {v}" in svg for i, v in enumerate(rows, 1))
    assert "diagonal (1,1)-(n,n)" in svg and "magic sum 65" in svg


def test_margins_are_optional():
    state = parse_path(TOUR_5)
    assert "row 1: sum" not in render_path(state) and "row 1: sum" in render_path(state, margins=True)


# ---------------------------------------------------------------- CLI


def _run(capsys, *argv):
    try:
        status = main(list(argv))
    except SystemExit as done:
        status = done.code
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_tour_text_json_and_svg(capsys, tmp_path):
    svg = tmp_path / "t.svg"
    status, out, _ = _run(capsys, "knight", "tour", "-n", "8", "--start", "3,4", "--svg", str(svg))
    assert status == 0
    rows = [list(map(int, line.split())) for line in out.splitlines()[:8]]
    assert sorted(v for r in rows for v in r) == list(range(1, 65)) and rows[3][2] == 1
    path = re.search(r"path: (\S+)", out).group(1)
    assert _is_knight_tour(parse_path(path).path, 8, False)
    assert "row 1: sum" in svg.read_text()  # margins on by default for the knight
    status, out, _ = _run(capsys, "knight", "tour", "-n", "6", "--closed", "--json")
    doc = json.loads(out)
    assert status == 0 and doc["status"] == "solved" and _is_knight_tour(parse_path(doc["path"]).path, 6, True)


def test_cli_tour_proves_none(capsys):
    status, out, _ = _run(capsys, "knight", "tour", "-n", "5", "--closed")
    assert status == 0 and "no closed tour" in out and "proven" in out
    status, out, _ = _run(capsys, "knight", "tour", "-n", "5", "--start", "2,1")
    assert status == 0 and "no open tour" in out and "proven for this start" in out


def test_cli_walk_all_starts_names_starts_without_tours(capsys):
    status, out, _ = _run(capsys, "knight", "walk", "-n", "5", "--all-starts", "--audit", "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    per_start, summary = lines[:-1], lines[-1]
    assert status == 0 and len(per_start) == 25 and summary["no_path"] == 12
    assert {tuple(d["start"]) for d in per_start if d["outcome"] == "no path"} == \
        {(x, y) for x in range(1, 6) for y in range(1, 6) if (x + y) % 2}
    status, out, _ = _run(capsys, "knight", "walk", "-n", "8", "--all-starts", "--order", "roth", "--audit")
    assert status == 0 and "Warnsdorff roth" in out


def test_cli_walk_seed_alone_means_random_ties(capsys):
    status, out, _ = _run(capsys, "knight", "walk", "-n", "8", "--seed", "3", "--json")
    assert status == 0 and json.loads(out.splitlines()[-1])["order"] == "random"


def test_cli_count_and_heat_map(capsys, tmp_path, brute_five):
    svg = tmp_path / "heat.svg"
    status, out, err = _run(capsys, "knight", "count", "-n", "5", "--json", "--svg", str(svg), "--no-progress")
    doc = json.loads(out)
    assert status == 0 and doc["paths"] == 1728 and doc["cycles"] == 0
    assert [v for row in doc["per_start"] for v in row] == brute_five
    assert "(1,1): 304 open tours start here" in svg.read_text()
    status, out, _ = _run(capsys, "knight", "count", "-n", "6", "--closed", "--json", "--no-progress")
    assert status == 0 and json.loads(out)["cycles"] == 9862


def test_cli_draw(capsys, tmp_path):
    out_svg = tmp_path / "d.svg"
    status, _, err = _run(capsys, "knight", "draw", TOUR_5, "--svg", str(out_svg))
    assert status == 0 and out_svg.read_text() == render_path(parse_path(TOUR_5), margins=True)
    status, out, _ = _run(capsys, "knight", "draw", "knight:5@2,1:SSE", "-o", str(out_svg), "--no-margins")
    assert status == 0 and "no completion starts" in out and "row 1: sum" not in out_svg.read_text()
    assert out.startswith(f"wrote {out_svg}: ")  # like the other draw commands: the answer on stdout


@pytest.mark.parametrize("argv, needle", [
    (["knight", "tour", "-n", "0"], "-n"),
    (["knight", "tour", "-n", "x"], "-n"),
    (["knight", "tour", "-n", "5", "--start", "6,1"], "--start"),
    (["knight", "tour", "-n", "5", "--start", "a,b"], "--start"),
    (["knight", "tour", "-n", "500"], "--allow-large"),
    (["knight", "walk", "-n", "5", "--order", "NNE,ENE"], "--order"),
    (["knight", "walk", "-n", "5", "--order", "N,E,S,W,NE,SE,SW,NW"], "--order"),
    (["knight", "walk", "-n", "5", "--all-starts", "--svg", "x.svg"], "--svg"),
    (["knight", "count", "-n", "7"], "--allow-large"),
    (["knight", "count", "-n", "9", "--allow-large"], "64-bit"),
    (["knight", "count", "-n", "5", "--closed", "--svg", "x.svg"], "--closed-only"),
    (["knight", "draw", "knight:5@1,1:ESE,ESE,ESE", "--svg", "x.svg"], "PATH"),
    (["knight", "draw", "knight:5@1,1:ESE", "--svg", "missing/x.svg"], "missing/x.svg"),  # in the test's folder
    (["knight", "nosuch"], "nosuch"),
])
def test_cli_bad_input_is_one_line_exit_2(capsys, tmp_path, monkeypatch, argv, needle):
    monkeypatch.chdir(tmp_path)
    status, out, err = _run(capsys, *argv)
    assert status == 2 and len(err.strip().splitlines()) == 1 and needle in err
    assert not (tmp_path / "x.svg").exists()


def test_cli_time_limit_is_unknown_exit_3(capsys):
    status, _, err = _run(capsys, "knight", "tour", "-n", "100", "--backend", "cpsat", "--time-limit", "0.01")
    assert status == 3 and "no answer" in err and len(err.strip().splitlines()) == 1


def test_a_unit_log_is_kept_per_graph(tmp_path):
    """A knight count never takes a number-puzzle unit from a shared log (nor one of an old log naming no leaps)."""
    from labyrinth.puzzles.numbers.count import count_solutions

    log = tmp_path / "units.jsonl"
    knight_units = count_tours(5).units
    count_tours(5, log=tmp_path / "knight.jsonl")
    names = [json.loads(line)["unit"] for line in (tmp_path / "knight.jsonl").read_text().splitlines()]
    # an old-style line (no leaps) with a knight unit's name and a wrong count: it is the number puzzle's
    log.write_text(json.dumps({"n": 5, "unit": names[0], "count": 10 ** 6, "nodes": 1}) + "\n")
    count_solutions(5, log=log)
    r = count_tours(5, log=log)
    assert r.paths == 1_728
    knight_lines = [json.loads(line) for line in log.read_text().splitlines() if '"leaps": [[1, 2]]' in line]
    assert len(knight_lines) == knight_units
