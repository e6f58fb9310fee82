"""TEMPLATE: a new rule, to copy (``cp labyrinth/rules/template.py labyrinth/rules/my_rule.py``).

This module is a working rule that no rule set registers; ``tests/test_templates.py`` keeps it importable and
checks that it is sound. To add your own rule, follow docs/architecture.md ("Adding things"):

1. copy this file to ``labyrinth/rules/<your_rule>.py`` and rename the class and its ``name``;
2. write :meth:`DeadEndTarget.effects`: the moves your rule *disables* (or *forces*) at a state, each an
   :class:`~labyrinth.rules.base.Effect` naming the rule and the cells that made it fire (a finding blames them);
3. register it: add the class to :data:`labyrinth.rules.sets.OPTIONAL` (one line). It is then a name ``--on``
   takes (every set but ``none`` and ``oracle`` ends with the optional rules), its help lists it, and
   ``labyrinth rules list`` shows it;
4. test it: add it to ``tests/test_sound_rules.py`` (every reachable 5x5 state) if it claims to be sound.

A rule written this way runs in Python (:meth:`labyrinth.rules.RuleSet.decide`): a rule set with it switched
on walks in Python, correct and slower. The compiled walker needs a numba kernel and a code in the kernels'
dispatch table (:mod:`labyrinth.rules.program`; subclass :class:`~labyrinth.rules.base.CompiledRule`), see
:mod:`labyrinth.rules.cshape` for a small one.
"""

from labyrinth.rules.base import DISABLE, Effect

__all__ = ["DeadEndTarget"]


class DeadEndTarget:
    """Disable a move into a cell with no free neighbour while free cells remain: the walk would stop there.

    >>> from labyrinth.engine import State
    >>> DeadEndTarget().effects(State.from_moves(5, "DRRU"))  # left of the head: a pocket in the top row
    [Effect(rule='dead-end-target', kind='disable', move='L', cells=(1,))]
    """

    #: the name users switch it on by (``--on dead-end-target``) and findings blame
    name = "dead-end-target"
    #: ``"disable"`` or ``"force"``
    kind = DISABLE
    #: one line for ``labyrinth rules list``
    summary = "a move into a cell with no free neighbour, before the last cell, is closed"
    #: a pattern rule's :class:`~labyrinth.rules.language.PatternSpec`; None for a rule written in code
    spec = None
    #: off unless a rule set's ``on`` names it: True for every rule in :data:`labyrinth.rules.sets.OPTIONAL`
    optional = True

    def effects(self, state):
        """The moves this rule disables at ``state`` (see the class docstring)."""
        if state.at_end() or state.free_count == 1:
            return []
        out = []
        for move in state.open_moves():
            after = state.after(move)
            if not after.open_moves():
                out.append(Effect(self.name, self.kind, move, (int(after.head),)))
        return out
