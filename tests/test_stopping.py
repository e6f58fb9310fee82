"""Issue 44 (1-2) and 43 (2): every long command stops at once on Ctrl-C or SIGTERM, and leaves no worker behind.

Each long command runs in a session of its own (as a terminal's foreground
job), is signalled once it is at work (Ctrl-C: SIGINT to its whole process
group, as a terminal sends it; SIGTERM and SIGKILL: to the command alone,
as ``kill`` does) and must then: exit 128 + the signal, say in its last line
what it stored and how to continue, keep the store whole, and leave none of
its processes running. The stop times are measured by ``bench/stopping.py``
(reports/BENCHMARKS.md), not here: the tests only wait long enough.
"""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from labyrinth.errors import Interrupted
from labyrinth.jobs import WorkerPool, held, stop_on_signals
from labyrinth.jobs.stopping import stop_requested

ROOT = Path(__file__).resolve().parent.parent
LINUX_PROC = os.path.isdir("/proc/self/task")
#: seconds a stopped command may take in these tests (far more than it does: bench/stopping.py measures it)
STOP_WAIT = 60


# --- the library: stop_on_signals, held, WorkerPool --------------------------------------------------------
def test_a_stop_signal_raises_at_once_and_a_held_block_finishes_first():
    with stop_on_signals():
        with pytest.raises(Interrupted) as stop:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10 ** 8):  # any bytecode: the handler raises here
                pass
        assert stop.value.signum == signal.SIGTERM and stop.value.status == 143
    with stop_on_signals():
        written = []
        with pytest.raises(Interrupted):
            with held():
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(10 ** 5):
                    pass
                written.append("the whole record")  # reached: the signal waits for the block
            written.append("after the block")  # not reached
        assert written == ["the whole record"]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # given back


def test_outside_a_stop_block_nothing_changes():
    assert stop_requested() is None
    before = signal.getsignal(signal.SIGTERM)
    with held():  # no stop block: a no-op
        pass
    assert signal.getsignal(signal.SIGTERM) is before


def _sleep_and_pid(seconds):
    time.sleep(seconds)
    return os.getpid()


@pytest.mark.skipif(not LINUX_PROC, reason="finds the workers through /proc")
def test_a_pool_is_killed_not_awaited_when_its_block_fails():
    before = set(_children(os.getpid()))  # e.g. multiprocessing's resource tracker, left by an earlier spawn pool
    with pytest.raises(RuntimeError):
        with WorkerPool(2) as pool:
            futures = [pool.submit(_sleep_and_pid, 60) for _ in range(2)]
            time.sleep(0.5)
            workers = [p for p in _children(os.getpid()) if p not in before]
            assert len(workers) == 2
            t0 = time.monotonic()
            raise RuntimeError("a unit failed")
    assert time.monotonic() - t0 < 30  # not the 60 s of the units
    assert not _gone_within(workers, 5.0)
    assert all(f.done() for f in futures)


def test_a_pool_gives_every_result_and_its_workers_ignore_stop_signals():
    with WorkerPool(2) as pool:
        first = pool.submit(_sleep_and_pid, 0.5)
        worker = first.result()
        os.kill(worker, signal.SIGTERM)  # a worker leaves stopping to its parent
        os.kill(worker, signal.SIGINT)
        got = list(pool.map_unordered(_sleep_and_pid, [(0.01,)] * 6))
        assert len(got) == 6 and _running(worker)


# --- the commands ------------------------------------------------------------------------------------------
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


def _descendants(pid):
    out, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        out += kids
        todo += kids
    return out


def _running(pid):
    """The process exists and is not a zombie."""
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


def _units(db):
    try:
        with sqlite3.connect(db) as con:
            return con.execute("SELECT COUNT(*) FROM units").fetchone()[0]
    except sqlite3.Error:
        return 0


def _lines(path):
    try:
        return sum(1 for line in Path(path).read_text().splitlines() if line.strip())
    except OSError:
        return 0


def _foreground():
    """In the child: a session of its own (a terminal's foreground job), signals as a shell leaves them."""
    os.setsid()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


class Case:
    """A long command: its arguments (``{tmp}`` for the test's folder), when it is at work, what it must say."""

    def __init__(self, name, args, ready, said, stored=None, workers=0, python=False):
        self.name, self.args, self.ready, self.said, self.stored = name, args, ready, said, stored
        self.workers, self.python = workers, python

    def argv(self, tmp):
        words = [w.replace("{tmp}", str(tmp)) for w in self.args]
        if self.python:
            return [sys.executable, *words]
        return [sys.executable, "-m", "labyrinth.cli", *words]


def _after(seconds):
    return lambda tmp, proc, t0: time.time() - t0 > seconds


def _at_least(count, what, seconds=0.0):
    def ready(tmp, proc, t0):
        return what(tmp) >= count and time.time() - t0 > seconds
    return ready


def _with_workers(k, seconds=1.0):
    seen = {}  # pid -> when its workers were first there

    def ready(tmp, proc, t0):
        if len(_children(proc.pid)) >= k:
            seen.setdefault(proc.pid, time.time())
        return proc.pid in seen and time.time() - seen[proc.pid] > seconds
    return ready


def _stored_units(db, line, what="units"):
    """The store holds as many units as the message says."""
    import re

    said = re.search(rf"(\d+) of \d+ {what} stored", line) or re.search(rf"(\d+) {what}", line)
    return said is not None and int(said.group(1)) == _units(db)


CASES = [
    Case("stats", ["stats", "-n", "11", "--rules", "strong", "--runs", "100000", "--jobs", "2", "--no-progress"],
         _with_workers(2), ["runs done", "nothing stored (stats keeps no store without --db FILE)"], workers=2),
    Case("stats-db", ["stats", "-n", "11", "--rules", "strong", "--runs", "100000", "--jobs", "2", "--db",
                      "{tmp}/s.db", "--no-progress"],
         _at_least(1, lambda tmp: _units(tmp / "s.db")), ["units stored in", "continue with: labyrinth stats",
                                                          "--resume"],
         stored=lambda tmp, line: _stored_units(tmp / "s.db", line), workers=2),
    Case("stats-serial", ["stats", "-n", "11", "--rules", "strong", "--runs", "100000", "--no-progress"],
         _after(3), ["runs done", "nothing stored"]),
    Case("audit", ["audit", "-n", "11", "--rules", "universal", "--walks", "5000", "--seed", "1", "--no-patterns",
                   "--jobs", "2", "--db", "{tmp}/a.db", "--no-progress"],
         _at_least(2, lambda tmp: _units(tmp / "a.db")), ["units stored in", "continue with: labyrinth audit",
                                                         "--resume"],
         stored=lambda tmp, line: _stored_units(tmp / "a.db", line), workers=2),
    Case("enumerate", ["enumerate", "-n", "9", "--allow-large", "--rules", "universal", "--no-progress"], _after(3),
         ["walkthroughs counted so far", "nothing stored"]),
    Case("rules-learn", ["rules", "learn", "-n", "9", "--rounds", "3", "--walks", "400", "-o", "{tmp}/l.rule",
                         "--jobs", "2", "--no-progress"],
         _at_least(1, lambda tmp: _lines(tmp / "l.rule.units.jsonl")),
         ["stored in", "continue with: labyrinth rules learn", "--resume"],
         stored=lambda tmp, line: f"{_lines(tmp / 'l.rule.units.jsonl')} units" in line, workers=2),
    Case("rules-mine", ["rules", "mine", "-n", "7", "--rules", "universal", "-o", "{tmp}/m.rule", "--no-progress"],
         _after(3), ["nothing stored"]),
    Case("warmup", ["warmup", "--jobs", "2", "--no-progress"], _with_workers(2, 0.5),
         ["steps done", "continue with: labyrinth warmup"], workers=2),
    Case("knight-magic-all", ["knight", "magic", "--all", "--db", "{tmp}/k.db", "--sample", "60", "--seed", "1",
                              "--jobs", "2", "--no-progress"],
         _at_least(1, lambda tmp: _units(tmp / "k.db")), ["units stored in", "continue with: labyrinth knight magic",
                                                          "--resume"],
         stored=lambda tmp, line: _stored_units(tmp / "k.db", line), workers=2),
    Case("knight-magic-symmetric", ["knight", "magic", "--symmetric", "--all", "--jobs", "2"], _with_workers(2),
         ["nothing stored"], workers=2),
    Case("knight-count", ["knight", "count", "-n", "7", "--allow-large", "--jobs", "2", "--memo-mb", "16", "--log",
                          "{tmp}/c.jsonl", "--no-progress"], _with_workers(2, 2.0), ["units stored in", "continue with"], workers=2,
         stored=lambda tmp, line: f"{_lines(tmp / 'c.jsonl')} of" in line),
    Case("numbers-count", ["numbers", "count", "-n", "7", "--jobs", "2", "--memo-mb", "16", "--no-progress"],
         _with_workers(2, 2.0), ["units counted, nothing stored"], workers=2),
    Case("bench-rule-strength", [str(ROOT / "bench" / "rule_strength.py"), "--sizes", "11", "--radii", "1",
                                 "--no-lines", "--runs", "100000", "--unit-seconds", "1", "--store",
                                 "{tmp}/u.jsonl", "--report", "{tmp}/r.md"],
         _at_least(1, lambda tmp: _lines(tmp / "u.jsonl")),
         ["units stored in", "continue with: python bench/rule_strength.py", "--resume"], python=True,
         stored=lambda tmp, line: f"{_lines(tmp / 'u.jsonl')} units stored" in line),
]


def _start(case, tmp):
    proc = subprocess.Popen(case.argv(tmp), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            preexec_fn=_foreground)
    t0 = time.time()
    deadline = t0 + 600  # kernels may compile on a first run
    while proc.poll() is None and time.time() < deadline and not case.ready(tmp, proc, t0):
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()
    return proc


@pytest.fixture
def run(tmp_path):
    """``run(case, signum)``: start the case, signal it once at work; ``(proc, stderr, its processes)``."""
    procs = []

    def go(case, signum):
        proc = _start(case, tmp_path)
        procs.append(proc)
        family = _descendants(proc.pid)
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the terminal signals the whole foreground group
        else:
            proc.send_signal(signum)
        try:
            _, err = proc.communicate(timeout=STOP_WAIT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{case.name} did not stop within {STOP_WAIT} s of {signal.Signals(signum).name}")
        return proc, err, family + _descendants(proc.pid)

    yield go
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.skipif(not LINUX_PROC, reason="finds the workers through /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_long_command_stops_at_once_says_what_it_kept_and_leaves_no_process(run, tmp_path, case, signum):
    proc, err, family = run(case, signum)
    assert proc.returncode == 128 + signum, err
    assert "Traceback" not in err and "fatal" not in err, err
    last = err.strip().splitlines()[-1]
    head = "bench/rule_strength.py" if case.python else "labyrinth"
    assert last.startswith(f"{head}: interrupted ({signal.Signals(signum).name})"), err
    for words in case.said:
        assert words in last, (words, last)
    if case.stored is not None:
        assert case.stored(tmp_path, last), (last, sorted(p.name for p in tmp_path.iterdir()))
    for db in tmp_path.glob("*.db"):
        with sqlite3.connect(db) as con:
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    left = _gone_within(family, 5.0)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{case.name} left processes running: {left}"


@pytest.mark.skipif(not LINUX_PROC, reason="finds the workers through /proc")
@pytest.mark.parametrize("case", [c for c in CASES if c.workers], ids=lambda c: c.name)
def test_no_worker_outlives_a_killed_command(run, tmp_path, case):
    """SIGKILL cannot be handled: the workers notice their parent is gone (issue 43, item 2)."""
    proc, _, family = run(case, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert len(family) >= case.workers
    left = _gone_within(family, 5.0)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{case.name}'s workers outlived it: {left}"


@pytest.mark.skipif(not LINUX_PROC, reason="finds the workers through /proc")
@pytest.mark.parametrize("name", ["rules-learn", "stats"])
def test_no_worker_outlives_a_hung_up_command(run, name):
    """A closed terminal (SIGHUP) ends the command by default; its workers go with it (issue 43, item 2)."""
    proc, _, family = run(next(c for c in CASES if c.name == name), signal.SIGHUP)
    assert proc.returncode == -signal.SIGHUP
    left = _gone_within(family, 5.0)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{name}'s workers outlived it: {left}"


@pytest.mark.skipif(not LINUX_PROC, reason="finds the workers through /proc")
def test_ctrl_c_three_times_ends_the_command_whatever_it_is_doing(tmp_path):
    case = next(c for c in CASES if c.name == "stats")
    proc = _start(case, tmp_path)
    family = _descendants(proc.pid)
    for _ in range(3):
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(0.05)
    _, err = proc.communicate(timeout=STOP_WAIT)
    # 130, or killed by SIGINT itself when the last one comes as the interpreter ends (a shell says 130 too)
    assert proc.returncode in (130, -signal.SIGINT) and "Traceback" not in err, err
    assert "labyrinth: interrupted (SIGINT)" in err or "stopped at once" in err, err
    assert not _gone_within(family, 5.0)


def test_a_resumed_learning_run_after_sigterm_keeps_its_units(tmp_path):
    """What a stopped ``rules learn`` stored is taken up by ``--resume`` (not decided again)."""
    case = next(c for c in CASES if c.name == "rules-learn")
    proc = _start(case, tmp_path)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=STOP_WAIT)
    assert proc.returncode == 143, err
    store = tmp_path / "l.rule.units.jsonl"
    kept = [json.loads(line) for line in store.read_text().splitlines() if line.strip()]
    assert kept and all("kind" in r for r in kept)  # whole lines only
    command = err.strip().splitlines()[-1].split("continue with: ", 1)[1]
    assert command.startswith("labyrinth rules learn") and command.endswith("--resume")

