"""``labyrinth warmup``: compile every numba kernel once, ahead of its first real use, with a progress bar.

``make demo`` runs it. Numba compiles a kernel the first time it is called
with given argument types (tens of seconds for the walker's kernels) and
keeps the machine code in ``__pycache__``. Warm-up is a list of small
commands, each run in this process through the CLI's own entry point, so
that it reaches its kernels with exactly the argument types a user's command
does; a step whose kernels are already cached takes milliseconds.

**Adding a kernel: add one line to** :data:`STEPS` (a label and the smallest
command that reaches the kernel; ``{tmp}`` is a scratch folder holding
``board.txt``, a 5x5 toggle board). A rule set registered in
:data:`labyrinth.rules.RULE_SETS` needs no line: every built-in set gets a walk
and an explanation (:func:`steps`). ``python bench/cold_start.py`` measures
what is left cold: the first run of every README command after ``make demo``.
Whatever still compiles says so on a terminal (:mod:`labyrinth.compiling`).
"""

import contextlib
import io
import shlex
import sys
import tempfile
import time
from pathlib import Path

from labyrinth import compiling
from labyrinth.cli._common import EXIT_BAD_INPUT, EXIT_OK, again, note, progress_bar, stop_message
from labyrinth.cli._limits import positive_int
from labyrinth.errors import Interrupted
from labyrinth.jobs.pool import WorkerPool
from labyrinth.jobs.stopping import stop_requested

__all__ = ["STEPS", "Step", "run_step", "scratch", "steps"]

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


def run_step(step, tmp, main):
    """Run ``step`` in this process through ``main`` (the CLI's entry point, passed in), its output discarded.

    Returns (exit status, seconds, kernels compiled).
    """
    tmp = Path(tmp)
    board = tmp / "board.txt"
    if not board.exists():
        board.write_text(_BOARD)
    before = len(compiling.compiled)
    t0 = time.perf_counter()
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        try:
            status = main(step.argv(tmp))
        except SystemExit as stop:
            status = stop.code
    signum = stop_requested()
    if signum is not None:  # the step's own command caught the stop (and said so, into the sink): stop here
        raise Interrupted(signum=signum)
    return status, time.perf_counter() - t0, compiling.compiled[before:]


def scratch():
    """A scratch folder for the steps' files (a context manager)."""
    return tempfile.TemporaryDirectory(prefix="labyrinth-warmup-")




def register(sub, main):
    """Add ``warmup`` to the ``labyrinth`` parser; ``main`` is the CLI's entry point, through which steps run."""
    w = sub.add_parser("warmup", help="compile every numba kernel once, so that no later command waits for it",
                       description="Run one small command per kernel family (labyrinth/cli/_warmup.py lists them), "
                                   "so that numba compiles each kernel once and keeps it in __pycache__. Later "
                                   "commands load them in well under a second. 'make demo' runs this; it takes "
                                   "a few minutes the first time and after an edit to a kernel's source, and "
                                   "seconds when everything is cached.")
    w.add_argument("--jobs", type=positive_int(64), default=1, metavar="J",
                   help="compile in J processes at once (default 1)")
    w.add_argument("--list", action="store_true", help="list the steps and their commands, run nothing")
    w.add_argument("--no-progress", action="store_true")
    w.set_defaults(run=_warmup, main=main, stoppable=True)


def _warmup(args):
    all_steps = steps()
    if args.list:
        width = max(len(s.label) for s in all_steps)
        for s in all_steps:
            print(f"{s.label:<{width}}  labyrinth {s.command}")
        return EXIT_OK
    t0 = time.perf_counter()
    failed, compiled = [], []
    bar = progress_bar(len(all_steps), unit="step", disable=args.no_progress, desc="compiling kernels")
    done = 0
    try:
        with scratch() as tmp:
            for step, (status, _, kernels) in _results(all_steps, tmp, args.jobs, args.main):
                done += 1
                compiled.extend(kernels)
                if status not in (0, 1, 3):  # 1: a finding, 3: a time limit, as asked
                    failed.append(step)
                    note(f"labyrinth: warmup: step {step.label!r} failed (exit {status}): "
                         f"labyrinth {step.command}")
                bar.set_postfix_str(step.label, refresh=False)
                bar.update(1)
    except KeyboardInterrupt as stop:
        bar.close()
        raise stop_message(stop, f"{done} of {len(all_steps)} steps done (their kernels stay in the cache)",
                      again(args)) from None
    finally:
        bar.close()
    seconds = time.perf_counter() - t0
    print(f"kernels ready: {len(all_steps)} steps in {seconds:.0f} s, {len(compiled)} kernels compiled "
          f"({sum(s for _, s, _ in compiled):.0f} s), the others loaded from the cache")
    sys.stdout.flush()
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _results(todo, tmp, jobs, main):
    """(step, run_step's result) for every step, in this process or in ``jobs`` forked ones."""
    if jobs <= 1:
        for step in todo:
            yield step, run_step(step, tmp, main)
        return
    with WorkerPool(jobs) as pool:
        results = pool.map_unordered(_run_step, [(step, tmp, main) for step in todo], window=jobs)
        try:
            yield from results
        finally:
            results.close()


def _run_step(step, tmp, main):
    """A worker's step: ``(step, run_step(...))``."""
    return step, run_step(step, tmp, main)
