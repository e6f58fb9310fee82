"""The builder's area arguments: cells cut off, cut cells the line cannot pass, areas whose colours do not fit.

What the area rules of :mod:`labyrinth.rules.areas` decide with the block and
colour conditions of :mod:`labyrinth.engine.graph`, found again here on the
options a derivation has left (fewer options only ever show more) and
written as checker steps:

* ``cut`` with no cut cell: cells the head cannot reach;
* ``cut`` with one cut cell: the head between two areas, or an area hanging
  off a cell with no way on to the end (the block-cut tree of the nodes,
  Tarjan 1972, rooted at the head, must be a path from the head to the end);
* ``balance``: each area strung between consecutive cut cells of that path
  (one gate on the head's or the end's side, two gates in between) must hold
  the colours a line between its gates can cover (the study's area parity and
  black/white counts);
* ``area`` (:func:`exact_step`, when nothing else shows a contradiction):
  an area of those, small enough, that no path through all its cells
  crosses between its gates (a search, as ``exact-areas`` does);
* pockets: an area hanging between a free neighbour of the head and another
  cell (two gates), as the area rules look at them: ``balance`` again, or a
  ``cut`` of both cells when two such areas hang between the same pair.

:func:`area_step` returns the smallest such contradiction, or None.
"""

from verify.certificates.check import AREA_CELLS

__all__ = ["area_step", "exact_step"]


def _tarjan(der, root, skip=-1):
    """Depth-first search over the options from ``root`` (not entering ``skip``).

    Returns ``order`` (cells in preorder), ``disc`` (preorder numbers), ``parent``,
    ``size`` (subtree sizes), ``has_end`` and ``cuts``: for each cell, the
    children whose subtrees it separates from the rest (every child of the root).
    """
    opt, end = der.opt, der.board.end
    disc = {root: 0}
    low = {root: 0}
    parent = {root: -1}
    size = {}
    has_end = {}
    cuts = {}
    order = [root]
    stack = [(root, iter(opt[root]))]
    while stack:
        v, it = stack[-1]
        for w in it:
            if w == skip:
                continue
            if w not in disc:
                disc[w] = low[w] = len(order)
                parent[w] = v
                order.append(w)
                stack.append((w, iter(opt[w])))
                break
            if w != parent[v] and disc[w] < low[v]:
                low[v] = disc[w]
        else:
            stack.pop()
            size[v] = size.get(v, 0) + 1
            has_end[v] = has_end.get(v, False) or v == end
            if stack:
                p = stack[-1][0]
                size[p] = size.get(p, 0) + size[v]
                has_end[p] = has_end.get(p, False) or has_end[v]
                if low[v] < low[p]:
                    low[p] = low[v]
                if p == root or low[v] >= disc[p]:
                    cuts.setdefault(p, []).append(v)
    return order, disc, parent, size, has_end, cuts


def _subtree(order, disc, size, v):
    return order[disc[v]:disc[v] + size[v]]


def _xy_list(der, cells):
    return [der.xy(c) for c in sorted(cells)]


def _cut(der, cut, pieces):
    return {"kind": "cut", "cells": _xy_list(der, cut), "pieces": [_xy_list(der, p) for p in pieces]}


def _dead(der, step):
    got = der.test(step)
    return got is not None and got.dead


def _candidates(der):
    """Contradicting steps the block-cut tree of the options shows, as ``(size, step)``."""
    head, end = der.board.head, der.board.end
    order, disc, parent, size, has_end, cuts = _tarjan(der, head)
    if len(order) < len(der.nodes):
        covered = set(order)
        pieces = []
        for c in der.nodes:
            if c not in covered:
                pieces.append(_component(der, c, covered))
                covered.update(pieces[-1])
        piece = min(pieces, key=len)
        return [(len(piece), _cut(der, [], [piece]))]
    out = []
    kids = cuts.get(head, [])
    if len(kids) > 1:
        small = min(kids, key=lambda v: size[v])
        out.append((size[small], _cut(der, [head], [_subtree(order, disc, size, small)])))
    for p, vs in cuts.items():
        if p == head:
            continue
        for v in vs:
            if not has_end[v]:
                out.append((size[v], _cut(der, [p], [_subtree(order, disc, size, v)])))
    if out:
        return out
    # the chain of cut cells from the head to the end: areas between consecutive ones
    chain = []  # (cut cell, its child towards the end)
    v = end
    while v != head:
        p = parent[v]
        if p != head and any(c == v for c in cuts.get(p, ())):
            chain.append((p, v))
        v = p
    chain.reverse()
    inside = set(der.nodes)
    regions = []
    for p, v in chain:
        below = set(_subtree(order, disc, size, v))
        regions.append(inside - below - {p})
        inside = below
    regions.append(inside)
    for region in regions:
        if region:
            out.append((len(region), {"kind": "balance", "cells": _xy_list(der, region)}))
    return out


def _component(der, start, blocked):
    seen = {start}
    todo = [start]
    while todo:
        c = todo.pop()
        for d in der.opt[c]:
            if d not in seen and d not in blocked:
                seen.add(d)
                todo.append(d)
    return sorted(seen)


def _pockets(der):
    """Areas hanging between a free neighbour ``a`` of the head and another cell: ``(size, step)``."""
    head, end = der.board.head, der.board.end
    out = []
    for a in sorted(der.opt[head]):
        if a == end:
            continue
        order, disc, parent, size, has_end, cuts = _tarjan(der, head, skip=a)
        for p, vs in cuts.items():
            hanging = [v for v in vs if not has_end[v]]
            if len(hanging) >= 2:
                two = sorted(hanging, key=lambda v: size[v])[:2]
                out.append((size[two[0]] + size[two[1]],
                            _cut(der, [p, a], [_subtree(order, disc, size, v) for v in two])))
            for v in hanging:
                out.append((size[v], {"kind": "balance", "cells": _xy_list(der, _subtree(order, disc, size, v))}))
    return out


def area_step(der, pockets=True):
    """The smallest contradicting ``cut`` or ``balance`` step on the options left, or None."""
    found = [c for c in _candidates(der) if _dead(der, c[1])]
    if not found and pockets:
        found = [c for c in _pockets(der) if _dead(der, c[1])]
    if not found:
        return None
    return min(found, key=lambda c: c[0])[1]


def exact_step(der):
    """An ``area`` step: the smallest gated area of at most :data:`AREA_CELLS` cells with no path through it
    between its gates (a search; what ``exact-areas`` decides), or None.

    Each area's verdict is kept on the derivation by its cells and their
    options (the search reads nothing else), so a derivation that goes on
    after this (the cuts' forced edges) searches again only the areas they
    changed.
    """
    found = []
    for size, step in _candidates(der) + _pockets(der):
        if step["kind"] == "balance" and size <= AREA_CELLS:
            area = {**step, "kind": "area"}
            cells = [der.board.cell(c) for c in step["cells"]]
            key = tuple((c, tuple(sorted(der.opt[c]))) for c in cells)
            if key not in der.searched:
                der.searched[key] = _dead(der, area)
            if der.searched[key]:
                found.append((size, area))
    return min(found, key=lambda c: c[0])[1] if found else None
