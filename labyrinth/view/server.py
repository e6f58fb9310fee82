"""``labyrinth serve``: the viewer's local web server, a thin layer of HTTP over :class:`~labyrinth.view.viewer.Viewer`.

Routes: ``GET /`` the page (``static/viewer.html``, one file with inline CSS
and JavaScript); ``GET /api/meta``, ``GET /api/view?state=N:MOVES&rules=R``,
``POST /api/load`` (JSON ``{"text": ..., "rules": ...}``), ``GET /api/findings``
and ``GET /api/finding?id=K``. Answers are JSON; bad input is a 400 with
``{"error": message}``, which the page shows: a user's mistake is never a
server error. Binds 127.0.0.1 unless told otherwise.
"""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from labyrinth.errors import LabyrinthError
from labyrinth.view.viewer import MAX_TEXT, Viewer

__all__ = ["ViewerServer", "make_server", "page"]


def page():
    """The viewer page's HTML (bytes)."""
    return resources.files("labyrinth.view").joinpath("static", "viewer.html").read_bytes()


class ViewerServer(ThreadingHTTPServer):
    """A threading HTTP server carrying one :class:`Viewer` (``.viewer``); ``url`` is where it listens."""

    daemon_threads = True

    def __init__(self, address, viewer, *, quiet=True):
        self.viewer = viewer
        self.quiet = quiet
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

    def server_close(self):
        super().server_close()
        self.viewer.close()


def make_server(db=None, *, host="127.0.0.1", port=8000, backend="auto", time_limit=5.0, rule_sets=None,
                quiet=True):
    """A :class:`ViewerServer` bound to ``host:port`` (port 0: any free port), not yet serving."""
    viewer = Viewer(db, rule_sets, backend=backend, time_limit=time_limit)
    try:
        return ViewerServer((host, port), viewer, quiet=quiet)
    except OSError as err:
        viewer.close()
        raise LabyrinthError(f"cannot listen there: {err.strerror or err}", token=f"{host}:{port}") from None


class _Handler(BaseHTTPRequestHandler):
    server_version = "labyrinth-viewer"

    def log_message(self, fmt, *args):
        if not self.server.quiet:
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

    def do_GET(self):
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
            return self._json(404, {"error": f"no such page: {url.path}"})
        self._answer(routes[url.path])

    def do_POST(self):
        url = urlsplit(self.path)
        if url.path != "/api/load":
            return self._json(404, {"error": f"no such page: {url.path}"})
        length = int(self.headers.get("Content-Length") or 0)
        if length > 4 * MAX_TEXT:
            return self._json(413, {"error": "the text is too long"})
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw.decode("utf-8") or "{}")
            if not isinstance(body, dict):
                raise ValueError("not an object")
        except (UnicodeDecodeError, ValueError):
            return self._json(400, {"error": "the request is not a JSON object"})
        self._answer(lambda: self.server.viewer.load(body.get("text"), body.get("rules")))

    def _answer(self, work):
        try:
            out = work()
        except LabyrinthError as err:
            return self._json(400, {"error": str(err)})
        except Exception as err:  # never a bare server error: the page shows what went wrong
            self.log_error("internal error: %r", err)
            return self._json(500, {"error": f"internal error: {type(err).__name__}: {err}"})
        self._json(200, out)

    def _json(self, code, obj):
        self._send(code, json.dumps(obj).encode("utf-8"), "application/json")

    def _send(self, code, data, kind):
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page moved on (a newer step) before this answer arrived
