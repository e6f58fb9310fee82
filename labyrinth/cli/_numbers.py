"""``labyrinth numbers solve | walk | draw | count``: the number puzzle on the oracle (``docs/numbers.md``).

The subcommands are the path puzzles' own (:mod:`labyrinth.cli._puzzle`), with the number puzzle's words.
"""

from labyrinth.cli._common import family_subparsers
from labyrinth.cli._puzzle import LIST_LIMIT, PuzzleSpec, add_draw, add_solve, add_walk

__all__ = ["DOCUMENT", "LIST_LIMIT", "SPEC", "register"]

DOCUMENT = "docs/numbers.md"


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

    try:
        from labyrinth.cli._numbers_count import register_count
    except ImportError:
        return
    register_count(nsub)
