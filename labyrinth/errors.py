"""Typed exceptions: every error a user can cause, each printable as one line.

The CLI turns any :class:`LabyrinthError` into ``labyrinth: <message>`` and exit
status 2 (3 for a :class:`TimeLimitError`: the answer is unknown, not wrong);
the library raises them and never exits.
"""

__all__ = [
    "BackendError",
    "BoardSizeError",
    "CampaignExists",
    "CampaignInterrupted",
    "EngineError",
    "FormatError",
    "Interrupted",
    "LabyrinthError",
    "PathError",
    "TimeLimitError",
    "ToggleSizeError",
    "one_line",
    "shorten",
]


#: the longest source an error message quotes whole; a longer one (a 101x101 state) is shortened
SOURCE_CHARS = 80


def shorten(source, limit=SOURCE_CHARS):
    """``source`` as an error message quotes it: a state in compact notation past ``limit`` characters by its start and end.

    The shortened state keeps its size and says how many moves it has, so the
    message of a 10 000-move state stays one short line (the exception's
    ``source`` attribute keeps the whole text). Anything else (a file name) is
    quoted whole.

    >>> shorten("7:RRDD")
    '7:RRDD'
    >>> len(shorten("101:" + "RD" * 38))
    80
    >>> shorten("101:" + "RD" * 5000)
    '101:RDRDRDRDRDRDRDRDRDRDRDRDRDRDRDRDRDRD...RDRDRDRD (10000 moves)'
    >>> shorten("/data/" + "x" * 90 + ".txt") == "/data/" + "x" * 90 + ".txt"
    True
    """
    if len(source) <= limit:
        return source
    size, colon, moves = source.partition(":")
    if colon and size.isdigit() and moves.isalpha():
        return f"{size}:{moves[:36]}...{moves[-8:]} ({len(moves)} moves)"
    return source


class LabyrinthError(ValueError):
    """Base class: bad input named by its ``source``, the offending ``token`` and the ``reason``."""

    def __init__(self, reason, *, source=None, token=None):
        self.reason = reason
        self.source = source
        self.token = token
        super().__init__(self._message())

    def _message(self):
        parts = []
        if self.source is not None:
            parts.append(shorten(str(self.source)))
        if self.token is not None:
            parts.append(f"at {self.token!r}")
        prefix = " ".join(parts)
        return f"{prefix}: {self.reason}" if prefix else self.reason

    def located(self, source):
        """Return a copy that names ``source`` (a file or a batch line) if none is set yet."""
        if self.source is not None:
            return self
        return type(self)(self.reason, source=source, token=self.token)


class BoardSizeError(LabyrinthError):
    """The board size is not an odd integer >= 3."""


class PathError(LabyrinthError):
    """A path that cannot be drawn: off the board, not adjacent, repeated, or past the end corner."""


class FormatError(LabyrinthError):
    """Text that does not follow the compact ``N:MOVES`` notation or the research file grammar."""


class BackendError(LabyrinthError):
    """An oracle backend that does not exist or cannot run here."""


class TimeLimitError(LabyrinthError):
    """A solver ran out of its time limit: the answer is unknown (never a guess).

    The CLI reports it with exit status 3 and says how to give more time.
    """


class CampaignExists(LabyrinthError):
    """An audit asked for anew whose settings match a stored campaign: resume that one, or ask for a new one.

    ``campaign`` is the stored campaign's id, ``finished`` whether it ran to the
    end, ``stored`` and ``units`` how many of its units are stored (0 when unknown).
    """

    def __init__(self, reason, *, source=None, campaign=None, finished=False, stored=0):
        self.campaign, self.finished, self.stored = campaign, finished, stored
        super().__init__(reason, source=source)


#: the signal numbers of Ctrl-C and of ``kill`` (POSIX; the same on every platform Python runs on)
SIGINT, SIGTERM = 2, 15


class Interrupted(KeyboardInterrupt):
    """A run stopped by a signal: Ctrl-C (SIGINT) or SIGTERM; what it stored is kept.

    Not a :class:`LabyrinthError`: nothing was wrong with the input. The
    message says what was stored and how to go on; ``signum`` is the signal,
    and :attr:`status` the exit status a shell expects of it (130, 143).

    >>> Interrupted("interrupted", signum=SIGTERM).status
    143
    """

    def __init__(self, message="interrupted", *, signum=SIGINT):
        self.signum = signum
        super().__init__(message)

    @property
    def status(self):
        return 128 + self.signum

    @property
    def signal_name(self):
        """``SIGINT`` or ``SIGTERM`` (the name of another signal, or its number)."""
        import signal

        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"


class CampaignInterrupted(Interrupted):
    """A campaign stopped before its end (Ctrl-C, SIGTERM, or a worker process killed); every unit finished is stored.

    ``reason`` says what stopped it, ``campaign`` is its id, ``stored`` of
    ``units`` the units recorded in the store (a resume runs the rest).
    """

    def __init__(self, reason, *, campaign=None, stored=0, units=0, signum=SIGINT):
        self.reason, self.campaign, self.stored, self.units = reason, campaign, stored, units
        super().__init__(reason, signum=signum)


class ToggleSizeError(LabyrinthError):
    """A toggle-squares board size that is not an integer >= 1, or past the size policy."""


class EngineError(LabyrinthError):
    """An external rule engine failed: it crashed, hung past its timeout, or gave a malformed answer.

    ``engine`` names the engine (its handshake name, else its command),
    ``request`` is the line sent and ``answer`` what came back (None when
    nothing did). The message is one line and names all three, shortened.
    """

    def __init__(self, reason, *, engine=None, request=None, answer=None):
        self.engine = engine
        self.request = request
        self.answer = answer
        reason = one_line(reason, 1000)  # an engine's own words (its error message, its stderr) may hold line ends
        parts = [reason]
        if request is not None:
            parts.append(f"request {_short(request)}")
        if answer is not None:
            parts.append(f"answer {_short(answer)}")
        super().__init__("; ".join(parts), source=None if engine is None else f"engine {engine}")
        self.reason = reason

    def located(self, source):
        return self

    def __reduce__(self):  # crosses process boundaries (local workers, Ray) with its fields
        return (_engine_error, (self.reason, self.engine, self.request, self.answer))


def _engine_error(reason, engine, request, answer):
    return EngineError(reason, engine=engine, request=request, answer=answer)


def one_line(text, limit=200):
    """``text`` on one line: control characters (line ends, tabs, escapes) shown as in a repr, cut to ``limit``.

    >>> one_line("line one\\nline two\\x1b[31m")
    'line one\\\\nline two\\\\x1b[31m'
    >>> len(one_line("x" * 1000, 50))
    50
    """
    text = str(text)[: limit * 4]  # no need to escape more than can be shown
    shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def _short(text, limit=160):
    """``text`` on one line, cut to ``limit`` characters (a repr, so control characters show)."""
    text = repr(text if isinstance(text, str) else str(text))
    return text if len(text) <= limit else text[: limit - 3] + "..."
