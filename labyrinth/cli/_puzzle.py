"""Subcommands shared by the path puzzles (``numbers``, ``knight``): solve, walk (--audit), draw, built per puzzle.

A :class:`PuzzleSpec` names a puzzle family and its words; :func:`add_solve`,
:func:`add_walk` and :func:`add_draw` add one subcommand each to the family's
subparsers. Argument parsing and printing only: the work is
:func:`oracle.solve.solve_puzzle`, :func:`verify.path_audit.audit_start`
and :func:`labyrinth.view.paths.render_path`.
"""

import argparse
import contextlib
import dataclasses
import re

from labyrinth.cli._common import (
    EXIT_OK,
    emit,
    note,
    progress_bar,
    writable_output,
    write_bytes,
    write_text,
)
from labyrinth.cli._limits import (
    MAX_N,
    check_size,
    file_name,
    positive_int,
    register_size_policy,
    seconds,
    seed,
    size_args,
)
from labyrinth.errors import LabyrinthError
from oracle.registry import backend_names

__all__ = ["LIST_LIMIT", "PuzzleSpec", "add_draw", "add_solve", "add_walk", "cell_arg", "oracle_args"]

#: walks of --all-starts listed one per line up to this many starts (then only the failing ones)
LIST_LIMIT = 400


@dataclasses.dataclass(frozen=True)
class PuzzleSpec:
    """How one path puzzle appears on the command line.

    Attributes
    ----------
    family : str
        The subcommand family (``numbers``), also the size policy's prefix (``numbers solve``).
    title : str
        The puzzle in a sentence ("number puzzle").
    puzzle : callable
        ``puzzle(n, closed) -> Puzzle``.
    solution : str
        One complete path, in words ("solution", "open tour").
    moves_example : str
        Every move listed once, for ``--order``'s help.
    path_example : str
        A path in notation, for ``draw``'s help.
    margins : bool
        Whether pictures show the row, column and diagonal sums by default.
    leaps : tuple
        The leapers of the move graph (for ``count``).
    count_limit, count_large_limit : int
        The largest board ``count`` takes, by default and with ``--allow-large``.
    count_why : str
        Why the count stops there.
    size_limit, size_large_limit : int
        The largest board ``solve`` and ``walk`` take, by default and with ``--allow-large`` (the size policy of
        :mod:`labyrinth.cli._limits`, registered from here).
    solve_why, walk_why : str
        Why ``solve`` and ``walk`` stop there.
    """

    family: str
    title: str
    puzzle: object
    solution: str
    moves_example: str
    path_example: str
    margins: bool = False
    leaps: tuple = ()
    count_limit: int = 7
    count_large_limit: int = 8
    count_why: str = ""
    size_limit: int = 100
    size_large_limit: int = MAX_N
    solve_why: str = "the search holds every cell; large boards take seconds to minutes"
    walk_why: str = "an audit asks the oracle about every stuck walk"

    def kind(self, closed):
        return "closed tour" if closed else self.solution


def cell_arg(text):
    """Parser type for a cell ``X,Y`` (1-based column and row)."""
    m = re.fullmatch(r"\s*([0-9]{1,4})\s*,\s*([0-9]{1,4})\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"expected a cell X,Y (1-based column and row), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def oracle_args(p):
    p.add_argument("--backend", default="auto", metavar="NAME",
                   help=f"oracle backend: {backend_names()}")
    p.add_argument("--time-limit", type=seconds, default=60.0, metavar="SECONDS",
                   help="seconds in all (default 60); past it the answer is unknown, exit 3")


def _size(p, command, spec, why):
    register_size_policy(command, spec.size_limit, spec.size_large_limit, why)
    p.add_argument("-n", type=positive_int(MAX_N), required=True, metavar="N", help="board size (N x N)")
    size_args(p, command)


def _margins(p, spec):
    p.add_argument("--margins", action=argparse.BooleanOptionalAction, default=spec.margins,
                   help="write the row, column and diagonal sums around the picture "
                        f"(default: {'on' if spec.margins else 'off'})")


def _oracle(args):
    from oracle import get_oracle

    return get_oracle(args.backend, time_limit=args.time_limit)


def _drawable(n, svg):
    """Refuse, before the search, a picture of a board larger than paths are drawn."""
    from labyrinth.view.paths import check_drawable

    check_drawable(n, source=f"--svg {svg}")


def _on_board(n, start, option="--start"):
    if start is not None and not (1 <= start[0] <= n and 1 <= start[1] <= n):
        raise LabyrinthError(f"cell {start[0]},{start[1]} is off the {n}x{n} board", source=option)
    return start


# ---------------------------------------------------------------- solve


def add_solve(sub, spec, name="solve"):
    """Add ``name`` (one complete path through the oracle, checked, or 'none' proven) to ``spec``'s family."""
    command = f"{spec.family} {name}"
    p = sub.add_parser(name, help=f"one {spec.solution} (a numbered grid and its path), found by the oracle and "
                                  f"checked; 'no {spec.solution}' only when proven")
    _size(p, command, spec, spec.solve_why)
    p.add_argument("--start", type=cell_arg, metavar="X,Y", help="the first cell, numbered 1 (default: any)")
    p.add_argument("--closed", action="store_true", help="a closed tour: the last cell one move from the first")
    p.add_argument("--seed", type=seed, metavar="S", help="draw the start (if not given) and a symmetry of the "
                                                          "board at random from S")
    oracle_args(p)
    p.add_argument("--svg", type=file_name, metavar="FILE", help="also draw the path here")
    _margins(p, spec)
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(run=lambda args: _solve(args, spec, command))
    return p


def _solve(args, spec, command):
    from labyrinth.view.paths import render_path
    from oracle.solve import SOLVED, require, solve_puzzle

    check_size(args.n, command, args.allow_large)
    _on_board(args.n, args.start)
    if args.svg:
        _drawable(args.n, args.svg)
        writable_output(args.svg)
    with _oracle(args) as oracle:
        result = require(solve_puzzle(spec.puzzle(args.n, args.closed), start=args.start, seed=args.seed,
                                      oracle=oracle, time_limit=args.time_limit), args.time_limit)
    if args.svg and result.status == SOLVED:
        write_text(args.svg, render_path(result.state, margins=args.margins))
    if args.json:
        emit(result.to_json())
        return EXIT_OK
    where = f"from {args.start[0]},{args.start[1]}" if args.start else "from any start"
    kind = spec.kind(args.closed)
    if result.status == SOLVED:
        print(result.text())
        print(f"path: {result.state.compact()}")
        print(f"{_article(kind)} {kind} of the {args.n}x{args.n} board, checked; {result.seconds:.3f} s "
              f"({result.backend}, {result.starts_decided} start(s) decided)")
    else:
        scope = ("this start" if args.start else "every start (a closed tour passes through every cell: one "
                 "start decided)" if args.closed else f"every start ({result.starts_decided} up to symmetry)")
        print(f"no {kind} of the {args.n}x{args.n} board {where}: proven for {scope}; {result.seconds:.3f} s")
    return EXIT_OK


def _article(word):
    return "an" if word[:1] in "aeiou" else "a"


# ---------------------------------------------------------------- walk


def add_walk(sub, spec):
    """Add ``walk`` (Warnsdorff's walk from one or every start; ``--audit``: each stuck walk's first fatal move)."""
    command = f"{spec.family} walk"
    p = sub.add_parser("walk", help="Warnsdorff's walk from one start or every start; --audit finds each "
                                    "stuck walk's first fatal move")
    _size(p, command, spec, spec.walk_why)
    p.add_argument("--rule", choices=("warnsdorff",), default="warnsdorff",
                   help="move to the cell with the fewest onward moves (the only rule so far)")
    p.add_argument("--order", metavar="ORDER",
                   help="how ties are broken: clockwise (the moves clockwise from north; the default), "
                        "anticlockwise, roth (farthest from the board's centre, then clockwise), random "
                        f"(the default with --seed), or every move listed, e.g. {spec.moves_example}")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--start", type=cell_arg, metavar="X,Y", help="the first cell (default 1,1)")
    where.add_argument("--all-starts", action="store_true", help="one walk from every cell")
    p.add_argument("--closed", action="store_true", help="walk for a closed tour (the audit asks for one)")
    p.add_argument("--seed", type=seed, metavar="S",
                   help="seed of the random tie-break (given alone, it makes the order random; default 0)")
    p.add_argument("--audit", action="store_true", help="ask the oracle where each stuck walk went wrong")
    oracle_args(p)
    p.add_argument("--svg", type=file_name, metavar="FILE",
                   help="draw the walk (one start only), its first fatal move marked")
    _margins(p, spec)
    p.add_argument("--db", type=file_name, metavar="FILE", help="with --audit, record the findings in this store")
    p.add_argument("--json", action="store_true", help="JSON lines: one per start, then a summary")
    p.set_defaults(run=lambda args: _walk(args, spec, command))
    return p


def _walk(args, spec, command):
    from labyrinth.core.walk import Warnsdorff
    from labyrinth.errors import TimeLimitError

    check_size(args.n, command, args.allow_large)
    _on_board(args.n, args.start)
    if args.order is None:
        args.order = "clockwise" if args.seed is None else "random"
    args.seed = args.seed or 0
    puzzle = spec.puzzle(args.n, args.closed)
    g = puzzle.graph
    rule = Warnsdorff(args.order)
    try:
        rule.check(g)
    except ValueError as err:
        raise LabyrinthError(str(err), source="--order", token=args.order) from None
    if args.svg:
        if args.all_starts:
            raise LabyrinthError("a picture shows one walk: give --start, not --all-starts", source="--svg")
        _drawable(args.n, args.svg)
        writable_output(args.svg)
    if args.db and not args.audit:
        raise LabyrinthError("only an audit records findings: add --audit", source="--db")
    starts = range(g.size) if args.all_starts else [g.cell(*(args.start or (1, 1)))]
    audits = []
    if args.db:
        from verify.store import Store
    # the store is opened (so checked: writable, ours, undamaged) before the walks
    with Store(args.db) if args.db else contextlib.nullcontext() as store:
        _walk_starts(args, puzzle, rule, starts, audits)
        if store is not None:
            _record(args, spec, rule, audits, store)
    if args.svg:
        _draw_walk(args.svg, audits[0], args.margins)
    _print_walks(args, spec, audits)
    undecided = sum(a.outcome == "unknown" or a.first_fatal_step == "unknown" for a in audits)
    if undecided:
        raise TimeLimitError(f"{undecided} start(s) undecided within {args.time_limit} s per query", source=command)
    return EXIT_OK


def _walk_starts(args, puzzle, rule, starts, audits):
    """Walk (and with ``--audit``, audit) from each start, appending to ``audits``."""
    from labyrinth.core.path import PathState
    from labyrinth.core.walk import walk

    oracle = _oracle(args) if args.audit else None
    try:
        with progress_bar(len(starts), unit="start", disable=len(starts) < 2) as bar:
            for k, cell in enumerate(starts):
                state = PathState(puzzle, (cell,))
                if args.audit:
                    from verify.path_audit import audit_start

                    audits.append(audit_start(state, rule, oracle, seed=args.seed + k))
                else:
                    audits.append(_plain(walk(state, rule, seed=args.seed + k)))
                bar.update(1)
    finally:
        if oracle is not None:
            oracle.close()


def _plain(w):
    from verify.path_audit import StartAudit

    s = w.state
    return StartAudit(s.board.xy(s.path[0]), w.outcome, s.compact(), s.steps)


def _print_walks(args, spec, audits):
    stuck = [a for a in audits if a.outcome != "complete"]
    no_path = [a for a in audits if a.outcome == "no path"]
    if args.json:
        for a in audits:
            emit(a.to_json())
        emit({"summary": True, "n": args.n, "closed": args.closed, "order": args.order, "starts": len(audits),
              "complete": len(audits) - len(stuck), "stuck": len(stuck) - len(no_path), "no_path": len(no_path)})
        return
    shown = audits if len(audits) <= LIST_LIMIT or not args.all_starts else stuck
    if shown:
        print(f"{'start':>7}  {'outcome':<9} {'steps':>5}" + ("  first fatal move" if args.audit else ""))
    kind = spec.kind(args.closed)
    for a in shown:
        line = f"{a.start[0]:>3},{a.start[1]:<3}  {a.outcome:<9} {a.steps:>5}"
        if args.audit and a.outcome == "stuck":
            if a.first_fatal_step == "unknown":
                line += "  unknown (time limit)"
            else:
                alt = ", ".join(a.feasible_moves) or "none"
                line += f"  jump {a.first_fatal_step} ({a.fatal_move}); feasible there: {alt}"
        elif args.audit and a.outcome == "no path":
            line += f"  none: no {kind} starts here at all"
        print(line)
    summary = (f"{args.n}x{args.n}, Warnsdorff {args.order}: {len(audits) - len(stuck)} of {len(audits)} walks "
               f"complete, {len(stuck)} stuck")
    if args.audit:
        summary += f" ({len(no_path)} from starts with no {kind}s at all)"
    print(summary)


def _record(args, spec, rule, audits, store):
    from verify.audit import AuditTotals

    params = {"puzzle": spec.puzzle(args.n, args.closed).name, "n": args.n, "rule": rule.name,
              "seed": args.seed, "starts": "all" if args.all_starts else list(args.start or (1, 1))}
    campaign = store.start_campaign(f"{spec.family}-walk", params, seed=args.seed, rules=rule.name)
    done = AuditTotals()
    for a in audits:
        f = a.finding(rule.name)
        totals = AuditTotals(walks=1, steps=a.steps, walkthroughs=int(a.outcome == "complete"),
                             stuck=int(a.outcome != "complete"))
        if f is not None:
            totals.findings[f.kind] += 1
        store.record_unit(campaign, "start %d,%d" % a.start, [f] if f else [], totals.to_json())
        done.add(totals)
    store.finish_campaign(campaign, done.to_json())
    note(f"recorded in {args.db} as campaign {campaign}")


def _draw_walk(path, audit, margins):
    from labyrinth.core.path import parse_path
    from labyrinth.view.paths import render_path

    state = parse_path(audit.walk)
    fatal = audit.first_fatal_step if isinstance(audit.first_fatal_step, int) else None
    write_text(path, render_path(state, fatal_step=fatal, feasible_moves=audit.feasible_moves, margins=margins))


# ---------------------------------------------------------------- draw


def add_draw(sub, spec):
    """Add ``draw`` (an SVG of a path in notation; an unfinished dead path's first fatal move marked)."""
    p = sub.add_parser("draw", help="an SVG of a path (PUZZLE:N@X,Y:MOVES): numbered, with its moves, and an "
                                    "unfinished dead path's first fatal move marked")
    p.add_argument("path", metavar="PATH", help=f"e.g. {spec.path_example} (moves joined by commas)")
    p.add_argument("-o", "--output", "--svg", dest="output", type=file_name, metavar="FILE", required=True,
                   help="the SVG file to write")
    _margins(p, spec)
    oracle_args(p)
    p.add_argument("--allow-large", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(run=_draw)
    return p


def _draw(args):
    from labyrinth.core.path import parse_path
    from labyrinth.errors import TimeLimitError
    from labyrinth.view.paths import check_drawable, render_path
    from oracle.analysis import dead_step_bounds

    state = parse_path(args.path, source="PATH")
    check_drawable(state.board.n, source="PATH")
    writable_output(args.output)
    fatal, feasible, hi = None, (), None
    if not state.is_complete():
        with _oracle(args) as oracle:
            lo, hi, undecided = dead_step_bounds(state, oracle)
            if undecided:
                raise TimeLimitError(f"the first fatal move is between jumps {lo + 1} and {hi}", source="PATH")
            if hi is not None and hi > 0:
                fatal = hi
                before = state.prefix(hi - 1)
                bad = state.board.move_between(state.path[hi - 1], state.path[hi])
                feasible = tuple(m for m in before.open_moves()
                                 if m != bad and oracle.decide(before.after(m)).feasible)
    svg = render_path(state, fatal_step=fatal, feasible_moves=feasible, margins=args.margins)
    write_bytes(args.output, svg.encode("utf-8"), say=False)  # the file is the answer: said on stdout, as draw does
    if state.is_complete():
        summary = f"a complete path of {len(state.path)} cells"
    elif hi == 0:
        summary = f"no completion starts at {state.board.xy(state.path[0])} at all"
    elif fatal is not None:
        summary = f"first fatal move: jump {fatal}; feasible there: {', '.join(feasible) or 'none'}"
    else:
        summary = f"{len(state.path)} cells, alive (a completion exists)"
    print(f"wrote {args.output}: {summary}")
    return EXIT_OK
