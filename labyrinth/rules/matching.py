"""Two-matching: the line's degrees must fit together (Hall's condition on the whole board), a universal rule.

Every free cell is passed through by the line, so it uses two of its edges
to free neighbours (the end corner one, the head one); a completion is such
an edge set that is also connected. Dropping connectedness leaves a
*perfect 2-matching* (a b-matching with b = the degrees): on the grid, a
bipartite graph (the checkerboard colours), it exists exactly when a flow
from the black cells to the white ones saturates every degree, which is
Hall's condition for every set of cells at once (Ford and Fulkerson 1956;
Schrijver 2003, *Combinatorial Optimization*, ch. 21). The study's
black/white counts are the case "all the cells of an area"; this rule also
catches a checkerboard of cells of one colour whose neighbours of the other
colour are too few to pass through them all, where no area is closed off.

The rule disables a move after which no perfect 2-matching exists. It is
sound (a completion is a perfect 2-matching) and exact for the relaxation.
It reads the whole board, and its work is one augmenting path per move: the
walker keeps a perfect 2-matching of the current state in its scratch block
(rows :data:`BASE` ..), and a move changes it in at most two edges, which one
breadth-first search for an alternating path repairs (Hopcroft and Karp
1973 for the augmenting paths). A state the kernel has no matching for
(the first of a walk, or after a jump in an enumeration) gets one built from
scratch; a matching is always checked against the state before it is used.

>>> from labyrinth.engine import State
>>> from labyrinth.rules import get_rule_set
>>> state = State.from_moves(9, "RRDDDRDR")
>>> get_rule_set("universal").open_moves(state)             # the universal rules see nothing wrong
'UDR'
>>> [(e.move, e.cells) for e in TwoMatching().effects(state)]  # but after D no edge set meets every degree
[('D', (49,))]
"""

import numpy as np
from numba import njit

from labyrinth.rules._lines import POP
from labyrinth.rules._lines import ROWS as _LINES_ROWS
from labyrinth.rules.base import DISABLE, CompiledRule

__all__ = ["BASE", "CERTIFY_CODE", "CODE", "ROWS", "TwoMatching", "as_path", "matching_masks"]

CODE = 7
#: the code of the same rule in a rule set whose rules are all sound: it also certifies live moves
CERTIFY_CODE = 17
#: first scratch row of the matching (after the future-lines rows)
BASE = _LINES_ROWS
#: the current state's matching (a 4-bit mask of matched directions per cell), then one per move
MATE = BASE
BUF = BASE + 1  # rows BUF .. BUF + 3: the matching after move d
TAG = BASE + 5  # TAG[0:2] head and free count of MATE; TAG[2 + 2d : 4 + 2d] those of BUF + d; TAG[10] stamp
SHORT = 11  # TAG[SHORT:SHORT + 6]: the cells a repair left short of edges
LINE = 17  # TAG[LINE]: 1 if MATE is a completion (one line); TAG[LINE + 1 + d]: the same for BUF + d
PREV = BASE + 6
QUEUE = BASE + 7
SEEN = BASE + 8
#: the scratch rows the matching uses (BASE .. ROWS - 1)
ROWS = BASE + 9

#: _OTHER[4 * mask + d]: the other direction of a two-edge mask that has ``d`` (-1 if none)
_OTHER = np.array([(next((f for f in range(4) if (m >> f) & 1 and f != d), -1) if (m >> d) & 1 else -1)
                   for m in range(16) for d in range(4)], dtype=np.int32)


@njit(cache=True, inline="always")
def _need(taken, end, head, c):
    if c == head or c == end:
        return 1
    return 0 if taken[c] else 2


@njit(cache=True, inline="always")
def _usable(nb, end, taken, head, free_left, a, d):
    """True if the edge from node ``a`` in direction ``d`` joins two nodes and may be used."""
    b = nb[a, d]
    if b < 0:
        return False
    if taken[b] != 0 and b != head:
        return False
    if free_left > 1 and ((a == head and b == end) or (a == end and b == head)):
        return False
    return True


@njit(cache=True, inline="always")
def _drop(nb, m, a, d):
    b = nb[a, d]
    m[a] &= ~(1 << d)
    m[b] &= ~(1 << (d ^ 1))


@njit(cache=True, inline="always")
def _add(nb, m, a, d):
    b = nb[a, d]
    m[a] |= 1 << d
    m[b] |= 1 << (d ^ 1)


@njit(cache=True, inline="always")
def _stamp(w):
    """A fresh mark for the ``SEEN`` row (cleared when the counter gets large)."""
    if w[TAG, 10] >= 1 << 30 or w[TAG, 10] < 0:
        w[SEEN, :] = 0
        w[TAG, 10] = 0
    w[TAG, 10] += 1
    return w[TAG, 10]


@njit(cache=True, inline="always")
def _root(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def as_path(nb, end, taken, head, free_left, m, w):
    """Turn the perfect 2-matching ``m`` into one line from the head to the end (a completion); True on success.

    The matching is a path from the head to the end plus cycles. Two of its
    pieces joined by a unit square (two parallel matched edges, one in each)
    become one when the square swaps its sides (Karp 1979's patching, as
    used for Hamiltonian cycles in grid graphs): a cycle patched into the
    path makes a longer path, two cycles one cycle; every degree is kept.
    The squares are scanned until one piece is left or no square joins two
    pieces: then False, nothing proven (``m`` stays a perfect 2-matching).
    """
    size = taken.shape[0]
    label = w[PREV]
    parent = w[QUEUE]
    seen = w[SEEN]
    stamp = _stamp(w)
    total = free_left + 1
    # the path from the head: piece 0 (a two-edge cell is left by the edge it did not come in by)
    count = 1
    seen[head] = stamp
    label[head] = 0
    d = -1
    for e in range(4):
        if (m[head] >> e) & 1:
            d = e
    cur = head
    while d >= 0:
        cur = nb[cur, d]
        seen[cur] = stamp
        label[cur] = 0
        count += 1
        d = _OTHER[4 * m[cur] + (d ^ 1)]
    if count == total:
        return True
    pieces = 1
    for a in range(size):
        if seen[a] == stamp or _need(taken, end, head, a) == 0:
            continue
        cur = a
        d = -1
        for e in range(4):
            if (m[a] >> e) & 1:
                d = e
                break
        while seen[cur] != stamp:
            seen[cur] = stamp
            label[cur] = pieces
            cur = nb[cur, d]
            d = _OTHER[4 * m[cur] + (d ^ 1)]
        pieces += 1
    for k in range(pieces):
        parent[k] = k
    left = pieces - 1
    changed = True
    while left > 0 and changed:
        changed = False
        for p in range(size):
            if seen[p] != stamp:
                continue
            for e in (1, 3):  # each matched edge once: downwards and rightwards from p
                if not (m[p] >> e) & 1:
                    continue
                q = nb[p, e]
                for g in range(4):
                    if g == e or g == (e ^ 1):
                        continue
                    p2 = nb[p, g]
                    if p2 < 0 or seen[p2] != stamp or not (m[p2] >> e) & 1:
                        continue
                    q2 = nb[q, g]
                    ra = _root(parent, label[p])
                    rb = _root(parent, label[p2])
                    if ra == rb:
                        continue
                    if free_left > 1 and (p2 == head and p == end or p == head and p2 == end
                                          or q2 == head and q == end or q == head and q2 == end):
                        continue
                    _drop(nb, m, p, e)
                    _drop(nb, m, p2, e)
                    _add(nb, m, p, g)
                    _add(nb, m, q, g)
                    parent[rb] = ra
                    left -= 1
                    changed = True
                    break
                if left == 0:
                    break
            if left == 0:
                break
    return left == 0


@njit(cache=True)
def _augment(nb, end, taken, head, free_left, m, src, w):
    """Give the node ``src`` (short of edges) one more, along an alternating path to another such node.

    Breadth-first over the residual graph: unmatched usable edges away from
    ``src``'s side, matched edges back. False if no such path exists.
    """
    size = taken.shape[0]
    stamp = _stamp(w)
    seen = w[SEEN]
    prev = w[PREV]
    queue = w[QUEUE]
    seen[src] = stamp
    prev[src] = -1
    queue[0] = src
    qh = 0
    qt = 1
    while qh < qt:
        a = queue[qh]
        qh += 1
        for d in range(4):
            if (m[a] >> d) & 1 == 1 or not _usable(nb, end, taken, head, free_left, a, d):
                continue
            b = nb[a, d]
            if seen[b] == stamp:
                continue
            seen[b] = stamp
            prev[b] = a
            if POP[m[b]] < _need(taken, end, head, b):
                # flip the path: unmatched edges in, matched edges out
                y = b
                add = True
                while prev[y] >= 0:
                    x = prev[y]
                    for e in range(4):
                        if nb[x, e] == y:
                            if add:
                                _add(nb, m, x, e)
                            else:
                                _drop(nb, m, x, e)
                            break
                    add = not add
                    y = x
                return True
            for e in range(4):
                if (m[b] >> e) & 1:
                    c = nb[b, e]
                    if seen[c] != stamp:
                        seen[c] = stamp
                        prev[c] = b
                        if qt < size:
                            queue[qt] = c
                            qt += 1
    return False


@njit(cache=True)
def _build(nb, colour, end, taken, head, free_left, m, w):
    """A perfect 2-matching of the state in ``m`` from scratch (greedy, then augmenting paths); False if none."""
    size = taken.shape[0]
    for c in range(size):
        m[c] = 0
    for c in range(size):
        if _need(taken, end, head, c) == 0 or colour[c] != 1:
            continue
        for d in range(4):
            if POP[m[c]] >= _need(taken, end, head, c):
                break
            if _usable(nb, end, taken, head, free_left, c, d):
                b = nb[c, d]
                if POP[m[b]] < _need(taken, end, head, b):
                    _add(nb, m, c, d)
    for c in range(size):
        if colour[c] != 1:
            continue
        while POP[m[c]] < _need(taken, end, head, c):
            if not _augment(nb, end, taken, head, free_left, m, c, w):
                return False
    for c in range(size):
        if POP[m[c]] != _need(taken, end, head, c):
            return False
    return True


@njit(cache=True)
def _valid(nb, end, taken, head, free_left, m):
    """True if ``m`` is a perfect 2-matching of the state (every degree met, every edge usable)."""
    size = taken.shape[0]
    bad = 0  # counted rather than returned early: numba compiles the early exit ~6x slower here
    for c in range(size):
        k = m[c]
        if POP[k] != _need(taken, end, head, c):
            bad += 1
        for d in range(4):
            if (k >> d) & 1 == 1:
                if not _usable(nb, end, taken, head, free_left, c, d):
                    bad += 1
    return bad == 0


@njit(cache=True)
def _current(nb, colour, end, taken, head, free_count, w):
    """Make ``w[MATE]`` a perfect 2-matching of the current state; False if it has none."""
    m = w[MATE]
    if w[TAG, 0] == head and w[TAG, 1] == free_count and _valid(nb, end, taken, head, free_count, m):
        return True
    for d in range(4):
        if w[TAG, 2 + 2 * d] == head and w[TAG, 3 + 2 * d] == free_count:
            m[:] = w[BUF + d]
            if _valid(nb, end, taken, head, free_count, m):
                w[TAG, 0] = head
                w[TAG, 1] = free_count
                w[TAG, LINE] = w[TAG, LINE + 1 + d]
                return True
    # the matching of the state one step back, when the step was not asked about: repair it now
    back = w[TAG, 0]
    if back >= 0 and w[TAG, 1] == free_count + 1 and back < taken.shape[0] and taken[back] != 0:
        for d in range(4):
            if nb[back, d] == head:
                taken[head] = 0
                ok = _after(nb, end, taken, back, free_count + 1, d, w, False)
                taken[head] = 1
                if ok:
                    m[:] = w[BUF + d]
                    if _valid(nb, end, taken, head, free_count, m):
                        w[TAG, 0] = head
                        w[TAG, 1] = free_count
                        w[TAG, LINE] = 0
                        return True
                break
    ok = _build(nb, colour, end, taken, head, free_count, m, w)
    w[TAG, LINE] = 0
    if ok and as_path(nb, end, taken, head, free_count, m, w):  # a completion repairs into more completions
        w[TAG, LINE] = 1
    w[TAG, 0] = head if ok else -1
    w[TAG, 1] = free_count
    return ok


@njit(cache=True)
def _after(nb, end, taken, head, free_count, d, w, certify):
    """Repair the current matching for the move ``d`` into ``w[BUF + d]``.

    Returns 0 if the state after the move has no perfect 2-matching, 1 if it
    has, 2 if ``certify`` is set and the matching became a completion
    (:func:`as_path`): the move is then proven live.
    """
    c = nb[head, d]
    m = w[BUF + d]
    m[:] = w[MATE]
    left = free_count - 1
    short = w[TAG, SHORT:SHORT + 6]
    k = 0
    # the old head leaves the graph: its one edge goes
    for e in range(4):
        if (m[head] >> e) & 1:
            x = nb[head, e]
            _drop(nb, m, head, e)
            if x != c:
                short[k] = x
                k += 1
    taken[c] = 1
    # the new head keeps one edge, and not the one to the end while other cells are free
    if left > 1:
        for e in range(4):
            if (m[c] >> e) & 1 == 1 and nb[c, e] == end:
                _drop(nb, m, c, e)
                short[k] = end
                k += 1
    for e in range(4):
        if POP[m[c]] > 1 and (m[c] >> e) & 1:
            short[k] = nb[c, e]
            k += 1
            _drop(nb, m, c, e)
    if POP[m[c]] < 1:
        short[k] = c
        k += 1
    ok = 1
    for i in range(k):
        s = short[i]
        if POP[m[s]] < _need(taken, end, c, s):
            if not _augment(nb, end, taken, c, left, m, s, w):
                ok = 0
                break
    if ok and certify:
        # the move along a completion leaves the rest of it, a completion (no cell was left short)
        if (k == 0 and w[TAG, LINE] == 1) or as_path(nb, end, taken, c, left, m, w):
            ok = 2
    w[TAG, LINE + 1 + d] = 1 if ok == 2 else 0
    taken[c] = 0
    w[TAG, 2 + 2 * d] = c if ok else -1
    w[TAG, 3 + 2 * d] = left
    return ok


@njit(cache=True)
def matching_masks(nb, colour, end, taken, head, free_count, moves, w, trig, ntrig, certify):
    """Which of the moves ``moves`` (bits 0-3) leave no perfect 2-matching; the cell entered is the trigger.

    With ``certify``, bits 8-11 mark the moves after which the repaired
    matching is a completion (proven live: a sound rule set need ask no
    other rule about them). A move onto the end corner is left to the other
    rules.
    """
    out = 0
    asked = 0
    for d in range(4):
        c = nb[head, d]
        if (moves >> d) & 1 == 1 and c >= 0 and taken[c] == 0 and c != end:
            asked |= 1 << d
    moves = asked
    if moves == 0:
        return 0
    if not _current(nb, colour, end, taken, head, free_count, w):
        out = moves
    else:
        for d in range(4):
            if (moves >> d) & 1:
                ok = _after(nb, end, taken, head, free_count, d, w, certify)
                if ok == 0:
                    out |= 1 << d
                elif ok == 2:
                    out |= 1 << (d + 8)
    for d in range(4):
        if (out >> d) & 1:
            trig[d, 0] = nb[head, d]
            ntrig[d] = 1
    return out


class TwoMatching(CompiledRule):
    """Disable a move after which the free cells admit no perfect 2-matching (every degree met)."""

    name = "two-matching"
    code = CODE
    kind = DISABLE
    optional = True
    summary = ("every free cell needs two line edges (the end and the head one): a move after which no "
               "choice of edges meets every degree (Hall's condition, the black/white count generalised) is closed")
