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

__all__ = [
    "ColourImbalance",
    "CountArea",
    "NearBorder",
    "OlderLine",
    "SEALED",
    "TRACK_OFF",
    "area_status",
    "track_init",
    "track_release",
    "track_step",
    "track_stop",
    "track_take",
    "tracked_fast",
]

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


# --- the incremental bookkeeping of the walker kernels ---------------------------------------
#
# The free cells V (the cells the area analysis of every candidate step works on: the
# free cells before the step, the new head among them) lose one cell per step. A free
# cell whose free orthogonal neighbours are linked around its ring of 8 (one group in
# :func:`_sides`) is no cut cell of V, and taking such a cell keeps V connected. So
# counting the free cells with two or more groups, and the line cells that had two or
# more groups when taken, is local work per step (the ring of the cell taken), and
# when both counts are zero V is connected and has no cut cell: the whole-board block
# analysis then reduces to the colour balance of V and to the pockets near the head,
# both decided locally by :func:`_passes_whole`. A pass also carries over from step to
# step while no group count changes (:func:`track_step`). ``area[4, 1]`` holds 1 + the
# first count (0: not tracked, -1: tracking switched off), ``area[4, 2]`` twice the
# second plus the carried-over pass (bit 0).
#
# A free cell with two or more groups is a cut cell: the line and the border form one
# 8-connected wall (the line starts in a corner), so the free cells have no holes and
# a wall cell between two groups separates them (the digital Jordan theorem; Rosenfeld
# 1970, "Connectivity in digital pictures"); the number of blocks at a cell is its
# number of groups.

TRACK_OFF = -1


@njit(cache=True)
def _is_cut(n, taken, x):
    """True if the free cell ``x`` may be a cut cell: its free neighbours form two or more groups."""
    return (_sides(n, taken, x) & 15) >= 2


@njit(inline="always")
def _step(n, c, e):
    """The neighbour of ``c`` in direction ``e`` (U, D, L, R), or -1 off the board."""
    x = c % n
    y = c // n
    if e == 0:
        return c - n if y > 0 else -1
    if e == 1:
        return c + n if y < n - 1 else -1
    if e == 2:
        return c - 1 if x > 0 else -1
    return c + 1 if x < n - 1 else -1


@njit(cache=True)
def _ring_groups(n, taken, h):
    """The group counts (:func:`_sides`) of the free cells around ``h``, 3 bits per ring cell."""
    x = h % n
    y = h // n
    packed = 0
    for i in range(8):
        xx = x + _RX[i]
        yy = y + _RY[i]
        if 0 <= xx < n and 0 <= yy < n and not taken[yy * n + xx]:
            packed |= (_sides(n, taken, yy * n + xx) & 7) << (3 * i)
    return packed


@njit(cache=True)
def _cuts_in(packed):
    """How many of the packed group counts are two or more."""
    k = 0
    for i in range(8):
        if ((packed >> (3 * i)) & 7) >= 2:
            k += 1
    return k


@njit(cache=True)
def track_init(nb, n, taken, area, scratch):
    """Start the bookkeeping for ``taken`` (which must be a line from the start) if the reach is GLOBAL."""
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
    seen = scratch[0]
    stack = scratch[6]
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
    area[4, 1] = 1 + cuts
    area[4, 2] = 0 if reached == free else 2


@njit(cache=True)
def track_stop(area):
    """End the bookkeeping (other callers of the rule kernels share ``area``)."""
    if area[4, 1] > 0:
        area[4, 1] = 0
        area[4, 2] = 0


@njit(inline="always")
def tracked_fast(area):
    """True if the bookkeeping proves that the blocks of the free cells pass from every non-cut candidate."""
    return area[4, 1] > 0 and ((area[4, 1] == 1 and area[4, 2] < 2) or (area[4, 2] & 1) == 1)


@njit(cache=True)
def track_take(n, taken, h, area):
    """Mark the free cell ``h`` taken, keeping the bookkeeping's counts.

    Returns True if the step may have changed the block structure beyond
    removing ``h`` from its block: ``h`` was a cut cell, or a cell around it
    changed its group count, except for h's only free neighbour leaving the
    bridge {h, x} (the line walking along a corridor). Clears the
    carried-over pass (bit 0 of ``area[4, 2]``).
    """
    if area[4, 1] <= 0:
        taken[h] = 1
        return True
    before = _ring_groups(n, taken, h)
    cut = 1 if _is_cut(n, taken, h) else 0
    taken[h] = 1
    after = _ring_groups(n, taken, h)
    area[4, 1] += _cuts_in(after) - _cuts_in(before) - cut
    area[4, 2] = (area[4, 2] & ~1) + 2 * cut
    if cut == 1:
        return True
    if after == before:
        return False
    # the one allowed change: h's only free neighbour x leaves the bridge {h, x} (2 groups -> 1)
    diff = after ^ before
    for i in range(0, 8, 2):
        if (diff >> (3 * i)) & 7:
            if diff != ((diff >> (3 * i)) & 7) << (3 * i):
                return True
            if ((before >> (3 * i)) & 7) != 2 or ((after >> (3 * i)) & 7) != 1:
                return True
            x = (h // n + _RY[i]) * n + h % n + _RX[i]
            for e in range(4):
                w = _step(n, h, e)
                if w >= 0 and w != x and not taken[w]:
                    return True
            return False
    return True


@njit(cache=True)
def track_release(n, taken, h, area):
    """Free the line cell ``h`` again (the enumeration backtracking), keeping the counts."""
    if area[4, 1] <= 0:
        taken[h] = 0
        return
    before = _cuts_in(_ring_groups(n, taken, h))
    taken[h] = 0
    cut = 1 if _is_cut(n, taken, h) else 0
    area[4, 1] += _cuts_in(_ring_groups(n, taken, h)) + cut - before
    area[4, 2] = (area[4, 2] & ~1) - 2 * cut


@njit(cache=True)
def track_step(nb, n, taken, head, d, area):
    """Take the step from ``head`` in direction ``d`` after a decision; returns the new head.

    If the blocks of the free cells passed from the cell entered (its area
    verdict was PASS, or the bookkeeping proved it and the cell is no cut
    cell) and the step changed no group count around it, the blocks of the
    next free cells pass from every non-cut candidate: the next step's
    free cells have the same block tree with the cell entered removed from
    the first block, and each segment's colour balance carries over. That is
    kept in bit 0 of ``area[4, 2]``.
    """
    c = nb[head, d]
    if area[4, 1] <= 0:
        taken[c] = 1
        return c
    ok = area[d, 0] == PASS_ or (tracked_fast(area) and not _is_cut(n, taken, c))
    changed = track_take(n, taken, c, area)
    if ok and not changed:
        area[4, 2] |= 1
    return c


@njit(inline="always")
def _grow(m):
    """The 4-neighbours of the cells of ``m`` in a 7x7 window (bit ``7 * row + column``)."""
    return (((m << 1) & 0x1fbf7efdfbf7e) | ((m >> 1) & 0xfdfbf7efdfbf) | (m << 7) | (m >> 7)) & 0x1ffffffffffff


#: the outer ring of the 7x7 window, and its cells of the centre's colour
_OUTER = 0x1fe0c183060ff
_EVEN = 0x1555555555555


@njit(inline="always")
def _count(m):
    k = 0
    while m:
        m &= m - 1
        k += 1
    return k


@njit(cache=True)
def _no_pocket_at(n, taken, a, c, end):
    """True if no free cell p makes {a, p} the gates of a pocket that :func:`_graph.pockets` refutes.

    Requires the free cells V connected, :func:`_graph.blocks` passing from
    ``c``, and a's free neighbours linked around its ring (one group). A pocket
    is a part of V - {a, p} holding neither ``c`` nor ``end``; the search
    refutes two pockets at one p, or one whose colour sum is not
    -(col(a) + col(p)) / 2. A p outside a's ring has no pocket: every path
    through a has a detour round the ring, so V - {a, p} has the parts of
    V - p, and those hold c or end since the blocks pass. For each free p in
    the ring, the parts are flooded from the free neighbours of a and p inside
    the 7x7 window around ``a``; a part that never reaches the window's outer
    ring is a whole part of V - {a, p}, so its pocket test is exact. It
    returns False (not proved) when two parts reach the outer ring, when the
    outer part would be a pocket, or when a test fails.
    """
    ax = a % n
    ay = a // n
    free = 0
    cbit = 0
    ebit = 0
    for j in range(7):
        yy = ay + j - 3
        if yy < 0 or yy >= n:
            continue
        for i in range(7):
            xx = ax + i - 3
            if 0 <= xx < n:
                cell = yy * n + xx
                bit = 1 << (7 * j + i)
                if not taken[cell]:
                    free |= bit
                if cell == c:
                    cbit = bit
                elif cell == end:
                    ebit = bit
    centre = 1 << 24
    for i in range(8):
        bit = 1 << (24 + 7 * _RY[i] + _RX[i])
        if not free & bit:
            continue
        gates = centre | bit
        m = free & ~gates
        wanted = _grow(gates) & m
        outer = 0  # parts reaching the window's outer ring
        pockets = 0
        inner_c = False
        inner_e = False
        # a pocket's colour sum, in units of col(a): -1 for a diagonal p, 0 for an orthogonal one
        want = -1 if _RX[i] != 0 and _RY[i] != 0 else 0
        while wanted:
            part = wanted & -wanted
            while True:
                nxt = (part | _grow(part)) & m
                if nxt == part:
                    break
                part = nxt
            wanted &= ~part
            if part & _OUTER:
                outer += 1
                if outer > 1:
                    return False
                continue
            has_c = (part & cbit) != 0
            has_e = (part & ebit) != 0
            inner_c = inner_c or has_c
            inner_e = inner_e or has_e
            if not has_c and not has_e:
                pockets += 1
                if pockets > 1 or _count(part & _EVEN) - _count(part & ~_EVEN) != want:
                    return False
        if outer and (inner_c or cbit & gates) and (inner_e or ebit & gates):
            return False  # the outer part would be a pocket
    return True


@njit(cache=True)
def _passes_whole(nb, colour, n, end, taken, c, free_count):
    """True if the step onto ``c`` surely passes the GLOBAL analysis, from local work only.

    Precondition (the bookkeeping's): :func:`_graph.blocks` on the free cells V
    (``taken`` as before the step, ``c`` free) passes from every candidate
    that is no cut cell, and the line is a path from the start. That holds
    when V is connected with no cut cell (the blocks then reduce to the colour
    balance 2 * sum(V) = col(c) + col(end), where sum(V) follows from the
    line's length: the line alternates colours from the start corner, whose
    colour has one cell more on the odd board), and it carries over from the
    previous step when the move taken passed and changed no group count
    around it (:func:`track_take`). A pocket of :func:`_graph.pockets` at a
    free neighbour a of ``c`` is then ruled out by :func:`_no_pocket_at`.
    False means "not proved": the caller runs the full analysis.
    """
    if _is_cut(n, taken, c):
        return False
    size = n * n
    line = size - free_count
    total = colour[0] * (1 - line % 2)
    if 2 * total != colour[c] + colour[end]:
        return False
    for e in range(4):
        a = nb[c, e]
        if a < 0 or taken[a] or a == end:
            continue
        if _is_cut(n, taken, a) or not _no_pocket_at(n, taken, a, c, end):
            return False
    return True


@njit(cache=True)
def area_status(nb, colour, n, end, taken, head, d, free_count, scratch, reach, fast=False):
    """What the step from ``head`` in direction ``d`` does to the areas of free cells.

    ``free_count`` counts the free cells before the step. ``reach`` LOCAL
    analyses only steps that touch a wall; GLOBAL analyses every step and also
    tries each free neighbour of the new head as the second gate of an area
    (the study's "enter later" areas, which have two ways in and out). Returns UNTOUCHED,
    PASS, SEALED, SEALED_BY_LINE, PARITY or COLOUR; for the last two
    ``scratch[8][0:2]`` holds the cells bounding the area (gate cells or head).

    ``fast`` (the walker kernels' incremental bookkeeping, see :func:`track_init`)
    says the free cells are connected and none is a cut cell, and that
    ``taken`` is exactly a line from the start; a GLOBAL step is then first
    tried by :func:`_passes_whole`, which proves PASS with local work only, and
    the full analysis runs only when it cannot: the verdict is always the
    full analysis' verdict.
    """
    c = nb[head, d]
    left = free_count - 1
    if c == end:
        return PASS_ if left == 0 else SEALED
    taken[c] = 1
    if _dead_end_beside(nb, end, taken, c, left):
        taken[c] = 0
        return SEALED if _sides(n, taken, c) >> 4 else SEALED_BY_LINE
    if fast and reach == GLOBAL:
        taken[c] = 0
        if _passes_whole(nb, colour, n, end, taken, c, free_count):
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
