"""Helpers shared by the subcommands: rule-set options, loading, JSON lines, notes and progress bars."""

import argparse
import json
import re
import stat
import sys
from pathlib import Path

from labyrinth.cli._limits import seconds
from labyrinth.cli._progress import advance, progress_bar  # noqa: F401 (the commands import them from here)
from labyrinth.errors import LabyrinthError
from labyrinth.files import file_status, writable_output  # noqa: F401 (the commands import it from here)

EXIT_OK, EXIT_FINDING, EXIT_BAD_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3


class FamilyParser(argparse.ArgumentParser):
    """A puzzle family's subcommand parser: argument errors as one line (``labyrinth: numbers solve: ...``), exit 2.

    Options are never abbreviated (``--se`` is not ``--seed``): a typo is an error that names the nearest option.
    """

    def __init__(self, *args, **kwargs):
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def error(self, message):
        _one_line(self, message)


def _one_line(parser, message):
    prog = parser.prog.split(" ", 1)[-1] if " " in parser.prog else parser.prog
    print(f"labyrinth: {prog}: {message} (see {parser.prog} --help)", file=sys.stderr)
    sys.exit(EXIT_BAD_INPUT)


def nearest_option(parser, word):
    """The option of ``parser`` nearest to the mistyped ``word`` (``--sed`` -> ``--seed``), or ``None``."""
    import difflib

    if not word.startswith("-"):
        return None
    flag = word.split("=", 1)[0]
    options = [o for a in parser._actions for o in a.option_strings if o.startswith("--") or flag[1:2] != "-"]
    close = difflib.get_close_matches(flag, options, n=1, cutoff=0.6)
    return close[0] if close else None


def family_subparsers(family, dest):
    """The subparsers of a puzzle family's parser (``toggle``, ``numbers``), with one-line errors throughout."""
    family.error = lambda message: _one_line(family, message)
    return family.add_subparsers(dest=dest, required=True, parser_class=FamilyParser, metavar="COMMAND")


RULES_HELP = ("rule set: default (universal rules + size-specific patterns), fast (the same, local area analysis), "
              "universal, strong (sound rules only: universal + two-matching + closure), strong+ (strong + the probe: "
              "the closure tried on each way on from the cell a move enters), strong++ (strong + the probe three "
              "levels deep), strong+++ (strong++ + the cut rule: the strongest set in numba), strong++++ (strong+++ + "
              "the gates: areas between single-cell gates decided by search and CP-SAT; the strongest sound set, and "
              "much slower), none, oracle (the perfect "
              "walker), or a .rule file (universal rules + its patterns); default: %(default)s")


ENGINE_HELP = ("an external rule engine's command line (docs/engine-protocol.md), e.g. \"node "
               "examples/engines/corners.js\"; the same as --rules engine:CMD")


def rules_args(p):
    from labyrinth.engine_protocol.client import ENGINE_TIMEOUT
    from labyrinth.rules import on_names

    p.add_argument("--rules", default="default", help=RULES_HELP)
    p.add_argument("--off", default="", metavar="RULE[,RULE...]", help="switch these rules off")
    p.add_argument("--on", default="", metavar="RULE[,RULE...]",
                   help=f"switch these optional rules on ({on_names()})")
    p.add_argument("--engine", metavar="CMD", help=ENGINE_HELP)
    p.add_argument("--engine-timeout", type=seconds, default=ENGINE_TIMEOUT, metavar="SECONDS",
                   help="seconds an external engine may take per request (default %(default)g); past it the "
                        "engine counts as hung and the run stops")


def order_arg(p):
    """``--order``: how an external engine is asked in exhaustive audits and walk campaigns."""
    p.add_argument("--order", default="auto", choices=["auto", "breadth-first", "depth-first"],
                   help="external engine: the order of the states it is asked about. breadth-first: a level of "
                        "the exhaustive tree per request, walks in lockstep (fewest requests); depth-first: one "
                        "state per request, each extending the one before or going back up its line (for an "
                        "engine that steps rather than jumps to a state); auto (default): the order the engine's "
                        "hello prefers, else breadth-first. The findings are the same in either order")


def engine_order(args):
    """The ``--order`` chosen (None: auto, the engine's own preference)."""
    order = getattr(args, "order", "auto")
    return None if order == "auto" else order


def engine_rules(name, command):
    """The rule-set name for ``--rules NAME`` or ``--engine CMD`` (not both)."""
    from labyrinth.rules import ENGINE_PREFIX

    if command is None:
        return name
    if name != "default":
        raise LabyrinthError("give --rules or --engine, not both", token=f"{name} / {command}")
    if not command.strip():
        raise LabyrinthError("--engine needs the engine's command line", token=command)
    return ENGINE_PREFIX + command


def rule_set(args):
    """The rule set the options name; an external engine is started (and checked) at once."""
    from labyrinth.rules import get_rule_set

    args.rules = engine_rules(args.rules, getattr(args, "engine", None))
    args.engine = None
    off = [r for r in getattr(args, "off", "").split(",") if r]
    on = [r for r in getattr(args, "on", "").split(",") if r]
    try:
        rules = get_rule_set(args.rules, off=off, on=on, engine_timeout=getattr(args, "engine_timeout", None),
                             engine_order=engine_order(args))
    except LabyrinthError as err:
        raise _with_nearest_set(err, args.rules) from None
    rules.start()
    return rules


def _with_nearest_set(err, name):
    """``err`` for an unknown rule-set name, with the nearest name it may have meant (``univrsal``: ``universal``)."""
    import difflib

    from labyrinth.rules import RULE_SETS

    if "unknown rule set" not in str(err) or err.token != name:
        return err
    close = difflib.get_close_matches(name, list(RULE_SETS), n=1, cutoff=0.6)
    if not close:
        return err
    return type(err)(f"{err.reason}; did you mean {close[0]!r}?", source=err.source, token=err.token)


def rules_label(rules, args):
    """The rule set as the options chose it: ``default --on future-lines``, ``universal --off count-area``."""
    off = [r for r in getattr(args, "off", "").split(",") if r]
    on = [r for r in getattr(args, "on", "").split(",") if r]
    return rules.name + "".join(f" --off {r}" for r in off) + "".join(f" --on {r}" for r in on)


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


def write_text(path, text, what=None):
    """Write ``text`` to ``path`` and say so on stderr (``what``: what it holds); a one-line error if refused."""
    write_bytes(path, text.encode("utf-8"), what)


def write_bytes(path, data, what=None, say=True):
    """Write ``data`` to ``path`` and say so on stderr (unless ``say`` is False: the command's answer says it)."""
    try:
        Path(path).write_bytes(data)
    except OSError as err:
        raise LabyrinthError(f"cannot write: {err.strerror or err}", source=path) from None
    if say:
        big = f"{len(data) / 1e6:.0f} MB" if len(data) >= 1e6 else None  # a large file says how large
        wrote(path, ", ".join(w for w in (what, big) if w) or None)


def wrote(path, what=None):
    """One line on stderr: every file a command writes is named (stdout stays the command's answer)."""
    note(f"labyrinth: wrote {path}" + (f" ({what})" if what else ""))


def must_exist(path):
    if file_status(path) is None:
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

    text = str(path).strip()
    if re.fullmatch(r"[0-9]+:[UDLRudlr]*", text) and file_status(path, what="cannot read") is None:
        raise LabyrinthError(f"no such file; for a state in N:MOVES notation give --moves {text}", source=text)

    state = load_noting(load_trace, path)
    check_size(state.n, command, allow_large, source=str(path))
    return state


def note(text):
    """Print one line on stderr, above any progress bar (never inside a bar's frame)."""
    from tqdm import tqdm

    tqdm.write(text, file=sys.stderr)


def expand(item):
    p = Path(item)
    status = file_status(p, what="cannot read")
    if status is not None and stat.S_ISDIR(status.st_mode):
        files = sorted(f for f in p.rglob("*.txt"))
        if not files:
            raise LabyrinthError("no .txt path files in this folder", source=item)
        return files
    return [p]


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()



def again(args, add=(), drop=()):
    """This command line again (as typed), with the options ``add`` (``--resume``) and without ``drop`` (``--new``).

    >>> import argparse
    >>> again(argparse.Namespace(argv=["audit", "-n", "7", "--new", "--db", "my runs.db"]), ["--resume"], ["--new"])
    "labyrinth audit -n 7 --db 'my runs.db' --resume"
    """
    import shlex

    words = [w for w in getattr(args, "argv", None) or [] if w not in drop]
    words += [w for w in add if w not in words]
    return shlex.join(["labyrinth", *words])


def stop_message(stop, what, command=None):
    """The :class:`~labyrinth.errors.Interrupted` to raise for a run ``stop`` ended: what it kept, how to go on.

    ``what`` says what was stored (or that nothing was); ``command`` is the
    exact command that continues, when there is one. The CLI prints the
    message as ``labyrinth: interrupted (SIGTERM); ...`` and exits 128 + the
    signal (130 for Ctrl-C, 143 for SIGTERM).
    """
    from labyrinth.errors import SIGINT, Interrupted

    signum = getattr(stop, "signum", SIGINT)
    reason = getattr(stop, "reason", None) or str(stop)
    why = Interrupted(signum=signum).signal_name if reason in ("", "interrupted") else reason
    text = f"interrupted ({why}); {what}" + (f"; continue with: {command}" if command else "")
    return Interrupted(text, signum=signum)
