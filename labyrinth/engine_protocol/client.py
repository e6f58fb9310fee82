"""An external rule engine as a child process: start, handshake, timed requests, clean shutdown.

The engine reads JSON lines on its stdin and answers on its stdout
(:mod:`labyrinth.engine_protocol.messages`). Every request has a deadline:
the pipe is watched with :mod:`selectors` (both ways, so an engine that
stops reading cannot block the verifier either), and an engine that exits,
hangs past ``timeout`` seconds or answers garbage raises an
:class:`~labyrinth.errors.EngineError`. What it prints on stderr is read
from a pipe as it comes (watched with the other two): its last
:data:`STDERR_TAIL` bytes are kept, the rest only counted, so memory and
disk stay bounded whatever the engine writes; the last line is quoted when
it crashes. Request latency (the round trip, as the verifier sees it) is
kept in :class:`Latency`.
"""

import collections
import math
import os
import selectors
import shlex
import signal
import subprocess
import time

from labyrinth.engine_protocol.messages import (
    MAX_LINE,
    PUZZLE,
    dumps,
    hello_request,
    parse_answer,
    parse_hello,
)
from labyrinth.errors import EngineError, one_line

__all__ = ["ENGINE_TIMEOUT", "STDERR_TAIL", "EngineProcess", "Latency", "bucket", "median_seconds"]

#: seconds an engine may take to answer one request (and its handshake) by default
ENGINE_TIMEOUT = 10.0
#: seconds an engine may take to start and say hello (loading a model or compiling can take a while)
START_SECONDS = 60.0
#: seconds a quitting engine gets to exit before it is killed
QUIT_SECONDS = 2.0
#: bytes of an engine's stderr kept (its end); what it writes before them is counted and dropped
STDERR_TAIL = 64 << 10
#: the most stderr read at one go, so that an engine writing without end cannot keep the verifier from its answer
_DRAIN_BYTES = 1 << 20
#: latency histogram buckets per decade (a median read from it is within about 6%)
BUCKETS_PER_DECADE = 20


class Latency:
    """Round-trip times of an engine's requests: count, states asked, total, max, and a log histogram."""

    def __init__(self):
        self.requests = 0
        self.states = 0
        self.seconds = 0.0
        self.max = 0.0
        self.histogram = collections.Counter()

    def add(self, seconds, states=1):
        self.requests += 1
        self.states += states
        self.seconds += seconds
        self.max = max(self.max, seconds)
        self.histogram[bucket(seconds)] += 1

    def take(self):
        """This object's figures, and a fresh start (a unit of work reads its own share)."""
        out = (self.requests, self.states, self.seconds, self.max, self.histogram)
        self.__init__()
        return out


def bucket(seconds):
    """The histogram bucket of a latency: ``round(20 * log10(microseconds))``, as a string (a JSON key).

    >>> bucket(0.001), bucket(1e-6)
    ('60', '0')
    """
    return str(round(BUCKETS_PER_DECADE * math.log10(max(seconds * 1e6, 1.0))))


def median_seconds(histogram):
    """The median latency read from a :func:`bucket` histogram (None when empty).

    >>> round(median_seconds({"60": 3, "80": 1}), 6)
    0.001
    """
    total = sum(histogram.values())
    if not total:
        return None
    seen = 0
    for key in sorted(histogram, key=int):
        seen += histogram[key]
        if 2 * seen >= total:
            return 10 ** (int(key) / BUCKETS_PER_DECADE) / 1e6
    return None


class EngineProcess:
    """One running engine: ``decide(states)`` sends a request and returns the checked Decisions.

    Parameters
    ----------
    command : str
        The engine's command line (split as a POSIX shell would, not run by one).
    timeout : float
        Seconds for each request (the handshake gets at least :data:`START_SECONDS`).
    client : str
        How the verifier names itself in its hello.
    """

    def __init__(self, command, *, timeout=ENGINE_TIMEOUT, client="labyrinth"):
        self.command = command
        self.timeout = timeout
        self.client = client
        self.info = None
        self.latency = Latency()
        self._proc = None
        self._buf = bytearray()
        self._next_id = 0
        self._stderr = None
        self._pid = None
        self._limit = timeout

    @property
    def label(self):
        """The engine's name for messages: its handshake name once known, else its command."""
        return self.info.name if self.info is not None else self.command

    def start(self):
        """Start the process and read its hello (idempotent)."""
        if self._proc is not None:
            return self.info
        try:
            argv = shlex.split(self.command)
        except ValueError as err:
            raise EngineError(f"cannot read the command: {err}", engine=self.command) from None
        if not argv:
            raise EngineError("empty engine command", engine=repr(self.command))
        try:
            # a session, so a process group, of its own: whatever the engine starts is ended with it (close);
            # Ctrl-C at the terminal reaches the verifier only, which then closes the engine
            self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          bufsize=0, close_fds=True, start_new_session=True)
        except OSError as err:
            raise EngineError(f"cannot start: {err.strerror or err}", engine=self.command) from None
        self._pid = os.getpid()
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._stderr = _Tail(self._proc.stderr.fileno())
        hello = hello_request(self.client)
        line = self._round_trip(hello, max(self.timeout, START_SECONDS))
        try:
            self.info = parse_hello(line, engine=self.command, request=_dump(hello))
        except EngineError:
            self.close()
            raise
        return self.info

    @property
    def running(self):
        """Whether a process is attached (started here, or inherited through fork)."""
        return self._proc is not None

    def owned(self):
        """Whether this process started the engine (a forked worker must start its own)."""
        return self._proc is not None and self._pid == os.getpid()

    def decide(self, states):
        """Decisions about ``states`` (one request: a batch when there are several)."""
        self.start()
        n = states[0].n
        if not self.info.supports(n):
            raise EngineError(f"the engine does not play {n}x{n} boards (it plays {self.info.sizes_text()})",
                              engine=self.label)
        self._next_id += 1
        rid = self._next_id
        request = {"type": "decide", "id": rid, "puzzle": PUZZLE}
        if len(states) == 1:
            request["state"] = states[0].compact()
        else:
            request["states"] = [s.compact() for s in states]
        t0 = time.perf_counter()
        line = self._round_trip(request)
        self.latency.add(time.perf_counter() - t0, len(states))
        return parse_answer(line, states, engine=self.label, request=_dump(request), rid=rid)

    # --- the pipe ---------------------------------------------------------------------
    def _round_trip(self, obj, seconds=None):
        text = _dump(obj)
        self._limit = self.timeout if seconds is None else seconds
        deadline = time.monotonic() + self._limit
        self._write(text.encode() + b"\n", deadline, text)
        return self._read_line(deadline, text)

    def _crashed(self, request, what):
        code = self._proc.poll()
        if code is None:
            try:
                code = self._proc.wait(0.2)
            except subprocess.TimeoutExpired:
                code = None
        tail = self._stderr_tail()
        status = "exited" if code is None else f"exited with status {code}"
        if code is not None and code < 0:
            status = f"was killed by signal {-code}"
        reason = f"the engine {status} {what}" + (f" (its stderr: {tail})" if tail else "")
        self.close(polite=False)
        raise EngineError(reason, engine=self.label, request=request)

    def _watch(self, sel):
        """Watch the engine's stderr too (while it is open): read as it comes, it never fills its pipe."""
        if self._stderr is not None and not self._stderr.ended:
            sel.register(self._stderr.fd, selectors.EVENT_READ)

    def _ready(self, sel, left, fd):
        """Wait up to ``left`` seconds for ``fd``, reading stderr meanwhile; whether ``fd`` is ready."""
        for key, _ in sel.select(left):
            if key.fd == fd:
                return True
            self._stderr.drain()
            if self._stderr.ended:
                sel.unregister(key.fd)
        return False

    def _write(self, data, deadline, request):
        fd = self._proc.stdin.fileno()
        os.set_blocking(fd, False)
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            self._watch(sel)
            while data:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._timed_out(request, "reading the request")
                if not self._ready(sel, left, fd):
                    continue
                try:
                    sent = os.write(fd, data)
                except BrokenPipeError:
                    self._crashed(request, "before reading the request")
                except BlockingIOError:
                    continue
                data = data[sent:]

    def _read_line(self, deadline, request):
        fd = self._proc.stdout.fileno()
        end = self._buf.find(b"\n")
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            self._watch(sel)
            while end < 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._timed_out(request, "answering")
                if not self._ready(sel, left, fd):
                    continue
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    if self._buf.strip():
                        line, self._buf = bytes(self._buf), bytearray()
                        raise EngineError("the engine exited in the middle of its answer", engine=self.label,
                                          request=request, answer=_text(line[:200]))
                    self._crashed(request, "instead of answering")
                found = chunk.find(b"\n")  # only the new bytes are searched: a long line is read in linear time
                if found >= 0:
                    end = len(self._buf) + found
                self._buf += chunk
                if len(self._buf) > MAX_LINE and (end < 0 or end > MAX_LINE):
                    head = bytes(self._buf[:200])
                    self.close(polite=False)
                    raise EngineError(f"an answer longer than {MAX_LINE >> 20} MiB", engine=self.label,
                                      request=request, answer=_text(head))
        line = bytes(self._buf[:end])
        del self._buf[:end + 1]
        return _text(line)

    def _timed_out(self, request, what):
        self.close(polite=False)
        raise EngineError(f"no answer within {self._limit:g} s ({what}): the engine hangs or is too slow "
                          "(--engine-timeout SECONDS gives it more)", engine=self.label, request=request)

    def stderr_tail(self):
        """What the engine wrote on stderr so far: its last :data:`STDERR_TAIL` bytes, and how many came before."""
        if self._stderr is None:
            return b"", 0
        self._stderr.drain()
        return bytes(self._stderr.kept), self._stderr.dropped

    def _stderr_tail(self):
        kept, dropped = self.stderr_tail()
        lines = kept[-400:].decode("utf-8", "replace").strip().splitlines()
        if not lines:
            return ""
        return one_line(lines[-1], 200) + (f"; {_bytes(dropped)} of it before that not kept" if dropped else "")

    # --- shutdown ---------------------------------------------------------------------
    def close(self, polite=True):
        """Say ``quit``, close the pipe, wait :data:`QUIT_SECONDS` for the engine to exit, then end its process group.

        Whatever the engine started (its process group) is killed with it, so
        no helper outlives the run. In a forked child that did not start the
        engine, only drop the inherited handles.
        """
        proc, self._proc = self._proc, None
        if proc is None:
            return
        mine = self._pid == os.getpid()
        try:
            if mine and polite and proc.poll() is None:
                try:  # never blocks: an engine that stopped reading is killed below all the same
                    os.write(proc.stdin.fileno(), b'{"type": "quit"}\n')
                except OSError:
                    pass
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            if mine:  # (an engine writing on stderr as it quits is read meanwhile, so it is not held up)
                _exited(proc, QUIT_SECONDS if polite else 0.05, self._stderr)
                _kill_group(proc.pid)  # the engine, if still running, and whatever it left behind
                proc.wait()
        finally:
            try:
                proc.stderr.close()
            except OSError:
                pass
            self._stderr = None
            self._buf = bytearray()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _exited(proc, seconds, tail=None):
    """Wait up to ``seconds`` for ``proc`` to exit, without reaping it: its id then still names its process group.

    ``tail``: the engine's :class:`_Tail`, read meanwhile.
    """
    end = time.monotonic() + seconds
    while True:
        if tail is not None:
            tail.drain()
        if proc.returncode is not None:
            return True
        try:
            if os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
        except ChildProcessError:  # reaped already
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(0.01)


def _kill_group(pgid):
    """SIGKILL every process of the group ``pgid`` (none left is fine)."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class _Tail:
    """The end of what an engine writes on stderr, read from its pipe (non-blocking) as it comes.

    ``kept`` holds the last :data:`STDERR_TAIL` bytes, ``dropped`` counts
    those before them; ``ended`` is set when the engine closed its stderr.
    """

    def __init__(self, fd):
        os.set_blocking(fd, False)
        self.fd = fd
        self.kept = bytearray()
        self.dropped = 0
        self.ended = False

    def drain(self):
        """Read what is waiting, at most :data:`_DRAIN_BYTES` at one go."""
        budget = _DRAIN_BYTES
        while budget > 0 and not self.ended:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # closed under us: nothing more to read
                chunk = b""
            if not chunk:
                self.ended = True
                return
            budget -= len(chunk)
            self.kept += chunk
            if len(self.kept) > STDERR_TAIL:
                cut = len(self.kept) - STDERR_TAIL
                del self.kept[:cut]
                self.dropped += cut


def _bytes(count):
    """A byte count for a message: ``512 bytes``, ``3.9 MB``, ``1.2 GB``."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count} bytes"


def _dump(obj):
    return dumps(obj)


def _text(raw):
    return raw.decode("utf-8", "replace").rstrip("\r")
