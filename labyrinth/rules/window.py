"""The window rule ``window:R``: close a move whose radius-R window cannot be traversed, whatever lies outside.

The rule reads only the cells within Chebyshev distance R of the cell the
move enters (the new head), in the walker's frame: which are off the board,
taken by the line, free, or the end corner. It closes the move when no line
could do what every completion must do inside that window, however the
board outside it looks:

* start at the new head and visit every free cell of the window once;
* step between window cells, or leave the window at a boundary cell and come
  back in at another (an *excursion* through the unseen outside);
* finish on the end corner if the window shows it, else leave the window a
  last time (the end lies outside).

Outside the window every on-board cell counts as free and may or may not be
used, and the board goes on until the window shows its edge: the most the
line could have there. Excursions are paths in that outside region, so they
may not cross one another (the outside is planar: two excursions whose ends
interleave along the window's rim cannot both exist; Jordan's curve theorem),
and each rim cell's outward edge serves one excursion end. Every completion
of the real board passes this test (cut it at the window's rim), so the rule
is sound on every board by construction; it is exact when the window holds
the whole board.

Verdicts are memoised by window content (the frame and its mirror image
share one entry), in a hash table carried in the program's window array, so
the table of windows found untraversable is a pattern table: each entry is a
drawn rule of the pattern language with radius R. The search per window is
bounded by :data:`NODE_BUDGET` nodes; a window not decided within it closes
nothing (a timeout is never a verdict).
"""

import numpy as np
from numba import njit

from labyrinth.rules import codes
from labyrinth.rules._moves import asked_moves
from labyrinth.rules.base import DISABLE, CompiledRule
from labyrinth.rules.frame import RIGHT, STRAIGHT
from labyrinth.rules.patterns import WINDOW_LEN

__all__ = ["MAX_RADIUS", "NODE_BUDGET", "WINDOW_BASE", "WindowRule", "memo_words", "traversable", "window_masks"]

#: rule code of ``window:R`` is WINDOW_BASE + R (see :mod:`labyrinth.rules.program`)
WINDOW_BASE = codes.WINDOW_BASE
MAX_RADIUS = codes.WINDOW_MAX_RADIUS
#: search nodes per window before the verdict is "unknown" (the move stays open)
NODE_BUDGET = 200_000
#: cell contents in a window
OFF, TAKEN, FREE, END = 0, 1, 2, 3
#: verdicts stored in the memo
FEASIBLE, INFEASIBLE, UNKNOWN = 1, 2, 3
#: words per memo entry: four key words and the verdict
_ENTRY = 5
#: the first word of the memo in the program's window array (the pattern window comes first)
_MEMO_START = WINDOW_LEN
#: memo entries a program with a window rule carries (about 10 MB)
MEMO_ENTRIES = 1 << 18

_DX = np.array([0, 0, -1, 1], dtype=np.int64)
_DY = np.array([-1, 1, 0, 0], dtype=np.int64)


def memo_words():
    """Length of the uint64 window array of a program with a window rule."""
    return _MEMO_START + _ENTRY * MEMO_ENTRIES


@njit(cache=True)
def _read(n, end, taken, head, heading, radius, win):
    """The window round ``head`` in the frame of ``heading`` into ``win`` (row by row, the head at the centre)."""
    side = 2 * radius + 1
    for py in range(-radius, radius + 1):
        for px in range(-radius, radius + 1):
            x = head % n + px * RIGHT[heading, 0] - py * STRAIGHT[heading, 0]
            y = head // n + px * RIGHT[heading, 1] - py * STRAIGHT[heading, 1]
            i = (py + radius) * side + (px + radius)
            if x < 0 or y < 0 or x >= n or y >= n:
                win[i] = OFF
            elif taken[y * n + x] != 0:
                win[i] = TAKEN
            elif y * n + x == end:
                win[i] = END
            else:
                win[i] = FREE


@njit(cache=True)
def _key(win, side, mirror, key):
    """Pack the window (2 bits a cell, the frame or its mirror image) into four words."""
    for j in range(4):
        key[j] = 0
    k = 0
    for y in range(side):
        for x in range(side):
            v = win[y * side + (side - 1 - x if mirror else x)]
            key[k >> 5] |= np.uint64(v) << np.uint64(2 * (k & 31))
            k += 1


@njit(cache=True, inline="always")
def _bit(words, i):
    return (words[i >> 6] >> np.uint64(i & 63)) & np.uint64(1)


@njit(cache=True)
def _order_moves(win, side, v, visited, order):
    """The four moves from ``v``, the one into the cell with the fewest ways on first (Warnsdorff 1823)."""
    vx = v % side
    vy = v // side
    ways = np.empty(4, dtype=np.int64)
    for d in range(4):
        order[d] = d
        ways[d] = 99
        x = vx + _DX[d]
        y = vy + _DY[d]
        if x < 0 or y < 0 or x >= side or y >= side:
            continue
        u = y * side + x
        if (win[u] != FREE and win[u] != END) or _bit(visited, u):
            continue
        count = 0
        for e in range(4):
            x2 = x + _DX[e]
            y2 = y + _DY[e]
            if x2 < 0 or y2 < 0 or x2 >= side or y2 >= side:
                count += 1  # the outside: a way on
                continue
            w = y2 * side + x2
            if w != v and (win[w] == FREE or win[w] == END) and not _bit(visited, w):
                count += 1
        ways[d] = count
    for i in range(1, 4):
        j = i
        while j > 0 and ways[order[j - 1]] > ways[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1


@njit(cache=True)
def _reaches_all(win, side, cells, here, visited, used, cport, pcell, onboard, part, nports, left, reach, todo):
    """True if every unvisited cell to visit can still be reached from ``here``: over unvisited window cells,
    and from a rim cell with a free outward edge to any other such rim cell of the same part of the outside."""
    for i in range(cells):
        reach[i] = 0
    reach[here] = 1
    top = 0
    todo[0] = here
    found = 0
    jumped = np.zeros(8, dtype=np.int64)  # parts of the outside already entered
    while top >= 0:
        v = todo[top]
        top -= 1
        vx = v % side
        vy = v // side
        for d in range(4):
            x = vx + _DX[d]
            y = vy + _DY[d]
            if x < 0 or y < 0 or x >= side or y >= side:
                continue
            u = y * side + x
            if reach[u] == 1 or (win[u] != FREE and win[u] != END) or _bit(visited, u):
                continue
            reach[u] = 1
            found += 1
            if win[u] != END:
                top += 1
                todo[top] = u
        for j in range(2):
            p = cport[v, j]
            if p < 0 or onboard[p] == 0 or (used >> np.uint64(p)) & np.uint64(1):
                continue
            q = part[p]
            if q < 8 and jumped[q] == 1:
                continue
            if q < 8:
                jumped[q] = 1
            for t in range(nports):
                if part[t] != q or t == p or (used >> np.uint64(t)) & np.uint64(1):
                    continue
                u = pcell[t]
                if reach[u] == 1 or (win[u] != FREE and win[u] != END) or _bit(visited, u):
                    continue
                reach[u] = 1
                found += 1
                if win[u] != END:
                    top += 1
                    todo[top] = u
    return found >= left


@njit(cache=True)
def traversable(win, side, budget):
    """Whether a line can do in this window what every completion must (see the module): FEASIBLE,
    INFEASIBLE, or UNKNOWN when ``budget`` search nodes did not settle it.

    ``win`` holds the window row by row with the new head at the centre.
    """
    cells = side * side
    centre = (side // 2) * side + side // 2
    nports = 4 * side
    # the rim's outward edges in order round the window (clockwise from the top left)
    pcell = np.empty(nports, dtype=np.int64)
    cport = np.full((cells, 2), -1, dtype=np.int64)
    for x in range(side):
        pcell[x] = x  # up
        pcell[side + x] = x * side + side - 1  # right, top to bottom
        pcell[2 * side + x] = (side - 1) * side + side - 1 - x  # down, right to left
        pcell[3 * side + x] = (side - 1 - x) * side  # left, bottom to top
    for pos in range(nports):
        c = pcell[pos]
        if cport[c, 0] < 0:
            cport[c, 0] = pos
        else:
            cport[c, 1] = pos
    # the outside falls into parts where the board's edge crosses the rim: number them, order each
    onboard = np.zeros(nports, dtype=np.int64)
    allon = True
    for pos in range(nports):
        onboard[pos] = 1 if win[pcell[pos]] != OFF else 0
        if onboard[pos] == 0:
            allon = False
    part = np.full(nports, -1, dtype=np.int64)
    lin = np.zeros(nports, dtype=np.int64)
    if allon:
        for pos in range(nports):
            part[pos] = 0
            lin[pos] = pos
    else:
        start = 0
        while onboard[start] == 1:
            start += 1
        parts = 0
        run = 0
        for k in range(1, nports + 1):
            pos = (start + k) % nports
            if onboard[pos] == 1:
                if run == 0:
                    parts += 1
                part[pos] = parts - 1
                lin[pos] = run
                run += 1
            else:
                run = 0
    # what must be visited
    required = 0
    endcell = -1
    for i in range(cells):
        if win[i] == FREE or win[i] == END:
            required += 1
        if win[i] == END:
            endcell = i
    if required == 0:
        return FEASIBLE if endcell < 0 else INFEASIBLE
    visited = np.zeros(2, dtype=np.uint64)
    used = np.zeros(1, dtype=np.uint64)  # ports used
    chord_a = np.empty(cells + 2, dtype=np.int64)
    chord_b = np.empty(cells + 2, dtype=np.int64)
    chord_p = np.empty(cells + 2, dtype=np.int64)
    # the search stack: cell, next option, chords before, ports used by the step into the cell
    st_cell = np.empty(cells + 2, dtype=np.int64)
    st_opt = np.empty(cells + 2, dtype=np.int64)
    st_chords = np.empty(cells + 2, dtype=np.int64)
    st_in = np.empty(cells + 2, dtype=np.int64)
    st_out = np.empty(cells + 2, dtype=np.int64)
    nopt = 4 + 2 * (nports + 1)
    reach = np.zeros(cells, dtype=np.int64)
    todo = np.empty(cells + nports, dtype=np.int64)
    sp = 0
    st_cell[0] = centre
    st_opt[0] = 0
    st_order = np.empty((cells + 2, 4), dtype=np.int64)
    _order_moves(win, side, centre, visited, st_order[0])
    st_chords[0] = 0
    st_in[0] = -1
    st_out[0] = -1
    nchords = 0
    count = 0  # required cells visited
    nodes = 0
    while sp >= 0:
        v = st_cell[sp]
        k = st_opt[sp]
        if k >= nopt:
            # backtrack out of v
            if v != centre:
                visited[v >> 6] &= ~(np.uint64(1) << np.uint64(v & 63))
                count -= 1
            if st_in[sp] >= 0:
                used[0] &= ~(np.uint64(1) << np.uint64(st_in[sp]))
            if st_out[sp] >= 0:
                used[0] &= ~(np.uint64(1) << np.uint64(st_out[sp]))
            nchords = st_chords[sp]
            sp -= 1
            continue
        st_opt[sp] = k + 1
        vx = v % side
        vy = v // side
        target = -1
        pin = -1
        pout = -1
        if k < 4:
            dk = st_order[sp, k]
            x = vx + _DX[dk]
            y = vy + _DY[dk]
            if x < 0 or y < 0 or x >= side or y >= side:
                continue
            u = y * side + x
            if win[u] != FREE and win[u] != END:
                continue
            if _bit(visited, u):
                continue
            target = u
        else:
            j = (k - 4) // (nports + 1)
            t = (k - 4) % (nports + 1) - 1
            p = cport[v, j]
            if p < 0 or onboard[p] == 0 or (used[0] >> np.uint64(p)) & np.uint64(1):
                continue
            if t < 0:
                # the last excursion: to the end corner, outside the window
                if endcell < 0 and count == required:
                    return FEASIBLE
                continue
            if t == p or onboard[t] == 0 or part[t] != part[p] or (used[0] >> np.uint64(t)) & np.uint64(1):
                continue
            u = pcell[t]
            if win[u] != FREE and win[u] != END:
                continue
            if _bit(visited, u):
                continue
            a = lin[p] if lin[p] < lin[t] else lin[t]
            b = lin[t] if lin[p] < lin[t] else lin[p]
            crossing = False
            for c in range(nchords):
                if chord_p[c] != part[p]:
                    continue
                ca = chord_a[c]
                cb = chord_b[c]
                if (a < ca and ca < b and b < cb) or (ca < a and a < cb and cb < b):
                    crossing = True
                    break
            if crossing:
                continue
            target = u
            pin = t
            pout = p
        # step into target
        if target == endcell:
            if count + 1 == required:
                return FEASIBLE
            continue
        nodes += 1
        if nodes > budget:
            return UNKNOWN
        visited[target >> 6] |= np.uint64(1) << np.uint64(target & 63)
        count += 1
        if pout >= 0:
            used[0] |= (np.uint64(1) << np.uint64(pout)) | (np.uint64(1) << np.uint64(pin))
            chord_a[nchords] = lin[pout] if lin[pout] < lin[pin] else lin[pin]
            chord_b[nchords] = lin[pin] if lin[pout] < lin[pin] else lin[pout]
            chord_p[nchords] = part[pout]
        before = nchords
        if pout >= 0:
            nchords += 1
        # prune: every unvisited cell still needs its ways in and out
        dead = 0
        for w in range(cells):
            if (win[w] != FREE and win[w] != END) or _bit(visited, w):
                continue
            ways = 0
            wx = w % side
            wy = w // side
            for d in range(4):
                x = wx + _DX[d]
                y = wy + _DY[d]
                if x < 0 or y < 0 or x >= side or y >= side:
                    continue
                u = y * side + x
                if u == target or ((win[u] == FREE or win[u] == END) and not _bit(visited, u)):
                    ways += 1
            for j in range(2):
                p = cport[w, j]
                if p >= 0 and onboard[p] == 1 and not (used[0] >> np.uint64(p)) & np.uint64(1):
                    ways += 1
            if ways < (1 if w == endcell else 2):
                dead += 1
        if dead == 0 and not _reaches_all(win, side, cells, target, visited, used[0], cport, pcell, onboard, part,
                                          nports, required - count, reach, todo):
            dead = 1
        sp += 1
        st_cell[sp] = target
        st_opt[sp] = 0 if dead == 0 else nopt
        if dead == 0:
            _order_moves(win, side, target, visited, st_order[sp])
        st_chords[sp] = before
        st_in[sp] = pin
        st_out[sp] = pout
    return INFEASIBLE


@njit(cache=True)
def _lookup(table, key, store, verdict):
    """Find (``store`` False) or store the verdict of ``key`` in the open-addressing ``table``; 0 if absent."""
    entries = (table.shape[0] - _MEMO_START) // _ENTRY
    if entries <= 0:
        return 0
    h = key[0] * np.uint64(0x9E3779B97F4A7C15) ^ key[1] * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= key[2] * np.uint64(0x165667B19E3779F9) ^ key[3] * np.uint64(0x27D4EB2F165667C5)
    h ^= h >> np.uint64(29)
    slot = np.int64(h % np.uint64(entries))
    for _ in range(32):
        base = _MEMO_START + _ENTRY * slot
        if table[base + 4] == 0:
            if store:
                for j in range(4):
                    table[base + j] = key[j]
                table[base + 4] = np.uint64(verdict)
            return 0
        if table[base] == key[0] and table[base + 1] == key[1] and table[base + 2] == key[2] \
                and table[base + 3] == key[3]:
            return int(table[base + 4])
        slot = (slot + 1) % entries
    return 0


@njit(cache=True)
def window_verdict(n, end, taken, head, heading, radius, table):
    """FEASIBLE, INFEASIBLE or UNKNOWN for the window round ``head`` (``taken`` marks the line, head included)."""
    side = 2 * radius + 1
    win = np.empty(side * side, dtype=np.int64)
    _read(n, end, taken, head, heading, radius, win)
    key = np.zeros(4, dtype=np.uint64)
    twin = np.zeros(4, dtype=np.uint64)
    _key(win, side, False, key)
    _key(win, side, True, twin)
    for j in range(4):
        if twin[j] != key[j]:
            if twin[j] < key[j]:
                key[:] = twin
            break
    key[3] |= np.uint64(radius) << np.uint64(56)  # windows of two radii never share an entry
    verdict = _lookup(table, key, False, 0)
    if verdict == 0:
        verdict = traversable(win, side, NODE_BUDGET)
        _lookup(table, key, True, verdict)
    return verdict


@njit(cache=True)
def window_masks(nb, n, end, taken, head, radius, moves, table, trig, ntrig):
    """Which of the moves ``moves`` (bits 0-3) enter a window that cannot be traversed; the cell entered is the trigger.

    A move onto the end corner is left to the other rules.
    """
    out = 0
    asked = asked_moves(nb, end, taken, head, moves)
    for d in range(4):
        if not (asked >> d) & 1:
            continue
        c = nb[head, d]
        taken[c] = 1
        verdict = window_verdict(n, end, taken, c, d, radius, table)
        taken[c] = 0
        if verdict == INFEASIBLE:
            out |= 1 << d
            trig[d, 0] = c
            ntrig[d] = 1
    return out


class WindowRule(CompiledRule):
    """Close a move whose radius-R window cannot be traversed, whatever lies outside it (``window:R``)."""

    kind = DISABLE

    def __init__(self, radius):
        self.radius = int(radius)
        self.name = f"window:{self.radius}"
        self.code = WINDOW_BASE + self.radius
        self.summary = (f"a move whose {2 * self.radius + 1}x{2 * self.radius + 1} window round the new head "
                        "cannot be traversed, however the board outside it looks, is closed")

    def __repr__(self):
        return f"WindowRule({self.radius})"
