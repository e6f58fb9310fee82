"""The walker's witness recovered from the closure: its fixed point patched into a line, a pocket entered once.

Where the walker took a move no local repair proved live, its witness is
left a perfect 2-matching with cycles (:mod:`labyrinth.rules._witness`), and
every move is then decided by the closure over the whole board. The
closure's fixed point (forced edges and its 2-matching) often patches into a
line where the repair's 2-matching did not (:func:`closure_witness`); a small
cycle still left is usually a pocket behind a narrow neck, which a completion
runs through in one excursion: the closure is asked again with the pocket
entered once (:func:`_pocket_witness`), or, where its neck is wide, with one
edge out of it forced (:func:`_opened`). Every line found is checked before
it is trusted.
"""

import numpy as np
from numba import njit

from labyrinth.rules import _lines, _twomatch, _witness, closure

__all__ = ["closure_witness"]


@njit(cache=True)
def closure_witness(nb, colour, end, taken, head, free_count, w):
    """Give the state a witness from its closure (when the walker's local repair found none); True if it has one.

    The closure's forced edges and 2-matching, patched over the whole board,
    often make a line where a repair's 2-matching did not: the forced pieces
    already run through the pockets the repair left as cycles.
    """
    cells = w[_witness.BUF, :4].copy()
    if closure.closure_dead(nb, colour, end, taken, head, free_count, w, cells) != 0:
        return False
    m = w[_witness.MATE]
    for c in range(taken.shape[0]):
        m[c] = w[closure.FRC, c] | w[closure.CM, c]
    if _witness.mend(nb, end, taken, head, free_count, w) or _pocket_witness(nb, colour, end, taken, head,
                                                                            free_count, w, cells):
        w[_witness.CTRL, _witness.MODE] = _witness.PATH
        return True
    w[_witness.CTRL, _witness.MODE] = _witness.MATCHING
    return False


#: cycles of at most this many cells are tried as pockets (:func:`_pocket_witness`), at most ``POCKET_TRIES`` of
#: them a call, each with at most ``POCKET_EDGES`` edges out of it (every pair of them tried)
POCKET_CELLS = 64
POCKET_TRIES = 2
POCKET_EDGES = 8
#: a cycle no pair of edges turns into one excursion is opened: at most this many of its edges out, one at a time
OPEN_EDGES = 16


@njit(cache=True)
def _pocket_witness(nb, colour, end, taken, head, free_count, w, cells):
    """A witness where :func:`labyrinth.rules._witness.mend` left a small cycle in a pocket: the pocket entered once.

    A small cycle no local re-routing takes into the line is usually a
    pocket behind a narrow neck, which the line passes by twice far apart
    along it; a completion runs through it in one excursion, entering by one
    edge out of it and leaving by another, and reaches its neighbourhood by
    another route altogether (no window round the pocket holds the change).
    So the closure is asked again with the pocket's cells entered once: for
    each pair of the options that leave the cycle's cells, both forced and
    the others dropped (a supposition, not a deduction: only a line that
    :func:`labyrinth.rules._twomatch.is_line` accepts is kept), its fixed
    point patched into a line (:func:`labyrinth.rules._witness.mend`); where
    no pair does, or the cycle has too many edges out, it is opened
    (:func:`_opened`). Where several cycles are left, each waits on the
    others: an opening that takes one cycle into the line, others left, is
    kept as the 2-matching the next round reads its cycles from (at most
    :data:`POCKET_ROUNDS` rounds). The closure's fixed point for the state must be in the work rows; ``MATE`` is
    left as it was unless a line was found. True if one was.
    """
    m = w[_witness.MATE]
    saved = m.copy()
    best = m.copy()  # the 2-matching the cycles are read from: an opening that takes a cycle into the line betters it
    _lines.keep(w)
    for _ in range(POCKET_ROUNDS):
        m[:] = best
        got = _pockets_once(nb, colour, end, taken, head, free_count, w, cells, best)
        if got == _LINE:
            return True
        if got != _BETTER:
            break
        best[:] = m
    m[:] = saved
    return False


#: what a try of :func:`_opened` or :func:`_pockets_once` gives: nothing, a 2-matching with more of it on the
#: line (left in ``MATE``), a line
_NOTHING, _BETTER, _LINE = 0, 1, 2
#: rounds of :func:`_pocket_witness`: each starts from the 2-matching the last one bettered
POCKET_ROUNDS = 4


@njit(cache=True)
def _pockets_once(nb, colour, end, taken, head, free_count, w, cells, best):
    """One round of :func:`_pocket_witness` over the cycles of ``best`` (also in ``MATE``): ``_LINE``, ``_BETTER``
    or ``_NOTHING``."""
    size = taken.shape[0]
    mark = _witness._onl_stamp(w)
    on_line = _witness._line_piece(nb, head, w, mark)
    onl = w[_witness.ONL]
    seen = np.zeros(size, dtype=np.bool_)
    pocket = np.empty(POCKET_CELLS + 1, dtype=np.int64)
    inp = np.zeros(size, dtype=np.bool_)
    out_c = np.empty(4 * POCKET_CELLS, dtype=np.int64)
    out_d = np.empty(4 * POCKET_CELLS, dtype=np.int64)
    tries = 0
    for a in range(size):
        if tries >= POCKET_TRIES:
            break
        if taken[a] or a == head or a == end or onl[a] == mark or seen[a]:
            continue
        # the cycle through ``a``
        k = 0
        d = -1
        for e in range(4):
            if (best[a] >> e) & 1:
                d = e
                break
        cur = a
        while d >= 0 and not seen[cur]:
            seen[cur] = True
            if k <= POCKET_CELLS:
                pocket[k] = cur
            k += 1
            cur = nb[cur, d]
            d = _twomatch.OTHER[4 * best[cur] + (d ^ 1)]
        if k > POCKET_CELLS or cur != a:
            continue
        tries += 1
        for i in range(k):
            inp[pocket[i]] = True
        nout = 0
        for i in range(k):
            p = pocket[i]
            o = w[closure.OPT, p]
            for e in range(4):
                if (o >> e) & 1 and not inp[nb[p, e]]:
                    out_c[nout] = p
                    out_d[nout] = e
                    nout += 1
        ones = 0
        for i in range(k):
            inp[pocket[i]] = False
            ones += colour[pocket[i]] == 1
        if nout < 2:
            continue
        if nout <= POCKET_EDGES and abs(2 * ones - k) <= 1:
            if _entered_once(nb, colour, end, taken, head, free_count, w, cells, out_c, out_d, nout, k, ones):
                return _LINE
        got = _opened(nb, colour, end, taken, head, free_count, w, cells, out_c, out_d, min(nout, OPEN_EDGES), best,
                      on_line)
        if got != _NOTHING:
            return got
    return _NOTHING


@njit(cache=True)
def _entered_once(nb, colour, end, taken, head, free_count, w, cells, out_c, out_d, nout, k, ones):
    """The pocket of ``k`` cells (``ones`` of colour 1) entered by one pair of its ``nout`` edges out, the others
    dropped, closed and patched; True if a line was found (in ``MATE``)."""
    size = taken.shape[0]
    m = w[_witness.MATE]
    for i in range(nout):
        for j in range(i + 1, nout):
            u = out_c[i]
            v = out_c[j]
            # one excursion through the pocket is a path from ``u`` to ``v`` through all its cells: on the
            # grid its ends differ in colour if it has as many cells of each, else both are of the larger one
            if u == v:
                continue
            if 2 * ones == k:
                if colour[u] == colour[v]:
                    continue
            elif colour[u] != colour[v] or (colour[u] == 1) != (2 * ones > k):
                continue
            _lines.restore(w)
            bad = False
            for t in range(nout):
                if t != i and t != j:
                    if (w[closure.FRC, out_c[t]] >> out_d[t]) & 1:
                        bad = True
                        break
                    _lines.remove(nb, w, out_c[t], out_d[t])
            if bad:
                continue
            if not (w[closure.FRC, out_c[i]] >> out_d[i]) & 1 and _lines.force(nb, w, out_c[i], out_d[i], cells):
                continue
            if not (w[closure.FRC, out_c[j]] >> out_d[j]) & 1 and _lines.force(nb, w, out_c[j], out_d[j], cells):
                continue
            if _lines.propagate(nb, w, cells) or closure.closure_rounds(nb, colour, w, head, cells):
                continue
            for c in range(size):
                m[c] = w[closure.FRC, c] | w[closure.CM, c]
            if _witness.mend(nb, end, taken, head, free_count, w) and _witness.is_line(
                    nb, end, taken, head, free_count, m, w):
                return True
    return False


@njit(cache=True)
def _opened(nb, colour, end, taken, head, free_count, w, cells, out_c, out_d, nout, mate, on_line):
    """A witness where a cycle's pocket has a wide neck: one edge out of the cycle's cells forced, closed, patched.

    Where the line's excursion through a pocket also takes cells of its
    neck, no pair of edges out of the cycle's cells bounds it, and the
    closure's matching, left free, closes the same cycle again. One edge out
    of those cells, forced, leaves the matching an odd number of edges inside
    them, so it must leave them again: the cycle is opened, and the closure
    finds where (each of the first ``nout`` edges out tried in turn: a
    supposition, kept only if :func:`labyrinth.rules._twomatch.is_line`
    accepts the line it patches into). The closure's matching starts from
    ``mate``, the 2-matching the mend left (:func:`labyrinth.rules.closure.seeded_rounds`),
    so only the cycle's neighbourhood changes and little is left to mend.
    ``_LINE`` if a line was found (in ``MATE``); else ``_BETTER`` if a try left
    a 2-matching whose line holds more than ``on_line`` cells (in ``MATE``:
    the cycle taken in, others left, which the next round takes on), else ``_NOTHING``.
    """
    size = taken.shape[0]
    m = w[_witness.MATE]
    for t in range(nout):
        _lines.restore(w)
        if (w[closure.FRC, out_c[t]] >> out_d[t]) & 1:
            continue
        if _lines.force(nb, w, out_c[t], out_d[t], cells):
            continue
        if _lines.propagate(nb, w, cells) or closure.seeded_rounds(nb, colour, w, head, cells, mate):
            continue
        for c in range(size):
            m[c] = w[closure.FRC, c] | w[closure.CM, c]
        if _witness.mend(nb, end, taken, head, free_count, w):
            if _witness.is_line(nb, end, taken, head, free_count, m, w):
                return _LINE
        elif _witness._line_piece(nb, head, w, _witness._onl_stamp(w)) > on_line:
            return _BETTER
    return _NOTHING
