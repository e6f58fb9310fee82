"""``labyrinth check``: decide saved states with the oracle."""

import itertools
import sys

from labyrinth.cli._common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_UNKNOWN,
    emit,
    expand,
    note,
    progress_bar,
    sized_file,
    sized_state,
)
from labyrinth.cli._limits import seconds, size_args
from labyrinth.errors import LabyrinthError
from oracle.registry import backend_names


def register(sub):
    """Add this module's subcommands to the ``labyrinth`` parser."""
    check = sub.add_parser("check", help="decide states: status, first dead step, feasible moves, witness")
    check.add_argument("inputs", nargs="*", metavar="FILE",
                       help="research path files or folders of them; '-' reads one state per line from stdin")
    check.add_argument("--moves", action="append", default=[], metavar="N:MOVES", help="a state in compact notation")
    check.add_argument("--json", action="store_true", help="one JSON object per state")
    check.add_argument("--backend", default="auto", help=backend_names())
    check.add_argument("--time-limit", type=seconds, default=60.0, metavar="SECONDS",
                       help="per oracle query; past it the answer is 'unknown' (exit status 3)")
    check.add_argument("--no-progress", action="store_true", help="no progress bar")
    size_args(check, "check")
    check.set_defaults(run=_check)


def _check(args):
    from oracle import analyse, get_oracle

    if not args.inputs and not args.moves:
        raise LabyrinthError("check: give FILE..., '-' or --moves N:MOVES")
    jobs = []  # (label, thunk returning a State)
    for text in args.moves:
        jobs.append((text, lambda text=text: sized_state(text, "check", args.allow_large)))
    stdin = False
    for item in args.inputs:
        if item == "-":
            stdin = True
            continue
        for path in expand(item):
            jobs.append((str(path), lambda path=path: sized_file(path, "check", args.allow_large)))
    read = {"lines": 0}
    batch = args.json or stdin
    errors = unknown = 0
    rows = []
    with get_oracle(args.backend, time_limit=args.time_limit) as oracle:
        bar = progress_bar(len(jobs), unit="state", disable=args.no_progress or batch or len(jobs) < 2)
        try:
            for label, load in itertools.chain(jobs, _stdin_jobs(args, read) if stdin else ()):
                try:
                    state = load()
                except LabyrinthError as err:
                    errors += 1
                    if batch:
                        emit({"state": label, "error": str(err)})
                    else:
                        note(f"labyrinth: {err}")
                    bar.update()
                    continue
                report = analyse(state, oracle)
                unknown += report.partial
                if batch:
                    emit(report.to_json())
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
    if stdin and not read["lines"]:
        raise LabyrinthError("empty input: expected one state per line", source="<stdin>")
    if errors:
        return EXIT_BAD_INPUT
    return EXIT_UNKNOWN if unknown else EXIT_OK


def _stdin_jobs(args, read):
    """(label, thunk) per state line of stdin, read as they are decided (a line is bounded as a file is)."""
    from labyrinth.engine.formats import bounded_lines

    for i, line in enumerate(bounded_lines(sys.stdin, source="<stdin>"), 1):
        if line.strip():
            read["lines"] += 1
            label = f"<stdin>:{i}"
            yield label, lambda line=line, label=label: sized_state(line, "check", args.allow_large, source=label)


def _table(rows):
    header = ("file", "n", "steps", "status", "first dead", "feasible", "undecided", "seconds")
    lines = [header]
    for label, r in rows:
        dead = "-" if r.first_dead_step is None else str(r.first_dead_step)
        if r.first_dead_between is not None:
            dead = "?" if r.first_dead_between[0] >= r.first_dead_between[1] else "{}..{}?".format(*r.first_dead_between)
        lines.append((label, str(r.n), str(r.steps), r.status, dead,
                      "".join(r.feasible_moves) or "-", "".join(r.undecided_moves) or "-", f"{r.seconds:.3f}"))
    widths = [max(len(row[i]) for row in lines) for i in range(len(header))]
    for row in lines:
        print("  ".join(cell.ljust(w) if i == 0 or i == 3 else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
    counts = {}
    for _, r in rows:
        counts[r.status] = counts.get(r.status, 0) + 1
    total = sum(r.seconds for _, r in rows)
    partial = sum(r.partial for _, r in rows)
    print(f"{len(rows)} states: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
          + f"; {total:.1f} s"
          + (f"; {partial} partly undecided (out of --time-limit: '?' marks what is unknown)" if partial else ""))
    if len(rows) == 1 and rows[0][1].witness:  # one state: its witness too (--json gives every state's)
        print(f"witness (moves that complete it): {rows[0][1].witness}")
