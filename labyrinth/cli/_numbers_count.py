"""``labyrinth numbers count``: every solution of the number puzzle, counted exactly.

The ``numbers`` family adds this subcommand with :func:`register_count`; it is the
path puzzles' shared ``count`` (:mod:`labyrinth.cli._puzzle_count`) on the number
puzzle's graph.

Size policy: up to 7x7 by default (about an hour on one core), 8x8 with
``--allow-large`` (the search keeps the taken cells in one 64-bit word; an
8x8 count is estimated at years of CPU time: run it with ``--log`` and
``--time-limit`` in pieces, or on a Ray cluster).
"""

import dataclasses

from labyrinth.cli._puzzle_count import MEMO_MB_MAX, add_count, table
from labyrinth.cli._puzzle_count import check_count_size as _check

__all__ = ["COUNT_LARGE_LIMIT", "COUNT_LIMIT", "MEMO_MB_MAX", "check_count_size", "register_count", "table"]

#: the largest board counted by default, and with --allow-large
COUNT_LIMIT = 7
COUNT_LARGE_LIMIT = 8
_WHY = "the work grows about 1000-fold per side: 6x6 takes seconds, 7x7 about an hour on one core"


def _spec():
    from labyrinth.cli._numbers import SPEC
    from labyrinth.puzzles.numbers import LEAPS

    return dataclasses.replace(SPEC, leaps=LEAPS, count_limit=COUNT_LIMIT, count_large_limit=COUNT_LARGE_LIMIT,
                               count_why=_WHY)


def register_count(numbers_sub):
    """Add ``count`` to the subparsers of the ``numbers`` family."""
    return add_count(numbers_sub, _spec())


def check_count_size(n, allow_large=False):
    """Refuse a board size outside the number puzzle's count policy, in one line, before any work."""
    return _check(n, _spec(), allow_large)
