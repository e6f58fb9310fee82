"""The semi-magic enumeration as a resumable campaign in the findings store (:mod:`verify.store`).

Why a campaign: the whole enumeration takes hours to days (``reports/knight_magic.md``),
longer than any one run may live. Its units (:func:`.semimagic.plan_units`)
are independent and named, so, as in an audit campaign:

* each finished unit is committed to the store with the tours it found,
  its search nodes, its seconds and where it ran (host, pid, code version);
  a run killed at any moment (SIGKILL included) loses only the units in
  flight, and ``resume`` continues with the rest, in this run's process,
  on ``jobs`` local processes, or as Ray tasks on a cluster
  (``executor="ray"``); the store file can be copied to another machine
  and resumed there;
* every unit is claimed in the store before it runs
  (:mod:`labyrinth.jobs.claims`), so several runs, on one machine or sharing the
  file, split the units between them;
* ``sample`` runs a seeded random sample of the units first (recorded like
  any other): :func:`estimate` extrapolates the total time from them, and
  the per-unit times of the units done give the actual total.

A unit left unfinished at the time limit is not recorded; a resumed run
does it again from the start.
"""

import dataclasses
import json
import math
import os
import random
import socket
import time
from typing import Optional

from labyrinth.errors import LabyrinthError
from labyrinth.puzzles.knight.magic import Conditions, check_magic
from labyrinth.puzzles.knight.semimagic import DEPTH, parse_unit, plan_units, run_unit, summarize, unit_pair
from verify.settings import RunSettings

__all__ = ["KIND", "CampaignResult", "SemimagicSettings", "estimate", "open_campaign", "run_campaign", "stored_results"]

#: the campaign kind in the store
KIND = "knight-semimagic"


def _params(conditions, depth, scope):
    out = {"board": 8, "closed": conditions.needs_closed, "diagonals": conditions.diagonals, "depth": depth}
    if scope is not None:
        out["scope"] = scope
    return out


def _scope_name(scope):
    return None if scope is None else parse_unit(scope).name if isinstance(scope, str) else scope.name


def open_campaign(store, conditions, *, depth=DEPTH, scope=None, resume=False, new=False):
    """The campaign of ``conditions`` in ``store``: the stored one with ``resume``, a new one with ``new``.

    Without either, a campaign with the same settings already stored is a
    :class:`~labyrinth.errors.CampaignExists` (say ``resume`` or ``new``).
    """
    if conditions.symmetric:
        raise LabyrinthError("the symmetric tours are enumerated in seconds without a campaign", source="--symmetric")
    from verify.campaign import code_version

    return store.start_campaign(KIND, _params(conditions, depth, _scope_name(scope)), code_version=code_version(),
                                resume=resume and not new, refuse_same=not new)


def _same_search(store, campaign):
    """The other campaigns of this kind whose units are the same searches: every one with the same diagonals.

    A unit's name fixes its search (its cells of 1, 2... and 64, 63...);
    only the diagonals (more lines) change what the kernel does. Closed tours
    narrow the plan to pairs a knight's move apart, not the search of a unit,
    and a scope or a depth only picks which units a plan holds.
    """
    mine = json.loads(store.campaign(campaign)["params"])
    out = []
    for row in store.campaigns():
        params = json.loads(row["params"])
        if row["kind"] == KIND and row["id"] != campaign and params.get("board") == mine.get("board") \
                and params.get("diagonals") == mine.get("diagonals"):
            out.append(row["id"])
    return out


def _searched_elsewhere(store, campaign, plan, conditions, done):
    """``{unit: totals}`` of the units of ``plan`` not in ``done`` that another campaign of the same search has done.

    The sample mark is not taken. Their tours pass :func:`check_magic` under ``conditions`` (a closed
    campaign's plan holds only pairs whose tours are closed); a unit whose
    tours would not is not taken.
    """
    wanted = set(plan) - set(done)
    out = {}
    for other in _same_search(store, campaign):
        for unit, rec in store.done_units(other).items():
            if unit in wanted and unit not in out and \
                    all(not check_magic(tuple(t), conditions) for t in rec.get("tours", ())):
                out[unit] = {k: v for k, v in rec.items() if k not in ("sample", "copied_from")} | {"copied_from": other}
    return out


@dataclasses.dataclass
class CampaignResult:
    """Where a campaign stands: units done of all, the tours found so far and their classes.

    ``work_seconds`` sums the stored units' own times (over all runs and
    machines); ``seconds`` is the wall time of the campaign's runs. With a
    ``scope``, the classes are those with a tour in it.
    """

    campaign: int
    conditions: Conditions
    units_done: int
    units_total: int
    nodes: int
    work_seconds: float
    seconds: float
    summary: dict
    sample: dict
    scope: str = None

    @property
    def complete(self):
        return self.units_done == self.units_total

    def to_json(self):
        s = self.summary
        return {"campaign": self.campaign, "conditions": self.conditions.to_json(), "scope": self.scope,
                "status": "all" if self.complete else "unknown", "units_done": self.units_done,
                "units_total": self.units_total, "nodes": self.nodes, "work_seconds": round(self.work_seconds, 1),
                "seconds": round(self.seconds, 1), "classes": len(s["classes"]), "tours": s["tours"],
                "closed_classes": s["closed_classes"], "open_classes": s["open_classes"],
                "best_diagonals": [list(d) for d in s["best_diagonals"]], "estimate": self.sample,
                "grids": s["grids"]}


def stored_results(store, campaign, conditions, *, depth=DEPTH, scope=None):
    """The :class:`CampaignResult` of what ``store`` holds for ``campaign`` (every tour checked again)."""
    from verify.store import StoreError

    done = store.done_units(campaign)
    plan = [u.name for u in plan_units(conditions, depth, scope)]
    total = len(plan)
    elsewhere = set()
    for other in _same_search(store, campaign):
        elsewhere |= set(store.done_units(other))
    tours = [tuple(t) for rec in done.values() for t in rec.get("tours", ())]
    for t in tours:  # a store is a file: whatever it holds is checked again, by the definitions alone
        faults = check_magic(t, conditions)
        if faults:
            raise StoreError(f"campaign {campaign} holds a tour that fails the check: {faults[0]}",
                             source=store.path)
    nodes = sum(int(rec.get("nodes", 0)) for rec in done.values())
    work = sum(float(rec.get("seconds", 0.0)) for rec in done.values())
    return CampaignResult(campaign, conditions, len(done), total, nodes, work, store.elapsed(campaign) or 0.0,
                          summarize(tours), estimate(done, total, plan, elsewhere), _scope_name(scope))


def estimate(done, total, plan=None, elsewhere=frozenset()):
    """The total unit time extrapolated from the sampled units (``{"units", "mean", "hours", "plus_minus", ...}``).

    Only the units run as the random sample count (their mean is an unbiased
    estimate of the mean unit time); ``plus_minus`` is two standard errors.
    A unit's time depends on the machine and its load (the same units took
    6 times as long on a slower, busier machine), its search nodes do not: so
    the estimate also gives the total ``nodes`` (``nodes_plus_minus``), the
    sample's ``rate`` (million nodes a second of unit time) that turns nodes
    into hours here, and, where the units recorded it, ``cpu_hours`` (their
    processor time, which load does not stretch).

    With ``plan`` (every unit's name, in the order a run takes the units
    after the sample), the time still to go is estimated too: the units run
    in order so far are a block at the head of the plan, not a random part
    of it, so the units not yet done are estimated from the sampled units
    past that block only (a random sample of that part of the plan), and
    added to the time of the units done, which is known: ``to_go_hours``
    (``to_go_plus_minus``, from ``to_go_units`` sampled units) and
    ``expected_hours``. The further the campaign, the narrower that band.
    Units copied from another campaign (``copied_from``) are not part of
    that block, and sampled units in ``elsewhere`` (done by another campaign
    of the same search, so copied when a run starts, never left to do) do
    not speak for the units left. A sample drawn once the run in plan order
    has begun (``late``: ``--sample`` with another seed on ``--resume``, to
    narrow the band) counts for the time to go only; the estimate before the
    full run stays the one it was (``late_units`` of ``to_go_units``).
    Pairs run ahead of the plan (``--first``; their units ``ahead``) are a
    part of their own, with its own block, and the two parts' estimates add.

    >>> done = {"u0": {"seconds": 7200.0}, "u2": {"seconds": 36.0, "sample": True},
    ...         "u3": {"seconds": 108.0, "sample": True}}
    >>> e = estimate(done, 4, plan=["u0", "u1", "u2", "u3"])
    >>> e["hours"], e["to_go_units"], e["to_go_hours"], e["expected_hours"]
    (0.08, 2, 0.02, 2.06)
    """
    sampled = [r for r in done.values() if r.get("sample") and not r.get("late")]
    times = [float(r["seconds"]) for r in sampled]
    out = {"units": len(times)}
    if times:
        mean, err = _mean_and_error(times)
        out |= {"mean": round(mean, 3), "hours": round(mean * total / 3600, 2),
                "plus_minus": round(err * total / 3600, 2)}
        nodes, nodes_err = _mean_and_error([int(r.get("nodes", 0)) for r in sampled])
        out |= {"nodes": round(nodes * total), "nodes_plus_minus": round(nodes_err * total)}
        if sum(times) > 0:
            out["rate"] = round(nodes * len(times) / sum(times) / 1e6, 2)  # M nodes a second of unit time
        if all("cpu_seconds" in r for r in sampled):
            cpu, cpu_err = _mean_and_error([float(r["cpu_seconds"]) for r in sampled])
            out |= {"cpu_hours": round(cpu * total / 3600, 2), "cpu_plus_minus": round(cpu_err * total / 3600, 2)}
    if plan is not None and any(r.get("sample") for r in done.values()):
        work = sum(float(r.get("seconds", 0.0)) for r in done.values())
        ahead = {unit_pair(u) for u, r in done.items() if r.get("ahead")}
        parts = [_to_go([u for u in plan if (unit_pair(u) in ahead) == first], done, elsewhere) for first in (True, False)]
        left = sum(n for n, _ in parts)
        pooled = [x for _, past in parts for x in past]
        if left and pooled:
            hours = error = 0.0
            for n, past in parts:  # a part with units left but no sampled unit past its block: all of them speak
                m, e = _mean_and_error([t for t, _ in past or pooled]) if n else (0.0, 0.0)
                hours, error = hours + m * n, error + (e * n) ** 2
            out |= {"to_go_units": len(pooled), "late_units": sum(late for _, late in pooled),
                    "to_go_hours": round(hours / 3600, 2), "to_go_plus_minus": round(math.sqrt(error) / 3600, 2)}
        elif not left:
            out |= {"to_go_units": 0, "late_units": 0, "to_go_hours": 0.0, "to_go_plus_minus": 0.0}
        if "to_go_hours" in out:
            out["expected_hours"] = round(work / 3600 + out["to_go_hours"], 2)
    return out


def _to_go(part, done, elsewhere):
    """A part of the plan run in its order: ``(units left, [(seconds, late)] of its sampled units past its block)``."""
    at = {name: i for i, name in enumerate(part)}
    block = max((at[u] for u, r in done.items() if not r.get("sample") and not r.get("copied_from") and u in at),
                default=-1)
    past = [(float(r["seconds"]), bool(r.get("late"))) for u, r in done.items()
            if r.get("sample") and at.get(u, -1) > block and u not in elsewhere]
    return sum(1 for u in part if u not in done), past


def _mean_and_error(times):
    """The mean of ``times`` and two standard errors of it."""
    mean = sum(times) / len(times)
    var = sum((t - mean) ** 2 for t in times) / max(1, len(times) - 1)
    return mean, 2 * math.sqrt(var / len(times))


# --- worker side -------------------------------------------------------------------------------
_WARM = {}


def _init(_args=()):
    """Load the kernel once per worker process (a small unit: numba's cache is read, nothing compiled)."""
    if not _WARM:
        run_unit(plan_units(Conditions(closed=True))[0], Conditions(closed=True), slice_nodes=1 << 10,
                 deadline=0.0)
        _WARM["ok"] = True


def _ensure(init_args):
    _init(init_args)


def _ray_task(init_args, fn, fargs):
    _init(init_args)
    return fn(*fargs)


def _unit_task(name, closed, diagonals, deadline, sample):
    cpu = time.thread_time()
    res = run_unit(parse_unit(name), Conditions(closed=closed, diagonals=diagonals), deadline=deadline)
    return name, res, sample, socket.gethostname(), os.getpid(), time.thread_time() - cpu


# --- driver ------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, kw_only=True)
class SemimagicSettings(RunSettings):
    """What a semimagic campaign enumerates; where and how it runs (:class:`~verify.settings.RunSettings`).

    Parameters
    ----------
    conditions : Conditions
        The conditions a tour must meet (default: none beyond a semimagic tour).
    depth, scope
        The plan (:func:`~labyrinth.puzzles.knight.semimagic.plan_units`): the whole enumeration by default.
    time_limit : float or None
        Seconds for this run; units unfinished then are not stored.
    new : bool
        Start another campaign even if one with these settings is stored.
    sample : int
        Run this many units of a random sample (``seed``) first, marked as the
        sample the estimate is made from; with ``max_units`` equal to it, a
        run that only estimates. The draw is over the whole plan (the same
        flags on ``resume`` draw the same units: those done are not run
        again); drawn after units have run in plan order, its units are
        ``late``: they narrow the time to go, not the first estimate.
    seed : int
        The seed of the sample.
    first : iterable of str
        End-cell pairs (``"c2-f2"``) whose units run right after the sample,
        in plan order, before the rest (marked ``ahead``): a part of the
        answer early, at no extra cost (:func:`estimate` keeps them apart).
    max_units : int or None
        Stop this run after so many units.
    progress : callable or None
        ``progress(done, total, result_of_unit)`` after each unit stored.
    """

    conditions: Conditions = dataclasses.field(default_factory=Conditions)
    depth: int = DEPTH
    scope: Optional[str] = None
    time_limit: Optional[float] = None
    new: bool = False
    sample: int = 0
    seed: int = 0
    first: tuple = ()
    max_units: Optional[int] = None


def run_campaign(store, settings):
    """Run (or go on with) the campaign of ``settings`` (:class:`SemimagicSettings`).

    Parameters
    ----------
    store : verify.store.Store
        The findings store the campaign is written to.
    settings : SemimagicSettings
        What is enumerated, and how and where the units run.

    Returns
    -------
    tuple
        ``(CampaignResult, stopped_early)``.

    A Ctrl-C or SIGTERM stops the run as it stops an audit's
    (:func:`verify.campaign.run_campaign`).
    """
    from labyrinth.jobs.claims import Claims
    from verify._run import Workers, run_units
    from verify.campaign import code_version

    conditions, depth, scope, max_units = settings.conditions, settings.depth, settings.scope, settings.max_units
    executor, time_limit, sample, progress = settings.executor, settings.time_limit, settings.sample, settings.progress
    if executor not in ("local", "ray"):
        raise LabyrinthError("unknown executor (local or ray)", token=executor)
    units = [u.name for u in plan_units(conditions, depth, scope)]
    first = _pairs_of(units, settings.first)
    campaign = open_campaign(store, conditions, depth=depth, scope=scope, resume=settings.resume, new=settings.new)
    done = store.done_units(campaign)
    shared = _searched_elsewhere(store, campaign, units, conditions, done)
    if shared:  # searched by another campaign (e.g. the closed tours' units in the whole enumeration): not again
        store.record_copies(campaign, shared)
        done |= shared
    drawn = random.Random(settings.seed).sample(units, min(sample, len(units))) if sample else []
    late = any(not r.get("sample") and not r.get("copied_from") for r in done.values())  # the run in order began
    picked = set(drawn)
    ahead = [u for u in units if u not in picked and unit_pair(u) in first]
    # the sample in its random order (any part of it is random), then the pairs asked for first, then the rest
    order = drawn + ahead + [u for u in units if u not in picked and unit_pair(u) not in first]
    deadline = None if time_limit is None else time.time() + time_limit
    tasks = [(_unit_task, (u, conditions.needs_closed, conditions.diagonals, deadline, u in picked), u)
             for u in order if u not in done]
    if max_units is not None:
        tasks = tasks[:max_units]
    prior = store.elapsed(campaign) or 0.0
    t0 = time.perf_counter()
    version = code_version()
    stopped = []

    claims = Claims(store, campaign, tasks, lambda unit, totals: done.__setitem__(unit, totals))

    def finish(result):
        name, res, in_sample, host, pid, cpu = result
        if not res.finished:
            stopped.append(name)
            claims.queue.clear()
            return
        rec = res.to_json() | {"cpu_seconds": round(cpu, 3), "host": host, "pid": pid, "code": version}
        if in_sample:
            rec["sample"] = True
            if late:
                rec["late"] = True
        elif unit_pair(name) in first:
            rec["ahead"] = True
        store.record_unit(campaign, name, [], rec, elapsed=prior + time.perf_counter() - t0, owner=claims.owner)
        done[name] = rec
        if progress is not None:
            progress(len(done), len(units), res)
        if deadline is not None and time.time() > deadline:
            stopped.append(name)
            claims.queue.clear()

    run_units(store, campaign, claims, Workers(init=_init, ensure=_ensure, ray_task=_ray_task), ((),), finish,
              settings, todo=len(tasks), done=done, units=len(units), elapsed=lambda: prior + time.perf_counter() - t0,
              prepare=_init if executor == "local" else None)  # the kernel loaded once here: forked workers have it
    result = stored_results(store, campaign, conditions, depth=depth, scope=scope)
    if result.complete:
        store.finish_campaign(campaign, {k: v for k, v in result.to_json().items() if k != "grids"})
    return result, bool(stopped) or (max_units is not None and not result.complete)


def _pairs_of(units, first):
    """``first`` as a set of the plan's pairs; a pair the plan does not have is bad input."""
    pairs = {unit_pair(u) for u in units}
    first = set(first)
    for pair in sorted(first):
        if pair not in pairs:
            raise LabyrinthError("not a pair of end cells of this campaign's plan (e.g. c2-f2: the cells of 1 and "
                                 "64, the least of its orbit)", token=pair)
    return first

