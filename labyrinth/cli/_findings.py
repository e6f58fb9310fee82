"""``labyrinth findings list | show``: read the findings store an audit wrote."""

from labyrinth.cli._common import EXIT_OK, emit, must_exist
from labyrinth.cli._limits import file_name, positive_int
from labyrinth.errors import LabyrinthError
from verify.audit import CLASSES
from verify.minimize import LEGEND


def register(sub):
    """Add ``findings`` to the ``labyrinth`` parser."""
    findings = sub.add_parser("findings", help="read the findings store")
    fsub = findings.add_subparsers(dest="findings_command", required=True)
    flist = fsub.add_parser("list", help="findings, one per line (or campaigns / patterns)")
    flist.add_argument("what", nargs="?", default="findings", choices=["findings", "campaigns", "patterns"])
    flist.add_argument("--db", type=file_name, default="labyrinth.db", metavar="FILE")
    flist.add_argument("--kind", metavar="KIND", help=f"only findings of this class: {', '.join(CLASSES)}")
    flist.add_argument("--campaign", type=positive_int(2 ** 62))
    flist.add_argument("--by", choices=["class", "none"], default="class",
                       help="group missed-dead findings by the class of argument that refutes them and the rule "
                            "family meant to catch it (default), or 'none': one flat list")
    flist.add_argument("--json", action="store_true")
    flist.set_defaults(run=_findings_list)
    fshow = fsub.add_parser("show", help="one finding in full, with its pattern drawn")
    fshow.add_argument("id", type=positive_int(2 ** 62))
    fshow.add_argument("--db", type=file_name, default="labyrinth.db", metavar="FILE")
    fshow.add_argument("--json", action="store_true")
    fshow.set_defaults(run=_findings_show)


def _findings_list(args):
    from verify.explain import explain_findings, group
    from verify.store import Store

    if args.kind is not None and args.kind not in CLASSES:
        raise LabyrinthError(f"no such class of finding (choose from {', '.join(CLASSES)})", source="--kind",
                             token=args.kind)
    must_exist(args.db)
    with Store(args.db, create=False) as store:
        if args.what == "campaigns":
            rows = store.campaigns()
            for r in rows:
                if args.json:
                    emit(r)
                else:
                    rules = r["rules"] or "-"  # (a knight-semimagic campaign has no rule set)
                    print(f"{r['id']:>4}  {r['kind']:<10}  rules {rules:<10}  {r['params']}  "
                          f"{'finished' if r['finished'] else 'unfinished'}")
            return EXIT_OK
        if args.what == "patterns":
            rows = store.patterns()
            if rows and not args.json:
                print(LEGEND)
            for r in rows:
                if args.json:
                    emit(r)
                else:
                    print(f"pattern {r['id']}: seen {r['count']} times, e.g. {r['example']}")
                    print("  " + r["drawing"].replace("\n", "\n  "))
            return EXIT_OK
        rows = explain_findings(store, store.findings(campaign=args.campaign, kind=args.kind))
        if args.json:
            for r in rows:
                e = r.pop("explained")
                r["explanation"] = None if e is None else e.to_json()
                emit(r)
            return EXIT_OK
        if args.by == "none":
            for r in rows:
                print(_finding_line(r))
            return EXIT_OK
        rule_sets = {c["id"]: c["rules"] for c in store.campaigns()}
        groups = group(rows)
        for (kind, family), members in groups.items():
            meant = ", ".join(_family_state(family, {rule_sets.get(r["campaign"]) for r in members})) or \
                "no universal rule (only a size-specific pattern rule or search)"
            print(f"{kind}: {len(members)} missed-dead findings; meant for {meant}")
            for r in members:
                print("  " + _finding_line(r))
        rest = [r for r in rows if r["explained"] is None]
        if rest and groups:
            print("other findings:")
        for r in rest:
            print(("  " if groups else "") + _finding_line(r))
    return EXIT_OK


def _finding_line(r):
    blame = ",".join(r["rules"]) or "-"
    e = r.get("explained")
    return (f"{r['id']:>5}  {r['kind']:<11}  {r['state']} {r['move']}  rules {blame}"
            + (f"  pattern {r['pattern']}" if r["pattern"] else "")
            + (f"  [{e.kind}: {e.text}]" if e is not None else ""))


def _family_state(family, rule_set_names):
    """Each rule of ``family``, marked when a campaign's rule set has it off or lacks it."""
    from labyrinth.rules import get_rule_set

    out = []
    for rule in family:
        missing = []
        for name in sorted(n for n in rule_set_names if n):
            try:
                rules = get_rule_set(name)
            except LabyrinthError:
                continue
            names = {r.name for r in rules.active}
            if rule not in names:
                missing.append(name)
        out.append(rule + (f" (off in {', '.join(missing)})" if missing else ""))
    return out


def _findings_show(args):
    from labyrinth.core.path import parse_path
    from labyrinth.core.text import numbered_grid
    from labyrinth.engine import State
    from labyrinth.engine.text import draw, legend
    from verify.store import Store

    must_exist(args.db)
    with Store(args.db, create=False) as store:
        r = store.finding(args.id)
    state = parse_path(r["state"], source=f"finding {args.id}")
    why = None
    if r["kind"] == "missed-dead" and isinstance(state, State):
        from verify.certificates import quote

        why = quote(state, r["move"])
    if args.json:
        emit(r if why is None else {**r, "strong": why})
        return EXIT_OK
    print(f"finding {r['id']}: {r['kind']} at {r['state']}, move {r['move']} (campaign {r['campaign']}, {r['unit']})")
    print(f"blamed: {', '.join(r['rules']) or '-'}" + (f" at {r['cells']}" if r["cells"] else ""))
    marks = {state.board.step(state.head, r["move"]): "x"}
    print(draw(state, marks) if isinstance(state, State) else numbered_grid(state, marks))
    print(legend({"x": "the move"}))
    if r["witness"]:
        print(f"witness: {r['witness']}")
    if r["stuck_step"] is not None:
        print(f"the walk got stuck at step {r['stuck_step']}")
    if r["checked_by"]:
        print(f"confirmed by: {r['checked_by']}")
    elif r["kind"] != "unknown":
        print("unconfirmed: the second backend ran out of time; the finding rests on the first oracle")
    if r["pattern"]:
        p = r["pattern"]
        print(f"minimal stuck pattern {p['id']} (seen {p['count']} times):")
        print(p["drawing"])
        print(LEGEND)
    elif r["kind"] in ("missed-dead", "wrong-force"):
        print(f"no minimal pattern stored: 'labyrinth minimize --finding {r['id']} --db {args.db}' adds it")
    if why is not None:
        _print_why(why)
    return EXIT_OK


def _print_why(why):
    """The sound sets' reason for a missed-dead move: its certificate in words, or that it has none."""
    from verify.certificates import quote_text

    if why["certificate"] is None:
        print(f"why it is dead: {quote_text(why)}")
        return
    k = len(why["certificate"]["steps"])
    print(f"why it is dead: {why['rules']} closes this move; its certificate ({k} step{'' if k == 1 else 's'}, "
          "checked):")
    for line in why["words"]:
        print(f"  {line}")
