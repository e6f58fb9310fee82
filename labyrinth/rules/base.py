"""The rule protocol: what a rule says about a state (:class:`Effect`, :class:`Decision`).

Rule sets, which combine rules, are :mod:`labyrinth.rules.ruleset`.

A rule looks at a state and returns :class:`Effect` s: a move it *disables*
or a move it *forces*, each with the rule's name and the cells that
triggered it, so a finding can blame a rule and draw why. Moves are absolute
letters (U/D/L/R); rules that think in the walker's frame (straight, left,
right of the last step) translate with :func:`labyrinth.engine.walker.heading`.
"""

import dataclasses
import re
from typing import Protocol, runtime_checkable

__all__ = ["CompiledRule", "Decision", "Effect", "Rule", "natural_key"]

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


class CompiledRule:
    """A rule with a numba kernel: ``code`` selects it in :mod:`labyrinth.rules.program`.

    Subclasses set ``name``, ``code``, ``kind`` (what the rule does) and a
    one-line ``summary``.
    """

    name = ""
    code = 0
    kind = DISABLE
    summary = ""
    #: ``evaluate(rule, state) -> list[Effect]``: runs one compiled rule. Registered by
    #: :mod:`labyrinth.rules.program`, which holds every kernel (it is above the rules it compiles)
    evaluate = None

    def effects(self, state):
        """The moves this rule disables or forces at ``state``, with trigger cells."""
        return CompiledRule.evaluate(self, state)

    def __repr__(self):
        return f"{type(self).__name__}()"


@dataclasses.dataclass(frozen=True)
class Decision:
    """What a rule set leaves open at a state, and who closed the rest."""

    open: str
    disabled: dict  # move -> tuple of Effects that disabled it (or excluded it by a force)
    forced: tuple  # the force Effects that fired


def natural_key(text):
    """Sort key that orders digit runs by value: ``mined-7-2`` before ``mined-7-10``.

    >>> sorted(["mined-7-10", "mined-7-2", "c-shape"], key=natural_key)
    ['c-shape', 'mined-7-2', 'mined-7-10']
    """
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", str(text)) if part]
