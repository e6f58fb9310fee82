"""Helpers shared by the subcommands: rule-set options, loading, JSON lines, notes and progress bars."""

import argparse
import json
import os
import sys
from pathlib import Path

from labyrinth.errors import LabyrinthError

EXIT_OK, EXIT_FINDING, EXIT_BAD_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3


class FamilyParser(argparse.ArgumentParser):
    """A puzzle family's subcommand parser: argument errors as one line (``labyrinth: numbers solve: ...``), exit 2."""

    def error(self, message):
        _one_line(self, message)


def _one_line(parser, message):
    prog = parser.prog.split(" ", 1)[-1] if " " in parser.prog else parser.prog
    print(f"labyrinth: {prog}: {message}", file=sys.stderr)
    sys.exit(EXIT_BAD_INPUT)


def family_subparsers(family, dest):
    """The subparsers of a puzzle family's parser (``toggle``, ``numbers``), with one-line errors throughout."""
    family.error = lambda message: _one_line(family, message)
    return family.add_subparsers(dest=dest, required=True, parser_class=FamilyParser, metavar="COMMAND")


RULES_HELP = ("rule set: default (universal rules + size-specific patterns), fast (the same, local area analysis), "
              "universal, none, oracle (the perfect walker), or a .rule file (universal rules + its patterns); "
              "default: %(default)s")


def rules_args(p):
    p.add_argument("--rules", default="default", help=RULES_HELP)
    p.add_argument("--off", default="", metavar="RULE[,RULE...]", help="switch these rules off")
    p.add_argument("--on", default="", metavar="RULE[,RULE...]",
                   help="switch these optional rules on (future-lines)")


def rule_set(args):
    from labyrinth.rules import get_rule_set

    off = [r for r in getattr(args, "off", "").split(",") if r]
    on = [r for r in getattr(args, "on", "").split(",") if r]
    return get_rule_set(args.rules, off=off, on=on)


def board_sizes(text, command=None, allow_large=False):
    """Board sizes from ``N[,N...]``, each checked (odd, >= 3, within ``command``'s size policy)."""
    from labyrinth.cli._limits import check_size
    from labyrinth.engine.board import Board

    parts = [v.strip() for v in text.split(",") if v.strip()]
    if any(not v.isascii() or not v.isdigit() or len(v) > 7 for v in parts):
        raise LabyrinthError("board sizes must be odd integers separated by commas", token=text)
    sizes = [int(v) for v in parts]
    for n in sizes:
        if command is not None:
            check_size(n, command, allow_large, source=text)
        Board(n)
    if not sizes:
        raise LabyrinthError("give at least one board size", token=text)
    return sizes


def writable_output(path):
    """Check before any work that ``path`` can be written (its folder exists, it is not a folder)."""
    p = Path(path)
    if p.is_dir():
        raise LabyrinthError("is a folder, not a file to write", source=path)
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise LabyrinthError("cannot write: no such folder", source=path)
    if p.exists() and not os.access(p, os.W_OK) or not p.exists() and not os.access(folder, os.W_OK):
        raise LabyrinthError("cannot write: permission denied", source=path)
    return p


def write_text(path, text):
    """Write ``text`` to ``path``; a one-line error if the system refuses."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        raise LabyrinthError(f"cannot write: {err.strerror or err}", source=path) from None


def must_exist(path):
    if not Path(path).exists():
        raise LabyrinthError("no findings store here (run labyrinth audit first)", source=path)


def load_noting(load, path):
    trace = load(path)
    for text in trace.notes:
        note(f"labyrinth: note: {path}: {text}")
    return trace.state


def sized_state(text, command, allow_large=False, *, source=None):
    """Parse ``N:MOVES`` after checking N against ``command``'s size policy (before any board is built)."""
    from labyrinth.cli._limits import check_size, leading_size
    from labyrinth.engine import parse_state

    n = leading_size(text)
    if n is not None:
        check_size(n, command, allow_large, source=source or text)
    elif ":" in text and "|" not in text:
        raise LabyrinthError("board size must be an odd integer >= 3 (ASCII digits)", source=source or text,
                             token=text.split(":", 1)[0].strip()[:12])
    return parse_state(text, source=source or text)


def sized_file(path, command, allow_large=False):
    """Load a research path file (notes printed), then check its size against ``command``'s policy."""
    from labyrinth.cli._limits import check_size
    from labyrinth.engine.formats import load_trace

    state = load_noting(load_trace, path)
    check_size(state.n, command, allow_large, source=str(path))
    return state


def note(text):
    """Print one line on stderr, above any progress bar (never inside a bar's frame)."""
    from tqdm import tqdm

    tqdm.write(text, file=sys.stderr)


def expand(item):
    p = Path(item)
    if p.is_dir():
        files = sorted(f for f in p.rglob("*.txt"))
        if not files:
            raise LabyrinthError("no .txt path files in this folder", source=item)
        return files
    return [p]


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def progress_bar(total, *, unit, disable=False, desc=None):
    """A progress bar on stderr, shown only when stderr is a terminal (so logs stay small).

    Update it with :func:`advance` (never a refresh per update: tqdm redraws
    at most ten times a second); the ``unit`` is fixed when the bar is made.
    """
    from tqdm import tqdm

    shown = not disable and _is_terminal(sys.stderr)
    return tqdm(total=total, disable=not shown, file=sys.stderr, unit=unit, desc=desc, dynamic_ncols=True,
                mininterval=0.2)


def advance(bar, done, total=None):
    """Move ``bar`` to ``done`` (and set a new ``total``), redrawn at tqdm's own pace."""
    if total is not None and total != bar.total:
        bar.total = total
    if done > bar.n:
        bar.update(done - bar.n)


def _is_terminal(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
