"""Shared pieces of the ``labyrinth toggle`` family: limits, argument types, state loading and output helpers.

Kept apart from the subcommands (:mod:`labyrinth.cli._toggle`,
:mod:`labyrinth.cli._toggle_algorithm`) so that each can use them without
importing the family's entry point.
"""

import argparse
import math
from pathlib import Path

from labyrinth.cli._common import writable_output, write_bytes
from labyrinth.errors import LabyrinthError

__all__ = ["AUDIT_LARGE_LIMIT", "AUDIT_LIMIT", "PRINT_LIMIT", "RUN_MINIMUM_MAX_N", "THEOREMS_LIMIT", "TIME_LIMIT_MAX"]

#: press grids and press lists are printed up to this size; larger boards write them with -o FILE
PRINT_LIMIT = 64
#: the audit's largest board without --allow-large (minima of 3k+2 boards past 47x47 go to CP-SAT)
AUDIT_LIMIT = 32
AUDIT_LARGE_LIMIT = 128
#: theorems --max-n at most this (the eliminations grow as N^4: ~3 s for 200, ~15 s for 400, minutes for 1000)
THEOREMS_LIMIT = 1000
#: a run's caption and summary name the proven minimum up to this size on 3k+2 boards (under a second)
RUN_MINIMUM_MAX_N = 35
#: --time-limit at most a day
TIME_LIMIT_MAX = 86_400


# ---------------------------------------------------------------- argument types (one-line errors)


def _int(text, what, lo, hi):
    try:
        value = int(text.strip().replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}") from None
    if not lo <= value <= hi:
        raise argparse.ArgumentTypeError(f"{what} is between {lo} and {hi}, not {value}")
    return value


def _size(text):
    from labyrinth.puzzles.toggle.board import LARGE_SIZE_LIMIT

    return _int(text, "a board size", 1, LARGE_SIZE_LIMIT)


def _seed(text):
    return _int(text, "a seed", 0, 2**63 - 1)


def _count(text):
    return _int(text, "a number of states", 1, 10_000_000)


def _exhaustive(text):
    return _int(text, "--exhaustive-max-n", 0, 5)


def _theorem_size(text):
    return _int(text, "a size", 1, THEOREMS_LIMIT)


def _cell(text):
    return _int(text, "a cell size in pixels", 4, 128)


def _columns(text):
    return _int(text, "frames per row", 1, 40)


def _seconds(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds, not {text!r}") from None
    if not math.isfinite(value) or value <= 0 or value > TIME_LIMIT_MAX:
        raise argparse.ArgumentTypeError(f"a time limit is a number of seconds > 0 and at most {TIME_LIMIT_MAX}, "
                                         f"not {text!r}")
    return value


def _sizes(text):
    sizes = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        a = _int(lo, "a board size", 1, AUDIT_LARGE_LIMIT)
        b = _int(hi, "a board size", 1, AUDIT_LARGE_LIMIT) if sep else a
        if b < a:
            raise argparse.ArgumentTypeError(f"a size range goes up, not {part!r}")
        sizes.extend(range(a, b + 1))
    if not sizes:
        raise argparse.ArgumentTypeError(f"give board sizes like 1-8 or 2,5,8, not {text!r}")
    return sorted(set(sizes))


def _state_args(p, line=False):
    more = "; a single row is a 1-D board" if line else ""
    p.add_argument("state", nargs="?", metavar="STATE",
                   help=f"a file of 0/1 rows (one row per line), - for stdin{more}")
    p.add_argument("--random", action="store_true", help="a random solvable state instead (with -n, --seed)")
    p.add_argument("-n", type=_size, metavar="N", help="board size for --random, --all, --worst")
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help="seed for --random (default 0)")
    p.add_argument("--allow-large", action="store_true",
                   help="boards past 16384x16384 (up to 65536: GBs of memory), larger searches")


def _time_limit(p):
    p.add_argument("--time-limit", type=_seconds, default=60.0, metavar="SECONDS",
                   help="CP-SAT's limit for a minimum (default 60); past it the answer is unknown, exit 3")


# ---------------------------------------------------------------- helpers


def _writable(path):
    """Refuse an output path that cannot be written, before any work (None or '-': standard output)."""
    if path is not None and path != "-":
        writable_output(path)


def _writable_folder(path):
    """Refuse, before any work, a folder for pictures that cannot be made or written (its parent must exist)."""
    folder = Path(path)
    if folder.is_dir():
        writable_output(folder / "probe.svg")  # created and removed again
        return
    if folder.exists():
        raise LabyrinthError("is a file, not a folder for the pictures", source=path)
    if not (folder.parent if str(folder.parent) else Path(".")).is_dir():
        raise LabyrinthError("cannot make the folder: no such parent folder", source=path)
    _make_folder(path)  # made and removed again: it is made for good only when a picture is drawn
    try:
        writable_output(folder / "probe.svg")
    finally:
        folder.rmdir()


def _make_folder(path):
    try:
        Path(path).mkdir(exist_ok=True)
    except OSError as err:
        raise LabyrinthError(f"cannot make the folder: {err.strerror or err}", source=path) from None


def _write(path, data, say=True):
    write_bytes(path, data if isinstance(data, bytes) else data.encode("utf-8"), say=say)


def _load_state(args, command, goal="off", allow_line=False):
    """``(label, Board)`` from STATE or --random -n N --seed S (with ``allow_line``, a one-row STATE is a ``Line``)."""
    from labyrinth.puzzles.toggle.board import check_size, random_solvable, read_board

    if args.random:
        if args.state is not None:
            raise LabyrinthError(f"{command}: give STATE or --random, not both")
        if args.n is None:
            raise LabyrinthError(f"{command}: --random needs -n N")
        n = check_size(args.n, allow_large=args.allow_large, source="-n")
        return f"random {n}x{n} (seed {args.seed})", random_solvable(n, args.seed, goal)
    if args.state is None:
        raise LabyrinthError(f"{command}: give STATE (a file of 0/1 rows, - for stdin) or --random -n N")
    if args.n is not None:
        raise LabyrinthError(f"{command}: -n N goes with --random (a STATE has its own size)")
    label = "<stdin>" if args.state == "-" else args.state
    return label, read_board(args.state, allow_large=args.allow_large, allow_line=allow_line)


def _cells(k):
    return f"{k} cell" + ("" if k == 1 else "s")


def _presses(k):
    return f"{k} press" + ("" if k == 1 else "es")


def _rows(board):
    return board.text().splitlines()


def _side_by_side(blocks):
    """Text blocks (title, lines) next to each other."""
    width = [max([len(t)] + [len(line) for line in lines]) for t, lines in blocks]
    height = max(len(lines) for _, lines in blocks)
    out = ["   ".join(t.ljust(w) for (t, _), w in zip(blocks, width)).rstrip()]
    for i in range(height):
        out.append("   ".join((lines[i] if i < len(lines) else "").ljust(w)
                              for (_, lines), w in zip(blocks, width)).rstrip())
    return out


def _picture(path, r, minimum, cell):
    from labyrinth.puzzles.toggle.draw import render_run

    svg = render_run(r, minimum=minimum, **({"cell": cell} if cell else {}))
    return _png(svg) if str(path).lower().endswith(".png") else svg


def _png(svg):
    from labyrinth.view.svg import to_png

    return to_png(svg)
