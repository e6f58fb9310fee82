"""Audits: run the walker, ask the oracle about every free move, and flag where the rules are wrong.

Classes of finding (:data:`CLASSES`):

* ``over-pruned``: a rule disabled a move (or a force excluded it) that still
  has a completion; the finding blames the rule(s), with their trigger cells,
  and carries a witness completion through that move;
* ``missed-dead``: an open move leads to a state without completion (the
  topmost such state of its branch); it carries that state's minimal stuck
  pattern (:mod:`verify.minimize`), and the step where the walk got stuck;
* ``wrong-force``: a rule forced a move without completion while another move
  has one;
* ``unknown``: the oracle ran out of time on a move (never counted as either).

A walk audit decides the first state once and then keeps a witness: a step
along the current witness is alive at no cost, so only the moves off it are
queried. Every finding is checked again by a second backend (SAT) before it
is reported.
"""

import collections
import dataclasses
import time

from labyrinth.engine import State
from labyrinth.engine.walker import random_walk
from verify.explain import explain
from verify.minimize import PatternError, minimal_pattern

__all__ = ["CLASSES", "AuditTotals", "Finding", "audit_state", "audit_walk", "confirm", "count_fired"]

OVER_PRUNED, MISSED_DEAD, WRONG_FORCE, UNKNOWN = "over-pruned", "missed-dead", "wrong-force", "unknown"
CLASSES = (OVER_PRUNED, MISSED_DEAD, WRONG_FORCE, UNKNOWN)


@dataclasses.dataclass
class Finding:
    """One thing the rules got wrong, at ``state`` (compact notation) about ``move``.

    ``rules``/``cells``: the rules blamed and the cells (1-based ``(x, y)``)
    that triggered them; ``witness``: a completion from ``state`` starting
    with ``move`` (over-pruned) or with the move that should have been taken
    (wrong force); ``pattern``: the minimal stuck pattern of the dead state;
    ``stuck_step``: where the walk that passed here got stuck; ``checked_by``:
    the backend that confirmed the finding; ``explanation``: why a
    confirmed missed-dead state is dead (:func:`verify.explain.explain`).
    """

    kind: str
    state: str
    move: str
    rules: tuple = ()
    cells: tuple = ()
    witness: str = None
    pattern: object = None
    stuck_step: int = None
    checked_by: str = None
    unit: str = ""
    explanation: object = None

    @property
    def dead_state(self):
        """The state the move leads to (compact notation)."""
        return self.state + self.move if ":" in self.state else None

    def to_json(self):
        return {"kind": self.kind, "state": self.state, "move": self.move, "rules": list(self.rules),
                "cells": [list(c) for c in self.cells], "witness": self.witness,
                "pattern": None if self.pattern is None else self.pattern.to_json(),
                "stuck_step": self.stuck_step, "checked_by": self.checked_by, "unit": self.unit,
                "explanation": None if self.explanation is None else self.explanation.to_json()}


@dataclasses.dataclass
class AuditTotals:
    """What an audit saw: walks or tree nodes, steps, outcomes, oracle effort, rule counts."""

    walks: int = 0
    steps: int = 0
    walkthroughs: int = 0
    stuck: int = 0
    ended_alive: int = 0  # trace audits: lines saved alive with moves still allowed (neither complete nor stuck)
    ended_dead: int = 0  # trace audits: lines saved dead with moves still allowed (the walk was doomed, not stuck)
    queries: int = 0
    oracle_seconds: float = 0.0
    seconds: float = 0.0  # wall time (of a unit; of a campaign, over all its runs)
    work_seconds: float = 0.0  # time inside units, summed over workers (oracle_seconds is part of it)
    unconfirmed: int = 0  # findings the second backend could not decide in time (kept, shown unconfirmed)
    patterns: int = 0  # minimal stuck patterns found
    patterns_missing: int = 0  # patterns asked for that ran out of time (the findings are stored without one)
    disagreements: int = 0  # findings the second backend decided the other way (a backend bug; not reported)
    findings: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    fired: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    misfired: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    # an external engine's requests (labyrinth.engine_protocol.ruleset): how many, the states they asked about, the
    # round-trip seconds in all and the longest, and a log histogram of round trips (for the median)
    engine_requests: int = 0
    engine_states: int = 0
    engine_seconds: float = 0.0
    engine_max: float = 0.0
    engine_latency: collections.Counter = dataclasses.field(default_factory=collections.Counter)

    def add(self, other):
        for f in dataclasses.fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if isinstance(mine, collections.Counter):
                mine.update(theirs)
            elif f.name == "engine_max":
                setattr(self, f.name, max(mine, theirs))
            else:
                setattr(self, f.name, mine + theirs)

    def add_engine(self, rules):
        """Count the requests ``rules`` (an external engine) made since it was last read; others: nothing."""
        taken = rules.take_latency()
        if taken is None:
            return
        requests, states, seconds, longest, histogram = taken
        self.engine_requests += requests
        self.engine_states += states
        self.engine_seconds += seconds
        self.engine_max = max(self.engine_max, longest)
        self.engine_latency.update(histogram)

    def to_json(self):
        out = dataclasses.asdict(self)
        for k in COUNTERS:
            out[k] = dict(getattr(self, k))
        for k in ("oracle_seconds", "seconds", "work_seconds", "engine_seconds"):
            out[k] = round(getattr(self, k), 3)
        out["engine_max"] = round(self.engine_max, 6)
        return out


#: the fields of :class:`AuditTotals` that are counters (a name -> count mapping in JSON)
COUNTERS = ("findings", "fired", "misfired", "engine_latency")


class _Asker:
    """The oracle with a witness kept along the walk: a move along it is alive for free."""

    def __init__(self, oracle, totals):
        self.oracle = oracle
        self.totals = totals

    def decide(self, state):
        t0 = time.perf_counter()
        verdict = self.oracle.decide(state)
        self.totals.queries += 1
        self.totals.oracle_seconds += time.perf_counter() - t0
        return verdict.feasible, verdict.witness


def audit_state(state, rules, asker, witness=None, fired=None):
    """Audit one alive ``state``: ``(findings, feasible move -> witness)``.

    ``witness`` is a known completion of ``state`` (its first move is then
    alive for free). Findings come unconfirmed (see :func:`confirm`).
    """
    free = state.open_moves()
    open_moves = rules.open_moves(state)
    closed = [m for m in free if m not in open_moves]
    feasible, unknown = {}, []
    for m in free:
        if witness and witness[0] == m:
            feasible[m] = witness[1:]
            continue
        ok, w = asker.decide(state.after(m))
        if ok is None:
            unknown.append(m)
        elif ok:
            feasible[m] = w
    findings = []
    decision = None
    if closed and (fired is not None or any(m in feasible for m in closed)):
        decision = rules.decide(state) if rules.explains else None
        if fired is not None and decision is not None:
            count_fired(decision, fired)
    forced = [] if decision is None else sorted({e.move for e in decision.forced})
    here = state.compact()
    for m in unknown:
        findings.append(Finding(UNKNOWN, here, m))
    wrong_force = forced and len(forced) == 1 and forced[0] in open_moves and forced[0] not in feasible \
        and forced[0] not in unknown and feasible
    for m in free:
        if m in unknown:
            continue
        if m in open_moves and m not in feasible:
            if wrong_force and m == forced[0]:
                rules_, cells = _blame(state, decision.forced)
                alt = sorted(feasible)[0]
                findings.append(Finding(WRONG_FORCE, here, m, rules_, cells, alt + feasible[alt]))
            else:
                findings.append(Finding(MISSED_DEAD, here, m))
        elif m not in open_moves and m in feasible:
            if wrong_force:
                continue  # reported as the wrong force
            effects = () if decision is None else decision.disabled.get(m, ())
            rules_, cells = _blame(state, effects)
            findings.append(Finding(OVER_PRUNED, here, m, rules_ or (rules.name,), cells,
                                    m + feasible[m]))
    return findings, feasible


def count_fired(decision, fired):
    """Add one to ``fired[rule]`` for every free move each rule closed in ``decision``."""
    for effects in decision.disabled.values():
        for rule in {e.rule for e in effects}:
            fired[rule] += 1


def _blame(state, effects):
    names, cells = [], []
    for e in effects:
        if e.rule not in names:
            names.append(e.rule)
        for c in e.cells:
            xy = state.board.xy(c)
            if xy not in cells:
                cells.append(xy)
    return tuple(names), tuple(cells)


def audit_walk(n, rules, seed, index, oracle, *, fired=True, walk=None):
    """Audit walk ``index`` of campaign ``seed``: every step, every free move.

    Returns ``(findings, totals)``; the audit stops at the first dead state the
    walk enters (every later state is dead too), which is then a
    ``missed-dead`` finding with the step where the walk got stuck. ``walk``:
    the walk itself, when the caller has walked it already.
    """
    t0 = time.perf_counter()
    totals = AuditTotals(walks=1)
    if walk is None:
        walk = random_walk(n, rules, seed, index=index)
    final = walk.state
    if walk.outcome == "complete":
        totals.walkthroughs += 1
    else:
        totals.stuck += 1
    asker = _Asker(oracle, totals)
    state = State.from_moves(n, "")
    ok, witness = asker.decide(state)
    findings = []
    fired_counter = totals.fired if fired else None
    for k, move in enumerate(final.moves):
        if ok is None:
            findings.append(Finding(UNKNOWN, state.compact(), move))
            break
        if not ok:
            break  # the root itself dead cannot happen on a real board
        totals.steps += 1
        found, feasible = audit_state(state, rules, asker, witness, fired_counter)
        for f in found:
            if f.kind == MISSED_DEAD and f.move == move and walk.outcome == "stuck":
                f.stuck_step = walk.stuck_step
        findings.extend(found)
        if move in feasible:
            witness = feasible[move]
            state = state.after(move)
            ok = True
        else:
            ok = False
            break
    else:
        if not final.is_complete() and ok:
            # stuck with every earlier step alive: the last state is alive yet all its moves are closed
            totals.steps += 1
            findings.extend(audit_state(final, rules, asker, witness, fired_counter)[0])
    totals.findings.update(f.kind for f in findings)
    for f in findings:
        f.unit = f"walk {index}"
        for r in f.rules:
            totals.misfired[r] += 1
    totals.seconds = time.perf_counter() - t0
    totals.add_engine(rules)
    return findings, totals


def _who(verdict):
    """The backend that gave a verdict: ``sat``, ``cpsat``... (a portfolio names its member)."""
    return verdict.backend.split(":")[-1]


def confirm(finding, second, *, patterns=True, time_limit=60.0, pattern_time_limit=None):
    """Check a finding with a second backend; add the minimal stuck pattern to dead ones.

    ``second`` decides again (SAT by default); a minimal stuck pattern (a
    fresh solver each, so it depends on the state alone) gets
    ``pattern_time_limit`` seconds (``time_limit`` when omitted).

    Returns True when the finding stands: ``checked_by`` then names the
    second backend, or stays None when that backend ran out of time (the
    finding rests on the first oracle alone and is shown as unconfirmed; a
    timeout is never read as agreement or disagreement). Returns False when the
    second backend decides the opposite: a bug in a backend, counted as a
    disagreement by the campaign and not reported as a finding.
    """
    state = State.from_moves(int(finding.state.split(":")[0]), finding.state.split(":", 1)[1])
    if finding.kind == UNKNOWN:
        return True
    if finding.kind == OVER_PRUNED:
        verdict = second.decide(state.after(finding.move), time_limit=time_limit)
        feasible = verdict.feasible
        if feasible is False:
            return False
        finding.checked_by = _who(verdict) if feasible else None
        return True
    dead = state.after(finding.move)
    verdict = second.decide(dead, time_limit=time_limit)
    feasible = verdict.feasible
    if feasible:
        return False
    if finding.kind == WRONG_FORCE:
        alt = second.decide(state.after(finding.witness[0]), time_limit=time_limit).feasible
        if alt is False:
            return False
        feasible = None if alt is None else feasible
    if feasible is None:
        return True  # unconfirmed: no pattern either (the solver that would find it just ran out of time)
    finding.checked_by = _who(verdict)
    if finding.kind == MISSED_DEAD:
        finding.explanation = explain(dead)
    if patterns and not dead.is_complete():
        try:
            limit = time_limit if pattern_time_limit is None else pattern_time_limit
            finding.pattern = minimal_pattern(dead, time_limit=limit)
        except PatternError:
            finding.pattern = None
    return True
