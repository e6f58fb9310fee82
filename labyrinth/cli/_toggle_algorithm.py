"""``labyrinth toggle algorithm``: run one of the note's clearing algorithms, or --audit it over many boards.

The toggle family adds this subcommand with :func:`register_algorithm`; the
work is :mod:`labyrinth.puzzles.toggle.algorithms` and
:mod:`labyrinth.puzzles.toggle.audit`.
"""

from pathlib import Path

from labyrinth.cli._common import EXIT_OK, emit, progress_bar
from labyrinth.cli._limits import file_name
from labyrinth.cli._toggle_common import (
    AUDIT_LARGE_LIMIT,
    AUDIT_LIMIT,
    PRINT_LIMIT,
    RUN_MINIMUM_MAX_N,
    _cells,
    _count,
    _exhaustive,
    _load_state,
    _make_folder,
    _picture,
    _presses,
    _rows,
    _side_by_side,
    _sizes,
    _state_args,
    _time_limit,
    _writable,
    _writable_folder,
    _write,
)
from labyrinth.errors import LabyrinthError

__all__ = ["register_algorithm"]


def register_algorithm(tsub):
    """Add ``algorithm`` to the subparsers of the ``toggle`` family."""
    algo = tsub.add_parser("algorithm", help="run one of the note's algorithms, or --audit it against the "
                                             "exact minimum")
    algo.add_argument("algorithm", choices=("one-way", "two-way", "three-k-plus-one"),
                      help="one-way (Theorem 3), two-way (Theorem 4), three-k-plus-one (Theorem 5)")
    _state_args(algo)
    algo.add_argument("--reading", choices=("text", "proof"), default="text",
                      help="two-way's second iteration as its text says (right to left, default) or as its proof "
                           "needs (left to right)")
    algo.add_argument("--audit", action="store_true", help="audit over many boards per size (every state up to "
                                                           "5x5, seeded random solvable states beyond)")
    algo.add_argument("--sizes", type=_sizes, default=[1, 2, 3, 4, 5, 6, 7, 8], metavar="N[-M][,...]",
                      help="board sizes to audit (default 1-8)")
    algo.add_argument("--states", type=_count, default=1000, metavar="K",
                      help="random solvable states per size past --exhaustive-max-n (default 1000)")
    algo.add_argument("--exhaustive-max-n", type=_exhaustive, default=5, metavar="N",
                      help="try every state up to this size (default 5, at most 5)")
    algo.add_argument("--svg", type=file_name, metavar="DIR",
                      help="draw each smallest counterexample's run into this folder")
    _time_limit(algo)
    algo.add_argument("--no-progress", action="store_true")
    algo.add_argument("-o", "--output", type=file_name, metavar="FILE",
                      help="draw the run here (SVG, or PNG for a .png name)")
    algo.add_argument("--json", action="store_true", help="one JSON object")
    algo.set_defaults(run=_algorithm)


# ---------------------------------------------------------------- algorithm


def _algorithm(args):
    if args.audit:
        return _audit(args)
    from labyrinth.puzzles.toggle.algorithms import claim, run
    from labyrinth.puzzles.toggle.solve import solve

    if args.svg:
        raise LabyrinthError("toggle algorithm: --svg DIR is for --audit (draw one run with -o FILE)")
    _writable(args.output)
    label, state = _load_state(args, "toggle algorithm")
    n = state.n
    if n > 1024 and not args.allow_large:
        raise LabyrinthError("the algorithms run on boards up to 1024x1024 (a log of ~4n^2 presses; "
                             "--allow-large to go on)", source=f"{n}x{n}")
    r = run(state, args.algorithm, reading=args.reading)
    minimum = None
    if r.cleared and (n % 3 != 2 or n <= RUN_MINIMUM_MAX_N):
        sol = solve(state, minimum=True, time_limit=args.time_limit)
        minimum = sol.presses.count() if sol.minimum == "proven" else None
    if args.output:
        _write(args.output, _picture(args.output, r, minimum, None))
    said = claim(args.algorithm, n)
    reading = f" (reading {args.reading})" if args.algorithm == "two-way" else ""
    if args.json:
        emit({"source": label, "n": n, "algorithm": args.algorithm, "reading": args.reading, "claim": said,
              "cleared": r.cleared, "presses": r.clicks, "minimum": minimum,
              "press_list": [list(p) for p in r.press_positions()] if n <= PRINT_LIMIT else None,
              "left_on": _rows(r.final) if not r.cleared and n <= PRINT_LIMIT else None})
        return EXIT_OK
    verdict = (f"cleared in {_presses(r.clicks)}" if r.cleared
               else f"NOT cleared: {_cells(r.final.count())} left on after {_presses(r.clicks)}")
    if minimum is not None:
        verdict += f"; the proven minimum is {minimum}"
    print(f"{label}: {args.algorithm}{reading} on {n}x{n}, {_cells(state.count())} on: {verdict}")
    print(f"the note's claim for {n}x{n}: {said or 'none'}")
    if n <= PRINT_LIMIT:
        for t, (pr, pc, tr, tc, phase) in enumerate(r.press_positions(), 1):
            print(f"{t:>4}. press ({pr},{pc}) for filled ({tr},{tc})  [{phase}]")
        if not r.cleared:
            print("left on:")
            print("\n".join(_rows(r.final)))
    return EXIT_OK


def _audit(args):
    from labyrinth.puzzles.toggle.audit import audit

    if args.state is not None or args.random:
        raise LabyrinthError("toggle algorithm --audit takes --sizes, not a state")
    if args.output:
        raise LabyrinthError("toggle algorithm --audit: use --svg DIR for pictures")
    big = [n for n in args.sizes if n > AUDIT_LIMIT]
    if big and not args.allow_large:
        raise LabyrinthError(f"the audit runs on boards up to {AUDIT_LIMIT}x{AUDIT_LIMIT} (--allow-large: up to "
                             f"{AUDIT_LARGE_LIMIT}; minima of 3k+2 boards past 47x47 need CP-SAT)", source=f"--sizes {big[0]}")
    if args.svg:
        _writable_folder(args.svg)
    total = sum(1 << (n * n) if n <= args.exhaustive_max_n else args.states for n in args.sizes)
    with progress_bar(total, unit="state", disable=args.no_progress) as bar:
        report = audit(args.algorithm, args.sizes, reading=args.reading, states=args.states, seed=args.seed,
                       exhaustive_max_n=args.exhaustive_max_n, time_limit=args.time_limit, progress=bar.update)
    pictures = {}
    if args.svg:
        from labyrinth.puzzles.toggle.draw import DRAW_LIMIT

        for s in report.sizes:
            for c in (s.smallest_failure, s.smallest_excess):
                if c is not None and c.n <= DRAW_LIMIT:
                    _make_folder(args.svg)
                    name = Path(args.svg) / f"{args.algorithm}-{args.reading}-{c.n}x{c.n}-" \
                                            f"{c.kind.replace(' ', '-')}.svg"
                    _write(name, _picture(name, c.run, c.minimum, None))
                    pictures[(c.n, c.kind)] = str(name)
    if args.json:
        emit(_audit_json(report, pictures))
        return EXIT_OK
    _print_audit(report, pictures)
    return EXIT_OK


def _example_json(c, pictures):
    if c is None:
        return None
    return {"n": c.n, "kind": c.kind, "inside_claim": c.inside_claim, "state": _rows(c.state),
            "presses": [list(p) for p in c.run.press_positions()], "clicks": c.run.clicks, "minimum": c.minimum,
            "minimum_presses": _rows(c.minimum_presses) if c.minimum_presses is not None else None,
            "left_on": _rows(c.run.final), "found_by": c.how_found, "picture": pictures.get((c.n, c.kind))}


def _audit_json(report, pictures):
    sizes = []
    for s in report.sizes:
        sizes.append({"n": s.n, "claim": s.claim, "exhaustive": s.exhaustive, "states": s.states,
                      "solvable": s.solvable, "cleared": s.cleared, "failed": s.failed, "minimal": s.minimal,
                      "unknown": s.unknown, "presses_mean": s.presses_mean, "presses_max": s.presses_max,
                      "excess_max": s.excess_max,
                      "cleared_dimension": list(s.exact) if s.exact else None,
                      "smallest_failure": _example_json(s.smallest_failure, pictures),
                      "smallest_not_minimal": _example_json(s.smallest_excess, pictures),
                      "seconds": round(s.seconds, 3)})
    return {"algorithm": report.algorithm, "reading": report.reading, "seed": report.seed,
            "states_per_size": report.states_per_size, "sizes": sizes}


def _print_audit(report, pictures):
    reading = f" (reading {report.reading})" if report.algorithm == "two-way" else ""
    print(f"audit of {report.algorithm}{reading}: every state up to the exhaustive size, "
          f"{report.states_per_size} seeded random solvable states (seed {report.seed}) beyond")
    print("| n | claim | states | solvable | cleared | failed | clears exactly | presses mean / max | minimal | "
          "most extra presses |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in report.sizes:
        states = f"all {s.states:,}" if s.exhaustive else f"{s.states:,} random"
        exact = "" if s.exact is None else (f"all 2^{s.exact[1]} solvable" if s.exact[0] == s.exact[1]
                                            else f"2^{s.exact[0]} of 2^{s.exact[1]} solvable")
        presses = "-" if s.presses_mean is None else f"{s.presses_mean:.1f} / {s.presses_max}"
        minimal = f"{s.minimal:,} of {s.cleared:,}" + (f" ({s.unknown} unknown)" if s.unknown else "")
        claim = "yes" if s.claim else "-"
        print(f"| {s.n} | {claim} | {states} | {s.solvable:,} | {s.cleared:,} | {s.failed:,} | {exact} | {presses} | "
              f"{minimal} | {'-' if s.excess_max is None else s.excess_max} |")
    for kind, verb in (("fails", "fails"), ("not minimal", "is not minimal")):
        inside = report.smallest(kind, inside_claim=True)
        anywhere = report.smallest(kind)
        if anywhere is None:
            never = "fails" if kind == "fails" else "makes more presses than the minimum"
            print(f"\nit never {never} on the sizes audited")
            continue
        if inside is None:
            print(f"\nit never {verb} inside the note's claim")
        else:
            _print_example(inside, verb, "inside the note's claim", pictures)
        if anywhere is not inside:
            _print_example(anywhere, verb, "anywhere", pictures)


def _print_example(c, title, where, pictures):
    r = c.run
    head = f"\nsmallest board where it {title} ({where}): {c.n}x{c.n}, {_cells(c.state.count())} on"
    if c.kind == "fails":
        head += f"; {_presses(r.clicks)} leave {r.final.count()} on"
    else:
        head += f"; {_presses(r.clicks)} against the proven minimum {c.minimum}"
    print(head + f" [{c.how_found}]")
    presses = r.net()
    counts = [[0] * c.n for _ in range(c.n)]
    for pr, pc, *_ in r.press_positions():
        counts[pr - 1][pc - 1] += 1
    count_rows = ["".join(str(min(v, 9)) if v else "." for v in row) for row in counts]
    blocks = [("board", _rows(c.state)), ("presses per cell", count_rows)]
    if c.kind == "fails":
        blocks.append(("left on", _rows(r.final)))
    elif c.minimum_presses is not None:
        blocks.append(("a minimum solution", _rows(c.minimum_presses)))
    for line in _side_by_side(blocks):
        print("  " + line)
    order = ", ".join(f"({pr},{pc})" for pr, pc, *_ in r.press_positions())
    print(f"  presses in order: {order or 'none'}" + (f" (net {presses.count()} cells)" if c.kind != "fails" else ""))
    if (c.n, c.kind) in pictures:
        print(f"  drawn: {pictures[(c.n, c.kind)]}")
