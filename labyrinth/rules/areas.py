"""Area rules (the study's universal rules about enclosed areas), one analysis, four names.

A step that brings the head against the border or an older section of the
line can close off an area of free cells. The study's rules, as read here:

* ``near-border`` (movement near the edge) and ``older-line`` (approaching an
  older section of the line: the side-back, side-front and 2-distance cases):
  the step *seals* an area, so the line can no longer visit every free cell:
  the free cells fall apart, the head stands between two areas it cannot both
  serve, or an area hangs off a single gate cell with no way on to the end.
  The name says what the step touched: the border or only the line.
* ``count-area`` (enclosed-area parity): the step leaves an area with a single
  way in and a single way out (the head or a gate cell on each side); a path
  between cells of equal colour covers an odd number of cells, between
  different colours an even number, so an area of the wrong parity cannot be
  filled.
* ``colour-imbalance`` (the study's black/white counts): parity fits, but one
  checkerboard colour has more cells than the entry and exit allow.

A step that leaves a free neighbour of the new head as a dead end (no way
out, or only to the end corner while other cells remain, or two neighbours
that must both be entered next: the study's double C-shape) counts as
sealing too.

The analysis decides with the block and colour conditions of
:mod:`labyrinth.engine._graph` on the whole board, so a rule only ever
disables a move whose state has no completion. Its *reach* is the rule set's
choice: ``global`` (the ``default`` set) analyses every step and also the
areas with two gates next to the new head; ``local`` (the ``fast`` set), like
the study's own rules, analyses only a step that touches a wall at distance 1
or 2 (the cell entered, or a free neighbour of it, loses the link between its
free sides): many times faster, and weaker.
"""

from numba import njit

from labyrinth.engine import _graph
from labyrinth.rules.base import DISABLE, CompiledRule

__all__ = ["ColourImbalance", "CountArea", "NearBorder", "OlderLine", "SEALED", "area_status"]

NEAR_BORDER, OLDER_LINE, COUNT_AREA, COLOUR_IMBALANCE = 2, 3, 4, 5
#: :func:`area_status` results besides the graph verdicts
UNTOUCHED = -1  # the step closes nothing: not analysed
SEALED = 8  # sealed near the border (the graph verdict is SPLIT/HEAD_CUT/HANGING)
SEALED_BY_LINE = 9
#: how far the area analysis looks (a rule set's choice: ``default`` global, ``fast`` local)
LOCAL, GLOBAL = 0, 1
PASS_ = _graph.PASS
PARITY = _graph.PARITY
COLOUR = _graph.COLOUR

# ring around a cell in circular order: U, UR, R, DR, D, DL, L, UL
_RX = (0, 1, 1, 1, 0, -1, -1, -1)
_RY = (-1, -1, 0, 1, 1, 1, 0, -1)


@njit(cache=True)
def _sides(n, taken, c):
    """Separate groups of free orthogonal neighbours of ``c``, linked through free corners.

    Returns ``groups + 16 * touches_border``.
    """
    x = c % n
    y = c // n
    ring = 0
    border = 0
    for i in range(8):
        xx = x + _RX[i]
        yy = y + _RY[i]
        if xx < 0 or yy < 0 or xx >= n or yy >= n:
            border = 1
        elif not taken[yy * n + xx]:
            ring |= 1 << i
    ports = 0
    links = 0
    for i in range(0, 8, 2):
        if ring & (1 << i):
            ports += 1
            j = (i + 2) % 8
            if (ring & (1 << j)) and (ring & (1 << (i + 1))):
                links += 1
    groups = 1 if ports > 0 and links == ports else ports - links
    return groups + 16 * border


@njit(cache=True)
def _dead_end_beside(nb, end, taken, c, left):
    """True if a free neighbour of the new head ``c`` has become a dead end.

    A neighbour with no other way out, two neighbours that must both be
    entered next (the study's double C-shape), or a neighbour that must be
    entered next and leads only to the end corner while other cells are free.
    """
    must = 0
    for e in range(4):
        p = nb[c, e]
        if p < 0 or taken[p] or p == end:
            continue
        ways = 0
        to_end = False
        for f in range(4):
            q = nb[p, f]
            if q >= 0 and not taken[q]:
                ways += 1
                if q == end:
                    to_end = True
        if ways == 0:
            return True
        if ways == 1:
            must += 1
            if must > 1 or (to_end and left > 2):
                return True
    return False


@njit(cache=True)
def area_status(nb, colour, n, end, taken, head, d, free_count, scratch, reach):
    """What the step from ``head`` in direction ``d`` does to the areas of free cells.

    ``free_count`` counts the free cells before the step. ``reach`` LOCAL
    analyses only steps that touch a wall; GLOBAL analyses every step and also
    tries each free neighbour of the new head as the second gate of an area
    (the study's "enter later" areas, which have two ways in and out). Returns UNTOUCHED,
    PASS, SEALED, SEALED_BY_LINE, PARITY or COLOUR; for the last two
    ``scratch[8][0:2]`` holds the cells bounding the area (gate cells or head).
    """
    c = nb[head, d]
    left = free_count - 1
    if c == end:
        return PASS_ if left == 0 else SEALED
    taken[c] = 1
    if _dead_end_beside(nb, end, taken, c, left):
        taken[c] = 0
        return SEALED if _sides(n, taken, c) >> 4 else SEALED_BY_LINE
    s = _sides(n, taken, c)
    touched = (s & 15) >= 2
    border = s >> 4
    for e in range(4):
        p = nb[c, e]
        if p < 0 or taken[p] or p == end:
            continue
        sp = _sides(n, taken, p)
        if (sp & 15) != 1:
            touched = True
            border |= sp >> 4
    verdict = UNTOUCHED
    if touched or reach == GLOBAL:
        verdict = _graph.blocks(nb, colour, end, taken, c, left, -1, scratch, scratch[8])
        if verdict == _graph.PASS and reach == GLOBAL:
            verdict = _graph.pockets(nb, colour, end, taken, c, left, 1, scratch)
        if verdict == _graph.SPLIT or verdict == _graph.HEAD_CUT or verdict == _graph.HANGING:
            verdict = SEALED if border else SEALED_BY_LINE
    taken[c] = 0
    return verdict


class _AreaRule(CompiledRule):
    kind = DISABLE

    def __init__(self, reach="global"):
        if reach not in ("local", "global"):
            raise ValueError(f"reach must be 'local' or 'global', not {reach!r}")
        self.reach = reach

    def __repr__(self):
        return f"{type(self).__name__}(reach={self.reach!r})"


class NearBorder(_AreaRule):
    """Disable a step by the border that seals off an area (the study's movement near the edge)."""

    name = "near-border"
    code = NEAR_BORDER
    summary = "a step by the border may not seal off free cells the line can no longer visit"


class OlderLine(_AreaRule):
    """Disable a step against an older section of the line that seals off an area."""

    name = "older-line"
    code = OLDER_LINE
    summary = "a step against an older section of the line may not seal off free cells"


class CountArea(_AreaRule):
    """Disable a step that leaves an area of the wrong parity between its way in and way out."""

    name = "count-area"
    code = COUNT_AREA
    summary = "an area closed off with one way in and out must have the parity its gates allow"


class ColourImbalance(_AreaRule):
    """Disable a step that leaves an area whose black/white surplus its gates cannot absorb."""

    name = "colour-imbalance"
    code = COLOUR_IMBALANCE
    summary = "an enclosed area's black/white surplus must suit the cells the line enters and leaves by"
