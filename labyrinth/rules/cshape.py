"""C-shape (the study, first universal rule): a free cell beside the head walled on two
other sides must be entered now, unless it is the end corner.

Such a cell keeps at most one free neighbour once the head moves on, so it
could only be the line's last cell. The rule is checked on every side of the
head, which covers the study's mirrored and rotated forms. Two C-shapes at
once leave nothing open.
"""

from numba import njit

from labyrinth.rules import codes
from labyrinth.rules.base import FORCE, CompiledRule

__all__ = ["CShape", "cshape"]

CODE = codes.CSHAPE


@njit(cache=True)
def cshape(nb, end, taken, head, trig, ntrig):
    """Bit mask of the directions forced by a C-shape; trigger cells go to ``trig[d]``."""
    forced = 0
    for d in range(4):
        c = nb[head, d]
        if c < 0 or taken[c] or c == end:
            continue
        walls = 0
        k = 1
        trig[d, 0] = c
        for e in range(4):
            w = nb[c, e]
            if w == head:
                continue
            if w < 0 or taken[w]:
                walls += 1
                if w >= 0:
                    trig[d, k] = w
                    k += 1
        if walls >= 2:
            forced |= 1 << d
            ntrig[d] = k
    return forced


class CShape(CompiledRule):
    """Force the move into a walled-in neighbour (border or line on two of its other sides)."""

    name = "c-shape"
    code = CODE
    kind = FORCE
    summary = "a free neighbour walled on two other sides must be entered now (not the end corner)"
