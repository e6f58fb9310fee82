"""The ``labyrinth`` command: argument parsing and printing only; the work is in the library.

Each subcommand family lives in its own module with a ``register(sub)`` function.
"""

import argparse
import os
import sys

from labyrinth.cli import (
    _check,
    _count,
    _engine,
    _knight,
    _numbers,
    _regress,
    _rules,
    _toggle,
    _verify,
    _view,
    _walks,
)
from labyrinth.cli._common import EXIT_BAD_INPUT, EXIT_UNKNOWN, note
from labyrinth.errors import LabyrinthError, TimeLimitError

__all__ = ["main"]

_FAMILIES = (_check, _walks, _count, _rules, _verify, _regress, _engine, _view, _toggle, _numbers, _knight)

_DESCRIPTION = """\
The one-way labyrinth: a line through every cell of an n x n board (n odd) from
(1,1) to (n,n). This tool decides positions exactly (the oracle), runs rule-based
walkers, and audits rule sets against the oracle, shrinking every finding to a
minimal counterexample.

States are written N:MOVES (board size, colon, U/D/L/R moves from (1,1)), or given
as the research program's path files (data/corpus/FORMAT.md)."""

_EPILOG = """\
first steps:
  labyrinth check data/corpus/2023_0821.txt      decide a saved position
  labyrinth walk -n 21 --seed 1                   one random walk under the default rules
  labyrinth audit -n 7 --exhaustive --jobs 2      check the default rules on every 7x7 walk
  labyrinth findings list                         what the audits found
  labyrinth COMMAND --help                        the options of one command

exit status: 0 done, 1 a finding or regression (audit, regress), 2 bad input,
3 a time limit ran out (the answer is unknown, never a guess)."""


def main(argv=None):
    """Run one ``labyrinth`` subcommand and return its exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        status = args.run(args)
        sys.stdout.flush()  # inside the try: a closed pipe is noticed here, not at exit
        return status
    except BrokenPipeError:
        return _closed_pipe()
    except TimeLimitError as err:
        hint = "; give more time with --time-limit SECONDS" if hasattr(args, "time_limit") else ""
        note(f"labyrinth: {err}{hint}")
        return EXIT_UNKNOWN
    except LabyrinthError as err:
        note(f"labyrinth: {err}")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        note("labyrinth: interrupted")
        return 130


def _closed_pipe():
    """The reader of our output went away (``labyrinth ... | head``): stop quietly, as 141 (SIGPIPE).

    Standard output is pointed at /dev/null so that the interpreter's final
    flush does not fail again (the recipe of the Python docs on SIGPIPE).
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 141


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``labyrinth check: error: ...``), exit status 2."""

    def error(self, message):
        note(f"{self.prog}: error: {message} (see {self.prog} --help)")
        raise SystemExit(EXIT_BAD_INPUT)


def _parser():
    from labyrinth import __version__

    parser = _Parser(prog="labyrinth", description=_DESCRIPTION, epilog=_EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"labyrinth {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for family in _FAMILIES:
        family.register(sub)
    return parser
