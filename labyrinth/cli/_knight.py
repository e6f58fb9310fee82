"""``labyrinth knight tour | walk | count | draw | magic``: the knight's tour on the oracle (``docs/knight.md``).

The subcommands are the path puzzles' own (:mod:`labyrinth.cli._puzzle`,
:mod:`labyrinth.cli._puzzle_count`), with the knight's words; pictures show
the row, column and diagonal sums by default (``--no-margins`` leaves them out).
"""

from labyrinth.cli._common import family_subparsers
from labyrinth.cli._knight_magic import register_magic
from labyrinth.cli._puzzle import PuzzleSpec, add_draw, add_solve, add_walk
from labyrinth.cli._puzzle_count import add_count

__all__ = ["COUNT_LARGE_LIMIT", "COUNT_LIMIT", "SPEC", "register"]

#: the largest board counted by default, and with --allow-large
COUNT_LIMIT = 6
COUNT_LARGE_LIMIT = 8
_WHY = ("6x6 takes seconds; 7x7 has about 1.7e11 directed open tours (OEIS A165134) and is not measured here")


def _knight_puzzle(n, closed):
    from labyrinth.puzzles.knight import knight_puzzle

    return knight_puzzle(n, closed)


#: the knight's tour on the command line
SPEC = PuzzleSpec(family="knight", title="knight's tour", puzzle=_knight_puzzle, solution="open tour",
                  moves_example="NNE,ENE,ESE,SSE,SSW,WSW,WNW,NNW", path_example="knight:8@1,1:ESE,SSE,WSW",
                  margins=True, leaps=((1, 2),), count_limit=COUNT_LIMIT, count_large_limit=COUNT_LARGE_LIMIT,
                  count_why=_WHY, solve_why="the search holds every cell; 100x100 takes about a second",
                  walk_why="a walk from every start costs about n^4; an audit asks the oracle about every stuck walk")


def register(sub):
    """Add ``knight`` and its subcommands to the ``labyrinth`` parser."""
    family = sub.add_parser("knight", help="the knight's tour: an open or closed tour through the oracle, "
                                           "Warnsdorff's walk audited, every tour counted, pictures with sums, "
                                           "magic tours on 8x8")
    ksub = family_subparsers(family, "knight_command")
    add_solve(ksub, SPEC, name="tour")
    add_walk(ksub, SPEC)
    add_count(ksub, SPEC)
    add_draw(ksub, SPEC)
    register_magic(ksub)
    return ksub
