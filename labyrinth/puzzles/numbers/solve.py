"""One solution of the number puzzle, found by the oracle and checked: or a proof that there is none.

The work is :func:`oracle.solve.solve_puzzle` (any puzzle); with a free
start it decides one start per orbit of the board's symmetry group (a start s
has a solution iff every image of s has one), so "no solution" is proven over
every start while each orbit is searched once.
"""

from labyrinth.puzzles.numbers.board import numbers_puzzle
from oracle.solve import (
    NO_SOLUTION,
    SOLVED,
    UNKNOWN,
    Solution,
    require,
    solve_puzzle,
    start_orbits,
)

__all__ = ["NO_SOLUTION", "SOLVED", "UNKNOWN", "Solution", "require", "solve", "start_orbits"]


def solve(n, *, start=None, closed=False, seed=None, oracle=None, time_limit=None):
    """Find one solution of the ``n`` x ``n`` number puzzle (``closed``: the last number jumps back to 1).

    The other parameters are :func:`~oracle.solve.solve_puzzle`'s.

    >>> s = solve(5, start=(1, 1))
    >>> s.status, s.grid()[0][0], s.state.is_complete()
    ('solved', 1, True)
    """
    return solve_puzzle(numbers_puzzle(n, closed), start=start, seed=seed, oracle=oracle, time_limit=time_limit)
