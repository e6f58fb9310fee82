"""A campaign's settings as one value: where its units run (:class:`RunSettings`), and what an audit audits.

The stats and semimagic campaigns add their own fields to :class:`RunSettings`
(:class:`verify.stats_campaign.StatsSettings`,
:class:`verify.semimagic_campaign.SemimagicSettings`).
"""

import dataclasses
from typing import Any, Callable, Optional

__all__ = ["AuditSettings", "PATTERN_SECONDS", "RunSettings"]

#: seconds one minimal pattern may take in a campaign (most take well under a second; a few take minutes)
PATTERN_SECONDS = 10.0


@dataclasses.dataclass(frozen=True, kw_only=True)
class RunSettings:
    """Where a campaign's units run, and how a run goes on with a stored campaign.

    Parameters
    ----------
    jobs : int
        Local worker processes (``executor="local"``), or CPUs of the local
        Ray cluster started when ``executor="ray"`` and no ``address`` is given.
    executor : str
        Where units run: ``local`` or ``ray``.
    address : str, optional
        A running Ray cluster to join.
    resume : bool
        Go on with the campaign of these settings in the store, skipping its stored units.
    progress : callable, optional
        Called after every unit stored (each campaign says with what).
    """

    jobs: int = 1
    executor: str = "local"
    address: Optional[str] = None
    resume: bool = False
    progress: Optional[Callable] = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class AuditSettings(RunSettings):
    """What an audit campaign audits, and how and where it runs.

    Parameters
    ----------
    n : int
        The board side.
    rules_args : tuple
        ``(name, off, on)`` as for :func:`labyrinth.rules.get_rule_set`.
    walks : int, optional
        Seeded random walks to audit (a walks campaign).
    seed : int
        The seed of the walks.
    exhaustive : bool
        Audit the whole keep-left tree instead of walks.
    split : int, optional
        The cut depth of the exhaustive tree (None: ``2 n - 2``, within ``0 .. n*n - 1``).
    jobs, executor, address, resume
        Where the units run, and whether to go on with a stored campaign: see :class:`RunSettings`.
    oracle : str
        The oracle backend that decides every move (``auto``, ``search``,
        ``sat``, ``cpsat``); findings are confirmed by SAT (by CP-SAT when
        the oracle is SAT).
    time_limit : float
        Seconds the oracle may take for one state.
    patterns : str or int
        Which dead findings get a minimal stuck pattern: see
        :func:`verify.campaign.pattern_quota`.
    pattern_time_limit : float or None
        Seconds for one pattern; past it the finding is stored without one
        (``labyrinth minimize --finding ID`` adds it later).
    progress : callable, optional
        ``progress(units_done, units_total, totals)``, called after every unit.
    engine_timeout : float, optional
        Seconds per request of an external engine (``rules_args`` named
        ``engine:COMMAND``; every worker starts its own engine).
    engine_order : str, optional
        ``"breadth-first"`` or ``"depth-first"``: the order an external
        engine is asked in (None: the order its hello prefers, else
        breadth-first). Not a campaign parameter: the findings are the same
        in either order, so a campaign resumes in the other.
    refuse_same : bool
        Without ``resume``, refuse (:class:`~labyrinth.errors.CampaignExists`)
        when the store holds a campaign with these settings, instead of starting another.
    """

    n: int
    rules_args: tuple
    walks: Optional[int] = None
    seed: int = 0
    exhaustive: bool = False
    split: Optional[int] = None
    oracle: str = "auto"
    time_limit: float = 60.0
    patterns: Any = "auto"
    pattern_time_limit: Optional[float] = PATTERN_SECONDS
    engine_timeout: Optional[float] = None
    engine_order: Optional[str] = None
    refuse_same: bool = False
