"""What a picture of a state shows, computed once: rules' verdicts, the oracle's, the stuck pattern.

:func:`describe` asks a rule set which moves it leaves open (and which rule
closed each other move), asks an oracle for the status, the feasible moves,
a witness completion and the first dead step, and, for a dead line, finds
the minimal stuck pattern of its first dead state. The result, a
:class:`StateView`, is plain data: the SVG renderer (:mod:`labyrinth.view.svg`),
the report and the browser viewer all draw from it.

>>> from labyrinth.engine import State
>>> view = describe(State.from_moves(5, "RRDD"), rules="universal")
>>> view.free, view.open, sorted(view.disabled)
('DLR', 'DLR', [])
>>> view.status is None      # no oracle asked
True
"""

import dataclasses

from labyrinth.engine.frame import heading
from labyrinth.errors import LabyrinthError

__all__ = ["Blame", "PatternView", "StateView", "describe", "place_pattern", "stuck_pattern"]


@dataclasses.dataclass(frozen=True)
class Blame:
    """One rule's part in closing a move: its ``kind`` (``disable`` or ``force``) and trigger cells (x, y)."""

    rule: str
    kind: str = "disable"
    cells: tuple = ()

    def to_json(self):
        return {"rule": self.rule, "kind": self.kind, "cells": [list(c) for c in self.cells]}

    def describe(self, move):
        """One line for a tooltip: ``D: disabled by near-border at (3,4)``."""
        how = "closed by a force of" if self.kind == "force" else "disabled by"
        at = " at " + " ".join(f"({x},{y})" for x, y in self.cells) if self.cells else ""
        return f"{move}: {how} {self.rule}{at}"


@dataclasses.dataclass(frozen=True)
class PatternView:
    """A minimal stuck pattern laid on the board where it was found.

    ``facts``: ``(x, y, kind)`` in 1-based board coordinates (border facts lie
    outside the board); ``optional``: the on-board cells of the pattern's
    bounding box that it leaves open (``?`` in its drawing); ``dead_state``:
    the first dead state, whose head and heading place the pattern.
    """

    dead_state: str
    facts: tuple
    optional: tuple
    drawing: str
    key: str

    def to_json(self):
        return {"dead_state": self.dead_state, "facts": [list(f) for f in self.facts],
                "optional": [list(c) for c in self.optional], "drawing": self.drawing, "key": self.key}


@dataclasses.dataclass(frozen=True)
class StateView:
    """Everything a picture of ``state`` shows.

    Attributes
    ----------
    state : labyrinth.engine.State
    free : str
        The moves onto free cells.
    rules : str or None
        The rule set's name (None when no rule set was asked).
    open : str or None
        The moves the rule set leaves open.
    disabled : dict
        Move -> tuple of :class:`Blame`: who closed it.
    status : str or None
        The oracle's ``complete``, ``alive``, ``dead`` or ``unknown`` (None without oracle).
    feasible : str or None
        The open moves after which a completion still exists.
    witness : str or None
        A completion from the head, as moves.
    first_dead_step : int, None or "unknown"
        The smallest number of moves after which the line has no completion
        ("unknown" when a query ran out of time before it was pinned down).
    pattern : PatternView or None
        The minimal stuck pattern of the first dead state.
    future : tuple
        The future lines: forced pieces of line, each a tuple of (x, y).
    undecided : int
        Oracle queries that ran out of time (the verdict is then partial).
    undecided_moves : str
        The free moves whose verdict is unknown (the query ran out of time).
    """

    state: object
    free: str
    rules: str = None
    open: str = None
    disabled: dict = dataclasses.field(default_factory=dict)
    status: str = None
    feasible: str = None
    witness: str = None
    first_dead_step: int = None
    pattern: PatternView = None
    future: tuple = ()
    undecided: int = 0
    undecided_moves: str = ""

    def to_json(self):
        """The view as JSON-ready data (cells as 1-based ``[x, y]``)."""
        s = self.state
        return {
            "state": s.compact(), "n": s.n, "steps": s.steps, "head": list(s.board.xy(s.head)),
            "complete": s.is_complete(), "free": self.free, "rules": self.rules, "open": self.open,
            "disabled": {m: [b.to_json() for b in bs] for m, bs in sorted(self.disabled.items())},
            "blame": [b.describe(m) for m, bs in sorted(self.disabled.items()) for b in bs],
            "status": self.status, "feasible": self.feasible, "witness": self.witness,
            "first_dead_step": self.first_dead_step, "undecided": self.undecided,
            "undecided_moves": self.undecided_moves,
            "pattern": None if self.pattern is None else self.pattern.to_json(),
            "future": [[list(c) for c in piece] for piece in self.future],
        }


def describe(state, rules=None, oracle=None, *, pattern=True, time_limit=10.0, future=True):
    """A :class:`StateView` of ``state``.

    Parameters
    ----------
    state : labyrinth.engine.State
    rules : str or rule set, optional
        A rule-set name or object; None leaves ``open`` and ``disabled`` empty.
    oracle : oracle.Oracle, optional
        None: no verdict, no witness, no pattern.
    pattern : bool or verify.minimize.Pattern
        For a dead line, find its minimal stuck pattern (True), skip it (False),
        or lay this known pattern on the first dead state.
    time_limit : float
        Seconds for the pattern search; past it the view has no pattern.
    future : bool
        Compute the future lines.
    """
    free = state.open_moves()
    name, open_, disabled = None, None, {}
    if rules is not None:
        if isinstance(rules, str):
            from labyrinth.rules import get_rule_set

            rules = get_rule_set(rules)
        name, open_, disabled = _ask_rules(state, rules)
    status = feasible = witness = dead_step = None
    undecided, undecided_moves = 0, ""
    laid = None
    if oracle is not None:
        from oracle import analyse

        report = analyse(state, oracle)
        status, dead_step, witness, undecided = report.status, report.first_dead_step, report.witness, report.undecided
        feasible = "".join(m for m in free if m in report.feasible_moves) if status == "alive" else ""
        if status != "alive":
            witness = None
        undecided_moves = "".join(m for m in free if m in report.undecided_moves)
        if isinstance(dead_step, int) and pattern is not False:
            dead = state.prefix(dead_step)
            found = pattern if pattern is not True else stuck_pattern(dead, time_limit=time_limit)
            if found is not None:
                laid = place_pattern(found, dead)
    lines = ()
    if future and not state.at_end():
        from labyrinth.rules import future_lines

        xy = state.board.xy
        lines = tuple(tuple(xy(c) for c in piece) for piece in future_lines(state).pieces)
    return StateView(state, free, name, open_, disabled, status, feasible, witness, dead_step, laid, lines,
                     undecided, undecided_moves)


def _ask_rules(state, rules):
    name = rules.name
    free = state.open_moves()
    decision = rules.decide(state)  # a set that does not explain blames itself (no rule named)
    xy = state.board.xy
    disabled = {}
    for m in free:
        if m in decision.open:
            continue
        seen = {}
        for e in decision.disabled.get(m, ()):
            seen.setdefault((e.rule, e.kind), []).extend(xy(c) for c in e.cells)
        disabled[m] = tuple(Blame(r, k, tuple(dict.fromkeys(cells))) for (r, k), cells in seen.items()) \
            or (Blame(name),)
    return name, "".join(m for m in free if m in decision.open), disabled


def stuck_pattern(dead, *, time_limit=10.0):
    """The minimal stuck pattern of the dead state ``dead``, or None when it cannot be had in time."""
    from verify.minimize import minimal_pattern

    if dead.is_complete():
        return None
    try:
        return minimal_pattern(dead, time_limit=time_limit)
    except LabyrinthError:  # timed out, or no pattern: the picture goes without
        return None


def place_pattern(pattern, dead):
    """Lay a :class:`verify.minimize.Pattern` on the dead state ``dead``: a :class:`PatternView`.

    The pattern's page frame (the head at (0, 0), heading up the page) turns
    to the dead state's heading at its head.
    """
    from labyrinth.engine.frame import page_to_board

    n = dead.n
    hx, hy = dead.board.xy(dead.head)
    h = heading(dead)

    def at(px, py):
        dx, dy = page_to_board(px, py, h)
        return hx + dx, hy + dy

    facts = tuple(sorted((*at(px, py), k) for px, py, k in pattern.facts))
    page = {(px, py) for px, py, _ in pattern.facts} | {(0, 0)}
    box = {(px, py) for px, py, k in pattern.facts if k != "end"} | {(0, 0)}  # a far end corner stays out
    xs = [p[0] for p in box]
    ys = [p[1] for p in box]
    optional = []
    for px in range(min(xs), max(xs) + 1):
        for py in range(min(ys), max(ys) + 1):
            if (px, py) in page:
                continue
            x, y = at(px, py)
            if 1 <= x <= n and 1 <= y <= n:
                optional.append((x, y))
    return PatternView(dead.compact(), facts, tuple(sorted(optional)), pattern.draw(), pattern.key)
