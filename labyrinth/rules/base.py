"""The rule and rule-set interfaces: what a rule says about a state, what every rule set answers.

A rule returns :class:`Effect` s; a rule set answers with open moves and a
:class:`Decision`, through the interface :class:`RuleSetBase` declares (with
its defaults) for every kind of rule set: the built-in sets
(:class:`labyrinth.rules.ruleset.RuleSet`), the oracle
(:class:`labyrinth.rules.sets.OracleRules`), an external engine
(:class:`labyrinth.engine_protocol.EngineRuleSet`). Callers rely on it and
never probe a rule set for what it has.

A rule looks at a state and returns :class:`Effect` s: a move it *disables*
or a move it *forces*, each with the rule's name and the cells that
triggered it, so a finding can blame a rule and draw why. Moves are absolute
letters (U/D/L/R); rules that think in the walker's frame (straight, left,
right of the last step) translate with :mod:`labyrinth.engine.frame`.
"""

import dataclasses
import re
from typing import Protocol, runtime_checkable

__all__ = ["BREADTH_FIRST", "DEPTH_FIRST", "ORDERS", "CompiledRule", "Decision", "Effect", "Rule", "RuleSetBase",
           "natural_key"]

#: the orders a rule set may want the states of an audit in (:attr:`RuleSetBase.order`): a whole level of the
#: exhaustive tree at a time and walks in lockstep, or one state at a time, each extending the one before
BREADTH_FIRST, DEPTH_FIRST = "breadth-first", "depth-first"
ORDERS = (BREADTH_FIRST, DEPTH_FIRST)

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
    """A rule: a ``name``, what it does (``kind``: ``"disable"`` or ``"force"``), and ``effects(state)``.

    :class:`CompiledRule` gives the rest its defaults: ``summary`` (one line
    for ``labyrinth rules list``), ``spec`` (a pattern rule's
    :class:`~labyrinth.rules.language.PatternSpec`, else None) and
    ``optional`` (off unless a rule set's ``on`` names it).
    """

    name: str
    kind: str

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
    #: a pattern rule's :class:`~labyrinth.rules.language.PatternSpec`; None for the universal and whole-board rules
    spec = None
    #: off unless a rule set's ``on`` names it (the future-lines aid, the whole-board rules)
    optional = False
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


class RuleSetBase:
    """What every rule set answers, with the defaults of a rule set that only opens moves.

    A rule set subclasses this and implements :meth:`open_moves`; the rest
    has defaults it overrides where it knows more. The walker, the audits,
    campaigns and the CLI rely on these names alone.

    >>> class Straight(RuleSetBase):
    ...     name = "straight"
    ...     def open_moves(self, state):
    ...         return state.open_moves()[:1]
    >>> from labyrinth.engine import State
    >>> rules = Straight()
    >>> rules.open_moves(State.from_moves(5, "")), rules.decide(State.from_moves(5, "")).disabled
    ('D', {'R': ()})
    >>> rules.compiled(), rules.explains, rules.sound, rules.external
    (False, False, False, False)
    """

    #: the rule set's name (blamed for a closed move when :attr:`explains` is false)
    name = "rules"
    #: never closes a live move (``strong``, the oracle): the walker may draw free moves one at a time
    sound = False
    #: decides every move exactly (the oracle): the exhaustive audit counts its subtrees in the verifier's kernel
    perfect = False
    #: :meth:`decide` names the rule that closed each move (the built-in sets, an external engine)
    explains = False
    #: the rules of another program (an external engine): asked in batches (:meth:`decide_many`), its walks
    #: walked in lockstep and its subtrees audited in Python
    external = False
    #: an external engine's command line (campaigns are keyed on it); None for the rules of this process
    command = None
    #: the order an audit asks it in, :data:`BREADTH_FIRST` or :data:`DEPTH_FIRST` (None: the audit's own)
    order = None
    #: every rule, switched on or off (empty for the oracle and an external engine)
    rules = ()
    #: the names of the rules switched off
    off = frozenset()

    @property
    def active(self):
        """The rules asked, in order (the switched-off ones left out)."""
        return tuple(r for r in self.rules if r.name not in self.off)

    def open_moves(self, state):
        """The letters of the moves left open at ``state`` (a subset of ``state.open_moves()``)."""
        raise NotImplementedError

    def decide(self, state):
        """The :class:`Decision` at ``state``; by default the open moves with no rule blamed."""
        open_now = self.open_moves(state)
        return Decision("".join(open_now), {m: () for m in state.open_moves() if m not in open_now}, ())

    def decide_many(self, states):
        """Decisions about several states (an external engine asks them in one request)."""
        return [self.decide(s) for s in states]

    def compiled(self):
        """True when every rule has a numba kernel: the compiled walker (:meth:`runner`) runs the set."""
        return False

    def program(self):
        """The compiled form (:class:`labyrinth.rules.program.Program`); only for a :meth:`compiled` set."""
        raise TypeError(f"rule set {self.name!r} has rules without a kernel")

    def runner(self):
        """The compiled walker (:class:`labyrinth.rules.walks.Runner`); only for a :meth:`walkable` set."""
        raise TypeError(f"rule set {self.name!r} has rules without a kernel")

    def walkable(self):
        """True when the compiled walker (:meth:`runner`) takes this set's random walks."""
        return self.compiled()

    def start(self):
        """Get ready to answer (an external engine starts, so that a bad command fails before any work)."""

    def close(self):
        """Let go of what answering holds (an external engine shuts down); asked again, it starts anew."""

    def take_latency(self):
        """An external engine's request figures since the last call (see :class:`verify.audit.AuditTotals`);
        None for the rules of this process."""
        return None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def natural_key(text):
    """Sort key that orders digit runs by value: ``mined-7-2`` before ``mined-7-10``.

    >>> sorted(["mined-7-10", "mined-7-2", "c-shape"], key=natural_key)
    ['c-shape', 'mined-7-2', 'mined-7-10']
    """
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", str(text)) if part]
