"""Hardening: every bad input one line and exit 2, limits kept, partial answers marked, seeded runs repeatable."""

import io
import json
import os
import socket
import sys
from pathlib import Path

import pytest
from conftest import CORPUS

from labyrinth.cli import main
from labyrinth.cli._common import writable_output
from labyrinth.engine import State, parse_state
from labyrinth.errors import LabyrinthError
from oracle import analyse, first_dead_step, get_oracle
from oracle.base import Oracle, check_witness
from verify import AuditSettings, Store, run_campaign

GOOD_STATE = "7:RRDD"


def _rule(tmp_path, name, text):
    p = tmp_path / f"{name}.rule"
    p.write_text(text)
    return str(p)


# (argv, a word the one-line error must contain); {tmp} is a fresh folder, {db} a store path inside it
BAD_INPUTS = [
    # sizes: refused before any work, named, with the way past the limit
    (["check", "--moves", "99999999999999999999:R"], "largest board"),
    (["check", "--moves", "2001:R"], "1001x1001"),
    (["check", "--moves", "301:R"], "--allow-large"),
    (["check", "--moves", "+7:R"], "+7"),
    (["explain", "--moves", "103:R"], "--allow-large"),
    (["draw", "--moves", "103:R"], "--allow-large"),
    (["minimize", "--moves", "53:R"], "--allow-large"),
    (["walk", "-n", "100001"], "-n"),
    (["walk", "-n", "103"], "--allow-large"),
    (["stats", "-n", "7,103"], "--allow-large"),
    (["stats", "-n", "7,+9"], "odd integers"),
    (["enumerate", "-n", "9"], "--allow-large"),
    (["enumerate", "--moves", "9:R"], "--allow-large"),
    (["audit", "-n", "53", "--walks", "1", "--db", "{db}"], "--allow-large"),
    (["regress", "--base", "universal", "--head", "default", "-n", "53"], "--allow-large"),
    (["count", "-n", "19"], "--allow-large"),
    (["count", "-n", "+21"], "odd integer"),
    (["count", "--moves", "21:R"], "--allow-large"),
    (["rank", "--moves", "19:R"], "--allow-large"),
    (["unrank", "-n", "21", "0"], "--allow-large"),
    (["unrank", "-n", "7", "1" * 5000], "non-negative integer"),
    (["sample", "-n", "21"], "--allow-large"),
    (["rules", "mine", "-n", "100001"], "-n"),
    (["rules", "mine", "-n", "9"], "sizes 3, 5 and 7"),
    # numbers, at the parser
    (["walk", "-n", "7", "--seed", "99999999999999999999999"], "--seed"),
    (["walk", "-n", "7", "--seed", "-1"], "--seed"),
    (["audit", "-n", "7", "--walks", "1", "--seed", "99999999999999999999999", "--db", "{db}"], "--seed"),
    (["check", "--moves", GOOD_STATE, "--time-limit", "nan"], "--time-limit"),
    (["check", "--moves", GOOD_STATE, "--time-limit", "inf"], "--time-limit"),
    (["check", "--moves", GOOD_STATE, "--time-limit", "0"], "--time-limit"),
    (["check", "--moves", GOOD_STATE, "--time-limit", "-1"], "--time-limit"),
    (["minimize", "--moves", "5:RRRRDDLL", "--time-limit", "0"], "--time-limit"),
    (["audit", "-n", "7", "--walks", "0", "--db", "{db}"], "--walks"),
    (["audit", "-n", "7", "--walks", "1", "--jobs", "0", "--db", "{db}"], "--jobs"),
    (["audit", "-n", "7", "--walks", "1", "--pattern-time-limit", "nan", "--db", "{db}"], "--pattern-time-limit"),
    (["regress", "--base", "universal", "--head", "default", "-n", "7", "--walks", "-3"], "--walks"),
    (["stats", "-n", "7", "--runs", "0"], "--runs"),
    (["draw", "--moves", GOOD_STATE, "--cell", "100000"], "--cell"),
    (["draw", "--moves", "101:R", "--cell", "256"], "pixels"),
    (["serve", "--port", "70000"], "--port"),
    (["findings", "show", "99999999999999999999999", "--db", "{db}"], "id"),
    # paths: outputs checked before the work, inputs that are not positions refused
    (["rules", "mine", "-n", "5", "-o", "{tmp}/no/such/dir/m.rule"], "no such folder"),
    (["audit", "--trace", str(CORPUS / "9_198.txt"), "--report", "{tmp}/no/such/r.md", "--db", "{db}"],
     "no such folder"),
    (["draw", "--moves", GOOD_STATE, "-o", "{tmp}/no/such/x.svg"], "no such folder"),
    (["check", "/dev/zero"], "not a regular file"),
    (["rules", "lint", "/dev/zero"], "not a regular file"),
    (["check", "{tmp}"], "no .txt path files"),
    # rules: lint refuses what can never apply or would blame the wrong rule
    (["rules", "lint", "{rule:even}", "--no-soundness"], "odd"),
    (["rules", "lint", "{rule:clash}", "--no-soundness"], "built-in"),
    (["rules", "lint", "{rule:indented}", "--no-soundness"], "first column"),
    (["audit", "-n", "7", "--walks", "1", "--rules", "{rule:clash}", "--db", "{db}"], "built-in"),
]

RULES = {
    "even": "name: even-size\nsizes: 8\ngrid:\n  ? x ?\n  ? H ?\n",
    "clash": "name: c-shape\ngrid:\n  ? x ?\n  ? H ?\n",
    "indented": "name: indented\n  grid:\n  ? x ?\n  ? H ?\n",
}


def _argv(args, tmp_path):
    out = []
    for a in args:
        if a.startswith("{rule:"):
            name = a[6:-1]
            out.append(_rule(tmp_path, name, RULES[name]))
        else:
            out.append(a.replace("{tmp}", str(tmp_path)).replace("{db}", str(tmp_path / "x.db")))
    return out


def _main(argv):
    try:
        return main(argv)
    except SystemExit as stop:  # the argument parser's own refusals
        return stop.code


class _WorkStarted(BaseException):
    """Raised by any long job a refused input started (a BaseException: no handler of the CLI takes it)."""


#: the entry points of every long job: a refusal must come before any of them is called
WORK = [("oracle.base.Oracle", "decide"), ("labyrinth.engine.walker", "random_walk"),
        ("labyrinth.engine.walker", "enumerate_walks"), ("labyrinth.engine.walker", "walk_statistics"),
        ("verify.campaign", "run_campaign"), ("verify.campaign", "run_trace_campaign"), ("verify.regress", "regress"),
        ("oracle.count", "count_paths"), ("oracle.count", "count_completions"), ("oracle.rank", "walkthrough_rank"),
        ("oracle.rank", "walkthrough_unrank"), ("oracle.rank", "sample_walkthrough"), ("labyrinth.rules.mining", "mine"),
        ("verify.minimize", "minimal_pattern"), ("labyrinth.view.svg", "render")]


@pytest.fixture
def no_work(monkeypatch):
    import importlib

    def started(*_, **__):
        raise _WorkStarted("a refused input started the work")

    for where, name in WORK:
        module, _, cls = where.rpartition(".") if where.endswith("Oracle") else (where, "", "")
        owner = getattr(importlib.import_module(module), cls) if cls else importlib.import_module(where)
        monkeypatch.setattr(owner, name, started)


@pytest.mark.parametrize(("args", "needle"), BAD_INPUTS, ids=[" ".join(a)[:60] for a, _ in BAD_INPUTS])
def test_bad_input_is_one_line_and_exit_2(args, needle, tmp_path, capfd, no_work):
    code = _main(_argv(args, tmp_path))  # any long job it started raises _WorkStarted: refused only after the work
    out, err = capfd.readouterr()
    lines = err.strip().splitlines()
    assert code == 2, (code, err)
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in err, err


def test_refused_outputs_leave_no_files(tmp_path, capfd):
    target = tmp_path / "out.svg"
    assert _main(["draw", "--moves", "101:R", "--cell", "256", "-o", str(target)]) == 2
    assert not target.exists()


# --- partial answers ------------------------------------------------------------------------------------------


class _Forgetful(Oracle):
    """A real oracle that 'runs out of time' on chosen states: to test what a partial answer looks like."""

    name = "forgetful"

    def __init__(self, inner, unknown):
        super().__init__(None)
        self.inner, self.unknown = inner, unknown

    def _decide(self, state, deadline):
        if self.unknown(state):
            return None, None, {}
        v = self.inner.decide(state)
        return v.feasible, v.witness, {}


def test_alive_state_with_an_undecided_move_says_so():
    state = State.from_moves(7, "RR")
    with get_oracle("search") as real:
        truth = analyse(state, real)
        # the witness's first move is decided by the witness; forget the other one
        other = next(m for m in state.open_moves() if m != truth.witness[0])
        report = analyse(state, _Forgetful(real, lambda s: s.steps == 3 and s.moves[-1] == other))
    assert truth.undecided_moves == [] and not truth.partial
    assert report.partial and report.undecided_moves == [other]
    assert set(report.feasible_moves) <= set(truth.feasible_moves) and other not in report.feasible_moves
    obj = report.to_json()
    assert obj["partial"] is True and obj["undecided_moves"] == [other]


def test_dead_state_with_a_cut_short_bisection_gives_bounds_not_null():
    state = parse_state("7:RRRRRRDDLLLLLU")  # dead; its first dead step lies somewhere inside
    with get_oracle("search") as real:
        k, _ = first_dead_step(state, real)
        report = analyse(state, _Forgetful(real, lambda s: 0 < s.steps < state.steps))
    assert report.status == "dead" and report.first_dead_step == "unknown" and report.partial
    lo, hi = report.first_dead_between
    assert lo <= k <= hi  # the interval holds the true first dead step
    assert report.to_json()["first_dead_step"] == "unknown"


def test_check_json_marks_a_timed_out_query(capsys):
    code = main(["check", "--moves", "25:RRRRRRRRRRDDDDDDDDDD", "--backend", "sat", "--time-limit", "0.001", "--json"])
    obj = json.loads(capsys.readouterr().out)
    assert code == 3 and obj["partial"] is True
    assert set(obj["feasible_moves"]) | set(obj["undecided_moves"]) <= set("UDLR")
    assert obj["undecided_moves"] or obj["status"] == "unknown"


# --- time limits on every size the tool accepts --------------------------------------------------------------


@pytest.mark.parametrize("backend", ["search", "sat", "cpsat", "auto"])
@pytest.mark.parametrize("n", [101, 301])
def test_a_time_limit_on_a_large_board_gives_unknown_or_the_truth(backend, n):
    # how closely the limit is kept is a figure of bench/limits.py (reports/BENCHMARKS.md), not a test:
    # wall-clock time depends on the machine's load
    state = parse_state(f"{n}:R")
    with get_oracle(backend, time_limit=0.05) as oracle:
        verdict = oracle.decide(state)
    assert verdict.feasible in (None, True)  # the empty board minus one step has a completion
    assert verdict.feasible is None or check_witness(state, verdict.witness)  # an answer is a checked witness


# --- determinism ------------------------------------------------------------------------------------------------


def _findings(db):
    with Store(db) as store:
        rows = [store.finding(f["id"]) for f in store.findings()]
        return sorted((f["kind"], f["state"], f["move"], f["pattern"] and f["pattern"]["facts"]) for f in rows)


def test_seeded_campaign_gives_the_same_findings_and_patterns_with_any_jobs(tmp_path):
    runs = []
    for i, jobs in enumerate((1, 2)):
        db = tmp_path / f"run{i}.db"
        with Store(db) as store:
            run_campaign(store, AuditSettings(
                n=9, rules_args=("universal", (), ()), walks=16, seed=5, time_limit=3600, jobs=jobs,
                pattern_time_limit=3600))  # no limit a busy machine reaches: only they could differ
        runs.append(_findings(db))
    assert runs[0] and any(f[3] for f in runs[0])  # findings with patterns to compare
    assert runs[0] == runs[1]


# --- round 2 (issue 28): endless input, outputs that refuse writes, empty names, ranges ---------------------


class _Endless(io.RawIOBase):
    """An input that never ends and has no line end (what ``/dev/zero`` is), without a fixed path."""

    def readable(self):
        return True

    def readinto(self, buffer):
        buffer[:] = bytes(len(buffer))
        return len(buffer)


@pytest.fixture
def endless_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(_Endless())))


@pytest.mark.parametrize("args", [["check", "-"], ["engine", "--rules", "universal"]], ids=["check", "engine"])
def test_endless_stdin_is_refused_in_one_line(args, endless_stdin, capfd):
    code = _main(args)
    out, err = capfd.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert "<stdin>:1" in lines[0] and "longer than" in lines[0]
    if args[0] == "engine":  # the client on the other end is told too, in the protocol
        answer = json.loads(out.strip().splitlines()[-1])
        assert answer["type"] == "error" and "longer than" in answer["message"]


def test_states_read_before_an_endless_line_are_answered(monkeypatch, capfd):
    data = b"5:RR\n7:RRDD\n" + b"x" * (64 * 2 ** 20 + 10)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
    code = _main(["check", "-"])
    out, err = capfd.readouterr()
    assert code == 2 and "<stdin>:3" in err and len(err.strip().splitlines()) == 1
    assert [json.loads(line)["state"] for line in out.splitlines()] == ["5:RR", "7:RRDD"]  # nothing lost


def _socket_file(tmp_path):
    """A path that exists, that os.access calls writable, and that no one (root included) can open for writing."""
    path = tmp_path / "s.rule"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    return sock, path


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="needs Unix sockets")
def test_an_output_that_refuses_writes_is_refused_before_the_work(tmp_path, capfd, monkeypatch):
    import labyrinth.rules.mining as mining

    sock, path = _socket_file(tmp_path)
    mined = []
    monkeypatch.setattr(mining, "mine", lambda *a, **k: mined.append(a) or pytest.fail("mined before refusing"))
    try:
        assert os.access(path, os.W_OK)  # the question the old check asked, answered wrongly
        code = _main(["rules", "mine", "-n", "5", "--rules", "universal", "-o", str(path)])
    finally:
        sock.close()
    err = capfd.readouterr().err
    assert code == 2 and "cannot write" in err and str(path) in err and len(err.strip().splitlines()) == 1
    assert not mined


@pytest.mark.skipif(not Path("/proc/version").is_file(), reason="Linux /proc only")
def test_a_proc_file_is_not_writable_even_for_root(capfd):
    with pytest.raises(LabyrinthError, match="cannot write"):
        writable_output("/proc/version")


def test_a_new_output_is_probed_and_removed_an_old_one_kept(tmp_path):
    new, old = tmp_path / "new.svg", tmp_path / "old.svg"
    old.write_text("keep me")
    writable_output(new)
    writable_output(old)
    assert not new.exists() and old.read_text() == "keep me"


@pytest.mark.parametrize(("args", "needle"), [
    (["draw", "--moves", GOOD_STATE, "-o", ""], "file name"),
    (["rules", "mine", "-n", "5", "-o", " "], "file name"),
    (["audit", "-n", "7", "--walks", "1", "--db", ""], "file name"),
    (["toggle", "draw", "--random", "-n", "5", "-o", ""], "file name"),
    (["audit", "-n", "7", "--exhaustive", "--split", "9999", "--db", "{db}"], "0 to 48"),
    (["audit", "-n", "5", "--walks", "2", "--split", "3", "--db", "{db}"], "--exhaustive"),
], ids=["draw -o ''", "mine -o ' '", "audit --db ''", "toggle draw -o ''", "split 9999", "split with walks"])
def test_empty_names_and_out_of_range_splits_are_one_line(args, needle, tmp_path, capfd):
    code = _main(_argv(args, tmp_path))
    out, err = capfd.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and needle in lines[0] and "Traceback" not in err, err
    assert out == "" and not (tmp_path / "x.db").exists()  # nothing drawn to stdout, no store made


def test_a_picture_folder_needs_its_parent(tmp_path, capfd):
    missing = tmp_path / "no" / "such"
    code = _main(["toggle", "algorithm", "one-way", "--audit", "--sizes", "3-4", "--svg", str(missing)])
    err = capfd.readouterr().err
    assert code == 2 and "no such parent folder" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "no").exists()  # no folder made on the way


def test_a_side_file_another_run_removes_meanwhile_is_not_a_refusal(tmp_path, monkeypatch):
    """Two runs on one store: the other's journal can vanish between the look and the write probe."""
    from labyrinth import files
    from labyrinth.errors import LabyrinthError

    store = tmp_path / "s.db"
    store.write_bytes(b"")
    journal = tmp_path / "s.db-journal"
    journal.write_bytes(b"")
    looked = files._regular

    def look_then_vanish(path, what):
        status = looked(path, what)
        if str(path).endswith("-journal"):
            journal.unlink()  # the other run commits now
        return status

    monkeypatch.setattr(files, "_regular", look_then_vanish)
    assert files.writable_store(store, side=("-wal", "-shm", "-journal")) is not None
    with pytest.raises(LabyrinthError, match="cannot write"):
        files._try_write(journal, existed=True)  # the store itself (or a side file not said to vanish) still refuses
