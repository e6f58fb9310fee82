"""``labyrinth draw | report | serve``: pictures of states, a findings report, and the browser viewer."""

import sys
from pathlib import Path

from labyrinth.cli._common import (
    EXIT_OK,
    board_sizes,
    must_exist,
    note,
    rule_set,
    rules_args,
    sized_file,
    sized_state,
    writable_output,
)
from labyrinth.cli._limits import file_name, positive_int, seconds, size_args
from labyrinth.errors import LabyrinthError
from oracle.registry import backend_names

#: The widest picture ``draw`` makes, in pixels (cairo and browsers give up far beyond).
MAX_PICTURE = 16384


def register(sub):
    """Add this module's subcommands to the ``labyrinth`` parser."""
    draw = sub.add_parser("draw", help="an SVG (or PNG) picture of a state: line, open and disabled moves, "
                                       "oracle verdict, witness, stuck pattern")
    draw.add_argument("input", nargs="?", metavar="FILE", help="a research path file")
    draw.add_argument("--moves", metavar="N:MOVES", help="a state in compact notation")
    rules_args(draw)
    draw.add_argument("-o", "--output", type=file_name, metavar="FILE",
                      help="write here (default: stdout); a .png name implies --png")
    draw.add_argument("--png", action="store_true", help="PNG instead of SVG (cairosvg)")
    draw.add_argument("--step", type=positive_int(10 ** 7, zero=True), metavar="K", help="draw the line after its first K moves")
    draw.add_argument("--backend", default="auto", help=f"oracle backend: {backend_names()}")
    draw.add_argument("--time-limit", type=seconds, default=10.0, metavar="SECONDS", help="per oracle query")
    draw.add_argument("--no-oracle", action="store_true", help="no verdict, feasible moves, witness or pattern")
    draw.add_argument("--no-pattern", action="store_true", help="skip the minimal stuck pattern of a dead line")
    draw.add_argument("--no-future", action="store_true", help="skip the future lines")
    draw.add_argument("--cell", type=positive_int(256), default=32, metavar="PX", help="cell size in pixels (default 32)")
    size_args(draw, "draw")
    draw.set_defaults(run=_draw)

    report = sub.add_parser("report", help="one self-contained HTML page for a findings store")
    report.add_argument("--db", type=file_name, default="labyrinth.db", metavar="FILE",
                        help="findings store (default ./labyrinth.db)")
    report.add_argument("-o", "--output", type=file_name, default="report.html", metavar="FILE",
                        help="default report.html")
    report.add_argument("--stats-runs", type=positive_int(10 ** 6, zero=True), default=100, metavar="R",
                        help="runs per board size for the walk statistics (0: skip; the study used 1000)")
    report.add_argument("--stats-sizes", default="9,11,13,15,17,19,21", metavar="N[,N...]")
    report.add_argument("--timing", type=positive_int(10 ** 6, zero=True), default=40, metavar="K",
                        help="states from the store on which every backend is timed (0: skip)")
    report.add_argument("--time-limit", type=seconds, default=2.0, metavar="SECONDS", help="per oracle query")
    report.add_argument("--gallery", type=positive_int(10 ** 6, zero=True), default=60, metavar="K", help="at most K patterns in the gallery")
    report.add_argument("--no-progress", action="store_true")
    report.set_defaults(run=_report)

    serve = sub.add_parser("serve", help="a local web page to step through a walk (arrow keys, space, Enter)")
    serve.add_argument("--db", type=file_name, metavar="FILE",
                       help="a findings store whose findings open in the viewer")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=positive_int(65535, zero=True), default=8000)
    serve.add_argument("--backend", default="auto", help="oracle backend")
    serve.add_argument("--time-limit", type=seconds, default=5.0, metavar="SECONDS", help="per oracle query")
    serve.add_argument("--verbose", action="store_true", help="log every request")
    serve.set_defaults(run=_serve)


def _draw(args):
    from labyrinth.view import describe, render, to_png

    if (args.input is None) == (args.moves is None):
        raise LabyrinthError("draw: give exactly one of FILE or --moves N:MOVES")
    if args.cell < 8:
        raise LabyrinthError("--cell must be at least 8 pixels", token=str(args.cell))
    state = (sized_state(args.moves, "draw", args.allow_large) if args.moves
             else sized_file(Path(args.input), "draw", args.allow_large))
    if args.cell * state.n > MAX_PICTURE:
        raise LabyrinthError(f"a {state.n}x{state.n} board at --cell {args.cell} is wider than {MAX_PICTURE} pixels: "
                             f"use --cell {max(8, MAX_PICTURE // state.n)} or less", token=str(args.cell))
    if args.output:
        writable_output(args.output)
    if args.step is not None:
        if not 0 <= args.step <= state.steps:
            raise LabyrinthError(f"--step must be between 0 and {state.steps}", token=str(args.step))
        state = state.prefix(args.step)
    rules = rule_set(args)
    png = args.png or (args.output or "").lower().endswith(".png")
    if args.no_oracle:
        view = describe(state, rules, None, future=not args.no_future)
    else:
        from oracle import get_oracle

        with get_oracle(args.backend, time_limit=args.time_limit) as oracle:
            view = describe(state, rules, oracle, pattern=not args.no_pattern, time_limit=args.time_limit,
                            future=not args.no_future)
    svg = render(view, cell=args.cell)
    if png:
        from labyrinth.view.svg import MAX_PNG_PIXELS, png_scale

        scale = png_scale(svg)
        if scale < 2.0:  # a PNG is drawn at twice the cell size, unless that passes the bound on its pixels
            note(f"labyrinth: note: the PNG of a {state.n}x{state.n} board is drawn at {scale * args.cell:.1f} "
                 f"pixels a cell, not {2 * args.cell} (a PNG has at most {MAX_PNG_PIXELS >> 20} megapixels)")
    data = to_png(svg) if png else svg.encode("utf-8")
    del svg
    if args.output:
        try:
            Path(args.output).write_bytes(data)
        except OSError as err:
            raise LabyrinthError(f"cannot write: {err.strerror or err}", source=args.output) from None
        verdict = f", {view.status}" if view.status else ""
        print(f"wrote {args.output}: "
              f"{state.compact() if state.steps <= 40 else f'{state.n}x{state.n} line of {state.steps} moves'}{verdict}")
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return EXIT_OK


def _report(args):
    from labyrinth.view.report import build_report
    from verify.store import Store

    must_exist(args.db)
    writable_output(args.output)  # before the work: a bad path must not cost it
    sizes = tuple(board_sizes(args.stats_sizes, "stats"))
    if args.stats_runs < 0 or args.timing < 0 or args.gallery < 0:
        raise LabyrinthError("--stats-runs, --timing and --gallery must not be negative")

    def progress(text):
        if not args.no_progress:
            print(f"labyrinth: report: {text}…", file=sys.stderr)

    with Store(args.db, create=False) as store:
        page = build_report(store, stats_runs=args.stats_runs, stats_sizes=sizes, timing=args.timing,
                            time_limit=args.time_limit, gallery=args.gallery, progress=progress)
    try:
        Path(args.output).write_text(page, encoding="utf-8")
    except OSError as err:
        raise LabyrinthError(f"cannot write: {err.strerror or err}", source=args.output) from None
    print(f"wrote {args.output}: report of {args.db} ({len(page) // 1024} KiB, self-contained)")
    return EXIT_OK


def _serve(args):
    from labyrinth.view.server import make_server

    if args.db is not None:
        from verify.store import Store

        Store(args.db, create=False).close()  # a missing file or one that is not a store: refused now
    if not 0 <= args.port <= 65535:
        raise LabyrinthError("--port must be 0-65535", token=str(args.port))
    server = make_server(args.db, host=args.host, port=args.port, backend=args.backend, time_limit=args.time_limit,
                         quiet=not args.verbose)
    print(f"labyrinth viewer on {server.url} (Ctrl-C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return EXIT_OK
