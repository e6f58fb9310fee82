"""Issue 18, 9-11: workers die with their audit, concurrent resumes share units, only stores are opened as stores."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
import types

import pytest

from labyrinth.cli import main
from labyrinth.jobs.claims import HOST, Owner, owner_alive
from verify.campaign import AuditSettings, run_campaign
from verify.store import Store

LINUX_PROC = os.path.isdir("/proc/self/task")


def cli(*args):
    return [sys.executable, "-m", "labyrinth.cli", *args]


def _children(pid):
    """Pids whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    if int(fh.read().rpartition(")")[2].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return out


def _running(pid):
    """The process exists and is not a zombie (a reaped or killed-and-unreaped worker is not running)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _gone_within(pids, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline and any(_running(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if _running(p)]


def _dead_pid():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


# --- 9. workers die with their parent ----------------------------------------------------------------------
@pytest.mark.skipif(not LINUX_PROC, reason="finds the workers through /proc")
def test_the_workers_of_a_sigkilled_audit_die_with_it(tmp_path):
    proc = subprocess.Popen(cli("audit", "-n", "21", "--walks", "200", "--no-patterns", "--jobs", "2", "--db",
                                str(tmp_path / "w.db"), "--no-progress"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        workers = []
        while time.time() < deadline and proc.poll() is None and len(workers) < 2:
            time.sleep(0.2)
            workers = _children(proc.pid)
        assert len(workers) == 2, workers
        time.sleep(1.0)  # the workers are set up and at work
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    left = _gone_within(workers, 5.0)
    for pid in left:  # do not leave them behind if the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left


@pytest.mark.skipif(not LINUX_PROC, reason="finds the worker through /proc")
def test_a_worker_without_the_kernel_s_help_still_exits_when_its_parent_is_killed():
    script = textwrap.dedent("""
        import os, sys, time
        import labyrinth.jobs.pool as ex
        parent = os.getpid()
        child = os.fork()
        if child == 0:
            ex.PARENT_POLL_SECONDS = 0.1
            ex.die_with_parent(parent, kernel=False)
            time.sleep(60)
            os._exit(0)
        print(child, flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    child = int(proc.stdout.readline())
    time.sleep(0.3)
    assert _running(child)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    left = _gone_within([child], 5.0)
    if left:
        os.kill(child, signal.SIGKILL)
    assert not left


# --- 10. claims --------------------------------------------------------------------------------------------
def test_claims_respect_live_owners_and_take_over_dead_ones(tmp_path):
    with Store(tmp_path / "c.db") as store:
        c = store.start_campaign("walks", {"x": 1})
        a, b = Owner(), Owner()  # two runs in live processes
        assert store.claim(c, "walk 0", a) == ("mine", None)
        assert store.claim(c, "walk 0", b) == ("busy", a.key)
        assert store.claim(c, "walk 0", a) == ("mine", None)
        store.record_unit(c, "walk 0", [], {"walks": 1}, owner=a)
        assert store.claim(c, "walk 0", b) == ("done", {"walks": 1}) and store.claims(c) == {}
        store.record_unit(c, "walk 0", [], {"walks": 1}, owner=b)  # a unit recorded twice counts two runs
        assert tuple(store.db.execute("SELECT owner, runs FROM units").fetchone()) == (b.key, 2)
        dead = Owner(pid=_dead_pid(), start=None)  # a killed run on this machine
        assert store.claim(c, "walk 1", dead)[0] == "mine"
        assert store.claim(c, "walk 1", b) == ("mine", None)
        far = Owner(host="elsewhere/0", pid=1, start=None)  # another machine: only its heartbeat tells
        assert store.claim(c, "walk 2", far)[0] == "mine"
        assert store.claim(c, "walk 2", b)[0] == "busy"
        store.db.execute("UPDATE claims SET heartbeat = heartbeat - 700")  # silent past CLAIM_TIMEOUT
        assert store.claim(c, "walk 2", b) == ("mine", None)
        store.release_claims(b)
        assert store.claims(c) == {}
    # a pid that now names a process started at another time is not the owner
    assert owner_alive(HOST, os.getpid(), Owner().start, time.time(), time.time())
    assert not owner_alive(HOST, os.getpid(), -1, time.time(), time.time())


def test_a_resume_takes_over_the_claims_of_killed_runs(tmp_path, monkeypatch):
    db = tmp_path / "r.db"
    kw = {"n": 7, "rules_args": ("universal", (), ()), "walks": 8, "seed": 1, "patterns": 0}  # a finding in walk 6
    with Store(db) as store:
        c, _, _ = run_campaign(store, AuditSettings(**kw))
        before = {(f["state"], f["move"]) for f in store.findings()}
        assert before
        store.db.execute("DELETE FROM units WHERE unit IN ('walk 1', 'walk 6')")  # as if killed before recording
        store.claim(c, "walk 1", Owner(pid=_dead_pid(), start=None))
        store.claim(c, "walk 6", Owner(host="elsewhere/0", pid=1, start=None))
        store.db.execute("UPDATE claims SET heartbeat = heartbeat - 700 WHERE unit = 'walk 6'")
    import labyrinth.jobs.claims

    def wait(_):
        raise AssertionError("the resume waited for a claim of a run that is gone")

    clock = types.SimpleNamespace(**{k: getattr(time, k) for k in dir(time) if not k.startswith("_")})
    clock.sleep = wait
    monkeypatch.setattr(labyrinth.jobs.claims, "time", clock)  # it must take them over at once, never wait
    with Store(db) as store:
        again, totals, _ = run_campaign(store, AuditSettings(**kw, resume=True))
        assert again == c and totals.walks == 8
        rows = {r["unit"]: (r["owner"], r["runs"]) for r in store.db.execute("SELECT unit, owner, runs FROM units")}
        assert rows["walk 1"][0] == rows["walk 6"][0] != rows["walk 0"][0]
        assert all(runs == 1 for _, runs in rows.values()) and store.claims(c) == {}
        assert {(f["state"], f["move"]) for f in store.findings()} == before


def test_two_concurrent_resumes_share_the_units_and_find_what_one_run_finds(tmp_path):
    args = ["audit", "-n", "11", "--walks", "80", "--seed", "3", "--no-patterns", "--no-progress", "--json"]
    db = str(tmp_path / "two.db")
    procs = [subprocess.Popen(cli(*args, "--db", db, "--resume"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [e for _, e in outs]
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM campaigns").fetchone()[0] == 1
        per_owner = dict(con.execute("SELECT owner, SUM(runs) FROM units GROUP BY owner"))
        assert con.execute("SELECT COUNT(*), MAX(runs) FROM units").fetchone() == (80, 1)  # each unit ran once
        assert con.execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 0
        stored = sorted(con.execute("SELECT state, move, kind FROM findings"))
    assert len(per_owner) == 2 and sum(per_owner.values()) == 80, per_owner  # both ran some: shared
    lines = [[json.loads(x) for x in out.splitlines()] for out, _ in outs]
    keys = ("walks", "steps", "walkthroughs", "stuck", "queries", "findings", "fired", "misfired")
    a, b = ({k: run[-1]["totals"][k] for k in keys} for run in lines)
    assert a == b  # both report the whole campaign
    reported = [(f["state"], f["move"], f["kind"]) for run in lines for f in run[:-1]]
    assert sorted(reported) == stored  # each finding reported by the run that found it, once
    one = str(tmp_path / "one.db")
    code = subprocess.run(cli(*args, "--db", one), capture_output=True, text=True, timeout=300, check=False)
    assert code.returncode == 0, code.stderr
    with sqlite3.connect(one) as con:
        assert sorted(con.execute("SELECT state, move, kind FROM findings")) == stored
    assert {k: json.loads(code.stdout.splitlines()[-1])["totals"][k] for k in keys} == a


# --- 11. only a findings store is opened as one ----------------------------------------------------------
def _other_sqlite(path):
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE mine (x)")
    con.execute("INSERT INTO mine VALUES (1)")
    con.commit()
    con.close()


@pytest.mark.parametrize("make", ["text", "sqlite", "directory"])
@pytest.mark.parametrize("command", [["findings", "list"], ["findings", "list", "patterns"], ["findings", "show", "1"],
                                     ["report", "--stats-runs", "0", "--timing", "0"],
                                     ["minimize", "--finding", "1"], ["audit", "-n", "5", "--walks", "1"]])
def test_a_file_that_is_not_a_store_is_refused_and_left_untouched(make, command, tmp_path, capsys):
    path = tmp_path / "someone-elses.sqlite"
    if make == "text":
        path.write_text("my notes\n")
    elif make == "sqlite":
        _other_sqlite(path)
    else:
        path.mkdir()
    before = None if make == "directory" else path.read_bytes()
    listing = sorted(os.listdir(tmp_path))
    assert main([*command, "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "not a labyrinth findings store" in err
    if before is not None:
        assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == listing


@pytest.mark.parametrize("command", [["findings", "list"], ["findings", "show", "1"],
                                     ["report", "--stats-runs", "0", "--timing", "0"]])
def test_reading_a_missing_store_is_an_error_and_creates_nothing(command, tmp_path, capsys):
    path = tmp_path / "missing.db"
    assert main([*command, "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "no findings store" in err
    assert os.listdir(tmp_path) == []


def test_an_unknown_kind_is_refused(tmp_path, capsys):
    with Store(tmp_path / "k.db"):
        pass
    assert main(["findings", "list", "--kind", "nosuch", "--db", str(tmp_path / "k.db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'nosuch'" in err and "missed-dead" in err
    assert main(["findings", "list", "--kind", "missed-dead", "--db", str(tmp_path / "k.db")]) == 0


def test_an_empty_file_becomes_a_store_and_an_older_store_gains_claims(tmp_path):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    with pytest.raises(Exception, match="empty"):
        Store(empty, create=False)
    assert empty.read_bytes() == b""
    with Store(empty) as store:
        assert store.campaigns() == []
    old = tmp_path / "old.db"
    con = sqlite3.connect(old)
    con.executescript("""
        CREATE TABLE campaigns (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, params TEXT NOT NULL, seed INTEGER,
            rules TEXT, fingerprint TEXT, code_version TEXT, started REAL, finished REAL, totals TEXT);
        CREATE TABLE units (campaign INTEGER NOT NULL, unit TEXT NOT NULL, totals TEXT, done REAL,
            PRIMARY KEY (campaign, unit));
        CREATE TABLE patterns (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, drawing TEXT, facts TEXT,
            count INTEGER NOT NULL DEFAULT 0, first_seen REAL, example TEXT, heading TEXT, turn TEXT);
        CREATE TABLE findings (id INTEGER PRIMARY KEY, campaign INTEGER NOT NULL, unit TEXT, kind TEXT NOT NULL,
            n INTEGER, state TEXT NOT NULL, move TEXT NOT NULL, rules TEXT, cells TEXT, witness TEXT,
            pattern INTEGER, stuck_step INTEGER, checked_by TEXT, created REAL, UNIQUE (campaign, kind, state, move));
        INSERT INTO campaigns (kind, params) VALUES ('walks', '{}');
        INSERT INTO units VALUES (1, 'walk 0', '{"walks": 1}', 1.0);
    """)
    con.close()
    with Store(old, create=False) as store:
        assert store.done_units(1) == {"walk 0": {"walks": 1}} and store.elapsed(1) is None
        assert store.claim(1, "walk 1", Owner())[0] == "mine"
        assert tuple(store.db.execute("SELECT owner, runs FROM units").fetchone()) == (None, 1)
