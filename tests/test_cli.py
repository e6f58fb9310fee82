"""The ``labyrinth`` command as a user runs it: outputs, exit statuses, one-line errors."""

import json
import subprocess
import sys

import pytest
from conftest import CORPUS

from labyrinth.cli import main

KEYS = {"state", "n", "steps", "status", "first_dead_step", "first_dead_between", "feasible_moves",
        "undecided_moves", "partial", "witness", "seconds"}


def run(*args, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "labyrinth.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


def test_check_moves_json_has_exactly_the_documented_keys(capsys):
    assert main(["check", "--moves", "9:RRDDL", "--moves", "5:RRRRDLLLL", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    objs = [json.loads(line) for line in lines]
    assert [set(o) for o in objs] == [KEYS, KEYS]
    first = objs[0]
    assert first["state"] == "9:RRDDL" and first["status"] == "alive" and first["feasible_moves"] == ["U"]
    assert first["first_dead_step"] is None and len(first["witness"]) == 81 - 6


def test_check_dead_state_reports_first_dead_step(capsys):
    # 5:RRRRDDLLLUL walls in (1,2)...(1,5); the damage was done by the 10th move
    assert main(["check", "--moves", "5:RRRRDDLLLUL", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["status"] == "dead" and obj["witness"] is None and obj["feasible_moves"] == []
    assert obj["first_dead_step"] is not None and 0 < obj["first_dead_step"] <= 11


def test_check_complete_state(capsys):
    assert main(["check", "--moves", "3:RRDLLDRR", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["status"] == "complete" and obj["witness"] == ""


@pytest.mark.parametrize("args, needle", [
    (["check", "--moves", "8:RR"], "8"),
    (["check", "--moves", "7:RRL"], "revisits"),
    (["check", "--moves", "7:RRQ"], "'Q'"),
    (["check", "--moves", "7:UU"], "leaves the board"),
    (["check", "no-such-file.txt"], "no-such-file.txt"),
    (["check"], "check"),
    (["check", "--moves", "7:R", "--backend", "magic"], "magic"),
])
def test_bad_input_is_one_line_exit_2_no_traceback(args, needle):
    code, out, err = run(*args)
    assert code == 2
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_batch_reports_bad_lines_and_runs_the_rest():
    code, out, err = run("check", "-", stdin="7:RR\n7:RRX\n\n5|1-1,1;0,1-2,1\n6:R\n")
    objs = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [o.get("status", "error") for o in objs] == ["alive", "error", "alive", "error"]
    assert "'X'" in objs[1]["error"] and "<stdin>:2" in objs[1]["error"]
    assert set(objs[0]) == KEYS


def test_empty_batch_input_is_an_error():
    code, out, err = run("check", "-", stdin="\n  \n")
    assert code == 2 and "empty input" in err and out == ""


def test_files_print_a_table(corpus_files):
    files = [str(f) for f in corpus_files if f.name in ("2023_0821.txt", "7_1861.txt", "2023_0804.txt")]
    code, out, err = run("check", "--no-progress", *files)
    assert code == 0, err
    assert out.splitlines()[0].split()[:4] == ["file", "n", "steps", "status"]
    assert "3 states" in out.splitlines()[-1]
    assert "dropped the area-exit annotation" in err  # 2023_0804.txt carries ':EXITS'


def test_timeout_is_unknown_with_exit_3():
    # an open 25x25 board with a tiny limit: SAT alone cannot decide it in a millisecond
    code, out, err = run("check", "--moves", "25:RRRRRRRRRRDDDDDDDDDD", "--backend", "sat",
                         "--time-limit", "0.001", "--json")
    assert code == 3
    obj = json.loads(out)
    assert obj["status"] == "unknown" and obj["witness"] is None


def test_enumerate_5x5_counts(capsys):
    assert main(["enumerate", "-n", "5", "--rules", "none", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert (obj["walkthroughs"], obj["stuck"], obj["nodes"]) == (104, 26_124, 90_111)
    assert main(["enumerate", "-n", "5", "--json"]) == 0  # the default rules
    obj = json.loads(capsys.readouterr().out)
    assert (obj["rules"], obj["walkthroughs"], obj["stuck"]) == ("default", 104, 0)


def test_walk_is_seeded_and_oracle_walks_complete(capsys):
    assert main(["walk", "-n", "11", "--rules", "oracle", "--seed", "4", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["outcome"] == "complete" and first["stuck_step"] is None
    assert main(["walk", "-n", "11", "--rules", "oracle", "--seed", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first


@pytest.mark.parametrize("args, needle", [
    (["walk", "-n", "8"], "8"),
    (["walk", "-n", "7", "--rules", "magic"], "magic"),
    (["enumerate"], "exactly one"),
    (["enumerate", "--from", "7:RRL"], "revisits"),
    (["walk", "-n", "7", "--off", "c-shap"], "c-shap"),
    (["stats", "-n", "9,x"], "9,x"),
    (["stats", "-n", "10"], "10"),
    (["rules", "show", "nothing-like-it"], "nothing-like-it"),
    (["rules", "mine", "-n", "5", "--radius", "4"], "radius"),
])
def test_walker_commands_reject_bad_input(args, needle):
    code, out, err = run(*args)
    assert code == 2 and needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_walk_under_the_default_rules_prints_the_path_and_outcome(capsys):
    assert main(["walk", "-n", "21", "--rules", "default", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("21:") and (out[1] == "complete" or out[1].startswith("stuck at step "))


def test_stats_json_against_the_study(capsys):
    assert main(["stats", "-n", "9,11", "--runs", "30", "--seed", "3", "--json", "--rules", "fast"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["n"] for r in rows] == [9, 11] and [r["study"] for r in rows] == [19.5, 5.7]
    for r in rows:
        assert r["ci95"][0] <= r["mean"] <= r["ci95"][1] and r["walks"] >= r["runs"] == 30


def test_rules_list_show_and_lint(capsys, tmp_path):
    assert main(["rules", "list", "--off", "count-area"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["c-shape", "on", "force"]
    assert any(line.split()[:2] == ["count-area", "off"] for line in lines)
    assert main(["rules", "show", "mined-7-1"]) == 0
    shown = capsys.readouterr().out
    assert "sizes 7" in shown and " H " in shown + " "
    good = tmp_path / "good.rule"
    good.write_text("name: wall-ahead\nsizes: 9..\ngrid:\n  ? X ?\n  ? x ?\n  ? H ?\n")
    assert main(["rules", "lint", str(good), "--no-soundness"]) == 0
    assert "wall-ahead: ok" in capsys.readouterr().out
    assert main(["rules", "lint", str(good)]) == 1  # never step towards a wall: not sound
    assert "NOT proved sound" in capsys.readouterr().out
    assert main(["rules", "lint", str(CORPUS.parent.parent / "examples" / "rules" / "pocket.rule")]) == 0
    assert "sound on every board" in capsys.readouterr().out
    bad = tmp_path / "bad.rule"
    bad.write_text("name: broken\ngrid:\n  ? Z ?\n  ? H ?\n")
    code, out, err = run("rules", "lint", str(bad))
    assert code == 2 and f"{bad}:3" in err and "unknown symbol" in err and err.count("\n") == 1
    # a rule file is also a rule set: the universal rules plus its patterns
    assert main(["walk", "-n", "9", "--rules", str(good), "--seed", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["state"].startswith("9:")


def test_rules_mine_writes_sound_rules(tmp_path):
    # mining on top of no rules at all: the mined 5x5 rules must keep all 104 walkthroughs
    out = tmp_path / "five.rule"
    code, _, err = run("rules", "mine", "-n", "5", "--rules", "none", "--radius", "2", "-o", str(out))
    assert code == 0 and "rules cover" in err
    from labyrinth.engine import State
    from labyrinth.engine.walker import enumerate_walks
    from labyrinth.rules import PatternRule, RuleSet, load_rules

    rules = RuleSet("mined", [PatternRule(s) for s in load_rules(out)])
    base = enumerate_walks(State.from_moves(5, ""), RuleSet("none", []))
    mined = enumerate_walks(State.from_moves(5, ""), rules)
    assert mined.walkthroughs == base.walkthroughs == 104
    assert mined.stuck < base.stuck / 10


def test_explain_blames_rules_and_draws_future_lines(capsys, corpus_files):
    assert main(["explain", "--moves", "7:DDDDDDRRRRRUUUUUUL", "--on", "future-lines", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["state"] == "7:DDDDDDRRRRRUUUUUUL" and set(obj["moves"]) == {"D", "L"}
    assert obj["rules"] == "default --on future-lines"  # the rules that decided, switches included
    assert not any(m["open"] for m in obj["moves"].values())
    assert "future-lines" in {b["rule"] for m in obj["moves"].values() for b in m["by"]}
    assert obj["future_dead"] and obj["future_cells"]
    # without --on the aid is still drawn, but does not decide
    assert main(["explain", "--moves", "5:RRDD"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "o##++" and "D: open" in out and "future-lines" not in out
    # a corpus file explains too
    assert main(["explain", str(corpus_files[0])]) == 0
    assert "rules: default" in capsys.readouterr().out


@pytest.mark.parametrize("args, needle", [
    (["explain"], "exactly one of"),
    (["explain", "--moves", "6:RR"], "odd"),
    (["explain", "--moves", "5:RR", "--on", "c-shapes"], "no such rule"),
])
def test_explain_rejects_bad_input(args, needle):
    code, out, err = run(*args)
    assert code == 2 and needle in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_audit_minimize_and_findings_commands(tmp_path, capsys):
    db = str(tmp_path / "f.db")
    # limits no busy machine reaches: a pattern past --pattern-time-limit (10 s by default) is stored without
    # one, and a confirmation past --time-limit leaves its finding unconfirmed, which is not what this checks
    slow = ["--time-limit", "3600", "--pattern-time-limit", "3600"]
    assert main(["audit", "-n", "7", "--rules", "universal", "--walks", "12", "--seed", "1", "--db", db,
                 "--json", *slow]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    totals = lines[-1]["totals"]
    found = lines[:-1]
    assert totals["walks"] == 12 and sum(totals["findings"].values()) == len(found) > 0
    assert all(f["kind"] == "missed-dead" and f["checked_by"] == "sat" and f["pattern"] for f in found)
    assert main(["findings", "list", "--db", db, "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["state"], r["move"]) for r in rows] == [(f["state"], f["move"]) for f in found]
    assert main(["findings", "show", str(rows[0]["id"]), "--db", db]) == 0
    out = capsys.readouterr().out
    assert "minimal stuck pattern" in out and "confirmed by: sat" in out
    assert main(["minimize", "--moves", found[0]["state"] + found[0]["move"], "--json", "--time-limit", "3600"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["pattern"]["key"] == found[0]["pattern"]["key"]


def test_audit_resumes_after_sigkill_without_losing_findings(tmp_path):
    import signal
    import sqlite3
    import time

    db = str(tmp_path / "k.db")
    walks = 400  # enough units that the kill lands in the middle of the run on a fast machine
    args = [sys.executable, "-m", "labyrinth.cli", "audit", "-n", "7", "--rules", "universal", "--walks", str(walks),
            "--seed", "2", "--db", db, "--no-progress"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    units = 0
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
        try:
            with sqlite3.connect(db) as con:
                units = con.execute("SELECT COUNT(*) FROM units").fetchone()[0]
        except sqlite3.Error:
            continue
        if units >= 5:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(db) as con:
        before = set(con.execute("SELECT state, move FROM findings"))
        done_before = con.execute("SELECT COUNT(*) FROM units").fetchone()[0]
    assert 0 < done_before < walks
    code, _, err = run(*args[3:], "--resume")
    assert code == 0, err
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        after = set(con.execute("SELECT state, move FROM findings"))
        assert con.execute("SELECT COUNT(*) FROM campaigns").fetchone()[0] == 1
        assert con.execute("SELECT COUNT(*) FROM units").fetchone()[0] == walks
    assert before <= after
    # the same campaign run in one go finds exactly the same
    fresh = str(tmp_path / "fresh.db")
    code, _, err = run("audit", "-n", "7", "--rules", "universal", "--walks", str(walks), "--seed", "2", "--db",
                       fresh, "--no-progress")
    assert code == 0, err
    with sqlite3.connect(fresh) as con:
        assert set(con.execute("SELECT state, move FROM findings")) == after


@pytest.mark.parametrize("args, needle", [
    (["audit", "--walks", "3"], "-n"),
    (["audit", "-n", "8", "--walks", "3"], "8"),
    (["audit", "-n", "7"], "--exhaustive or --walks"),
    (["audit", "-n", "7", "--walks", "2", "--rules", "nope"], "nope"),
    (["minimize", "--moves", "5:RR"], "completion"),
    (["findings", "list", "--db", "{tmp}/missing/x.db"], "no findings store"),
])
def test_verifier_commands_reject_bad_input(args, needle, tmp_path):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]  # a path in the test's own folder, known not to exist
    code, out, err = run(*args, "--db", str(tmp_path / "x.db")) if args[0] == "audit" else run(*args)
    assert code == 2 and needle in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
