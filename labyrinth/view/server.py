"""``labyrinth serve``: the viewer's local web server, a thin layer of HTTP over :class:`~labyrinth.view.viewer.Viewer`.

Routes: ``GET /`` the page (``static/viewer.html``, one file with inline CSS
and JavaScript); ``GET /api/meta``, ``GET /api/view?state=N:MOVES&rules=R``,
``POST /api/load`` (JSON ``{"text": ..., "rules": ...}``), ``GET /api/findings``
and ``GET /api/finding?id=K``; ``HEAD`` of any of them gives the headers of
its ``GET``. Answers are JSON; bad input is a 400 with
``{"error": message}`` (411 without a Content-Length, 413 for a body over
:data:`MAX_BODY`), which the page shows: a user's mistake is never a server
error, and no request drops the connection. A request must arrive whole within
:data:`REQUEST_TIMEOUT` seconds (a client trickling it byte by byte too), else
it is answered 408 and the connection closed. Requests run in their own
threads and a slow one holds only its own oracle. Binds 127.0.0.1 unless told
otherwise.
"""

import io
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from labyrinth.errors import LabyrinthError
from labyrinth.view.viewer import _DIGITS, Viewer, _clip

__all__ = ["BACKLOG", "MAX_BODY", "REQUEST_TIMEOUT", "ViewerServer", "make_server", "page"]

#: the largest request body accepted, in bytes (a load box's text is at most MAX_TEXT characters, plus JSON)
MAX_BODY = 1 << 20
#: connections waiting to be accepted (the listen backlog): a burst of clients queues instead of being reset
BACKLOG = 128
#: seconds a client may take to send its whole request (a stalled or trickling one gets a 408, not a thread for ever)
REQUEST_TIMEOUT = 30
#: bytes already sent by a client that an early error answer reads and drops, so closing does not reset it
_DRAIN_BYTES = 1 << 16


def page():
    """The viewer page's HTML (bytes)."""
    return resources.files("labyrinth.view").joinpath("static", "viewer.html").read_bytes()


class ViewerServer(ThreadingHTTPServer):
    """A threading HTTP server carrying one :class:`Viewer` (``.viewer``); ``url`` is where it listens."""

    daemon_threads = True
    request_queue_size = BACKLOG

    def __init__(self, address, viewer, *, quiet=True, request_timeout=REQUEST_TIMEOUT):
        self.viewer = viewer
        self.quiet = quiet
        self.request_timeout = request_timeout
        super().__init__(address, _Handler)

    @property
    def url(self):
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self):
        """Serve in a background thread (for tests); returns the thread."""
        t = threading.Thread(target=self.serve_forever, name="labyrinth-viewer", daemon=True)
        t.start()
        return t

    def handle_error(self, request, client_address):
        """One line, not a traceback, for an error that escaped a handler; a client that left is not one."""
        err = sys.exc_info()[1]
        if isinstance(err, (ConnectionError, TimeoutError)):
            return
        sys.stderr.write(f"labyrinth serve: internal error with {client_address[0]}: {type(err).__name__}: {err}\n")

    def server_close(self):
        super().server_close()
        self.viewer.close()


def make_server(db=None, *, host="127.0.0.1", port=8000, backend="auto", time_limit=5.0, rule_sets=None,
                quiet=True, request_timeout=REQUEST_TIMEOUT):
    """A :class:`ViewerServer` bound to ``host:port`` (port 0: any free port), not yet serving."""
    viewer = Viewer(db, rule_sets, backend=backend, time_limit=time_limit)
    try:
        return ViewerServer((host, port), viewer, quiet=quiet, request_timeout=request_timeout)
    except OSError as err:
        viewer.close()
        raise LabyrinthError(f"cannot listen there: {err.strerror or err}", token=f"{host}:{port}") from None


class _Clocked(io.RawIOBase):
    """A connection's bytes, read against the deadline of the request under way (a trickle is cut off too)."""

    def __init__(self, sock):
        self.sock = sock
        self.deadline = None
        self.received = 0
        self.timed_out = False

    def begin(self, seconds):
        """A new request: ``seconds`` from now for all of it."""
        self.deadline = time.monotonic() + seconds
        self.received = 0
        self.timed_out = False

    def readable(self):
        return True

    def readinto(self, buffer):
        left = self.deadline - time.monotonic() if self.deadline is not None else None
        try:
            if left is not None:
                if left <= 0:
                    raise TimeoutError("the request took too long")
                self.sock.settimeout(left)
            got = self.sock.recv_into(buffer)
        except TimeoutError:
            self.timed_out = True
            raise
        self.received += got
        return got


class _Handler(BaseHTTPRequestHandler):
    server_version = "labyrinth-viewer"
    timeout = REQUEST_TIMEOUT
    _answered = False
    _head = False

    def setup(self):
        self.timeout = self.server.request_timeout
        super().setup()
        self._clock = _Clocked(self.connection)
        self.rfile = io.BufferedReader(self._clock)

    def handle_one_request(self):
        """One request, read within the deadline; a client too slow to send it is answered 408 and let go."""
        self._clock.begin(self.timeout)
        self._answered = False
        super().handle_one_request()  # a time-out closes the connection there
        if self._clock.timed_out and self._clock.received and not self._answered:
            self._too_slow()

    def _too_slow(self):
        body = json.dumps({"error": f"the request did not arrive within {self.timeout:g} s"}).encode("utf-8")
        head = ("HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode("ascii")
        self._answered = True
        try:
            self.connection.settimeout(5)  # a client that does not read its answer is not waited for either
            self.connection.sendall(head + body)
        except OSError:
            pass

    def log_message(self, fmt, *args):
        if not self.server.quiet:
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

    def do_GET(self):
        self._guarded(self._get)

    def do_HEAD(self):
        """The headers a GET would get (the same status, type and length), without the body."""
        self._head = True
        try:
            self._guarded(self._get)
        finally:
            self._head = False

    def do_POST(self):
        self._guarded(self._post)

    def _guarded(self, route):
        """Run a route so that nothing escapes: an unexpected error is a 500 answer, a client gone is let go."""
        self._answered = False
        try:
            route()
        except (ConnectionError, TimeoutError):
            self.close_connection = True
        except Exception as err:  # a genuine bug: answer it rather than drop the connection
            self.close_connection = True
            self.log_error("internal error: %r", err)
            if not self._answered:
                self._json(500, {"error": f"internal error: {type(err).__name__}: {err}"})

    def _get(self):
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        viewer = self.server.viewer
        if url.path in ("/", "/index.html"):
            return self._send(200, page(), "text/html; charset=utf-8")
        if url.path == "/favicon.ico":
            return self._send(204, b"", "image/x-icon")
        routes = {
            "/api/meta": lambda: viewer.meta(),
            "/api/view": lambda: viewer.view(query.get("state", ""), query.get("rules")),
            "/api/findings": lambda: viewer.findings(),
            "/api/finding": lambda: viewer.finding(query.get("id")),
        }
        if url.path not in routes:
            return self._json(404, {"error": f"no such page: {_clip(url.path)}"})
        self._answer(routes[url.path])

    def _post(self):
        url = urlsplit(self.path)
        if url.path != "/api/load":
            self._drain()
            return self._json(404, {"error": f"no such page: {_clip(url.path)}"})
        raw = self._body()
        if raw is None:
            return
        try:
            body = json.loads(raw.decode("utf-8") or "{}")
        except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: nested too deeply
            return self._json(400, {"error": "the request is not a JSON object"})
        if not isinstance(body, dict):
            return self._json(400, {"error": "the request is not a JSON object"})
        self._answer(lambda: self.server.viewer.load(body.get("text"), body.get("rules")))

    def _body(self):
        """The request body, its Content-Length checked first (ASCII digits, at most MAX_BODY); None once answered."""
        if self.headers.get("Transfer-Encoding"):
            self._drain()
            self._json(411, {"error": "send the body with a Content-Length (no Transfer-Encoding)"})
            return None
        length = self.headers.get("Content-Length")
        if length is None:
            self._drain()
            self._json(411, {"error": "a POST needs a Content-Length header"})
            return None
        length = length.strip()
        if not _DIGITS.fullmatch(length):
            self._drain()
            self._json(400, {"error": f"Content-Length must be a number of bytes (digits 0-9), got {_clip(length)!r}"})
            return None
        if len(length.lstrip("0")) > len(str(MAX_BODY)) or int(length) > MAX_BODY:
            self._drain()
            self._json(413, {"error": f"the request body is too large ({_clip(length)} bytes, at most {MAX_BODY})"})
            return None
        size = int(length)
        try:
            raw = self.rfile.read(size)
        except TimeoutError:
            self.close_connection = True
            self._json(408, {"error": f"the request did not arrive within {self.timeout:g} s"})
            return None
        if len(raw) < size:
            self._json(400, {"error": f"the request body ended early ({len(raw)} of {size} bytes)"})
            return None
        return raw

    def _drain(self):
        """Read and drop what the client already sent (a little, briefly), so the close does not reset it."""
        self.close_connection = True
        try:
            self._clock.deadline = min(self._clock.deadline, time.monotonic() + 0.1)
            left = _DRAIN_BYTES
            while left > 0:
                chunk = self.rfile.read1(min(left, 8192))
                if not chunk:
                    break
                left -= len(chunk)
        except (OSError, ValueError):
            pass
        finally:
            try:
                self.connection.settimeout(self.timeout)
            except OSError:
                pass

    def _answer(self, work):
        try:
            out = work()
        except LabyrinthError as err:
            return self._json(400, {"error": str(err)})
        self._json(200, out)

    def _json(self, code, obj):
        self._send(code, json.dumps(obj).encode("utf-8"), "application/json")

    def _send(self, code, data, kind):
        self._answered = True
        try:
            self.connection.settimeout(self.timeout)  # writing gets its own time, not what reading left
        except OSError:
            pass
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        try:
            if not self._head:
                self.wfile.write(data)
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the page moved on (a newer step) before this answer arrived

