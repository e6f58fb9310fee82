"""Compile every numba kernel once, ahead of its first real use (``labyrinth warmup``; ``make demo`` runs it).

Numba compiles a kernel the first time it is called with given argument types
(tens of seconds for the walker's kernels) and keeps the machine code in
``__pycache__`` (``cache=True``; :mod:`labyrinth._jitcache` drops it when a
kernel's source changes). Warm-up is a list of small commands, each run in this
process through the CLI's own entry point, so that it reaches its kernels with
exactly the argument types a user's command does; a step whose kernels are
already cached takes milliseconds.

**Adding a kernel: add one line to** :data:`STEPS` (a label and the smallest
command that reaches the kernel; ``{tmp}`` is a scratch folder holding
``board.txt``, a 5x5 toggle board). A rule set registered in
:data:`labyrinth.rules.RULE_SETS` needs no line: every built-in set gets a walk
and an explanation (:func:`steps`). ``python bench/cold_start.py`` measures
what is left cold: the first run of every README command after ``make demo``.

Whatever still compiles says so on a terminal (:func:`begin`, called by the CLI): "compiling
kernels, once: ~N s", N from the compile times recorded on this machine.
"""

import contextlib
import io
import json
import os
import shlex
import tempfile
import time
from pathlib import Path

__all__ = ["STEPS", "Step", "begin", "end", "estimate", "run_step", "steps"]

#: label, command (without the leading ``labyrinth``): one small call per kernel family
STEPS = (  # the heaviest first, so that processes compiling at once (--jobs) share the work evenly
    ("walker: keep-left enumeration", "enumerate -n 5 --no-progress"),
    ("perfect walker: enumeration", "enumerate --moves 7:RRDDRRDDLL --rules oracle --no-progress"),
    ("walker: a random walk", "walk -n 7 --seed 1"),
    ("walker: walks until stuck (stats)", "stats -n 7 --runs 2 --cap 5 --seed 1 --no-progress"),
    ("audit: walks, findings explained", "audit -n 7 --rules universal --walks 30 --seed 3 --no-patterns --db {tmp}/w.db "
                                         "--no-progress"),
    ("explain: rules and their reasons", "explain --moves 7:RRDDDL"),
    ("numbers: solve", "numbers solve -n 6 --start 1,1"),
    ("numbers: a closed tour", "numbers solve -n 6 --start 1,1 --closed"),
    ("toggle: an algorithm", "toggle algorithm two-way {tmp}/board.txt"),
    ("toggle: algorithm audit", "toggle algorithm one-way --audit --sizes 1-4"),
    ("oracle: search", "check --moves 7:RRDDL --backend search"),
    ("oracle: auto (search, then SAT)", "check --moves 7:RRDDL"),
    ("oracle: sat", "check --moves 7:RRDDL --backend sat"),
    ("oracle: cpsat", "check --moves 7:RRDDL --backend cpsat"),
    ("numbers: count", "numbers count -n 5"),
    ("count: corner paths", "count -n 5"),
    ("count: completions", "count --moves 7:RRDD"),
    ("rank, unrank, sample", "sample -n 5 --seed 1"),
    ("audit: exhaustive", "audit -n 5 --exhaustive --db {tmp}/e.db --no-progress"),
    ("findings: classified", "findings list --db {tmp}/w.db"),
    ("minimal stuck pattern", "minimize --moves 5:RRRRDDLL"),
    ("rules: mining", "rules mine -n 5 --rules universal -o {tmp}/mined.rule"),
    ("toggle: solve", "toggle solve {tmp}/board.txt --minimum"),
    ("toggle: random board", "toggle solve --random -n 20 --seed 1"),
    ("toggle: every state", "toggle solve --all -n 3"),
    ("toggle: hardest state", "toggle solve --worst -n 5"),
    ("toggle: theorems", "toggle theorems --max-n 8"),
    ("knight: tour", "knight tour -n 5 --start 1,1"),
    ("knight: magic tours", "knight magic --time-limit 1"),
)
#: a 5x5 toggle board with a solution (written to ``{tmp}/board.txt``)
_BOARD = "11000\n10110\n01110\n01101\n00011\n"


class Step:
    """One warm-up call: a label and a command line (``{tmp}`` for the scratch folder)."""

    def __init__(self, label, command):
        self.label = label
        self.command = command

    def argv(self, tmp):
        return shlex.split(self.command.replace("{tmp}", str(tmp)))

    def __repr__(self):
        return f"Step({self.label!r}, {self.command!r})"


def steps():
    """Every warm-up step: :data:`STEPS`, then a walk and an explanation per built-in rule set."""
    from labyrinth.rules import RULE_SETS

    out = [Step(label, command) for label, command in STEPS]
    for name in RULE_SETS:
        out.append(Step(f"walker: a random walk, rules {name}", f"walk -n 7 --seed 1 --rules {name}"))
        out.append(Step(f"explain: rules {name}", f"explain --moves 7:RRDDDL --rules {name}"))
    return out


def run_step(step, tmp):
    """Run ``step`` in this process, its output discarded; return (exit status, seconds, kernels compiled)."""
    from labyrinth.cli import main

    tmp = Path(tmp)
    board = tmp / "board.txt"
    if not board.exists():
        board.write_text(_BOARD)
    before = len(_compiled)
    t0 = time.perf_counter()
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        try:
            status = main(step.argv(tmp))
        except SystemExit as stop:
            status = stop.code
    return status, time.perf_counter() - t0, _compiled[before:]


def scratch():
    """A scratch folder for the steps' files (a context manager)."""
    return tempfile.TemporaryDirectory(prefix="labyrinth-warmup-")


# --- what still compiles says so ---------------------------------------------------------------------------
#: (kernel, seconds, its cache index file) of every outermost compile in this process
_compiled = []
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
    return len(_compiled)


def end(token, path=None):
    """Add the kernels compiled since :func:`begin` (and, under its key, their names) to the record."""
    new = _compiled[token:]
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
                _compiled.append((_state["kernel"], time.perf_counter() - _state["t0"], index))

    return Listener()
