"""Progress of a long command on stderr: a tqdm bar on a terminal, a plain line now and then in a log.

A command that runs longer than a moment shows where it stands: on a
terminal a bar redrawn in place; when stderr is a file, a pipe or a CI log
(``nohup``, ``2> run.log``), a line such as
``labyrinth: knight magic: 120/4060 units (3%), 0.41 units/s, about 2.7 h to go``
at most every :data:`PLAIN_SECONDS` (the environment variable
``LABYRINTH_PROGRESS_SECONDS`` changes it). ``--no-progress`` silences both.
"""

import os
import sys
import time

__all__ = ["PLAIN_SECONDS", "advance", "progress_bar"]

#: seconds between two plain progress lines when stderr is not a terminal
PLAIN_SECONDS = 30.0


def progress_bar(total, *, unit, disable=False, desc=None):
    """Where a command shows its progress: a tqdm bar on a terminal, else :class:`PlainProgress` lines.

    Update it with :func:`advance` (never a refresh per update: tqdm redraws
    at most ten times a second); the ``unit`` is fixed when the bar is made.
    """
    if not disable and not is_terminal(sys.stderr):
        return PlainProgress(total, unit=unit, desc=desc, every=_plain_seconds())
    from tqdm import tqdm

    return tqdm(total=total, disable=disable, file=sys.stderr, unit=unit, desc=desc, dynamic_ncols=True,
                mininterval=0.2)


def advance(bar, done, total=None):
    """Move ``bar`` to ``done`` (and set a new ``total``), redrawn at the bar's own pace."""
    if total is not None and total != bar.total:
        bar.total = total
    if done > bar.n:
        bar.update(done - bar.n)


class PlainProgress:
    """A progress bar for a log: one line on stderr at most every ``every`` seconds, none for a short run.

    The line says the units done of the total, the rate since the first update
    (a resumed run's first update is the units stored before it) and, when the total is known, the time to go at that rate. It has the part
    of tqdm's interface the commands use (``update``, ``n``, ``total``,
    ``set_postfix``, ``set_postfix_str``, ``close``, ``with``).
    """

    def __init__(self, total, *, unit, desc=None, every=PLAIN_SECONDS, clock=time.monotonic, stream=None):
        self.total, self.unit, self.desc, self.every = total, unit, desc, every
        self.clock, self.stream = clock, stream
        self.n = 0
        self.base = None  # (count, time) of the first update: the rate counts from there (a resume starts high)
        self.last = clock()
        self.postfix = ""

    def update(self, k=1):
        self.n += k
        now = self.clock()
        if self.base is None:
            self.base = (self.n, now)
        elif now - self.last >= self.every:
            self.last = now
            self._write(self.line(now))

    def set_postfix(self, values=None, refresh=True, **kwargs):
        values = dict(values or {}) | kwargs
        self.postfix = ", ".join(f"{k} {v}" for k, v in values.items())

    def set_postfix_str(self, text="", refresh=True):
        self.postfix = str(text)

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def line(self, now=None):
        """The progress line at time ``now``."""
        now = self.clock() if now is None else now
        units = self.unit if self.unit.endswith("s") else self.unit + "s"
        done = f"{self.n}/{self.total} {units}" if self.total else f"{self.n} {units}"
        if self.total:
            done += f" ({100 * self.n / self.total:.0f}%)"
        n0, t0 = self.base or (self.n, now)
        rate = (self.n - n0) / max(now - t0, 1e-9)
        parts = [done, f"{_rate(rate)} {units}/s"]
        if self.total and rate > 0 and self.n < self.total:
            parts.append(f"about {_duration((self.total - self.n) / rate)} to go")
        if self.postfix:
            parts.append(self.postfix)
        head = f"labyrinth: {self.desc}: " if self.desc else "labyrinth: "
        return head + ", ".join(parts)

    def _write(self, text):
        stream = self.stream or sys.stderr
        try:
            stream.write(text + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass  # a log that went away: the run goes on


def _rate(rate):
    return f"{rate:.3g}" if rate < 100 else f"{rate:.0f}"


def _duration(seconds):
    """``45 s``, ``12 min``, ``2.7 h``, ``3.1 days``.

    >>> _duration(45), _duration(720), _duration(9720), _duration(3 * 86400)
    ('45 s', '12 min', '2.7 h', '3.0 days')
    """
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _plain_seconds():
    text = os.environ.get("LABYRINTH_PROGRESS_SECONDS")
    try:
        value = float(text) if text else PLAIN_SECONDS
    except ValueError:
        return PLAIN_SECONDS
    return value if value >= 0 else PLAIN_SECONDS


def is_terminal(stream):
    """Whether ``stream`` is a terminal (False for a pipe, a file, a closed or replaced stream)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
