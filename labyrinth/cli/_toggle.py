"""``labyrinth toggle solve | algorithm | theorems | draw``: the toggle-squares puzzle, its exact oracle and the note's algorithms (docs/toggle.md).

The family's entry (:func:`register`) with solve, theorems and draw; the
``algorithm`` subcommand is :mod:`labyrinth.cli._toggle_algorithm`, the
limits, argument types and helpers they share :mod:`labyrinth.cli._toggle_common`.
"""

import sys

from labyrinth.cli._common import (
    EXIT_OK,
    EXIT_UNKNOWN,
    emit,
    family_subparsers,
    progress_bar,
)
from labyrinth.cli._limits import file_name
from labyrinth.cli._toggle_algorithm import register_algorithm
from labyrinth.cli._toggle_common import (
    PRINT_LIMIT,
    RUN_MINIMUM_MAX_N,
    THEOREMS_LIMIT,
    _cell,
    _cells,
    _columns,
    _load_state,
    _picture,
    _png,
    _presses,
    _rows,
    _side_by_side,
    _state_args,
    _theorem_size,
    _time_limit,
    _writable,
    _write,
)
from labyrinth.errors import LabyrinthError

DOCUMENT = "docs/toggle.md"


def register(sub):
    """Add ``toggle`` and its subcommands to the ``labyrinth`` parser."""
    toggle = sub.add_parser("toggle", help=f"toggle squares ({DOCUMENT}): solve exactly, audit the note's "
                                           "algorithms, check its theorems, draw")
    tsub = family_subparsers(toggle, "toggle_command")

    solve = tsub.add_parser("solve", help="solvable?, one solution, and with --minimum the fewest presses, proven")
    _state_args(solve, line=True)
    solve.add_argument("--goal", choices=("off", "on"), default="off", help="every cell off (default) or on")
    solve.add_argument("--minimum", action="store_true", help="a solution with the fewest presses, proven minimal")
    solve.add_argument("--method", choices=("auto", "enumerate", "cpsat", "brute"), default="auto",
                       help="how --minimum searches a 3k+2 board's solutions (default auto: enumeration of the "
                            "switching core up to 47x47 within --time-limit, CP-SAT beyond)")
    solve.add_argument("--all", action="store_true", help="every solvable state of an n x n board (n <= 5): "
                                                          "how many need each number of presses")
    solve.add_argument("--worst", action="store_true", help="the hardest solvable state of an n x n board "
                                                            "(n <= 11 when n = 3k+2), proven")
    _time_limit(solve)
    solve.add_argument("-o", "--output", type=file_name, metavar="FILE", help="write the presses as rows of 0/1 here")
    solve.add_argument("--json", action="store_true", help="one JSON object")
    solve.set_defaults(run=_solve)

    register_algorithm(tsub)

    th = tsub.add_parser("theorems", help="the note's claims checked by computation for every n up to N")
    th.add_argument("--max-n", type=_theorem_size, default=60, metavar="N",
                    help=f"every n from 1 to N (default 60, at most {THEOREMS_LIMIT}; ~3 s for 200, ~15 s for 400, "
                         "minutes for 1000)")
    th.add_argument("--algorithms-max-n", type=_theorem_size, default=40, metavar="N",
                    help="Theorems 3-5 (the algorithms) checked up to this size (default 40)")
    th.add_argument("--table-max-n", type=_theorem_size, default=30, metavar="N",
                    help="print the rank table up to this size (default 30; --json has every size)")
    th.add_argument("--no-progress", action="store_true")
    th.add_argument("--json", action="store_true", help="one JSON object")
    th.set_defaults(run=_theorems)

    draw = tsub.add_parser("draw", help="an SVG picture: a board, the presses of a solution, or an algorithm's "
                                        "run step by step")
    _state_args(draw)
    what = draw.add_mutually_exclusive_group()
    what.add_argument("--solve", action="store_true", help="draw the presses of a solution")
    what.add_argument("--algorithm", choices=("one-way", "two-way", "three-k-plus-one"),
                      help="draw this algorithm's run step by step")
    draw.add_argument("--minimum", action="store_true", help="with --solve: the fewest presses")
    draw.add_argument("--reading", choices=("text", "proof"), default="text", help="for two-way (see algorithm)")
    draw.add_argument("--goal", choices=("off", "on"), default="off", help="with --solve")
    _time_limit(draw)
    draw.add_argument("--cell", type=_cell, default=None, metavar="PX", help="cell size in pixels")
    draw.add_argument("--columns", type=_columns, default=6, metavar="K", help="frames per row of a run (default 6)")
    draw.add_argument("-o", "--output", type=file_name, metavar="FILE",
                      help="write here (default: stdout); a .png name gives PNG")
    draw.set_defaults(run=_draw)


# ---------------------------------------------------------------- solve


def _solve(args):
    from labyrinth.puzzles.toggle.board import check_size

    _writable(args.output)
    if args.all or args.worst:
        if args.all and args.worst:
            raise LabyrinthError("toggle solve: give --all or --worst, not both")
        if args.state is not None or args.random:
            raise LabyrinthError("toggle solve: --all and --worst take -n N, not a state")
        if args.n is None:
            raise LabyrinthError("toggle solve: --all and --worst need -n N")
        n = check_size(args.n, allow_large=args.allow_large, source="-n")
        return _solve_all(args, n) if args.all else _solve_worst(args, n)
    from labyrinth.puzzles.toggle.board import Line
    from labyrinth.puzzles.toggle.solve import MINIMUM_LIMIT, solve, solve_line_state

    label, state = _load_state(args, "toggle solve", args.goal, allow_line=True)
    n = state.n
    line = isinstance(state, Line)
    shape = f"1-D, {n} cells" if line else f"{n}x{n}"
    if line:
        sol = solve_line_state(state, args.goal, minimum=args.minimum)
    elif args.minimum and n % 3 == 2 and n > MINIMUM_LIMIT and not args.allow_large:
        raise LabyrinthError(f"--minimum on a 3k+2 board is searched up to {MINIMUM_LIMIT}x{MINIMUM_LIMIT} "
                             "(--allow-large to try CP-SAT beyond)", source=f"{n}x{n}")
    elif args.method == "brute" and n % 3 == 2 and n > 14:
        raise LabyrinthError("--method brute tries every kernel element: boards up to 14x14", source=f"{n}x{n}")
    else:
        sol = solve(state, args.goal, minimum=args.minimum, time_limit=args.time_limit, method=args.method,
                    allow_large=args.allow_large)
    if args.output and sol.presses is not None:
        _write(args.output, sol.presses.text())
    listed = sol.presses is not None and n <= PRINT_LIMIT
    if args.json:
        emit({"source": label, "n": n, "dimensions": 1 if line else 2, "goal": args.goal, "on": state.count(), "solvable": sol.solvable,
              "press_count": None if sol.presses is None else sol.presses.count(),
              "presses": [list(p) for p in sol.presses.positions()] if listed else None,
              "minimum": sol.minimum, "lower_bound": sol.lower_bound, "method": sol.method,
              "solutions_log2": sol.solutions_log2, "seconds": round(sol.seconds, 3)})
    else:
        verdict = "solvable" if sol.solvable else "NOT solvable"
        print(f"{label}: {shape}, {_cells(state.count())} on, goal {args.goal}: {verdict}")
        if not sol.solvable:
            print(f"why: {sol.method}")
        else:
            how = {"proven": "proven minimum", "unknown": "minimum unknown", "not asked": "one solution"}[sol.minimum]
            print(f"presses: {sol.presses.count()} ({how}; {sol.method})")
            print(f"solutions: 2^{sol.solutions_log2}" + (" (this one is unique)" if sol.solutions_log2 == 0 else ""))
            if listed:
                print("\n".join(_rows(sol.presses)))
            elif not args.output:
                print(f"(a {shape} press grid is written with -o FILE)")
    if sol.minimum == "unknown":
        bound = "" if sol.lower_bound is None else f", at least {sol.lower_bound} proven"
        print(f"labyrinth: toggle solve: the minimum is unknown after {args.time_limit:g} s (best found "
              f"{sol.presses.count()}{bound}): give more time with --time-limit SECONDS", file=sys.stderr)
        return EXIT_UNKNOWN
    return EXIT_OK


def _solve_all(args, n):
    from collections import Counter

    from labyrinth.puzzles.toggle.solve import all_minima

    if n > 5:
        raise LabyrinthError("toggle solve --all enumerates every solvable state up to 5x5 (6x6 has 2^36)",
                             source=f"{n}x{n}")
    states, minima = all_minima(n)
    hist = Counter(int(m) for m in minima)
    worst = max(hist)
    first = int(states[minima == worst][0])
    import numpy as np

    from labyrinth.puzzles.toggle.board import Board

    cells = np.array([(first >> i) & 1 for i in range(n * n)], dtype=np.uint8).reshape(n, n)
    example = Board.from_cells(cells)
    how = (f"every one of the 2^{2 * n - 1} solutions of each" if n % 3 == 2 else "each state's unique solution")
    if args.output:
        _write(args.output, example.text())
    if args.json:
        emit({"n": n, "solvable_states": int(states.size), "histogram": {str(k): hist[k] for k in sorted(hist)},
              "worst": worst, "worst_states": hist[worst], "example": _rows(example), "proof": how})
        return EXIT_OK
    print(f"{n}x{n}: {states.size} solvable states of 2^{n * n}; fewest presses proven by trying {how}")
    print("presses  states")
    for k in sorted(hist):
        print(f"{k:>7}  {hist[k]}")
    print(f"worst: {worst} presses ({hist[worst]} states), the first of them:")
    print("\n".join(_rows(example)))
    return EXIT_OK


def _solve_worst(args, n):
    from labyrinth.puzzles.toggle.solve import worst_case

    w = worst_case(n, allow_large=args.allow_large)
    if args.output:
        _write(args.output, w.state.text())
    if n % 3 == 2:
        k = (n - 2) // 3
        proof = (f"= k^2 + 2k(k+1) + G({w.switching_m}) with k = {k}: {k * k} + {2 * k * (k + 1)} + "
                 f"{w.switching_value}; G({w.switching_m}) = {w.switching_value} is Berlekamp's switching game "
                 f"on {w.switching_m}x{w.switching_m} (OEIS A005311), "
                 + (f"proven by exhaustive search ({w.nodes:,} nodes)" if w.proven else "NOT proven"))
    else:
        proof = "every solution is unique, so the state of pressing every cell needs all n^2"
    if args.json:
        emit({"n": n, "worst": w.value, "proven": w.proven, "proof": proof, "checked_by": w.checked,
              "switching_m": w.switching_m, "switching_value": w.switching_value, "nodes": w.nodes,
              "state": _rows(w.state) if n <= PRINT_LIMIT else None,
              "presses": _rows(w.presses) if n <= PRINT_LIMIT else None, "seconds": round(w.seconds, 3)})
        return EXIT_OK if w.proven else EXIT_UNKNOWN
    print(f"{n}x{n}: the hardest solvable states need {w.value} presses" + (" (proven)" if w.proven else ""))
    print(proof)
    print(f"witness checked by {w.checked}")
    if n <= PRINT_LIMIT:
        print("\n".join(_side_by_side([("state", _rows(w.state)), ("a minimum solution", _rows(w.presses))])))
    return EXIT_OK if w.proven else EXIT_UNKNOWN


# ---------------------------------------------------------------- theorems


def _theorems(args):
    from labyrinth.puzzles.toggle.theorems import check_theorems

    with progress_bar(args.max_n, unit="size", disable=args.no_progress) as bar:
        t = check_theorems(args.max_n, algorithms_max_n=args.algorithms_max_n, progress=bar.update)
    if args.json:
        emit({"max_n": t.max_n, "algorithms_max_n": t.algorithms_max_n,
              "rows": [{"n": r.n, "form": r.form, "rank_1d": r.rank1, "det_1d": r.det1, "rank_2d": r.rank2,
                        "nullity_2d": r.nullity2, "solvable_states_log2": r.rank2}
                       for r in t.rows],
              "claims": [{"key": c.key, "source": c.source, "statement": c.statement, "holds": c.holds,
                          "sizes_checked": len(c.sizes), "fails_for": c.failures, "note": c.note}
                         for c in t.claims],
              "seconds": round(t.seconds, 3)})
        return EXIT_OK
    print(f"toggle squares, n = 1..{t.max_n}: ranks over GF(2) by plain elimination of the press matrices "
          "built from the press rule (1-D: n x n, 2-D: n^2 x n^2)")
    print("| n | form | rank A (1-D) | det A | rank A(x)A (2-D) | nullity | solvable states |")
    print("|---|---|---|---|---|---|---|")
    for r in t.rows:
        if r.n <= args.table_max_n:
            print(f"| {r.n} | {r.form} | {r.rank1} | {r.det1} | {r.rank2} | {r.nullity2} | 2^{r.rank2} |")
    if t.max_n > args.table_max_n:
        print(f"(sizes {args.table_max_n + 1}..{t.max_n}: --json, or --table-max-n)")
    print()
    for c in t.claims:
        if not c.sizes:
            continue
        span = f"n = {c.sizes[0]}..{c.sizes[-1]}" if len(c.sizes) > 1 else f"n = {c.sizes[0]}"
        mark = "holds" if c.holds else f"FAILS for n = {', '.join(map(str, c.failures[:12]))}" + \
            (" ..." if len(c.failures) > 12 else "")
        print(f"{mark:<12} {c.source}: {c.statement} [{len(c.sizes)} sizes, {span}]")
    print(f"({t.seconds:.1f} s)")
    return EXIT_OK


# ---------------------------------------------------------------- draw


def _draw(args):
    from labyrinth.puzzles.toggle.draw import DRAW_LIMIT, render_board

    _writable(args.output)
    if args.minimum and not args.solve:
        raise LabyrinthError("toggle draw: --minimum goes with --solve")
    label, state = _load_state(args, "toggle draw")
    n = state.n
    if n > DRAW_LIMIT:
        raise LabyrinthError(f"boards are drawn up to {DRAW_LIMIT}x{DRAW_LIMIT}", source=f"{n}x{n}")
    if args.algorithm:
        from labyrinth.puzzles.toggle.algorithms import run
        from labyrinth.puzzles.toggle.solve import solve

        r = run(state, args.algorithm, reading=args.reading)
        minimum = None
        if r.cleared and (n % 3 != 2 or n <= RUN_MINIMUM_MAX_N):
            sol = solve(state, minimum=True, time_limit=args.time_limit)
            minimum = sol.presses.count() if sol.minimum == "proven" else None
        data = _picture(args.output or "", r, minimum, args.cell)
        summary = f"{args.algorithm} on {n}x{n}: " + (f"cleared in {_presses(r.clicks)}" if r.cleared
                                                       else f"not cleared ({r.final.count()} left on)")
    else:
        presses, caption = None, [f"{label}: {n}x{n}, {_cells(state.count())} on"]
        status = EXIT_OK
        if args.solve:
            from labyrinth.puzzles.toggle.solve import solve

            sol = solve(state, args.goal, minimum=args.minimum, time_limit=args.time_limit)
            if not sol.solvable:
                caption.append(f"not solvable to all {args.goal}")
            else:
                presses = sol.presses
                how = {"proven": "proven minimum", "unknown": "minimum unknown", "not asked": "a solution"}[sol.minimum]
                caption.append(f"dots: {_presses(presses.count())} to all {args.goal} ({how})")
                if sol.minimum == "unknown":
                    status = EXIT_UNKNOWN
        svg = render_board(state, presses=presses, caption=caption, **({"cell": args.cell} if args.cell else {}))
        data = _png(svg) if (args.output or "").lower().endswith(".png") else svg
        summary = caption[-1]
        if status == EXIT_UNKNOWN:
            print(f"labyrinth: toggle draw: the minimum is unknown after {args.time_limit:g} s: "
                  "give more time with --time-limit SECONDS", file=sys.stderr)
    if args.output and args.output != "-":
        _write(args.output, data, say=False)
        print(f"wrote {args.output}: {summary}")
    else:
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
        else:
            sys.stdout.write(data)
        sys.stdout.flush()
    return EXIT_OK if args.algorithm or status == EXIT_OK else EXIT_UNKNOWN
