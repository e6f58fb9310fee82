"""The ``labyrinth`` command: argument parsing and printing only; the work is in the library.

Each subcommand family lives in its own module with a ``register(sub)`` function.
"""

import argparse
import sys

from labyrinth.cli import _check, _count, _regress, _rules, _toggle, _verify, _view, _walks
from labyrinth.cli._common import EXIT_BAD_INPUT
from labyrinth.errors import LabyrinthError

__all__ = ["main"]

_FAMILIES = (_check, _walks, _count, _rules, _verify, _regress, _view, _toggle)


def main(argv=None):
    """Run one ``labyrinth`` subcommand and return its exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except LabyrinthError as err:
        print(f"labyrinth: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("labyrinth: interrupted", file=sys.stderr)
        return 130


def _parser():
    parser = argparse.ArgumentParser(prog="labyrinth", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for family in _FAMILIES:
        family.register(sub)
    return parser
