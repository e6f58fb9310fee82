"""Audit campaigns: split into units, run them (local processes or a Ray cluster), store every finding.

How a campaign is split (every unit is independent and named, so any subset
can run anywhere, in any order, and a resumed campaign skips the named units
already in the store):

* ``walks``: unit ``walk i`` is the i-th seeded random walk (the walk depends
  only on the seed and i), so any range of walks can run anywhere; with an
  external engine (``engine:COMMAND``) unit ``walks i-j`` holds
  :data:`ENGINE_WALKS_PER_UNIT` walks, walked in lockstep so that each step is
  one request for all of them (or, for an engine asked depth-first, one walk
  after the other);
* ``exhaustive``: the keep-left tree is cut at ``split`` moves; each prefix
  there is a unit (its subtree, audited by the numba kernel of
  :mod:`verify._exhaustive`, or in Python by :mod:`verify._subtree` for a rule
  set without a kernel), and the few nodes above the cut are audited at
  the end, from the units' results, as unit ``top``;
* ``trace``: unit ``file PATH`` audits one research file
  (:mod:`verify.trace`).

Where units run: ``jobs`` local processes (forked, each with its own rule set
and oracles), or ``backend="ray"``: each unit is a Ray task (a bounded window
of tasks in flight); the worker processes keep their rule set and oracles
between tasks, and every result is committed by the driver, which alone
writes the store. ``address`` joins a running cluster (``ray start --head`` on
one machine, ``ray start --address HEAD:6379`` on the others, with this
package installed on every node); without it a local Ray with ``jobs`` CPUs
is started for the campaign.

Units already in the store are skipped with ``resume``; each finished unit is
committed with its findings before it is reported. Every unit is claimed in
the store before it runs (:mod:`labyrinth.jobs.claims`), so two runs resuming one
campaign at once share its units, and a killed run's claims are taken over.
Local worker processes die with the run, even when it is SIGKILLed.
"""

import collections
import hashlib
import time

from labyrinth.engine import State
from labyrinth.errors import LabyrinthError
from labyrinth.jobs.stopping import held
from labyrinth.rules.base import DEPTH_FIRST
from verify._run import Run, Workers
from verify.audit import (
    MISSED_DEAD,
    WRONG_FORCE,
    AuditTotals,
    _Asker,
    audit_state,
    audit_walk,
    confirm,
    count_fired,
)
from verify.settings import PATTERN_SECONDS, AuditSettings

__all__ = ["AuditSettings", "PATTERN_SECONDS", "code_version", "rules_fingerprint", "rules_fingerprints", "run_campaign",
           "run_trace_campaign"]


def rules_fingerprint(rules):
    """A short hash naming what a rule set decides: its name, and the rules it asks (in order) with their patterns.

    A rule switched off asks nothing, so it is left out: a set that gained an
    optional rule switched off (``gates`` joining ``strong+++``) walks the same
    walks and resumes the campaigns it stored before. Campaigns stored under
    the older fingerprint, which counted the rules switched off too, are found
    by :func:`rules_fingerprints`. An external engine is named by its command
    (not by what it says of itself, so a campaign stopped by a faulty engine
    resumes with the engine fixed).
    """
    return _fingerprint(rules, with_off=False)


def rules_fingerprints(rules):
    """The fingerprints a stored campaign of ``rules`` may carry: :func:`rules_fingerprint` first, then the older one.

    Stores written before 2026-11-30 named a set by every rule, switched off
    or not; a resume matches either, so no stored campaign is orphaned.
    """
    return (_fingerprint(rules, with_off=False), _fingerprint(rules, with_off=True))


def _fingerprint(rules, *, with_off):
    command = rules.command
    h = hashlib.sha256(("engine:" + command if command is not None else rules.name).encode())
    for r in rules.rules:
        off = r.name in rules.off
        if off and not with_off:
            continue
        h.update(f"|{r.name}:{type(r).__name__}:{off}".encode())
        spec = r.spec
        if spec is not None:
            h.update("/".join(spec.grid).encode())
            h.update(f"{spec.sizes}{spec.mirror}{spec.rotate}".encode())
    return h.hexdigest()[:16]


def code_version():
    """The package version and a hash of the sources of the engine, rules, oracle and verifier."""
    from labyrinth import __version__, source_digest

    return f"{__version__}+{source_digest()[:12]}"


# --- worker side -------------------------------------------------------------------------
_CTX = {}

#: ``patterns`` policy of a campaign: minimal patterns for every dead finding up to this board size;
#: beyond it, where one costs seconds, for the first of each unit (the walk's fatal move first)
PATTERNS_ALL_UP_TO = 11


def _init(rules_args, time_limit, patterns, oracle="auto", engine_timeout=None, engine_order=None):
    from labyrinth.rules import get_rule_set
    from oracle import get_oracle

    name, off, on = rules_args
    old = _CTX.get("rules")
    if old is not None:  # an external engine of the previous campaign in this worker shuts down
        old.close()
    _CTX.update(rules=get_rule_set(name, off=off, on=on, engine_timeout=engine_timeout, engine_order=engine_order),
                oracle=get_oracle(oracle, time_limit=time_limit), second=second_opinion(oracle, time_limit),
                time_limit=time_limit, patterns=patterns, args=(rules_args, time_limit, patterns, oracle,
                                                                engine_timeout, engine_order))


def second_opinion(oracle, time_limit):
    """The oracle that confirms each finding: the solvers the first one is not, afresh (no reuse).

    SAT and CP-SAT (with its LP relaxation, which refutes the colour-imbalance
    states that defeat clause learning) in doubling time slices; only CP-SAT
    when the first oracle is SAT, only SAT when it is CP-SAT. The search, which
    decides most states for ``auto``, is never its own second opinion.
    """
    from oracle.auto import AutoOracle

    members = {"sat": ("cpsat",), "cpsat": ("sat",)}.get(oracle, ("sat", "cpsat"))
    return AutoOracle(time_limit, search_nodes=0, members=members, reuse=False)



def _ray_task(init_args, fn, fargs):
    """One unit on a Ray worker: the worker keeps its rule set and oracles between units."""
    if _CTX.get("args") != init_args:
        _init(*init_args)
    return fn(*fargs)


def pattern_quota(policy, n):
    """How many of a unit's dead findings get a minimal pattern: None for all.

    ``policy`` is ``"auto"`` (all up to :data:`PATTERNS_ALL_UP_TO`, else 1),
    ``"all"``, or a number (0: none).

    >>> pattern_quota("auto", 7), pattern_quota("auto", 21), pattern_quota(3, 21), pattern_quota("all", 21)
    (None, 1, 3, None)
    """
    if policy == "all" or policy is True:
        return None
    if policy == "auto":
        return None if n <= PATTERNS_ALL_UP_TO else 1
    return int(policy)


def _confirmed(findings, totals):
    """The findings a second backend does not contradict; counts the unconfirmed and the disagreements.

    Dead findings get minimal patterns up to the unit's quota (see :func:`pattern_quota`),
    the walk's fatal move (a finding with a stuck step) first, then in order.
    """
    quota = None
    policy, pattern_seconds = _CTX["patterns"]
    if findings:
        quota = pattern_quota(policy, int(findings[0].state.split(":")[0]))
    order = sorted(range(len(findings)), key=lambda i: (findings[i].stuck_step is None, i))
    keep = [False] * len(findings)
    used = 0
    for i in order:
        f = findings[i]
        want = f.kind in (MISSED_DEAD, WRONG_FORCE) and (quota is None or used < quota)
        used += want
        if confirm(f, _CTX["second"], patterns=want, time_limit=_CTX["time_limit"],
                   pattern_time_limit=pattern_seconds):
            keep[i] = True
            totals.unconfirmed += f.kind != "unknown" and f.checked_by is None
            totals.patterns += f.pattern is not None
            totals.patterns_missing += bool(want and f.checked_by and f.pattern is None)
        else:
            totals.disagreements += 1
    out = [f for f, k in zip(findings, keep) if k]
    totals.findings = collections.Counter(f.kind for f in out)
    totals.misfired = collections.Counter(r for f in out for r in f.rules)
    return out


def _walk_unit(n, seed, index):
    t0 = time.perf_counter()
    findings, totals = audit_walk(n, _CTX["rules"], seed, index, _CTX["oracle"])
    findings = _confirmed(findings, totals)
    totals.seconds = time.perf_counter() - t0  # confirmation and patterns included
    return f"walk {index}", findings, totals, {}


def _walks_unit(n, seed, first, stop):
    """Walks ``first`` to ``stop - 1`` as one unit: an external engine's unit of work.

    Walked in lockstep, each step one request about every walk still going
    (see :func:`labyrinth.engine.walker.random_walks`), or, for an engine
    asked depth-first, one walk after the other, each state one request
    extending the one before (the same walks); each walk is then audited
    from the answers kept, and confirmed, as a ``walk i`` unit is.
    """
    from labyrinth.engine.walker import random_walk, random_walks

    t0 = time.perf_counter()
    rules = _CTX["rules"]
    if rules.order == DEPTH_FIRST:
        walks = [random_walk(n, rules, seed, index=i) for i in range(first, stop)]
    else:
        walks = random_walks(n, rules, seed, range(first, stop))
    totals, found = AuditTotals(), []
    for index, walk in zip(range(first, stop), walks):
        findings, one = audit_walk(n, rules, seed, index, _CTX["oracle"], walk=walk)
        found.extend(_confirmed(findings, one))
        totals.add(one)
    totals.seconds = time.perf_counter() - t0
    totals.add_engine(rules)
    return walks_unit_name(first, stop), found, totals, {}


def walks_unit_name(first, stop):
    """The name of the unit of walks ``first .. stop - 1``.

    >>> walks_unit_name(8, 16)
    'walks 8-15'
    """
    return f"walks {first}-{stop - 1}"


#: walks per unit when the rules are an external engine (walked in lockstep, batched per step)
ENGINE_WALKS_PER_UNIT = 8


def _tree_unit(n, prefix):
    from verify._exhaustive import run_subtree

    t0 = time.perf_counter()
    rules = _CTX["rules"]
    start = State.from_moves(n, prefix)
    totals = AuditTotals()
    asker = _Asker(_CTX["oracle"], totals)
    board = start.board
    states = {}
    audited = rules
    if kernel_runs(rules):
        records, counters, fired = run_subtree(start, rules)
        totals.walkthroughs, totals.stuck = int(counters[1]), int(counters[2])
        totals.steps, totals.queries = int(counters[5]), int(counters[3])
        if rules.compiled():
            for rule, count in zip(rules.active, fired):
                if count:
                    totals.fired[rule.name] += int(count)
        for row in records[: counters[0]]:
            depth = int(row[1])
            cells = [int(c) for c in row[3: 4 + depth]]
            states.setdefault(tuple(cells), State(board, cells))
    else:  # a rule set without a kernel (an external engine): the same audit in Python
        from verify._subtree import Answered, python_subtree

        nodes, totals.walkthroughs, totals.stuck, totals.steps, answers = python_subtree(
            start, rules, asker, totals.fired, order=rules.order)
        states = {s.path: s for s in nodes}
        audited = Answered(rules, answers)  # the audit below reads the answers the tree was built from
    findings = []
    root_dead = False
    if totals.walkthroughs == 0 and not start.at_end():
        verdict = _CTX["oracle"].decide(start)
        root_dead = verdict.feasible is False
    if not root_dead:
        seen = set()
        for state in states.values():
            for f in audit_state(state, audited, asker)[0]:
                if (f.state, f.move) not in seen:
                    seen.add((f.state, f.move))
                    f.unit = f"tree {prefix or '-'}"
                    findings.append(f)
    findings = _confirmed(findings, totals)
    totals.seconds = time.perf_counter() - t0
    totals.add_engine(rules)
    return f"tree {prefix or '-'}", findings, totals, {"root_dead": root_dead}


def kernel_runs(rules):
    """Whether the exhaustive audit's numba kernel runs ``rules`` (compiled, or the oracle set); else Python."""
    return rules.compiled() or rules.perfect


def _trace_unit(path):
    from labyrinth.engine.formats import load_trace
    from verify.trace import audit_trace

    t0 = time.perf_counter()
    findings, summary, totals = audit_trace(load_trace(path), _CTX["oracle"], label=path)
    findings = _confirmed(findings, totals)
    totals.seconds = time.perf_counter() - t0
    summary.findings = {k: sum(f.kind == k for f in findings) for k in summary.findings}
    return f"file {path}", findings, totals, {"trace": summary.to_json()}


# --- parent side -------------------------------------------------------------------------
def _split(n, rules, depth):
    """Keep-left prefixes at ``depth`` moves (or leaves above it), and the top nodes above the cut."""
    from labyrinth.engine.frame import heading, keep_left_order

    units, top = [], []
    stack = [State.from_moves(n, "")]
    while stack:
        s = stack.pop()
        if s.steps >= depth or s.at_end():
            units.append(s.moves)
            continue
        top.append(s)
        opened = rules.open_moves(s)
        for m in reversed([m for m in keep_left_order(heading(s)) if m in opened]):
            stack.append(s.after(m))
    return units, top


def _top_findings(top, unit_good, rules, oracle, totals):
    """Audit the nodes above the cut: closed moves, and open moves whose subtree holds no walkthrough."""
    good = dict(unit_good)  # moves -> has a walkthrough below
    for s in sorted(top, key=lambda s: -s.steps):
        good[s.moves] = any(good.get(s.moves + m, False) for m in rules.open_moves(s))
    asker = _Asker(oracle, totals)
    totals.steps += len(top)
    for s in top:  # every node counts its rules' closures, as the subtree kernel does below the cut
        if rules.explains and not s.at_end():
            count_fired(rules.decide(s), totals.fired)
    findings = []
    dead = set()
    for s in sorted(top, key=lambda s: s.steps):
        if any(s.moves[:k] in dead for k in range(len(s.moves) + 1)):
            continue
        if not good[s.moves]:
            ok, _ = asker.decide(s)
            if ok is False:
                dead.add(s.moves)
                continue
        for f in audit_state(s, rules, asker)[0]:
            f.unit = "top"
            findings.append(f)
            if f.kind == MISSED_DEAD:
                dead.add(s.moves + f.move)
    return findings, dead


def check_split(n, split):
    """Refuse a cut depth outside 0..n*n-1 (no walk of an n x n board has more moves), before any work."""
    if isinstance(split, bool) or not isinstance(split, int) or not 0 <= split <= n * n - 1:
        raise LabyrinthError(f"the cut depth must be from 0 to {n * n - 1} on a {n}x{n} board (a walk has at most "
                             f"{n * n - 1} moves; default {max(0, min(n * n - 1, 2 * n - 2))})",
                             source=f"--split {split}")


def run_campaign(store, settings):
    """Run an audit campaign of ``settings`` (:class:`~verify.settings.AuditSettings`) into ``store``.

    Parameters
    ----------
    store : verify.store.Store
        The findings store the campaign is written to.
    settings : verify.settings.AuditSettings
        What is audited, and how and where the units run.

    Returns
    -------
    tuple
        ``(campaign id, totals, findings reported)``.

    The first Ctrl-C or SIGTERM stops the run at once (the units running are
    given up) and raises :class:`~labyrinth.errors.CampaignInterrupted`,
    naming the units stored (:mod:`labyrinth.jobs.stopping`).
    """
    from labyrinth.rules import get_rule_set
    from oracle import get_oracle

    n, walks, seed, exhaustive, split = settings.n, settings.walks, settings.seed, settings.exhaustive, settings.split
    oracle, time_limit = settings.oracle, settings.time_limit
    name, off, on = settings.rules_args
    rules = get_rule_set(name, off=off, on=on, engine_timeout=settings.engine_timeout,
                         engine_order=settings.engine_order)
    if exhaustive and not (kernel_runs(rules) or rules.external):
        raise LabyrinthError("an exhaustive audit needs a compiled rule set, oracle or an external engine "
                             "(not future-lines: in Python it would take hours)", token=name)
    kind = "exhaustive" if exhaustive else "walks"
    if exhaustive and split is None:
        split = max(0, min(n * n - 1, 2 * n - 2))
    if exhaustive:
        check_split(n, split)
    params = {"n": n, "rules": name, "off": sorted(off), "on": sorted(on), "walks": walks, "seed": seed,
              "split": split, "kind": kind}
    if oracle != "auto":  # (campaigns of the default oracle keep the parameters they had before the choice)
        params["oracle"] = oracle
    current, older = rules_fingerprints(rules)
    campaign = store.start_campaign(kind, params, seed=seed, rules=name, fingerprint=current, also=(older,),
                                    code_version=code_version(), resume=settings.resume,
                                    refuse_same=settings.refuse_same)
    if exhaustive:
        units, top = _split(n, rules, split)
        tasks = [(_tree_unit, (n, u), f"tree {u or '-'}") for u in units]
    elif rules.external:  # an external engine: groups of walks (in lockstep, or depth-first)
        step = ENGINE_WALKS_PER_UNIT
        tasks = [(_walks_unit, (n, seed, i, min(i + step, walks)), walks_unit_name(i, min(i + step, walks)))
                 for i in range(0, walks, step)]
    else:
        tasks = [(_walk_unit, (n, seed, i), f"walk {i}") for i in range(walks)]
    init_args = ((name, tuple(off), tuple(on)), time_limit, (settings.patterns, settings.pattern_time_limit), oracle,
                 settings.engine_timeout, settings.engine_order)
    try:
        with Run(store, campaign, tasks, settings.progress, _WORKERS, extra=["top"] if exhaustive else []) as run:
            run.execute(init_args, jobs=settings.jobs, executor=settings.executor, address=settings.address)
            if exhaustive and run.take("top"):  # every unit is recorded now, by this run or another
                unit_good = {u[5:].replace("-", ""): t.get("walkthroughs", 0) > 0
                             for u, t in run.done.items() if u.startswith("tree ")}
                top_totals = AuditTotals()
                t0 = time.perf_counter()
                with get_oracle(oracle, time_limit=time_limit) as top_oracle:
                    found, _ = _top_findings(top, unit_good, rules, top_oracle, top_totals)
                if _CTX.get("args") != init_args:
                    _init(*init_args)
                found = _confirmed(found, top_totals)
                top_totals.seconds = time.perf_counter() - t0
                top_totals.add_engine(rules)
                with held():
                    run.finish(("top", found, top_totals, {}))
    finally:
        for r in (rules, _CTX.get("rules")):
            if r is not None:  # an external engine started here (not in a worker) shuts down
                r.close()
    store.finish_campaign(campaign, run.totals.to_json())
    return campaign, run.totals, run.reported


def run_trace_campaign(store, files, *, jobs=1, executor="local", address=None, oracle="auto", time_limit=60.0,
                       patterns="auto", pattern_time_limit=PATTERN_SECONDS, resume=False, progress=None,
                       refuse_same=False):
    """Audit research files (:mod:`verify.trace`) into ``store``: one unit per file (``refuse_same``: as for
    :func:`run_campaign`).

    Returns ``(campaign id, totals, findings reported, summaries)`` where
    ``summaries`` holds every file's :class:`verify.trace.TraceSummary` as a dict
    (files done before a resume included).
    """
    files = [str(f) for f in files]
    digest = hashlib.sha256()
    for f in sorted(files):
        digest.update(f.encode() + b"\0")
        try:
            with open(f, "rb") as fh:
                digest.update(hashlib.sha256(fh.read()).digest())
        except OSError as err:
            raise LabyrinthError(f"cannot read: {err.strerror}", source=f) from None
    params = {"kind": "trace", "files": len(files), "digest": digest.hexdigest()[:16]}
    if oracle != "auto":
        params["oracle"] = oracle
    campaign = store.start_campaign("trace", params, rules="research-program", code_version=code_version(),
                                    resume=resume, refuse_same=refuse_same)
    tasks = [(_trace_unit, (f,), f"file {f}") for f in files]
    with Run(store, campaign, tasks, progress, _WORKERS) as run:
        run.execute((("none", (), ()), time_limit, (patterns, pattern_time_limit), oracle, None, None), jobs=jobs,
                    executor=executor, address=address)
    store.finish_campaign(campaign, run.totals.to_json())
    summaries = [t["trace"] for u, t in sorted(store.done_units(campaign).items()) if "trace" in t]
    return campaign, run.totals, run.reported, summaries


#: how a run sets up the process running its units: a new worker, this process, a Ray task
_WORKERS = Workers(init=_init, ensure=lambda init_args: _CTX.get("args") == init_args or _init(*init_args),
                   ray_task=_ray_task)
