"""One knight's tour, open or closed, found by the oracle and checked: or a proof that there is none.

The work is :func:`oracle.solve.solve_puzzle`. The knight always
changes colour, so colour balance settles many questions at once: an open tour
of an odd board starts and ends on the majority colour (none starts on the
minority), and an odd board has no closed tour at all (a cycle alternates
colours, so it has as many cells of each).
"""

from labyrinth.puzzles.knight.board import knight_puzzle
from oracle.solve import (
    NO_SOLUTION,
    SOLVED,
    UNKNOWN,
    Solution,
    require,
    solve_puzzle,
)

__all__ = ["NO_SOLUTION", "SOLVED", "UNKNOWN", "Solution", "require", "tour"]


def tour(n, *, start=None, closed=False, seed=None, oracle=None, time_limit=None):
    """One knight's tour of the n x n board (``closed``: the last cell a knight's move from the first).

    The other parameters are :func:`~oracle.solve.solve_puzzle`'s.

    >>> t = tour(5, start=(1, 1))
    >>> t.status, t.state.is_complete()
    ('solved', True)
    >>> tour(5, start=(2, 1)).status, tour(5, closed=True).status
    ('no solution', 'no solution')
    """
    return solve_puzzle(knight_puzzle(n, closed), start=start, seed=seed, oracle=oracle, time_limit=time_limit)
