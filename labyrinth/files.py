"""Files a command reads or writes, checked before any work: every refusal a one-line :class:`LabyrinthError`.

Two kinds of file are written. An *output* (a picture, a report, a rule
file) may be any file that takes a write, a device or a named pipe included
(``-o /dev/stdout``). A *store* (a findings store, a learning run's units)
is opened again and again, grows and has side files (SQLite's ``-wal``,
``-shm`` and ``-journal``): it and its side files must be regular files (or
new ones) in a folder this process can write, so that ``--db /dev/null`` or
a named pipe is refused at once instead of writing ``/dev/null-journal`` or
waiting forever for a reader.

Every check is tried, not asked: ``os.access`` says yes to root for a
read-only file, an immutable one or ``/proc/version``.
"""

import os
import stat
import tempfile
from pathlib import Path

from labyrinth.errors import LabyrinthError

__all__ = ["file_kind", "file_status", "readable_store", "writable_output", "writable_store"]

#: what a path that is not a regular file is, for the one-line refusal
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))


def file_status(path, *, what="cannot use"):
    """``os.stat`` of ``path`` (following links), or None when nothing is there.

    A name the system refuses (too long, a loop of links, a folder that
    cannot be searched) is a one-line :class:`LabyrinthError` instead of an
    ``OSError``.

    >>> file_status("no/such/file") is None
    True
    >>> file_status("x" * 300)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    labyrinth.errors.LabyrinthError: xxx...xxx: cannot use: File name too long
    """
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as err:
        raise LabyrinthError(f"{what}: {_reason(err)}", source=str(path)) from None
    except ValueError as err:  # a NUL byte in the name
        raise LabyrinthError(f"{what}: {err}", source=str(path)) from None


def _reason(err):
    return err.strerror or str(err)


def file_kind(status):
    """What a path that is not a regular file is, from its ``os.stat``: ``a folder``, ``a named pipe``...

    >>> file_kind(os.stat("/"))
    'a folder'
    """
    return next((name for test, name in _KINDS if test(status.st_mode)), "not a regular file")


def _not_empty(path):
    text = str(path)
    if not text.strip():
        raise LabyrinthError("an empty file name (give one, or leave the option out)", source=repr(text))


def _folder(path):
    p = Path(path)
    return p.parent if str(p.parent) else Path(".")


def writable_output(path):
    """Check before any work that ``path`` can be written: a name, an existing folder, and an open that works.

    An existing file is opened for appending (never truncated) and given an
    empty write, which a read-only or immutable file refuses; a new one is
    created and removed again. A named pipe is left alone (opening it waits
    for a reader). Returns the path.
    """
    _not_empty(path)
    p = Path(path)
    mode = file_status(p, what="cannot write")
    if mode is not None and stat.S_ISDIR(mode.st_mode):
        raise LabyrinthError("is a folder, not a file to write", source=str(path))
    folder = file_status(_folder(p), what="cannot write")
    if folder is None or not stat.S_ISDIR(folder.st_mode):
        raise LabyrinthError("cannot write: no such folder", source=str(path))
    if mode is not None and stat.S_ISFIFO(mode.st_mode):
        return p
    _try_write(p, existed=mode is not None)
    return p


def _try_write(p, *, existed, may_vanish=False):
    """Open ``p`` for writing and write nothing (an existing file is appended to, a new one removed again).

    ``may_vanish``: ``p`` is a side file another run may remove at any moment (SQLite's journal after
    its commit); gone by now, it is not a refusal.
    """
    made = None if existed else Path(os.path.realpath(p))  # (a dangling link: the file it names)
    flags = os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | (os.O_APPEND if existed else os.O_CREAT)
    try:
        fd = os.open(p, flags, 0o666)
    except FileNotFoundError as err:
        if may_vanish:
            return
        raise LabyrinthError(f"cannot write: {_reason(err)}", source=str(p)) from None
    except OSError as err:
        raise LabyrinthError(f"cannot write: {_reason(err)}", source=str(p)) from None
    try:
        os.write(fd, b"")
    except OSError as err:
        raise LabyrinthError(f"cannot write: {_reason(err)}", source=str(p)) from None
    finally:
        os.close(fd)
        if made is not None:
            made.unlink(missing_ok=True)


def _regular(path, what):
    """The status of ``path`` if it is a regular file, None if there is none; else a one-line refusal."""
    status = file_status(path, what=f"cannot use as {what}")
    if status is not None and not stat.S_ISREG(status.st_mode):
        raise LabyrinthError(f"not {what} ({file_kind(status)}): stores and their side files are regular files "
                             "(or new ones)", source=str(path))
    return status


def writable_store(path, *, what="a store", side=()):
    """Check before any work that ``path`` can hold a store: regular files (or new ones) in a writable folder.

    ``side`` are the suffixes of the store's side files (``("-wal", "-shm",
    "-journal")`` for SQLite): each that exists must be a regular file this
    process can write. The folder is tried with a file of its own (made and
    removed; never a side file, which another run may be using). Returns
    the store's status (None: a new store).
    """
    _not_empty(path)
    status = _regular(path, what)
    folder = _folder(path)
    folder_status = file_status(folder, what=f"cannot use as {what}")
    if folder_status is None or not stat.S_ISDIR(folder_status.st_mode):
        raise LabyrinthError(f"cannot make {what}: no such folder", source=str(path))
    sides = [f"{path}{suffix}" for suffix in side]
    side_status = [_regular(s, f"a side file of {what}") for s in sides]
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".labyrinth-probe-")
    except OSError as err:
        raise LabyrinthError(f"cannot write in its folder ({what} needs files beside it): {_reason(err)}",
                             source=str(path)) from None
    os.close(fd)
    os.unlink(probe)
    if status is not None:
        _try_write(Path(path), existed=True)
    for s, st in zip(sides, side_status):
        if st is not None:
            _try_write(Path(s), existed=True, may_vanish=True)
    return status


def readable_store(path, *, what="a store", side=(), missing="no store here"):
    """Check that ``path`` is a store to read: an existing regular file, with regular side files if any.

    ``missing`` is the refusal when nothing is there. Returns its status.
    """
    _not_empty(path)
    status = _regular(path, what)
    if status is None:
        raise LabyrinthError(missing, source=str(path))
    for suffix in side:
        _regular(f"{path}{suffix}", f"a side file of {what}")
    return status
