"""The ``labyrinth`` command: argument parsing and printing only; the work is in the library."""

import argparse
import json
import sys
from pathlib import Path

from labyrinth.errors import LabyrinthError

EXIT_OK, EXIT_FINDING, EXIT_BAD_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3


def main(argv=None):
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except LabyrinthError as err:
        print(f"labyrinth: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("labyrinth: interrupted", file=sys.stderr)
        return 130


def _parser():
    parser = argparse.ArgumentParser(prog="labyrinth", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="decide states: status, first dead step, feasible moves, witness")
    check.add_argument("inputs", nargs="*", metavar="FILE",
                       help="research path files or folders of them; '-' reads one state per line from stdin")
    check.add_argument("--moves", action="append", default=[], metavar="N:MOVES", help="a state in compact notation")
    check.add_argument("--json", action="store_true", help="one JSON object per state")
    check.add_argument("--backend", default="auto", help="auto (default), search, sat or cpsat")
    check.add_argument("--time-limit", type=float, default=60.0, metavar="SECONDS",
                       help="per oracle query; past it the answer is 'unknown' (exit status 3)")
    check.add_argument("--no-progress", action="store_true", help="no progress bar")
    check.set_defaults(run=_check)

    walk = sub.add_parser("walk", help="one seeded random walk under a rule set")
    walk.add_argument("-n", type=int, required=True, help="board size (odd, >= 3)")
    walk.add_argument("--rules", default="none", help="rule set: none or oracle")
    walk.add_argument("--seed", type=int, default=0)
    walk.add_argument("--json", action="store_true")
    walk.set_defaults(run=_walk)

    enum = sub.add_parser("enumerate", help="every walk in keep-left order: walkthroughs and stuck leaves")
    enum.add_argument("-n", type=int, help="board size (odd, >= 3), from the start")
    enum.add_argument("--from", dest="prefix", metavar="N:MOVES", help="enumerate below a saved prefix")
    enum.add_argument("--rules", default="none", help="rule set: none or oracle")
    enum.add_argument("--json", action="store_true")
    enum.add_argument("--no-progress", action="store_true")
    enum.set_defaults(run=_enumerate)
    return parser


def _walk(args):
    from labyrinth.engine.walker import random_walk
    from labyrinth.rules import get_rule_set

    walk = random_walk(args.n, get_rule_set(args.rules), args.seed)
    if args.json:
        _emit({"state": walk.state.compact(), "outcome": walk.outcome, "stuck_step": walk.stuck_step})
    else:
        print(walk.state.compact())
        print(walk.outcome + ("" if walk.stuck_step is None else f" at step {walk.stuck_step}"))
    return EXIT_OK


def _enumerate(args):
    from labyrinth.engine import State, parse_state
    from labyrinth.engine.walker import enumerate_walks
    from labyrinth.rules import get_rule_set

    if (args.n is None) == (args.prefix is None):
        raise LabyrinthError("enumerate: give exactly one of -n N or --from N:MOVES")
    start = parse_state(args.prefix, source=args.prefix) if args.prefix else State.from_moves(args.n, "")
    rules = get_rule_set(args.rules)
    bar = _progress(None, disable=args.no_progress or args.json)
    bar.unit = "walkthrough"
    result = enumerate_walks(start, rules, progress=lambda k: bar.update())
    bar.close()
    out = {"start": start.compact(), "rules": rules.name, "walkthroughs": result.walkthroughs,
           "stuck": result.stuck, "nodes": result.nodes, "seconds": round(result.seconds, 3)}
    if args.json:
        _emit(out)
    else:
        print("  ".join(f"{k}: {v}" for k, v in out.items()))
    return EXIT_OK


def _check(args):
    from labyrinth.engine import parse_state
    from labyrinth.engine.formats import load_trace
    from oracle import analyse, get_oracle

    if not args.inputs and not args.moves:
        raise LabyrinthError("check: give FILE..., '-' or --moves N:MOVES")
    jobs = []  # (label, thunk returning a State)
    for text in args.moves:
        jobs.append((text, lambda text=text: parse_state(text, source=text)))
    stdin = False
    for item in args.inputs:
        if item == "-":
            stdin = True
            continue
        for path in _expand(item):
            jobs.append((str(path), lambda path=path: _load_noting(load_trace, path)))
    if stdin:
        lines = 0
        for i, line in enumerate(sys.stdin, 1):
            if line.strip():
                lines += 1
                label = f"<stdin>:{i}"
                jobs.append((label, lambda line=line, label=label: parse_state(line, source=label)))
        if not lines:
            raise LabyrinthError("empty input: expected one state per line", source="<stdin>")
    batch = args.json or stdin
    errors = unknown = 0
    rows = []
    with get_oracle(args.backend, time_limit=args.time_limit) as oracle:
        bar = _progress(len(jobs), disable=args.no_progress or batch or len(jobs) < 2)
        try:
            for label, load in jobs:
                try:
                    state = load()
                except LabyrinthError as err:
                    errors += 1
                    if batch:
                        _emit({"state": label, "error": str(err)})
                    else:
                        bar.write(f"labyrinth: {err}", file=sys.stderr)
                    bar.update()
                    continue
                report = analyse(state, oracle)
                unknown += report.status == "unknown" or report.undecided > 0
                if batch:
                    _emit(report.to_json())
                else:
                    rows.append((label, report))
                bar.update()
        except KeyboardInterrupt:
            bar.close()
            if rows:
                _table(rows)  # what was decided before the interrupt is still printed
            raise
        bar.close()
    if rows:
        _table(rows)
    if errors:
        return EXIT_BAD_INPUT
    return EXIT_UNKNOWN if unknown else EXIT_OK


def _load_noting(load, path):
    trace = load(path)
    for note in trace.notes:
        print(f"labyrinth: note: {path}: {note}", file=sys.stderr)
    return trace.state


def _expand(item):
    p = Path(item)
    if p.is_dir():
        files = sorted(f for f in p.rglob("*.txt"))
        if not files:
            raise LabyrinthError("no .txt path files in this folder", source=item)
        return files
    return [p]


def _emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _progress(total, disable):
    from tqdm import tqdm

    return tqdm(total=total, disable=disable, file=sys.stderr, unit="state", dynamic_ncols=True)


def _table(rows):
    header = ("file", "n", "steps", "status", "first dead", "feasible", "seconds")
    lines = [header]
    for label, r in rows:
        lines.append((label, str(r.n), str(r.steps), r.status,
                      "-" if r.first_dead_step is None else str(r.first_dead_step),
                      "".join(r.feasible_moves) or "-", f"{r.seconds:.3f}"))
    widths = [max(len(row[i]) for row in lines) for i in range(len(header))]
    for row in lines:
        print("  ".join(cell.ljust(w) if i == 0 or i == 3 else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
    counts = {}
    for _, r in rows:
        counts[r.status] = counts.get(r.status, 0) + 1
    total = sum(r.seconds for _, r in rows)
    print(f"{len(rows)} states: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
          + f"; {total:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
