"""The viewer's server under hostile input (issue 18.8): strict sizes and ids, bounded bodies, no stalls.

Every request goes to 127.0.0.1. Bad input is a 400/404/411/413 JSON answer,
never a 500, a dropped connection or a traceback; a slow request holds only
its own oracle, so other clients keep being answered; a burst of 32 clients
is answered in full (listen backlog).
"""

import http.client
import json
import select
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest

import labyrinth.view.viewer as viewer_module
from labyrinth.engine import Board, parse_compact, parse_trace
from labyrinth.errors import BoardSizeError, FormatError, LabyrinthError
from labyrinth.view.server import BACKLOG, MAX_BODY, make_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A viewer server on a free port of 127.0.0.1 over an empty findings store."""
    from verify import Store

    db = tmp_path_factory.mktemp("hardening") / "empty.db"
    Store(db).close()
    srv = make_server(db, port=0, time_limit=10)
    srv.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _request(server, path, body=None, timeout=300):
    """``(status, JSON answer)`` of a GET, or of a POST when ``body`` is given (an object or raw bytes)."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(server.url.rstrip("/") + path, data=data)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def _raw(server, data, *, close_write=False):
    """Send raw bytes on a fresh connection; ``(status, JSON answer)`` of what comes back."""
    host, port = server.server_address[:2]
    chunks = []
    with socket.create_connection((host, port), timeout=30) as sock:
        sock.sendall(data)
        if close_write:
            sock.shutdown(socket.SHUT_WR)
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/"), f"no answer, the connection was dropped: {head[:80]!r}"
    return int(head.split(b" ", 2)[1]), json.loads(body)


def _post(length_header, body=b""):
    """A raw POST /api/load with the given Content-Length header line (None: no such header)."""
    lines = [b"POST /api/load HTTP/1.1", b"Host: 127.0.0.1", b"Content-Type: application/json"]
    if length_header is not None:
        lines.append(length_header)
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def _alive(server):
    code, meta = _request(server, "/api/meta")
    assert code == 200 and meta["max_n"] == viewer_module.MAX_N


def _no_traceback(capfd):
    err = capfd.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err


# --- sizes and ids: strict ASCII digits, bounded, checked before any board is built ----------------------------
SIZE_CASES = [
    ("+99999999999999999999:R", "digits 0-9"),
    ("1_000_001:R", "digits 0-9"),
    ("\u00b2:R", "digits 0-9"),  # a superscript two: str.isdigit() says yes, int() says no
    ("\u0667:RR", "digits 0-9"),  # an Arabic-Indic seven: int() reads it as 7
    ("+101:R", "digits 0-9"),
    ("-7:R", "digits 0-9"),
    ("101:R", "up to 49"),
    ("301:R", "up to 49"),
    ("0000000000000000000000051:R", "up to 49"),
    ("9" * 5000 + ":R", "up to 49"),
    ("101", "up to 49"),
]


@pytest.mark.parametrize("state, words", SIZE_CASES)
def test_bad_board_size_in_view_is_400_naming_input_and_limit(server, capfd, state, words):
    code, answer = _request(server, "/api/view?state=" + urllib.parse.quote(state))
    assert code == 400 and words in answer["error"] and "49" in answer["error"]
    assert state.split(":")[0][:10] in answer["error"]  # names the input (a long one cut short)
    _alive(server)
    _no_traceback(capfd)


@pytest.mark.parametrize("state, words", SIZE_CASES + [
    ("101|1-1,1;0-1,2", "up to 49"),
    ("+9|1-1,1;0-1,2", "digits 0-9"),
    ("5|1,1;\u0662,1", "expected X,Y"),  # an Arabic-Indic two as a coordinate
    ("7|1,1;" + "9" * 5000 + ",1", "coordinate too large"),
])
def test_bad_board_size_in_load_is_400(server, capfd, state, words):
    code, answer = _request(server, "/api/load", {"text": state})
    assert code == 400 and words in answer["error"]
    _alive(server)
    _no_traceback(capfd)


@pytest.mark.parametrize("fid, words", [
    ("99999999999999999999999", "at most 18 digits"),
    ("\u00b2", "digits 0-9"),
    ("+1", "digits 0-9"),
    ("-1", "digits 0-9"),
    ("1_0", "digits 0-9"),
    ("", "give a finding id"),
    ("999999999999999999", "no such finding"),  # well-formed, fits SQLite, absent
])
def test_bad_finding_id_is_400(server, capfd, fid, words):
    path = "/api/finding" if fid == "" else "/api/finding?id=" + urllib.parse.quote(fid)
    code, answer = _request(server, path)
    assert code == 400 and words in answer["error"]
    _alive(server)
    _no_traceback(capfd)


def test_load_rejects_odd_json_values(server, capfd):
    assert _request(server, "/api/load", {"text": "5:RR", "rules": [[["x"]]]})[0] == 400
    assert _request(server, "/api/load", {"text": {"a": 1}})[0] == 400
    assert _request(server, "/api/load", [1, 2])[0] == 400
    assert _request(server, "/api/load", b"1" * 5000)[0] == 400  # an int too long for int()
    _alive(server)
    _no_traceback(capfd)


# --- request bodies: Content-Length checked, size bounded, nesting bounded ----------------------------------
@pytest.mark.parametrize("data, expected, words", [
    (_post(b"Content-Length: abc", b"{}"), 400, "Content-Length"),
    (_post(b"Content-Length: -5", b"{}"), 400, "Content-Length"),
    (_post(b"Content-Length: +2", b"{}"), 400, "Content-Length"),
    (_post(b"Content-Length: 1_0", b"{}"), 400, "Content-Length"),
    (_post(b"Content-Length: \xc2\xb2", b"{}"), 400, "Content-Length"),
    (_post(None), 411, "Content-Length"),
    (_post(b"Transfer-Encoding: chunked", b"2\r\n{}\r\n0\r\n\r\n"), 411, "Content-Length"),
    (_post(b"Content-Length: 99999999999999999999999"), 413, "too large"),
    (_post(b"Content-Length: %d" % (MAX_BODY + 1), b"{"), 413, "too large"),
    (_post(b"Content-Length: 200000", b"[" * 200000), 400, "JSON"),  # nested past the recursion limit
])
def test_bad_request_bodies_are_answered_not_dropped(server, capfd, data, expected, words):
    code, answer = _raw(server, data)
    assert code == expected and words in answer["error"]
    _alive(server)
    _no_traceback(capfd)


def test_a_body_that_stops_short_is_400(server, capfd):
    code, answer = _raw(server, _post(b"Content-Length: 100", b'{"text": '), close_write=True)
    assert code == 400 and "ended early" in answer["error"]
    _alive(server)
    _no_traceback(capfd)


# --- concurrency: a burst of clients, and a slow request beside fast ones ------------------------------------
def test_32_concurrent_clients_are_all_answered(server, capfd):
    assert server.request_queue_size == BACKLOG >= 32
    start = threading.Barrier(32)
    codes = [None] * 32

    def client(i):
        start.wait()
        try:
            codes[i] = _request(server, "/api/meta" if i % 2 else "/api/view?state=5:RRDD")[0]
        except OSError as err:  # a reset connection
            codes[i] = repr(err)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert codes == [200] * 32
    _no_traceback(capfd)


def test_a_slow_view_does_not_block_other_clients(server, capfd, monkeypatch):
    """One view held inside its oracle work until the others are answered: views, loads and meta still run."""
    slow_state, real = "9:RRDDLLDD", viewer_module.describe
    started, release = threading.Event(), threading.Event()

    def held(state, *args, **kwargs):
        if state.compact() == slow_state:
            started.set()
            release.wait(300)
        return real(state, *args, **kwargs)

    monkeypatch.setattr(viewer_module, "describe", held)
    finished = []
    slow = threading.Thread(
        target=lambda: finished.append(("slow", _request(server, f"/api/view?state={slow_state}")[0])))
    slow.start()
    try:
        assert started.wait(300)  # generous waits: a busy machine is slow, never wrong
        assert _request(server, "/api/view?state=7:RRDDL", timeout=300)[0] == 200  # needs an oracle of its own
        assert _request(server, "/api/load", {"text": "7:RRDDLD"}, timeout=300)[0] == 200
        assert _request(server, "/api/meta", timeout=300)[0] == 200
        finished.append(("fast", 200))
        assert slow.is_alive() and not release.is_set()  # the fast ones finished while the slow one waited
    finally:
        release.set()
        slow.join(300)
    assert finished == [("fast", 200), ("slow", 200)]
    _no_traceback(capfd)


def test_meta_answers_while_the_biggest_board_searches_its_pattern(server, capfd, monkeypatch):
    """A real heavy request (49x49, dead, minimal pattern search): /api/meta finishes before it does."""
    heavy_state, real = "49:RRRRDDLLLLDDRRR", viewer_module.stuck_pattern
    searching, answered = threading.Event(), threading.Event()

    def search(dead, **kwargs):
        searching.set()
        answered.wait(300)  # the search goes on only once /api/meta is answered (or never is: then it fails)
        return real(dead, **{**kwargs, "time_limit": 600})  # however busy the machine, the pattern is found

    monkeypatch.setattr(viewer_module, "stuck_pattern", search)
    finished = []

    def heavy():
        code, answer = _request(server, f"/api/view?state={heavy_state}")
        finished.append(("heavy", code, answer["status"], answer["pattern"] is not None))

    t = threading.Thread(target=heavy)
    t.start()
    try:
        assert searching.wait(300)
        code, _ = _request(server, "/api/meta", timeout=300)
        finished.append(("meta", code))
        answered.set()
    finally:
        answered.set()
        t.join(900)
    assert finished == [("meta", 200), ("heavy", 200, "dead", True)]
    _no_traceback(capfd)


# --- the library's own parsers ----------------------------------------------------------------------------
@pytest.mark.parametrize("size", ["+7", "\u0667", "1_1", "\u00b2", " 7x", "-7", "7.0"])
def test_board_size_text_is_ascii_digits_only(size):
    with pytest.raises(BoardSizeError):
        Board(size)
    with pytest.raises(LabyrinthError):
        parse_compact(f"{size}:RR")


def test_board_size_text_still_reads_plain_digits():
    assert Board(" 7 ").n == 7 and parse_compact("07:RR").n == 7
    with pytest.raises(BoardSizeError, match="too large"):
        Board("9" * 20)


def test_research_coordinates_are_ascii_digits():
    assert parse_trace("5|1,1;2,1").state.moves == "R"
    with pytest.raises(FormatError):
        parse_trace("5|1,1;\u0662,1")
    with pytest.raises(FormatError, match="too large"):
        parse_trace("5|1,1;" + "9" * 20 + ",1")


def test_store_finding_id_beyond_sqlite_integers_is_not_found(tmp_path):
    from verify import Store
    from verify.store import StoreError

    with Store(tmp_path / "s.db") as store:
        for fid in (2**63, -(2**63) - 1, 10**30):
            with pytest.raises(StoreError, match="no such finding"):
                store.finding(fid)


# --- HEAD, and a client too slow to send its request (issue 28.9) ---------------------------------------------
@pytest.fixture(scope="module")
def impatient(tmp_path_factory):
    """A viewer server that gives a request half a second to arrive whole."""
    srv = make_server(None, port=0, time_limit=10, request_timeout=0.5)
    srv.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.mark.parametrize("path", ["/", "/api/meta", "/api/view?state=5:RRDD", "/nosuch"])
def test_head_gives_the_headers_of_get_without_a_body(server, path):
    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=60)
    try:
        conn.request("GET", path)
        got = conn.getresponse()
        body = got.read()
        conn.request("HEAD", path)
        head = conn.getresponse()
        assert head.read() == b""  # and the connection stays usable: no stray body bytes
        assert (head.status, head.getheader("Content-Type"), head.getheader("Content-Length")) == (
            got.status, got.getheader("Content-Type"), str(len(body)))
        conn.request("GET", "/api/meta")
        assert conn.getresponse().status == 200
    finally:
        conn.close()


def _slowly(server, parts, pause):
    """Send ``parts`` with ``pause`` seconds between them (stopping when the server answers).

    Returns what came back, and whether the server closed the connection.
    """
    host, port = server.server_address[:2]
    reply, closed = b"", False
    with socket.create_connection((host, port), timeout=30) as sock:
        for part in parts:
            try:
                sock.sendall(part)
            except OSError:
                break
            if select.select([sock], [], [], pause)[0]:  # the server answered (and closed) meanwhile
                break
        while True:
            try:
                chunk = sock.recv(65536)
            except OSError:  # reset, or 30 s without a word
                break
            if not chunk:
                closed = True
                break
            reply += chunk
    return reply, closed


@pytest.mark.parametrize("parts, pause", [
    ([b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n"], 5.0),  # the headers never end
    ([bytes([c]) for c in b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Pad: " + b"x" * 200], 0.05),  # a trickle
    ([b"POST /api/load HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{\"text\": "], 5.0),  # the body stops short
], ids=["stalled headers", "trickle", "stalled body"])
def test_a_client_too_slow_to_send_its_request_gets_408(impatient, parts, pause, capfd):
    reply, closed = _slowly(impatient, parts, pause)
    head, _, body = reply.partition(b"\r\n\r\n")
    assert closed
    assert head.split(b" ", 2)[1] == b"408", reply[:200]
    assert "did not arrive within 0.5 s" in json.loads(body)["error"]
    _alive(impatient)
    _no_traceback(capfd)


def test_an_idle_connection_is_closed_without_an_answer(impatient):
    assert _slowly(impatient, [b""], 5.0) == (b"", True)  # nothing was asked: nothing to answer, but let go
