"""The ring of 8 cells round a cell, and the 7x7 window round it, for the area analysis.

Low-level helpers of :mod:`labyrinth.rules.areas` and :mod:`labyrinth.rules._chain`
(their own module so both can use them without a circular import): the groups of free
neighbours round a cell (:func:`_sides`, the cut-cell test), and the bit-board floods
of the 7x7 window that rule out pockets near the head (:func:`_no_pocket_at`). The
window is read off row windows carried along the walk (:data:`ROW_WINDOWS`), and a gate
pair whose free cells round it form one run needs no flood at all (:func:`_runs_round`).

A free cell with two or more groups is a cut cell: the line and the border form one
8-connected wall (the line starts in a corner), so the free cells have no holes and
a wall cell between two groups separates them (the digital Jordan theorem; Rosenfeld
1970, "Connectivity in digital pictures"); the number of blocks at a cell is its
number of groups.
"""

import numpy as np
from numba import njit

# ring around a cell in circular order: U, UR, R, DR, D, DL, L, UL
_RX = (0, 1, 1, 1, 0, -1, -1, -1)
_RY = (-1, -1, 0, 1, 1, 1, 0, -1)
#: the scratch row of the row windows: ``scratch[ROW_WINDOWS, c]`` has bit i set when the cell
#: i - 3 columns from ``c`` in its row is free (7 bits, off the board clear), so the 7x7 window
#: round a cell is 7 reads (:func:`_no_pocket_at`); kept along the walk by :func:`row_windows_init`
#: and :func:`row_windows_mark`, like the chain of cut cells (rows 9-15, :mod:`labyrinth.rules._chain`)
ROW_WINDOWS = 16


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
def row_windows_init(n, taken, scratch):
    """Fill the row windows of every cell from ``taken`` (see :data:`ROW_WINDOWS`)."""
    for y in range(n):
        for x in range(n):
            m = 0
            for i in range(7):
                xx = x + i - 3
                if 0 <= xx < n and not taken[y * n + xx]:
                    m |= 1 << i
            scratch[ROW_WINDOWS, y * n + x] = m


@njit(inline="always")
def row_windows_mark(n, scratch, h, free):
    """Keep the row windows when the cell ``h`` is taken (``free`` 0) or freed again (``free`` 1)."""
    x = h % n
    for k in range(-3, 4):
        if 0 <= x + k < n:
            if free:
                scratch[ROW_WINDOWS, h + k] |= 1 << (3 - k)
            else:
                scratch[ROW_WINDOWS, h + k] &= ~(1 << (3 - k))


@njit(inline="always")
def _grow(m):
    """The 4-neighbours of the cells of ``m`` in a 7x7 window (bit ``7 * row + column``)."""
    return (((m << 1) & 0x1fbf7efdfbf7e) | ((m >> 1) & 0xfdfbf7efdfbf) | (m << 7) | (m >> 7)) & 0x1ffffffffffff


@njit(inline="always")
def _fill(part, m):
    """The cells of the window mask ``m`` 4-connected to ``part`` (a flood to a fixed point)."""
    while True:
        nxt = (part | _grow(part)) & m
        if nxt == part:
            return part
        part = nxt


#: the outer ring of the 7x7 window, and its cells of the centre's colour
_OUTER = 0x1fe0c183060ff
_EVEN = 0x1555555555555


def _pair_cycle(i):
    """Window bits of the cells round the gate pair {centre, ring cell i}, in order round it (10 or 12).

    Each of them is 4-adjacent to exactly the two next to it in this order, so
    the parts the free ones form are runs of it.
    """
    pair = {(3, 3), (3 + _RX[i], 3 + _RY[i])}
    ring = {(x + dx, y + dy) for x, y in pair for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - pair
    order = [min(ring)]
    while len(order) < len(ring):
        x, y = order[-1]
        nxt = [q for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if q in ring and q not in order[-2:]]
        order.append(nxt[0])
    return [7 * y + x for x, y in order]


#: per ring position i: the cycle round {centre, ring cell i} (:func:`_pair_cycle`), 12 entries each
#: (a pair of orthogonal neighbours has 10), and its length
_CYCLES = [_pair_cycle(i) for i in range(8)]
_CYCLE = tuple(b for cycle in _CYCLES for b in cycle + [0] * (12 - len(cycle)))
_CYCLE_LEN = tuple(len(cycle) for cycle in _CYCLES)


@njit(inline="always")
def _count(m):
    k = 0
    while m:
        m &= m - 1
        k += 1
    return k


@njit(cache=True)
def _no_pocket_at(n, scratch, a, c, end, units, seeds):
    """Which free cells p may make {a, p} the gates of a pocket that :func:`graph.pockets` refutes.

    Requires the free cells V connected, :func:`graph.blocks` passing from
    ``c``, a's free neighbours linked around its ring (one group), and the row
    windows in ``scratch`` those of V (:data:`ROW_WINDOWS`). A pocket
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
    reach the outer ring (:func:`labyrinth.rules._chain.pocket_ok` decides those),
    with ``seeds[i]`` a cell of the part without ``c`` when V - {a, p} has
    exactly two parts and ``c`` is no gate, else -1.
    """
    ax = a % n
    ay = a // n
    free = 0
    for j in range(7):
        yy = ay + j - 3
        if 0 <= yy < n:
            free |= np.int64(scratch[ROW_WINDOWS, yy * n + ax]) << (7 * j)
    cbit = 1 << (24 + 7 * (c // n - ay) + c % n - ax)  # c is a neighbour of a
    ebit = 0
    ex = end % n - ax + 3
    ey = end // n - ay + 3
    if 0 <= ex < 7 and 0 <= ey < 7:
        ebit = 1 << (7 * ey + ex)
    centre = 1 << 24
    undecided = 0
    for i in range(8):
        bit = 1 << (24 + 7 * _RY[i] + _RX[i])
        if not free & bit:
            continue
        gates = centre | bit
        if _runs_round(free, i) <= 1:
            continue  # one part round {a, p} (or none): V - {a, p} is connected, no pocket
        arcs = _arcs(free, gates, cbit)
        if (arcs & 255) <= 1:
            continue  # the same, counted exactly
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
            part = _fill(wanted & -wanted, m)
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
            # two or more parts round {a, p} (above), so V - {a, p} may split: left undecided
            undecided |= 1 << i
            seeds[i] = -1
            if (arcs & 255) == 2 and arcs >> 8 != 63:
                j = arcs >> 8
                seeds[i] = (ay + j // 7 - 3) * n + ax + j % 7 - 3
        elif outer and (inner_c or cbit & gates) and (inner_e or ebit & gates):
            # the outer part is a pocket: its sum is that of V less the gates' and the inner parts'
            p_units = 1 if want == -1 else -1
            if pockets > 0 or units - 1 - p_units - inner != want:
                return -1
    return undecided


@njit(cache=True, inline="always")
def _runs_round(free, i):
    """How many runs the free cells round the gate pair {centre, ring cell ``i``} form (7x7 window bits).

    At least :func:`_arcs`' count (runs of corner cells alone hold no
    neighbour of a gate), so at most one run is one part or none; about a
    third of the work of :func:`_arcs`' flood.
    """
    ln = _CYCLE_LEN[i]
    cyc = 0
    for k in range(ln):
        cyc |= ((free >> _CYCLE[12 * i + k]) & 1) << k
    full = (1 << ln) - 1
    if cyc == full:
        return 1
    before = ((cyc << 1) | (cyc >> (ln - 1))) & full  # bit k: the cell before k is free
    return _count(cyc & ~before)


@njit(inline="always")
def _arcs(free, gates, cbit):
    """How many parts the free cells round ``gates`` (two 8-adjacent cells, 7x7 window bits) form.

    With the line and the border one 8-connected wall, that many parts has
    V - gates (as :func:`_sides` counts them round one cell; Rosenfeld 1970).
    Returns that number plus 256 times the window bit index of a cell in the
    first of them that does not hold ``cbit`` (63: none).
    """
    h = gates | ((gates << 1) & 0x1fbf7efdfbf7e) | ((gates >> 1) & 0xfdfbf7efdfbf)
    ring = (h | (h << 7) | (h >> 7)) & 0x1ffffffffffff & free & ~gates
    wanted = _grow(gates) & ring
    k = 0
    seed = 63
    while wanted:
        part = _fill(wanted & -wanted, ring)
        wanted &= ~part
        k += 1
        if seed == 63 and not part & cbit:
            seed = _count((part & -part) - 1)
    return k + 256 * seed
