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
:mod:`labyrinth.engine.graph` on the whole board, so a rule only ever
disables a move whose state has no completion. Its *reach* is the rule set's
choice: ``global`` (the ``default`` set) analyses every step and also the
areas with two gates next to the new head; ``local`` (the ``fast`` set), like
the study's own rules, analyses only a step that touches a wall at distance 1
or 2 (the cell entered, or a free neighbour of it, loses the link between its
free sides): many times faster, and weaker. ``strong`` takes the local reach
too: its closure refutes every move the global analysis adds (the same walks
on the benchmarks' seeds, 17-23% faster at 41x41 and 101x101).
"""

from numba import njit

from labyrinth.engine import graph
from labyrinth.rules import codes
from labyrinth.rules._chain import (
    SEALED,
    SUMS,
    _chain_from_blocks,
    _take,
    chain_reset,
    track_step,
)
from labyrinth.rules._pockets import (
    POCKETS,
    UNPROVED,
    _chain_verdict,
    pocket_forget,
    pocket_reset,
)
from labyrinth.rules._ring import (
    _cuts_in,
    _is_cut,
    _ring_groups,
    _sides,
    row_windows_init,
    row_windows_mark,
)
from labyrinth.rules.base import DISABLE, CompiledRule

__all__ = [
    "ColourImbalance",
    "CountArea",
    "NearBorder",
    "OlderLine",
    "SEALED",
    "TRACK_OFF",
    "area_status",
    "area_verdict",
    "track_init",
    "track_release",
    "track_step",
    "track_stop",
    "track_take",
]

NEAR_BORDER, OLDER_LINE, COUNT_AREA, COLOUR_IMBALANCE = codes.AREA_CODES
#: :func:`area_status` results besides the graph verdicts
UNTOUCHED = -1  # the step closes nothing: not analysed
# SEALED (8, from labyrinth.rules._chain): sealed near the border (the graph verdict is SPLIT/HEAD_CUT/HANGING)
SEALED_BY_LINE = 9
#: how far the area analysis looks (a rule set's choice: ``default`` global, ``fast`` local)
LOCAL, GLOBAL = 0, 1
PASS_ = graph.PASS
PARITY = graph.PARITY
COLOUR = graph.COLOUR


@njit(cache=True, inline="always")
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


# --- the incremental bookkeeping of the walker kernels ---------------------------------------
#
# The free cells V (the cells the area analysis of every candidate step works on: the
# free cells before the step, the new head among them) lose one cell per step. A free
# cell whose free orthogonal neighbours are linked around its ring of 8 (one group in
# :func:`_sides`) is no cut cell of V, and taking such a cell keeps V connected. So
# counting the free cells with two or more groups, and the line cells that had two or
# more groups when taken, is local work per step (the ring of the cell taken), and
# when both counts are zero V is connected and has no cut cell. With cut cells, a
# passing verdict shows V's block-cut tree to be a path from the head's block to the
# end's: the chain of cut cells q1 .. qk with the colour sum beyond each, kept in scratch
# rows by :mod:`labyrinth.rules._chain` and carried from step to step by
# :func:`track_step` (a step changes only the first block: q1 may drop out, new cut cells
# may appear round the cell taken, and their two sides are flooded until the smaller is
# done). The whole-board block analysis then reduces to the colour balance of the first
# segment, and the pockets near the head are decided locally, by :func:`_chain_verdict`.
# ``area[4, 1]`` holds 1 + the first count (0: not tracked, -1: tracking switched off),
# ``area[4, 2]`` twice the second plus "the chain is known" (bit 0).
#
# A free cell with two or more groups is a cut cell: the line and the border form one
# 8-connected wall (the line starts in a corner), so the free cells have no holes and
# a wall cell between two groups separates them (the digital Jordan theorem; Rosenfeld
# 1970, "Connectivity in digital pictures"); the number of blocks at a cell is its
# number of groups.

TRACK_OFF = -1



@njit(cache=True)
def track_init(nb, n, taken, area, scratch):
    """Start the bookkeeping for ``taken`` (which must be a line from the start) if the reach is GLOBAL.

    ``scratch`` (rows :data:`labyrinth.rules._chain.ROWS`) must be the one the
    decisions and :func:`track_step` get: it holds the chain of cut cells.
    """
    if area[4, 0] != GLOBAL or area[4, 1] == TRACK_OFF:
        return
    size = n * n
    cuts = 0
    seed = -1
    free = 0
    for c in range(size):
        if not taken[c]:
            free += 1
            seed = c
            if _is_cut(n, taken, c):
                cuts += 1
    seen = scratch[graph.DISC]  # the search's rows, free between searches
    stack = scratch[graph.STACK]
    for c in range(size):
        seen[c] = 0
    reached = 0
    if seed >= 0:
        sp = 0
        stack[0] = seed
        seen[seed] = 1
        reached = 1
        while sp >= 0:
            v = stack[sp]
            sp -= 1
            for e in range(4):
                w = nb[v, e]
                if w >= 0 and not taken[w] and not seen[w]:
                    seen[w] = 1
                    reached += 1
                    sp += 1
                    stack[sp] = w
    chain_reset(scratch)
    pocket_reset(scratch)
    row_windows_init(n, taken, scratch)
    area[4, 1] = 1 + cuts
    area[4, 2] = (0 if reached == free else 2) + (1 if reached == free and cuts == 0 else 0)


@njit(cache=True)
def track_stop(area):
    """End the bookkeeping (other callers of the rule kernels share ``area``)."""
    if area[4, 1] > 0:
        area[4, 1] = 0
        area[4, 2] = 0



@njit(cache=True)
def track_take(n, taken, h, area, scratch):
    """Mark the free cell ``h`` taken, keeping the bookkeeping; forgets the chain (bit 0 of ``area[4, 2]``)."""
    if area[4, 1] <= 0:
        taken[h] = 1
        return
    _take(n, taken, h, area, scratch)


@njit(cache=True)
def track_release(n, taken, h, area, scratch):
    """Free the line cell ``h`` again (the enumeration backtracking), keeping the counts and row windows."""
    if area[4, 1] <= 0:
        taken[h] = 0
        return
    before = _cuts_in(_ring_groups(n, taken, h))
    taken[h] = 0
    row_windows_mark(n, scratch, h, 1)
    cut = 1 if _is_cut(n, taken, h) else 0
    area[4, 1] += _cuts_in(_ring_groups(n, taken, h)) + cut - before
    area[4, 2] = (area[4, 2] & ~1) - 2 * cut



@njit(cache=True, inline="always")
def area_status(nb, colour, n, end, taken, head, d, free_count, scratch, reach, track=0):
    """What the step from ``head`` in direction ``d`` does to the areas of free cells.

    ``free_count`` counts the free cells before the step. ``reach`` LOCAL
    analyses only steps that touch a wall; GLOBAL analyses every step and also
    tries each free neighbour of the new head as the second gate of an area
    (the study's "enter later" areas, which have two ways in and out). Returns UNTOUCHED,
    PASS, SEALED, SEALED_BY_LINE, PARITY or COLOUR; for the last two
    ``scratch[CULPRIT][0:2]`` holds the cells bounding the area (gate cells or head).

    ``track`` (the walker kernels' incremental bookkeeping, see :func:`track_init`):
    1 says ``taken`` is exactly a line from the start, and a passing block
    search leaves its chain of cut cells in ``scratch``; 2 says that chain is
    known: a GLOBAL step is then first tried by :func:`_chain_verdict`, which
    proves PASS or SEALED with local work only, and the full analysis (or only
    its pocket search) runs when it cannot: the verdict is always the full
    analysis' verdict. The cells bounding a sealed area are then not filled in
    (no caller of the tracked kernels reads them).
    """
    c = nb[head, d]
    left = free_count - 1
    if c == end:
        return PASS_ if left == 0 else SEALED
    taken[c] = 1
    if _dead_end_beside(nb, end, taken, c, left):
        taken[c] = 0
        return SEALED if _sides(n, taken, c) >> 4 else SEALED_BY_LINE
    quick = UNPROVED
    if track == 2 and reach == GLOBAL:
        taken[c] = 0
        quick = _chain_verdict(nb, colour, n, end, taken, c, d, free_count, scratch)
        if quick == PASS_:
            return PASS_
        taken[c] = 1
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
    if quick == SEALED:
        verdict = graph.HANGING  # the culprit cells stay unset: the walker kernels read none
    elif quick == POCKETS:
        verdict = graph.pockets(nb, colour, end, taken, c, left, 1, scratch)
    elif touched or reach == GLOBAL:
        verdict = graph.blocks(nb, colour, end, taken, c, left, -1, scratch, scratch[graph.CULPRIT])
        if verdict == graph.PASS and track == 1:
            _chain_from_blocks(end, c, scratch)
        if verdict == graph.PASS and reach == GLOBAL:
            verdict = graph.pockets(nb, colour, end, taken, c, left, 1, scratch)
    if verdict == graph.SPLIT or verdict == graph.HEAD_CUT or verdict == graph.HANGING:
        verdict = SEALED if border else SEALED_BY_LINE
    taken[c] = 0
    return verdict


@njit(cache=True, inline="always")
def area_verdict(nb, colour, n, end, taken, head, d, free_count, scratch, area):
    """:func:`area_status` with the reach and the walker's bookkeeping read from ``area`` (see :func:`track_init`)."""
    track = 0
    if area[4, 1] > 0:
        track = 2 if area[4, 2] & 1 else 1
        if track == 1:
            scratch[SUMS, 0] = -1
            pocket_forget(scratch)  # the line may have changed otherwise than by steps (the enumeration)
    verdict = area_status(nb, colour, n, end, taken, head, d, free_count, scratch, area[4, 0], track)
    if track == 1 and scratch[SUMS, 0] >= 0:
        area[4, 2] |= 1  # a passing block search left the chain
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
