"""What still compiles says so: numba compile events timed, recorded per command, and estimated ahead.

Numba compiles a kernel the first time it is called with given argument types
and keeps the machine code in ``__pycache__`` (``cache=True``;
:mod:`labyrinth._jitcache` drops it when a kernel's source changes). The CLI
calls :func:`begin` before a command and :func:`end` after it: a command that
has to compile says so on a terminal once ("compiling kernels, once: ~N s"),
N from the compile times recorded on this machine (``labyrinth warmup``
compiles every kernel ahead, :mod:`labyrinth.cli._warmup`).
"""

import json
import os
import time
from pathlib import Path

__all__ = ["DEFAULT_SECONDS", "begin", "compiled", "end", "estimate", "load_record"]


#: (kernel, seconds, its cache index file) of every outermost compile in this process (read by warm-up)
compiled = []
_state = {"key": None, "notify": None, "noted": False, "depth": 0, "t0": 0.0, "kernel": None, "listening": False}
#: an estimate for a kernel never timed on this machine
DEFAULT_SECONDS = 30.0


def _record_path():
    return Path(__file__).resolve().parent / "__pycache__" / "kernel-seconds.json"


def load_record(path=None):
    """What compiled on this machine: ``{"kernels": {name: [seconds, index file]}, "commands": {key: [name...]}}``."""
    try:
        record = json.loads((path or _record_path()).read_text())
        if isinstance(record.get("kernels"), dict) and isinstance(record.get("commands"), dict):
            return record
    except (OSError, ValueError, AttributeError):
        pass
    return {"kernels": {}, "commands": {}}


def estimate(key, kernel, record=None):
    """Seconds of compiling ahead: the kernels command ``key`` compiled before and are not cached now, else ``kernel``'s."""
    record = record or load_record()
    kernels = record["kernels"]
    names = [k for k in record["commands"].get(key, ()) if k in kernels]
    cold = [k for k in names if not Path(kernels[k][1]).exists()] if names else []
    if kernel not in cold:
        cold.append(kernel)
    return sum(kernels.get(k, (DEFAULT_SECONDS, ""))[0] for k in cold)


def begin(key=None, notify=None):
    """Time every kernel compiled from now on; ``notify(seconds)`` once, as the first starts compiling.

    ``key`` names the command, whose kernels and their compile times :func:`end`
    records for the next estimate. Loading a kernel from the cache is no compile
    and says nothing. Returns the token :func:`end` takes.
    """
    _state.update(key=key, notify=notify, noted=False)
    if not _state["listening"]:
        from numba.core import event

        event.register("numba:compile", _listener())
        _state["listening"] = True
    return len(compiled)


def end(token, path=None):
    """Add the kernels compiled since :func:`begin` (and, under its key, their names) to the record."""
    new = compiled[token:]
    key = _state["key"]
    _state.update(key=None, notify=None)
    if not new:
        return
    path = path or _record_path()
    try:
        path.parent.mkdir(exist_ok=True)
        with open(path.with_name(path.name + ".lock"), "a") as lock:
            _locked(lock)
            record = load_record(path)
            for kernel, seconds, index in new:
                record["kernels"][kernel] = [round(seconds, 1), index]
            if key is not None:
                record["commands"][key] = sorted(set(record["commands"].get(key, ())) | {k for k, _, _ in new})
            tmp = path.with_name(f"{path.name}.{os.getpid()}")
            tmp.write_text(json.dumps(record, indent=1, sort_keys=True))
            os.replace(tmp, path)
    except OSError:
        pass  # a read-only install: estimates fall back to the defaults


def _locked(fh):
    try:
        import fcntl

        fcntl.flock(fh, fcntl.LOCK_EX)
    except (ImportError, OSError):
        pass


def _listener():
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev):
            if _state["depth"] == 0:
                func = ev.data["dispatcher"].py_func
                _state["t0"] = time.perf_counter()
                _state["kernel"] = f"{func.__module__}.{func.__qualname__}"
                if not _state["noted"] and _state["notify"] is not None:
                    _state["noted"] = True
                    _state["notify"](estimate(_state["key"], _state["kernel"]))
            _state["depth"] += 1

        def on_end(self, ev):
            _state["depth"] -= 1
            if _state["depth"] == 0:
                cache = getattr(ev.data["dispatcher"], "_cache", None)
                index = str(getattr(getattr(cache, "_cache_file", None), "_index_path", ""))
                compiled.append((_state["kernel"], time.perf_counter() - _state["t0"], index))

    return Listener()
