"""Issue 40 (3): ``labyrinth stats --db`` is a resumable campaign with the figures of a run without it."""

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from labyrinth.cli import main
from verify.stats_campaign import UNIT_CELLS, plan_units, runs_per_unit, stored_results, unit_name
from verify.store import Store, StoreError

ROOT = Path(__file__).resolve().parent.parent
#: a rule set whose runs end both ways on 7x7 (some stuck, most censored) and stuck at once on 9x9
SETTINGS = ["-n", "7,9", "--rules", "fast", "--runs", "150", "--seed", "5", "--cap", "60"]


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "labyrinth.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


def _rows(text):
    """The JSON rows of a ``stats --json`` run, without the seconds (the time differs run to run)."""
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    for r in rows:
        del r["seconds"]
    return rows


def _units(db):
    try:
        with sqlite3.connect(db) as con:
            return con.execute("SELECT COUNT(*) FROM units").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_the_units_cover_every_run_of_every_size_once():
    for sizes, runs, cap in (([7, 9], 150, 60), ([41], 10_000, 100), ([101], 7, 10 ** 6), ([5], 1, 1)):
        plan = plan_units(sizes, runs, cap)
        for n in sizes:
            spans = sorted((a, b) for m, a, b in plan if m == n)
            assert spans[0][0] == 0 and spans[-1][1] == runs
            assert all(b == a2 for (_, b), (a2, _) in zip(spans, spans[1:])) and all(b > a for a, b in spans)
            step = spans[0][1] - spans[0][0]
            assert len(spans) >= min(runs, 20) or step == 1 or step * cap * n * n <= UNIT_CELLS
        assert len({unit_name(*u) for u in plan}) == len(plan)
    assert runs_per_unit(101, 10_000, 100) == 1  # a 101x101 run of 100 walks is a unit of its own


def test_a_db_run_a_killed_and_resumed_run_and_a_plain_run_give_the_same_rows(tmp_path, capsys):
    assert main(["stats", *SETTINGS, "--json"]) == 0
    plain = _rows(capsys.readouterr().out)
    assert [r["n"] for r in plain] == [7, 9] and 0 < plain[0]["censored"] < 150  # both kinds of run on 7x7

    assert main(["stats", *SETTINGS, "--json", "--db", str(tmp_path / "a.db"), "--jobs", "2"]) == 0
    out = capsys.readouterr()
    assert _rows(out.out) == plain
    assert "estimate: " in out.err and "ms a walk" in out.err

    db = tmp_path / "k.db"
    proc = subprocess.Popen([sys.executable, "-m", "labyrinth.cli", "stats", *SETTINGS, "--json", "--no-progress",
                             "--db", str(db)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 600
    while _units(db) < 2 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)  # no handler runs: what is stored is what was committed
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    kept = _units(db)
    total = len(plan_units([7, 9], 150, 60))
    assert 2 <= kept < total
    resumed = _cli("stats", *SETTINGS, "--json", "--no-progress", "--db", str(db), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert _rows(resumed.stdout) == plain
    assert f"{total - kept} blocks of runs to go" in resumed.stderr
    assert _units(db) == total
    with sqlite3.connect(db) as con:  # no unit ran twice, no claim is left
        assert con.execute("SELECT MAX(runs) FROM units").fetchone()[0] == 1
        assert con.execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 0


def test_resume_refuses_settings_that_differ_from_the_stored_ones(tmp_path, capsys):
    db = str(tmp_path / "s.db")
    base = ["stats", "-n", "7", "--rules", "default", "--runs", "4", "--cap", "5", "--seed", "1", "--no-progress",
            "--db", db]
    assert main(base) == 0
    capsys.readouterr()
    for change, named in ((["--rules", "fast"], "--rules default stored, fast given"),
                          (["--on", "window:3"], "--on none stored, window:3 given"),
                          (["--off", "count-area"], "--off none stored, count-area given"),
                          (["--seed", "2"], "--seed 1 stored, 2 given"), (["--cap", "6"], "--cap 5 stored, 6 given"),
                          (["--runs", "5"], "--runs 4 stored, 5 given"), (["-n", "9"], "-n 7 stored, 9 given")):
        proc = _cli(*base, *change, "--resume")
        assert proc.returncode == 2, (change, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in proc.stderr, (change, proc.stderr)
        assert named in lines[0] and db in lines[0], (change, lines[0])
    assert _units(db) == 4  # nothing added, nothing lost


def test_a_finished_campaign_is_printed_again_on_resume_and_not_run_again(tmp_path, capsys):
    db = str(tmp_path / "f.db")
    args = ["stats", "-n", "7", "--rules", "fast", "--runs", "6", "--cap", "30", "--no-progress", "--json", "--db", db]
    assert main(args) == 0
    first = _rows(capsys.readouterr().out)
    assert main(args) == 2  # the same settings again, without --resume: refused, named
    assert "add --resume" in capsys.readouterr().err
    assert main([*args, "--resume"]) == 0
    out = capsys.readouterr()
    assert _rows(out.out) == first and "every block is stored" in out.err
    assert main([*args, "--new"]) == 0  # another campaign of the same settings: the same figures
    assert _rows(capsys.readouterr().out) == first
    with Store(db) as store:
        kinds = [c["kind"] for c in store.campaigns()]
        assert kinds == ["stats", "stats"] and all(c["finished"] for c in store.campaigns())
        assert json.loads(store.campaigns()[0]["totals"])["runs"] == 6


@pytest.mark.parametrize("extra, token", [(["--resume"], "--resume"), (["--new"], "--new"),
                                          (["--executor", "ray"], "--executor"), (["--address", "h:1"], "--address")])
def test_the_campaign_options_need_a_store(extra, token, capsys):
    assert main(["stats", "-n", "7", "--runs", "2", *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and token in err[0] and "--db" in err[0]


def test_resume_and_new_together_and_a_resume_without_a_store_are_one_line_errors(tmp_path, capsys):
    db = tmp_path / "none.db"
    assert main(["stats", "-n", "7", "--runs", "2", "--db", str(db), "--resume", "--new"]) == 2
    assert main(["stats", "-n", "7", "--runs", "2", "--db", str(db), "--resume"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "choose one" in err[0] and "no stats campaign to resume" in err[1]
    assert not db.exists()  # nothing made


def test_ray_not_installed_is_a_one_line_error_before_any_work(tmp_path):
    code = ("import sys; sys.modules['ray'] = None\n"
            "from labyrinth.cli import main\n"
            f"sys.exit(main(['stats', '-n', '7', '--runs', '3', '--db', {str(tmp_path / 'r.db')!r}, "
            "'--executor', 'ray']))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs the 'ray' package" in lines[0]
    assert not (tmp_path / "r.db").exists()


def test_a_unit_whose_counts_were_tampered_with_is_refused(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    assert main(["stats", "-n", "7", "--rules", "fast", "--runs", "3", "--cap", "5", "--no-progress", "--db", db]) == 0
    with sqlite3.connect(db) as con:
        unit, totals = con.execute("SELECT unit, totals FROM units LIMIT 1").fetchone()
        t = json.loads(totals)
        t["samples"] = [99]  # past the cap
        con.execute("UPDATE units SET totals = ? WHERE unit = ?", (json.dumps(t), unit))
    with Store(db) as store, pytest.raises(StoreError, match="no valid walkthrough counts"):
        stored_results(store, store.campaigns()[0]["id"])
    capsys.readouterr()
    assert main(["stats", "-n", "7", "--rules", "fast", "--runs", "3", "--cap", "5", "--no-progress", "--db", db,
                 "--resume"]) == 2
    assert "no valid walkthrough counts" in capsys.readouterr().err


def test_stats_rows_are_the_library_s(tmp_path):
    """The store's rows are the walker's own statistic (no figure of the campaign's own making)."""
    from labyrinth.engine.walker import walk_statistics
    from labyrinth.rules import get_rule_set
    from verify.stats_campaign import StatsSettings, run_campaign

    with Store(tmp_path / "l.db") as store:
        result = run_campaign(store, StatsSettings(sizes=[7], rules_args=("fast", (), ()), runs=30, seed=2, cap=40))
    direct = walk_statistics(7, get_rule_set("fast"), 30, 2, cap=40)
    got = result.stats[7]
    assert (got.mean, got.low, got.high, got.walks, got.stuck, got.censored) == \
        (direct.mean, direct.low, direct.high, direct.walks, direct.stuck, direct.censored)
    assert result.complete and result.units_done == result.units_total


def test_a_rule_switched_off_leaves_the_fingerprint_and_a_campaign_of_the_older_fingerprint_resumes(tmp_path, capsys):
    from labyrinth.rules import get_rule_set
    from labyrinth.rules.ruleset import RuleSet
    from verify.campaign import rules_fingerprint, rules_fingerprints

    full = get_rule_set("strong+++")
    assert "gates" in full.off
    # the set as it was before the gates joined it, switched off: the same rules asked, the same walks
    before = RuleSet(full.name, [r for r in full.rules if r.name != "gates"], (),
                     {r.name for r in full.active}, sound=full.sound)
    assert [r.name for r in before.active] == [r.name for r in full.active]
    assert rules_fingerprint(before) == rules_fingerprint(full)
    assert rules_fingerprints(before)[1] != rules_fingerprints(full)[1]  # the older fingerprint counted it
    assert rules_fingerprint(get_rule_set("strong+++", on=["gates"])) != rules_fingerprint(full)
    assert rules_fingerprint(get_rule_set("strong+++", off=["closure"])) != rules_fingerprint(full)

    # a store written under the older fingerprint: its campaign resumes, no second one starts
    db = str(tmp_path / "old.db")
    args = ["stats", "-n", "7", "--rules", "default", "--runs", "6", "--cap", "5", "--no-progress", "--json",
            "--db", db]
    assert main(args) == 0
    first = _rows(capsys.readouterr().out)
    current, older = rules_fingerprints(get_rule_set("default"))
    assert current != older  # default has optional rules switched off
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT fingerprint FROM campaigns").fetchall() == [(current,)]
        con.execute("UPDATE campaigns SET fingerprint = ?", (older,))
        con.execute("DELETE FROM units WHERE rowid = (SELECT MAX(rowid) FROM units)")
        con.execute("UPDATE campaigns SET finished = NULL")
    assert main(args) == 2  # the same settings without --resume: refused, as for the current fingerprint
    capsys.readouterr()
    assert main([*args, "--resume"]) == 0
    out = capsys.readouterr()
    assert _rows(out.out) == first and "1 blocks of runs to go" in out.err, out.err
    with Store(db) as store:
        assert [c["fingerprint"] for c in store.campaigns()] == [older]
