"""The rule protocol: what a rule says about a state, and how a rule set combines rules.

A rule looks at a state and returns :class:`Effect` s: a move it *disables*
or a move it *forces*, each with the rule's name and the cells that
triggered it, so a finding can blame a rule and draw why. Moves are absolute
letters (U/D/L/R); rules that think in the walker's frame (straight, left,
right of the last step) translate with :func:`labyrinth.engine.walker.heading`.
"""

import dataclasses
import re
from typing import Protocol, runtime_checkable

__all__ = ["CompiledRule", "Decision", "Effect", "Rule", "RuleSet", "natural_key"]

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

    def effects(self, state):
        """The moves this rule disables or forces at ``state``, with trigger cells."""
        from labyrinth.rules.program import rule_effects

        return rule_effects(self, state)

    def __repr__(self):
        return f"{type(self).__name__}()"


@dataclasses.dataclass(frozen=True)
class Decision:
    """What a rule set leaves open at a state, and who closed the rest."""

    open: str
    disabled: dict  # move -> tuple of Effects that disabled it (or excluded it by a force)
    forced: tuple  # the force Effects that fired


class RuleSet:
    """A named, ordered collection of rules; ``off`` names rules switched off.

    A rule with ``optional = True`` (the future-lines aid) is off unless
    ``on`` names it.

    Rules are asked in order. A rule that forces a move ends the evaluation
    (the study: "if there is a C-shape, we don't need to check other rules").
    Two different forced moves leave nothing open: the walker is stuck.
    """

    def __init__(self, name, rules, off=(), on=(), *, sound=False):
        self.name = name
        self.rules = tuple(rules)
        #: every rule is sound on every board (``strong``): the compiled walker may skip asking about proven-live moves
        self.sound = sound
        optional = {r.name for r in self.rules if getattr(r, "optional", False)}
        self.off = frozenset(off) | (optional - set(on))
        self._program = None

    @property
    def active(self):
        """The rules asked, in order (the switched-off ones left out)."""
        return tuple(r for r in self.rules if r.name not in self.off)

    def compiled(self):
        """True when every active rule has a numba kernel, so the fast walker can run it."""
        return all(isinstance(r, CompiledRule) for r in self.active)

    def program(self):
        """The compiled form (:class:`labyrinth.rules.program.Program`) of the active rules."""
        if self._program is None:
            if not self.compiled():
                raise TypeError(f"rule set {self.name!r} has rules without a kernel")
            from labyrinth.rules.program import Program

            self._program = Program(self.active, certify=self.sound)
        return self._program

    def decide(self, state):
        free = state.open_moves()
        disabled = {}
        forced = []
        for rule in self.active:
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
        """The open moves' letters; compiled rule sets take the numba path."""
        if self.compiled():
            return self.program().open_moves(state)
        return self.decide(state).open


def natural_key(text):
    """Sort key that orders digit runs by value: ``mined-7-2`` before ``mined-7-10``.

    >>> sorted(["mined-7-10", "mined-7-2", "c-shape"], key=natural_key)
    ['c-shape', 'mined-7-2', 'mined-7-10']
    """
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", str(text)) if part]
