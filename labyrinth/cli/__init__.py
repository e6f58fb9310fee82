"""The ``labyrinth`` command: argument parsing and printing only; the work is in the library.

Each subcommand family lives in its own module with a ``register(sub)`` function.
"""

import argparse
import contextlib
import difflib
import os
import re
import sys

from labyrinth.cli import (
    _certify,
    _check,
    _count,
    _engine,
    _findings,
    _knight,
    _numbers,
    _regress,
    _rules,
    _toggle,
    _verify,
    _view,
    _walks,
    _warmup,
)
from labyrinth.cli._common import EXIT_BAD_INPUT, EXIT_UNKNOWN, nearest_option, note
from labyrinth.cli._progress import is_terminal
from labyrinth.errors import LabyrinthError, TimeLimitError
from labyrinth.jobs.stopping import stop_on_signals

__all__ = ["main"]

_FAMILIES = (_check, _walks, _count, _rules, _certify, _verify, _findings, _regress, _engine, _view, _toggle, _numbers, _knight, _warmup)

_DESCRIPTION = """\
The one-way labyrinth: a line through every cell of an n x n board (n odd) from
(1,1) to (n,n). This tool decides positions exactly (the oracle), runs rule-based
walkers, and audits rule sets against the oracle, shrinking every finding to a
minimal counterexample. The same oracle also solves toggle squares, the number
puzzle and (magic) knight's tours.

States are written N:MOVES (board size, colon, U/D/L/R moves from (1,1)), or given
as the research program's path files (data/corpus/FORMAT.md). docs/ has a page per
puzzle, the notation and a reference of every command (docs/cli.md)."""

_EPILOG = """\
first steps:
  labyrinth check --moves 7:RRDD                  decide a state: alive, its feasible moves, a witness
  labyrinth walk -n 21 --seed 1                   one random walk under the default rules
  labyrinth audit -n 7 --exhaustive --jobs 2      check the default rules on every 7x7 walk
  labyrinth findings list                         what the audits found
  labyrinth warmup                                compile every kernel now (make demo does it)
  labyrinth COMMAND --help                        the options of one command

exit status: 0 done (an audit's findings are its results: 0 too), 1 a regression
(regress), a rule not proved sound (rules lint) or a certificate not valid (certify),
2 bad input, 3 a time limit ran out (the answer is unknown, never a guess),
130 interrupted (Ctrl-C), 143 stopped by SIGTERM."""


def main(argv=None):
    """Run one ``labyrinth`` subcommand and return its exit status."""
    from labyrinth import compiling

    parser = _parser()
    program = argv is None  # the process is this command (not a caller's test or a warm-up step)
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv)
    args.argv = argv  # for the command line that continues an interrupted run
    token = compiling.begin(_command_key(args), _compiling if is_terminal(sys.stderr) else None)
    # a long command stops at once on the first Ctrl-C or SIGTERM (a short one keeps Python's own Ctrl-C)
    stopping = stop_on_signals(last=program) if getattr(args, "stoppable", False) else contextlib.nullcontext()
    try:
        with stopping:
            return _run(args)
    finally:
        compiling.end(token)


def _run(args):
    """Run the subcommand: its exit status, an error as one line."""
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
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM; a long command says what it stored and how to go on
        note(f"labyrinth: {stop}" if str(stop) else "labyrinth: interrupted")
        return getattr(stop, "status", 130)


def _command_key(args):
    """The subcommand, as the compile-time record names it (``walk _walk``, ``numbers _solve``...)."""
    return f"{args.command} {getattr(args.run, '__qualname__', '?')}"


def _compiling(seconds):
    """Said on a terminal when a command has to compile a kernel (none after ``labyrinth warmup``)."""
    note(f"labyrinth: compiling kernels, once: ~{max(1, round(seconds))} s (later runs load them from the cache; "
         "'labyrinth warmup' compiles every kernel ahead)")


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
    """An argument parser whose errors are one line (``labyrinth check: error: ...``), exit status 2.

    Options are never abbreviated (``--se 1`` is an error, not ``--seed 1``); an
    unknown option is reported by the subcommand it was given to, with the
    nearest option it has and a pointer to that subcommand's help.
    """

    def __init__(self, *args, **kwargs):
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def error(self, message):
        word = re.match(r"argument COMMAND: invalid choice: '([^']*)'", message)
        if word:
            choices = self._subparsers._group_actions[0].choices if self._subparsers else {}
            close = difflib.get_close_matches(word.group(1), list(choices), n=1)
            message = f"no command {word.group(1)!r}" + (f"; did you mean {close[0]!r}?" if close else "")
        note(f"{self.prog}: error: {message} (see {self.prog} --help)")
        raise SystemExit(EXIT_BAD_INPUT)

    def parse_args(self, args=None, namespace=None):
        args, extras = self.parse_known_args(args, namespace)
        if extras:
            chosen = _chosen(self, args)
            hint = nearest_option(chosen, extras[0])
            chosen.error(f"unrecognized arguments: {' '.join(extras)}" + (f"; did you mean {hint}?" if hint else ""))
        return args


def _chosen(parser, args):
    """The (sub)parser of the subcommand ``args`` ran: ``labyrinth toggle solve``'s, not ``labyrinth``'s."""
    while True:
        action = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        name = getattr(args, action.dest, None) if action is not None else None
        if name not in getattr(action, "choices", {}):
            return parser
        parser = action.choices[name]


def _parser():
    from labyrinth import __version__

    parser = _Parser(prog="labyrinth", description=_DESCRIPTION, epilog=_EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"labyrinth {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for family in _FAMILIES:
        if family is _warmup:
            family.register(sub, main)  # warm-up runs its steps through the entry point, passed in
        else:
            family.register(sub)
    _fill_help(parser)
    return parser


#: help for the options many commands share, where a command gives none of its own
_SHARED_HELP = {
    "seed": "random seed (default %(default)s): the same seed gives the same result",
    "json": "print JSON (one object per line) instead of text",
    "rounds": "learning rounds (default %(default)s)",
    "no_progress": "no progress bar (on a terminal) or progress lines (in a log)",
}


def _fill_help(parser):
    """Every subcommand's ``--help`` opens with what it does, and the shared options say what they are."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                if sub.description is None and helps.get(name):
                    sub.description = helps[name][:1].upper() + helps[name][1:] + "."
                _fill_help(sub)
        elif action.help is None and action.dest in _SHARED_HELP:
            action.help = _SHARED_HELP[action.dest]
