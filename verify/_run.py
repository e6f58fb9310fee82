"""A campaign's run: its units done and to do, run by an executor, each committed to the store as it finishes."""

import collections
import dataclasses
import time

from labyrinth.errors import SIGINT, CampaignInterrupted, LabyrinthError
from labyrinth.jobs.claims import Claims
from labyrinth.jobs.executors import run_local, run_ray, run_serial
from labyrinth.jobs.stopping import held
from verify.audit import COUNTERS, AuditTotals

__all__ = ["Run", "Workers", "dispatch", "run_units"]


@dataclasses.dataclass(frozen=True)
class Workers:
    """How a run sets up the process that runs its units.

    ``init(*init_args)`` in a new worker process, ``ensure(init_args)`` before a
    unit run in this process, ``ray_task(init_args, fn, args)`` on Ray.
    """

    init: object
    ensure: object
    ray_task: object


class Run:
    """A campaign's units: which are done, running the rest, and committing each as it finishes.

    ``totals.seconds`` is the campaign's wall time over all its runs (a
    resumed run adds its own time to what the store holds);
    ``totals.work_seconds`` the time spent inside units, summed over workers.
    A unit another run records meanwhile counts in the totals as if it had
    been done before this run started. A context manager: leaving gives back
    the claims of units not recorded, and turns an interruption into
    :class:`~labyrinth.errors.CampaignInterrupted` with the units stored.
    """

    def __init__(self, store, campaign, tasks, progress, workers, extra=()):
        self.store, self.campaign, self.tasks, self.progress = store, campaign, tasks, progress
        self.workers = workers
        self.done = store.done_units(campaign)
        self.todo = [t for t in tasks if t[2] not in self.done]
        self.units = len(tasks) + len(extra)  # extra: units run by the caller afterwards (the top of a tree)
        self.totals = AuditTotals()
        for t in self.done.values():
            self._add(t)
        self.prior = store.elapsed(campaign)
        if self.prior is None:  # a store written before wall time was kept: the units' own time
            self.prior = self.totals.work_seconds
        self.totals.seconds = self.prior
        self.reported = []
        self.claims = Claims(store, campaign, self.todo, self._recorded_elsewhere)
        self.t0 = time.perf_counter()

    def __enter__(self):
        return self

    def __exit__(self, kind, err, tb):
        self.claims.close()
        if isinstance(err, KeyboardInterrupt) and not isinstance(err, CampaignInterrupted):
            raise CampaignInterrupted(str(err) or "interrupted", campaign=self.campaign, stored=len(self.done),
                                      units=self.units, signum=getattr(err, "signum", SIGINT)) from None

    def _add(self, unit_json):
        unit = _totals_from_json(unit_json)
        unit.work_seconds = unit.work_seconds or unit.seconds
        self.totals.add(unit)

    def _recorded_elsewhere(self, unit, unit_json):
        """A unit another run recorded while this one ran: its totals count here too."""
        if unit not in self.done:
            self.done[unit] = unit_json
            self._add(unit_json)
            self.totals.seconds = self.prior + time.perf_counter() - self.t0
            if self.progress is not None:
                self.progress(len(self.done), self.units, self.totals)

    def take(self, unit):
        """Claim a unit the caller runs itself (the top of a tree): False when it is, or gets, recorded elsewhere."""
        if unit in self.done:
            return False
        self.claims.queue.append((None, None, unit))
        return self.claims.wait_take() is not None

    def finish(self, result):
        unit, findings, unit_totals, extra = result
        unit_totals.work_seconds = unit_totals.seconds
        elapsed = self.prior + time.perf_counter() - self.t0
        self.store.record_unit(self.campaign, unit, findings, unit_totals.to_json() | extra, elapsed=elapsed,
                               owner=self.claims.owner)
        self.done[unit] = unit_totals.to_json()
        self.totals.add(unit_totals)
        self.totals.seconds = elapsed
        self.reported.extend(findings)
        if self.progress is not None:
            self.progress(len(self.done), self.units, self.totals)

    def execute(self, init_args, *, jobs=1, executor="local", address=None):
        if executor not in ("local", "ray"):
            raise LabyrinthError("unknown executor (local or ray)", token=executor)
        dispatch(self.claims, self.workers, init_args, self.finish, units=len(self.todo), jobs=jobs, executor=executor,
                 address=address)
        self.totals.seconds = self.prior + time.perf_counter() - self.t0
        with held():
            self.store.set_elapsed(self.campaign, self.totals.seconds)


def dispatch(claims, workers, init_args, finish, *, units, jobs=1, executor="local", address=None):
    """Run the units of ``claims`` where asked, ``finish(result)`` for each as it comes in.

    On Ray (``executor="ray"``, ``address``: a running cluster), in this
    process (one job, or at most one unit), or in ``jobs`` forked local
    processes; ``workers`` (:class:`Workers`) sets up the process that runs
    a unit from ``init_args``.
    """
    if executor == "ray":
        run_ray(claims, workers.ray_task, init_args, jobs, address, finish)
    elif jobs <= 1 or units <= 1:
        run_serial(claims, lambda: workers.ensure(init_args), finish)
    else:
        run_local(claims, workers.init, init_args, jobs, finish)


def run_units(store, campaign, claims, workers, init_args, finish, settings, *, todo, done, units, elapsed,
              prepare=None):
    """:func:`dispatch` the ``todo`` units claimed (``prepare()`` first, if given) as ``settings`` place them.

    ``done`` holds the units stored and ``units`` counts them all: a stop
    (Ctrl-C, SIGTERM, a worker killed: every unit finished is stored) is a
    :class:`~labyrinth.errors.CampaignInterrupted` naming them. Either way
    the claims are given back and the campaign's wall time, ``elapsed()``,
    is stored.
    """
    try:
        if todo:
            if prepare is not None:
                prepare()
            dispatch(claims, workers, init_args, finish, units=todo, jobs=settings.jobs, executor=settings.executor,
                     address=settings.address)
    except KeyboardInterrupt as stop:
        raise CampaignInterrupted(str(stop) or "interrupted", campaign=campaign, stored=len(done), units=units,
                                  signum=getattr(stop, "signum", SIGINT)) from None
    finally:
        claims.close()
        with held():
            store.set_elapsed(campaign, elapsed())


def _totals_from_json(obj):
    t = AuditTotals()
    for k, v in obj.items():
        if k in COUNTERS:
            setattr(t, k, collections.Counter(v))
        elif hasattr(t, k):
            setattr(t, k, v)
    return t

