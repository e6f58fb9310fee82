"""``labyrinth numbers solve | walk | draw | count``: the number puzzle on the oracle (``docs/numbers.md``).

The subcommands are the path puzzles' own (:mod:`labyrinth.cli._puzzle` and
:mod:`labyrinth.cli._puzzle_count`), with the number puzzle's words.

Count size policy: up to 7x7 by default (about an hour on one core), 8x8 with
``--allow-large`` (the search keeps the taken cells in one 64-bit word; an
8x8 count is estimated at years of CPU time: run it with ``--log`` and
``--time-limit`` in pieces, or on a Ray cluster).
"""

import dataclasses

from labyrinth.cli._common import family_subparsers
from labyrinth.cli._puzzle import LIST_LIMIT, PuzzleSpec, add_draw, add_solve, add_walk
from labyrinth.cli._puzzle_count import MEMO_MB_MAX, add_count, table
from labyrinth.cli._puzzle_count import check_count_size as _check

__all__ = ["COUNT_LARGE_LIMIT", "COUNT_LIMIT", "DOCUMENT", "LIST_LIMIT", "MEMO_MB_MAX", "SPEC", "check_count_size",
           "register", "register_count", "table"]

DOCUMENT = "docs/numbers.md"
#: the largest board counted by default, and with --allow-large
COUNT_LIMIT = 7
COUNT_LARGE_LIMIT = 8
_WHY = "the work grows about 1000-fold per side: 6x6 takes seconds, 7x7 about an hour on one core"


def _numbers_puzzle(n, closed):
    from labyrinth.puzzles.numbers import numbers_puzzle

    return numbers_puzzle(n, closed)


#: the number puzzle on the command line
SPEC = PuzzleSpec(family="numbers", title="number puzzle", puzzle=_numbers_puzzle, solution="solution",
                  moves_example="N,E,S,W,NE,SE,SW,NW", path_example="numbers:10@1,1:E,S,W", margins=False)


def register(sub):
    """Add ``numbers`` and its subcommands to the ``labyrinth`` parser."""
    family = sub.add_parser("numbers", help=f"the number puzzle ({DOCUMENT}): solve exactly, count every solution, "
                                            "audit Warnsdorff's walk, draw")
    nsub = family_subparsers(family, "numbers_command")
    add_solve(nsub, SPEC)
    add_walk(nsub, SPEC)
    add_draw(nsub, SPEC)
    register_count(nsub)


def _count_spec():
    from labyrinth.puzzles.numbers import LEAPS

    return dataclasses.replace(SPEC, leaps=LEAPS, count_limit=COUNT_LIMIT, count_large_limit=COUNT_LARGE_LIMIT,
                               count_why=_WHY)


def register_count(numbers_sub):
    """Add ``count`` to the subparsers of the ``numbers`` family."""
    return add_count(numbers_sub, _count_spec())


def check_count_size(n, allow_large=False):
    """Refuse a board size outside the number puzzle's count policy, in one line, before any work."""
    return _check(n, _count_spec(), allow_large)
