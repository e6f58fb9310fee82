"""The builder's edge cuts: bridges and two-edge cuts of the options left, as ``crossing`` steps.

What the ``cut`` rule (:mod:`labyrinth.rules.cut`) finds after the closure,
found again here on the options a derivation has left: cut the option
graph by one or two edges and a set S of nodes falls off the head's side.
The line runs from the head to the end corner through every node, so it
crosses S's boundary at least once, an odd number of times exactly when
the head and the end corner lie on different sides, and only by options:

* a bridge with both ends on one side (S holds neither): no completion;
* a bridge with the end corner behind it: the line takes it (forced);
* a two-edge cut with both ends on one side: the line takes both (forced);
* a two-edge cut with the end corner behind it and one edge forced: the
  other goes (exactly one crossing).

Finding the cuts is the rule's method: a depth-first tree from the head, a
random 64-bit label on every option off the tree, and on every tree edge the
exclusive or of the labels of the off-tree options that leave its subtree
(the cycles over it). A tree edge labelled 0 is a bridge, and two options with
one label form a two-edge cut, with high probability; S is read off the tree
(a subtree, two disjoint subtrees, or one subtree less another) without a
flood. Every step is then tested by the checker's own ``crossing`` check
(:mod:`verify.certificates.kinds`) before it is used, so a collision of labels
costs a test and never a wrong step. The set written down is the smaller of S
and the rest of the nodes (the argument is the same from either side).
"""

import random

from verify.certificates.board import edge_key

__all__ = ["crossing_steps"]

#: partners tried for each unforced option of a class of options with one label
MAX_PARTNERS = 64
_SEED = 0x9E3779B97F4A7C15


def _tree(der):
    """Depth-first tree over the options from the head: ``(order, disc, size, parent)``; None if some node is
    not reached (another argument shows that)."""
    head, opt = der.board.head, der.opt
    disc, parent, order = {head: 0}, {head: -1}, [head]
    size = {}
    stack = [(head, iter(sorted(opt[head])))]
    while stack:
        v, it = stack[-1]
        for w in it:
            if w not in disc:
                disc[w] = len(order)
                parent[w] = v
                order.append(w)
                stack.append((w, iter(sorted(opt[w]))))
                break
        else:
            stack.pop()
            size[v] = size.get(v, 0) + 1
            if stack:
                size[stack[-1][0]] = size.get(stack[-1][0], 0) + size[v]
    if len(order) < len(der.nodes):
        return None
    return order, disc, size, parent


def _labels(der, order, disc, parent):
    """Edge -> its label: random on an option off the tree, the xor of its subtree's on a tree edge."""
    rng = random.Random(_SEED)
    lab = dict.fromkeys(order, 0)
    label = {}
    for a in order:
        for b in der.opt[a]:
            if a < b and parent.get(b) != a and parent.get(a) != b:
                r = rng.getrandbits(64)
                label[(a, b)] = r
                lab[a] ^= r
                lab[b] ^= r
    for v in reversed(order[1:]):
        p = parent[v]
        label[edge_key(p, v)] = lab[v]
        lab[p] ^= lab[v]
    return label


class _Side:
    """The part an edge cut separates from the head, read off the tree: intervals of the preorder."""

    def __init__(self, der, tree):
        self.order, self.disc, self.size, self.parent = tree
        self.end = der.board.end
        self.total = len(self.order)

    def below(self, e):
        """The tree node whose subtree ``e`` cuts off (None: an option off the tree)."""
        a, b = e
        if self.parent.get(b) == a:
            return b
        if self.parent.get(a) == b:
            return a
        return None

    def _inside(self, v, c):
        return self.disc[v] <= self.disc[c] < self.disc[v] + self.size[v]

    def part(self, e, f=None):
        """``(nested, u, v)`` of the part cut off by ``e`` (and ``f``): the subtree of ``u`` less that of ``v``
        (nested), the subtrees of ``u`` and ``v`` (not nested; ``v`` None: ``u``'s alone); None if not a tree cut."""
        u = self.below(e)
        v = None if f is None else self.below(f)
        if u is None and v is None:
            return None
        if u is None:
            u, v = v, None
        if v is not None:
            if self._inside(u, v):
                return True, u, v
            if self._inside(v, u):
                return True, v, u
        return False, u, v

    def count(self, part):
        nested, u, v = part
        if v is None:
            return self.size[u]
        return self.size[u] - self.size[v] if nested else self.size[u] + self.size[v]

    def holds_end(self, part):
        nested, u, v = part
        if v is None:
            return self._inside(u, self.end)
        if nested:
            return self._inside(u, self.end) and not self._inside(v, self.end)
        return self._inside(u, self.end) or self._inside(v, self.end)

    def cells(self, part):
        nested, u, v = part
        sub = self.order[self.disc[u]:self.disc[u] + self.size[u]]
        if v is None:
            return sub
        other = self.order[self.disc[v]:self.disc[v] + self.size[v]]
        return sorted(set(sub) - set(other)) if nested else sub + other

    def smaller(self, part, nodes):
        """The part's cells, or the rest of the nodes when that is smaller."""
        cells = set(self.cells(part))
        return cells if 2 * len(cells) <= self.total else set(nodes) - cells


def _candidates(der):
    """``(dead, size, part)`` of the bridges and two-edge cuts that may derive something on the options left."""
    tree = _tree(der)
    if tree is None:
        return [], None
    side = _Side(der, tree)
    label = _labels(der, tree[0], tree[1], tree[3])
    classes = {}
    for e, x in label.items():
        classes.setdefault(x, []).append(e)
    out = []
    for e in classes.get(0, []):
        part = side.part(e)
        if part is None:
            continue
        if not side.holds_end(part):
            out.append((True, side.count(part), part))
        elif not der.is_forced(e):
            out.append((False, side.count(part), part))
    for x, edges in classes.items():
        if x == 0 or len(edges) < 2:
            continue
        for e in edges:
            if der.is_forced(e):
                continue
            best = None
            for f in edges[:MAX_PARTNERS + 1]:
                if f == e:
                    continue
                part = side.part(e, f)
                if part is None:
                    continue
                if side.holds_end(part) and not der.is_forced(f):
                    continue  # the end corner behind two options: either may do
                key = (side.count(part), part)
                if best is None or key[0] < best[0]:
                    best = key
            if best is not None:
                out.append((False, *best))
    return out, side


def crossing_steps(der):
    """``crossing`` steps the bridges and two-edge cuts of the options left show, contradictions first, then
    the smallest sets; each as a step dict (``kind``, ``cells``) for :meth:`Derivation.test`."""
    found, side = _candidates(der)
    out, seen = [], set()
    for _dead, _size, part in sorted(found, key=lambda c: (not c[0], c[1], c[2][1], c[2][2] or -1)):
        cells = frozenset(side.smaller(part, der.nodes))
        if cells in seen:
            continue
        seen.add(cells)
        out.append({"kind": "crossing", "cells": [der.xy(c) for c in sorted(cells)]})
    return out
