"""The number puzzle on the oracle: solve, Warnsdorff's walk and its audit, pictures, the CLI."""

import json
import re
from pathlib import Path

import pytest
from brute_puzzle import count_paths, puzzle_alive

from labyrinth.cli import main
from labyrinth.core import PathState, parse_path
from labyrinth.core.walk import Warnsdorff, walk
from labyrinth.puzzles.numbers import numbers_puzzle
from labyrinth.puzzles.numbers.solve import NO_SOLUTION, SOLVED, solve, start_orbits
from labyrinth.view.paths import render_path
from oracle import check_witness, get_oracle
from verify.path_audit import COMPLETE, NO_PATH, STUCK, audit_start

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("n", range(1, 7))
@pytest.mark.parametrize("closed", [False, True])
def test_solve_any_start_is_exact(n, closed):
    """A solution exists iff the brute force counts one; a found one is complete; 'no solution' is proven."""
    result = solve(n, closed=closed)
    exists = sum(count_paths(numbers_puzzle(n, closed))) > 0 if n <= 5 else None
    if exists is not None:
        assert (result.status == SOLVED) == exists
    assert result.status in (SOLVED, NO_SOLUTION)
    if result.status == SOLVED:
        s = result.state
        assert s.is_complete() and len(s.path) == n * n
        assert sorted(v for row in result.grid() for v in row) == list(range(1, n * n + 1))
    else:
        # every orbit of starts decided; for a closed tour one start (a cycle passes through every cell)
        assert result.starts_decided == (1 if closed else len(start_orbits(numbers_puzzle(n).graph)))


def test_solve_given_start_agrees_with_brute_force():
    puzzle = numbers_puzzle(5)
    counts = count_paths(puzzle)
    for cell, paths in enumerate(counts):
        x, y = puzzle.graph.xy(cell)
        result = solve(5, start=(x, y))
        assert (result.status == SOLVED) == (paths > 0)
        if result.status == SOLVED:
            assert result.state.path[0] == cell


def test_solve_seed_changes_the_solution_not_its_validity():
    seen = set()
    for seed in range(6):
        result = solve(8, seed=seed)
        assert result.status == SOLVED and result.state.is_complete()
        seen.add(result.state.path)
    assert len(seen) > 1


@pytest.mark.parametrize("n", [10, 30, 100])
def test_solve_large_boards_open_and_closed(n):
    for closed in (False, True):
        result = solve(n, start=(1, 1), closed=closed, time_limit=120)
        assert result.status == SOLVED
        assert result.state.is_complete() and result.state.cycle == closed


def test_start_orbits_partition_the_board():
    g = numbers_puzzle(10).graph
    orbits = start_orbits(g)
    cells = sorted(c for _, orbit in orbits for c in orbit)
    assert cells == list(range(g.size))
    assert len(orbits) == 15  # its author's "only 15 cells of 100 need to be handled separately"


def test_warnsdorff_opens_only_fewest_onward_moves():
    puzzle = numbers_puzzle(7)
    rule = Warnsdorff()
    state = PathState(puzzle, (0,))
    for _ in range(20):
        ranked = rule.ranked(state)
        if not ranked:
            break
        chosen = rule.open_moves(state)
        best = min(k for k, _ in ranked)
        assert len(chosen) == 1 and dict((m, k) for k, m in ranked)[chosen[0]] == best
        tied = [m for k, m in ranked if k == best]
        assert chosen[0] == tied[0]  # clockwise: the first tied move in compass order
        assert Warnsdorff("anticlockwise").open_moves(state)[0] == tied[-1]
        assert set(Warnsdorff("random").open_moves(state)) == set(tied)
        state = state.after(chosen[0])


def test_walk_is_seeded():
    puzzle = numbers_puzzle(8)
    a = walk(PathState(puzzle, (0,)), Warnsdorff("random"), seed=3)
    b = walk(PathState(puzzle, (0,)), Warnsdorff("random"), seed=3)
    assert a == b


def test_audit_first_fatal_move_matches_brute_force():
    """Every 5x5 start: the fatal step is the first prefix without completion, and the start's own fate is named."""
    puzzle = numbers_puzzle(5)
    with get_oracle("auto") as oracle:
        for cell in range(puzzle.graph.size):
            a = audit_start(PathState(puzzle, (cell,)), Warnsdorff(), oracle)
            final = parse_path(a.walk)
            alive = [puzzle_alive(final.prefix(k)) for k in range(final.steps + 1)]
            if a.outcome == COMPLETE:
                assert final.is_complete()
            elif a.outcome == NO_PATH:
                assert not alive[0]
            else:
                assert a.outcome == STUCK and alive[0]
                k = a.first_fatal_step
                assert not alive[k] and alive[k - 1]
                before = final.prefix(k - 1)
                assert a.fatal_move == final.board.split(final.moves)[k - 1]
                truly = {m for m in before.open_moves() if m != a.fatal_move and puzzle_alive(before.after(m))}
                assert set(a.feasible_moves) == truly and truly  # alive before: some other move was feasible
                assert check_witness(before, a.witness)


def test_render_path_marks_the_fatal_move():
    puzzle = numbers_puzzle(6)
    with get_oracle("auto") as oracle:
        audits = [audit_start(PathState(puzzle, (c,)), Warnsdorff(), oracle) for c in range(puzzle.graph.size)]
    stuck = next(a for a in audits if a.outcome == STUCK)
    svg = render_path(parse_path(stuck.walk), fatal_step=stuck.first_fatal_step, feasible_moves=stuck.feasible_moves)
    assert f"first fatal move: {stuck.fatal_move} from {stuck.first_fatal_step}" in svg
    assert svg.count("was still feasible") == len(stuck.feasible_moves)


def test_render_solution_golden():
    from conftest import check_golden

    result = solve(6, start=(1, 1))
    check_golden(GOLDEN / "numbers-6-solution.svg", render_path(result.state))


# ---------------------------------------------------------------- CLI


def _run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_solve_text_and_json(capsys):
    status, out, _ = _run(capsys, "numbers", "solve", "-n", "10", "--start", "3,4")
    assert status == 0
    rows = [list(map(int, line.split())) for line in out.splitlines()[:10]]
    assert sorted(v for r in rows for v in r) == list(range(1, 101)) and rows[3][2] == 1
    path = re.search(r"path: (\S+)", out).group(1)
    assert parse_path(path).is_complete()
    status, out, _ = _run(capsys, "numbers", "solve", "-n", "7", "--closed", "--json")
    doc = json.loads(out)
    assert status == 0 and doc["status"] == "solved" and parse_path(doc["path"]).is_complete()


def test_cli_solve_proves_no_solution(capsys):
    status, out, _ = _run(capsys, "numbers", "solve", "-n", "4")
    assert status == 0 and "no solution" in out and "proven" in out
    assert sum(count_paths(numbers_puzzle(4))) == 0


@pytest.mark.parametrize("argv, needle", [
    (["numbers", "solve", "-n", "0"], "-n"),
    (["numbers", "solve", "-n", "5", "--start", "6,1"], "--start"),
    (["numbers", "solve", "-n", "5", "--start", "a,b"], "--start"),
    (["numbers", "solve", "-n", "500"], "--allow-large"),
    (["numbers", "walk", "-n", "5", "--order", "N,E"], "--order"),
    (["numbers", "walk", "-n", "5", "--order", "N,E,S,W,NE,SE,SW,XX"], "--order"),
    (["numbers", "walk", "-n", "5", "--rule", "nosuch"], "--rule"),
    (["numbers", "walk", "-n", "5", "--all-starts", "--svg", "x.svg"], "--svg"),
    (["numbers", "draw", "numbers:5@1,1:E,E", "-o", "x.svg"], "PATH"),
    (["numbers", "draw", "nosuch:5@1,1:E", "-o", "x.svg"], "PATH"),
    (["numbers", "draw", "numbers:5@1,1:E", "-o", "missing/x.svg"], "missing/x.svg"),  # in the test's folder
])
def test_cli_bad_input_is_one_line(capsys, tmp_path, monkeypatch, argv, needle):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(argv))
    _, err = capsys.readouterr()
    assert exc.value.code == 2 and len(err.strip().splitlines()) == 1 and needle in err
    assert not (tmp_path / "x.svg").exists()


def test_cli_time_limit_is_unknown_exit_3(capsys):
    status, _, err = _run(capsys, "numbers", "solve", "-n", "100", "--backend", "cpsat", "--time-limit", "0.01")
    assert status == 3 and "no answer" in err and len(err.strip().splitlines()) == 1


def test_cli_walk_audit_all_starts(capsys, tmp_path):
    db = tmp_path / "w.db"
    status, out, _ = _run(capsys, "numbers", "walk", "-n", "6", "--all-starts", "--audit", "--json", "--db", str(db))
    lines = [json.loads(line) for line in out.splitlines()]
    per_start, summary = lines[:-1], lines[-1]
    assert status == 0 and len(per_start) == 36
    assert summary["stuck"] + summary["no_path"] + summary["complete"] == 36
    stuck = [d for d in per_start if d["outcome"] == "stuck"]
    assert all(isinstance(d["first_fatal_step"], int) for d in stuck)
    status, out, _ = _run(capsys, "findings", "list", "--db", str(db))
    assert status == 0 and out.count("missed-dead") == len(stuck)


def test_cli_walk_svg_and_draw(capsys, tmp_path):
    svg = tmp_path / "w.svg"
    status, out, _ = _run(capsys, "numbers", "walk", "-n", "5", "--start", "3,1", "--audit", "--svg", str(svg))
    assert status == 0 and svg.read_text().startswith("<?xml")
    status, _, err = _run(capsys, "numbers", "draw", "numbers:5@3,1:S,NE", "-o", str(tmp_path / "d.svg"))
    assert status == 0 and (tmp_path / "d.svg").exists()
