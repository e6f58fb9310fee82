"""What the command line accepts: board sizes per subcommand, and numbers checked at the parser.

Every limit is checked before any work starts, and a refusal is one line that
names the input, the limit and how to go past it. The size policy (the README
has the same table):

==================================  ==========  ==========================
subcommand                          default     with ``--allow-large``
==================================  ==========  ==========================
check, explain, draw, walk, stats   101         1001
audit, regress, minimize            51          301
enumerate                           7           11
count, rank, unrank, sample         17          31
rules mine                          7           (no larger: exhaustive)
numbers solve, numbers walk         100         1001    (their PuzzleSpec's)
knight tour, knight walk            100         1001    (their PuzzleSpec's)
serve                               49          (the viewer's own limit)
==================================  ==========  ==========================

No board is ever larger than :data:`MAX_N` (1001x1001: a million cells).
"""

import argparse
import math
import re

from labyrinth.errors import LabyrinthError

__all__ = ["MAX_N", "SIZE_POLICY", "check_size", "file_name", "leading_size", "positive_int", "register_size_policy",
           "seconds", "seed", "size_args"]

from labyrinth.engine.board import MAX_N

#: subcommand -> (largest n by default, largest with --allow-large), with why; a path puzzle's subcommands
#: register theirs from its :class:`labyrinth.cli._puzzle.PuzzleSpec` (:func:`register_size_policy`)
SIZE_POLICY = {
    "check": (101, MAX_N),
    "explain": (101, MAX_N),
    "draw": (101, MAX_N),
    "walk": (101, MAX_N),
    "stats": (101, MAX_N),
    "audit": (51, 301),
    "regress": (51, 301),
    "minimize": (51, 301),
    "rules learn": (51, 301),
    "enumerate": (7, 11),
    "count": (17, 31),
    "rank": (17, 31),
    "unrank": (17, 31),
    "sample": (17, 31),
}

_WHY = {
    "check": "each oracle query visits every free cell",
    "explain": "the area rules visit every free cell at every move",
    "draw": "the picture and its oracle queries grow with the board",
    "walk": "a walk costs about n^4 under the global area rules",
    "stats": "a walk costs about n^4 under the global area rules",
    "audit": "every move of every step is an oracle query",
    "regress": "every move of every step is an oracle query",
    "minimize": "a minimal pattern takes seconds at 21x21 and grows fast",
    "rules learn": "every stuck walk is bisected with the oracle and minimised to a pattern",
    "enumerate": "every walk of the board, exponential in n",
    "count": "the frontier count needs minutes and gigabytes from 19x19 on",
    "rank": "the frontier count needs minutes and gigabytes from 19x19 on",
    "unrank": "the frontier count needs minutes and gigabytes from 19x19 on",
    "sample": "the frontier count needs minutes and gigabytes from 19x19 on",
}

_SIZE = re.compile(r"\s*([0-9]+)\s*[:|]")


def register_size_policy(command, small, large, why):
    """Let ``command`` take boards up to ``small`` (``large`` with ``--allow-large``); ``why`` says why not larger."""
    SIZE_POLICY[command] = (small, large)
    _WHY[command] = why


def size_args(parser, command):
    """Add ``--allow-large`` to ``parser``, with the command's policy in its help."""
    small, large = SIZE_POLICY[command]
    parser.add_argument("--allow-large", action="store_true",
                        help=f"boards above {small}x{small} (up to {large}x{large}): {_WHY[command]}")


def check_size(n, command, allow_large=False, *, source=None):
    """Refuse a board size beyond ``command``'s policy, in one line, before any work."""
    small, large = SIZE_POLICY[command]
    limit = large if allow_large else small
    if n > limit:
        how = "" if allow_large or large <= small else f"; pass --allow-large to go up to {large}x{large}"
        raise LabyrinthError(f"{command} takes boards up to {limit}x{limit} ({_WHY[command]}){how}",
                             source=source or f"-n {n}")
    return n


def leading_size(text):
    """The board size written at the front of ``N:MOVES`` (or ``N|...``), or None if it has none.

    Strict: ASCII digits only, so a sign, an underscore or another script's
    digits are not a size; a size beyond :data:`MAX_N` is refused at once.

    >>> leading_size("21:RRDD"), leading_size("+21:R"), leading_size("junk")
    (21, None, None)
    """
    m = _SIZE.match(text) if isinstance(text, str) else None
    if m is None:
        return None
    digits = m.group(1)
    if len(digits) > 7 or int(digits) > MAX_N:
        raise LabyrinthError(f"board size is beyond the largest board this tool handles ({MAX_N}x{MAX_N})",
                             source=text if len(text) <= 40 else text[:37] + "...", token=digits[:12])
    return int(digits)


def _number(text, what):
    text = str(text).strip()
    if not re.fullmatch(r"[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?", text):
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return text


def seconds(text):
    """Parser type for a time limit: a finite number of seconds > 0 and at most a week.

    >>> seconds("2.5")
    2.5
    """
    value = float(_number(text, "a number of seconds > 0"))
    if not (value > 0 and math.isfinite(value)) or value > 7 * 86400:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0 and at most 604800, got {text!r}")
    return value


def seed(text):
    """Parser type for a seed: an integer from 0 to 2**63 - 1 (it lands in numba int64 and SQLite)."""
    digits = str(text).strip()
    if not re.fullmatch(r"[0-9]{1,19}", digits) or int(digits) >= 2 ** 63:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to {2 ** 63 - 1}, got {text!r}")
    return int(digits)


def file_name(text):
    """Parser type for a file (or folder) to write or to open: any name but an empty one.

    (``-o ""`` would otherwise mean "no output" or standard output, silently.)

    >>> file_name("out.svg")
    'out.svg'
    """
    if not str(text).strip():
        raise argparse.ArgumentTypeError(f"expected a file name, got {text!r}")
    return text


def positive_int(limit, *, zero=False):
    """Parser type for a count from 1 (0 with ``zero``) to ``limit``."""
    low = 0 if zero else 1

    def parse(text):
        digits = str(text).strip()
        if not re.fullmatch(r"[0-9]{1,12}", digits) or not low <= int(digits) <= limit:
            raise argparse.ArgumentTypeError(f"expected an integer from {low} to {limit}, got {text!r}")
        return int(digits)

    parse.__name__ = "integer"
    return parse
