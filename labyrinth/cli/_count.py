"""``labyrinth count | rank | unrank | sample``: exact path counts and walkthrough numbers."""

import time

from labyrinth.cli._common import EXIT_OK, emit, expand, sized_file, sized_state
from labyrinth.cli._limits import check_size, seed, size_args
from labyrinth.errors import LabyrinthError


def register(sub):
    """Add this module's subcommands to the ``labyrinth`` parser."""
    count = sub.add_parser("count", help="exact counts: corner-to-corner paths of a board, or completions of states")
    count.add_argument("-n", metavar="N", help="board size (odd, >= 3): count its Hamiltonian corner paths")
    _state_args(count)
    size_args(count, "count")
    count.set_defaults(run=_count)

    rank = sub.add_parser("rank", help="walkthrough number of a path or prefix in keep-left order")
    _state_args(rank)
    size_args(rank, "rank")
    rank.set_defaults(run=_rank)

    unrank = sub.add_parser("unrank", help="the path of a walkthrough number in keep-left order")
    unrank.add_argument("-n", metavar="N", required=True, help="board size (odd, >= 3)")
    unrank.add_argument("number", metavar="NUMBER", help="walkthroughs before it: 0 for the first")
    unrank.add_argument("--json", action="store_true")
    size_args(unrank, "unrank")
    unrank.set_defaults(run=_unrank)

    sample = sub.add_parser("sample", help="a uniformly random walkthrough (every corner path equally likely)")
    sample.add_argument("-n", metavar="N", required=True, help="board size (odd, >= 3)")
    sample.add_argument("--seed", type=seed, default=0)
    sample.add_argument("--json", action="store_true")
    size_args(sample, "sample")
    sample.set_defaults(run=_sample)


def _state_args(p):
    p.add_argument("inputs", nargs="*", metavar="FILE", help="research path files or folders of them")
    p.add_argument("--moves", action="append", default=[], metavar="N:MOVES", help="a state in compact notation")
    p.add_argument("--json", action="store_true", help="one JSON object per state")


def _board(text, command, allow_large):
    from labyrinth.cli._limits import leading_size
    from labyrinth.engine import Board

    digits = str(text).strip()
    if not (digits.isascii() and digits.isdigit()):
        raise LabyrinthError("board size must be an odd integer >= 3", source=f"-n {text}")
    check_size(leading_size(f"{digits}:"), command, allow_large, source=f"-n {text}")
    return Board(int(digits))  # a BoardSizeError names anything but an odd integer >= 3


def _states(args, command, also=""):
    """The states named on the command line, as (file or None, label, State), loaded in order."""
    if not args.inputs and not args.moves:
        raise LabyrinthError(f"{command}: give {also}FILE... or --moves N:MOVES")
    states = [(None, text, sized_state(text, command, args.allow_large)) for text in args.moves]
    for item in args.inputs:
        states.extend((str(path), str(path), sized_file(path, command, args.allow_large)) for path in expand(item))
    return states


def _print_rows(rows, say):
    """One line per state, ``label: what it is``, whether one state or a folder of them was given."""
    width = max(len(r["label"]) for r in rows) + 1
    for r in rows:
        print(f"{r['label'] + ':':<{width}}  {say(r)}")


def _completions(row):
    return f"{row['completions']} completion{'' if row['completions'] == 1 else 's'}"


def _json_row(row):
    return {"file": row["file"]} | {k: v for k, v in row.items() if k not in ("label", "file")}


def _count(args):
    from labyrinth.engine import State
    from oracle.count import CompletionCounter

    if args.n is not None:
        if args.inputs or args.moves:
            raise LabyrinthError("count: give either -n N or states, not both")
        board = _board(args.n, "count", args.allow_large)
        t0 = time.perf_counter()
        total = CompletionCounter()(State(board))
        if args.json:
            emit({"n": board.n, "paths": total, "seconds": round(time.perf_counter() - t0, 3)})
        else:
            print(f"{board.n}x{board.n}: {total} corner-to-corner paths")
        return EXIT_OK
    counter = CompletionCounter()
    rows = []
    for file, label, state in _states(args, "count", also="-n N, "):
        rows.append({"label": label, "file": file, "state": state.compact(), "completions": counter(state)})
        if args.json:
            emit(_json_row(rows[-1]))
    if not args.json:
        _print_rows(rows, _completions)
    return EXIT_OK


def _rank(args):
    from oracle.count import CompletionCounter
    from oracle.rank import walkthrough_rank

    counter = CompletionCounter()
    rows = []
    for file, label, state in _states(args, "rank"):
        rank = walkthrough_rank(state, counter)
        rows.append({"label": label, "file": file, "state": state.compact(), "rank": rank,
                     "completions": counter(state), "complete": state.is_complete()})
        if args.json:
            emit(_json_row(rows[-1]))
    if not args.json:
        _print_rows(rows, lambda r: f"walkthrough number {r['rank']} (keep-left order; {_completions(r)})")
    return EXIT_OK


def _unrank(args):
    from oracle.rank import walkthrough_unrank

    board = _board(args.n, "unrank", args.allow_large)
    text = args.number.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 4000:
        raise LabyrinthError("a walkthrough number is a non-negative integer", token=args.number)
    state = walkthrough_unrank(board.n, int(text))
    if args.json:
        emit({"n": board.n, "number": int(text), "state": state.compact()})
    else:
        print(state.compact())
    return EXIT_OK


def _sample(args):
    from oracle.rank import sample_walkthrough

    board = _board(args.n, "sample", args.allow_large)
    number, state = sample_walkthrough(board.n, args.seed)
    if args.json:
        emit({"n": board.n, "seed": args.seed, "number": number, "state": state.compact()})
    else:
        print(state.compact())
        print(f"walkthrough {number}")
    return EXIT_OK
