"""``labyrinth PUZZLE count``, shared by the path puzzles: every Hamiltonian path and cycle, counted exactly.

:func:`add_count` adds the subcommand to a family (:class:`~labyrinth.cli._puzzle.PuzzleSpec`).
The count is :func:`labyrinth.core.count.count_paths`: directed paths per
start cell (a table, and with ``--svg`` a heat map of the board), closed
tours, and classes under the board's symmetries and reversal. Units of work
run in this process, on ``--jobs`` local worker processes or on Ray, like an
audit's. Exit status 0; 2 for bad input (one line, before any work); 3 past
``--time-limit`` (the counts are unknown: no partial total is printed).
"""

import argparse
import math

from labyrinth.cli._common import (
    EXIT_OK,
    advance,
    again,
    emit,
    progress_bar,
    stop_message,
    writable_output,
    write_text,
)
from labyrinth.cli._limits import file_name, positive_int, seconds
from labyrinth.errors import BoardSizeError, LabyrinthError

__all__ = ["MEMO_MB_MAX", "add_count", "check_count_size", "table"]

#: --memo-mb at most this per worker
MEMO_MB_MAX = 65536


def add_count(sub, spec):
    """Add ``count`` to the subparsers of ``spec``'s family."""
    what = spec.kind(False) + "s"
    p = sub.add_parser(
        "count", help=f"every {spec.solution} counted exactly: per start cell (table, heat map), closed tours, "
                      "classes",
        description=f"Count every {spec.solution} of the {spec.title} on an n x n board, exactly: the directed "
                    f"{what} from each start cell (a table; --svg draws the board as a heat map), the closed "
                    "tours, and the classes of paths under the board's rotations and reflections and reversal. "
                    "Only one prefix of each symmetry orbit is searched. Exit status 0; 2 for bad input; 3 past "
                    "--time-limit (the counts are unknown).")
    p.add_argument("-n", required=True, type=_side, metavar="N", help="board size (n x n, n >= 1)")
    only = p.add_mutually_exclusive_group()
    only.add_argument("--paths-only", "--open-only", dest="paths_only", action="store_true",
                      help=f"only the {what} (per start cell, classes)")
    only.add_argument("--closed-only", "--closed", dest="closed_only", action="store_true",
                      help="only the closed tours")
    p.add_argument("--jobs", type=positive_int(1024), default=1, metavar="J",
                   help="worker processes (local or Ray CPUs); default 1")
    p.add_argument("--executor", default="local", choices=["local", "ray"],
                   help="where units run: local processes (default) or a Ray cluster")
    p.add_argument("--address", metavar="ADDR", help="ray: a running cluster's address (default: start one)")
    p.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                   help="for the whole count (default: none); past it the counts are unknown, exit 3")
    p.add_argument("--split", type=positive_int(8, zero=True), metavar="D",
                   help="moves in each unit's prefix (default by size: 1 on 5x5, 2 on 6x6, 3 on 7x7, 4 on 8x8)")
    p.add_argument("--memo-mb", type=positive_int(MEMO_MB_MAX), metavar="MB",
                   help="memo table per worker in MB (default by size: 64 on 6x6, 256 from 7x7)")
    p.add_argument("--log", type=file_name, metavar="FILE",
                   help="append each finished unit to FILE (JSON lines); a rerun with the same FILE skips them")
    p.add_argument("--svg", type=file_name, metavar="FILE", help=f"write the heat map of {what} per start cell here")
    p.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--allow-large", action="store_true",
                   help=f"boards above {spec.count_limit}x{spec.count_limit} (up to "
                        f"{spec.count_large_limit}x{spec.count_large_limit}): {spec.count_why}")
    p.set_defaults(run=lambda args: _count(args, spec), stoppable=True)
    return p


def _side(text):
    """Parser type for -n: ASCII digits (the size is checked, in one line, before any work)."""
    digits = str(text).strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        raise argparse.ArgumentTypeError(f"expected a board size (an integer >= 1), got {text!r}")
    return int(digits)


def check_count_size(n, spec, allow_large=False):
    """Refuse a board size outside ``spec``'s count policy, in one line, before any work."""
    if n < 1:
        raise BoardSizeError(f"board size must be at least 1, got {n}", source=f"-n {n}")
    limit = spec.count_large_limit if allow_large else spec.count_limit
    if n > limit:
        large = spec.count_large_limit
        how = "" if allow_large else f"; pass --allow-large to go up to {large}x{large}"
        why = "the search keeps the taken cells in one 64-bit word" if allow_large else spec.count_why
        raise LabyrinthError(f"{spec.family} count takes boards up to {limit}x{limit} ({why}){how}",
                             source=f"-n {n}")
    return n


def _count(args, spec):
    from labyrinth.core.count import count_paths

    n = check_count_size(args.n, spec, args.allow_large)
    if args.closed_only and args.svg:
        raise LabyrinthError("--svg draws the paths per start cell: it does not go with --closed-only",
                             token="--svg")
    svg = writable_output(args.svg) if args.svg else None
    log = writable_output(args.log) if args.log else None
    memo_log2 = None
    if args.memo_mb is not None:
        memo_log2 = max(10, int(math.log2(args.memo_mb * (1 << 20) // 16)))
    bar = progress_bar(0, unit="unit", disable=args.no_progress, desc=f"{spec.family} count {n}x{n}")
    seen = [0, 0]

    def progress(done, total):
        seen[:] = done, total
        advance(bar, done, total)

    try:
        result = count_paths(n, spec.leaps, open_paths=not args.closed_only, closed=not args.paths_only,
                             jobs=args.jobs, executor=args.executor, address=args.address,
                             time_limit=args.time_limit, depth=args.split, memo_log2=memo_log2, log=log,
                             progress=progress)
    except KeyboardInterrupt as stop:
        bar.close()
        done = f"{seen[0]} of {seen[1]} units"
        if log is None:
            raise stop_message(stop, f"{done} counted, nothing stored (--log FILE keeps the finished units)") from None
        raise stop_message(stop, f"{done} stored in {args.log}", again(args)) from None
    finally:
        bar.close()
    what = spec.kind(False) + "s"
    if svg is not None:
        from labyrinth.view.heatmap import render_heatmap

        write_text(svg, render_heatmap(result.grid(), title=f"{spec.title} {n}x{n}: {what} per start cell",
                                       caption=_caption(result, spec), what=what))
    if args.json:
        emit(result.to_json() | {"jobs": args.jobs, "executor": args.executor})
    else:
        print(_text(result, args, spec))
    return EXIT_OK


def _caption(r, spec):
    what = spec.kind(False) + "s"
    lines = [f"{r.n}x{r.n}: {r.paths:,} {what} (directed paths), {r.classes:,} up to symmetry and reversal"]
    if r.cycles is not None:
        lines.append(f"closed: {r.closed:,} {what} ({r.closed_per_start:,} from each cell), "
                     f"{r.cycles:,} Hamiltonian cycles")
    return lines


def table(grid):
    """The counts per start cell as aligned text: columns x = 1..n, rows y = 1..n from the top."""
    n = len(grid)
    width = max(len(str(v)) for row in grid for v in row)
    width = max(width, len(str(n)))
    head = "y\\x".rjust(len(str(n)) + 2) + " " + " ".join(str(x).rjust(width) for x in range(1, n + 1))
    rows = [str(y).rjust(len(str(n)) + 2) + " " + " ".join(str(v).rjust(width) for v in row)
            for y, row in enumerate(grid, start=1)]
    return "\n".join([head, *rows])


def _text(r, args, spec):
    what = spec.kind(False) + "s"
    out = [f"{spec.title} {r.n}x{r.n}: every {spec.solution}, counted exactly"]
    if r.paths is not None:
        out += [f"directed paths ({what}) per start cell:", table(r.grid()),
                f"paths: {r.paths} directed ({r.undirected} undirected)",
                f"classes under the {r.group_order} symmetries of the board and reversal: {r.classes}"]
    if r.cycles is not None:
        out.append(f"closed tours: {r.closed} directed ({r.closed_per_start} from each start cell), "
                   f"{r.cycles} Hamiltonian cycles (no start, no direction)")
    where = "this process" if args.jobs <= 1 and args.executor == "local" else f"{args.jobs} {args.executor} jobs"
    out.append(f"{r.units} units, {r.nodes} search nodes, {r.seconds:.2f} s ({where})")
    return "\n".join(out)
