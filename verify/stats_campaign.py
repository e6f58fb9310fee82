"""The walk statistic (``labyrinth stats``) as a resumable campaign in the findings store (:mod:`verify.store`).

Why a campaign: at 41x41 and beyond, the thousands of runs a stuck rate of
1 in 10 000 needs take hours to days (issue 40). The runs are independent:
run ``r`` of a size walks the walks ``r * 2**32, r * 2**32 + 1, ...`` of the
seed (:func:`labyrinth.engine.walker.walk_runs`), wherever and whenever it
runs. So a size's runs are cut into blocks, each a named *unit*
(``41x41 runs 0-9``), and, as in the other campaigns:

* each finished unit is committed to the store with its runs' walkthrough
  counts, its walks, its seconds and where it ran (host, pid); a run killed
  at any moment (SIGKILL included) loses only the units in flight, and
  ``resume`` continues with the rest, in this process, on ``jobs`` local
  processes, or as Ray tasks on a cluster (``executor="ray"``);
* every unit is claimed in the store before it runs
  (:mod:`labyrinth.jobs.claims`), so several runs sharing the file split the
  units between them;
* the figures of a size are those of :func:`~labyrinth.engine.walker.walk_statistics`
  on the same settings: the same runs, their counts put back in run order.

A campaign's settings are its sizes, the rule set (with its ``--on`` and
``--off`` and the fingerprint of the rules it asks,
:func:`verify.campaign.rules_fingerprint`: a rule switched off does not
count), the seed, the cap and the runs per size: ``resume`` goes on with the
stored campaign of exactly these settings and refuses (:class:`SettingsDiffer`)
when the store holds none.
"""

import dataclasses
import json
import os
import socket
import time
from typing import Any, Callable, Optional

from labyrinth.errors import LabyrinthError
from verify.settings import RunSettings

__all__ = ["KIND", "SettingsDiffer", "StatsResult", "StatsSettings", "estimate", "open_campaign", "parse_unit",
           "plan_units", "run_campaign", "runs_per_unit", "stored_results", "unit_name"]

#: the campaign kind in the store
KIND = "stats"
#: cells a unit walks at most (cap x n x n a run: a run of a sound set is nearly always censored), so that a
#: unit takes seconds to minutes on any size, and a stop or a kill loses little
UNIT_CELLS = 1_000_000
#: a size's runs are cut into at least this many units (while it has that many runs): the estimate and the
#: progress need several, a cluster needs many
MIN_UNITS = 20
#: the run numbers the estimate's timed walks use: past any campaign's runs (--runs is at most 10**9 < 2**30)
PROBE_RUN = 1 << 30
#: seconds of timed walks per size for the estimate (at least one walk, at most :data:`PROBE_WALKS`)
PROBE_SECONDS = 0.5
PROBE_WALKS = 50


class SettingsDiffer(LabyrinthError):
    """``--resume`` asked for a campaign the store does not hold: its settings differ from the stored ones."""


def runs_per_unit(n, runs, cap):
    """The runs of one unit of size ``n``: at most :data:`UNIT_CELLS` cells of walks, at least :data:`MIN_UNITS`
    units a size (fewer when there are fewer runs).

    >>> runs_per_unit(9, 1000, 100), runs_per_unit(101, 10_000, 100), runs_per_unit(7, 5, 100)
    (50, 1, 1)
    """
    by_cells = max(1, UNIT_CELLS // (max(1, cap) * n * n))
    by_count = max(1, -(-runs // MIN_UNITS))
    return min(by_cells, by_count)


def unit_name(n, first, stop):
    """The name of the unit of runs ``first .. stop - 1`` of size ``n``.

    >>> unit_name(41, 0, 10)
    '41x41 runs 0-9'
    """
    return f"{n}x{n} runs {first}-{stop - 1}"


def parse_unit(name):
    """``(n, first, stop)`` of a unit's name (see :func:`unit_name`).

    >>> parse_unit("41x41 runs 0-9")
    (41, 0, 10)
    """
    board, _, span = name.partition(" runs ")
    first, _, last = span.partition("-")
    return int(board.partition("x")[0]), int(first), int(last) + 1


def plan_units(sizes, runs, cap):
    """Every unit of the campaign, ``(n, first, stop)``, size by size in run order."""
    out = []
    for n in sizes:
        step = runs_per_unit(n, runs, cap)
        out += [(n, a, min(a + step, runs)) for a in range(0, runs, step)]
    return out


def _params(sizes, rules_args, runs, seed, cap):
    name, off, on = rules_args
    return {"sizes": list(sizes), "rules": name, "off": sorted(off), "on": sorted(on), "runs": runs, "seed": seed,
            "cap": cap}


_SETTINGS = (("sizes", "-n"), ("rules", "--rules"), ("off", "--off"), ("on", "--on"), ("seed", "--seed"),
             ("cap", "--cap"), ("runs", "--runs"))


def _shown(key, value):
    if isinstance(value, list):
        return ",".join(str(v) for v in value) or "none"
    return str(value)


def open_campaign(store, *, sizes, rules_args, rules, runs, seed, cap, resume=False, new=False):
    """The campaign of these settings in ``store``: the stored one with ``resume``, a new one with ``new``.

    Without either, a stored campaign with these settings is a
    :class:`~labyrinth.errors.CampaignExists`; with ``resume``, a store
    without one is a :class:`SettingsDiffer` naming the settings that differ
    from its latest stats campaign (or saying it holds none).
    """
    from verify.campaign import code_version, rules_fingerprints

    params = _params(sizes, rules_args, runs, seed, cap)
    fingerprint, older = rules_fingerprints(rules)
    if resume and not new:
        text = json.dumps(params, sort_keys=True)
        mine = [c for c in store.campaigns() if c["kind"] == KIND]
        if not any(c["params"] == text and c["fingerprint"] in (fingerprint, older) for c in mine):
            raise _differ(store, mine, params, (fingerprint, older))
    return store.start_campaign(KIND, params, seed=seed, rules=rules_args[0], fingerprint=fingerprint, also=(older,),
                                code_version=code_version(), resume=resume and not new, refuse_same=not new)


def _differ(store, mine, params, fingerprints):
    if not mine:
        return SettingsDiffer("no stats campaign to resume here: run without --resume to start one",
                              source=store.path)
    last = mine[-1]
    stored = json.loads(last["params"])
    diffs = [f"{flag} {_shown(k, stored.get(k))} stored, {_shown(k, params[k])} given" for k, flag in _SETTINGS
             if stored.get(k) != params[k]]
    if not diffs and last["fingerprint"] not in fingerprints:
        diffs = ["the rule set's content (its rules or pattern files changed since)"]
    return SettingsDiffer(f"--resume: the settings differ from stats campaign {last['id']}'s: " + "; ".join(diffs)
                          + " (resume with its settings, or run without --resume to start another)",
                          source=store.path)


@dataclasses.dataclass
class StatsResult:
    """Where a stats campaign stands: the figures of each size (of the runs stored so far), units done of all.

    ``stats`` maps each size with runs stored to its
    :class:`~labyrinth.engine.walker.WalkStats` (``seconds``: its units' own
    time, summed over processes and machines); a size is complete when all
    its runs are stored. ``seconds`` is the wall time of the campaign's runs.
    """

    campaign: int
    sizes: list
    runs: int
    stats: dict
    units_done: int
    units_total: int
    seconds: float
    codes: tuple = ()

    @property
    def complete(self):
        return self.units_done == self.units_total

    def size_complete(self, n):
        return n in self.stats and self.stats[n].runs == self.runs

    def totals(self):
        """The campaign's totals as the store keeps them: sums over the sizes, and each size's figures."""
        st = self.stats.values()
        return {"runs": sum(s.runs for s in st), "walks": sum(s.walks for s in st),
                "walkthroughs": sum(s.walks - s.stuck for s in st), "stuck": sum(s.stuck for s in st),
                "censored": sum(s.censored for s in st), "work_seconds": round(sum(s.seconds for s in st), 3),
                "seconds": round(self.seconds, 3),
                "sizes": {str(n): dataclasses.asdict(s) for n, s in self.stats.items()}}


def stored_results(store, campaign):
    """The :class:`StatsResult` of what ``store`` holds for stats campaign ``campaign``."""
    from labyrinth.engine.walker import runs_statistics
    from verify.store import StoreError

    row = store.campaign(campaign)
    p = json.loads(row["params"])
    sizes, runs, cap = p["sizes"], p["runs"], p["cap"]
    plan = {unit_name(*u) for u in plan_units(sizes, runs, cap)}
    done = {u: t for u, t in store.done_units(campaign).items() if u in plan}
    per = {}
    for name, t in done.items():
        n, first, stop = parse_unit(name)
        samples = t.get("samples", ())
        if len(samples) != stop - first or any(not isinstance(x, int) or not 0 <= x <= cap for x in samples):
            raise StoreError(f"campaign {campaign}'s unit {name!r} holds no valid walkthrough counts",
                             source=store.path)
        per.setdefault(n, []).append((first, t))
    stats = {}
    for n in sizes:
        if n not in per:
            continue
        parts = sorted(per[n], key=lambda x: x[0])
        samples = [x for _, t in parts for x in t["samples"]]
        walks = sum(int(t.get("walks", 0)) for _, t in parts)
        seconds = sum(float(t.get("seconds", 0.0)) for _, t in parts)
        stats[n] = runs_statistics(n, samples, walks, cap, seconds)
    codes = tuple(sorted({t["code"] for t in done.values() if t.get("code")}))
    return StatsResult(campaign, sizes, runs, stats, len(done), len(plan), store.elapsed(campaign) or 0.0, codes)


# --- the estimate ------------------------------------------------------------------------------
def estimate(rules, sizes, runs, seed, cap, done=None, *, probe_seconds=PROBE_SECONDS):
    """How long the units not in ``done`` take on one core of this machine: ``{"seconds", "bound", "sizes"}``.

    Per size, seconds a walk times walks a run times the runs left. Where
    the store holds units of the size (``done``: ``{unit: totals}``), both come
    from them (``how``: ``stored``); else a few walks are timed here (at most
    ``probe_seconds`` or :data:`PROBE_WALKS` walks, on runs no campaign uses)
    and a run is taken to last until its first stuck walk at the rate those
    walks got stuck, or ``cap`` walks when none did (``how``: ``timed``; then
    the figure is an upper bound, ``bound`` true). One walk first, untimed,
    compiles (or loads) the rule set's kernels: compiling is not walking.
    """
    from labyrinth.engine.walker import walk_runs

    done = done or {}
    out = {"seconds": 0.0, "bound": False, "sizes": []}
    warm = []
    for n in sizes:
        units = {unit_name(*u): u[2] - u[1] for u in plan_units([n], runs, cap)}
        left = sum(k for u, k in units.items() if u not in done)
        if not left:
            continue
        stored = [done[u] for u in units if u in done]
        walks = sum(int(t.get("walks", 0)) for t in stored)
        if stored and walks:
            per_walk = sum(float(t.get("seconds", 0.0)) for t in stored) / walks
            per_run = walks / sum(len(t.get("samples", ())) for t in stored)
            row = {"n": n, "how": "stored", "units": len(stored), "walks": walks, "stuck": None, "bound": False}
        else:
            if not warm:  # the kernels compile on a first walk: not part of the time a walk takes
                walk_runs(min(sizes), rules, seed, PROBE_RUN, PROBE_RUN + 1, 1)
                warm.append(True)
            timed = stuck = 0
            t0 = time.perf_counter()
            while timed < PROBE_WALKS and (timed == 0 or time.perf_counter() - t0 < probe_seconds):
                got, _ = walk_runs(n, rules, seed, PROBE_RUN + timed, PROBE_RUN + timed + 1, 1)
                stuck += got[0] == 0
                timed += 1
            per_walk = (time.perf_counter() - t0) / timed
            rate = stuck / timed
            per_run = cap if rate == 0 else min(cap, (1 - (1 - rate) ** cap) / rate)
            row = {"n": n, "how": "timed", "walks": timed, "stuck": stuck, "bound": stuck == 0}
        row |= {"seconds_a_walk": per_walk, "walks_a_run": per_run, "runs_left": left,
                "seconds": per_walk * per_run * left}
        out["sizes"].append(row)
        out["seconds"] += row["seconds"]
        out["bound"] = out["bound"] or row["bound"]
    return out


# --- worker side -------------------------------------------------------------------------------
_CTX = {}


def _init(rules_args, engine_timeout=None):
    from labyrinth.rules import get_rule_set

    if _CTX.get("args") == (rules_args, engine_timeout):
        return
    old = _CTX.get("rules")
    if hasattr(old, "close"):
        old.close()
    name, off, on = rules_args
    _CTX.update(rules=get_rule_set(name, off=off, on=on, engine_timeout=engine_timeout),
                args=(rules_args, engine_timeout))


def _ray_task(init_args, fn, fargs):
    _init(*init_args)
    return fn(*fargs)


def _unit_task(n, seed, first, stop, cap):
    """Runs ``first .. stop - 1`` of size ``n``: ``(unit name, totals to store)``."""
    from labyrinth.engine.walker import walk_runs

    cpu, t0 = time.thread_time(), time.perf_counter()
    samples, walks = walk_runs(n, _CTX["rules"], seed, first, stop, cap)
    censored = sum(1 for x in samples if x >= cap)
    return unit_name(n, first, stop), {
        "runs": len(samples), "walks": walks, "walkthroughs": sum(samples), "stuck": len(samples) - censored,
        "censored": censored, "samples": samples, "seconds": round(time.perf_counter() - t0, 4),
        "cpu_seconds": round(time.thread_time() - cpu, 4), "host": socket.gethostname(), "pid": os.getpid()}


# --- driver ------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, kw_only=True)
class StatsSettings(RunSettings):
    """What a stats campaign measures; where and how it runs (:class:`~verify.settings.RunSettings`).

    Parameters
    ----------
    sizes : sequence of int
        The board sides.
    rules_args : tuple
        ``(name, off, on)`` as for :func:`labyrinth.rules.get_rule_set`.
    rules : RuleSet, optional
        The rule set ``rules_args`` name, when the caller has it already (else made here).
    runs : int
        Runs (walks until a walkthrough, or ``cap`` walks) per size.
    seed : int
        The seed of the walks.
    cap : int
        Walks one run may take.
    new : bool
        Start another campaign even if one with these settings is stored.
    engine_timeout : float, optional
        Seconds per request of an external engine.
    progress : callable, optional
        ``progress(runs_done, runs_total, unit_name)`` after each unit stored
        (by this run or another sharing the store).
    before : callable, optional
        ``before(campaign, done)`` once the campaign is open and before any
        unit runs (``done``: ``{unit: totals}`` stored): where a caller prints
        an estimate.
    """

    sizes: tuple
    rules_args: tuple
    runs: int
    rules: Any = None
    seed: int = 0
    cap: int = 100
    new: bool = False
    engine_timeout: Optional[float] = None
    before: Optional[Callable] = None


def run_campaign(store, settings):
    """Run (or go on with) the stats campaign of ``settings`` (:class:`StatsSettings`) in ``store``.

    Parameters
    ----------
    store : verify.store.Store
        The findings store the campaign is written to.
    settings : StatsSettings
        What is measured, and how and where the units run.

    Returns
    -------
    StatsResult
        The campaign's figures (those of every unit stored).

    A Ctrl-C or SIGTERM stops the run as it stops an audit's
    (:func:`verify.campaign.run_campaign`).
    """
    from labyrinth.jobs.claims import Claims
    from labyrinth.rules import get_rule_set
    from verify._run import Workers, run_units
    from verify.campaign import code_version

    sizes, runs, seed, cap, rules = settings.sizes, settings.runs, settings.seed, settings.cap, settings.rules
    executor, jobs, engine_timeout, progress = settings.executor, settings.jobs, settings.engine_timeout, settings.progress
    if executor not in ("local", "ray"):
        raise LabyrinthError("unknown executor (local or ray)", token=executor)
    name, off, on = settings.rules_args
    rules_args = (name, tuple(off), tuple(on))
    if rules is None:
        rules = get_rule_set(name, off=off, on=on, engine_timeout=engine_timeout)
    campaign = open_campaign(store, sizes=sizes, rules_args=rules_args, rules=rules, runs=runs, seed=seed, cap=cap,
                             resume=settings.resume, new=settings.new)
    plan = plan_units(sizes, runs, cap)
    names = {unit_name(*u) for u in plan}
    done = {u: t for u, t in store.done_units(campaign).items() if u in names}
    total_runs = len(sizes) * runs
    if settings.before is not None:
        settings.before(campaign, dict(done))
    tasks = [(_unit_task, (n, seed, a, b, cap), unit_name(n, a, b)) for n, a, b in plan
             if unit_name(n, a, b) not in done]
    init_args = (rules_args, engine_timeout)
    prior = store.elapsed(campaign) or 0.0
    t0 = time.perf_counter()
    version = code_version()
    counted = [sum(len(t.get("samples", ())) for t in done.values())]

    def tell(unit, totals):
        done[unit] = totals
        counted[0] += len(totals.get("samples", ()))
        if progress is not None:
            progress(counted[0], total_runs, unit)

    claims = Claims(store, campaign, tasks, lambda unit, totals: unit in done or tell(unit, totals))

    def finish(result):
        unit, totals = result
        totals["code"] = version
        store.record_unit(campaign, unit, [], totals, elapsed=prior + time.perf_counter() - t0, owner=claims.owner)
        tell(unit, totals)

    if executor != "ray" and (jobs <= 1 or len(tasks) <= 1):
        _CTX.update(rules=rules, args=(rules_args, engine_timeout))  # this process's rule set (a started engine)
    run_units(store, campaign, claims, Workers(init=_init, ensure=lambda a: _init(*a), ray_task=_ray_task), init_args,
              finish, settings, todo=len(tasks), done=done, units=len(plan),
              elapsed=lambda: prior + time.perf_counter() - t0)
    result = stored_results(store, campaign)
    if result.complete:
        store.finish_campaign(campaign, result.totals())
    return result
