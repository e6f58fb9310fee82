"""Numba kernel of the semi-magic tour enumeration: the tour grown from both ends, numbers from the outside in.

Why both ends: a line (row or column) of a semi-magic tour sums to 260,
i.e. its numbers' deviations from the mean 32.5 sum to 0. Grown from number 1
alone, every line holds only small numbers for a long time and no line sum
can be refuted before half the board is numbered (the puzzle author's
search, and :mod:`._magic_kernel`). Grown from both ends, 1, 2, 3... on head
*A* and 64, 63, 62... on head *B*, the numbers still to place always form
one interval ``lo..hi`` around the mean: the narrowest possible window, so
the line bounds below bite early. This is the decomposition of the 2003
enumeration (Mackay, Meyrignac, Stertenbrink; magictour.free.fr): a unit of
work is a pair of cells for 1 and 64 (its 136 "ranges" are the 136 orbits of
such pairs under the board's symmetries and reversal), here cut finer by
the first moves at each end.

A node's checks, each sound (a branch is cut only when no completion exists):

* *line bounds*: a line with ``f`` free cells needs ``need`` more. Its
  numbers are pairwise non-consecutive (a knight's move changes the row and
  the column), the odd ones on the colour of cell 1 and the even ones on the
  other, and none comes before the head can reach the line (``OFF``: a move
  changes the row by 1 or 2, and the next number is never on the head's own
  line). The least sum of ``f`` such numbers ``>= l``, ``p`` of them of
  ``l``'s parity, is ``f*l + f*f - p`` (one run of ``l``'s parity, step 2,
  then one of the other parity, a single step of 3 between); the largest
  ``<= h``, ``q`` of ``h``'s parity, ``f*h - f*f + q``;
* *unions*: rows (columns) three or more apart hold no consecutive numbers
  either (no knight's move joins them), so the same bound holds for their
  union, which sees the lines competing for the same small or large
  numbers: such unions are more lines to the kernel, with their own
  targets (the caller's tables, :data:`.semimagic.UNIONS`);
* *paths*: every free cell keeps two path neighbours among the free cells
  and the heads; a free cell with exactly two, one a head, is that head's
  forced next cell (two such for one head: dead); a cell with three forced
  neighbours is dead;
* *children's lines*: a head's candidate cells all take the same number
  (``lo`` for *A*, ``hi`` for *B*) and the same colour, and a line through
  the new head is at ``OFF`` 1 from it whatever the cell, so the bound of
  each line once it holds that number is one test per line, done in the
  node's line loop (``lmask[0]``: each line's cells); a candidate on a
  line that fails it is dropped before it becomes a node. Only the largest
  sum (for *A*'s ``lo``) and the least (for *B*'s ``hi``) are tested: the
  other side follows from the node's own bound. Likewise a line the child
  leaves: a child of *A* at ``OFF`` o from it starts it at ``lo + 1 + o``
  (its least sum grows by ``2p`` a step), one test per line for o = 0, 1
  and 2 (every cell off the line; ``lmask[1]``, ``lmask[2]``: the cells
  that far or further; o = 3 paid less than it cost); *B* alike with the
  largest sum. Each is the child's own test on that line (for o = 0 a
  weaker one, the least sum growing with the start), so sound; its worth is
  in the counts below, which count live children only (a head with none:
  dead). With o = 3 too, the node's own line test would refute nothing
  (measured: the same nodes without it); it stays for the root and o = 3;
* *children's paths*: a free cell with exactly two path neighbours, next to
  neither head, has the same two in a child; a candidate next to two such
  cells would have two forced cells, so it is dropped too (one bitboard
  pass for all candidates).

The head extended at a node is the one with fewer candidate cells (after
the children's lines), a tie going to the head that has placed fewer
numbers (with the children's lines counted: 13% fewer nodes than a tie to
the head ahead, which was the better rule before them; keeping the two heads
level costs up to twice the nodes). Checks tried and left out because they
cost more time than they saved (``reports/knight_magic.md``): forward
checking of both heads' children (every line), a flood fill of the free
cells, distances through the free cells instead of ``OFF``, static knight
distances to a line's free cells, per-cell time windows propagated through
the line sums, per-line tables of the least sum from the cells' pattern.

The search runs in slices of a bounded number of nodes (:func:`run`), its
whole state in arrays, so the caller can stop between slices; each tour
found is written to a buffer the caller drains.
"""

import numpy as np
from numba import njit

__all__ = ["R_DONE", "R_FOUND", "R_NODES", "R_OUT", "new_state", "run", "start"]

#: registers: frame index, lo, hi, head A, head B, nodes, tours found, tours in the buffer, finished
R_K, R_LO, R_HI, R_A, R_B, R_NODES, R_FOUND, R_OUT, R_DONE = range(9)
_REGS = 9
_U1 = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)   # not file a (x = 0)
_NOT_AB = np.uint64(0xFCFCFCFCFCFCFCFC)
_NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)   # not file h (x = 7)
_NOT_GH = np.uint64(0x3F3F3F3F3F3F3F3F)


def new_state(lines, size=64):
    """Fresh arrays of one search: ``(regs, bits, num, need, fo, fe, side, cell, prev, cand)`` (``bits[0]``: the free cells).

    The line state (``need``, ``fo``, ``fe``) is int16, like the caller's
    ``off`` and ``targets``: narrower lanes for the vectorised line loop
    (5-8% faster than int64; every value stays within a few thousand).
    """
    return (np.zeros(_REGS, np.int64), np.zeros(1, np.uint64), np.zeros(size, np.int64), np.zeros(lines, np.int16),
            np.zeros(lines, np.int16), np.zeros(lines, np.int16), np.zeros(size + 2, np.int64),
            np.full(size + 2, -1, np.int64), np.zeros(size + 2, np.int64), np.zeros(size + 2, np.uint64))


@njit(inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit(inline="always")
def _lowest(x):
    """Index of the lowest set bit of a non-zero ``x``."""
    return _popcount((x & (~x + _U1)) - _U1)


@njit(inline="always")
def _at_least(free):
    """Cells with at least one, two and three knight neighbours in ``free`` (three bitboards)."""
    one = np.uint64(0)
    two = np.uint64(0)
    three = np.uint64(0)
    for k in range(8):
        if k == 0:
            m = (free & _NOT_A) >> np.uint64(17)
        elif k == 1:
            m = (free & _NOT_H) >> np.uint64(15)
        elif k == 2:
            m = (free & _NOT_AB) >> np.uint64(10)
        elif k == 3:
            m = (free & _NOT_GH) >> np.uint64(6)
        elif k == 4:
            m = (free & _NOT_H) << np.uint64(17)
        elif k == 5:
            m = (free & _NOT_A) << np.uint64(15)
        elif k == 6:
            m = (free & _NOT_GH) << np.uint64(10)
        else:
            m = (free & _NOT_AB) << np.uint64(6)
        three |= two & m
        two |= one & m
        one |= m
    return one, two, three


@njit(inline="always")
def _place(c, n, sign, odd, cell_lines, need, fo, fe):
    """Write (sign 1) or erase (sign -1) number ``n`` on cell ``c``: its lines' needs and free counts."""
    is_odd = (odd >> np.uint64(c)) & _U1
    for j in range(cell_lines.shape[1]):
        ln = cell_lines[c, j]
        if ln < 0:
            break
        need[ln] -= sign * n
        if is_odd:
            fo[ln] -= sign
        else:
            fe[ln] -= sign


@njit(cache=True)
def start(kn, cell_lines, targets, odd, prefix, suffix, regs, bits, num, need, fo, fe, side, cell, prev, cand):
    """Set up the search of every tour with ``prefix`` on 1, 2... and ``suffix`` on 64, 63...; False if it has none.

    ``targets`` holds each line's sum; ``odd`` is the bitboard of the cells
    that take the odd numbers (the colour of cell 1).
    """
    size = kn.shape[0]
    free = ~np.uint64(0) if size == 64 else (_U1 << np.uint64(size)) - _U1
    regs[:] = 0
    num[:] = 0
    need[:] = targets
    fo[:] = 0
    fe[:] = 0
    cell[:] = -1
    for c in range(size):
        _place(c, 0, -1, odd, cell_lines, need, fo, fe)  # counts every cell free
    lo = 1
    hi = size
    ok = prefix.shape[0] > 0 and suffix.shape[0] > 0 and prefix.shape[0] + suffix.shape[0] <= size
    for i in range(prefix.shape[0] + suffix.shape[0]):
        if not ok:
            break
        pre = i < prefix.shape[0]
        j = i if pre else i - prefix.shape[0]
        c = prefix[j] if pre else suffix[j]
        last = -1 if j == 0 else (prefix[j - 1] if pre else suffix[j - 1])
        if c < 0 or c >= size or num[c] != 0 or (last >= 0 and not (kn[last] >> np.uint64(c)) & _U1):
            ok = False
            break
        n = lo if pre else hi
        num[c] = n
        free &= ~(_U1 << np.uint64(c))
        _place(c, n, 1, odd, cell_lines, need, fo, fe)
        if pre:
            lo += 1
        else:
            hi -= 1
    if ok and ((odd >> np.uint64(prefix[0])) & _U1) == 0:
        ok = False  # number 1 goes on a cell of the odd numbers' colour
    regs[R_LO] = lo
    regs[R_HI] = hi
    if ok:
        regs[R_A] = prefix[prefix.shape[0] - 1]
        regs[R_B] = suffix[suffix.shape[0] - 1]
    bits[0] = free
    if not ok:
        regs[R_DONE] = 1
    return ok


@njit(cache=True)
def run(kn, cell_lines, odd, off, lmask, regs, bits, num, need, fo, fe, side, cell, prev, cand, out, budget):
    """Go on with a search of :func:`start` for about ``budget`` nodes; True when it is finished.

    Each tour found is written to ``out[regs[R_OUT]]`` as the number on each
    cell; the search stops early (False) when the buffer is full, for the
    caller to drain it (set ``regs[R_OUT]`` back to 0). ``lmask[0, line]``
    is the line's cells as a bitboard, ``lmask[o, line]`` (o = 1, 2) the
    cells off the line at ``OFF`` o or more. One function on purpose: numba counts
    references to arrays handed to helpers, which would cost more than the
    node itself.
    """
    if regs[R_DONE]:
        return True
    zero = np.uint64(0)
    free = bits[0]
    lo = regs[R_LO]
    hi = regs[R_HI]
    a = regs[R_A]
    b = regs[R_B]
    k = regs[R_K]
    nodes = regs[R_NODES]
    stop = nodes + budget
    fresh = k == 0  # the root is still to be looked at
    while True:
        if not fresh:
            c = cell[k]
            if c >= 0:  # take back the frame's current cell
                if side[k] == 0:
                    lo -= 1
                    n = lo
                    a = prev[k]
                else:
                    hi += 1
                    n = hi
                    b = prev[k]
                num[c] = 0
                free |= _U1 << np.uint64(c)
                is_odd = (odd >> np.uint64(c)) & _U1
                for j in range(cell_lines.shape[1]):
                    ln = cell_lines[c, j]
                    if ln < 0:
                        break
                    need[ln] += n
                    if is_odd:
                        fo[ln] += 1
                    else:
                        fe[ln] += 1
                cell[k] = -1
            x = cand[k]
            if x == 0:
                k -= 1
                if k == 0:
                    regs[R_DONE] = 1
                    break
                continue
            if nodes >= stop or regs[R_OUT] == out.shape[0]:
                break
            c = _lowest(x)
            cand[k] = x & (x - _U1)
            cell[k] = c
            if side[k] == 0:
                n = lo
                lo += 1
                a = c
            else:
                n = hi
                hi -= 1
                b = c
            num[c] = n
            free &= ~(_U1 << np.uint64(c))
            is_odd = (odd >> np.uint64(c)) & _U1
            for j in range(cell_lines.shape[1]):
                ln = cell_lines[c, j]
                if ln < 0:
                    break
                need[ln] -= n
                if is_odd:
                    fo[ln] -= 1
                else:
                    fe[ln] -= 1
            nodes += 1
        # --- look at the node: the line bounds, then the paths ---
        rja = zero  # the cells whose lines refute them as head A's next cell (number lo)
        rjb = zero  # ... as head B's next cell (number hi)
        oa = lo & 1  # every candidate of a head has the colour of its next number
        ob = hi & 1
        bad = 0  # every line's bound, without a branch (a zero-free line must need 0: the same formulas say so)
        for ln in range(need.shape[0]):
            x1 = fo[ln]
            y1 = fe[ln]
            f = x1 + y1
            l1 = lo + off[a, ln]
            h1 = hi - off[b, ln]
            p = y1 + ((x1 - y1) & -(l1 & 1))  # the count of l1's parity
            q = y1 + ((x1 - y1) & -(h1 & 1))
            nd = need[ln]
            bad |= (nd < f * (l1 + f) - p) | (nd > f * (h1 - f) + q)
            # the same line once a child of A (B) holds lo (hi) on it: its largest (least) sum, the other head's
            # bound unchanged (the other side follows from the node's own bound); one test for every child in it
            x2 = x1 - oa
            y2 = y1 - (1 - oa)
            f2 = x2 + y2
            q2 = y2 + ((x2 - y2) & -(h1 & 1))
            rja |= lmask[0, ln] & (zero - np.uint64(nd - lo > f2 * (h1 - f2) + q2))
            x2 = x1 - ob
            y2 = y1 - (1 - ob)
            f2 = x2 + y2
            p2 = y2 + ((x2 - y2) & -(l1 & 1))
            rjb |= lmask[0, ln] & (zero - np.uint64(nd - hi < f2 * (l1 + f2) - p2))
            # the lines a child leaves: a child of A on a cell at OFF o from the line (o = 1, 2: lmask[o]; o >= 0:
            # every cell off the line) starts it at lo + 1 + o, its least sum (from lo + 2, +-2p a step) the only
            # side that moves; B alike
            pc = y1 + ((x1 - y1) & -oa)
            ms = f * (lo + 2 + f) - pc
            rja |= (lmask[1, ln] & (zero - np.uint64(nd < ms))) | (lmask[2, ln] & (zero - np.uint64(nd < ms + 2 * pc)))
            rja |= ~lmask[0, ln] & (zero - np.uint64(nd < ms - 2 * (f - pc)))  # o = 0: from lo + 1
            qc = y1 + ((x1 - y1) & -ob)
            mx = f * (hi - 2 - f) + qc
            rjb |= (lmask[1, ln] & (zero - np.uint64(nd > mx))) | (lmask[2, ln] & (zero - np.uint64(nd > mx - 2 * qc)))
            rjb |= ~lmask[0, ln] & (zero - np.uint64(nd > mx + 2 * (f - qc)))
        ok = bad == 0
        m = hi - lo + 1
        if ok and m == 0:  # every cell numbered: a tour if the two ends meet
            if (kn[a] >> np.uint64(b)) & _U1:
                out[regs[R_OUT], :] = num
                regs[R_OUT] += 1
                regs[R_FOUND] += 1
            ok = False
        cn = zero
        s = 0
        if ok:
            ka = kn[a]
            kb = kn[b]
            one, two, three = _at_least(free)
            ab = ka | kb
            ge2 = two | (one & ab) | (ka & kb)
            if m >= 2 and free & ~ge2:
                ok = False
            else:
                ge3 = three | (two & ab) | (one & ka & kb)
                ex2 = free & ge2 & ~ge3
                few = ex2 & (ex2 - _U1)
                if m >= 2 and few & (few - _U1):  # three forced cells at least
                    _o, _t, forced3 = _at_least(ex2)
                    if free & forced3:
                        ok = False
                ca = ka & free
                cb = kb & free
                fa = ex2 & ka
                fb = ex2 & kb
                if fa:
                    if m > 1 and fa & (fa - _U1):
                        ok = False
                    ca = fa
                if fb:
                    if m > 1 and fb & (fb - _U1):
                        ok = False
                    cb = fb
                ca &= ~rja  # children that their own line bounds would cut: not made, and not counted
                cb &= ~rjb
                if ok and m > 2:
                    # a cell with two path neighbours, neither head's neighbour, keeps them in a child: one that
                    # has two such cells around it would have two forced cells (dead), so it is not made
                    _o, t2, _t = _at_least(ex2 & ~ab)
                    ca &= ~t2
                    cb &= ~t2
                if ok:
                    if m == 1:
                        cn = ca & kb
                    else:
                        pa = _popcount(ca)
                        pb = _popcount(cb)
                        if pa == 0 or pb == 0:
                            cn = zero
                        elif pa < pb or (pa == pb and lo - 1 < kn.shape[0] - hi):  # a tie: the head behind
                            cn = ca
                        else:
                            s = 1
                            cn = cb
        if cn:
            k += 1
            side[k] = s
            cand[k] = cn
            prev[k] = a if s == 0 else b
            cell[k] = -1
        if fresh:
            fresh = False
            if k == 0:
                regs[R_DONE] = 1
                break
    bits[0] = free
    regs[R_LO] = lo
    regs[R_HI] = hi
    regs[R_A] = a
    regs[R_B] = b
    regs[R_K] = k
    regs[R_NODES] = nodes
    return bool(regs[R_DONE])
