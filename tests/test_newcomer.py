"""What a new user meets in the first hour: pipes, progress bars, time limits, flags, legends, help."""

import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from conftest import CORPUS

from labyrinth.cli import main
from labyrinth.engine import State, parse_trace
from labyrinth.engine.walker import enumerate_walks
from labyrinth.rules import get_rule_set
from verify import AuditSettings, Store, run_campaign
from verify.trace import audit_trace

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "labyrinth.cli"]


def _run(args, **kw):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=600, **kw)


@pytest.fixture(scope="module")
def small_db(tmp_path_factory):
    """A store with findings and patterns: 30 walks of the universal rules on 7x7 (they miss dead moves)."""
    db = tmp_path_factory.mktemp("store") / "small.db"
    with Store(db) as store:
        run_campaign(store, AuditSettings(
            n=7, rules_args=("universal", (), ()), walks=30, seed=3, time_limit=3600, pattern_time_limit=3600))  # every pattern found, however busy the machine
    return db


# --- 1. a reader that goes away ------------------------------------------------------------------------
PIPED = [
    ["rules", "list"],
    ["rules", "show", "mined-7-1"],
    ["rules", "lint", "examples/rules/pocket.rule"],
    ["check", "--moves", "9:RRDDL", "--moves", "7:RR"],
    ["walk", "-n", "9", "--seed", "2"],
    ["enumerate", "-n", "5"],
    ["stats", "-n", "5", "--runs", "3"],
    ["count", "-n", "5"],
    ["rank", "--moves", "5:RRRR"],
    ["unrank", "-n", "5", "3"],
    ["sample", "-n", "5"],
    ["explain", "--moves", "7:RRDDDL"],
    ["draw", "--moves", "5:RR", "--no-oracle"],
    ["minimize", "--moves", "5:RRRRDDLL"],
    ["findings", "list", "patterns", "--db", "DB"],
    ["findings", "list", "--db", "DB"],
    ["findings", "show", "1", "--db", "DB"],
    ["audit", "-n", "5", "--walks", "2", "--db", "NEWDB"],
    ["regress", "--base", "universal", "--head", "default", "-n", "5", "--walks", "2", "--db", "NEWDB"],
    ["--help"],
]


@pytest.mark.parametrize("args", PIPED, ids=lambda a: " ".join(a[:2]))
def test_output_into_a_closed_pipe_ends_quietly(args, small_db, tmp_path):
    """``labyrinth ... | head``: the reader has gone; no traceback, status 0 or 141 (SIGPIPE)."""
    args = [str(small_db) if a == "DB" else str(tmp_path / "new.db") if a == "NEWDB" else a for a in args]
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first byte: every write meets EPIPE
    try:
        proc = subprocess.run([*CLI, *args], stdout=write, stderr=subprocess.PIPE, text=True, timeout=300,
                              cwd=ROOT)
    finally:
        os.close(write)
    assert proc.returncode in (0, 141), proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr


# --- 2. resuming keeps the campaign's time -------------------------------------------------------------
def test_resuming_a_finished_campaign_adds_time_and_never_erases_it(tmp_path):
    db = tmp_path / "t.db"
    with Store(db) as store:
        first, totals, _ = run_campaign(store, AuditSettings(n=7, rules_args=("universal", (), ()), walks=6, seed=1))
        assert totals.seconds > 0 and totals.oracle_seconds <= totals.work_seconds
        stored = store.elapsed(first)
        assert stored == pytest.approx(totals.seconds, rel=1e-6)
        again, more, _ = run_campaign(store, AuditSettings(
            n=7, rules_args=("universal", (), ()), walks=6, seed=1, resume=True))
        assert again == first
        assert more.seconds >= stored and store.elapsed(first) >= stored
        assert more.oracle_seconds <= more.work_seconds <= more.seconds * 2 + 1
        assert json.loads(store.campaign(first)["totals"])["seconds"] >= round(stored, 3) - 0.001  # stored rounded


# --- 3. a timeout is exit 3, and the message says how to give more time ----------------------------------
def test_minimize_out_of_time_is_exit_3_naming_the_time_limit(monkeypatch, capsys):
    import verify.minimize as vm

    def slow(*_, **__):
        raise vm.PatternTimeout("the SAT solver ran out of time minimising the pattern")

    monkeypatch.setattr(vm, "minimal_pattern", slow)
    assert main(["minimize", "--moves", "5:RRRRDDLL", "--time-limit", "1"]) == 3
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--time-limit" in err


def test_a_pattern_past_its_deadline_is_a_time_limit_error_not_bad_input():
    from labyrinth.errors import TimeLimitError
    from verify.minimize import PatternError, minimal_pattern

    dead = State.from_moves(9, "RRRRRRRRDDLL")
    with pytest.raises(TimeLimitError) as caught:
        minimal_pattern(dead, time_limit=1e-9)
    assert isinstance(caught.value, PatternError)


def test_minimize_help_documents_the_time_limit():
    out = _run(["minimize", "--help"]).stdout
    assert re.search(r"--time-limit SECONDS\s+for the whole minimisation", out)


# --- 6. progress bars: only on a terminal, one unit, notes outside the frames ---------------------------
def _on_terminal(args, timeout=300):
    """Run with stderr on a pseudo-terminal; (status, stdout, what the terminal showed)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))  # a terminal's size
    proc = subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=slave, cwd=ROOT)
    os.close(slave)
    shown = b""
    deadline = time.time() + timeout
    while time.time() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
        elif proc.poll() is not None:
            break
    os.close(master)
    out = proc.stdout.read().decode()
    return proc.wait(timeout=60), out, shown.decode(errors="replace")


def test_a_bar_on_a_terminal_keeps_its_unit_and_ends_at_its_total():
    status, out, shown = _on_terminal(["enumerate", "-n", "5", "--rules", "oracle"])
    assert status == 0 and "walkthroughs: 104" in out
    assert "104walkthrough" in shown and "state" not in shown


def test_the_exhaustive_audit_bar_counts_its_top_unit(tmp_path):
    status, _, shown = _on_terminal(["audit", "-n", "5", "--rules", "universal", "--exhaustive",
                                     "--db", str(tmp_path / "e.db")])
    assert status == 0
    frames = [(int(a), int(b)) for a, b in re.findall(r"(\d+)/(\d+) \[", shown)]
    assert frames and all(done <= total for done, total in frames)
    assert frames[-1][0] == frames[-1][1]


def test_notes_printed_during_a_bar_stand_on_their_own_lines(tmp_path):
    folder = tmp_path / "files"
    folder.mkdir()
    for name in ("2023_0804.txt", "7_1861.txt", "2023_0821.txt"):
        (folder / name).write_bytes((CORPUS / name).read_bytes())
    status, _, shown = _on_terminal(["check", str(folder)])
    assert status == 0
    lines = [line.split("\r")[-1] for line in shown.replace("\r\n", "\n").split("\n")]
    assert any(line.startswith("labyrinth: note:") for line in lines), shown


def test_a_redirected_run_writes_no_bar_frames(tmp_path):
    """The acceptance check: stderr of a long redirected run with a bar stays far under 10 KB."""
    err = tmp_path / "err.txt"
    with open(err, "w") as fh:
        proc = subprocess.run([*CLI, "enumerate", "-n", "7", "--rules", "default"], stdout=subprocess.PIPE,
                              stderr=fh, timeout=600, cwd=ROOT)
    assert proc.returncode == 0 and b"walkthroughs: 111712" in proc.stdout
    assert err.stat().st_size < 10_000


# --- 7. what patterns cost, and the default ------------------------------------------------------------
def test_a_pattern_quota_per_unit_is_kept_and_prefers_the_fatal_move(tmp_path):
    with Store(tmp_path / "q.db") as store:
        _, totals, findings = run_campaign(store, AuditSettings(
            n=7, rules_args=("universal", (), ()), walks=40, seed=1, patterns=1))
    dead = [f for f in findings if f.kind in ("missed-dead", "wrong-force")]
    assert dead, "the universal rules miss dead moves on 7x7"
    per_unit = {}
    for f in dead:
        per_unit.setdefault(f.unit, []).append(f)
    for unit, group in per_unit.items():
        with_pattern = [f for f in group if f.pattern is not None]
        assert len(with_pattern) <= 1
        fatal = [f for f in group if f.stuck_step is not None]
        if fatal and with_pattern:
            assert with_pattern[0] is fatal[0]
    assert totals.patterns == sum(f.pattern is not None for f in dead)


def test_audit_help_states_what_patterns_cost():
    out = " ".join(_run(["audit", "--help"]).stdout.split())
    assert "--patterns K|all|auto" in out and "21x21" in out and "--pattern-time-limit" in out


# --- 8. the oracle rule set enumerates in the kernel, with the same counts -------------------------------
@pytest.mark.parametrize("n, moves", [(5, ""), (5, "RRRR"), (5, "RRRRDDLLLUL"), (7, "RRDDRRDDLL"), (3, "RRDLLD")])
def test_oracle_enumeration_in_the_kernel_matches_the_python_walk(n, moves, monkeypatch):
    rules = get_rule_set("oracle")
    start = State.from_moves(n, moves)
    fast = enumerate_walks(start, rules)
    monkeypatch.setattr(type(rules), "perfect", False)
    slow = enumerate_walks(start, rules)
    assert (fast.walkthroughs, fast.stuck, fast.nodes) == (slow.walkthroughs, slow.stuck, slow.nodes)
    assert (fast.first_stuck is None) == (slow.first_stuck is None)


# --- 9, 10. flags and help ---------------------------------------------------------------------------
def test_rules_help_lists_every_rule_set():
    from labyrinth.rules import RULE_SETS

    for command in (["walk"], ["audit"], ["rules", "list"], ["rules", "mine"]):
        out = " ".join(_run([*command, "--help"]).stdout.split())
        assert all(name in out for name in RULE_SETS), command


def test_audit_backend_is_the_oracle_and_executor_is_where_units_run(tmp_path, capsys):
    code = main(["audit", "-n", "5", "--walks", "1", "--backend", "ray", "--db", str(tmp_path / "x.db")])
    assert code == 2 and "--executor ray" in capsys.readouterr().err
    assert main(["audit", "-n", "5", "--walks", "2", "--backend", "search", "--executor", "local",
                 "--db", str(tmp_path / "y.db")]) == 0
    with Store(tmp_path / "y.db") as store:
        assert json.loads(store.campaigns()[0]["params"])["oracle"] == "search"


def test_enumerate_takes_moves_like_every_other_command(capsys):
    assert main(["enumerate", "--moves", "5:RRRR", "--json"]) == 0
    by_moves = json.loads(capsys.readouterr().out)
    assert main(["enumerate", "--from", "5:RRRR", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["walkthroughs"] == by_moves["walkthroughs"] > 0


def test_version_and_a_help_written_for_users():
    from labyrinth import __version__

    assert _run(["--version"]).stdout.strip() == f"labyrinth {__version__}"
    out = _run(["--help"]).stdout
    assert "first steps:" in out and "N:MOVES" in out and "exit status" in out
    assert "argument parsing" not in out  # not the developer docstring


# --- 11. legends and natural order ---------------------------------------------------------------------
def test_drawings_print_their_legend(small_db, capsys):
    assert main(["findings", "list", "patterns", "--db", str(small_db)]) == 0
    assert "(^ head moving up, # taken" in capsys.readouterr().out
    assert main(["findings", "show", "1", "--db", str(small_db)]) == 0
    out = capsys.readouterr().out
    assert "(o the start, # the line" in out and "x the move" in out
    assert main(["rules", "show", "mined-7-1"]) == 0
    assert "x a move the rule disables" in capsys.readouterr().out


def test_rule_names_sort_naturally(tmp_path, capsys):
    from labyrinth.rules import natural_key

    names = ["mined-7-10", "mined-7-2", "mined-7-1", "c-shape", "mined-9-1"]
    assert sorted(names, key=natural_key) == ["c-shape", "mined-7-1", "mined-7-2", "mined-7-10", "mined-9-1"]
    assert main(["audit", "-n", "7", "--walks", "30", "--seed", "2", "--no-patterns",
                 "--db", str(tmp_path / "n.db")]) == 0
    rows = capsys.readouterr().out.split("misfired\n", 1)[1].splitlines()
    fired = [r.split()[0] for r in rows if r.startswith("mined-")]
    assert len(fired) >= 2 and fired == sorted(fired, key=natural_key)


# --- 13. a saved trace that ends alive is neither a walkthrough nor stuck ------------------------------
def test_trace_outcomes_complete_stuck_and_ended():
    from oracle import get_oracle

    saved_alive = parse_trace("5|1-1,1;0,1-2,1;1,0-2,2;3")  # options left at the last cell: saved, not stuck
    stuck_alive = parse_trace("5|1-1,1;0,1-2,1;1,0-2,2")  # no trail: the program allowed nothing more
    with get_oracle("search") as oracle:
        _, summary, totals = audit_trace(saved_alive, oracle)
        assert summary.status == "alive"
        assert (totals.walkthroughs, totals.stuck, totals.ended_alive) == (0, 0, 1)
        findings, summary, totals = audit_trace(stuck_alive, oracle)
        assert (totals.walkthroughs, totals.stuck, totals.ended_alive) == (0, 1, 0)
        assert any(f.kind == "over-pruned" for f in findings)


# --- 14. what a user comparing rule sets must be told -----------------------------------------------------
def test_rules_list_says_how_sets_differ(capsys):
    assert main(["rules", "list", "--rules", "default"]) == 0
    default = capsys.readouterr().out
    assert "apply only on 7x7" in default and "same rules as universal" in default
    assert "reach: global" in default
    assert main(["rules", "list", "--rules", "fast"]) == 0
    fast = capsys.readouterr().out
    assert "reach: local" in fast and "weaker" in fast


# --- 12. mining reports its progress --------------------------------------------------------------------
def test_mining_reports_progress_to_the_end():
    from labyrinth.rules.mining import mine

    calls = []
    mined = mine(5, get_rule_set("universal"), radius=2, progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, None)
    assert calls[-1] == (mined.dead, mined.dead)
    steps = [d for d, t in calls[1:]]
    assert steps == sorted(steps)


# --- 15. every file a command writes is named on the terminal --------------------------------------------
WRITERS = [
    ["draw", "--moves", "7:RRDDDL", "--no-oracle", "-o", "{out}.svg"],
    ["numbers", "draw", "numbers:7@1,1:E,S,W", "-o", "{out}.svg"],
    ["numbers", "walk", "-n", "7", "--start", "1,1", "--audit", "--svg", "{out}.svg"],
    ["knight", "draw", "knight:5@1,1:ESE,ENE", "--svg", "{out}.svg"],
    ["knight", "tour", "-n", "5", "--start", "1,1", "--svg", "{out}.svg"],
    ["knight", "count", "-n", "5", "--svg", "{out}.svg"],
    ["toggle", "solve", "--random", "-n", "5", "--seed", "1", "-o", "{out}.txt"],
    ["toggle", "draw", "--random", "-n", "5", "--seed", "1", "-o", "{out}.svg"],
    ["rules", "mine", "-n", "5", "--rules", "universal", "-o", "{out}.rule"],
]


@pytest.mark.parametrize("args", WRITERS, ids=lambda a: " ".join(a[:2]))
def test_a_command_names_every_file_it_writes(args, tmp_path, capsys):
    args = [a.replace("{out}", str(tmp_path / "out")) for a in args]
    written = args[-1]
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert Path(written).exists()
    assert f"wrote {written}" in out + err  # on stderr, or as the answer of a command that only draws


def test_exit_statuses_are_what_the_help_says(tmp_path, capsys):
    """The help documents the statuses once; an audit with findings is 0, an unsound rule in lint is 1."""
    help_text = " ".join(_run(["--help"]).stdout.split())
    assert "an audit's findings are its results: 0 too" in help_text and "rules lint" in help_text
    assert main(["audit", "-n", "7", "--rules", "universal", "--walks", "30", "--seed", "3", "--no-patterns",
                 "--db", str(tmp_path / "e.db"), "--no-progress"]) == 0
    assert "missed-dead         1" in capsys.readouterr().out  # a finding, and still 0
    assert main(["rules", "lint", str(ROOT / "examples" / "rules" / "wall-ahead.rule")]) == 1


# --- 16. typos: the command's own help, the nearest option, no silent abbreviations ---------------------
@pytest.mark.parametrize("args, says", [
    (["walk", "-n", "5", "--sed", "1"], "labyrinth walk: error: unrecognized arguments: --sed 1; did you mean --seed? "
                                        "(see labyrinth walk --help)"),
    (["walk", "-n", "5", "--se", "1"], "did you mean --seed?"),  # an abbreviation is a typo, never a guess
    (["audit", "-n", "5", "--walks", "2", "--jbos", "2"], "did you mean --jobs? (see labyrinth audit --help)"),
    (["toggle", "solve", "--rando", "-n", "5"], "did you mean --random? (see labyrinth toggle solve --help)"),
    (["wlak", "-n", "5"], "no command 'wlak'; did you mean 'walk'?"),
    (["explain", "7:RRDD"], "give --moves 7:RRDD"),
    (["check", "9:RRDDL"], "give --moves 9:RRDDL"),
])
def test_a_typo_is_one_line_naming_the_fix(args, says, capsys):
    try:
        code = main(args)
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err


def test_the_parsers_never_abbreviate():
    import argparse

    from labyrinth.cli import _parser

    def parsers(p):
        yield p
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    yield from parsers(sub)

    assert all(not p.allow_abbrev for p in parsers(_parser()))
