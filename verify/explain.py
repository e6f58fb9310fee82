"""Explained findings: the simplest sound argument that refutes a dead state, and the rule family it belongs to.

A missed-dead finding says the rules left a move open into a state without
completion. Which rule family should have closed it? Each argument below is
the sound check of one family of :mod:`labyrinth.rules`, applied to the dead
state on the *whole board* (the rules apply them to the step, within their
reach); they are tried from the cheapest, and the first that refutes the
state names its class (:data:`KINDS`):

1. ``disconnected``: the free cells and the head fall apart (a flood fill;
   the sealing rules ``near-border`` / ``older-line``);
2. ``dead-end``: a free cell other than the end with fewer than two ways in
   and out, the end with none, or two walled-in neighbours of the head that
   must both be entered next (the degree condition, and the ``c-shape``
   kernel, :func:`labyrinth.rules.cshape.cshape`);
3. ``sealed-area``: an area with one gate (a cut cell) or two gates (a pair of
   cells) that the line cannot cross: it hangs off its gate with no way on to
   the end, or the head stands between two areas (the sealing rules again);
4. ``area-parity``: an area with one or two gates whose cell count has the
   wrong parity for the colours of its gates (``count-area``);
5. ``colour-imbalance``: parity fits, but one checkerboard colour has more
   cells than the gates allow (``colour-imbalance``);
6. ``future-lines``: the forced pieces of line meet a contradiction
   (:func:`labyrinth.rules.future.future_lines`, the optional ``future-lines``);
7. ``needs-search``: none of these; only a search (or a size-specific
   pattern rule) refutes it.

Classes 3-5 are the verdicts of :func:`labyrinth.engine.graph.blocks` (one
gate: the block-cut tree of the free cells, Tarjan 1972) and of
:func:`labyrinth.engine.graph.pockets` over every free cell (two gates: the
same on G minus a cell), the kernels the area rules run. Every check is a
necessary condition of a completion, so a class is assigned only to a dead
state: :func:`explain` of a live state is ``needs-search`` (nothing refutes it).

>>> from labyrinth.engine import State
>>> explain(State.from_moves(5, "RDRURDRU")).kind    # rows 3-5 walled off from the head
'disconnected'
"""

import collections
import dataclasses
import json

import numpy as np

from labyrinth.engine import graph
from labyrinth.engine.state import State
from labyrinth.rules.cshape import cshape
from labyrinth.rules.future import future_lines

__all__ = ["FAMILIES", "KINDS", "Explanation", "explain", "explain_findings", "explain_text", "group"]

DISCONNECTED, DEAD_END, SEALED_AREA, AREA_PARITY, COLOUR_IMBALANCE, FUTURE_LINES, NEEDS_SEARCH = (
    "disconnected", "dead-end", "sealed-area", "area-parity", "colour-imbalance", "future-lines", "needs-search")
#: the classes, cheapest argument first
KINDS = (DISCONNECTED, DEAD_END, SEALED_AREA, AREA_PARITY, COLOUR_IMBALANCE, FUTURE_LINES, NEEDS_SEARCH)
#: the rules meant to catch each class (``needs-search``: only the size-specific pattern rules)
FAMILIES = {
    DISCONNECTED: ("near-border", "older-line"),
    DEAD_END: ("c-shape",),
    SEALED_AREA: ("near-border", "older-line"),
    AREA_PARITY: ("count-area",),
    COLOUR_IMBALANCE: ("colour-imbalance",),
    FUTURE_LINES: ("future-lines",),
    NEEDS_SEARCH: (),
}
_BY_VERDICT = {graph.HEAD_CUT: SEALED_AREA, graph.HANGING: SEALED_AREA, graph.SPLIT: DISCONNECTED,
               graph.PARITY: AREA_PARITY, graph.COLOUR: COLOUR_IMBALANCE}


@dataclasses.dataclass(frozen=True)
class Explanation:
    """Why a dead state is dead: ``kind`` (one of :data:`KINDS`), the rule ``family`` meant to
    catch it, the ``cells`` (1-based ``(x, y)``) that show it, and a one-line ``text``."""

    kind: str
    family: tuple
    cells: tuple
    text: str

    def to_json(self):
        return {"kind": self.kind, "family": list(self.family), "cells": [list(c) for c in self.cells],
                "text": self.text}

    @classmethod
    def from_json(cls, obj):
        return cls(obj["kind"], tuple(obj["family"]), tuple(tuple(c) for c in obj["cells"]), obj["text"])


def explain(finding_or_state):
    """The cheapest sound argument that refutes a dead state (a :class:`State`, its compact
    text, or a missed-dead finding: its state after its move).

    Returns
    -------
    Explanation
        ``needs-search`` when no argument applies (the state may then be
        alive: this function never calls the oracle).
    """
    state = _dead_state(finding_or_state)
    board = state.board
    xy = board.xy
    for check in (_disconnected, _dead_end, _areas, _future):
        found = check(state)
        if found is not None:
            kind, cells, text = found
            return Explanation(kind, FAMILIES[kind], tuple(xy(c) for c in cells), text)
    return Explanation(NEEDS_SEARCH, (), (), "no local argument refutes it: only a search does")


def _dead_state(obj):
    if isinstance(obj, State):
        return obj
    if isinstance(obj, str):
        n, moves = obj.split(":", 1)
        return State.from_moves(int(n), moves)
    state = obj["state"] if isinstance(obj, dict) else obj.state
    move = obj["move"] if isinstance(obj, dict) else obj.move
    return _dead_state(state + move)


def _usable(state):
    """Free cells plus the head (the graph the completion runs on)."""
    use = state.taken == 0
    use = use.copy()
    use[state.head] = True
    return use


def _disconnected(state):
    if state.free_count == 0:
        return None
    board, head = state.board, state.head
    use = _usable(state)
    if head == board.end:
        return DISCONNECTED, (head,), "the head is on the end with free cells left"
    seen = {head}
    todo = [head]
    while todo:
        c = todo.pop()
        for d in board.neighbours[c]:
            if d >= 0 and use[d] and d not in seen:
                seen.add(d)
                todo.append(d)
    if len(seen) == state.free_count + 1:
        return None
    cut = sorted(c for c in np.flatnonzero(use) if int(c) not in seen)
    return DISCONNECTED, tuple(int(c) for c in cut), f"{len(cut)} free cells are cut off from the head"


def _dead_end(state):
    board, head, end = state.board, state.head, state.board.end
    use = _usable(state)
    for c in np.flatnonzero(state.taken == 0):
        c = int(c)
        ways = sum(1 for d in board.neighbours[c] if d >= 0 and use[d] and not (c == end and d == head
                                                                             and state.free_count > 1))
        if ways < (1 if c == end else 2):
            return DEAD_END, (c,), ("the end can no longer be reached" if c == end
                                    else "a free cell has fewer than two ways in and out")
    tables = graph.GraphTables.of(board)
    trig = np.zeros((4, 5), dtype=np.int64)
    ntrig = np.zeros(4, dtype=np.int64)
    forced = cshape(tables.nb, end, np.array(state.taken, dtype=np.uint8), head, trig, ntrig)
    if bin(forced).count("1") >= 2:
        cells = tuple(int(trig[d, 0]) for d in range(4) if forced >> d & 1)
        return DEAD_END, cells, "two walled-in neighbours of the head must both be entered next"
    return None


def _areas(state):
    if state.free_count == 0:
        return None
    tables = graph.GraphTables.of(state.board)
    taken = np.array(state.taken, dtype=np.uint8)
    scratch = tables.scratch()
    args = (tables.nb, tables.colour, state.board.end, taken, state.head, state.free_count)
    verdict = graph.blocks(*args, -1, scratch, scratch[8])
    gates = "one gate"
    if verdict == graph.PASS:
        verdict = graph.pockets(*args, 2 * state.n, scratch)
        gates = "two gates"
    if verdict == graph.PASS:
        return None
    kind = _BY_VERDICT[int(verdict)]
    if verdict == graph.HEAD_CUT:
        return kind, (state.head,), "the head stands between two areas: it can enter only one"
    cells = tuple(sorted({int(scratch[8][0]), int(scratch[8][1])}))
    text = {DISCONNECTED: "the free cells fall apart",
            SEALED_AREA: f"an area with {gates} hangs off them with no way on to the end",
            AREA_PARITY: f"an area with {gates} has the wrong number of cells for them",
            COLOUR_IMBALANCE: f"an area with {gates} has more cells of one colour than they allow"}[kind]
    return kind, cells, text


def _future(state):
    lines = future_lines(state)
    if lines.dead:
        return FUTURE_LINES, tuple(lines.cells), f"future lines: {lines.dead}"
    return None


def explain_text(row):
    """One finding row's explanation as an :class:`Explanation`, or None (not a missed-dead board-walk finding)."""
    if row.get("kind") != "missed-dead":
        return None
    text = row.get("explanation")
    if text is None:
        return None
    return Explanation.from_json(json.loads(text) if isinstance(text, str) else text)


def explain_findings(store, rows):
    """Each missed-dead row with its :class:`Explanation` (``row["explained"]``), classifying rows of
    older stores now and keeping the result in ``store``; other rows get None. Returns ``rows``."""
    for row in rows:
        row["explained"] = explain_text(row)
        if row["explained"] is None and row.get("kind") == "missed-dead" and _is_board_walk(row["state"]):
            row["explained"] = explain(row)
            store.set_explanation(row["id"], row["explained"])
    return rows


def _is_board_walk(text):
    return text.split(":", 1)[0].isdigit()


def group(rows):
    """``{(kind, family): [rows]}`` of explained rows, in :data:`KINDS` order."""
    out = collections.OrderedDict()
    for kind in KINDS:
        for row in rows:
            e = row.get("explained")
            if e is not None and e.kind == kind:
                out.setdefault((kind, e.family), []).append(row)
    return out
