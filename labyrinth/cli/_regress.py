"""``labyrinth regress``: what a rule edit fixed and broke, on the same walks and states."""

from labyrinth.cli._common import (
    EXIT_FINDING,
    EXIT_OK,
    advance,
    board_sizes,
    emit,
    engine_rules,
    progress_bar,
)
from labyrinth.cli._limits import file_name, positive_int, seconds, seed, size_args
from labyrinth.engine_protocol.client import ENGINE_TIMEOUT
from labyrinth.errors import LabyrinthError
from labyrinth.files import file_status
from labyrinth.rules import RULE_SETS
from oracle.registry import backend_names


def register(sub):
    """Add ``regress`` to the ``labyrinth`` parser."""
    regress = sub.add_parser("regress", help="compare two rule sets on the same walks: findings fixed, new, unchanged "
                                             "(exit 1 when the head adds over-pruned or missed-dead findings)")
    for side in ("base", "head"):
        regress.add_argument(f"--{side}", metavar="SET",
                             help=f"the {side} rule set: {', '.join(RULE_SETS)}, a .rule file or "
                                  "engine:CMD")
        regress.add_argument(f"--{side}-engine", metavar="CMD",
                             help=f"the {side} rules are an external engine's (its command line; "
                                  "docs/engine-protocol.md)")
        regress.add_argument(f"--{side}-off", default="", metavar="RULE[,RULE...]",
                             help=f"switch these rules off in the {side} set")
        regress.add_argument(f"--{side}-on", default="", metavar="RULE[,RULE...]",
                             help=f"switch these optional rules on in the {side} set")
    regress.add_argument("-n", default="7,9,11", metavar="N[,N...]", help="board sizes (default 7,9,11)")
    regress.add_argument("--walks", type=positive_int(10 ** 9), default=100, metavar="K", help="seeded walks per size and set")
    regress.add_argument("--seed", type=seed, default=0)
    regress.add_argument("--db", type=file_name, default="labyrinth.db", metavar="FILE",
                         help="also audit the states of the findings in this store (default ./labyrinth.db, read "
                              "when it exists; the output says which store and how many states)")
    regress.add_argument("--backend", default="auto", metavar="ORACLE",
                         help=f"the oracle: {backend_names()}")
    regress.add_argument("--time-limit", type=seconds, default=60.0, metavar="SECONDS", help="per oracle query")
    regress.add_argument("--engine-timeout", type=seconds, default=ENGINE_TIMEOUT, metavar="SECONDS",
                         help="seconds an external engine may take per request (default %(default)g)")
    regress.add_argument("--json", action="store_true")
    regress.add_argument("--no-progress", action="store_true")
    size_args(regress, "regress")
    regress.set_defaults(run=_regress)


def _side(args, side):
    from labyrinth.rules import get_rule_set

    name, command = getattr(args, side), getattr(args, f"{side}_engine")
    if (name is None) == (command is None):
        raise LabyrinthError(f"give exactly one of --{side} SET and --{side}-engine CMD")
    if command is not None:
        name = engine_rules("default", command)
    off = [r for r in getattr(args, f"{side}_off").split(",") if r]
    on = [r for r in getattr(args, f"{side}_on").split(",") if r]
    label = name + "".join(f" --off {r}" for r in off) + "".join(f" --on {r}" for r in on)
    rules = get_rule_set(name, off=off, on=on, engine_timeout=args.engine_timeout)
    rules.start()  # an external engine's bad command fails here, before any work
    return rules, label


def _regress(args):
    from oracle import get_oracle
    from verify.regress import regress
    from verify.store import Store

    sizes = board_sizes(args.n, "regress", args.allow_large)
    if args.walks < 1:
        raise LabyrinthError("give at least one size and --walks of at least 1", token=f"{args.n} {args.walks}")
    base, base_label = _side(args, "base")
    head, head_label = _side(args, "head")
    stored = []
    if file_status(args.db) is not None:
        with Store(args.db, create=False) as store:  # the labyrinth's states on these sizes (not other puzzles')
            stored = sorted({r["state"] for r in store.findings()
                             if r["state"].split(":", 1)[0].isdigit() and int(r["state"].split(":", 1)[0]) in sizes})
    bar = progress_bar(None, unit="walk", disable=args.no_progress or args.json)

    def progress(done, total):
        advance(bar, done, total)

    try:
        with get_oracle(args.backend, time_limit=args.time_limit) as oracle:
            report = regress(base, head, sizes, args.walks, args.seed, oracle, stored_states=stored,
                             progress=progress)
    finally:
        bar.close()
        for rules in (base, head):
            rules.close()
    report.base, report.head = base_label, head_label
    status = EXIT_FINDING if report.regressed else EXIT_OK
    if args.json:
        emit(report.to_json() | {"db": args.db if file_status(args.db) is not None else None,
                                 "stored_states": len(stored)})
        return status
    print(f"regress: base {base_label}; head {head_label}; sizes {args.n}; {args.walks} walks per size, "
          f"seed {args.seed}; {report.states} states audited under both")
    print(f"stored findings: {_stored_line(args, stored)}")
    d = report.diff
    for what, key in (("only in the base", "only_base"), ("only in the head", "only_head"),
                      ("changed", "changed")):
        if d[key]:
            names = d[key][:8] + ([f"and {len(d[key]) - 8} more (--json lists all)"] if len(d[key]) > 8 else [])
            print(f"{len(d[key])} rules {what}: {', '.join(names)}")
    print(f"{'n':>3}  {'walkthroughs base/head':>22}  {'walks/s base/head':>19}")
    for r in report.per_size:
        counts = f"{r['base_walkthroughs']}/{r['head_walkthroughs']} of {r['walks']}"
        speed = f"{r['base_walks_per_second']}/{r['head_walks_per_second']}"
        print(f"{r['n']:>3}  {counts:>22}  {speed:>19}")
    print(f"{'class':<12} {'fixed':>6} {'new':>6} {'unchanged':>9}")
    for kind, c in report.classes.items():
        print(f"{kind:<12} {c['fixed']:>6} {c['new']:>6} {c['unchanged']:>9}")
    for title, items in (("new in the head", report.new), ("fixed by the head", report.fixed)):
        if items:
            print(f"{title}:")
            for f, names in items[:20]:
                print(f"  {f.kind:<11} {f.state} {f.move}  rules {', '.join(names) or '-'}")
            if len(items) > 20:
                print(f"  ... and {len(items) - 20} more (--json lists all)")
    if report.regressed:
        blamed = ", ".join(f"{r} ({k})" for r, k in report.blamed().most_common()) or "-"
        print(f"REGRESSION: the head adds over-pruned or missed-dead findings; rules behind them: {blamed}")
    else:
        print("no regression: the head adds no over-pruned or missed-dead finding")
    return status


def _stored_line(args, stored):
    """Which findings store regress read (by default ./labyrinth.db, which a user may not know is read)."""
    default = args.db == "labyrinth.db"
    where = f"./{args.db} (the default --db)" if default else args.db
    if file_status(args.db) is None:
        return f"none: no store at {where}; only the walks' states"
    return f"the {len(stored)} states of its findings on these sizes, from {where}, audited too"
