"""Rules and rule sets: which moves the walker may take from a state, and why.

* :mod:`~labyrinth.rules.base`: the protocol (effects with blame and trigger
  cells); :mod:`~labyrinth.rules.ruleset`: ordered rule sets with switch-off;
* the study's universal rules: :mod:`~labyrinth.rules.cshape` and
  :mod:`~labyrinth.rules.areas` (near-border, older-line, count-area,
  colour-imbalance); :mod:`~labyrinth.rules.future`, the optional
  future-lines aid (forced pieces of line, drawn, and a rule off by default);
* :mod:`~labyrinth.rules.language` and :mod:`~labyrinth.rules.patterns`: the
  pattern-rule language for size-specific rules, shipped in ``library/``;
* :mod:`~labyrinth.rules.program`: a rule set compiled for numba, and
  :mod:`~labyrinth.rules.walks`: the compiled walker that runs it;
  :mod:`~labyrinth.rules.codes`: the one table of the compiled rules' codes;
* whole-board rules that stay sound by construction:
  :mod:`~labyrinth.rules.matching` (two-matching), :mod:`~labyrinth.rules.closure`,
  :mod:`~labyrinth.rules.exact_areas`, the window relaxation
  :mod:`~labyrinth.rules.window` (``window:R``), and
  :mod:`~labyrinth.rules.gates` (areas between gates decided by search and CP-SAT) and
  :mod:`~labyrinth.rules.subtour` (the linear relaxation with subtour cuts), the
  compiled walker pausing for both;
* :mod:`~labyrinth.rules.sets`: the named sets ``default``, ``fast``,
  ``universal``, ``strong`` to ``strong++++``, ``none`` and ``oracle``;
* the rules of an external engine (``engine:COMMAND``) are a family of rule
  sets that :mod:`labyrinth.engine_protocol` registers (:func:`register_family`).
"""

from labyrinth.rules.areas import ColourImbalance, CountArea, NearBorder, OlderLine
from labyrinth.rules.base import CompiledRule, Decision, Effect, Rule, natural_key
from labyrinth.rules.closure import Closure
from labyrinth.rules.cshape import CShape
from labyrinth.rules.exact_areas import ExactAreas
from labyrinth.rules.future import FutureLines, Lines, future_lines
from labyrinth.rules.gates import GatedAreas
from labyrinth.rules.language import PatternSpec, load_rules, parse_rules
from labyrinth.rules.matching import TwoMatching
from labyrinth.rules.patterns import PatternRule
from labyrinth.rules.program import Program
from labyrinth.rules.ruleset import RuleSet
from labyrinth.rules.sets import (
    ENGINE_PREFIX,
    LIBRARY,
    OPTIONAL,
    RULE_SETS,
    UNIVERSAL,
    OracleRules,
    get_rule_set,
    library_rules,
    on_names,
    register_family,
)
from labyrinth.rules.subtour import SubtourCuts
from labyrinth.rules.window import WindowRule

__all__ = [
    "CShape",
    "Closure",
    "ColourImbalance",
    "CompiledRule",
    "CountArea",
    "Decision",
    "ENGINE_PREFIX",
    "Effect",
    "ExactAreas",
    "FutureLines",
    "GatedAreas",
    "LIBRARY",
    "Lines",
    "NearBorder",
    "OPTIONAL",
    "OlderLine",
    "OracleRules",
    "PatternRule",
    "PatternSpec",
    "Program",
    "RULE_SETS",
    "Rule",
    "RuleSet",
    "SubtourCuts",
    "TwoMatching",
    "UNIVERSAL",
    "WindowRule",
    "future_lines",
    "get_rule_set",
    "library_rules",
    "load_rules",
    "natural_key",
    "on_names",
    "parse_rules",
    "register_family",
]
