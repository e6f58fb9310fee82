"""Minimal certificates: drop the steps the contradiction does not depend on, shrink the sets that remain.

Minimal in the simple sense of the issue: every step left is needed (the
contradiction reads a fact it derives, or a step that does), every step
claims only the facts later steps read, and no single cell can be dropped
from a ``hall`` set, no cut cell and no listed piece from a ``cut``,
without the step failing. A ``crossing`` set is kept as the builder found
it (the smaller side of a cut of the options: a cell dropped from it opens
its options as more crossings, so the step would fail, and trying each cell
of a set of hundreds costs more than the rest of the certificate).

Dependencies come from the checker itself: each step's :class:`Outcome`
names the edges whose facts it read, and a fact's *origin* is the first step
that claimed it. A step reads only those edges, so replaying the kept steps
gives each of them the same facts on what it reads, and the same verdict.
A last pass deletes each step the certificate still holds without (the
contradiction may be reachable without a fact it happened to read).
"""

from verify.certificates.check import Facts, Invalid, holds, replay

__all__ = ["minimal"]

#: passes over a set's cells when shrinking it (each pass tries every cell once)
SHRINK_PASSES = 3


def _claimed(board, step):
    return [board.edge(v) for v in step.get("forces", [])], [board.edge(v) for v in step.get("removes", [])]


def prune(board, steps, start=None):
    """The steps the last one depends on, each claiming only the facts a later kept step reads."""
    outcomes = replay(board, steps, start)
    origin = {}
    for i, step in enumerate(steps):
        forces, removes = _claimed(board, step)
        for e in forces + removes:
            origin.setdefault(e, i)
    last = len(steps) - 1
    needed = {last}
    used = {}
    for i in range(last, -1, -1):
        if i not in needed:
            continue
        for e in outcomes[i].reads:
            j = origin.get(e)
            if j is not None and j < i:
                needed.add(j)
                used.setdefault(j, set()).add(e)
    out = []
    for i in sorted(needed):
        step = dict(steps[i])
        if i != last:
            forces, removes = _claimed(board, step)
            keep = used[i]
            step.pop("forces", None)
            step.pop("removes", None)
            kept_forces = [v for v, e in zip(steps[i].get("forces", []), forces) if e in keep]
            kept_removes = [v for v, e in zip(steps[i].get("removes", []), removes) if e in keep]
            if kept_forces:
                step["forces"] = kept_forces
            if kept_removes:
                step["removes"] = kept_removes
        out.append(step)
    return out


def _holds(board, facts, step):
    try:
        holds(board, facts.copy(), step)
        return True
    except Invalid:
        return False


def _drop_each(board, facts, step, key):
    """Try dropping each element of ``step[key]``, last first, keeping every drop after which the step holds."""
    changed = False
    i = len(step[key]) - 1
    while i >= 0 and len(step[key]) > (1 if key != "cells" or step["kind"] != "cut" else 0):
        candidate = {**step, key: step[key][:i] + step[key][i + 1:]}
        if _holds(board, facts, candidate):
            step = candidate
            changed = True
        i -= 1
    return step, changed


class _HallSet:
    """A ``hall`` set's counts, kept while cells leave it, so that each try costs a few neighbours' work.

    The same counts as the checker's ``hall``: the set's demand, and for
    each neighbour its options into the set and its forced edges leaving it.
    """

    def __init__(self, board, facts, step):
        self.board, self.facts = board, facts
        self.xs = board.cells(step["cells"])
        self.demand = sum(board.need[x] for x in self.xs)
        self.into, self.out = {}, {}
        for x in self.xs:
            for y in facts.options(board, x):
                self.into[y] = self.into.get(y, 0) + 1
        for y in self.into:
            self.out[y] = sum(1 for d in facts.forced_of(board, y) if d not in self.xs)
        self.supply = sum(self.cap(y) for y in self.into)
        self.dead = step.get("dead") is True
        self.forces = [board.edge(v) for v in step.get("forces", [])]
        self.removes = [board.edge(v) for v in step.get("removes", [])]

    def cap(self, y, into=None, out=None):
        into = self.into[y] if into is None else into
        out = self.out[y] if out is None else out
        return max(0, min(into, self.board.need[y] - out))

    def _without(self, x):
        """The neighbours' new counts and the new supply if ``x`` left the set."""
        into, out = {}, {}
        supply = self.supply
        for y in self.facts.options(self.board, x):
            into[y] = self.into[y] - 1
            out[y] = self.out[y] + (1 if y in self.facts.forced_of(self.board, x) else 0)
            supply += self.cap(y, into[y], out[y]) - self.cap(y)
        return into, out, supply

    def holds_without(self, x):
        """True if the step still derives what it claims with ``x`` gone from the set."""
        into, out, supply = self._without(x)
        demand = self.demand - self.board.need[x]
        if self.dead:
            return demand > supply
        if demand != supply:
            return False

        colour = self.board.colour(x)
        for edge in self.removes + self.forces:
            y, d = edge if self.board.colour(edge[0]) != colour else (edge[1], edge[0])
            i = into.get(y, self.into.get(y, 0))
            o = out.get(y, self.out.get(y, 0))
            if i == 0:
                return False
            if edge in self.removes:
                if self.cap(y, i, o) != self.board.need[y] - o:
                    return False
            elif d == x or self.cap(y, i, o) != i:
                return False
        return True

    def drop(self, x):
        into, out, supply = self._without(x)
        self.xs = self.xs - {x}
        self.demand -= self.board.need[x]
        self.supply = supply
        for y in into:
            if into[y]:
                self.into[y], self.out[y] = into[y], out[y]
            else:
                del self.into[y], self.out[y]


def _shrunk_hall(board, facts, step):
    hall = _HallSet(board, facts, step)
    order = list(step["cells"])
    for _ in range(SHRINK_PASSES):
        changed = False
        for value in reversed(order):
            x = board.cell(value)
            if x in hall.xs and len(hall.xs) > 1 and hall.holds_without(x):
                hall.drop(x)
                changed = True
        if not changed:
            break
    return {**step, "cells": [v for v in step["cells"] if board.cell(v) in hall.xs]}


def _shrunk(board, facts, step):
    if step["kind"] == "hall":
        smaller = _shrunk_hall(board, facts, step)
        return smaller if _holds(board, facts, smaller) else step
    keys = {"cut": ("cells", "pieces")}.get(step["kind"], ())
    for _ in range(SHRINK_PASSES):
        changed = False
        for key in keys:
            step, dropped = _drop_each(board, facts, step, key)
            changed |= dropped
        if not changed:
            break
    return step


def shrink(board, steps, start=None):
    """Shrink every ``hall`` and ``cut`` step greedily while it still derives what it claims."""
    facts = Facts() if start is None else start.copy()
    out = []
    for step in steps:
        step = _shrunk(board, facts, step)
        holds(board, facts, step)
        out.append(step)
    return out


def _replays(board, steps, start=None):
    try:
        replay(board, steps, start)
        return True
    except Invalid:
        return False


def drop_unneeded(board, steps, start=None):
    """Deletion to a fixed point (MUS by deletion): drop each step the certificate still holds without.

    A step another one reads may still be unneeded: without its fact the
    later step can reach the same contradiction another way. Each drop
    is followed by :func:`prune` (the claims nothing reads any more).
    """
    i = 0
    while i < len(steps) - 1:  # the last step is the contradiction
        rest = steps[:i] + steps[i + 1:]
        if _replays(board, rest, start):
            steps = prune(board, rest, start)
            i = 0
        else:
            i += 1
    return steps


def minimal(board, steps, start=None):
    """A minimal certificate from a derivation's ``steps`` (checked: an internal error keeps them whole).

    ``start``: the facts that hold before the first step (a case's supposition), else none.
    """
    if len(steps) == 1 and steps[0]["kind"] not in ("hall", "cut"):
        return steps  # one step that shrinks no further: minimal as it is
    try:
        small = drop_unneeded(board, prune(board, shrink(board, prune(board, steps, start), start), start), start)
        replay(board, small, start)
    except Invalid:
        return steps
    return small
