"""How fast every long command stops after Ctrl-C and after SIGTERM, under whatever load the machine has.

Usage: python bench/stopping.py [--only NAME,...] [--repeat K]

Each command runs in a session of its own (a terminal's foreground job); once it is at work (its
workers started, or a unit stored) it gets SIGINT on its whole process group (what Ctrl-C sends) or
SIGTERM on itself (what ``kill`` sends). The table gives the seconds from the signal to its exit,
its exit status, whether its last line says it was interrupted, and whether any of its processes
outlived it; the target is 2 s (issue 44). Figures: reports/BENCHMARKS.md.
"""

import argparse
import os
import platform
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LABYRINTH = [sys.executable, "-m", "labyrinth.cli"]


def _children(pid):
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
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


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


def _workers(k, settle=1.0):
    seen = {}  # pid -> when its workers were first there

    def ready(tmp, pid, t0):
        if len(_children(pid)) >= k:
            seen.setdefault(pid, time.time())
        return pid in seen and time.time() - seen[pid] > settle
    return ready


def _after(seconds):
    return lambda tmp, pid, t0: time.time() - t0 > seconds


#: name, command (``{tmp}``: a scratch folder), when it is at work
CASES = [
    ("stats --jobs 2", ["stats", "-n", "11", "--rules", "strong", "--runs", "100000", "--jobs", "2",
                        "--no-progress"], _workers(2)),
    ("stats", ["stats", "-n", "11", "--rules", "strong", "--runs", "100000", "--no-progress"], _after(4)),
    ("stats --db --jobs 2", ["stats", "-n", "11", "--rules", "strong", "--runs", "100000", "--jobs", "2", "--db",
                             "{tmp}/s.db", "--no-progress"], lambda tmp, pid, t0: _units(tmp / "s.db") >= 2),
    ("stats --db", ["stats", "-n", "11", "--rules", "strong", "--runs", "100000", "--db", "{tmp}/t.db",
                    "--no-progress"], lambda tmp, pid, t0: _units(tmp / "t.db") >= 2),
    ("stats --db 101x101", ["stats", "-n", "101", "--rules", "strong", "--runs", "30", "--db", "{tmp}/w.db",
                            "--no-progress"], _after(20)),
    ("walk 101x101", ["walk", "-n", "101", "--rules", "strong+", "--seed", "3", "--allow-large"], _after(2)),
    ("audit --jobs 2", ["audit", "-n", "11", "--rules", "universal", "--walks", "5000", "--seed", "1", "--jobs", "2",
                        "--db", "{tmp}/a.db", "--no-progress"], lambda tmp, pid, t0: _units(tmp / "a.db") >= 3),
    ("audit", ["audit", "-n", "11", "--rules", "universal", "--walks", "5000", "--seed", "1", "--db", "{tmp}/b.db",
               "--no-progress"], lambda tmp, pid, t0: _units(tmp / "b.db") >= 3),
    ("enumerate", ["enumerate", "-n", "9", "--allow-large", "--rules", "universal", "--no-progress"], _after(4)),
    ("rules learn --jobs 2", ["rules", "learn", "-n", "9", "--rounds", "3", "--walks", "400", "-o", "{tmp}/l.rule",
                              "--jobs", "2", "--no-progress"],
     lambda tmp, pid, t0: _lines(tmp / "l.rule.units.jsonl") >= 2),
    ("rules learn", ["rules", "learn", "-n", "9", "--rounds", "3", "--walks", "400", "-o", "{tmp}/s.rule",
                     "--no-progress"], lambda tmp, pid, t0: _lines(tmp / "s.rule.units.jsonl") >= 2),
    ("rules mine", ["rules", "mine", "-n", "7", "--rules", "universal", "-o", "{tmp}/m.rule", "--no-progress"],
     _after(4)),
    ("warmup --jobs 2", ["warmup", "--jobs", "2", "--no-progress"], _workers(2, 0.5)),
    ("knight magic --all --jobs 2", ["knight", "magic", "--all", "--db", "{tmp}/k.db", "--sample", "300", "--seed",
                                     "1", "--jobs", "2", "--no-progress"],
     lambda tmp, pid, t0: _units(tmp / "k.db") >= 2),
    ("knight magic --all", ["knight", "magic", "--all", "--db", "{tmp}/j.db", "--sample", "300", "--seed", "1",
                            "--no-progress"], lambda tmp, pid, t0: _units(tmp / "j.db") >= 2),
    ("knight magic --symmetric --all --jobs 2", ["knight", "magic", "--symmetric", "--all", "--jobs", "2"],
     _workers(2)),
    ("knight count --jobs 2", ["knight", "count", "-n", "7", "--allow-large", "--jobs", "2", "--memo-mb", "16", "--log",
                               "{tmp}/c.jsonl", "--no-progress"], _workers(2, 2.0)),
    ("numbers count --jobs 2", ["numbers", "count", "-n", "7", "--jobs", "2", "--memo-mb", "16", "--no-progress"],
     _workers(2, 2.0)),
    ("numbers count", ["numbers", "count", "-n", "7", "--memo-mb", "16", "--no-progress"], _after(4)),
    ("bench/rule_strength.py", [str(ROOT / "bench" / "rule_strength.py"), "--sizes", "11", "--radii", "1",
                                "--no-lines", "--runs", "100000", "--unit-seconds", "600", "--store",
                                "{tmp}/u.jsonl", "--report", "{tmp}/r.md"], _after(4)),
]


def _foreground():
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def measure(name, args, ready, signum):
    """``(seconds from the signal to the exit, exit status, last line of stderr, processes left)``."""
    with tempfile.TemporaryDirectory(prefix="labyrinth-stop-") as tmp:
        tmp = Path(tmp)
        words = [w.replace("{tmp}", str(tmp)) for w in args]
        argv = [sys.executable, *words] if words[0].endswith(".py") else [*LABYRINTH, *words]
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=_foreground)
        t0 = time.time()
        while proc.poll() is None and time.time() - t0 < 900 and not ready(tmp, proc.pid, t0):
            time.sleep(0.1)
        if proc.poll() is not None:
            return None, proc.returncode, "ended before the signal: " + proc.stderr.read().strip()[-200:], []
        family = _descendants(proc.pid)
        t1 = time.perf_counter()
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signum)
        try:
            _, err = proc.communicate(timeout=600)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return None, None, "did not stop in 600 s", family
        seconds = time.perf_counter() - t1
        time.sleep(1.0)
        left = [p for p in family + _descendants(proc.pid) if _running(p)]
        for p in left:
            os.kill(p, signal.SIGKILL)
        lines = err.strip().splitlines()
        return seconds, proc.returncode, lines[-1] if lines else "", left


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated case names (default: all)")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args(argv)
    only = None if not args.only else {s.strip() for s in args.only.split(",")}
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, load average at start {os.getloadavg()[0]:.1f}")
    print()
    print("| command | Ctrl-C: s to exit (status) | SIGTERM: s to exit (status) | load | last line says | left |")
    print("|---|---|---|---|---|---|")
    for name, command, ready in CASES:
        if only is not None and name not in only:
            continue
        cells, says, left_all = [], set(), []
        for signum in (signal.SIGINT, signal.SIGTERM):
            times = []
            for _ in range(args.repeat):
                seconds, status, last, left = measure(name, command, ready, signum)
                times.append((seconds, status))
                says.add("interrupted" if ": interrupted (" in last else last[:60])
                left_all += left
            cells.append(", ".join("-" if s is None else f"{s:.2f} ({st})" for s, st in times))
        print(f"| `{name}` | {cells[0]} | {cells[1]} | {os.getloadavg()[0]:.1f} | {', '.join(sorted(says))} | "
              f"{len(left_all)} |", flush=True)


if __name__ == "__main__":
    main()
