"""Hardening, round 3 (issue 43): engines that flood, stores that cannot be written, device paths, long names,
limits checked before the work, large pictures, and the protocol's small print.

Each test fails on the code before its fix; ``bench/adversarial.py`` has a row for each item.
"""

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from labyrinth.cli import main
from labyrinth.engine import State
from labyrinth.engine_protocol import EngineProcess
from labyrinth.errors import EngineError, LabyrinthError

PY = sys.executable
LONG = "a" * 300  # one path component past every file system's 255


def _main(argv):
    try:
        return main(argv)
    except SystemExit as stop:  # the argument parser's own refusals
        return stop.code


def _one_line(capfd, code, needle=None):
    """The command's stderr, checked to be one line with exit status 2 (and to hold ``needle``)."""
    out, err = capfd.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, (code, err)
    assert needle is None or needle in lines[0], lines[0]
    return lines[0]


# --- 1. an engine's stderr is kept bounded ----------------------------------------------------------------------

ENGINE = r'''
import json, sys
MODE = sys.argv[1]
for line in sys.stdin:
    req = json.loads(line)
    if req["type"] == "quit":
        break
    if req["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "engine": "noisy-" + MODE}), flush=True)
        continue
    if MODE == "flood":  # a MiB of stderr a request, then the answer
        sys.stderr.write(("x" * 1023 + "\n") * 1024)
        sys.stderr.flush()
    if MODE == "flood-crash":
        sys.stderr.write(("x" * 1023 + "\n") * 4096 + "the last words\n")
        sys.exit(5)
    answer = {"type": "decision", "id": req["id"], "allowed": ""}
    if MODE == "true-id":
        answer["id"] = True
    print(json.dumps(answer), flush=True)
'''


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("engine") / "engine.py"
    path.write_text(ENGINE)
    return lambda mode: f"{PY} {path} {mode}"


def _open_file_bytes():
    """Bytes in the regular files this process holds open (an unlinked temporary file included)."""
    total = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            st = os.stat(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            total += st.st_size
    return total


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="Linux /proc only")
def test_an_engine_flooding_stderr_keeps_memory_and_disk_bounded(engine):
    from labyrinth.engine_protocol.client import STDERR_TAIL

    state = State.from_moves(5, "R")
    before = _open_file_bytes()
    with EngineProcess(engine("flood")) as proc:
        for _ in range(16):
            assert proc.decide([state])[0].open == ""  # every answer read, however much it writes besides
        held = _open_file_bytes() - before
        kept, dropped = proc.stderr_tail()
    assert held < 1 << 20  # 16 MiB written: none of it on disk
    assert len(kept) <= STDERR_TAIL and kept.endswith(b"x\n")
    assert dropped + len(kept) >= 15 << 20  # what it wrote is counted (the last request's may still be in the pipe)


def test_a_crash_after_a_flood_quotes_the_last_line_and_counts_the_rest(engine):
    with EngineProcess(engine("flood-crash")) as proc, pytest.raises(EngineError) as err:
        proc.decide([State.from_moves(5, "R")])
    text = str(err.value)
    assert "exited with status 5" in text and "the last words" in text and "not kept" in text
    assert len(text.splitlines()) == 1


# --- 10. an id of true, an engine name one character too long ---------------------------------------------------


def test_an_answer_with_id_true_is_not_the_answer_to_request_1(engine):
    with EngineProcess(engine("true-id")) as proc, pytest.raises(EngineError, match="the answer's id is true"):
        proc.decide([State.from_moves(5, "R")])


@pytest.mark.parametrize(("length", "accepted"), [(100, True), (101, False)])
def test_labyrinth_engine_takes_the_names_its_own_verifier_takes(length, accepted, capfd):
    from labyrinth.engine_protocol import parse_hello

    name = "n" * length
    if accepted:  # what the server says, the verifier reads
        hello = json.dumps({"type": "hello", "protocol": 1, "engine": name})
        assert parse_hello(hello, engine="x", request="hello").name == name
        return
    code = _main(["engine", "--name", name])
    _one_line(capfd, code, "--name")
    with pytest.raises(EngineError, match="1 to 100 characters"):
        parse_hello(json.dumps({"type": "hello", "protocol": 1, "engine": name}), engine="x", request="hello")


def test_the_default_engine_name_of_a_long_rule_file_name_is_one_the_verifier_takes(tmp_path):
    from labyrinth.engine_protocol import parse_hello, serve
    from labyrinth.rules import get_rule_set

    rule = tmp_path / ("r" * 120 + ".rule")  # the set is named after the file: labyrinth-rrr... by default
    rule.write_text("name: corner\ngrid:\n  ? x ?\n  ? H #\n")
    said = []
    serve(get_rule_set(str(rule)), iter(['{"type": "hello", "protocol": 1}']), said.append)
    assert parse_hello(said[0], engine="x", request="hello").name.startswith("labyrinth-")


# --- 4. every reader of the store reads every campaign kind in it ----------------------------------------------


@pytest.fixture(scope="module")
def every_kind(tmp_path_factory):
    """One store holding a campaign of each kind that writes one, with findings where the kind has them."""
    from conftest import CORPUS
    from test_knight_magic import BEV

    from labyrinth.puzzles.knight import semimagic
    from verify.semimagic_campaign import SemimagicSettings, run_campaign
    from verify.store import Store

    db = str(tmp_path_factory.mktemp("kinds") / "all.db")
    for argv in (["audit", "-n", "5", "--walks", "4", "--rules", "none"],  # walks, missed-dead with patterns
                 ["audit", "-n", "5", "--exhaustive", "--rules", "universal"],  # exhaustive
                 ["audit", "--trace", str(CORPUS / "2023_0803.txt"), str(CORPUS / "2023_0811_1.txt"),
                  "--no-patterns"],  # trace: the research program's over-pruned and missed-dead
                 ["numbers", "walk", "-n", "5", "--audit", "--start", "1,2"],  # numbers-walk, a stuck start
                 ["knight", "walk", "-n", "5", "--audit", "--start", "3,5"]):  # knight-walk, a stuck start
        quiet = ["--no-progress"] if argv[0] == "audit" else []
        assert main([*argv, *quiet, "--db", db]) == 0, argv
    with Store(db) as store:  # knight-semimagic: a campaign of two units of the magic knight's tours
        run_campaign(store, SemimagicSettings(scope=semimagic.Unit(BEV[:4], BEV[::-1][:4]).name, depth=1, max_units=2))
        kinds = {c["kind"] for c in store.campaigns()}
        ids = [f["id"] for f in store.findings()]
    assert kinds == {"walks", "exhaustive", "trace", "numbers-walk", "knight-walk", "knight-semimagic"}
    return db, ids


READERS = [["findings", "list"], ["findings", "list", "--by", "none"], ["findings", "list", "--json"],
           ["findings", "list", "campaigns"], ["findings", "list", "campaigns", "--json"],
           ["findings", "list", "patterns"], ["report", "-o", "{tmp}/r.html", "--stats-runs", "0", "--timing", "2",
                                               "--no-progress"],
           ["regress", "--base", "universal", "--head", "default", "-n", "5", "--walks", "2", "--no-progress"]]


@pytest.mark.parametrize("argv", READERS, ids=[" ".join(a[:3]) for a in READERS])
def test_every_reader_reads_a_store_of_every_campaign_kind(argv, every_kind, tmp_path, capfd):
    db, _ = every_kind
    code = _main([a.replace("{tmp}", str(tmp_path)) for a in argv] + ["--db", db])
    out, err = capfd.readouterr()
    assert code == 0 and "Traceback" not in err, err
    if argv[-1] == "--json":
        assert all(json.loads(line) for line in out.splitlines())
    if argv[:3] == ["findings", "list", "campaigns"]:
        assert "knight-semimagic" in out and "numbers-walk" in out


def test_every_finding_of_every_kind_is_shown_and_opens_in_the_viewer(every_kind, capfd):
    from labyrinth.view.viewer import Viewer

    db, ids = every_kind
    assert len(ids) >= 5
    for fid in ids:
        for extra in ([], ["--json"]):
            code = _main(["findings", "show", str(fid), "--db", db, *extra])
            out, err = capfd.readouterr()
            assert code == 0 and "Traceback" not in err and f"{fid}" in out, err
    viewer = Viewer(db)
    try:
        shown = [f["id"] for f in viewer.findings()]  # the labyrinth's: the viewer steps through its walks
        assert viewer.meta()["findings"] == len(shown) and set(shown) < set(ids)
        for fid in ids:
            if fid in shown:
                assert viewer.finding(str(fid))["id"] == fid
            else:  # another puzzle's finding: a one-line refusal saying where to see it, not a parse error
                with pytest.raises(LabyrinthError, match=f"findings show {fid}"):
                    viewer.finding(str(fid))
    finally:
        viewer.close()


# --- 3. stores that cannot be written, or are damaged, are refused before any work -------------------------------


class _WorkStarted(BaseException):
    """Raised by any long job a refused store started (a BaseException: no handler of the CLI takes it)."""


#: the long jobs behind every command that writes a store: a refusal must come before any of them
STORE_WORK = [("verify.campaign", "run_campaign"), ("verify.campaign", "run_trace_campaign"),
              ("verify.semimagic_campaign", "run_campaign"), ("verify.path_audit", "audit_start"),
              ("verify.learn", "learn"), ("verify.minimize", "minimal_pattern")]


@pytest.fixture
def no_work(monkeypatch):
    import importlib

    def started(*_, **__):
        raise _WorkStarted("the work started before the store was refused")

    for module, name in STORE_WORK:
        monkeypatch.setattr(importlib.import_module(module), name, started)


def _read_only(path):
    """Make ``path`` refuse writes even to root (``chattr +i``); a function that undoes it."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return lambda: path.chmod(0o644)
    if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode == 0:
        return lambda: subprocess.run(["chattr", "-i", str(path)], capture_output=True)
    pytest.skip("running as root where chattr +i does not work: no file here refuses root's writes")


def _store_with_a_finding(path):
    """A findings store of one campaign and one missed-dead finding without a pattern (closed: no side files)."""
    from verify.audit import Finding
    from verify.store import Store

    with Store(path) as store:
        campaign = store.start_campaign("walks", {"n": 5, "walks": 1}, seed=0, rules="none")
        store.record_unit(campaign, "walk 0", [Finding("missed-dead", "5:RRRRDDLLLLD", "R", (), (), None)],
                          {"walks": 1})
    return path


def _damaged(path):
    """A findings store whose campaigns table's page is overwritten (``PRAGMA quick_check`` finds it)."""
    _store_with_a_finding(path)
    with sqlite3.connect(path) as con:
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'campaigns'").fetchone()[0]
        size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = bytearray(path.read_bytes())
    start = (root - 1) * size + 8
    data[start:start + 52] = b"\xab" * 52
    path.write_bytes(bytes(data))
    return path


#: commands that write a store (the store's path is appended as --db)
WRITERS = [["audit", "-n", "5", "--walks", "2", "--no-progress"],
           ["audit", "-n", "5", "--walks", "2", "--no-progress", "--resume"],
           ["audit", "--trace", "{corpus}/2023_0803.txt", "--no-progress"],
           ["knight", "magic", "--all", "--max-units", "0"],
           ["knight", "walk", "-n", "5", "--audit"],
           ["numbers", "walk", "-n", "5", "--audit"],
           ["minimize", "--finding", "1"]]


def _writer(argv, db):
    from conftest import CORPUS

    return [a.replace("{corpus}", str(CORPUS)) for a in argv] + ["--db", str(db)]


@pytest.mark.parametrize("argv", WRITERS, ids=[" ".join(a[:4]) for a in WRITERS])
def test_a_read_only_store_is_refused_before_any_work(argv, tmp_path, capfd, no_work):
    db = _store_with_a_finding(tmp_path / "ro.db")
    before = db.read_bytes()
    undo = _read_only(db)
    try:
        code = _main(_writer(argv, db))  # a job it started raises _WorkStarted
    finally:
        undo()
    line = _one_line(capfd, code, str(db))
    assert "cannot write" in line
    assert db.read_bytes() == before


@pytest.mark.parametrize("argv", WRITERS, ids=[" ".join(a[:4]) for a in WRITERS])
def test_a_damaged_store_is_refused_before_any_work_and_left_untouched(argv, tmp_path, capfd, no_work):
    db = _damaged(tmp_path / "bad.db")
    before = db.read_bytes()
    code = _main(_writer(argv, db))
    _one_line(capfd, code, "damaged")
    assert db.read_bytes() == before and not Path(f"{db}-wal").exists()


@pytest.mark.parametrize("argv", [["findings", "list", "campaigns"], ["findings", "show", "1"],
                                  ["report", "-o", "{tmp}/r.html", "--stats-runs", "0", "--timing", "0"]],
                         ids=["list campaigns", "show", "report"])
def test_a_damaged_store_read_is_one_line(argv, tmp_path, capfd):
    db = _damaged(tmp_path / "bad.db")
    code = _main([a.replace("{tmp}", str(tmp_path)) for a in argv] + ["--db", str(db)])
    _one_line(capfd, code, str(db))


def test_a_store_of_a_newer_schema_is_refused_both_ways(tmp_path, capfd):
    from verify.store import SCHEMA_VERSION

    db = _store_with_a_finding(tmp_path / "new.db")
    with sqlite3.connect(db) as con:
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.close()
    for argv in (["findings", "list"], ["audit", "-n", "5", "--walks", "1", "--no-progress"]):
        _one_line(capfd, _main([*argv, "--db", str(db)]), "newer labyrinth")


def test_a_store_from_before_schema_versions_is_read_and_stamped_when_written(tmp_path, capfd):
    from verify.store import SCHEMA_VERSION, Store

    db = _store_with_a_finding(tmp_path / "old.db")
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA user_version = 0")
    con.close()
    with Store(db, create=False) as store:  # read: left as it is
        assert len(store.findings()) == 1
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == 0
    with Store(db) as store:
        assert len(store.findings()) == 1
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


@pytest.mark.parametrize("content", [b"SQLite format 3\x00" + bytes(200), b"\xff\xfe not text", b"[1, 2]\n",
                                     b'{"kind": "round", "round": "one"}\n',
                                     b'{"kind": "labyrinth-rules-learn", "version": 99}\n'],
                         ids=["sqlite", "binary", "a list", "a bad record", "a newer version"])
def test_a_rules_learn_store_that_is_not_ours_is_one_line(content, tmp_path, capfd, no_work):
    store = tmp_path / "notours.db"
    store.write_bytes(content)
    code = _main(["rules", "learn", "-n", "5", "-o", str(tmp_path / "l.rule"), "--store", str(store), "--resume"])
    _one_line(capfd, code, str(store))
    assert store.read_bytes() == content


def test_a_rules_learn_store_cut_short_in_a_write_resumes_without_the_torn_line(tmp_path):
    from verify.learn_units import UnitStore

    path = tmp_path / "units.jsonl"
    with UnitStore(path, resume=False) as units:
        units.add({"kind": "finding", "round": 1, "state": "5:RR", "skip": "alive"})
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"kind": "finding", "rou')  # killed in the middle of the next write
    with UnitStore(path, resume=True) as units:
        assert list(units.findings(1)) == ["5:RR"]
    assert path.read_bytes() == whole


# --- 5. two runs of rules learn on one store ----------------------------------------------------------------------


def test_a_second_rules_learn_on_a_store_in_use_is_refused_before_any_work(tmp_path, capfd, no_work):
    from verify.learn_units import UnitStore

    store = tmp_path / "units.jsonl"
    with UnitStore(store, resume=False) as first:  # a run in progress holds the store
        first.add({"kind": "finding", "round": 1, "state": "5:RR", "skip": "alive"})
        before = store.read_bytes()
        code = _main(["rules", "learn", "-n", "5", "-o", str(tmp_path / "l.rule"), "--store", str(store),
                      "--resume"])
        _one_line(capfd, code, "another 'labyrinth rules learn' is using this store")
        assert store.read_bytes() == before
    with UnitStore(store, resume=True) as again:  # the first run done, the store is free again
        assert list(again.findings(1)) == ["5:RR"]


# --- 6. device and special paths ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "needle"), [
    (["audit", "-n", "5", "--walks", "1", "--db", "/dev/null"], "character device"),
    (["knight", "walk", "-n", "5", "--audit", "--db", "/dev/null"], "character device"),
    (["rules", "learn", "-n", "5", "-o", "/dev/null"], "character device"),
    (["rules", "learn", "-n", "5", "-o", "{tmp}/l.rule", "--store", "/dev/null"], "character device"),
    (["findings", "list", "--db", "/dev/null"], "character device"),
    (["audit", "-n", "5", "--walks", "1", "--db", "{tmp}/link.db"], "character device"),  # a link to /dev/null
    (["audit", "-n", "5", "--walks", "1", "--db", "{tmp}/walled.db"], "side file"),  # its -wal is a folder
    (["audit", "-n", "5", "--walks", "1", "--db", "{tmp}"], "a folder"),
], ids=["audit", "knight walk", "learn -o", "learn --store", "findings list", "link", "wal folder", "folder"])
def test_a_store_that_is_no_regular_file_is_refused_before_any_work(argv, needle, tmp_path, capfd, no_work):
    (tmp_path / "link.db").symlink_to("/dev/null")
    (tmp_path / "walled.db-wal").mkdir()
    made = set(Path("/dev").iterdir())
    code = _main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    _one_line(capfd, code, needle)
    assert set(Path("/dev").iterdir()) <= made  # no /dev/null-journal, no /dev/null.units.jsonl


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("argv", [["audit", "-n", "5", "--walks", "1"], ["findings", "list"]], ids=["audit", "list"])
def test_a_named_pipe_as_store_is_refused_not_waited_on(argv, tmp_path):
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    try:  # (a subprocess: the code before the fix waits for a writer for ever)
        proc = subprocess.run([PY, "-m", "labyrinth.cli", *argv, "--db", str(fifo)], capture_output=True, text=True,
                              timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("waited on the named pipe")
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "named pipe" in lines[0], proc.stderr


# --- 7. names too long for the file system --------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["draw", "--moves", "7:RR", "-o", "{long}.svg"],
    ["report", "-o", "{long}.html", "--db", "{db}"],
    ["knight", "tour", "-n", "6", "--svg", "{long}.svg"],
    ["rules", "learn", "-n", "5", "-o", "{long}.rule"],
    ["audit", "-n", "5", "--walks", "1", "--db", "{long}.db"],
    ["findings", "list", "--db", "{long}.db"],
    ["serve", "--db", "{long}.db"],
    ["numbers", "walk", "-n", "5", "--audit", "--db", "{long}.db"],
    ["check", "{long}.txt"],
    ["draw", "{long}"],
], ids=["draw", "report", "knight tour", "learn", "audit", "findings", "serve", "numbers walk", "check", "draw FILE"])
def test_a_file_name_too_long_is_one_line(argv, tmp_path, capfd, no_work):
    db = _store_with_a_finding(tmp_path / "s.db")
    code = _main([a.replace("{long}", str(tmp_path / LONG)).replace("{db}", str(db)) for a in argv])
    _one_line(capfd, code, "File name too long")


# --- 8. limits checked before the work ----------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["knight", "tour"], ["knight", "walk"], ["numbers", "solve"], ["numbers", "walk"]],
                         ids=" ".join)
def test_a_picture_too_large_is_refused_before_the_search(argv, tmp_path, capfd, monkeypatch):
    import labyrinth.core.walk
    import oracle.solve

    def started(*_, **__):
        raise _WorkStarted("searched before refusing the picture")

    monkeypatch.setattr(oracle.solve, "solve_puzzle", started)
    monkeypatch.setattr(labyrinth.core.walk, "walk", started)
    code = _main([*argv, "-n", "301", "--allow-large", "--svg", str(tmp_path / "x.svg")])
    _one_line(capfd, code, "paths are drawn up to 100x100")
    assert not (tmp_path / "x.svg").exists()


# --- 9. large pictures ---------------------------------------------------------------------------------------------


def test_a_large_picture_has_no_element_per_cell(tmp_path):
    from labyrinth.view import describe, render

    svg = render(describe(State.from_moves(101, "RD"), rules="none"), cell=16)
    assert svg.count("<") < 100  # a 101x101 board: not ten thousand cells, each an element to keep in memory


def test_a_large_png_is_drawn_within_the_pixel_bound(tmp_path, capfd, monkeypatch):
    import cairosvg

    from labyrinth.view.svg import MAX_PNG_PIXELS

    drawn = []

    def fake(bytestring, scale):  # what would be drawn, without drawing it (before the fix: 172 megapixels)
        head = bytestring[:500].decode()
        width, height = (float(head.split(f'{key}="')[1].split('"')[0]) for key in ("width", "height"))
        drawn.append(width * height * scale * scale)
        return b"\x89PNG"

    monkeypatch.setattr(cairosvg, "svg2png", fake)
    code = _main(["draw", "--moves", "101:R", "--allow-large", "--no-oracle", "--no-future", "--cell", "64", "--png",
                  "-o", str(tmp_path / "x.png")])
    out, err = capfd.readouterr()
    assert code == 0 and drawn and drawn[0] <= MAX_PNG_PIXELS * 1.0001
    assert len(err.strip().splitlines()) == 1 and "pixels a cell" in err  # said in one line


def test_a_path_is_written_as_drawsvg_writes_it():
    import drawsvg as dw

    from labyrinth.view.svg import _polyline

    def text(element):
        d = dw.Drawing(10, 10)
        d.append(element)
        return d.as_svg()

    points = [(1, 2), (3.5, 4), (5, 6.25)]
    assert text(_polyline(points, stroke="red")) == text(dw.Lines(1, 2, 3.5, 4, 5, 6.25, close=False, stroke="red"))


# --- 10. the viewer names the store's file, not its folder ----------------------------------------------------------


def test_a_viewer_refusal_names_the_store_file_only(tmp_path):
    from labyrinth.view.viewer import Viewer

    db = _store_with_a_finding(tmp_path / "s.db")
    viewer = Viewer(str(db))
    try:
        assert viewer.meta()["store"] == "s.db"
        with pytest.raises(LabyrinthError) as err:
            viewer.finding("99")
    finally:
        viewer.close()
    assert "no such finding" in str(err.value) and str(tmp_path) not in str(err.value) and "s.db" in str(err.value)


def test_an_error_about_a_101x101_state_quotes_it_short_and_keeps_it_whole(capfd):
    """A refused 10 000-move state gives one short line (its size, start, end and length), not the state itself."""
    moves = ("R" * 100 + "D" + "L" * 100 + "D") * 49 + "R" * 90
    status = main(["minimize", "--moves", f"101:{moves}"])
    err = capfd.readouterr().err.strip()
    assert status == 2 and "\n" not in err
    assert err.startswith("labyrinth: 101:RRRR") and f"({len(moves)} moves)" in err and len(err) < 300
    with pytest.raises(LabyrinthError) as caught:
        raise LabyrinthError("a reason", source=f"101:{moves}")
    assert caught.value.source == f"101:{moves}"
