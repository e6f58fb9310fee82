"""``labyrinth stats --db FILE``: the walk statistic as a resumable campaign (:mod:`verify.stats_campaign`).

This module reads the campaign's options, prints the estimate before the
units run and the progress as they finish, and says how to go on when the
run stopped. The figures are those of a run without ``--db``.
"""

from labyrinth.cli._common import EXIT_OK, advance, again, emit, note, progress_bar, rule_set, stop_message
from labyrinth.cli._limits import file_name
from labyrinth.errors import CampaignExists, CampaignInterrupted, LabyrinthError

__all__ = ["add_campaign_options", "campaign_asked", "duration", "run_stats_campaign"]


def add_campaign_options(p):
    """The options of the campaign: ``--db``, ``--resume``, ``--new``, ``--executor``, ``--address``."""
    g = p.add_argument_group("large runs: a resumable campaign in a store (docs/cli.md)")
    g.add_argument("--db", type=file_name, metavar="FILE",
                   help="store each finished block of runs in this findings store (a stop keeps them; --resume "
                        "goes on); the figures are those of a run without it")
    g.add_argument("--resume", action="store_true",
                   help="go on with the stored campaign of these settings (refused if the store holds none)")
    g.add_argument("--new", action="store_true", help="start another campaign even if one with these settings exists")
    g.add_argument("--executor", default="local", choices=["local", "ray"],
                   help="where the blocks run: local processes (default, --jobs) or a Ray cluster (needs --db)")
    g.add_argument("--address", metavar="ADDR", help="ray: a running cluster's address (default: start one)")


def campaign_asked(args):
    """Whether the options ask for the campaign (``--db``); its options without ``--db`` are bad input."""
    if args.db is not None:
        if args.resume and args.new:
            raise LabyrinthError("--resume goes on with the stored campaign, --new starts another: choose one",
                                 token="--new")
        if args.address is not None and args.executor != "ray":
            raise LabyrinthError("--address names a Ray cluster: it goes with --executor ray", token="--address")
        return True
    for flag, used in (("--resume", args.resume), ("--new", args.new), ("--executor", args.executor != "local"),
                       ("--address", args.address is not None)):
        if used:
            raise LabyrinthError("belongs to a campaign: give --db FILE (the store its blocks of runs go to)",
                                 token=flag)
    return False


def duration(seconds):
    """A duration as people say it.

    >>> duration(42), duration(600), duration(9000), duration(400000)
    ('42 s', '10.0 min', '2.5 h', '4.6 days')
    """
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    if seconds < 4 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _estimate_line(est, args, units_left):
    """The estimate before the run, and how it was made."""
    parts = []
    for s in est["sizes"]:
        if s["how"] == "stored":
            blocks = f"{s['units']} block{'s' if s['units'] > 1 else ''}"
            how = f"from its {blocks} of runs stored: {s['walks_a_run']:.1f} walks a run"
        elif s["bound"]:
            how = (f"{s['walks']} walks timed here, none stuck: up to {s['walks_a_run']:.0f} walks a run "
                   f"(the cap)")
        else:
            how = (f"{s['walks']} walks timed here, {s['stuck']} stuck: about {s['walks_a_run']:.1f} walks a run")
        parts.append(f"{s['n']}x{s['n']}: {s['seconds_a_walk'] * 1e3:.3g} ms a walk ({how}), {s['runs_left']} runs "
                     f"left, {duration(s['seconds'])}")
    bound = "at most " if est["bound"] else "about "
    if args.executor == "ray":
        where = (f"{bound}{duration(est['seconds'])} of one core of this machine in all, shared by the cluster's "
                 "CPUs")
    else:
        workers = max(1, min(args.jobs, units_left))
        where = (f"{bound}{duration(est['seconds'] / workers)} on "
                 + (f"{workers} processes of this machine (with a core each)" if workers > 1 else
                    "one process of this machine"))
    return f"estimate: {where}; " + "; ".join(parts)


def _check_before_work(args):
    """Refuse, before any walk: Ray asked for but not installed; ``--resume`` of a store that is not there."""
    from pathlib import Path

    if args.executor == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise LabyrinthError("the ray backend needs the 'ray' package: pip install 'labyrinth[ray]'",
                                 token="ray") from None
    if args.resume and not Path(args.db).exists():
        raise LabyrinthError("no stats campaign to resume here (no such file): run without --resume to start one",
                             source=args.db)


def run_stats_campaign(args, sizes, stats_row, stats_table):
    """``stats`` with ``--db``: run (or resume) the campaign, print its rows as a run without ``--db`` does."""
    from verify.stats_campaign import StatsSettings, estimate, run_campaign, stored_results
    from verify.store import Store

    _check_before_work(args)
    rules = rule_set(args)
    off = tuple(r for r in args.off.split(",") if r)
    on = tuple(r for r in args.on.split(",") if r)
    show = not (args.no_progress or args.json)
    bar = []

    def before(campaign, done):
        from verify.stats_campaign import plan_units, unit_name

        left = [u for u in plan_units(sizes, args.runs, args.cap) if unit_name(*u) not in done]
        stored = sum(len(t.get("samples", ())) for t in done.values())
        head = (f"stats campaign {campaign} in {args.db}: {len(sizes)} size{'s' if len(sizes) > 1 else ''} x "
                f"{args.runs} runs, {len(left)} blocks of runs to go")
        if not left:
            note(f"{head}: every block is stored")
            return
        note(f"{head}; estimating (a few walks timed on each size with no block stored yet)...")
        note(_estimate_line(estimate(rules, sizes, args.runs, args.seed, args.cap, done), args, len(left)))
        bar.append(progress_bar(len(sizes) * args.runs, unit="run", desc="stats", disable=not show))
        advance(bar[0], stored)

    def progress(runs_done, total, unit):
        if bar:
            advance(bar[0], runs_done, total)

    with Store(args.db) as store:
        try:
            result = run_campaign(store, StatsSettings(
                sizes=sizes, rules_args=(args.rules, off, on), runs=args.runs, seed=args.seed, cap=args.cap,
                rules=rules, jobs=args.jobs, executor=args.executor, address=args.address, resume=args.resume,
                new=args.new, engine_timeout=args.engine_timeout, progress=progress, before=before))
        except CampaignExists as err:
            raise LabyrinthError(f"{err.reason}: add --resume to continue it (or to print its figures again), or "
                                 "--new to start another", source=err.source) from None
        except CampaignInterrupted as stop:
            for b in bar:
                b.close()
            result = stored_results(store, stop.campaign)
            rows = [stats_row(result.stats[n], rules, args) for n in sizes if result.size_complete(n)]
            if args.json:
                for row in rows:
                    emit(row)
            elif rows:
                stats_table(rows, rules, args)
            partial = ", ".join(f"{n}x{n}: {result.stats[n].runs} of {args.runs} runs" for n in sizes
                                if n in result.stats and not result.size_complete(n))
            raise stop_message(stop, f"{stop.stored} of {stop.units} units stored in {args.db}"
                               + (f" ({partial})" if partial else ""),
                               again(args, ["--resume"], ["--new"])) from None
        finally:
            for b in bar:
                b.close()
    rows = [stats_row(result.stats[n], rules, args) for n in sizes]
    if args.json:
        for row in rows:
            emit(row)
    else:
        stats_table(rows, rules, args)
        print(f"campaign {result.campaign} in {args.db}: {result.units_done} blocks of runs stored; "
              f"{duration(result.seconds)} of wall time over its runs (the seconds column: each size's walking "
              "time, summed over processes)")
        if len(result.codes) > 1:
            print(f"note: its blocks were run by {len(result.codes)} versions of the code ({', '.join(result.codes)})")
    return EXIT_OK
