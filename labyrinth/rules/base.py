"""The rule protocol: what a rule says about a state, and how a rule set combines rules.

A rule looks at a state and returns :class:`Effect` s: a move it *disables*
or a move it *forces*, each with the rule's name and the cells that
triggered it, so a finding can blame a rule and draw why. Moves are absolute
letters (U/D/L/R); rules that think in the walker's frame (straight, left,
right of the last step) translate with :func:`labyrinth.engine.walker.heading`.
"""

import dataclasses
from typing import Protocol, runtime_checkable

__all__ = ["Decision", "Effect", "Rule", "RuleSet"]

DISABLE = "disable"
FORCE = "force"


@dataclasses.dataclass(frozen=True)
class Effect:
    """One rule's verdict on one move: ``kind`` is ``"disable"`` or ``"force"``."""

    rule: str
    kind: str
    move: str
    cells: tuple = ()


@runtime_checkable
class Rule(Protocol):
    """A rule: a ``name`` and ``effects(state) -> list[Effect]``."""

    name: str

    def effects(self, state):
        """The moves this rule disables or forces at ``state``."""


@dataclasses.dataclass(frozen=True)
class Decision:
    """What a rule set leaves open at a state, and who closed the rest."""

    open: str
    disabled: dict  # move -> tuple of Effects that disabled it (or excluded it by a force)
    forced: tuple  # the force Effects that fired


class RuleSet:
    """A named, ordered collection of rules; ``off`` names rules switched off.

    Rules are asked in order. A rule that forces a move ends the evaluation
    (the study: "if there is a C-shape, we don't need to check other rules").
    Two different forced moves leave nothing open: the walker is stuck.
    """

    def __init__(self, name, rules, off=()):
        self.name = name
        self.rules = tuple(rules)
        self.off = frozenset(off)

    def decide(self, state):
        free = state.open_moves()
        disabled = {}
        forced = []
        for rule in self.rules:
            if rule.name in self.off:
                continue
            effects = rule.effects(state)
            for e in effects:
                if e.move not in free:
                    continue
                if e.kind == FORCE:
                    forced.append(e)
                else:
                    disabled.setdefault(e.move, []).append(e)
            if forced:
                break
        open_moves = [m for m in free if m not in disabled]
        if forced:
            wanted = {e.move for e in forced}
            for m in open_moves:
                if m not in wanted or len(wanted) > 1:
                    disabled.setdefault(m, []).extend(forced)
            open_moves = [m for m in open_moves if m in wanted and len(wanted) == 1]
        return Decision("".join(open_moves), {m: tuple(v) for m, v in disabled.items()}, tuple(forced))

    def open_moves(self, state):
        return self.decide(state).open
