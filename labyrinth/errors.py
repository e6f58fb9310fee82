"""Typed exceptions: every error a user can cause, each printable as one line.

The CLI turns any :class:`LabyrinthError` into ``labyrinth: <message>`` and exit
status 2 (3 for a :class:`TimeLimitError`: the answer is unknown, not wrong);
the library raises them and never exits.
"""

__all__ = [
    "BackendError",
    "BoardSizeError",
    "FormatError",
    "LabyrinthError",
    "PathError",
    "TimeLimitError",
    "ToggleSizeError",
]


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
            parts.append(str(self.source))
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


class ToggleSizeError(LabyrinthError):
    """A toggle-squares board size that is not an integer >= 1, or past the size policy."""
