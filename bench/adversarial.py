"""The adversarial table of issues 18, 28 and 43: bad inputs through every subcommand, hostile engines and viewer
requests, endless input, time limits on the largest boards, killed campaigns; stores that cannot be written or are
not ours, device paths, long names, the largest drawings (round 3: ``bench/adversarial_round3.py``).

Each bad input runs as a user would run it (a subprocess, 60 s limit; some read
a given stdin, such as ``/dev/zero``) and is classed: ``one-line`` (exit 2, one
line on stderr, no traceback: the promise), ``traceback``, ``hang`` (past the
limit), ``other`` (any other outcome, shown). Hostile engines answer the
verifier with nested JSON, multi-line errors, ``NaN`` or an endless line, or
leave a helper process behind; ``labyrinth engine`` is sent hostile requests.
Viewer requests go to a server on 127.0.0.1 only. Writes the markdown table to
``reports/RELIABILITY.md`` (``--output``) and prints it.

    python bench/adversarial.py            # about 15 minutes on 2 cores
"""

import argparse
import importlib.util
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# bench/oracle.py is named like the ``oracle`` package: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
CORPUS = ROOT / "data" / "corpus"
_SPEC = importlib.util.spec_from_file_location("adversarial_round3", Path(__file__).with_name("adversarial_round3.py"))
ROUND3 = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(ROUND3)
CLI = [sys.executable, "-m", "labyrinth.cli"]
LIMIT = 60.0

SUBCOMMANDS_WITH_STATE = ["check", "explain", "draw", "minimize", "count", "rank"]
SUBCOMMANDS_WITH_N = [("walk", []), ("enumerate", []), ("stats", []), ("unrank", ["0"]), ("sample", []),
                      ("audit", ["--walks", "1"]), ("rules mine", [])]
BAD_SIZES = ["99999999999999999999", "+7", "1_1", "\u0667", "8", "1", "0", "-7", "2001", "100001", "301"]
BAD_STATES = ["7:RRX", "7:LL", "7:RRRRRRR", "7:RDRDRDRDRDRDRDRDRDRD", ":R", "7:U", "7", "7;RR", "7:R R", "7|x"]
ENGINE = r'''
import json, subprocess, sys
MODE = sys.argv[1]
if MODE == "forker":  # leaves a helper behind when it quits
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    with open(sys.argv[2], "a") as f:
        f.write(f"{helper.pid}\n")
for line in sys.stdin:
    req = json.loads(line)
    if req["type"] == "quit":
        break
    if req["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "engine": "hostile-" + MODE}), flush=True)
    elif MODE == "nested":
        print("[" * 200000 + "]" * 200000, flush=True)
    elif MODE == "multiline":
        print(json.dumps({"type": "error", "id": req["id"], "message": "line one\nline two\n" * 30}), flush=True)
    elif MODE == "nan":
        print('{"type": "decision", "id": NaN, "allowed": ""}', flush=True)
    elif MODE == "endless":
        while True:
            sys.stdout.write("x" * 65536)
    elif MODE == "flood-crash":
        sys.stderr.write(("x" * 1023 + "\n") * 4096 + "the last words\n")
        sys.exit(5)
    elif MODE == "true-id":
        print(json.dumps({"type": "decision", "id": True, "allowed": ""}), flush=True)
    elif MODE == "flood":  # a MiB of stderr before each answer (every free move allowed); a line per MiB counted
        sys.stderr.write(("x" * 1023 + "\n") * 1024)
        sys.stderr.flush()
        with open(sys.argv[2], "a") as f:
            f.write("1\n")
        answers = []
        for text in req.get("states") or [req["state"]]:
            n, moves = text.split(":")
            x = y = 1
            seen = {(1, 1)}
            for m in moves:
                x, y = x + {"L": -1, "R": 1}.get(m, 0), y + {"U": -1, "D": 1}.get(m, 0)
                seen.add((x, y))
            answers.append({"allowed": "" if (x, y) == (int(n), int(n)) else "".join(
                m for m, (a, b) in zip("UDLR", ((x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)))
                if 1 <= a <= int(n) and 1 <= b <= int(n) and (a, b) not in seen)})
        one = {"type": "decision", "id": req["id"]}
        print(json.dumps(one | ({"answers": answers} if "states" in req else answers[0])), flush=True)
    else:
        print(json.dumps({"type": "decision", "id": req["id"], "allowed": ""}), flush=True)
'''


def _cases(tmp):
    """(category, argv) or (category, argv, stdin path) for every bad input."""
    cases = []
    for cmd in SUBCOMMANDS_WITH_STATE:
        for size in BAD_SIZES:
            cases.append(("sizes", [cmd, "--moves", f"{size}:R"]))
        for text in BAD_STATES:
            cases.append(("state text", [cmd, "--moves", text]))
    for cmd, extra in SUBCOMMANDS_WITH_N:
        for size in BAD_SIZES:
            cases.append(("sizes", [*cmd.split(), "-n", size, *extra]))
    numbers = {
        "--seed": ["99999999999999999999999", "-1", "1.5", "x"],
        "--time-limit": ["nan", "inf", "0", "-1", "1e999", "x"],
    }
    for opt, values in numbers.items():
        for v in values:
            cases.append(("numbers", ["walk", "-n", "7", opt, v] if opt == "--seed"
                          else ["check", "--moves", "7:RR", opt, v]))
            cases.append(("numbers", ["audit", "-n", "7", "--walks", "1", opt, v, "--db", f"{tmp}/n.db"]))
    for opt, v in [("--walks", "0"), ("--walks", "-3"), ("--jobs", "0"), ("--jobs", "99999"), ("--split", "-1"),
                   ("--pattern-time-limit", "nan"), ("--patterns", "x")]:
        cases.append(("numbers", ["audit", "-n", "7", "--walks", "1", opt, v, "--db", f"{tmp}/n.db"]))
    for opt, v in [("--cell", "100000"), ("--cell", "0"), ("--step", "-1"), ("--step", "999")]:
        cases.append(("numbers", ["draw", "--moves", "7:RR", opt, v]))
    cases += [("numbers", ["serve", "--port", "70000"]), ("numbers", ["stats", "-n", "7", "--runs", "0"]),
              ("numbers", ["findings", "show", "99999999999999999999999", "--db", f"{tmp}/n.db"])]
    no_dir = f"{tmp}/no/such/dir"
    cases += _puzzle_cases(tmp, no_dir)
    cases += [
        ("paths", ["rules", "mine", "-n", "5", "-o", f"{no_dir}/m.rule"]),
        ("paths", ["audit", "--trace", str(CORPUS / "9_198.txt"), "--report", f"{no_dir}/r.md", "--db", f"{tmp}/p.db"]),
        ("paths", ["report", "-o", f"{no_dir}/r.html", "--db", f"{tmp}/n.db"]),
        ("paths", ["draw", "--moves", "7:RR", "-o", f"{no_dir}/x.svg"]),
        ("paths", ["draw", "--moves", "101:R", "--cell", "256", "--png", "-o", f"{tmp}/x.png"]),
        ("paths", ["check", "/dev/zero"]),
        ("paths", ["check", f"{tmp}/missing.txt"]),
        ("paths", ["check", f"{tmp}/empty"]),
        ("paths", ["count", "/dev/null"]),
        ("paths", ["rules", "lint", "/dev/zero"]),
        ("paths", ["findings", "list", "--db", f"{tmp}/missing.db"]),
        ("paths", ["findings", "list", "--db", f"{tmp}/unrelated.sqlite"]),
        ("paths", ["findings", "list", "--kind", "nosuch", "--db", f"{tmp}/n.db"]),
        ("paths", ["rules", "mine", "-n", "5", "--rules", "universal", "-o", "/proc/version"]),
        ("paths", ["draw", "--moves", "7:RR", "-o", ""]),
        ("paths", ["toggle", "algorithm", "one-way", "--audit", "--sizes", "3-4", "--svg", f"{no_dir}/d"]),
        ("numbers", ["audit", "-n", "7", "--exhaustive", "--split", "9999", "--db", f"{tmp}/n.db"]),
        ("endless input", ["check", "-"], "/dev/zero"),
        ("endless input", ["engine", "--rules", "universal"], "/dev/zero"),
    ]
    engine = Path(tmp) / "hostile_engine.py"
    engine.write_text(ENGINE)
    for mode in ("nested", "multiline", "nan", "endless", "flood-crash", "true-id"):
        cases.append(("hostile engines", ["walk", "-n", "5", "--seed", "1", "--engine",
                                          f"{sys.executable} {engine} {mode}"]))
    rules = {
        "even": "name: even-size\nsizes: 8\ngrid:\n  ? x ?\n  ? H ?\n",
        "clash": "name: c-shape\ngrid:\n  ? x ?\n  ? H ?\n",
        "indented": "name: indented\n  grid:\n  ? x ?\n  ? H ?\n",
        "nohead": "name: nohead\ngrid:\n  ? x ?\n  ? . ?\n",
        "symbol": "name: sym\ngrid:\n  ? Z ?\n  ? H ?\n",
        "empty": "",
    }
    for name, text in rules.items():
        p = Path(tmp) / f"{name}.rule"
        p.write_text(text)
        cases.append(("rule files", ["rules", "lint", str(p), "--no-soundness"]))
        cases.append(("rule files", ["audit", "-n", "7", "--walks", "1", "--rules", str(p), "--db", f"{tmp}/r.db"]))
    for name in ["nosuch", "default,x"]:
        cases.append(("rule names", ["walk", "-n", "7", "--rules", name]))
        cases.append(("rule names", ["walk", "-n", "7", "--off", name]))
    bad = Path(tmp) / "bad.txt"
    bad.write_text("9|1-1,1;0,7-7,1\n")
    (Path(tmp) / "empty").mkdir()
    cases.append(("research files", ["check", str(bad)]))
    return cases + ROUND3.cases(tmp, CORPUS)


def _puzzle_cases(tmp, no_dir):
    """Bad input to the puzzles beside the labyrinth: the number puzzle and toggle squares."""
    cases = []
    for size in ("0", "-1", "x", "1e3", "1002"):
        cases.append(("puzzles", ["numbers", "solve", "-n", size]))
        cases.append(("puzzles", ["numbers", "walk", "-n", size, "--audit"]))
        cases.append(("puzzles", ["numbers", "count", "-n", size]))
        cases.append(("puzzles", ["toggle", "solve", "--random", "-n", "100000" if size == "1002" else size]))
    for opt, v in [("--start", "0,0"), ("--start", "11,1"), ("--start", "x"), ("--start", "1,1,1"),
                   ("--time-limit", "nan"), ("--seed", "-1"), ("--backend", "nosuch"), ("--svg", f"{no_dir}/s.svg")]:
        cases.append(("puzzles", ["numbers", "solve", "-n", "10", opt, v]))
    for opt, v in [("--order", "nosuch"), ("--order", "N,E"), ("--order", "N,N,E,S,W,NE,SE,SW"), ("--rule", "nosuch"),
                   ("--start", "9,9"), ("--db", f"{no_dir}/w.db")]:
        cases.append(("puzzles", ["numbers", "walk", "-n", "7", "--audit", opt, v]))
    for opt, v in [("-n", "9"), ("--jobs", "0"), ("--split", "-1"), ("--memo-mb", "0"), ("--executor", "nosuch"),
                   ("--log", f"{no_dir}/c.jsonl"), ("--svg", f"{no_dir}/h.svg"), ("--time-limit", "-1")]:
        cases.append(("puzzles", ["numbers", "count", "-n", "5", opt, v]))
    for text in ("numbers:5@1,1:XX", "numbers:5@9,9:", "numbers:5@1,1:E,E,E", "numbers:0@1,1:", "nosuch:5@1,1:E",
                 "numbers:5@1,1", ""):
        cases.append(("puzzles", ["numbers", "draw", text, "-o", f"{tmp}/d.svg"]))
    cases.append(("puzzles", ["numbers", "draw", "numbers:5@1,1:E", "-o", f"{no_dir}/d.svg"]))
    bad_board = Path(tmp) / "toggle.txt"
    bad_board.write_text("1 0 2\n0 1\n")
    for argv in (["solve", str(bad_board)], ["solve", f"{tmp}/missing.txt"], ["solve", "--random", "-n", "5",
                 "--method", "nosuch"], ["solve", "--random", "-n", "5", "--time-limit", "nan"],
                 ["algorithm", "--sizes", "0-x"], ["algorithm", "--random", "-n", "4", "--reading", "nosuch"],
                 ["theorems", "--max-n", "0"], ["theorems", "--max-n", "100000"],
                 ["draw", "--random", "-n", "5", "--cell", "0", "-o", f"{tmp}/t.svg"],
                 ["draw", "--random", "-n", "5", "-o", f"{no_dir}/t.svg"]):
        cases.append(("puzzles", ["toggle", *argv]))
    return cases


def _classify(proc_or_none, seconds):
    if proc_or_none is None:
        return "hang", f"over {LIMIT:.0f} s"
    err = proc_or_none.stderr
    if "Traceback" in err:
        return "traceback", err.strip().splitlines()[-1][:100]
    lines = err.strip().splitlines()
    if proc_or_none.returncode == 2 and len(lines) == 1:
        return "one-line", lines[0][:100]
    return "other", f"exit {proc_or_none.returncode}: {' | '.join(lines)[:100]}"


def run_inputs(tmp, only_round3=False):
    (Path(tmp) / "unrelated.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    undo = ROUND3.prepare(tmp, CLI)
    try:
        return _run_inputs(tmp, ROUND3.cases(tmp, CORPUS) if only_round3 else _cases(tmp))
    finally:
        undo()  # (an immutable file would outlive the temporary folder)


def _run_inputs(tmp, cases):
    rows = []
    for category, argv, *stdin in cases:
        t0 = time.perf_counter()
        try:
            with open(stdin[0], "rb") if stdin else open(os.devnull, "rb") as source:
                proc = subprocess.run([*CLI, *argv], stdin=source, capture_output=True, timeout=LIMIT, cwd=tmp)
            proc.stderr = proc.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            proc = None
        kind, detail = _classify(proc, time.perf_counter() - t0)
        shown = ROUND3.shown(" ".join(a if a else "''" for a in argv).replace(tmp, "TMP")
                             .replace(sys.executable, "python3"))
        if stdin:
            shown += f" < {stdin[0]}"
        rows.append((category, shown, kind, ROUND3.shown(detail.replace(tmp, "TMP"))))
    return rows


def run_engine_helpers(tmp):
    """Does a helper an engine started outlive the run? (walk, and audit --jobs 2: one engine per worker)"""
    engine = Path(tmp) / "hostile_engine.py"
    out = {}
    for label, argv in [("walk -n 5", ["walk", "-n", "5", "--seed", "1"]),
                        ("audit -n 5 --walks 16 --jobs 2", ["audit", "-n", "5", "--walks", "16", "--jobs", "2",
                                                           "--db", f"{tmp}/helpers.db", "--no-progress"])]:
        pids = Path(tmp) / f"helpers-{len(out)}.pid"
        subprocess.run([*CLI, *argv, "--engine", f"{sys.executable} {engine} forker {pids}"], capture_output=True,
                       timeout=LIMIT * 5, cwd=tmp, stdin=subprocess.DEVNULL)
        time.sleep(2)
        helpers = [int(x) for x in pids.read_text().split()] if pids.exists() else []
        alive = [pid for pid in helpers if "zombie" not in _state(pid) and _state(pid) != "gone"]
        for pid in alive:
            os.kill(pid, signal.SIGKILL)  # our own leftovers
        out[label] = f"{len(alive)} of {len(helpers)} helpers alive 2 s after the run"
    return out


def run_engine_requests(tmp):
    """Hostile requests to ``labyrinth engine``: (request, answer); every answer must be strict JSON."""
    proc = subprocess.Popen([*CLI, "engine", "--rules", "universal"], cwd=tmp, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    requests = [("200 000 [ then ]", b"[" * 200000 + b"]" * 200000),
                ('{"id": NaN, ...}', b'{"type": "decide", "id": NaN, "state": "5:R"}'),
                ('{"id": Infinity, ...}', b'{"type": "decide", "id": Infinity, "state": "5:R"}'),
                ('{"id": 1e999, ...}', b'{"type": "decide", "id": 1e999, "state": "5:R"}'),
                ("a batch of 200 000 states", json.dumps({"type": "decide", "id": 1,
                                                          "states": ["5:R"] * 200000}).encode()),
                ("not JSON", b"this is not json"),
                ("bytes that are not UTF-8", b"\xff\xfe{"),
                ("a good request afterwards", b'{"type": "decide", "id": 2, "state": "5:R"}')]
    rows = []
    try:
        for label, line in requests:
            proc.stdin.write(line + b"\n")
            proc.stdin.flush()
            answer = proc.stdout.readline().decode("utf-8", "replace").strip()
            try:
                obj = json.loads(answer, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
                shown = f"{obj.get('type')}: {obj.get('message', obj.get('allowed', ''))}"
            except ValueError:
                shown = f"NOT JSON: {answer[:60]}"
            rows.append((label, shown[:110]))
    finally:
        proc.stdin.close()
        proc.wait(30)
    return rows


def run_time_limits(tmp):
    """``check --moves N:R --backend B --time-limit 1 --allow-large`` as a user runs it: (n, backend, seconds, exit)."""
    rows = []
    for n in (301, 1001):
        for backend in ("search", "sat", "cpsat", "auto"):
            t0 = time.perf_counter()
            proc = subprocess.run([*CLI, "check", "--moves", f"{n}:R", "--backend", backend, "--time-limit", "1",
                                   "--allow-large"], capture_output=True, timeout=LIMIT * 5, cwd=tmp,
                                  stdin=subprocess.DEVNULL)
            rows.append((n, backend, time.perf_counter() - t0, proc.returncode))
    return rows


def run_viewer(tmp):
    """Hostile requests at a viewer on 127.0.0.1: (request, status or failure)."""
    port = _free_port()
    server = subprocess.Popen([*CLI, "serve", "--port", str(port)], cwd=tmp,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(1200):
            try:
                urllib.request.urlopen(base + "/api/meta", timeout=2).read()
                break
            except OSError:
                time.sleep(0.1)
        q = urllib.parse.quote
        gets = [f"/api/view?state={q(s)}" for s in ["+99999999999999999999:R", "1_000_001:R", "\u00b2:R", "+101:R",
                                                      "301:R", "7:RRX", "", "7:" + "R" * 5000]]
        gets += [f"/api/finding?id={q(i)}" for i in ["99999999999999999999999", "\u0667", "-1", "x", ""]]
        gets += ["/api/view?state=7:RR&rules=nosuch", "/nosuch", "/api/view"]
        rows = [(f"GET {g[:60]}", _status(base + g)) for g in gets]
        rows += [(f"HEAD {h}", _status(base + h, method="HEAD")) for h in ("/", "/api/meta", "/nosuch")]
        for body in [b'{"text": "+99999999999999999999:R"}', b'{"text": "1_000_001:R"}', b"[" * 100000 + b"]" * 100000,
                     b"not json", b'{"text": 5}', b"{}"]:
            rows.append((f"POST /api/load {body[:40]!r}", _status(base + "/api/load", body)))
        for raw in [b"POST /api/load HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
                    b"POST /api/load HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n",
                    b"POST /api/load HTTP/1.1\r\nHost: x\r\n\r\n"]:
            header = raw.split(b"\r\n")[2][:40]
            rows.append((f"raw {header!r}", _raw(port, raw)))
        rows.append(("raw: headers that never end (a slow client, 30 s)",
                     _raw(port, b"GET /api/meta HTTP/1.1\r\nHost: x\r\n")))
        alive = _status(base + "/api/meta")
        rows.append(("GET /api/meta afterwards", alive))
        return rows, server
    finally:
        server.terminate()
        server.wait(10)


def _status(url, body=None, method=None):
    try:
        req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"} if body else {},
                                     method=method)
        with urllib.request.urlopen(req, timeout=LIMIT) as r:
            return str(r.status)
    except urllib.error.HTTPError as e:
        return str(e.code)
    except OSError as e:
        return f"failed: {type(e).__name__}"


def _raw(port, data):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=LIMIT) as s:
            s.sendall(data)
            reply = s.recv(200)
    except OSError as e:
        return f"failed: {type(e).__name__}"
    return reply.split(b" ", 2)[1].decode() if reply.startswith(b"HTTP/") else f"failed: {reply[:30]!r}"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_killed_campaign(tmp):
    """SIGKILL a --jobs 2 audit mid-run; are its workers gone, and does --resume finish with nothing lost?"""
    db = f"{tmp}/kill.db"
    args = [*CLI, "audit", "-n", "21", "--walks", "60", "--seed", "1", "--jobs", "2", "--no-patterns", "--db", db]
    proc = subprocess.Popen(args, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(25)
    children = _children(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(5)
    left = [c for c in children if Path(f"/proc/{c}").exists() and "zombie" not in _state(c)]
    resumed = subprocess.run([*args, "--resume"], cwd=tmp, capture_output=True, text=True, timeout=1800)
    return {"workers before the kill": len(children), "workers alive 5 s after": len(left),
            "resume exit": resumed.returncode, "resume says": resumed.stdout.strip().splitlines()[:2]}


def _children(pid):
    out = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                fields = (p / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(p.name))
    return out


def _state(pid):
    try:
        return (Path(f"/proc/{pid}/status").read_text().split("State:")[1].splitlines()[0]).lower()
    except (OSError, IndexError):
        return "gone"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--output", default=str(ROOT / "reports" / "RELIABILITY.md"))
    ap.add_argument("--skip-kill", action="store_true", help="leave out the killed-campaign check")
    ap.add_argument("--only-round3", action="store_true",
                    help="only the inputs and checks of round 3 (issue 43), printed, not written")
    args = ap.parse_args()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        inputs = run_inputs(tmp, args.only_round3)
        round3 = run_round3(tmp)
        if args.only_round3:
            print(_markdown(inputs, [("-", "-")], None, time.perf_counter() - t0, round3=round3))
            return
        engines = run_engine_requests(tmp), run_engine_helpers(tmp)
        viewer, _ = run_viewer(tmp)
        limits = run_time_limits(tmp)
        killed = None if args.skip_kill else run_killed_campaign(tmp)
    seconds = time.perf_counter() - t0
    text = _markdown(inputs, viewer, killed, seconds, engines, limits, round3)
    Path(args.output).write_text(text, encoding="utf-8")
    print(text)


def run_round3(tmp):
    """The checks of round 3 beside its table rows (``bench/adversarial_round3.py``)."""
    (Path(tmp) / "hostile_engine.py").write_text(ENGINE)
    out = {"flood": ROUND3.run_engine_flood(tmp, CLI), "learns": ROUND3.run_two_learns(tmp, CLI),
           "readers": ROUND3.run_readers(tmp, CLI, CORPUS)}
    out["viewer"] = ROUND3.run_viewer_store(tmp, CLI, out["readers"][2], _free_port())
    out["pictures"] = ROUND3.run_large_pictures(tmp, CLI)
    return out


def _markdown(inputs, viewer, killed, seconds, engines=None, limits=None, round3=None):
    cats = sorted({c for c, *_ in inputs})
    kinds = ["one-line", "traceback", "hang", "other"]
    lines = ["# Reliability: the adversarial table", "",
             f"Made by `python bench/adversarial.py` ({seconds / 60:.1f} min, {platform.machine()}, "
             f"{os.cpu_count()} cores, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}). "
             "Every bad input runs as a user would run it, with a 60 s limit; the promise is `one-line`: exit "
             "status 2 and one line on stderr naming the input and the reason, no traceback.", "",
             "## Bad inputs by category", "", "| category | inputs | " + " | ".join(kinds) + " |",
             "|---|---:|" + "---:|" * len(kinds)]
    for c in cats:
        mine = [k for cc, _, k, _ in inputs if cc == c]
        lines.append(f"| {c} | {len(mine)} | " + " | ".join(str(mine.count(k)) for k in kinds) + " |")
    total = [k for _, _, k, _ in inputs]
    lines.append(f"| **all** | {len(total)} | " + " | ".join(str(total.count(k)) for k in kinds) + " |")
    odd = [(c, a, k, d) for c, a, k, d in inputs if k != "one-line"]
    lines += ["", "Inputs not answered in one line:" if odd else "Every input got its one-line answer.", ""]
    lines += [f"- `{a}`: {k}: {d}" for _, a, k, d in odd]
    if engines is not None:
        requests, helpers = engines
        strict = all(not a.startswith("NOT JSON") for _, a in requests)
        lines += ["", "## `labyrinth engine` under hostile requests", "",
                  f"{len(requests)} request lines to one `labyrinth engine --rules universal`; every answer strict "
                  f"JSON (no `NaN`): {strict}.", "", "| request | answer |", "|---|---|"]
        lines += [f"| {r} | {a.replace('|', '/')} |" for r, a in requests]
        lines += ["", "## What an engine leaves behind", "",
                  "An engine that starts a helper (`sleep 120`) and then quits when told:", ""]
        lines += [f"- `{k} --engine ...`: {v}" for k, v in helpers.items()]
    if limits is not None:
        lines += ["", "## Time limits on big boards", "",
                  "`check --moves N:R --backend B --time-limit 1 --allow-large`, the whole command as a user runs "
                  "it (interpreter start, board set-up and exit included); the promise is at most 2 s past the "
                  "limit (exit 3: the answer is unknown).", "",
                  "| n | backend | seconds | exit | within limit + 2 s |", "|---:|---|---:|---:|---|"]
        lines += [f"| {n} | {b} | {t:.2f} | {code} | {'yes' if t <= 3.0 else 'NO'} |" for n, b, t, code in limits]
    statuses = [s for _, s in viewer]
    lines += ["", "## Viewer server (127.0.0.1)", "",
              f"{len(viewer)} hostile requests; HTTP 500: {sum(s == '500' for s in statuses)}; dropped connections: "
              f"{sum(s.startswith('failed') for s in statuses)}; the server answered `/api/meta` afterwards: "
              f"{viewer[-1][1] == '200'}.", "", "| request | status |", "|---|---|"]
    lines += [f"| `{r.replace('|', '/')}` | {s} |" for r, s in viewer]
    if round3 is not None:
        lines += ROUND3.markdown(round3)
    if killed is not None:
        lines += ["", "## A killed campaign", "",
                  "`audit -n 21 --walks 60 --jobs 2` killed with SIGKILL after 25 s, then `--resume`d:", ""]
        lines += [f"- {k}: {v}" for k, v in killed.items()]
    lines += ["", "Sample lines (the first input of each category):", ""]
    for c in cats:
        first = next((a, d) for cc, a, k, d in inputs if cc == c)
        lines.append(f"- `{first[0]}` → {first[1]}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
