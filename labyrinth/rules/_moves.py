"""The preamble every whole-board rule kernel shares: which moves it is asked about, and "all refuted at once".

A ``*_masks`` kernel is given a mask of moves (bits 0-3, U, D, L, R); it
answers only for those that enter a free cell other than the end corner
(a move onto the end corner is left to the other rules; the closure
refutes one with cells left itself).
"""

from numba import njit

__all__ = ["asked_moves", "refute_all"]


@njit(cache=True, inline="always")
def asked_moves(nb, end, taken, head, moves):
    """The moves of ``moves`` (bits 0-3) from ``head`` onto a free cell other than ``end``, as a mask."""
    asked = 0
    for d in range(4):
        c = nb[head, d]
        if (moves >> d) & 1 and c >= 0 and taken[c] == 0 and c != end:
            asked |= 1 << d
    return asked


@njit(cache=True, inline="always")
def refute_all(asked, k, trig, ntrig):
    """Every move of ``asked`` refuted by the same ``k`` cells ``trig[0, :k]`` (the state itself is dead)."""
    out = 0
    for d in range(4):
        if (asked >> d) & 1:
            out |= 1 << d
            trig[d, :k] = trig[0, :k]
            ntrig[d] = k
    return out
