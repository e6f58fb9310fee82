"""Rule-edit regression: audit a base and a head rule set on the same walks and states, and compare.

A researcher edits a rule set and wants to know what the edit broke or fixed.
:func:`regress` runs the same seeded walks under both sets, collects every
state where either set has a finding (plus the states of findings already in
a store), audits each of those states under *both* sets, and compares the
findings there class by class: *fixed* (base only), *new* (head only),
*unchanged* (both). Comparing on one pool of states matters: the two sets'
walks part ways at their first difference, so their own findings alone are
not comparable.

A head that adds an ``over-pruned`` or ``missed-dead`` finding regresses.
Each new finding names the rules behind it: for ``over-pruned`` the head's
rules that closed the move, for ``missed-dead`` the base's rules that closed
it (the rules the edit lost). Walkthrough counts and walker speed are measured
side by side, walk by walk, in the same run.
"""

import collections
import dataclasses
import hashlib
import time

from labyrinth.engine import State
from labyrinth.engine.walker import random_walk
from verify.audit import CLASSES, MISSED_DEAD, OVER_PRUNED, AuditTotals, _Asker, audit_state, audit_walk

__all__ = ["RegressReport", "regress", "rule_set_diff"]


@dataclasses.dataclass
class RegressReport:
    """What :func:`regress` found; ``regressed`` is the verdict."""

    base: str
    head: str
    sizes: tuple
    walks: int
    seed: int
    diff: dict
    per_size: list
    classes: dict  # kind -> {"fixed": k, "new": k, "unchanged": k}
    new: list  # (Finding, blamed rule names)
    fixed: list  # (Finding, blamed rule names)
    states: int = 0
    seconds: float = 0.0

    @property
    def regressed(self):
        """True when the head adds an over-pruned or missed-dead finding."""
        return any(f.kind in (OVER_PRUNED, MISSED_DEAD) for f, _ in self.new)

    def blamed(self, which="new"):
        """Rule name -> number of findings it is behind, over the ``new`` (or ``fixed``) findings."""
        counts = collections.Counter()
        for f, names in getattr(self, which):
            if f.kind in (OVER_PRUNED, MISSED_DEAD):
                counts.update(names)
        return counts

    def to_json(self):
        def item(f, names):
            return f.to_json() | {"blamed": list(names)}

        return {"base": self.base, "head": self.head, "sizes": list(self.sizes), "walks": self.walks,
                "seed": self.seed, "diff": self.diff, "per_size": self.per_size, "classes": self.classes,
                "new": [item(*x) for x in self.new], "fixed": [item(*x) for x in self.fixed],
                "states": self.states, "regressed": self.regressed, "blamed": dict(self.blamed()),
                "seconds": round(self.seconds, 3)}


def _rule_digests(rules):
    out = {}
    for r in rules.active:
        h = hashlib.sha256(type(r).__name__.encode())
        spec = r.spec
        if spec is not None:
            h.update("/".join(spec.grid).encode() + f"{spec.sizes}{spec.mirror}{spec.rotate}".encode())
        out[r.name] = h.hexdigest()[:12]
    return out


def rule_set_diff(base, head):
    """Rules switched on only in the base, only in the head, and rules of one name that changed."""
    a, b = _rule_digests(base), _rule_digests(head)
    return {"only_base": sorted(set(a) - set(b)), "only_head": sorted(set(b) - set(a)),
            "changed": sorted(k for k in set(a) & set(b) if a[k] != b[k])}


def _closers(rules, state, move):
    """The rules of ``rules`` that closed ``move`` at ``state`` (by a disable or a force)."""
    if not rules.explains:
        return (rules.name,)
    names = []
    for e in rules.decide(state).disabled.get(move, ()):
        if e.rule not in names:
            names.append(e.rule)
    return tuple(names)


def _behind(finding, state, other):
    """The rules behind a finding present under one set only.

    Over-pruned: the rules that closed the move (on the finding). Missed-dead:
    the rules of the ``other`` set that closed the move there (the rules the
    set with the finding lacks).
    """
    if finding.kind == MISSED_DEAD:
        return _closers(other, state, finding.move)
    return tuple(finding.rules)


def regress(base, head, sizes, walks, seed, oracle, *, stored_states=(), progress=None):
    """Compare rule sets ``base`` and ``head``: see the module docstring.

    Parameters
    ----------
    base, head : RuleSet
        The rule sets before and after the edit.
    sizes : sequence of int
        Board sizes; ``walks`` seeded walks (``seed``) per size under each set.
    oracle : Oracle
        Decides every state (findings are as exact as the oracle; a timeout is
        an ``unknown`` finding, never a guess).
    stored_states : iterable of str
        Compact states of findings already in a store, audited under both sets.
    progress : callable, optional
        ``progress(done, total)`` over the walks and states.
    """
    t0 = time.perf_counter()
    per_size = []
    pool = {}
    for text in stored_states:
        n = int(text.split(":")[0])
        if n in sizes:
            pool.setdefault(text, State.from_moves(n, text.split(":", 1)[1]))
    total = 2 * walks * len(sizes)
    done = 0
    for n in sizes:
        for rules in (base, head):
            random_walk(n, rules, seed, index=walks)  # warm up: compile outside the timed walks
        row = {"n": n, "walks": walks}
        for side, rules in (("base", base), ("head", head)):
            row[f"{side}_walkthroughs"] = 0
            row[f"{side}_seconds"] = 0.0
        for i in range(walks):  # side by side, walk by walk: the speed ratio is fair on a noisy machine
            for side, rules in (("base", base), ("head", head)):
                w0 = time.perf_counter()
                walk = random_walk(n, rules, seed, index=i)
                row[f"{side}_seconds"] += time.perf_counter() - w0
                row[f"{side}_walkthroughs"] += walk.outcome == "complete"
        for side, rules in (("base", base), ("head", head)):
            row[f"{side}_walks_per_second"] = round(walks / row[f"{side}_seconds"], 1) if row[f"{side}_seconds"] \
                else None
            row[f"{side}_seconds"] = round(row[f"{side}_seconds"], 4)
            for i in range(walks):
                findings, _ = audit_walk(n, rules, seed, i, oracle, fired=False)
                for f in findings:
                    pool.setdefault(f.state, State.from_moves(n, f.state.split(":", 1)[1]))
                done += 1
                if progress is not None:
                    progress(done, total + len(pool))
        per_size.append(row)
    totals = AuditTotals()
    asker = _Asker(oracle, totals)
    found = {"base": {}, "head": {}}
    states = 0
    for k, (text, state) in enumerate(sorted(pool.items())):
        if progress is not None:
            progress(total + k + 1, total + len(pool))
        ok, witness = asker.decide(state)
        if not ok:
            continue  # a dead or undecided state has no findings of its own
        states += 1
        for side, rules in (("base", base), ("head", head)):
            for f in audit_state(state, rules, asker, witness)[0]:
                found[side][(f.kind, f.state, f.move)] = f
    classes = {k: {"fixed": 0, "new": 0, "unchanged": 0} for k in CLASSES}
    new, fixed = [], []
    for key in sorted(set(found["base"]) | set(found["head"])):
        kind = key[0]
        in_base, in_head = key in found["base"], key in found["head"]
        if in_base and in_head:
            classes[kind]["unchanged"] += 1
            continue
        f = found["head" if in_head else "base"][key]
        behind = _behind(f, pool[f.state], base if in_head else head)
        classes[kind]["new" if in_head else "fixed"] += 1
        (new if in_head else fixed).append((f, behind))
    return RegressReport(base=base.name, head=head.name, sizes=tuple(sizes), walks=walks, seed=seed,
                         diff=rule_set_diff(base, head), per_size=per_size, classes=classes, new=new, fixed=fixed,
                         states=states, seconds=time.perf_counter() - t0)
