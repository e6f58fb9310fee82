"""Stopping an audit and running it again: Ctrl-C, a killed worker, the same campaign asked for twice."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from labyrinth.cli import main

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "labyrinth.cli"]
#: a campaign far longer than the tests wait: they stop it once a few units are stored
LONG = ["audit", "-n", "11", "--rules", "universal", "--walks", "5000", "--seed", "1", "--no-progress"]


def _units(db):
    try:
        with sqlite3.connect(db) as con:
            return con.execute("SELECT COUNT(*) FROM units").fetchone()[0]
    except sqlite3.Error:
        return 0


def _foreground():
    """In the child: a session of its own (as a terminal's foreground job) and SIGINT as a shell leaves it.

    (A test runner's worker may ignore SIGINT, and a child inherits that.)
    """
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def started(tmp_path):
    """``start(db, jobs)``: the long audit, returned once it has stored 3 units; killed at the end of the test."""
    procs = []

    def start(db, jobs):
        proc = subprocess.Popen([*CLI, *LONG, "--jobs", str(jobs), "--db", str(db)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT, preexec_fn=_foreground)
        procs.append(proc)
        deadline = time.time() + 600
        while _units(db) < 3 and proc.poll() is None and time.time() < deadline:
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:  # the test failed before the run ended: end it and its workers
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_at_once_and_says_how_to_resume(tmp_path, started, jobs):
    db = tmp_path / "i.db"
    proc = started(db, jobs)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends: the whole foreground process group
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "cadical" not in err and "fatal" not in err, err
    last = err.strip().splitlines()[-1]
    stored = _units(db)
    assert f"interrupted (SIGINT); {stored} of 5000 units stored in {db}; continue with: labyrinth audit" in last, err
    assert last.endswith(f"--jobs {jobs} --db {db} --resume"), last  # the exact command, as typed, and --resume
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("SELECT finished FROM campaigns").fetchone()[0] is None


def test_ctrl_c_twice_never_hangs(tmp_path, started):
    db = tmp_path / "t.db"
    proc = started(db, 2)
    os.killpg(proc.pid, signal.SIGINT)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert "units stored" in err or "stopped at once" in err, err


def test_a_killed_worker_is_one_line_and_the_units_stay(tmp_path, started):
    db = tmp_path / "k.db"
    proc = started(db, 2)
    workers = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert workers
    os.kill(int(workers[0]), signal.SIGKILL)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130 and "Traceback" not in err and "BrokenProcessPool" not in err, err
    assert "a worker process was killed" in err and "--resume" in err and _units(db) >= 3


def test_the_same_campaign_again_needs_resume_or_new(tmp_path, capsys):
    db = str(tmp_path / "s.db")
    args = ["audit", "-n", "7", "--rules", "universal", "--walks", "6", "--seed", "1", "--db", db, "--no-progress"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "campaign 1 has these settings (finished)" in err and "--resume" in err and "--new" in err
    assert len(err.strip().splitlines()) == 1
    assert main([*args, "--resume"]) == 0
    again = capsys.readouterr().out
    assert again.splitlines()[0] == first.splitlines()[0]  # campaign 1, its totals again
    assert main([*args, "--new"]) == 0
    assert capsys.readouterr().out.startswith(f"campaign 2 in {db}")
    assert main(["audit", "-n", "7", "--rules", "universal", "--walks", "7", "--seed", "1", "--db", db,
                 "--no-progress"]) == 0  # other settings: another campaign, no question asked


def test_the_audit_summary_counts_patterns_as_the_store_does(tmp_path, capsys):
    db = str(tmp_path / "p.db")
    assert main(["audit", "-n", "7", "--rules", "universal", "--walks", "30", "--seed", "3", "--db", db,
                 "--no-progress", "--pattern-time-limit", "3600"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("minimal stuck patterns"))
    assert main(["findings", "list", "patterns", "--db", db, "--json"]) == 0
    distinct = len(capsys.readouterr().out.splitlines())
    assert main(["findings", "list", "--db", db, "--json"]) == 0
    with_one = sum('"pattern": null' not in r for r in capsys.readouterr().out.splitlines())
    assert line.startswith(f"minimal stuck patterns: {with_one} findings have one, {distinct} distinct"), line
