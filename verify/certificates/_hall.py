"""The builder's counting arguments: the two-matching and its filtering, written as ``hall`` steps.

A completion is a perfect 2-matching of the options (every node meets its
need) that is also connected. The builder keeps a perfect 2-matching ``m`` of
the options that are not forced (each node short of ``need - forced`` of
them), repairing it by augmenting paths (Hopcroft and Karp 1973) as facts
change. Two things become ``hall`` steps of the checker:

* no perfect 2-matching: the cells an augmenting search from a short cell
  reaches, of that cell's colour, need more line ends than their neighbours
  can give (Hall's condition; the study's black/white count generalised);
* an option that lies in no perfect 2-matching (or one that lies in all):
  with a perfect 2-matching at hand, the cells of one colour reachable in
  its residual graph from the option's white end (from its black end) form
  a *tight* set, whose neighbours must give it exactly what they can: the
  option goes (is forced). This is Régin's filtering (1994) for matching
  constraints, read off reachability instead of strongly connected
  components, so that each removal comes with its set.
"""

__all__ = ["Matching"]


class Matching:
    """A perfect 2-matching of a derivation's free options, kept across rounds."""

    def __init__(self, der):
        self.der = der
        self.m = {c: set() for c in der.nodes}

    def _spare(self, c):
        return self.der.need[c] - len(self.der.frc[c])

    def _free(self, c):
        return self.der.opt[c] - self.der.frc[c]

    def _drop(self, a, b):
        self.m[a].discard(b)
        self.m[b].discard(a)

    def _add(self, a, b):
        self.m[a].add(b)
        self.m[b].add(a)

    def _search(self, src):
        """An alternating search from the short cell ``src``: True after augmenting, else the cells reached."""
        m = self.m
        prev = {src: None}
        todo = [src]
        i = 0
        while i < len(todo):
            a = todo[i]
            i += 1
            for b in self._free(a) - m[a]:
                if b in prev:
                    continue
                prev[b] = a
                if len(m[b]) < self._spare(b):
                    y, add = b, True
                    while prev[y] is not None:
                        x = prev[y]
                        if add:
                            self._add(x, y)
                        else:
                            self._drop(x, y)
                        add = not add
                        y = x
                    return True
                for c in m[b]:
                    if c not in prev:
                        prev[c] = b
                        todo.append(c)
        return prev

    def repair(self):
        """Make ``m`` a perfect 2-matching of the free options; None, or a ``hall`` step showing there is none."""
        der, m = self.der, self.m
        for c in der.nodes:
            for d in list(m[c]):
                if d not in der.opt[c] or d in der.frc[c]:
                    self._drop(c, d)
        for c in der.nodes:
            while len(m[c]) > self._spare(c) and m[c]:
                self._drop(c, next(iter(m[c])))
        colour = der.board.colour
        for first in (1, -1):
            for c in sorted(der.nodes):
                if colour(c) != first:
                    continue
                for d in self._free(c) - m[c]:
                    if len(m[c]) >= self._spare(c):
                        break
                    if len(m[d]) < self._spare(d):
                        self._add(c, d)
                while len(m[c]) < self._spare(c):
                    got = self._search(c)
                    if got is not True:
                        xs = [x for x in got if colour(x) == first]
                        return {"kind": "hall", "cells": [der.xy(x) for x in sorted(xs)]}
        return None

    def _reach(self, start):
        """Cells reachable from ``start`` in the residual graph (black -> white over unmatched free options,
        white -> black over matched edges)."""
        der, m = self.der, self.m
        seen = {start}
        todo = [start]
        while todo:
            a = todo.pop()
            nxt = (self._free(a) - m[a]) if der.board.colour(a) == 1 else m[a]
            for b in nxt:
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        return seen

    def filtering(self):
        """Hall steps, one at a time, for options in no perfect 2-matching or in all (``m`` must be perfect).

        Yields each step after the derivation applied it; stops when a pass
        finds nothing.
        """
        der, m = self.der, self.m
        colour = der.board.colour
        comp = self._components()
        for b in sorted(der.nodes):
            if colour(b) != 1:
                continue
            for w in sorted(self._free(b)):
                if comp[b] == comp[w] or w not in self._free(b):
                    continue
                start = b if w in m[b] else w
                xs = [x for x in self._reach(start) if colour(x) == 1]
                if xs:
                    yield {"kind": "hall", "cells": [der.xy(x) for x in sorted(xs)]}

    def _components(self):
        """Strongly connected components of the residual graph (Tarjan 1972, iteratively)."""
        der, m = self.der, self.m
        colour = der.board.colour
        index, low, comp = {}, {}, {}
        stack, on = [], set()
        counter = 0
        for root in der.nodes:
            if root in index:
                continue
            work = [(root, None)]
            while work:
                v, it = work[-1]
                if it is None:
                    index[v] = low[v] = counter
                    counter += 1
                    stack.append(v)
                    on.add(v)
                    arcs = (self._free(v) - m[v]) if colour(v) == 1 else set(m[v])
                    it = iter(arcs)
                    work[-1] = (v, it)
                for w in it:
                    if w not in index:
                        work.append((w, None))
                        break
                    if w in on and index[w] < low[v]:
                        low[v] = index[w]
                else:
                    work.pop()
                    if work:
                        u = work[-1][0]
                        if low[v] < low[u]:
                            low[u] = low[v]
                    if low[v] == index[v]:
                        while True:
                            x = stack.pop()
                            on.discard(x)
                            comp[x] = v
                            if x == v:
                                break
        return comp
