"""Exact areas: an area the line can enter and leave only through single cells must be traversable, exactly.

After a move, the free cells and the new head form a graph G. Where one cell
(a *gate*) separates G, the line must pass through it once, so G falls into
areas strung between gates: the head's area, the areas between consecutive
gates, and the end's area (the block-cut tree of G must be that path, or no
completion exists: an area hanging off a gate can be entered but not left,
and a head between two areas can serve only one; Tarjan 1972 finds the
gates). A completion is then exactly a chain of Hamiltonian paths, one per
area, each from the gate it enters by to the gate it leaves by (the head
and the end corner at the two ends of the chain). So each area small enough
(at most :data:`MAX_CELLS` cells) is decided exactly: a depth-first search
for a path through every one of its cells between its two gates.

That is the question the study's area rules answer approximately, by
counting cells and colours; here it is answered exactly, for every area and
every pair of gates, whether the end lies in the area or not. Verdicts are
cached by the area's shape and gates (in the program's memo, shared with
``window:R``), so each shape is searched once per process.

The rule ``exact-areas`` disables a move after which some area cannot be
traversed. It reads the whole board; its work per move is one depth-first
search of the board for the gates, one flood for the areas, and for each
small area one cached search of at most :data:`NODE_BUDGET` nodes (past it
the area counts as traversable: never a guess).

>>> from labyrinth.engine import State
>>> from labyrinth.rules import get_rule_set
>>> state = State.from_moves(7, "DDDDDDRRRURDRUULU")
>>> get_rule_set("universal").open_moves(state)          # counting cells and colours finds nothing wrong
'ULR'
>>> [(e.move, [state.board.xy(c) for c in e.cells]) for e in ExactAreas().effects(state)]
[('L', [(4, 4), (7, 4)])]
"""

import numpy as np
from numba import njit

from labyrinth.rules import codes
from labyrinth.rules._moves import asked_moves
from labyrinth.rules.base import DISABLE, CompiledRule
from labyrinth.rules.closure import ROWS as _CLOSURE_ROWS
from labyrinth.rules.window import _lookup

__all__ = ["BASE", "CODE", "ExactAreas", "MAX_CELLS", "NODE_BUDGET", "ROWS", "areas_dead", "areas_masks", "gate_search"]

CODE = codes.EXACT_AREAS
#: first scratch row (after the closure's rows)
BASE = _CLOSURE_ROWS
DISC, LOW, PARENT, ITER, STACK, LABEL, LOCAL, CELLS = range(BASE, BASE + 8)
#: the scratch rows the rule uses (BASE .. ROWS - 1)
ROWS = BASE + 8
#: areas of more cells are left to the other rules
MAX_CELLS = 40
#: search nodes per area before it counts as traversable
NODE_BUDGET = 100_000
#: the memo key's tag word (``window:R`` uses its radius there)
_TAG = np.uint64(0xAA) << np.uint64(56)

_DX = np.array([0, 0, -1, 1], dtype=np.int64)
_DY = np.array([-1, 1, 0, 0], dtype=np.int64)


@njit(cache=True, inline="always")
def _node(taken, head, c):
    return c >= 0 and (taken[c] == 0 or c == head)


@njit(cache=True)
def gate_search(nb, taken, head, disc, low, parent, it, stack):
    """Depth-first search from the head over the free cells: discovery times, low points, parents (Tarjan 1972).

    The cut cells between the head and the end corner (the gates) are read
    off them: :func:`areas_dead` here, :func:`labyrinth.rules.gates.area_chain`
    for the gates rule. ``it`` and ``stack`` are working space. Returns the
    nodes reached.
    """
    size = taken.shape[0]
    for c in range(size):
        disc[c] = -1
    t = 0
    disc[head] = 0
    low[head] = 0
    parent[head] = -1
    it[head] = 0
    sp = 0
    stack[0] = head
    t = 1
    while sp >= 0:
        v = stack[sp]
        d = it[v]
        if d < 4:
            it[v] = d + 1
            x = nb[v, d]
            if x < 0:
                continue
            if taken[x] != 0 and x != head:
                continue
            if disc[x] < 0:
                disc[x] = t
                low[x] = t
                t += 1
                parent[x] = v
                it[x] = 0
                sp += 1
                stack[sp] = x
            elif x != parent[v] and disc[x] < low[v]:
                low[v] = disc[x]
            continue
        sp -= 1
        p = parent[v]
        if p >= 0 and low[v] < low[p]:
            low[p] = low[v]
    return t


@njit(cache=True)
def _traversable(nb, area, count, a, b, budget):
    """1 if a path from ``a`` to ``b`` passes through every cell of ``area[:count]`` (cells of the board), 0 if none
    does, -1 if ``budget`` search nodes did not settle it. The cells must be listed with ``a`` and ``b`` among them."""
    if count == 1:
        return 1 if a == b else 0
    # local indices and neighbours
    adj = np.full((count, 4), -1, dtype=np.int64)
    for i in range(count):
        for d in range(4):
            x = nb[area[i], d]
            if x < 0:
                continue
            for j in range(count):
                if area[j] == x:
                    adj[i, d] = j
                    break
    ia = -1
    ib = -1
    for i in range(count):
        if area[i] == a:
            ia = i
        if area[i] == b:
            ib = i
    path = np.empty(count, dtype=np.int64)
    nxt = np.zeros(count, dtype=np.int64)
    visited = np.uint64(1) << np.uint64(ia)
    path[0] = ia
    depth = 0
    nodes = 0
    while depth >= 0:
        v = path[depth]
        if depth == count - 1:
            if v == ib:
                return 1
        d = nxt[depth]
        if d >= 4 or depth == count - 1:
            visited &= ~(np.uint64(1) << np.uint64(v))
            nxt[depth] = 0
            depth -= 1
            continue
        nxt[depth] = d + 1
        u = adj[v, d]
        if u < 0:
            continue
        if (visited >> np.uint64(u)) & np.uint64(1):
            continue
        if u == ib and depth + 2 != count:
            continue  # the exit gate comes last
        nodes += 1
        if nodes > budget:
            return -1
        visited |= np.uint64(1) << np.uint64(u)
        # every cell still to visit needs two ways (the exit gate one): unvisited cells or the new end of the path
        dead = 0
        for i in range(count):
            if (visited >> np.uint64(i)) & np.uint64(1):
                continue
            ways = 0
            for e in range(4):
                j = adj[i, e]
                if j >= 0 and (j == u or not (visited >> np.uint64(j)) & np.uint64(1)):
                    ways += 1
            if ways < (1 if i == ib else 2):
                dead += 1
        if dead:
            visited &= ~(np.uint64(1) << np.uint64(u))
            continue
        depth += 1
        path[depth] = u
        nxt[depth] = 0
    return 0


@njit(cache=True)
def _shape_key(n, area, count, a, b, key):
    """The memo key of an area (its cells in their bounding box, the two gates); False if the box is too big."""
    x0 = n
    y0 = n
    x1 = -1
    y1 = -1
    for i in range(count):
        x = area[i] % n
        y = area[i] // n
        x0 = min(x0, x)
        y0 = min(y0, y)
        x1 = max(x1, x)
        y1 = max(y1, y)
    width = x1 - x0 + 1
    height = y1 - y0 + 1
    if width * height > 64:
        return False
    bits = np.uint64(0)
    for i in range(count):
        k = (area[i] // n - y0) * width + (area[i] % n - x0)
        bits |= np.uint64(1) << np.uint64(k)
    ka = (a // n - y0) * width + (a % n - x0)
    kb = (b // n - y0) * width + (b % n - x0)
    if kb < ka:
        ka, kb = kb, ka  # a path from a to b is one from b to a
    key[0] = bits
    key[1] = np.uint64(width) | (np.uint64(height) << np.uint64(8)) | (np.uint64(ka) << np.uint64(16)) \
        | (np.uint64(kb) << np.uint64(24))
    key[2] = 0
    key[3] = _TAG
    return True


@njit(cache=True)
def areas_dead(nb, n, end, taken, head, free_left, w, table, cells):
    """How many ``cells`` show an area that cannot be traversed (0: none); ``taken`` marks the line, head included."""
    if free_left == 0:
        return 0
    size = taken.shape[0]
    reached = gate_search(nb, taken, head, w[DISC], w[LOW], w[PARENT], w[ITER], w[STACK])
    if reached != free_left + 1:
        cells[0] = head
        return 1  # the free cells fall apart
    disc = w[DISC]
    low = w[LOW]
    parent = w[PARENT]
    label = w[LABEL]
    # the gates on the way from the head to the end, and every cut cell: each must be on that way
    onway = w[ITER]  # reused: 1 on the tree path from the head to the end
    for c in range(size):
        onway[c] = 0
    v = end
    while v >= 0:
        onway[v] = 1
        v = parent[v]
    children = 0
    for c in range(size):
        if disc[c] < 0 or c == head:
            continue
        p = parent[c]
        if p == head:
            children += 1
        if p != head and low[c] >= disc[p] and not onway[c]:
            cells[0] = p
            return 1  # an area hangs off the gate p with no way on to the end
    if children > 1:
        cells[0] = head
        return 1  # the head stands between areas it cannot both serve
    gate = w[LOCAL]  # 1 for a gate on the way
    gates = 0
    for c in range(size):
        gate[c] = 0
    v = end
    while v >= 0 and v != head:
        p = parent[v]
        if p >= 0 and p != head and low[v] >= disc[p]:
            gate[p] = 1
            gates += 1
        v = p
    if gates == 0:
        return 0  # one area, the whole board: the other rules' business
    # the areas: flood the nodes apart from the gates; each area with the gates next to it
    for c in range(size):
        label[c] = -1
    area = w[CELLS]
    stack = w[STACK]
    key = np.zeros(4, dtype=np.uint64)
    for seed in range(size):
        if disc[seed] < 0 or gate[seed] == 1 or label[seed] >= 0:
            continue
        count = 0
        sp = 0
        stack[0] = seed
        label[seed] = seed
        ga = -1
        gb = -1
        while sp >= 0:
            c = stack[sp]
            sp -= 1
            area[count] = c
            count += 1
            for d in range(4):
                x = nb[c, d]
                if not _node(taken, head, x):
                    continue
                if gate[x] == 1:
                    if x != ga and x != gb:
                        if ga < 0:
                            ga = x
                        else:
                            gb = x
                    continue
                if label[x] < 0:
                    label[x] = seed
                    sp += 1
                    stack[sp] = x
        # the area's two ends: its gates, or the head / the end corner where the area holds them
        a = -1
        b = -1
        holds_head = label[head] == seed
        holds_end = label[end] == seed
        if holds_head:
            a = head
            b = ga if not holds_end else end
        elif holds_end:
            a = ga
            b = end
        else:
            a = ga
            b = gb
        if a < 0 or b < 0:
            continue
        # the gates are part of the area's path
        if a != head and a != end:
            area[count] = a
            count += 1
        if b != head and b != end and b != a:
            area[count] = b
            count += 1
        if count > MAX_CELLS or count > 64:
            continue
        verdict = 0
        cached = _shape_key(n, area, count, a, b, key)
        if cached:
            verdict = _lookup(table, key, False, 0)
        if verdict == 0:
            found = _traversable(nb, area, count, a, b, NODE_BUDGET)
            verdict = 1 if found == 1 else 2 if found == 0 else 3
            if cached:
                _lookup(table, key, True, verdict)
        if verdict == 2:
            cells[0] = a
            cells[1] = b
            return 2
    return 0


@njit(cache=True)
def areas_masks(nb, n, end, taken, head, free_count, moves, w, table, trig, ntrig):
    """Which of the moves ``moves`` (bits 0-3) leave an area that cannot be traversed; its gates are the triggers.

    A move onto the end corner is left to the other rules.
    """
    out = 0
    asked = asked_moves(nb, end, taken, head, moves)
    for d in range(4):
        if not (asked >> d) & 1:
            continue
        c = nb[head, d]
        taken[c] = 1
        k = areas_dead(nb, n, end, taken, c, free_count - 1, w, table, trig[d])
        taken[c] = 0
        if k:
            out |= 1 << d
            ntrig[d] = k
    return out


class ExactAreas(CompiledRule):
    """Disable a move after which an area between single-cell gates cannot be traversed (decided exactly)."""

    name = "exact-areas"
    code = CODE
    kind = DISABLE
    optional = True
    summary = ("the areas the line can enter and leave only through single cells must each have a path through "
               "all their cells between their gates: decided exactly for areas of up to 40 cells")
