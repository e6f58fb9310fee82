"""``labyrinth toggle`` as a user runs it: outputs, exit statuses, one-line errors."""

import io
import json
import subprocess
import sys

import numpy as np
import pytest

from labyrinth.cli import main
from labyrinth.puzzles.toggle import gf2, parse_board

SOLVE_KEYS = {"source", "n", "dimensions", "goal", "on", "solvable", "press_count", "presses", "minimum", "lower_bound", "method",
              "solutions_log2", "seconds"}


def call(args, capsys, stdin=None, monkeypatch=None):
    """Run ``labyrinth ARGS`` in this process: (status, stdout, stderr); argument errors exit through SystemExit."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    try:
        code = main(args)
    except SystemExit as done:
        code = done.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def board_file(tmp_path):
    def make(text, name="board.txt"):
        p = tmp_path / name
        p.write_text(text)
        return str(p)
    return make


def test_solve_prints_a_solution_that_solves(board_file, capsys):
    path = board_file("110\n110\n000\n")
    code, out, err = call(["toggle", "solve", path], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].endswith("3x3, 4 cells on, goal off: solvable")
    presses = parse_board("\n".join(lines[-3:]))
    assert np.array_equal(gf2.apply_cells(presses.cells()), parse_board("110\n110\n000\n").cells())


def test_solve_minimum_json_from_stdin(capsys, monkeypatch):
    code, out, _ = call(["toggle", "solve", "-", "--minimum", "--json"], capsys,
                        stdin="11000\n11000\n00000\n00000\n00000\n", monkeypatch=monkeypatch)
    obj = json.loads(out)
    assert code == 0 and set(obj) == SOLVE_KEYS
    assert obj["solvable"] and obj["minimum"] == "proven" and obj["press_count"] == 1 == obj["lower_bound"]
    assert obj["presses"] == [[1, 1]] and obj["solutions_log2"] == 9 and obj["source"] == "<stdin>"


@pytest.mark.parametrize("n", range(2, 12))
def test_one_row_is_a_one_d_board_solved_to_its_minimum(n, board_file, capsys):
    """Lemmas 1-2's boards: the presses solve the row, and no press set with fewer presses does."""
    rng = np.random.default_rng(n)
    for goal in ("off", "on"):
        cells = rng.integers(0, 2, n, dtype=np.uint8)
        code, out, _ = call(["toggle", "solve", board_file("".join(map(str, cells)) + "\n"), "--minimum", "--json",
                             "--goal", goal], capsys)
        obj = json.loads(out)
        assert code == 0 and obj["dimensions"] == 1 and obj["n"] == n
        target = cells ^ (goal == "on")
        solvable = []
        for mask in range(1 << n):
            x = np.array([(mask >> j) & 1 for j in range(n)], dtype=np.uint8)
            toggled = x.copy()
            toggled[1:] ^= x[:-1]
            toggled[:-1] ^= x[1:]
            if np.array_equal(toggled, target):
                solvable.append(mask)
        assert obj["solvable"] == bool(solvable)
        if solvable:
            assert len(solvable) == 2 ** obj["solutions_log2"] == (2 if n % 3 == 2 else 1)
            mask = sum(1 << (c - 1) for r, c in obj["presses"])
            assert mask in solvable and obj["minimum"] == "proven"
            assert obj["press_count"] == min(s.bit_count() for s in solvable)


def test_one_row_text_output(board_file, capsys):
    code, out, _ = call(["toggle", "solve", board_file("10000\n")], capsys)
    assert code == 0 and out.splitlines()[0].endswith("1-D, 5 cells, 1 cell on, goal off: NOT solvable")
    code, out, _ = call(["toggle", "solve", board_file("1 0 0 0\n")], capsys)
    assert code == 0 and "1-D, 4 cells" in out and out.splitlines()[-1] == "1011"  # 1 toggles 1-2, 3 toggles 2-4, 4 toggles 3-4


def test_unsolvable_state_is_an_answer_not_an_error(board_file, capsys):
    code, out, _ = call(["toggle", "solve", board_file("10\n00\n"), "--json"], capsys)
    obj = json.loads(out)
    assert code == 0 and obj["solvable"] is False and obj["presses"] is None and obj["minimum"] == "no solution"


def test_random_goal_on_and_output_file(tmp_path, capsys):
    out_file = tmp_path / "presses.txt"
    code, out, _ = call(["toggle", "solve", "--random", "-n", "70", "--seed", "4", "--goal", "on",
                         "-o", str(out_file)], capsys)
    assert code == 0 and "goal on: solvable" in out and "-o FILE" not in out
    presses = parse_board(out_file.read_text())
    from labyrinth.puzzles.toggle import random_solvable

    state = random_solvable(70, 4, goal="on")
    assert np.array_equal(gf2.apply_cells(presses.cells()) ^ state.cells(), np.ones((70, 70), dtype=np.uint8))


def test_all_and_worst_agree(capsys):
    code, out, _ = call(["toggle", "solve", "--all", "-n", "5", "--json"], capsys)
    every = json.loads(out)
    assert code == 0 and sum(every["histogram"].values()) == every["solvable_states"] == 2 ** 16
    code, out, _ = call(["toggle", "solve", "--worst", "-n", "5", "--json"], capsys)
    worst = json.loads(out)
    assert code == 0 and worst["proven"] and worst["worst"] == every["worst"] == max(map(int, every["histogram"]))


def test_worst_8x8_text(capsys):
    code, out, _ = call(["toggle", "solve", "--worst", "-n", "8"], capsys)
    assert code == 0 and "(proven)" in out and "brute force over all 2^15 kernel elements" in out


def test_minimum_past_the_time_limit_exits_3_naming_the_limit(capsys):
    code, out, err = call(["toggle", "solve", "--random", "-n", "152", "--minimum", "--method", "cpsat",
                           "--time-limit", "0.05", "--json"], capsys)
    assert code == 3 and json.loads(out)["minimum"] == "unknown"
    assert err.count("\n") == 1 and "give more time with --time-limit SECONDS" in err


def test_algorithm_run_lists_its_presses(board_file, capsys):
    code, out, _ = call(["toggle", "algorithm", "two-way", board_file("100\n000\n000\n"), "--json"], capsys)
    obj = json.loads(out)
    assert code == 0 and obj["cleared"] is False and obj["claim"].startswith("Theorem 4")
    assert [p[:2] for p in obj["press_list"]] == [[2, 2], [3, 2]] and obj["left_on"] == ["011", "000", "000"]
    code, out, _ = call(["toggle", "algorithm", "two-way", board_file("100\n000\n000\n"), "--reading", "proof"],
                        capsys)
    assert code == 0 and "cleared in 4 presses; the proven minimum is 4" in out


def test_algorithm_draws_its_run(board_file, tmp_path, capsys):
    svg = tmp_path / "run.svg"
    code, out, err = call(["toggle", "algorithm", "one-way", board_file("01\n01\n"), "-o", str(svg)], capsys)
    assert code == 0 and svg.read_text().startswith("<?xml") and f"labyrinth: wrote {svg}" in err


def test_audit_json_and_pictures(tmp_path, capsys):
    code, out, _ = call(["toggle", "algorithm", "two-way", "--audit", "--sizes", "1-4", "--json", "--no-progress",
                         "--svg", str(tmp_path / "pics")], capsys)
    obj = json.loads(out)
    assert code == 0 and [s["n"] for s in obj["sizes"]] == [1, 2, 3, 4]
    three = obj["sizes"][2]
    assert three["claim"] and three["failed"] > 0 and three["smallest_failure"]["state"] == ["100", "000", "000"]
    assert three["smallest_failure"]["picture"].endswith(".svg")
    assert (tmp_path / "pics").is_dir() and any((tmp_path / "pics").iterdir())


def test_audit_text_names_the_smallest_counterexamples(capsys):
    code, out, _ = call(["toggle", "algorithm", "one-way", "--audit", "--sizes", "2,5", "--no-progress",
                         "--exhaustive-max-n", "4", "--states", "100"], capsys)
    assert code == 0
    assert "it never fails on the sizes audited" in out
    assert "smallest board where it is not minimal (inside the note's claim): 5x5" in out


def test_theorems_json(capsys):
    code, out, _ = call(["toggle", "theorems", "--max-n", "9", "--algorithms-max-n", "9", "--json",
                         "--no-progress"], capsys)
    obj = json.loads(out)
    assert code == 0 and [r["n"] for r in obj["rows"]] == list(range(1, 10))
    assert {c["key"] for c in obj["claims"] if not c["holds"]} == {"theorem-4", "one-way-minimal"}


def test_theorems_text_table(capsys):
    code, out, _ = call(["toggle", "theorems", "--max-n", "6", "--no-progress"], capsys)
    assert code == 0 and "| 5 | 3k+2 | 4 | 0 | 16 | 9 | 2^16 |" in out and "FAILS for n = 3, 6" in out


def test_draw_board_and_solution(board_file, tmp_path, capsys):
    code, out, _ = call(["toggle", "draw", board_file("110\n110\n000\n"), "--solve", "--minimum"], capsys)
    assert code == 0 and out.startswith("<?xml") and "press (1,1)" in out
    png = tmp_path / "b.png"
    code, out, err = call(["toggle", "draw", board_file("11\n11\n"), "-o", str(png)], capsys)
    if code == 0:  # cairo present
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        assert code == 2 and "cairo" in err


@pytest.mark.parametrize("args, text, needle", [
    (["toggle", "solve", "{f}"], "010\n11\n010\n", "every row must be as long"),
    (["toggle", "solve", "{f}"], "010\n1x1\n010\n", "at 'x'"),
    (["toggle", "solve", "{f}"], "", "empty input"),
    (["toggle", "solve", "{f}"], "01\n10\n11\n", "square"),
    (["toggle", "solve", "--random", "-n", "0"], None, "-n"),
    (["toggle", "solve", "--random", "-n", "-4"], None, "-n"),
    (["toggle", "solve", "--random", "-n", "99999999"], None, "-n"),
    (["toggle", "solve", "--random", "-n", "20000"], None, "--allow-large"),
    (["toggle", "solve", "--random", "-n", "5", "--seed", "x1"], None, "--seed"),
    (["toggle", "solve", "--random", "-n", "5", "--minimum", "--time-limit", "nan"], None, "--time-limit"),
    (["toggle", "solve", "--random", "-n", "5", "--minimum", "--time-limit", "0"], None, "--time-limit"),
    (["toggle", "solve", "--random", "-n", "5", "--minimum", "--time-limit", "-2"], None, "--time-limit"),
    (["toggle", "solve", "--random", "-n", "5", "--minimum", "--time-limit", "inf"], None, "--time-limit"),
    (["toggle", "solve", "/dev/zero"], None, "not a regular file"),
    (["toggle", "solve", "{d}"], None, "folder"),
    (["toggle", "solve", "{d}/missing.txt"], None, "missing.txt"),
    (["toggle", "solve", "--random", "-n", "5", "-o", "{d}/no/such/x.txt"], None, "no such folder"),
    (["toggle", "solve", "--random", "-n", "5", "-o", "{d}"], None, "folder"),
    (["toggle", "solve"], None, "STATE"),
    (["toggle", "solve", "{f}", "-n", "3"], "1\n", "-n N goes with --random"),
    (["toggle", "solve", "--all", "-n", "6"], None, "5x5"),
    (["toggle", "solve", "--worst", "-n", "14"], None, "11x11"),
    (["toggle", "algorithm", "sideways", "{f}"], "1\n", "sideways"),
    (["toggle", "algorithm", "one-way", "--audit", "--sizes", "5-2"], None, "--sizes"),
    (["toggle", "algorithm", "one-way", "--audit", "--sizes", "40"], None, "32x32"),
    (["toggle", "algorithm", "one-way", "--audit", "--states", "0"], None, "--states"),
    (["toggle", "theorems", "--max-n", "0"], None, "--max-n"),
    (["toggle", "draw", "--random", "-n", "300"], None, "128x128"),
    (["toggle", "draw", "--random", "-n", "4", "-o", "{d}/no/x.svg"], None, "no such folder"),
    (["toggle", "nonsense"], None, "nonsense"),
])
def test_bad_input_is_one_line_exit_2(args, text, needle, tmp_path, capsys):
    f = tmp_path / "state.txt"
    if text is not None:
        f.write_text(text)
    args = [a.replace("{f}", str(f)).replace("{d}", str(tmp_path)) for a in args]
    code, out, err = call(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("labyrinth: ") and needle in err


def test_no_traceback_end_to_end(tmp_path):
    f = tmp_path / "ragged.txt"
    f.write_text("01\n1\n")
    proc = subprocess.run([sys.executable, "-m", "labyrinth.cli", "toggle", "solve", str(f)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
