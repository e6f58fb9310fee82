"""``labyrinth knight magic``: magic knight's tours on 8x8 (``docs/knight.md``), found, enumerated or disproved.

The knight family adds this subcommand with :func:`register_magic`; the work
is :func:`labyrinth.puzzles.knight.magic.find_magic` and ``enumerate_magic``.
Exit status 0 (found, all enumerated, or none: proven); 2 for bad input;
3 when the time limit came first (``unknown``; with ``--all`` what was found
is printed, marked partial). ``--all`` without ``--symmetric`` is the
resumable campaign of :mod:`labyrinth.cli._knight_magic_all`.
"""

from labyrinth.cli._common import EXIT_OK, EXIT_UNKNOWN, emit, note, stop_message
from labyrinth.cli._knight_magic_all import add_campaign_options, run_all
from labyrinth.cli._limits import positive_int, seconds, seed
from labyrinth.errors import LabyrinthError

__all__ = ["register_magic", "tour_text"]

#: the default time limit in seconds
DEFAULT_TIME_LIMIT = 600.0


def register_magic(knight_sub):
    """Add ``magic`` to the subparsers of the ``knight`` family."""
    p = knight_sub.add_parser(
        "magic", help="magic knight's tours on 8x8: rows and columns 260 (semi-magic), closed, symmetric, "
                      "diagonals; find one, enumerate all, or prove there is none",
        description="Magic knight's tours on 8x8 (docs/knight.md): a tour numbered 1..64 whose rows and "
                    "columns all sum to 260 (conditions 1-4), with --closed 64 a knight's move from 1 (5), "
                    "--symmetric the cell opposite through the centre holding the number plus 32 (6; implies "
                    "closed), --diagonals both diagonals 260 as well (7). Finds one tour, or with --all every "
                    "tour, counted as tours and as classes under the board's 8 symmetries and reversal. Every "
                    "tour printed is checked independently of the search. Exit status 0 (found, all, or none: "
                    "proven); 2 for bad input; 3 past --time-limit (unknown).")
    p.add_argument("--closed", action="store_true", help="condition 5: 64 a knight's move from 1")
    p.add_argument("--symmetric", action="store_true",
                   help="condition 6: symmetric about the centre (the image of i holds i+32 mod 64; closed)")
    p.add_argument("--diagonals", action="store_true", help="condition 7: both diagonals sum to 260 too")
    p.add_argument("--all", action="store_true",
                   help="enumerate every tour (one per class printed): in seconds with --symmetric; without it, "
                        "the whole enumeration as a resumable campaign in --db (hours: see the options below)")
    p.add_argument("--jobs", type=positive_int(1024), default=1, metavar="J", help="worker processes (default 1)")
    p.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                   help=f"seconds in all (default {DEFAULT_TIME_LIMIT:g}; for the campaign of --all: none); past it "
                        "the answer is unknown, exit 3")
    p.add_argument("--seed", type=seed, metavar="S",
                   help="search the units in a random order and print a random image of the tour; with --all "
                        "--sample, the sample's seed")
    p.add_argument("--backend", choices=("search", "cpsat"), default="search",
                   help="search: the dedicated numba search (default); cpsat: the CP-SAT model (find only)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object: the result, with each tour's path and numbered grid (64 numbers by rows)")
    add_campaign_options(p)
    p.set_defaults(run=_magic, stoppable=True)
    return p


def tour_text(state):
    """A tour as its numbered 8x8 grid, each row's sum on its right, the column and diagonal sums below."""
    n = state.board.width
    number = [0] * state.board.size
    for k, c in enumerate(state.path, 1):
        number[c] = k
    rows = []
    for y in range(n):
        vals = [number[y * n + x] for x in range(n)]
        rows.append("".join(f"{v:4d}" for v in vals) + f" | {sum(vals)}")
    rows.append("-" * (4 * n + 1) + "+")
    rows.append("".join(f"{sum(number[y * n + x] for y in range(n)):4d}" for x in range(n)))
    main = sum(number[i * n + i] for i in range(n))
    anti = sum(number[i * n + n - 1 - i] for i in range(n))
    rows.append(f"diagonals: {main} (1,1)-(8,8), {anti} (8,1)-(1,8)")
    rows.append(state.compact())
    return "\n".join(rows)


def _magic(args):
    from labyrinth.puzzles.knight.magic import (
        UNKNOWN,
        Conditions,
        enumerate_magic,
        find_magic,
        require,
    )

    cond = Conditions(closed=args.closed, symmetric=args.symmetric, diagonals=args.diagonals)
    if args.all and args.backend != "search":
        raise LabyrinthError("--all enumerates with the search backend only (CP-SAT finds one tour)",
                             token="--backend")
    if args.all and args.seed is not None and not (args.sample and not args.symmetric):
        raise LabyrinthError("--seed orders a search for one tour, or the sample of --all --sample: not --all alone",
                             token="--seed")
    if not (args.all and not args.symmetric):
        for flag, used in (("--resume", args.resume), ("--new", args.new), ("--sample", args.sample),
                           ("--max-units", args.max_units is not None), ("--executor", args.executor != "local"),
                           ("--address", args.address is not None), ("--scope", args.scope is not None),
                           ("--depth", args.depth is not None)):
            if used:
                raise LabyrinthError("belongs to the campaign of --all (without --symmetric)", token=flag)
    else:
        return run_all(args, cond, tour_text)
    if args.time_limit is None:
        args.time_limit = DEFAULT_TIME_LIMIT
    try:
        if args.all:
            result = enumerate_magic(cond, time_limit=args.time_limit, jobs=args.jobs)
        else:
            result = require(find_magic(cond, time_limit=args.time_limit, seed=args.seed, jobs=args.jobs,
                                        backend=args.backend), args.time_limit)
    except KeyboardInterrupt as stop:
        raise stop_message(stop, "nothing stored (this search keeps no store; the whole enumeration, --all without "
                            "--symmetric, is a resumable campaign)") from None
    if args.json:
        emit(result.to_json())
    else:
        shown = result.classes if args.all else result.tours
        for i, state in enumerate(shown, 1):
            if args.all:
                print(f"class {i} of {len(shown)}{' (so far)' if result.status == UNKNOWN else ''}:")
            print(tour_text(state))
            print()
        print(_summary(result, args))
    if result.status == UNKNOWN:
        note(f"labyrinth: knight magic {cond.label}: the time limit ({args.time_limit:g} s) came first: "
             f"the result is partial ({result.covered})")
        return EXIT_UNKNOWN
    return EXIT_OK


def _summary(r, args):
    head = f"knight magic {r.conditions.label}: {r.status}"
    if r.status == "unknown":
        head += " (partial)"
    if args.all:
        head += (f"; {len(r.tours)} tours, {len(r.classes)} classes under the 8 symmetries and reversal "
                 f"({r.closed_classes} closed, {r.diagonal_classes} with both diagonals 260)")
    elif r.status == "none":
        head += "; no tour meets these conditions (proven)"
    where = "1 process" if args.jobs <= 1 else f"{args.jobs} processes"
    return f"{head}; {r.seconds:.1f} s ({r.backend}, {where}); searched: {r.covered}"
