"""Round 3 of the adversarial table (issue 43), loaded by ``bench/adversarial.py``: its bad inputs and its checks.

Bad inputs (rows of the table): an engine that floods stderr and then crashes, or answers with
``"id": true``; a read-only, damaged, foreign or newer store; two ``rules learn`` on one store;
``/dev/null``, a named pipe, a link to a device and a folder as stores; names of 300 characters;
pictures too large for their puzzle (refused before the search); ``labyrinth engine --name`` of 101
characters. Checks (sections of the report): an engine writing a MiB of stderr per request (what the
verifier holds), every reader over a store of every campaign kind, the peak memory of the largest
drawings, and what the viewer's 400 answers say about the store.
"""

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

LONG = "a" * 300
#: how a row shows the 300-character name
LONG_SHOWN = "a*300"


def prepare(tmp, cli):
    """Make the stores the round's inputs need in ``tmp``; returns a function that undoes ``chattr +i``."""
    tmp = Path(tmp)
    for name in ("ro.db", "corrupt.db", "newer.db"):
        subprocess.run([*cli, "audit", "-n", "5", "--walks", "1", "--no-progress", "--db", str(tmp / name)],
                       capture_output=True, timeout=600, cwd=tmp)
    with sqlite3.connect(tmp / "newer.db") as con:
        con.execute("PRAGMA user_version = 99")
    con.close()
    with sqlite3.connect(tmp / "corrupt.db") as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'campaigns'").fetchone()[0]
        size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = bytearray((tmp / "corrupt.db").read_bytes())
    data[(root - 1) * size + 8:(root - 1) * size + 60] = b"\xab" * 52
    (tmp / "corrupt.db").write_bytes(bytes(data))
    (tmp / "notsqlite.db").write_bytes(b"SQLite format 3\x00" + bytes(200))
    (tmp / "partial.db").write_bytes(b'{"kind": "round", "round": 1, "sizes": {}}\n[1, 2]\n')
    os.mkfifo(tmp / "fifo.db")
    (tmp / "devlink.db").symlink_to("/dev/null")
    ro = tmp / "ro.db"
    for side in ("-wal", "-shm"):
        Path(f"{ro}{side}").unlink(missing_ok=True)
    if os.geteuid() != 0:
        ro.chmod(0o444)
        return lambda: ro.chmod(0o644)
    if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(ro)], capture_output=True).returncode == 0:
        return lambda: subprocess.run(["chattr", "-i", str(ro)], capture_output=True)
    return lambda: None


def cases(tmp, corpus):
    """(category, argv) for every bad input of round 3."""
    long = f"{tmp}/{LONG}"
    out = []
    for db in ("ro.db", "corrupt.db", "newer.db"):
        out += [("stores", ["audit", "-n", "5", "--walks", "2", "--no-progress", "--db", f"{tmp}/{db}"]),
                ("stores", ["audit", "-n", "5", "--walks", "1", "--no-progress", "--resume", "--db", f"{tmp}/{db}"]),
                ("stores", ["knight", "magic", "--all", "--max-units", "0", "--db", f"{tmp}/{db}"]),
                ("stores", ["knight", "walk", "-n", "5", "--audit", "--db", f"{tmp}/{db}"])]
    out += [("stores", ["findings", "list", "campaigns", "--db", f"{tmp}/corrupt.db"]),
            ("stores", ["findings", "list", "--db", f"{tmp}/newer.db"]),
            ("stores", ["rules", "learn", "-n", "5", "-o", f"{tmp}/l.rule", "--store", f"{tmp}/notsqlite.db",
                        "--resume"]),
            ("stores", ["rules", "learn", "-n", "5", "-o", f"{tmp}/l.rule", "--store", f"{tmp}/partial.db",
                        "--resume"])]
    for argv in (["audit", "-n", "5", "--walks", "1", "--db", "/dev/null"],
                 ["audit", "-n", "5", "--walks", "1", "--db", f"{tmp}/fifo.db"],
                 ["audit", "-n", "5", "--walks", "1", "--db", f"{tmp}/devlink.db"],
                 ["audit", "-n", "5", "--walks", "1", "--db", tmp],
                 ["findings", "list", "--db", f"{tmp}/fifo.db"],
                 ["numbers", "walk", "-n", "5", "--audit", "--db", "/dev/null"],
                 ["rules", "learn", "-n", "5", "-o", "/dev/null"],
                 ["rules", "learn", "-n", "5", "-o", f"{tmp}/l.rule", "--store", f"{tmp}/fifo.db"]):
        out.append(("device paths", argv))
    for argv in (["draw", "--moves", "7:RR", "-o", f"{long}.svg"],
                 ["report", "-o", f"{long}.html", "--db", f"{tmp}/ro.db"],
                 ["knight", "tour", "-n", "6", "--svg", f"{long}.svg"],
                 ["rules", "learn", "-n", "5", "-o", f"{long}.rule"],
                 ["audit", "-n", "5", "--walks", "1", "--db", f"{long}.db"],
                 ["findings", "list", "--db", f"{long}.db"],
                 ["serve", "--db", f"{long}.db"],
                 ["check", f"{long}.txt"]):
        out.append(("long names", argv))
    for argv in (["knight", "tour"], ["knight", "walk"], ["numbers", "solve"], ["numbers", "walk"]):
        out.append(("sizes", [*argv, "-n", "300", "--allow-large", "--svg", f"{tmp}/x.svg"]))
    out.append(("protocol", ["engine", "--name", "n" * 101]))
    return out


def shown(text):
    return text.replace(LONG, LONG_SHOWN)


# --- an engine that floods stderr ---------------------------------------------------------------------------------


def run_engine_flood(tmp, cli):
    """``walk -n 5`` and ``audit -n 5 --walks 8`` through an engine writing 1 MiB of stderr per request.

    Returns rows (command, exit, requests' stderr written, the verifier's peak RSS, the most bytes it
    held in open regular files, sampled every 0.1 s).
    """
    engine = Path(tmp) / "hostile_engine.py"
    rows = []
    for label, argv in [("walk -n 5", ["walk", "-n", "5", "--seed", "1"]),
                        ("audit -n 5 --walks 8", ["audit", "-n", "5", "--walks", "8", "--no-progress",
                                                  "--no-patterns", "--db", f"{tmp}/flood.db"])]:
        counter = Path(tmp) / f"flood-{len(rows)}.count"
        command = [sys.executable, "-c", _PEAK, *argv, "--engine",
                   f"{sys.executable} {engine} flood {counter}"]
        proc = subprocess.Popen(command, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        held = [0]
        watch = threading.Thread(target=_watch_files, args=(proc, held), daemon=True)
        watch.start()
        _, err = proc.communicate(timeout=1800)
        watch.join()
        written = len(counter.read_text().split()) if counter.exists() else 0
        rows.append((label, proc.returncode, f"{written} MiB", _peak(err), _mb(held[0])))
    return rows


#: a wrapper that runs ``labyrinth`` and prints its peak RSS (MB) as its last stderr line
_PEAK = ("import resource, sys; sys.argv[0] = 'labyrinth'; from labyrinth.cli import main; "
         "args = [open(a[1:]).read().strip() if a.startswith('@') else a for a in sys.argv[1:]]; code = main(args); "
         "print(f'peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB', file=sys.stderr); "
         "sys.exit(code)")


def _peak(err):
    lines = [line for line in err.splitlines() if line.startswith("peak ")]
    return lines[-1][5:] if lines else "?"


def _mb(count):
    return f"{count / 2 ** 20:.1f} MiB"


def _watch_files(proc, held):
    """The most bytes ``proc`` holds in open regular files (an unlinked temporary file included) until it ends."""
    while proc.poll() is None:
        total = 0
        try:
            fds = os.listdir(f"/proc/{proc.pid}/fd")
        except OSError:
            break
        for fd in fds:
            try:
                st = os.stat(f"/proc/{proc.pid}/fd/{fd}")
            except OSError:
                continue
            if (st.st_mode & 0o170000) == 0o100000:
                total += st.st_size
        held[0] = max(held[0], total)
        time.sleep(0.1)


# --- two rules learn on one store ----------------------------------------------------------------------------------


def run_two_learns(tmp, cli):
    """A ``rules learn`` running, and the same run ``--resume``d beside it: what the second one says."""
    store = f"{tmp}/twice.jsonl"
    argv = [*cli, "rules", "learn", "-n", "9", "--walks", "60", "--rounds", "1", "--no-progress",
            "-o", f"{tmp}/twice.rule", "--store", store]
    first = subprocess.Popen(argv, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for _ in range(600):  # until it has stored its header: it holds the store
        if Path(store).exists() and Path(store).stat().st_size:
            break
        time.sleep(0.1)
    second = subprocess.run([*argv, "--resume"], cwd=tmp, capture_output=True, text=True, timeout=600)
    first.send_signal(signal.SIGINT)
    try:
        first.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        first.kill()
        first.communicate()
    lines = second.stderr.strip().splitlines()
    return {"second run's exit": second.returncode, "its stderr lines": len(lines),
            "it says": lines[-1].replace(tmp, "TMP")[:140] if lines else ""}


# --- every reader over every campaign kind ---------------------------------------------------------------------------


def run_readers(tmp, cli, corpus):
    """Build one store with a campaign of every kind, then run every reader over it: (command, exit, note)."""
    db = f"{tmp}/kinds.db"
    for argv in (["audit", "-n", "5", "--walks", "4", "--rules", "none", "--no-progress"],
                 ["audit", "-n", "5", "--exhaustive", "--rules", "universal", "--no-progress"],
                 ["audit", "--trace", f"{corpus}/2023_0803.txt", f"{corpus}/2023_0811_1.txt", "--no-patterns",
                  "--no-progress"],
                 ["numbers", "walk", "-n", "5", "--audit", "--start", "1,2"],
                 ["knight", "walk", "-n", "5", "--audit", "--start", "3,5"],
                 ["knight", "magic", "--all", "--max-units", "0"]):
        subprocess.run([*cli, *argv, "--db", db], capture_output=True, timeout=1800, cwd=tmp)
    with sqlite3.connect(db) as con:
        kinds = sorted({r[0] for r in con.execute("SELECT kind FROM campaigns")})
        ids = [r[0] for r in con.execute("SELECT id FROM findings ORDER BY id")]
    con.close()
    readers = [["findings", "list"], ["findings", "list", "--json"], ["findings", "list", "campaigns"],
               ["findings", "list", "patterns"],
               ["report", "-o", f"{tmp}/kinds.html", "--stats-runs", "0", "--timing", "4", "--no-progress"],
               ["regress", "--base", "universal", "--head", "default", "-n", "5", "--walks", "2", "--no-progress"]]
    readers += [["findings", "show", str(i)] for i in ids]
    rows = []
    for argv in readers:
        proc = subprocess.run([*cli, *argv, "--db", db], capture_output=True, text=True, timeout=600, cwd=tmp)
        bad = "Traceback" in proc.stderr
        rows.append((" ".join(argv).replace(tmp, "TMP"), proc.returncode, "traceback" if bad else "ok"))
    return kinds, rows, db


# --- the largest drawings --------------------------------------------------------------------------------------------


def run_large_pictures(tmp, cli):
    """Peak memory of ``draw`` on 1001x1001 boards (SVG and PNG; an empty line and a line through every cell)."""
    n = 1001
    serpentine = "".join(("R" if r % 2 == 0 else "L") * (n - 1) + ("D" if r < n - 1 else "") for r in range(n))
    moves = Path(tmp) / "serpentine.txt"
    moves.write_text(f"{n}:{serpentine}")
    rows = []
    for label, state, out in [("1001:R", "1001:R", "big.svg"), ("1001:R", "1001:R", "big.png"),
                              ("a line through all 1 002 001 cells", f"@{moves}", "serp.svg"),
                              ("a line through all 1 002 001 cells", f"@{moves}", "serp.png")]:
        argv = [sys.executable, "-c", _PEAK, "draw", "--moves", state, "--allow-large", "--no-oracle",
                "--no-future", "--cell", "16", "-o", f"{tmp}/{out}"]
        t0 = time.perf_counter()
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=1800, cwd=tmp)
        seconds = time.perf_counter() - t0
        size = Path(f"{tmp}/{out}").stat().st_size if Path(f"{tmp}/{out}").exists() else 0
        note = next((line for line in proc.stderr.splitlines() if "note:" in line), "")
        rows.append((f"draw --moves {label} --cell 16 -o {out}", proc.returncode, _peak(proc.stderr),
                     _mb(size), f"{seconds:.0f} s", note.split("note: ")[-1][:90]))
    return rows


# --- the viewer's 400s -----------------------------------------------------------------------------------------------


def run_viewer_store(tmp, cli, db, port):
    """A viewer with ``--db``: its answers about the store, and whether any names the store's folder."""
    server = subprocess.Popen([*cli, "serve", "--db", db, "--port", str(port)], cwd=tmp,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    rows = []
    try:
        for _ in range(1200):
            try:
                urllib.request.urlopen(base + "/api/meta", timeout=2).read()
                break
            except OSError:
                time.sleep(0.1)
        for path in ("/api/finding?id=99999", "/api/finding?id=1", "/api/meta"):
            try:
                with urllib.request.urlopen(base + path, timeout=60) as r:
                    status, body = r.status, r.read().decode()
            except urllib.error.HTTPError as e:
                status, body = e.code, e.read().decode()
            except OSError as e:
                status, body = f"failed: {type(e).__name__}", ""
            rows.append((f"GET {path}", status, "yes" if str(Path(db).parent) in body else "no"))
    finally:
        server.terminate()
        server.wait(10)
    return rows


def markdown(round3):
    """The report's sections for round 3."""
    lines = []
    flood = round3.get("flood")
    if flood:
        lines += ["", "## An engine that floods stderr", "",
                  "An engine writing 1 MiB of stderr before each answer (`--engine ... flood`); the verifier keeps "
                  "the last 64 KiB and counts the rest. Peak RSS of the verifier; bytes it held in open regular "
                  "files, the findings store included (sampled every 0.1 s; before issue 43 its stderr file grew "
                  "by a MiB a request):", "",
                  "| command | exit | stderr written | peak RSS | held in files |", "|---|---:|---:|---:|---:|"]
        lines += [f"| `{c} --engine ...` | {code} | {w} | {p} | {h} |" for c, code, w, p, h in flood]
    learns = round3.get("learns")
    if learns:
        lines += ["", "## Two `rules learn` on one store", "",
                  "`rules learn -n 9 --walks 60` running, and the same command with `--resume` started beside it:", ""]
        lines += [f"- {k}: {v}" for k, v in learns.items()]
    readers = round3.get("readers")
    if readers:
        kinds, rows, _ = readers
        bad = [r for r in rows if r[1] != 0 or r[2] != "ok"]
        lines += ["", "## Every reader over every campaign kind", "",
                  f"One store holding a campaign of each kind ({', '.join(kinds)}); {len(rows)} reader commands "
                  f"(`findings list` in every form, `report`, `regress`, `findings show` of every finding): "
                  f"{len(rows) - len(bad)} exit 0 without a traceback.", ""]
        lines += [f"- `{c}`: exit {code}, {note}" for c, code, note in bad]
    viewer = round3.get("viewer")
    if viewer:
        lines += ["", "## The viewer's answers about its store", "",
                  "`serve --db TMP/kinds.db`: does an answer name the folder the store is in (it should say the "
                  "file name only)?", "", "| request | status | names the folder |", "|---|---:|---|"]
        lines += [f"| `{r}` | {st} | {names} |" for r, st, names in viewer]
    pictures = round3.get("pictures")
    if pictures:
        lines += ["", "## The largest drawings", "",
                  "`draw ... --allow-large --no-oracle --no-future` on 1001x1001 boards; the promise is under about "
                  "1 GB of memory for any drawing:", "",
                  "| command | exit | peak RSS | file | time | note |", "|---|---:|---:|---:|---:|---|"]
        lines += [f"| `{c}` | {code} | {p} | {s} | {t} | {n} |" for c, code, p, s, t, n in pictures]
    return lines
