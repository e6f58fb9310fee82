"""The units of a learning run (``labyrinth rules learn --store``): a JSON lines file, checked, locked, appended.

The first line says what the file is (``{"kind": "labyrinth-rules-learn",
"version": 1}``); then one record per finding decided and per round
measured, each appended as it finishes. Opening checks, before any work,
that the file is a regular file (or a new one) in a writable folder, that
it is a store of ours (its header, or only records of ours: a store from
before the header), and takes an exclusive lock on it for the run: a
second run on the same store is refused in one line instead of deciding
everything again beside the first. A last line cut short (a run killed in
the middle of a write) is dropped; any other line that is not a record is
a one-line refusal, the file left untouched.
"""

import fcntl
import json
import os
from pathlib import Path

from labyrinth.errors import LabyrinthError
from labyrinth.files import writable_store
from labyrinth.jobs.stopping import held

__all__ = ["UNITS_VERSION", "UnitStore", "UnitStoreError", "stored_units"]

#: the version this code writes in a store's header (and the newest it reads)
UNITS_VERSION = 1
_KIND = "labyrinth-rules-learn"
#: what a record of each kind must hold (key -> type)
_FIELDS = {"finding": {"round": int, "state": str}, "round": {"round": int, "sizes": dict}}


def stored_units(path):
    """How many units (findings decided, rounds measured) the store at ``path`` holds; 0 if it cannot be read.

    The header is not a unit, nor is a line cut short by a kill.
    """
    count = 0
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                count += isinstance(record, dict) and record.get("kind") in _FIELDS
    except (OSError, UnicodeDecodeError):
        return 0
    return count


class UnitStoreError(LabyrinthError):
    """A learning run's store that cannot be used: not ours, damaged, in use by another run, or not writable."""


class UnitStore:
    """A learning run's store, open and locked; a context manager.

    Parameters
    ----------
    path : path
        The JSON lines file.
    resume : bool
        Go on with the run stored there; else start one (the file must be
        missing or empty: a stored run is never overwritten by accident).
    """

    def __init__(self, path, resume):
        self.path = str(path)
        self.records = []
        self._fd = None
        try:
            writable_store(self.path, what="a store of labyrinth rules learn")
        except LabyrinthError as err:
            raise UnitStoreError(err.reason, source=err.source, token=err.token) from None
        try:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o666)
        except OSError as err:
            raise UnitStoreError(f"cannot open: {err.strerror or err}", source=self.path) from None
        try:
            self._lock()
            self._read(resume)
        except BaseException:
            self.close()
            raise

    def _lock(self):
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UnitStoreError("another 'labyrinth rules learn' is using this store now: wait for it to finish, "
                                 "or give another --store", source=self.path) from None
        except OSError as err:
            raise UnitStoreError(f"cannot lock: {err.strerror or err}", source=self.path) from None

    def _read(self, resume):
        data = Path(self.path).read_bytes()
        if not resume:
            if data.strip():
                raise UnitStoreError("a run is stored here already: continue it with --resume, or give another "
                                     "--store", source=self.path)
            os.ftruncate(self._fd, 0)
            self._append({"kind": _KIND, "version": UNITS_VERSION})
            return
        if not data.strip():  # nothing stored yet: a new run after all
            os.ftruncate(self._fd, 0)
            self._append({"kind": _KIND, "version": UNITS_VERSION})
            return
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise UnitStoreError("not a store of labyrinth rules learn (not UTF-8 text); left untouched",
                                 source=self.path) from None
        lines = text.split("\n")
        torn = lines.pop()  # the text after the last line end: a write cut short, if any
        for number, line in enumerate(lines, 1):
            if line.strip():
                self._take(line, number)
        if torn.strip():
            try:
                self._take(torn, len(lines) + 1)  # a whole record that lacks only its line end
            except UnitStoreError:
                if not torn.startswith("{") or not any(line.strip() for line in lines):
                    raise  # not a record of ours cut short: the file is not ours
                os.ftruncate(self._fd, len(data) - len(torn.encode("utf-8")))  # dropped: its unit is done again
            else:
                os.write(self._fd, b"\n")

    def _take(self, line, number):
        """Keep one stored line (a record, or the header), or refuse the file in one line."""
        try:
            obj = json.loads(line)
        except ValueError:
            obj = None
        kind = obj.get("kind") if isinstance(obj, dict) else None
        if kind == _KIND:
            version = obj.get("version")
            if not isinstance(version, int) or version > UNITS_VERSION:
                raise UnitStoreError(f"a store of version {version!r} (this labyrinth reads up to "
                                     f"{UNITS_VERSION}); left untouched", source=f"{self.path}:{number}")
            return
        fields = _FIELDS.get(kind)
        if fields is None or not all(isinstance(obj.get(k), t) for k, t in fields.items()):
            raise UnitStoreError("not a store of labyrinth rules learn (this line is not one of its records); "
                                 "left untouched", source=f"{self.path}:{number}")
        self.records.append(obj)

    def _append(self, record):
        data = (json.dumps(record) + "\n").encode("utf-8")
        while data:
            data = data[os.write(self._fd, data):]

    def add(self, record):
        """Store a finished unit (appended at once: a run killed later keeps it)."""
        with held():  # a stop signal waits for the line to be written whole
            self.records.append(record)
            self._append(record)

    def findings(self, round_):
        """The findings decided in round ``round_``: ``{state: record}``."""
        return {r["state"]: r for r in self.records if r["kind"] == "finding" and r["round"] == round_}

    def measured(self, round_):
        """The record of round ``round_`` measured, or None."""
        return next((r for r in self.records if r["kind"] == "round" and r["round"] == round_), None)

    def close(self):
        """Release the lock and the file."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
