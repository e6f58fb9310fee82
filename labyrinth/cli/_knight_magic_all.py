"""``labyrinth knight magic --all`` without ``--symmetric``: the semi-magic enumeration as a campaign in the store.

The work is :func:`verify.semimagic_campaign.run_campaign`;
this module reads the options, prints the classes (a numbered grid each) and
the counts, and says how to go on when the run stopped before the end.
Exit status 0 when every unit is stored (the answer is complete), 3 when
units are left (partial: resume with ``--resume``), 2 for bad input.
"""

from labyrinth.cli._common import EXIT_OK, EXIT_UNKNOWN, advance, again, emit, note, progress_bar, stop_message
from labyrinth.cli._limits import file_name, positive_int
from labyrinth.errors import CampaignExists, CampaignInterrupted, LabyrinthError

__all__ = ["add_campaign_options", "run_all"]


def add_campaign_options(p):
    """The options of the campaign (``--all`` without ``--symmetric``)."""
    g = p.add_argument_group("the whole enumeration (--all without --symmetric): a resumable campaign")
    g.add_argument("--db", type=file_name, default="labyrinth.db", metavar="FILE",
                   help="the findings store the units are committed to (default %(default)s)")
    g.add_argument("--resume", action="store_true",
                   help="go on with the stored campaign of these conditions (another run or machine may share it)")
    g.add_argument("--new", action="store_true", help="start another campaign even if one with these settings exists")
    g.add_argument("--executor", default="local", choices=["local", "ray"],
                   help="where units run: local processes (default) or a Ray cluster")
    g.add_argument("--address", metavar="ADDR", help="ray: a running cluster's address (default: start one)")
    g.add_argument("--sample", type=positive_int(10 ** 6, zero=True), default=0, metavar="K",
                   help="run K units of a random sample (--seed) first: the estimate of the total time (on "
                        "--resume, with another seed: more sample, for the time to go)")
    g.add_argument("--first", metavar="PAIRS",
                   help="run these pairs of end cells right after the sample, before the rest: 'c2-f2,d3-f4' or "
                        "'same-orbit' (the pairs whose ends lie in one orbit: the classes the puzzle author's count "
                        "of 158 hinges on)")
    g.add_argument("--scope", metavar="UNIT",
                   help="only the tours beginning and ending like this unit name, e.g. 'a1-h1 b3.c5 g3.e4' "
                        "(1 on a1, 2 on b3..., 64 on h1, 63 on g3...): a part of the work on its own")
    g.add_argument("--depth", type=positive_int(6), default=None, metavar="D",
                   help="moves at each end that cut the units (default 2; with --scope: beyond the scope)")
    g.add_argument("--max-units", type=positive_int(10 ** 6, zero=True), metavar="U",
                   help="stop this run after U units (--sample K --max-units K: only the estimate; 0: only say "
                        "where the campaign stands)")
    g.add_argument("--no-progress", action="store_true")


def _check(args):
    if args.resume and args.new:
        raise LabyrinthError("--resume goes on with the stored campaign, --new starts another: choose one",
                             token="--new")


def run_all(args, cond, tour_text):
    """Run the campaign of ``cond``; print the classes found and the counts; the exit status."""
    from labyrinth.puzzles.knight.semimagic import DEPTH, parse_unit, same_orbit_pairs
    from verify.semimagic_campaign import SemimagicSettings, run_campaign
    from verify.store import Store

    _check(args)
    scope = None if args.scope is None else parse_unit(args.scope, source="--scope").name
    first = [w.strip() for w in (args.first or "").split(",") if w.strip()]
    if first == ["same-orbit"]:
        first = same_orbit_pairs(cond.needs_closed)
    bar = []

    def progress(done, total, _res):
        if not bar:
            bar.append(progress_bar(total, unit="unit", disable=args.no_progress or args.json, desc="knight magic"))
        advance(bar[0], done, total)

    try:
        with Store(args.db) as store:
            result, early = run_campaign(store, SemimagicSettings(
                conditions=cond, depth=args.depth or DEPTH, scope=scope, jobs=args.jobs, executor=args.executor,
                address=args.address, time_limit=args.time_limit, resume=args.resume, new=args.new,
                sample=args.sample, seed=args.seed or 0, first=first, max_units=args.max_units, progress=progress))
    except CampaignExists as err:
        raise LabyrinthError(f"{err.reason}: add --resume to continue it (or to print its results again), or --new "
                             "to start another", source=err.source) from None
    except CampaignInterrupted as stop:
        raise stop_message(stop, f"{stop.stored} of {stop.units} units stored in {args.db}",
                      again(args, ["--resume"], ["--new"])) from None
    finally:
        for b in bar:
            b.close()
    if args.json:
        emit(result.to_json())
    else:
        _print(result, tour_text)
    if not result.complete:
        why = f"the time limit ({args.time_limit:g} s) came first" if early and args.time_limit else "units are left"
        note(f"labyrinth: knight magic {cond.label}: {why}: partial, {result.units_done} of {result.units_total} "
             f"units stored in {args.db}; go on with the same command and --resume")
        return EXIT_UNKNOWN
    return EXIT_OK


def _print(r, tour_text):
    from labyrinth.core.path import PathState
    from labyrinth.puzzles.knight.board import knight_puzzle

    s = r.summary
    partial = "" if r.complete else " (so far)"
    for i, cells in enumerate(s["classes"], 1):
        print(f"class {i} of {len(s['classes'])}{partial}:")
        print(tour_text(PathState(knight_puzzle(8, closed=False), cells)))
        print()
    status = "all" if r.complete else "unknown (partial)"
    if r.scope:
        status += f" in the scope {r.scope!r} (the classes with a tour there)"
    best = ", ".join(f"{a} and {b}" for a, b in s["best_diagonals"])
    work = f"{r.work_seconds / 3600:.2f} h" if r.work_seconds >= 3600 else f"{r.work_seconds:.1f} s"
    print(f"knight magic {r.conditions.label}: {status}; {s['tours']} tours, {len(s['classes'])} classes under the 8 "
          f"symmetries and reversal ({s['closed_classes']} closed, {s['open_classes']} open); diagonals nearest "
          f"260: {best or 'none'}; campaign {r.campaign}: {r.units_done} of {r.units_total} units, "
          f"{r.nodes:,} nodes, {work} of unit time")
    e = r.sample
    if e.get("units"):
        print(f"estimate from {e['units']} sampled units: {e['hours']} +- {e['plus_minus']} h of unit time in all"
              + (f" at their {e['rate']:g} M nodes/s" if e.get("rate") else "")
              + (f" ({e['cpu_hours']} +- {e['cpu_plus_minus']} h of processor time)" if "cpu_hours" in e else "")
              + f"; {e['nodes']:.3g} +- {e['nodes_plus_minus']:.2g} search nodes in all (the same on any machine: "
                "the hours are this machine's, under its load)")
    if "to_go_hours" in e and not r.complete:
        print(f"to go: {e['to_go_hours']} +- {e['to_go_plus_minus']} h of unit time for the "
              f"{r.units_total - r.units_done} units left; expected total {e['expected_hours']} h")
