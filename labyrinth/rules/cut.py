"""Cut: the edges a completion must take across the bridges and two-edge cuts of the closure's option graph.

After the closure (:mod:`labyrinth.rules.closure`) the state is a graph of
*options*: the edges a completion may still use, some of them forced. Every
completion (a line from the head to the end corner through every free cell)
uses only options and every forced edge. Cut a set of edges ``C`` of that
graph so that a part ``K`` of its cells is no longer reachable from the
head. The line starts outside ``K``; it crosses ``C`` an odd number of times
if the end corner lies in ``K``, an even number of times otherwise, and at
least once, because it visits every cell of ``K``. Hence:

* a *bridge* (``C`` one edge) with the end corner outside ``K``: the line
  would have to enter ``K`` and leave it by one edge: no completion;
* a bridge with the end corner in ``K``: the line takes it (forced);
* a *two-edge cut* with the end corner outside ``K``: the line enters ``K``
  by one edge and leaves it by the other: both are forced.

The forced edges go back into the future lines and the closure, which may
then meet a contradiction (a cell with an edge too many, a loop, cells cut
off, no perfect 2-matching), and the cuts are looked for again, for at most
:data:`MAX_ROUNDS` rounds. Each deduction only removes what no completion
uses or forces what every completion uses, so the rule never closes a live
move.

This is the step the closure lacks: it checks that every cell is still
connected to the head, but not *how well*. The stuck walks of ``strong++``
(``reports/strong-plus-plus-misses.md``) enter pockets of forced zigzags,
diamonds fenced by diagonal chains of the line, that hang on the rest by two
options; once the line must take both, the zigzags close into a loop or cut
the rest off. ``reports/cut-condition.md`` has the figures and the vertex-cut
(toughness) counts that were tried first and refuted none of them.

Finding the cuts: one breadth-first tree from the head, a random 64-bit
label on every edge off the tree, and on every tree edge the exclusive or of
the labels of the off-tree edges whose cycles pass over it (random labels of
the cycle space: a set of edges is a cut exactly when the labels of every
cycle through it cancel). A tree edge labelled 0 is a bridge, two edges with the
same label form a two-edge cut, with high probability; every candidate is
then *checked* by a search of the graph without it, so a collision of labels
costs a search and never a wrong deduction. At most :data:`MAX_CHECKS` such
searches a round, over classes of at most :data:`MAX_GROUP` edges of one label.

The 21x21 stuck walk of ``strong++`` drawn in ``reports/cut-condition.md``: the move into the dead state
(step 321, ``L``) is left open by ``strong++`` (with ``R``) and closed by the cut rule.

>>> import json, pathlib
>>> from labyrinth.engine import State
>>> from labyrinth.rules import get_rule_set
>>> misses = pathlib.Path(__file__).parents[2] / "reports" / "strong-plus-plus-misses.jsonl"
>>> miss = [json.loads(line) for line in misses.open()][2]
>>> before = State.from_moves(21, miss["line"][3:][:miss["first_dead_step"] - 1])
>>> miss["move"], get_rule_set("strong++").open_moves(before), [e.move for e in CutCondition().effects(before)]
('L', 'LR', ['U', 'L'])
"""

import numpy as np
from numba import njit

from labyrinth.rules import _lines, codes
from labyrinth.rules._lines import FRC, OPT
from labyrinth.rules.base import DISABLE, CompiledRule
from labyrinth.rules.closure import QUEUE, SEEN, closure_after_move, closure_rounds, flood

__all__ = ["CODE", "CutCondition", "cut_masks", "cut_rounds"]

CODE = codes.CUT
#: rounds of cuts, each followed by the future lines and the closure, before the rule gives up
MAX_ROUNDS = 10
#: searches that check a candidate cut, per round
MAX_CHECKS = 256
#: the largest class of edges with one label whose pairs are checked
MAX_GROUP = 8
#: rows of the integer work block: the breadth-first tree (parent, direction from it), each cell's place in
#: the flood's order
_PARENT, _PDIR, _POS = range(3)
_SEED = 0x9E3779B97F4A7C15


@njit(cache=True, inline="always")
def _edge(nb, c, d):
    """The id of the edge from ``c`` in direction ``d``: 2 x its upper or left cell, + 1 for a horizontal edge."""
    if d == 1:
        return c * 2
    if d == 3:
        return c * 2 + 1
    if d == 0:
        return nb[c, 0] * 2
    return nb[c, 2] * 2 + 1


@njit(cache=True, inline="always")
def _ends(e):
    """The upper or left cell of edge ``e`` and the direction (D or R) to the other."""
    return e // 2, 1 if e % 2 == 0 else 3


@njit(cache=True, inline="always")
def _drop(nb, w, e, back):
    """Take the option ``e`` out of ``w[OPT]`` (both its cells), or put it ``back``; -1 is no edge."""
    if e < 0:
        return
    c, d = _ends(e)
    x = nb[c, d]
    if back:
        w[OPT, c] |= 1 << d
        w[OPT, x] |= 1 << (d ^ 1)
    else:
        w[OPT, c] &= ~(1 << d)
        w[OPT, x] &= ~(1 << (d ^ 1))


@njit(cache=True)
def _reach(nb, w, head, e1, e2):
    """The closure's :func:`~labyrinth.rules.closure.flood` from the head without the options ``e1`` and ``e2``
    (-1: none): how many cells it reaches, and the mark they hold in ``w[SEEN]``."""
    _drop(nb, w, e1, False)
    _drop(nb, w, e2, False)
    reached = flood(nb, w, head)
    _drop(nb, w, e1, True)
    _drop(nb, w, e2, True)
    return reached


@njit(cache=True)
def _labels(nb, w, head, iw, lab, elab, isedge, seed):
    """The breadth-first tree from the head and every option's cut label into ``elab``; the cells reached.

    The tree is the closure's flood (:func:`~labyrinth.rules.closure.flood`):
    a cell's parent is the neighbour over an option that the flood reached
    first, the one it was reached from (the options go both ways).
    """
    qt = flood(nb, w, head)[0]
    order = w[QUEUE]
    parent = iw[_PARENT]
    pdir = iw[_PDIR]
    pos = iw[_POS]
    isedge[:] = 0
    for i in range(qt):
        a = order[i]
        pos[a] = i
        lab[a] = 0
    parent[head] = -1
    for i in range(1, qt):
        v = order[i]
        o = w[OPT, v]
        p = -1
        pd = 0
        for d in range(4):
            if (o >> d) & 1:
                u = nb[v, d]
                if p < 0 or pos[u] < pos[p]:
                    p = u
                    pd = d ^ 1
        parent[v] = p
        pdir[v] = pd
    x = np.uint64(seed)
    for i in range(qt):
        a = order[i]
        o = w[OPT, a]
        for d in (1, 3):
            if (o >> d) & 1:
                b = nb[a, d]
                e = _edge(nb, a, d)
                isedge[e] = 1
                if (parent[b] == a and pdir[b] == d) or (parent[a] == b and pdir[a] == (d ^ 1)):
                    continue
                x ^= x << np.uint64(13)
                x ^= x >> np.uint64(7)
                x ^= x << np.uint64(17)
                elab[e] = x
                lab[a] ^= x
                lab[b] ^= x
    for i in range(qt - 1, 0, -1):
        v = order[i]
        p = parent[v]
        elab[_edge(nb, p, pdir[v])] = lab[v]  # the xor of the labels in v's subtree: the cycles over its edge
        lab[p] ^= lab[v]
    return qt


@njit(cache=True)
def _cuts(nb, w, head, end, iw, lab, elab, isedge, out, seed, cells):
    """The edges the bridges and two-edge cuts force into ``out``: how many, or -1 (no completion; ``cells``)."""
    nodes = _labels(nb, w, head, iw, lab, elab, isedge, seed)
    ne = 0
    for e in range(isedge.shape[0]):
        if isedge[e]:
            ne += 1
    ids = np.empty(ne, dtype=np.int64)
    keys = np.empty(ne, dtype=np.uint64)
    k = 0
    for e in range(isedge.shape[0]):
        if isedge[e]:
            ids[k] = e
            keys[k] = elab[e]
            k += 1
    srt = np.argsort(keys)
    seen = w[SEEN]
    nf = 0
    checks = 0
    i = 0
    while i < ne:
        j = i
        while j < ne and keys[srt[j]] == keys[srt[i]]:
            j += 1
        if keys[srt[i]] == 0:
            for g in range(i, j):
                e = ids[srt[g]]
                c, d = _ends(e)
                if checks >= MAX_CHECKS:
                    break
                checks += 1
                reached, mark = _reach(nb, w, head, e, -1)
                if reached == nodes:
                    continue  # not a bridge (the labels collided)
                if seen[end] == mark:
                    cells[0] = c
                    cells[1] = nb[c, d]
                    return -1  # cells without the head or the end corner hang on one edge
                if not (w[FRC, c] >> d) & 1:
                    out[nf] = e
                    nf += 1
        elif j - i <= MAX_GROUP:
            for g in range(i, j):
                for h in range(g + 1, j):
                    e1 = ids[srt[g]]
                    e2 = ids[srt[h]]
                    c1, d1 = _ends(e1)
                    c2, d2 = _ends(e2)
                    f1 = (w[FRC, c1] >> d1) & 1
                    f2 = (w[FRC, c2] >> d2) & 1
                    if (f1 and f2) or checks >= MAX_CHECKS:
                        continue
                    checks += 1
                    reached, mark = _reach(nb, w, head, e1, e2)
                    if reached == nodes or seen[end] != mark:
                        continue  # not a cut, or the end corner behind it: one of the two may do
                    if not f1:
                        out[nf] = e1
                        nf += 1
                    if not f2:
                        out[nf] = e2
                        nf += 1
        i = j
    return nf


@njit(cache=True)
def cut_rounds(nb, colour, w, head, end, cells):
    """From a fixed point of the closure in the work rows: the cuts' forced edges, the future lines and the
    closure again, to a fixed point or :data:`MAX_ROUNDS`; 0, or how many ``cells`` show a contradiction."""
    size = w.shape[1]
    iw = np.empty((3, size), dtype=np.int64)
    lab = np.zeros(size, dtype=np.uint64)
    elab = np.zeros(2 * size, dtype=np.uint64)
    isedge = np.zeros(2 * size, dtype=np.uint8)
    out = np.empty(2 * MAX_CHECKS + 2 * size, dtype=np.int64)
    for r in range(MAX_ROUNDS):
        nf = _cuts(nb, w, head, end, iw, lab, elab, isedge, out, _SEED + 2 * r + 1, cells)
        if nf < 0:
            return 2
        if nf == 0:
            return 0
        for i in range(nf):
            c, d = _ends(out[i])
            if (w[FRC, c] >> d) & 1:
                continue
            if not (w[OPT, c] >> d) & 1:
                cells[0] = c
                cells[1] = nb[c, d]
                return 2  # the propagation dropped an edge a cut forces
            k = _lines.force(nb, w, c, d, cells)
            if k:
                return k
        k = _lines.propagate(nb, w, cells)
        if k == 0:
            k = closure_rounds(nb, colour, w, head, cells)
        if k:
            return k
    return 0


@njit(cache=True)
def cut_masks(nb, colour, end, taken, head, free_count, moves, w, trig, ntrig):
    """Which of the moves ``moves`` (bits 0-3) the closure with the cuts' forced edges refutes.

    The future lines of the state are found once and kept; each move starts
    from them with its step forced, runs the closure, then :func:`cut_rounds`.
    A move onto the end corner is left to the other rules.
    """
    asked, out = _lines.start_moves(nb, end, taken, head, free_count, moves, w, trig, ntrig)
    for d in range(4):
        if not (asked >> d) & 1:
            continue
        _lines.restore(w)
        k = closure_after_move(nb, colour, w, head, d, trig[d])
        if k == 0:
            k = cut_rounds(nb, colour, w, head, end, trig[d])
        if k:
            out |= 1 << d
            ntrig[d] = k
    return out


class CutCondition(CompiledRule):
    """Disable a move after which the edges forced across bridges and two-edge cuts of the closure's options,
    propagated with the closure, meet a contradiction."""

    name = "cut"
    code = CODE
    kind = DISABLE
    optional = True
    summary = ("the closure, then every bridge and two-edge cut of its options: the line crosses a cut an odd "
               "or even number of times (end corner behind it or not), so such edges are forced; a move after "
               "which that meets a contradiction is closed")
