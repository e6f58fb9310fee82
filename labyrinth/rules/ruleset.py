"""A rule set: a named, ordered collection of rules, asked in order, run in Python or compiled.

Compiled rule sets run in numba: :meth:`RuleSet.program` is their compiled
form (:mod:`labyrinth.rules.program`), :meth:`RuleSet.runner` its walker
(:mod:`labyrinth.rules.walks`).
"""

from labyrinth.rules import walks
from labyrinth.rules.base import FORCE, CompiledRule, Decision, RuleSetBase
from labyrinth.rules.program import Program

__all__ = ["RuleSet"]


class RuleSet(RuleSetBase):
    """A named, ordered collection of rules; ``off`` names rules switched off.

    A rule with ``optional = True`` (the future-lines aid) is off unless
    ``on`` names it.

    Rules are asked in order. A rule that forces a move ends the evaluation
    (the study: "if there is a C-shape, we don't need to check other rules").
    Two different forced moves leave nothing open: the walker is stuck.
    """

    explains = True

    def __init__(self, name, rules, off=(), on=(), *, sound=False):
        self.name = name
        self.rules = tuple(rules)
        #: every rule is sound on every board (``strong``): the compiled walker may skip asking about proven-live moves
        self.sound = sound
        optional = {r.name for r in self.rules if getattr(r, "optional", False)}
        self.off = frozenset(off) | (optional - set(on))
        self._program = None

    def extended(self, extra):
        """This set with the rules ``extra`` asked last, every rule on or off as here (the extra ones on; one
        the set already has is switched on where it stands)."""
        have = {r.name for r in self.rules}
        rules = list(self.rules) + [r for r in extra if r.name not in have]
        return RuleSet(self.name, rules, self.off, {r.name for r in rules}, sound=self.sound)

    def compiled(self):
        """True when every active rule has a numba kernel, so the fast walker can run it."""
        return all(isinstance(r, CompiledRule) for r in self.active)

    def program(self):
        """The compiled form (:class:`labyrinth.rules.program.Program`) of the active rules."""
        if self._program is None:
            if not self.compiled():
                raise TypeError(f"rule set {self.name!r} has rules without a kernel")
            self._program = Program(self.active, certify=self.sound)
        return self._program

    def runner(self):
        """The compiled walker of this set (random walks, runs, enumeration): :class:`labyrinth.rules.walks.Runner`;
        for a sound set whose only rules without a kernel pause the walker (:meth:`walkable`),
        :class:`labyrinth.rules.walks.PausingRunner`."""
        if not self.compiled() and self.walkable():
            kernels = [r for r in self.active if isinstance(r, CompiledRule)]
            return walks.PausingRunner(Program(kernels, certify=self.sound),
                                       [r for r in self.active if not isinstance(r, CompiledRule)])
        return walks.Runner(self.program())

    def walkable(self):
        """True when the compiled walker takes this set's random walks: every active rule has a kernel, or the
        set is sound and the rules without one pause the walker (``pauses``: :mod:`labyrinth.rules.gates`)."""
        if self.compiled():
            return True
        return self.sound and all(isinstance(r, CompiledRule) or getattr(r, "pauses", False) for r in self.active)

    def decide(self, state):
        """Each active rule asked in order, in Python: the open moves, and the rules that closed the rest."""
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
