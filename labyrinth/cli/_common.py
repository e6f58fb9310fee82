"""Helpers shared by the subcommands: rule-set options, loading, JSON lines and progress bars."""

import json
import sys
from pathlib import Path

from labyrinth.errors import LabyrinthError

EXIT_OK, EXIT_FINDING, EXIT_BAD_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3


def rules_args(p):
    p.add_argument("--rules", default="default",
                   help="rule set: default, universal, none, oracle, or a .rule file (universal rules + its patterns)")
    p.add_argument("--off", default="", metavar="RULE[,RULE...]", help="switch these rules off")
    p.add_argument("--on", default="", metavar="RULE[,RULE...]",
                   help="switch these optional rules on (future-lines)")


def rule_set(args):
    from labyrinth.rules import get_rule_set

    off = [r for r in getattr(args, "off", "").split(",") if r]
    on = [r for r in getattr(args, "on", "").split(",") if r]
    return get_rule_set(args.rules, off=off, on=on)


def board_sizes(text):
    """Board sizes from ``N[,N...]``, each checked (odd, >= 3); a one-line error otherwise."""
    from labyrinth.engine.board import Board

    try:
        sizes = [int(v) for v in text.split(",") if v]
    except ValueError:
        raise LabyrinthError("board sizes must be odd integers separated by commas", token=text) from None
    for n in sizes:
        Board(n)
    if not sizes:
        raise LabyrinthError("give at least one board size", token=text)
    return sizes


def must_exist(path):
    if not Path(path).exists():
        raise LabyrinthError("no findings store here (run labyrinth audit first)", source=path)


def load_noting(load, path):
    trace = load(path)
    for note in trace.notes:
        print(f"labyrinth: note: {path}: {note}", file=sys.stderr)
    return trace.state


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


def progress_bar(total, disable):
    from tqdm import tqdm

    return tqdm(total=total, disable=disable, file=sys.stderr, unit="state", dynamic_ncols=True)
