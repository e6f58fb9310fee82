"""``labyrinth toggle solve | algorithm | theorems | draw``: the toggle-squares puzzle, its exact oracle and the note's algorithms (docs/toggle.md)."""

import argparse
import math
import sys
from pathlib import Path

from labyrinth.cli._common import (
    EXIT_OK,
    EXIT_UNKNOWN,
    emit,
    family_subparsers,
    progress_bar,
    writable_output,
    write_bytes,
)
from labyrinth.cli._limits import file_name
from labyrinth.errors import LabyrinthError

#: press grids and press lists are printed up to this size; larger boards write them with -o FILE
PRINT_LIMIT = 64
#: the audit's largest board without --allow-large (minima of 3k+2 boards past 47x47 go to CP-SAT)
AUDIT_LIMIT = 32
AUDIT_LARGE_LIMIT = 128
#: theorems --max-n at most this (the eliminations grow as N^4: ~3 s for 200, ~15 s for 400, minutes for 1000)
THEOREMS_LIMIT = 1000
#: a run's caption and summary name the proven minimum up to this size on 3k+2 boards (under a second)
RUN_MINIMUM_MAX_N = 35
#: --time-limit at most a day
TIME_LIMIT_MAX = 86_400
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


# ---------------------------------------------------------------- argument types (one-line errors)


def _int(text, what, lo, hi):
    try:
        value = int(text.strip().replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}") from None
    if not lo <= value <= hi:
        raise argparse.ArgumentTypeError(f"{what} is between {lo} and {hi}, not {value}")
    return value


def _size(text):
    from labyrinth.puzzles.toggle.board import LARGE_SIZE_LIMIT

    return _int(text, "a board size", 1, LARGE_SIZE_LIMIT)


def _seed(text):
    return _int(text, "a seed", 0, 2**63 - 1)


def _count(text):
    return _int(text, "a number of states", 1, 10_000_000)


def _exhaustive(text):
    return _int(text, "--exhaustive-max-n", 0, 5)


def _theorem_size(text):
    return _int(text, "a size", 1, THEOREMS_LIMIT)


def _cell(text):
    return _int(text, "a cell size in pixels", 4, 128)


def _columns(text):
    return _int(text, "frames per row", 1, 40)


def _seconds(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds, not {text!r}") from None
    if not math.isfinite(value) or value <= 0 or value > TIME_LIMIT_MAX:
        raise argparse.ArgumentTypeError(f"a time limit is a number of seconds > 0 and at most {TIME_LIMIT_MAX}, "
                                         f"not {text!r}")
    return value


def _sizes(text):
    sizes = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        a = _int(lo, "a board size", 1, AUDIT_LARGE_LIMIT)
        b = _int(hi, "a board size", 1, AUDIT_LARGE_LIMIT) if sep else a
        if b < a:
            raise argparse.ArgumentTypeError(f"a size range goes up, not {part!r}")
        sizes.extend(range(a, b + 1))
    if not sizes:
        raise argparse.ArgumentTypeError(f"give board sizes like 1-8 or 2,5,8, not {text!r}")
    return sorted(set(sizes))


def _state_args(p, line=False):
    more = "; a single row is a 1-D board" if line else ""
    p.add_argument("state", nargs="?", metavar="STATE",
                   help=f"a file of 0/1 rows (one row per line), - for stdin{more}")
    p.add_argument("--random", action="store_true", help="a random solvable state instead (with -n, --seed)")
    p.add_argument("-n", type=_size, metavar="N", help="board size for --random, --all, --worst")
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help="seed for --random (default 0)")
    p.add_argument("--allow-large", action="store_true",
                   help="boards past 16384x16384 (up to 65536: GBs of memory), larger searches")


def _time_limit(p):
    p.add_argument("--time-limit", type=_seconds, default=60.0, metavar="SECONDS",
                   help="CP-SAT's limit for a minimum (default 60); past it the answer is unknown, exit 3")


# ---------------------------------------------------------------- helpers


def _writable(path):
    """Refuse an output path that cannot be written, before any work (None or '-': standard output)."""
    if path is not None and path != "-":
        writable_output(path)


def _writable_folder(path):
    """Refuse, before any work, a folder for pictures that cannot be made or written (its parent must exist)."""
    folder = Path(path)
    if folder.is_dir():
        writable_output(folder / "probe.svg")  # created and removed again
        return
    if folder.exists():
        raise LabyrinthError("is a file, not a folder for the pictures", source=path)
    if not (folder.parent if str(folder.parent) else Path(".")).is_dir():
        raise LabyrinthError("cannot make the folder: no such parent folder", source=path)
    _make_folder(path)  # made and removed again: it is made for good only when a picture is drawn
    try:
        writable_output(folder / "probe.svg")
    finally:
        folder.rmdir()


def _make_folder(path):
    try:
        Path(path).mkdir(exist_ok=True)
    except OSError as err:
        raise LabyrinthError(f"cannot make the folder: {err.strerror or err}", source=path) from None


def _write(path, data, say=True):
    write_bytes(path, data if isinstance(data, bytes) else data.encode("utf-8"), say=say)


def _load_state(args, command, goal="off", allow_line=False):
    """``(label, Board)`` from STATE or --random -n N --seed S (with ``allow_line``, a one-row STATE is a ``Line``)."""
    from labyrinth.puzzles.toggle.board import check_size, random_solvable, read_board

    if args.random:
        if args.state is not None:
            raise LabyrinthError(f"{command}: give STATE or --random, not both")
        if args.n is None:
            raise LabyrinthError(f"{command}: --random needs -n N")
        n = check_size(args.n, allow_large=args.allow_large, source="-n")
        return f"random {n}x{n} (seed {args.seed})", random_solvable(n, args.seed, goal)
    if args.state is None:
        raise LabyrinthError(f"{command}: give STATE (a file of 0/1 rows, - for stdin) or --random -n N")
    if args.n is not None:
        raise LabyrinthError(f"{command}: -n N goes with --random (a STATE has its own size)")
    label = "<stdin>" if args.state == "-" else args.state
    return label, read_board(args.state, allow_large=args.allow_large, allow_line=allow_line)


def _cells(k):
    return f"{k} cell" + ("" if k == 1 else "s")


def _presses(k):
    return f"{k} press" + ("" if k == 1 else "es")


def _rows(board):
    return board.text().splitlines()


def _side_by_side(blocks):
    """Text blocks (title, lines) next to each other."""
    width = [max([len(t)] + [len(line) for line in lines]) for t, lines in blocks]
    height = max(len(lines) for _, lines in blocks)
    out = ["   ".join(t.ljust(w) for (t, _), w in zip(blocks, width)).rstrip()]
    for i in range(height):
        out.append("   ".join((lines[i] if i < len(lines) else "").ljust(w)
                              for (_, lines), w in zip(blocks, width)).rstrip())
    return out


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


def _picture(path, r, minimum, cell):
    from labyrinth.puzzles.toggle.draw import render_run

    svg = render_run(r, minimum=minimum, **({"cell": cell} if cell else {}))
    return _png(svg) if str(path).lower().endswith(".png") else svg


def _png(svg):
    from labyrinth.view.svg import to_png

    return to_png(svg)


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
