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

import numpy as np
from numba import njit

from labyrinth.engine import _graph
from labyrinth.rules._chain import CUTS, KNOWN, SUMS, chain_reset, pocket_ok, split_at
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
    chain_reset(scratch)
    area[4, 1] = 1 + cuts
    area[4, 2] = (0 if reached == free else 2) + (1 if reached == free and cuts == 0 else 0)


@njit(cache=True)
def track_stop(area):
    """End the bookkeeping (other callers of the rule kernels share ``area``)."""
    if area[4, 1] > 0:
        area[4, 1] = 0
        area[4, 2] = 0


@njit(cache=True)
def _take(n, taken, h, area):
    """Mark ``h`` taken and keep the counts; returns (ring groups before, after, h was a cut cell)."""
    before = _ring_groups(n, taken, h)
    cut = 1 if _is_cut(n, taken, h) else 0
    taken[h] = 1
    after = _ring_groups(n, taken, h)
    area[4, 1] += _cuts_in(after) - _cuts_in(before) - cut
    area[4, 2] = (area[4, 2] & ~1) + 2 * cut
    return before, after, cut


@njit(cache=True)
def track_take(n, taken, h, area):
    """Mark the free cell ``h`` taken, keeping the bookkeeping's counts; forgets the chain (bit 0 of ``area[4, 2]``)."""
    if area[4, 1] <= 0:
        taken[h] = 1
        return
    _take(n, taken, h, area)


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
def _chain_step(nb, colour, n, end, taken, h, before, after, left, scratch):
    """Carry the chain of cut cells over the step onto ``h`` (taken now; ``left`` free cells remain).

    Requires the chain valid before the step and ``h`` a non-cut cell on the
    head's side of its first cut cell q1. Only cells around ``h`` change their
    group count: q1 drops out when nothing was left before it (2 groups -> 1),
    and a cell whose count went from 1 to 2 is a new cut cell between the
    head and q1, measured by :func:`split_at`. Returns False (the chain is
    lost) for any other change, when no move can stay on the head's side of
    every new cut cell, or when a new segment's colour balance fails.
    """
    total = colour[0] * (1 - (n * n - left) % 2)
    k = scratch[CUTS, 0]
    xs = np.empty(8, dtype=np.int64)
    nx = 0
    for i in range(8):
        gb = (before >> (3 * i)) & 7
        ga = (after >> (3 * i)) & 7
        if gb == ga:
            continue
        r = (h // n + _RY[i]) * n + h % n + _RX[i]
        if gb >= 2:
            if ga != 1 or k == 0 or scratch[CUTS, k] != r:
                return False
            k -= 1
        elif gb == 1 and ga == 2 and r != end:
            xs[nx] = r
            nx += 1
        else:
            return False
    mask = 15
    cells = np.empty(8, dtype=np.int64)
    sums = np.empty(8, dtype=np.int64)
    side = np.empty(2, dtype=np.int64)
    for j in range(nx):
        m = split_at(nb, colour, taken, xs[j], h, end, left, total, scratch, side)
        if m < 0:
            return False
        mask &= m
        cells[j] = side[0]
        sums[j] = side[1]
    if mask == 0:
        return False
    # push the new cut cells, nearest the end (fewest cells beyond) first
    for _ in range(nx):
        best = -1
        for j in range(nx):
            if xs[j] >= 0 and (best < 0 or cells[j] < cells[best]):
                best = j
        x = xs[best]
        xs[best] = -1
        w = end if k == 0 else scratch[CUTS, k]
        beyond = 0 if k == 0 else scratch[SUMS, k]
        if 2 * (colour[x] + sums[best] - beyond) != colour[x] + colour[w]:
            return False
        k += 1
        scratch[CUTS, k] = x
        scratch[SUMS, k] = sums[best]
    scratch[CUTS, 0] = k
    scratch[SUMS, 0] = mask | KNOWN
    return True


@njit(cache=True)
def track_step(nb, colour, n, end, taken, head, d, left, area, scratch):
    """Take the step from ``head`` in direction ``d`` after a decision; returns the new head.

    ``left`` counts the free cells after the step. If the chain of cut cells
    was known and the cell entered lay on the head's side of all of them
    (its area verdict was PASS, or it is no cut cell and the chain's move
    mask has it), :func:`_chain_step` carries the chain over; bit 0 of
    ``area[4, 2]`` says it did. Without cut cells and splits the chain is
    empty and known anyway.
    """
    c = nb[head, d]
    if area[4, 1] <= 0:
        taken[c] = 1
        return c
    ok = scratch[SUMS, 0]
    allowed = (area[4, 2] & 1) == 1 and (area[d, 0] == PASS_ or ((ok >> d) & 1) == 1)
    before, after, cut = _take(n, taken, c, area)
    if (allowed and cut == 0 and _chain_step(nb, colour, n, end, taken, c, before, after, left, scratch)
            and scratch[CUTS, 0] == area[4, 1] - 1):
        area[4, 2] |= 1
    elif area[4, 1] == 1 and area[4, 2] < 2:
        scratch[CUTS, 0] = 0
        scratch[SUMS, 0] = 15 | KNOWN
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
def _no_pocket_at(n, taken, a, c, end, units):
    """Which free cells p may make {a, p} the gates of a pocket that :func:`_graph.pockets` refutes.

    Requires the free cells V connected, :func:`_graph.blocks` passing from
    ``c``, and a's free neighbours linked around its ring (one group). A pocket
    is a part of V - {a, p} holding neither ``c`` nor ``end``; the search
    refutes two pockets at one p, or one whose colour sum is not
    -(col(a) + col(p)) / 2. A p outside a's ring has no pocket: every path
    through a has a detour round the ring, so V - {a, p} has the parts of
    V - p, and those hold c or end since the blocks pass. For each free p in
    the ring, the parts are flooded from the free neighbours of a and p inside
    the 7x7 window around ``a``; a part that never reaches the window's outer
    ring is a whole part of V - {a, p}, so its pocket test is exact. One part
    reaching the outer ring is a whole part too, of colour sum ``units`` (the
    sum of V, in units of col(a)) less the gates and the inner parts. Two
    such parts are one when the free cells round {a, p} form one arc
    (:func:`_arcs`). Returns -1 when a test fails, else the ring positions i
    (bit i, p = a + (_RX[i], _RY[i])) left undecided: two parts of V - {a, p}
    reach the outer ring (:func:`labyrinth.rules._chain.pocket_ok` decides those).
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
    undecided = 0
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
        inner = 0  # the inner parts' colour sum
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
                continue
            has_c = (part & cbit) != 0
            has_e = (part & ebit) != 0
            inner_c = inner_c or has_c
            inner_e = inner_e or has_e
            sum_ = _count(part & _EVEN) - _count(part & ~_EVEN)
            inner += sum_
            if not has_c and not has_e:
                pockets += 1
                if pockets > 1 or sum_ != want:
                    return -1
        if outer > 1:
            if _arcs(free, gates) > 1:
                undecided |= 1 << i
        elif outer and (inner_c or cbit & gates) and (inner_e or ebit & gates):
            # the outer part is a pocket: its sum is that of V less the gates' and the inner parts'
            p_units = 1 if want == -1 else -1
            if pockets > 0 or units - 1 - p_units - inner != want:
                return -1
    return undecided


@njit(inline="always")
def _arcs(free, gates):
    """How many parts the free cells round ``gates`` (two 8-adjacent cells, 7x7 window bits) form.

    With the line and the border one 8-connected wall, that many parts has
    V - gates (as :func:`_sides` counts them round one cell; Rosenfeld 1970).
    """
    h = gates | ((gates << 1) & 0x1fbf7efdfbf7e) | ((gates >> 1) & 0xfdfbf7efdfbf)
    ring = (h | (h << 7) | (h >> 7)) & 0x1ffffffffffff & free & ~gates
    wanted = _grow(gates) & ring
    k = 0
    while wanted:
        part = wanted & -wanted
        while True:
            nxt = (part | _grow(part)) & ring
            if nxt == part:
                break
            part = nxt
        wanted &= ~part
        k += 1
    return k


#: :func:`_chain_verdict` results besides PASS and SEALED
UNPROVED = -1  # run the full analysis
POCKETS = -2  # the blocks pass: run only the pocket search


@njit(cache=True)
def _chain_verdict(nb, colour, n, end, taken, c, d, free_count, scratch):
    """The GLOBAL analysis' verdict on the step onto ``c`` (direction ``d``) from local work, where it can tell.

    Precondition (the bookkeeping's): the chain of cut cells in ``scratch`` is
    that of the free cells V (``taken`` as before the step, ``c`` free), and
    ``c`` leaves no dead end beside it. A cut cell ``c`` or one on the end's
    side of a cut cell (the chain's move mask) makes :func:`_graph.blocks`
    fail with SPLIT, HEAD_CUT or HANGING: SEALED (the caller tells border from
    line). Otherwise the blocks pass from ``c`` when the first segment, from
    ``c`` to q1 (or the end), has the colour sum (col(c) + col(q1)) / 2: the
    sum of V, which follows from the line's length (the line alternates
    colours from the start corner, whose colour has one cell more on the odd
    board), less the sum beyond q1; the other segments were checked when
    their cut cells joined the chain. A pocket of :func:`_graph.pockets` at a
    free neighbour a of ``c`` is then ruled out by :func:`_no_pocket_at`, and
    where its window cannot tell, by :func:`labyrinth.rules._chain.pocket_ok`;
    when a is q1, the search on G - a stays in the part before q1, whose cut
    cells are a's neighbours that gained a group. Returns PASS, SEALED,
    POCKETS (the blocks pass, the pockets are not proved) or UNPROVED.
    """
    ok = scratch[SUMS, 0]
    if ok < 0:
        return UNPROVED
    if _is_cut(n, taken, c):
        return SEALED
    if ((ok >> d) & 1) == 0:
        return SEALED if ok & KNOWN else UNPROVED
    k = scratch[CUTS, 0]
    first = end if k == 0 else scratch[CUTS, k]
    beyond = 0 if k == 0 else scratch[SUMS, k]
    total = colour[0] * (1 - (n * n - free_count) % 2)
    if 2 * (total - beyond) != colour[c] + colour[first]:
        return UNPROVED
    for e in range(4):
        a = nb[c, e]
        if a < 0 or taken[a] or a == end:
            continue
        if _is_cut(n, taken, a):
            if a != first:
                return POCKETS
            # the pocket search on G - q1 sees only X, the part before q1. At the root c: the
            # parts of X - c, each next to q1 (c is no cut cell), so one less than q1's groups
            # without c; one may hang there, of colour sum 0 (c and q1 are neighbours)
            before = total - beyond - colour[a]  # the colour sum of X
            taken[c] = 1
            g = _sides(n, taken, a) & 15
            taken[c] = 0
            if g > 2 or (g == 2 and before - colour[c] != 0):
                return POCKETS
            # elsewhere, at the cut cells of X - q1: q1's neighbours that gained a group
            taken[a] = 1
            gates = 0
            for i in range(8):
                xx = a % n + _RX[i]
                yy = a // n + _RY[i]
                if 0 <= xx < n and 0 <= yy < n:
                    p = yy * n + xx
                    if not taken[p] and p != c and _is_cut(n, taken, p):
                        gates |= 1 << i
            taken[a] = 0
            for i in range(8):
                if (gates >> i) & 1:
                    p = a + _RY[i] * n + _RX[i]
                    if not pocket_ok(nb, colour, taken, a, p, c, -1, before, scratch, False):
                        return POCKETS
        else:
            gates = _no_pocket_at(n, taken, a, c, end, total * colour[a])
            if gates < 0:
                return POCKETS
            for i in range(8):
                if (gates >> i) & 1:
                    p = a + _RY[i] * n + _RX[i]
                    if not pocket_ok(nb, colour, taken, a, p, c, end, total, scratch, True):
                        return POCKETS
    return PASS_


@njit(cache=True)
def _chain_from_blocks(end, head, scratch):
    """Read the chain of cut cells off a passing :func:`_graph.blocks` search (no move known to stay before q1)."""
    parent = scratch[2]
    sub = scratch[3]
    sep = scratch[5]
    k = 0
    v = parent[end]
    while v >= 0 and v != head:
        if sep[v] >= 0:
            k += 1
            scratch[CUTS, k] = v
            scratch[SUMS, k] = sub[sep[v]]
        v = parent[v]
    scratch[CUTS, 0] = k
    scratch[SUMS, 0] = 0


@njit(cache=True)
def area_status(nb, colour, n, end, taken, head, d, free_count, scratch, reach, track=0):
    """What the step from ``head`` in direction ``d`` does to the areas of free cells.

    ``free_count`` counts the free cells before the step. ``reach`` LOCAL
    analyses only steps that touch a wall; GLOBAL analyses every step and also
    tries each free neighbour of the new head as the second gate of an area
    (the study's "enter later" areas, which have two ways in and out). Returns UNTOUCHED,
    PASS, SEALED, SEALED_BY_LINE, PARITY or COLOUR; for the last two
    ``scratch[8][0:2]`` holds the cells bounding the area (gate cells or head).

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
        verdict = _graph.HANGING  # the culprit cells stay unset: the walker kernels read none
    elif quick == POCKETS:
        verdict = _graph.pockets(nb, colour, end, taken, c, left, 1, scratch)
    elif touched or reach == GLOBAL:
        verdict = _graph.blocks(nb, colour, end, taken, c, left, -1, scratch, scratch[8])
        if verdict == _graph.PASS and track == 1:
            _chain_from_blocks(end, c, scratch)
        if verdict == _graph.PASS and reach == GLOBAL:
            verdict = _graph.pockets(nb, colour, end, taken, c, left, 1, scratch)
    if verdict == _graph.SPLIT or verdict == _graph.HEAD_CUT or verdict == _graph.HANGING:
        verdict = SEALED if border else SEALED_BY_LINE
    taken[c] = 0
    return verdict


@njit(cache=True)
def area_verdict(nb, colour, n, end, taken, head, d, free_count, scratch, area):
    """:func:`area_status` with the reach and the walker's bookkeeping read from ``area`` (see :func:`track_init`)."""
    track = 0
    if area[4, 1] > 0:
        track = 2 if area[4, 2] & 1 else 1
        if track == 1:
            scratch[SUMS, 0] = -1
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
