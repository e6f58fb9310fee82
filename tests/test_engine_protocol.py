"""External rule engines (issue 16): the protocol's checks, faults, and audits through engines.

* a rule set served by ``labyrinth engine --rules X`` audits exactly as ``--rules X`` in process
  (walks, stats, exhaustive: the Python subtree audit against the numba kernel);
* the reference engines in C, JavaScript and C# (and the stateful C# engine, which only steps) find
  exactly the findings an independent brute force derives from their rules (another implementation of
  the rules, here, in Python);
* a crashing, hanging, garbage-printing or off-board engine is one line, exit 2, and a campaign
  it stopped keeps its units and resumes.
"""

import json
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from brute import completions_exist

from labyrinth.engine import State
from labyrinth.engine.frame import heading
from labyrinth.engine.walker import walk_statistics
from labyrinth.engine_protocol import PROTOCOL, EngineRuleSet, parse_answer, parse_hello, serve, warm
from labyrinth.engine_protocol.messages import MAX_BATCH, MAX_DEPTH, MAX_LINE, Unreadable, dumps, loads
from labyrinth.errors import EngineError
from labyrinth.rules import get_rule_set
from oracle import get_oracle
from verify import AuditSettings, Store, audit_walk, run_campaign

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ROOT / "examples" / "engines"
PY = sys.executable
SERVE = f"{PY} -m labyrinth.cli engine"


def _key(findings):
    return sorted((f.kind, f.state, f.move, tuple(f.rules), tuple(map(tuple, f.cells))) for f in findings)


# --- the messages ------------------------------------------------------------------------------
HELLO = '{"type": "hello", "protocol": 1, "engine": "t"}'


def _answer(obj, state="5:RR", rid=1):
    line = obj if isinstance(obj, str) else json.dumps({"id": rid} | obj)
    return parse_answer(line, [State.from_moves(5, state.split(":")[1])], engine="t", request="req", rid=rid)


def test_a_well_formed_answer_becomes_a_decision_with_reasons():
    d = _answer({"allowed": "D", "closed": {"R": [{"rule": "r1", "cells": [[4, 1]]}]}, "extra": 1})[0]
    assert d.open == "D" and [e.rule for e in d.disabled["R"]] == ["r1"]
    assert d.disabled["R"][0].cells == (3,)  # (4, 1) on 5x5 is cell 3
    forced = _answer({"allowed": "D", "forced": {"move": "D", "rule": "f", "cells": [[3, 2]]},
                      "closed": {"R": {"rule": "f", "cells": [[3, 2]]}}})[0]
    assert forced.forced[0].move == "D" and forced.disabled["R"][0].kind == "force"
    assert parse_hello(HELLO, engine="t", request="r").name == "t"


@pytest.mark.parametrize("answer,needle", [
    ("not json at all", "not JSON"),
    ("[1, 2]", "not a JSON object"),
    ({"closed": {}}, "no 'allowed'"),
    ({"allowed": "U"}, "leaves the board"),
    ({"allowed": "L"}, "steps onto the line"),
    ({"allowed": "X"}, "not one of U, D, L, R"),
    ({"allowed": "DD"}, "listed twice"),
    ({"allowed": "D", "closed": {"D": []}}, "both allowed and closed"),
    ({"allowed": "D", "closed": {"R": {"rule": "r", "cells": [[9, 9]]}}}, "not an [x, y] on the 5x5"),
    ({"allowed": "DR", "forced": {"move": "D", "rule": "f"}}, "forced D but allowed"),
    ({"type": "error", "message": "boom"}, "reported an error: boom"),
    ('{"id": 7, "allowed": "D"}', "the request's 1"),
])
def test_every_malformed_answer_is_an_engine_error_naming_engine_request_and_answer(answer, needle):
    with pytest.raises(EngineError) as err:
        _answer(answer)
    text = str(err.value)
    assert needle in text and "engine t" in text and "'req'" in text and "\n" not in text
    assert err.value.engine == "t" and err.value.request == "req" and err.value.answer is not None


@pytest.mark.parametrize("hello,needle", [
    ('{"type": "hello", "protocol": 2, "engine": "t"}', f"speaks protocol 2, this verifier {PROTOCOL}"),
    ('{"type": "hello", "protocol": 1}', "'engine' name"),
    ('{"type": "decision"}', "first line must be its hello"),
    ('{"type": "hello", "protocol": 1, "engine": "t", "puzzles": ["chess"]}', "does not play the labyrinth"),
    ('{"type": "hello", "protocol": 1, "engine": "t", "sizes": "some"}', "'sizes' must be"),
    ('{"type": "hello", "protocol": 1, "engine": "t", "order": "random"}', "'order' must be"),
])
def test_a_bad_handshake_is_refused(hello, needle):
    with pytest.raises(EngineError, match=needle):
        parse_hello(hello, engine="t", request="r")


def test_an_engine_error_crosses_process_boundaries_with_its_fields():
    err = EngineError("boom", engine="e", request="q", answer="a")
    back = pickle.loads(pickle.dumps(err))
    assert (str(back), back.engine, back.request, back.answer) == (str(err), "e", "q", "a")


def _strict(line):
    """``line`` read as JSON as the standard has it (Python's json reads NaN and Infinity too)."""
    def refuse(name):
        raise ValueError(f"{name} is not JSON")

    return json.loads(line, parse_constant=refuse)


@pytest.mark.parametrize("request_line,needle", [
    ("[" * 200_000 + "]" * 200_000, "nested deeper than 32"),
    ('{"type": "decide", "id": ' + "[" * 40 + "]" * 40 + ', "state": "5:R"}', "nested deeper than 32"),
    ('{"type": "decide", "id": NaN, "state": "5:R"}', "NaN"),
    ('{"type": "decide", "id": -Infinity, "state": "5:R"}', "Infinity"),
    ('{"type": "decide", "id": 1e999, "state": "5:R"}', "too large"),
    (json.dumps({"type": "decide", "id": 7, "states": ["5:R"] * (MAX_BATCH + 1)}), f"at most {MAX_BATCH}"),
    ("\udcff not json", "not JSON"),
])
def test_the_served_engine_answers_a_hostile_request_in_json_and_goes_on(request_line, needle):
    out = []
    assert serve(get_rule_set("universal"), [request_line, '{"type": "decide", "id": 2, "state": "5:R"}'],
                 out.append) == 2 - (needle != f"at most {MAX_BATCH}")
    first, second = map(_strict, out)  # every line it writes is JSON, NaN never among them
    assert first["type"] == "error" and needle in first["message"]
    assert second["type"] == "decision" and second["id"] == 2 and set(second["allowed"]) == {"D", "R"}


def test_the_served_engine_takes_its_own_batch_cap_and_says_it():
    out = []
    states = ["5:R", "5:D"] * (MAX_BATCH // 2)
    serve(get_rule_set("universal"), ['{"type": "hello", "protocol": 1}', json.dumps(
        {"type": "decide", "id": 1, "states": states})], out.append)
    hello, answer = map(_strict, out)
    assert parse_hello(out[0], engine="t", request="r").max_batch == MAX_BATCH == hello["max_batch"]
    assert len(answer["answers"]) == MAX_BATCH


def test_a_line_of_the_protocol_is_bounded_both_ways():
    assert loads('{"a": [[1, 2]]}') == {"a": [[1, 2]]}
    deep = '{"a": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}"
    assert loads(deep)  # exactly at the bound
    for line in ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "NaN", "[1e400]", "x" * (MAX_LINE + 1)):
        with pytest.raises(Unreadable):
            loads(line)
    with pytest.raises(ValueError):
        dumps({"id": float("nan")})


# --- our own rule sets served over the protocol --------------------------------------------------
@pytest.fixture(scope="module", autouse=True)
def _warm_served_sets():
    """Compile the served sets' kernels here (kept on disk), not inside an engine's 60 s handshake."""
    for name in ("universal", "default", str(ROOT / "examples/rules/wall-ahead.rule")):
        warm(get_rule_set(name))


@pytest.fixture(scope="module")
def oracle():
    with get_oracle("auto", time_limit=60) as o:
        yield o


@pytest.fixture(scope="module")
def served():
    """One ``labyrinth engine`` process per rule set, shared by the module's tests."""
    engines = {}
    yield lambda name: engines.setdefault(name, EngineRuleSet(f"{SERVE} --rules {name}"))
    for e in engines.values():
        e.close()


@pytest.mark.parametrize("name", ["universal", "default", "examples/rules/wall-ahead.rule"])
def test_a_served_rule_set_audits_walks_exactly_as_in_process(name, served, oracle):
    direct, engine = get_rule_set(str(ROOT / name) if name.endswith(".rule") else name), served(
        str(ROOT / name) if name.endswith(".rule") else name)
    found = 0
    for seed in (1, 2):
        for i in range(12):
            a, ta = audit_walk(7, direct, seed, i, oracle)
            b, tb = audit_walk(7, engine, seed, i, oracle)
            assert _key(a) == _key(b), (name, seed, i)
            assert (ta.steps, ta.walkthroughs, ta.fired) == (tb.steps, tb.walkthroughs, tb.fired)
            found += len(a)
    if name != "default":
        assert found  # universal misses dead moves on 7x7 and wall-ahead over-prunes: there is something to compare


def test_a_served_rule_set_gives_the_same_walk_statistics(served):
    direct, engine = get_rule_set("default"), served("default")
    a, b = walk_statistics(9, direct, 3, 3, cap=8), walk_statistics(9, engine, 3, 3, cap=8)
    assert (a.mean, a.walks, a.censored) == (b.mean, b.walks, b.censored)


@pytest.mark.parametrize("name,off", [("universal", "older-line"), ("examples/rules/wall-ahead.rule", "")])
def test_the_python_subtree_audit_of_an_engine_matches_the_numba_kernel(name, off):
    """5x5 exhaustive: the kernel runs the rule set in process, Python asks the served engine, in batches."""
    name = str(ROOT / name) if name.endswith(".rule") else name
    switch = f" --off {off}" if off else ""
    with Store(":memory:") as store:
        _, t1, direct = run_campaign(store, AuditSettings(
            n=5, rules_args=(name, (off,) if off else (), ()), exhaustive=True, patterns=0))
        _, t2, served = run_campaign(store, AuditSettings(
            n=5, rules_args=(f"engine:{SERVE} --rules {name}{switch}", (), ()), exhaustive=True, patterns=0))
    assert _key(direct) == _key(served) and direct
    assert (t1.walkthroughs, t1.stuck, t1.steps) == (t2.walkthroughs, t2.stuck, t2.steps)
    assert t2.engine_requests and t2.engine_states > t2.engine_requests  # batches of states


def test_the_cli_audit_of_a_served_set_stores_the_same_findings_with_two_workers(tmp_path):
    rows = []
    for db, how in ((tmp_path / "a.db", ["--rules", "universal"]),
                    (tmp_path / "b.db", ["--engine", f"{SERVE} --rules universal", "--jobs", "2"])):
        proc = _cli("audit", "-n", "7", *how, "--walks", "16", "--seed", "1", "--db", str(db))
        assert proc.returncode == 0, proc.stderr[-2000:]
        rows.append(_rows(db))
    assert rows[0] == rows[1] and rows[0]
    assert "engine: " in proc.stdout and "round trip median" in proc.stdout


# --- the reference engines in C, JavaScript and C# ------------------------------------------------------
def _reference(state, wrong):
    """The reference engines' rules, written again here: ``(open moves, {closed move: rule names})``."""
    b = state.board
    free = set(state.free())
    end = b.end
    closed = {}
    moves = state.open_moves()
    for m in moves:
        w = b.step(state.head, m)
        if w == end and len(free) > 1:
            closed.setdefault(m, []).append("early-end")
        for k in moves:
            c = b.step(state.head, k)
            if k != m and sum(x in free for x in b.neighbours_of(c)) < (1 if c == end else 2):
                closed.setdefault(m, []).append("dead-end")
        ahead = b.step(w, m)
        if wrong and m == heading(state) and ahead < 0:
            closed.setdefault(m, []).append("wall-ahead")
    forced = {m for m in moves if b.step(state.head, m) != end
              and sum(x in free for x in b.neighbours_of(b.step(state.head, m))) == 1}
    open_moves = [m for m in moves if m not in closed]
    if forced:
        for m in open_moves:
            if m not in forced or len(forced) > 1:
                closed.setdefault(m, []).append("forced-cell")
        open_moves = [m for m in open_moves if m in forced and len(forced) == 1]
    return "".join(open_moves), closed


def _expected(n, wrong):
    """Every finding of an exhaustive audit under the reference rules, by brute force over the keep-left tree."""
    out = set()
    stack = [State.from_moves(n, "")]
    while stack:
        s = stack.pop()
        if s.at_end():
            continue
        allowed, closed = _reference(s, wrong)
        for m in s.open_moves():
            feasible = completions_exist(s.after(m))
            if m in allowed and not feasible:
                out.add(("missed-dead", s.compact(), m, ()))
            elif m not in allowed and feasible:
                out.add(("over-pruned", s.compact(), m, tuple(dict.fromkeys(closed[m]))))
            elif m in allowed:
                stack.append(s.after(m))  # only alive states are audited further
    return out


@pytest.fixture(scope="module")
def c_engine(tmp_path_factory):
    cc = shutil.which("cc")
    if cc is None:  # `make test` installs a compiler: a missing one is a failure, not a skip
        pytest.fail("no C compiler 'cc' on PATH: run `make test` (it installs gcc) or install one")
    exe = tmp_path_factory.mktemp("engines") / "corners"
    subprocess.run([cc, "-O2", "-o", str(exe), str(ENGINES / "corners.c")], check=True, timeout=120)
    return str(exe)


def _node():
    node = shutil.which("node")
    if node is None:
        pytest.fail("no 'node' on PATH: run `make test` (it installs nodejs) or install Node.js")
    return node


def _engine_command(lang, request):
    """The command of a reference engine: ``c``, ``js``, ``cs`` (corners.cs) or ``stateful`` (stateful.cs)."""
    if lang == "c":
        return request.getfixturevalue("c_engine")
    if lang == "js":
        return f"{_node()} {ENGINES / 'corners.js'}"
    return request.getfixturevalue("cs_engines")["corners" if lang == "cs" else "stateful"]


@pytest.mark.parametrize("lang", ["c", "js", "cs", "stateful"])
@pytest.mark.parametrize("wrong", [False, True])
def test_a_reference_engine_has_exactly_the_findings_its_rules_imply(lang, wrong, request):
    command = _engine_command(lang, request) + (" --wrong" if wrong else "")
    with Store(":memory:") as store:
        _, totals, found = run_campaign(store, AuditSettings(
            n=5, rules_args=(f"engine:{command}", (), ()), exhaustive=True, patterns=0))
    got = {(f.kind, f.state, f.move, tuple(f.rules) if f.kind == "over-pruned" else ()) for f in found}
    want = _expected(5, wrong)
    assert got == want
    kinds = {k for k, *_ in want}
    assert kinds == ({"over-pruned", "missed-dead"} if wrong else {"missed-dead"})  # the rules are sound but weak
    assert not wrong or all("wall-ahead" in r for k, _, _, r in want if k == "over-pruned")


def test_the_reference_engines_walk_and_blame_alike(request, oracle):
    engines = [EngineRuleSet(_engine_command(lang, request) + " --wrong") for lang in ("c", "js", "cs", "stateful")]
    try:
        kinds = set()
        for i in range(4):
            a, _ = audit_walk(9, engines[0], 5, i, oracle)
            for other in engines[1:]:
                assert _key(audit_walk(9, other, 5, i, oracle)[0]) == _key(a), other.name
            kinds |= {f.kind for f in a}
        assert "over-pruned" in kinds
        assert [e.name for e in engines] == ["corners-c-wrong", "corners-js-wrong", "corners-cs-wrong",
                                             "stateful-cs-wrong"]
    finally:
        for e in engines:
            e.close()


def test_regress_between_two_engines_names_the_wrong_rule(c_engine, tmp_path):
    proc = _cli("regress", "--base-engine", c_engine, "--head-engine", f"{c_engine} --wrong", "-n", "5,7",
                "--walks", "10", "--seed", "1", "--json", "--db", str(tmp_path / "missing" / "none.db"))
    assert proc.returncode == 1, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    assert report["regressed"] and "wall-ahead" in report["blamed"]
    mixed = _cli("regress", "--base", "universal", "--head-engine", f"{c_engine} --wrong", "-n", "7",
                 "--walks", "5", "--json", "--db", str(tmp_path / "missing" / "none.db"))
    assert mixed.returncode == 1 and "wall-ahead" in json.loads(mixed.stdout)["blamed"]


# --- faults ------------------------------------------------------------------------------------------
FAKE = r'''
import json, os, subprocess, sys, time
MODE, FLAG = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
count = 0
if MODE == "fork":  # a helper the engine leaves behind when it quits
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    with open(FLAG, "a") as f:
        f.write(f"{helper.pid}\n")
for line in sys.stdin:
    req = json.loads(line)
    if req["type"] == "quit":
        break
    if req["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "engine": "fake-" + MODE, "batch": True}), flush=True)
        continue
    count += 1
    if MODE == "crash" or (MODE == "crash-later" and os.path.exists(FLAG) and count > 60):
        sys.stderr.write("fake engine: segmentation fault (pretend)\n")
        sys.exit(3)
    if MODE == "hang":
        time.sleep(60)
    if MODE == "garbage":
        print("this is not json", flush=True)
        continue
    if MODE == "nested":
        print("[" * 200000 + "]" * 200000, flush=True)
        continue
    if MODE == "multiline":
        print(json.dumps({"type": "error", "id": req["id"], "message": "line one\nline two\n" * 30}), flush=True)
        continue
    if MODE == "nan":
        print('{"type": "decision", "id": NaN, "allowed": ""}', flush=True)
        continue
    answers = []
    for text in req.get("states") or [req["state"]]:
        n, moves = text.split(":")
        n = int(n)
        x = y = 1
        seen = {(1, 1)}
        for m in moves:
            x, y = x + {"L": -1, "R": 1}.get(m, 0), y + {"U": -1, "D": 1}.get(m, 0)
            seen.add((x, y))
        ok = "" if (x, y) == (n, n) else "".join(
            m for m, (a, b) in zip("UDLR", ((x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)))
            if 1 <= a <= n and 1 <= b <= n and (a, b) not in seen)
        answers.append({"allowed": "U" if MODE == "offboard" and not moves else ok})
    if "states" in req:
        print(json.dumps({"type": "decision", "id": req["id"], "answers": answers}), flush=True)
    else:
        print(json.dumps({"type": "decision", "id": req["id"]} | answers[0]), flush=True)
'''


@pytest.fixture(scope="module")
def fake(tmp_path_factory):
    path = tmp_path_factory.mktemp("fake") / "fake_engine.py"
    path.write_text(FAKE)
    return lambda mode, *extra: " ".join([PY, str(path), mode, *map(str, extra)])


def _cli(*args, timeout=600):
    quiet = ["--no-progress"] if args[0] in ("audit", "regress", "stats") else []
    return subprocess.run([PY, "-m", "labyrinth.cli", *args, *quiet], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def _rows(db):
    with sqlite3.connect(db) as con:
        return sorted(con.execute("SELECT kind, state, move, rules, cells, pattern IS NOT NULL FROM findings"))


@pytest.mark.parametrize("mode,needle", [
    ("crash", "exited with status 3"),
    ("hang", "no answer within 1 s"),
    ("garbage", "not JSON"),
    ("offboard", "leaves the board"),
    ("nested", "nested deeper than 32 levels"),
    ("multiline", "reported an error: line one\\nline two\\n"),
    ("nan", "NaN is not a JSON number"),
])
def test_a_faulty_engine_is_one_line_and_exit_2(mode, needle, fake, tmp_path):
    proc = _cli("audit", "-n", "5", "--engine", fake(mode), "--walks", "2", "--engine-timeout", "1",
                "--db", str(tmp_path / "x.db"))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert needle in lines[0] and f"engine fake-{mode}" in lines[0] and "request" in lines[0]
    if mode == "crash":
        assert "segmentation fault (pretend)" in lines[0]  # the engine's last stderr line is quoted


def _running(pid):
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.parametrize("args", [("walk", "-n", "5", "--seed", "1"), ("audit", "-n", "5", "--walks", "16", "--jobs",
                                                                           "2")], ids=["walk", "audit --jobs 2"])
def test_what_an_engine_starts_ends_with_it(args, fake, tmp_path):
    pids = tmp_path / "helper.pid"
    extra = ("--db", str(tmp_path / "x.db")) if args[0] == "audit" else ()
    proc = _cli(*args, "--engine", fake("fork", pids), *extra)
    assert proc.returncode in (0, 1), proc.stderr
    helpers = [int(line) for line in pids.read_text().split()]  # one per engine: the check's, each worker's
    assert helpers and len(helpers) <= 3
    for _ in range(200):  # SIGKILL is delivered at once; the reaping by init may take a moment
        left = [pid for pid in helpers if _running(pid)]
        if not left:
            break
        time.sleep(0.05)
    for pid in left:
        os.kill(pid, 9)  # (the test's own leftovers)
    assert not left, "an engine's helper outlived the run"


def test_a_campaign_an_engine_stopped_keeps_its_units_and_resumes(fake, tmp_path):
    flag = tmp_path / "broken"
    flag.write_text("")
    db = str(tmp_path / "c.db")
    args = ("audit", "-n", "7", "--engine", fake("crash-later", flag), "--walks", "24", "--seed", "2", "--db", db)
    first = _cli(*args)
    assert first.returncode == 2 and "exited with status 3" in first.stderr
    with sqlite3.connect(db) as con:
        units = [u for (u,) in con.execute("SELECT unit FROM units")]
    # the units done before the crash are kept (one request per lockstep step: 20-40 per unit here), the one in
    # flight is not recorded
    assert units and units == ["walks 0-7", "walks 8-15"][: len(units)]
    flag.unlink()  # "fix" the engine
    again = _cli(*args, "--resume")
    assert again.returncode == 0, again.stderr
    clean = str(tmp_path / "clean.db")
    assert _cli(*args[:-1], clean).returncode == 0
    assert _rows(db) == _rows(clean) and _rows(db)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM campaigns").fetchone()[0] == 1
        assert con.execute("SELECT COUNT(*) FROM units").fetchone()[0] == 3


def test_a_bad_engine_command_is_one_line_before_any_work(tmp_path):
    proc = _cli("audit", "-n", "5", "--engine", f"{tmp_path}/no/such/engine --fast", "--walks", "2",
                "--db", str(tmp_path / "x.db"))
    assert proc.returncode == 2 and "cannot start" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.db").exists() or _rows(tmp_path / "x.db") == []
    both = _cli("audit", "-n", "5", "--rules", "universal", "--engine", "x", "--walks", "1", "--db",
                str(tmp_path / "y.db"))
    assert both.returncode == 2 and "not both" in both.stderr


def test_stats_and_walk_take_an_engine(c_engine):
    proc = _cli("stats", "-n", "7", "--runs", "3", "--engine", c_engine, "--json")
    assert proc.returncode == 0, proc.stderr
    row = json.loads(proc.stdout)
    assert row["rules"] == "corners-c" and row["walks"] >= 3
    walk = _cli("walk", "-n", "7", "--engine", c_engine, "--seed", "4", "--json")
    state = json.loads(walk.stdout)["state"]
    assert walk.returncode == 0 and state.startswith("7:")
