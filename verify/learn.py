"""Rules that get stronger by themselves: rounds of walks, missed-dead findings, minimal patterns, sound rules.

One round of :func:`learn`, for every board size asked:

1. **campaign**: seeded random walks under the current rule set (the base
   set plus every rule learned so far); each stuck walk's *first fatal
   move* (the first move after which no completion exists, by bisection
   with the oracle) is a missed-dead finding;
2. **minimal pattern** of the dead state (:func:`verify.minimize.minimal_pattern`:
   the fewest cell facts that alone leave no completion, in the head's frame)
   and its explained class (:func:`verify.explain.explain`);
3. **a rule**: the pattern drawn in the pattern language (up to radius 5),
   kept only when proved sound on every board twice: the pattern is
   infeasible in the open plane (:func:`verify.minimize.verify_pattern`) and
   the drawn rule's window is (:func:`verify.soundness.rule_soundness`);
4. **deduplicated** by symmetry (a pattern and its mirror image are one) and
   by subsumption (a rule whose conditions another rule's imply adds nothing);
5. the rule file is written with each rule's provenance (the teaching
   state, its class, the round), and the same walks are walked again under
   the stronger set: the round's stuck rate before and after.

Every unit of work (a finding decided, a round measured) is stored in a JSON
lines file as it finishes (:mod:`verify.learn_units`: checked and locked
for the run before any work), so ``--resume`` continues an interrupted run
without repeating it. The learned rules are sound on every board by proof,
not by test, so a set that was sound stays sound.
"""

import dataclasses
import time

from labyrinth.engine.walker import random_walk
from labyrinth.errors import LabyrinthError, TimeLimitError
from labyrinth.rules import PatternRule, RuleSet, get_rule_set, parse_rules
from labyrinth.rules.language import ALLOWED, RADIUS
from verify.learn_units import UnitStore

__all__ = ["Learned", "learn", "subsumes"]

#: conditions a drawn cell may state (see :mod:`labyrinth.rules.language`)
_ANY = frozenset((0, 1, 2, 3))


@dataclasses.dataclass
class Learned:
    """What a run of :func:`learn` found: the rule texts kept, and per round and size the stuck walks before/after."""

    rules: list  # rule texts, in the order learned
    rounds: list  # one dict per round: {"round", "sizes": {n: {"walks", "before", "after"}}, "new", "seconds"}
    skipped: dict  # reason -> count (pattern too wide, not proved sound, duplicate, timeout)
    unfinished: str = ""  # why the run stopped early (a round's budget ran out): continue it with resume


def _conditions(spec, mirror=False):
    """A spec's cells as {page offset: allowed window codes}, with its marks; mirrored left-right if asked."""
    sign = -1 if mirror else 1
    cells = {(sign * px, py): frozenset(ALLOWED[cond]) for px, py, cond in spec.cells}
    marks = frozenset((sign * px, py) for px, py in spec.marks)
    return cells, marks


def subsumes(general, specific):
    """True if rule ``general`` closes every move rule ``specific`` closes (its conditions are implied).

    Both are :class:`~labyrinth.rules.language.PatternSpec` s that disable
    moves; mirror images are compared too.

    >>> from labyrinth.rules import parse_rules
    >>> a, b = parse_rules("name: a\\ngrid:\\n  x H X\\n  ? # ?\\n\\nname: b\\ngrid:\\n  x H #\\n  . # ?\\n", source="t")
    >>> subsumes(a, b), subsumes(b, a)
    (True, False)
    """
    cs, ms = _conditions(specific)
    for mirror in (False, True):
        cg, mg = _conditions(general, mirror)
        if mg != ms:
            continue
        if all(cs.get(at, _ANY) <= allowed for at, allowed in cg.items()):
            return True
    return False


def _rule_set(base, texts, name):
    """The base rule set plus the learned rules (a set of sound rules stays sound)."""
    rules = get_rule_set(base)
    if not isinstance(rules, RuleSet):
        raise LabyrinthError("learning needs a rule set of rules (not the oracle or an engine)", token=base)
    learned = [PatternRule(spec) for text in texts for spec in parse_rules(text, source=name)]
    on = {r.name for r in rules.rules} - rules.off  # the base set's optional rules stay as they were
    return RuleSet(rules.name, list(rules.rules) + learned, on=on, sound=rules.sound), len(learned)


def _walks(n, rules, seed, count):
    """``count`` seeded walks: their outcomes and the stuck ones' final states."""
    out = []
    for i in range(count):
        walk = random_walk(n, rules, seed, index=i)
        out.append(walk)
    return out


def _decide(state, round_, name, oracle, time_limit):
    """One finding: its first fatal state, minimal pattern, class, and the rule text or why there is none."""
    from oracle import first_dead_step
    from verify.explain import explain
    from verify.minimize import PatternError, minimal_pattern
    from verify.soundness import rule_soundness

    step, undecided = first_dead_step(state, oracle)
    record = {"kind": "finding", "round": round_, "state": state.compact()}
    if step is None:
        record["skip"] = "timeout" if undecided else "alive"
        return record
    fatal = state.prefix(step)
    record["fatal"] = fatal.compact()
    record["class"] = explain(fatal).kind
    t0 = time.perf_counter()
    try:
        pattern = minimal_pattern(fatal, time_limit=time_limit, radius=RADIUS, centre=fatal.path[-2])
        record["key"] = pattern.key
        text = pattern.to_rule(name, about=f"learned in round {round_} from {fatal.compact()} ({record['class']})",
                               deadline=time.perf_counter() + time_limit)
    except TimeLimitError:
        record["skip"] = "timeout"
        return record
    except PatternError as err:
        record["skip"] = "too wide" if "rule language" in str(err) else "not sound in the plane"
        return record
    spec = parse_rules(text, source=name)[0]
    verdicts = rule_soundness(spec, time_limit=time_limit)
    if not verdicts or not all(v.sound is True for v in verdicts):
        record["skip"] = "not proved sound"
        return record
    record["rule"] = text
    record["seconds"] = round(time.perf_counter() - t0, 3)
    return record


_WORKER = {}


def _worker_decide(compact, round_, name, time_limit):
    """A worker's :func:`_decide`, with an oracle of its own (made on its first finding)."""
    from labyrinth.engine import parse_compact
    from oracle import get_oracle

    if "oracle" not in _WORKER:
        _WORKER["oracle"] = get_oracle("auto")
    return _decide(parse_compact(compact), round_, name, _WORKER["oracle"], time_limit)


def _decide_all(missing, round_, prefix, oracle, time_limit, jobs, t0, budget, keeper, done, progress, before):
    """Decide the findings not stored yet, storing each as it finishes; how many the budget left undecided."""
    def over():
        return budget is not None and time.perf_counter() - t0 > budget

    count = before
    if jobs <= 1 or len(missing) < 2:
        for i, (k, state) in enumerate(missing):
            if over():
                return len(missing) - i
            record = _decide(state, round_, f"{prefix}-{round_}-{k + 1}", oracle, time_limit)
            keeper.add(record)
            done[record["state"]] = record
            count += 1
            progress(count)
        return 0
    from labyrinth.jobs.pool import WorkerPool

    finished = 0
    with WorkerPool(jobs, start="spawn") as pool:  # fresh interpreters, each with an oracle of its own
        results = pool.map_unordered(_worker_decide, [(state.compact(), round_, f"{prefix}-{round_}-{k + 1}",
                                                       time_limit) for k, state in missing])
        try:
            for record in results:
                keeper.add(record)
                done[record["state"]] = record
                finished += 1
                count += 1
                progress(count)
                if over():
                    break
        finally:
            results.close()  # the budget ran out: the findings being decided wait for the next run
    return len(missing) - finished


def learn(sizes, *, base="default", rounds=3, walks=400, seed=0, store, resume=False, budget=None,
          time_limit=30.0, prefix="learned", progress=None, jobs=1):
    """Run the learning rounds (see the module); returns :class:`Learned`.

    Parameters
    ----------
    sizes : list of int
        Board sizes walked in every round.
    base : str
        The rule set learning starts from (``default``, ``universal``, ``strong``, a ``.rule`` file).
    rounds, walks, seed
        Rounds; walks per size per round; round ``r`` walks with seed ``seed + r``.
    store : path or verify.learn_units.UnitStore
        The JSON lines file of finished units (``resume`` continues it), or
        that file already open (and locked) by the caller.
    budget : float, optional
        Seconds per round for deciding findings; findings past it wait for the next run (``--resume``).
    progress : callable, optional
        ``progress(event, **info)`` with events ``round``, ``finding``, ``measured``.
    jobs : int
        Worker processes deciding findings (each with its own oracle); the rules learned are the same.
    """
    if not isinstance(store, UnitStore):
        with UnitStore(store, resume) as keeper:
            return learn(sizes, base=base, rounds=rounds, walks=walks, seed=seed, store=keeper, budget=budget,
                         time_limit=time_limit, prefix=prefix, progress=progress, jobs=jobs)
    return _learn(sizes, base, rounds, walks, seed, store, budget, time_limit, prefix, progress, jobs)


def _learn(sizes, base, rounds, walks, seed, keeper, budget, time_limit, prefix, progress, jobs):
    """:func:`learn` on an open store."""
    from oracle import get_oracle

    texts, specs, rounds_out = [], [], []
    skipped = {}
    with get_oracle("auto") as oracle:
        for r in range(1, rounds + 1):
            t0 = time.perf_counter()
            rules, _ = _rule_set(base, texts, "learned")
            done = keeper.findings(r)
            stuck = {}
            for n in sizes:
                stuck[n] = [w.state for w in _walks(n, rules, seed + r, walks) if w.outcome != "complete"]
            todo = [s for n in sizes for s in stuck[n]]
            if progress is not None:
                progress("round", round=r, findings=len(todo), stuck={n: len(v) for n, v in stuck.items()})
            new = 0
            missing = [(k, state) for k, state in enumerate(todo) if state.compact() not in done]
            left = _decide_all(missing, r, prefix, oracle, time_limit, jobs, t0, budget, keeper, done,
                               lambda count: progress is None or progress("finding", round=r, done=count,
                                                                           total=len(todo)),
                               len(todo) - len(missing))
            if left:
                return Learned(texts, rounds_out, skipped, f"round {r} used its budget of {budget:.0f} s with "
                                                           f"{left} findings left")
            for k, state in enumerate(todo):
                record = done[state.compact()]
                if "rule" in record:
                    spec = parse_rules(record["rule"], source="learned")[0]
                    if any(subsumes(old, spec) for old in specs):
                        skipped["subsumed or duplicate"] = skipped.get("subsumed or duplicate", 0) + 1
                    else:
                        keep = [i for i, old in enumerate(specs) if not subsumes(spec, old)]
                        specs = [specs[i] for i in keep] + [spec]
                        texts = [texts[i] for i in keep] + [record["rule"]]
                        new += 1
                else:
                    skipped[record["skip"]] = skipped.get(record["skip"], 0) + 1
            measured = keeper.measured(r)
            if measured is None:
                after_rules, _ = _rule_set(base, texts, "learned")
                sizes_out = {}
                for n in sizes:
                    again = _walks(n, after_rules, seed + r, walks)
                    sizes_out[str(n)] = {"walks": walks, "before": len(stuck[n]),
                                         "after": sum(1 for w in again if w.outcome != "complete")}
                measured = {"kind": "round", "round": r, "sizes": sizes_out, "new": new, "rules": len(texts),
                            "seconds": round(time.perf_counter() - t0, 1)}
                keeper.add(measured)
            rounds_out.append(measured)
            if progress is not None:
                progress("measured", **measured)
    return Learned(texts, rounds_out, skipped)


def format_learned(learned, command):
    """The rule file: a header with the command and each round's figures, then the rules with their provenance."""
    lines = [f"# learned by `{command}`",
             "# every rule is a minimal stuck pattern, proved sound on every board (its window in the open plane)"]
    for rnd in learned.rounds:
        figures = ", ".join(f"{n}x{n}: {v['before']} -> {v['after']} stuck in {v['walks']} walks"
                            for n, v in rnd["sizes"].items())
        lines.append(f"# round {rnd['round']}: {rnd['new']} new rules ({rnd['rules']} in all); {figures}")
    if learned.skipped:
        lines.append("# findings without a new rule: " + ", ".join(f"{k} {v}" for k, v in sorted(learned.skipped.items())))
    return "\n".join(lines) + "\n\n" + "\n".join(learned.rules)
