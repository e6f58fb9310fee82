"""Named rule sets: ``default``, ``fast``, ``universal``, ``strong``, ``strong+`` to ``strong++++``, ``none`` and
``oracle``.

* ``universal``: the study's universal rules, in the order the study checks
  them (C-shape first: if it fires, nothing else is asked);
* ``default``: the universal rules, then the size-specific pattern rules of
  ``labyrinth/rules/library/``; it never calls the oracle;
* ``fast``: the same rules with the area analysis kept local, as in the
  study (only steps that touch a wall): many times faster, and weaker;
* ``strong``: sound rules only: the C-shape, the two-matching (which also
  proves moves live, so the rules after it are not asked about them), the
  four area rules with the local reach (only a step that touches a wall: the
  closure refutes what the global analysis adds, so the walks are the same,
  and faster past 21x21) and the closure (:mod:`labyrinth.rules.closure`);
* ``strong+``: ``strong`` with the probe (:mod:`labyrinth.rules.probe`), the
  closure tried once more for each way on from the cell a move enters;
* ``strong++``: ``strong`` with the probe three levels deep (``probe:3``):
  each way on from the far end of the line supposed and closed, and again
  from there, twice;
* ``strong+++``: ``strong++`` with the cut rule (:mod:`labyrinth.rules.cut`:
  bridges and two-edge cuts of the closure's options); the strongest set in numba;
* ``strong++++``: ``strong+++`` with the gates (:mod:`labyrinth.rules.gates`:
  the areas between single-cell gates decided exactly by search and CP-SAT, at the few
  moves no rule proved live); the strongest sound set;
* ``none``: every free neighbour is open;
* every set but ``none`` and ``oracle`` ends with the optional rules
  ``future-lines``, ``two-matching``, ``closure``, ``exact-areas``, ``probe``, ``cut`` and ``gates``, off
  unless switched on (``on=["future-lines"]``); ``on=["window:3"]`` adds the
  window rule of radius 3 (:mod:`labyrinth.rules.window`), ``on=["probe:2"]``
  the probe two levels deep;
* ``oracle``: a move is open only when the state after it has a completion.

A path to a ``.rule`` file also names a rule set: the universal rules
followed by that file's patterns; ``engine:COMMAND`` names the rules of an
external engine (:class:`labyrinth.engine_protocol.EngineRuleSet`), a *family*
of rule sets the engine protocol registers (:func:`register_family`): the
rules never import the layers above them.
"""

import importlib
import pathlib

from labyrinth.errors import FormatError, LabyrinthError, TimeLimitError
from labyrinth.rules.areas import ColourImbalance, CountArea, NearBorder, OlderLine
from labyrinth.rules.base import RuleSetBase
from labyrinth.rules.closure import Closure
from labyrinth.rules.cshape import CShape
from labyrinth.rules.cut import CutCondition
from labyrinth.rules.exact_areas import ExactAreas
from labyrinth.rules.future import FutureLines
from labyrinth.rules.gates import GatedAreas
from labyrinth.rules.language import load_rules
from labyrinth.rules.matching import TwoMatching
from labyrinth.rules.patterns import PatternRule
from labyrinth.rules.probe import MAX_DEPTH, HeadProbe
from labyrinth.rules.ruleset import RuleSet
from labyrinth.rules.subtour import SubtourCuts
from labyrinth.rules.window import MAX_RADIUS, WindowRule

__all__ = ["ENGINE_PREFIX", "FAMILIES", "LIBRARY", "OPTIONAL", "RULE_SETS", "UNIVERSAL", "OracleRules",
           "get_rule_set", "library_rules", "on_names", "register_family"]

#: the rule-set name prefix of an external engine: ``engine:COMMAND``
ENGINE_PREFIX = "engine:"
#: name prefix -> ``factory(rest of the name, off, on, engine_timeout=, engine_order=)``: rule sets named by a prefix
FAMILIES = {}
#: where the families shipped with the project register themselves (imported by name on first use)
_FAMILY_MODULES = {ENGINE_PREFIX: "labyrinth.engine_protocol"}


def register_family(prefix, factory):
    """Make every name ``PREFIX...`` a rule set: ``factory(rest, off, on, engine_timeout=, engine_order=)`` builds it."""
    FAMILIES[prefix] = factory
    return factory

#: the universal rules, in the order a rule set asks them
UNIVERSAL = (CShape, NearBorder, OlderLine, CountArea, ColourImbalance)
#: the optional rules every set but ``none`` and ``oracle`` ends with, off unless switched on (``--on NAME``):
#: **a new rule registers here** (one line); ``--on``'s help and the name checks read this tuple
OPTIONAL = (FutureLines, TwoMatching, Closure, ExactAreas, HeadProbe, CutCondition, GatedAreas, SubtourCuts)
#: the folder of the shipped pattern rules
LIBRARY = pathlib.Path(__file__).with_name("library")


def library_rules():
    """The shipped pattern rules (every ``*.rule`` in :data:`LIBRARY`), in file-name order."""
    out = []
    for path in sorted(LIBRARY.glob("*.rule")):
        out.extend(PatternRule(spec) for spec in load_rules(path))
    return out


class OracleRules(RuleSetBase):
    """A move is open only when the state after it has a completion (the perfect walker).

    Raises :class:`LabyrinthError` if the oracle cannot decide a move in time:
    the walker never guesses.
    """

    name = "oracle"
    #: the oracle decides every move: a caller may count whole subtrees in the verifier's exhaustive
    #: kernel (``enumerate_walks(..., subtree=verify.count_subtree)``)
    perfect = True
    #: it never closes a live move: it walks as the sound sets do (:func:`labyrinth.engine.walker.random_walk`)
    sound = True

    def __init__(self, oracle=None):
        if oracle is None:
            from oracle import get_oracle
            oracle = get_oracle("auto")
        self.oracle = oracle

    def open_moves(self, state):
        """The moves after which the oracle finds a completion."""
        out = []
        for move in state.open_moves():
            nxt = state.after(move)
            verdict = self.oracle.decide(nxt)
            if verdict.feasible is None:
                raise TimeLimitError("the oracle ran out of time deciding a move", source=nxt.compact())
            if verdict.feasible:
                out.append(move)
        return "".join(out)


def _none(off, on):
    return RuleSet("none", [], off, on)


def _universal_rules(reach="global"):
    return [r() if r is CShape else r(reach) for r in UNIVERSAL]


def _optional():
    """The optional rules every set but ``none`` and ``oracle`` ends with (off unless switched on)."""
    return [rule() for rule in OPTIONAL]


def on_names():
    """What ``--on`` takes, in words: the optional rules' names, then ``window:R`` and ``probe:K``.

    >>> on_names()[:62]
    'future-lines, two-matching, closure, exact-areas, probe, cut, '
    >>> on_names()[62:]
    'gates, subtour, window:R with R from 1 to 5, probe:K with K from 2 to 4, probe-cut:K with K from 1 to 4'
    """
    return ", ".join([r.name for r in _optional()] + [f"{WINDOW_PREFIX}R with R from 1 to {MAX_RADIUS}",
                                                      f"{PROBE_PREFIX}K with K from 2 to {MAX_DEPTH}",
                                                      f"{PROBE_CUT_PREFIX}K with K from 1 to {MAX_DEPTH}"])


def _universal(off, on):
    return RuleSet("universal", _universal_rules() + _optional(), off, on)


def _default(off, on):
    return RuleSet("default", _universal_rules() + library_rules() + _optional(), off, on)


def _fast(off, on):
    return RuleSet("fast", _universal_rules("local") + library_rules() + _optional(), off, on)


def _strong(off, on):
    """Sound rules only: the universal rules, the two-matching (which also proves moves live), the closure."""
    rules = [CShape(), TwoMatching(), *(r("local") for r in UNIVERSAL[1:]), Closure(), FutureLines(), ExactAreas(),
             HeadProbe(), CutCondition(), GatedAreas(), SubtourCuts()]
    on = set(on) | {"two-matching", "closure"}
    return RuleSet("strong", rules, off, on, sound=True)


def _strong_plus(off, on):
    """``strong`` with the probe (:mod:`labyrinth.rules.probe`): the closure tried on each way on from the cell
    a move enters; sound, and the recommended set past 21x21."""
    rules = _strong(off, set(on) | {"probe"})
    rules.name = "strong+"
    return rules


#: how deep the probe of ``strong++`` looks
STRONG_PLUS_PLUS_DEPTH = 3


def _strong_plus_plus(off, on):
    """``strong`` with the probe three levels deep (``probe:3``, :mod:`labyrinth.rules.probe`): each way on
    from the far end of the line supposed and closed, and again twice from there; sound."""
    rules = _strong(off, on).extended([HeadProbe(STRONG_PLUS_PLUS_DEPTH)])
    rules.name = "strong++"
    return rules


def _oracle(off, on):
    if off or on:
        raise LabyrinthError("the oracle rule set has no rules to switch on or off",
                             token=",".join(sorted(set(off) | set(on))))
    return OracleRules()


def _strong_plus_plus_plus(off, on):
    """``strong++`` with the cut rule (:mod:`labyrinth.rules.cut`): bridges and two-edge cuts of the closure's
    options force edges or refute the move; sound."""
    rules = _strong_plus_plus(off, set(on) | {"cut"})
    rules.name = "strong+++"
    return rules


def _strong_plus_plus_plus_plus(off, on):
    """``strong+++`` with the gates (:mod:`labyrinth.rules.gates`): the areas between single-cell gates decided
    exactly by search and CP-SAT where no rule proved a move live; sound, and the strongest set."""
    rules = _strong_plus_plus_plus(off, set(on) | {"gates"})
    rules.name = "strong++++"
    return rules


RULE_SETS = {"default": _default, "fast": _fast, "universal": _universal, "strong": _strong, "strong+": _strong_plus,
             "strong++": _strong_plus_plus, "strong+++": _strong_plus_plus_plus,
             "strong++++": _strong_plus_plus_plus_plus, "none": _none, "oracle": _oracle}


def builtin_names():
    """Names a user's rule may not take: the rule sets, the universal and optional rules, the shipped patterns."""
    return (set(RULE_SETS) | {r.name for r in _universal_rules()} | {r.name for r in _optional()}
            | {r.name for r in library_rules()})


def check_names(specs, source):
    """Refuse a rule of a user's file named like a built-in rule or rule set (blame would be ambiguous)."""
    taken = builtin_names()
    for spec in specs:
        if spec.name in taken:
            raise FormatError(f"rule name {spec.name!r} is a built-in rule or rule set: choose another",
                              source=f"{source}:{spec.line}")


#: ``--on window:R`` adds the window rule of radius R
WINDOW_PREFIX = "window:"
#: ``--on probe:K`` adds the probe K levels deep
PROBE_PREFIX = "probe:"
#: ``--on probe-cut:K`` adds the probe K levels deep whose suppositions the cut rule closes too
PROBE_CUT_PREFIX = "probe-cut:"


def _window_rule(name):
    """The window rule a name ``window:R`` asks for; a one-line error for a bad radius."""
    radius = name[len(WINDOW_PREFIX):]
    if not radius.isdigit() or not 1 <= int(radius) <= MAX_RADIUS:
        raise LabyrinthError(f"a window rule takes a radius from 1 to {MAX_RADIUS} (window:3 is a 7x7 window)",
                             token=name)
    return WindowRule(int(radius))


def _deep_probe(name):
    """The look-ahead a name ``probe:K`` (or ``probe-cut:K``) asks for; a one-line error for a bad depth."""
    cut = name.startswith(PROBE_CUT_PREFIX)
    depth = name[len(PROBE_CUT_PREFIX if cut else PROBE_PREFIX):]
    least = 1 if cut else 2
    if not depth.isdigit() or not least <= int(depth) <= MAX_DEPTH:
        raise LabyrinthError(f"a deep probe takes a depth from {least} to {MAX_DEPTH}"
                             + ("" if cut else " (probe is depth 1)"), token=name)
    return HeadProbe(int(depth), cut=cut)


def get_rule_set(name, off=(), on=(), *, engine_timeout=None, engine_order=None):
    """A rule set by name (or a ``.rule`` file: universal rules + its patterns; or ``engine:COMMAND``).

    ``off`` names rules to switch off, ``on`` optional rules to switch on
    (:data:`OPTIONAL`, and ``window:R`` for a radius R from 1 to 5, which adds
    the window rule: :func:`on_names`); unknown names are a one-line error. An external
    engine (``engine:COMMAND``) has no rules to switch, gets
    ``engine_timeout`` seconds per request and is asked in ``engine_order``
    (None: the order it prefers); it starts when first asked.
    """
    off, on = frozenset(off), frozenset(on)
    extra = [_window_rule(w) for w in sorted(on) if w.startswith(WINDOW_PREFIX)]
    extra += [_deep_probe(p) for p in sorted(on) if p.startswith((PROBE_PREFIX, PROBE_CUT_PREFIX))]
    for prefix in sorted(set(FAMILIES) | set(_FAMILY_MODULES)):
        if name.startswith(prefix):
            if prefix not in FAMILIES:
                importlib.import_module(_FAMILY_MODULES[prefix])
            return FAMILIES[prefix](name[len(prefix):], off, on, engine_timeout=engine_timeout,
                                    engine_order=engine_order)
    if engine_order is not None:
        raise LabyrinthError("the order of states is how an external engine is asked: it goes with --engine",
                             token=engine_order)
    if name in RULE_SETS:
        rules = RULE_SETS[name](off, on)
    elif name.endswith(".rule"):
        specs = load_rules(name)
        check_names(specs, name)
        rules = RuleSet(pathlib.Path(name).stem,
                        _universal_rules() + [PatternRule(s) for s in specs] + _optional(), off, on)
    else:
        raise LabyrinthError(f"unknown rule set (choose from {', '.join(RULE_SETS)}, a .rule file or "
                             f"{ENGINE_PREFIX}COMMAND)", token=name)
    if extra:
        if not isinstance(rules, RuleSet):
            raise LabyrinthError(f"the {name} rule set takes no {extra[0].name} rule", token=extra[0].name)
        rules = rules.extended(extra)  # what the set switched on stays on (``strong``'s closure among it)
    if isinstance(rules, RuleSet):
        unknown = (off | on) - {r.name for r in rules.rules}
        if unknown:
            known = ", ".join(r.name for r in rules.rules) or "none"
            raise LabyrinthError(f"no such rule in {rules.name} (its rules: {known})",
                                 token=",".join(sorted(unknown)))
    return rules
