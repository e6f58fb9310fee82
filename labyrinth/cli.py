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
    _rules_args(walk)
    walk.add_argument("--seed", type=int, default=0)
    walk.add_argument("--json", action="store_true")
    walk.set_defaults(run=_walk)

    enum = sub.add_parser("enumerate", help="every walk in keep-left order: walkthroughs and stuck leaves")
    enum.add_argument("-n", type=int, help="board size (odd, >= 3), from the start")
    enum.add_argument("--from", dest="prefix", metavar="N:MOVES", help="enumerate below a saved prefix")
    _rules_args(enum)
    enum.add_argument("--json", action="store_true")
    enum.add_argument("--no-progress", action="store_true")
    enum.set_defaults(run=_enumerate)

    stats = sub.add_parser("stats", help="the study's statistic: walkthroughs completed before the first stuck walk")
    stats.add_argument("-n", required=True, metavar="N[,N...]", help="board sizes, e.g. 9,11,13")
    stats.add_argument("--runs", type=int, default=1000, help="runs per size (the study used 1000)")
    _rules_args(stats)
    stats.add_argument("--seed", type=int, default=0)
    stats.add_argument("--cap", type=int, default=100_000, metavar="K",
                       help="stop a run after K walkthroughs (counted as K, reported as censored)")
    stats.add_argument("--json", action="store_true")
    stats.add_argument("--no-progress", action="store_true")
    stats.set_defaults(run=_stats)

    explain = sub.add_parser("explain", help="one state: its drawing, future lines, and which rule closed each move")
    explain.add_argument("input", nargs="?", metavar="FILE", help="a research path file")
    explain.add_argument("--moves", metavar="N:MOVES", help="a state in compact notation")
    _rules_args(explain)
    explain.add_argument("--json", action="store_true")
    explain.set_defaults(run=_explain)

    audit = sub.add_parser("audit", help="audit a rule set against the oracle: over-pruned, missed dead, wrong force")
    audit.add_argument("-n", type=int, help="board size (odd, >= 3)")
    _rules_args(audit)
    how = audit.add_mutually_exclusive_group()
    how.add_argument("--exhaustive", action="store_true", help="every walk in keep-left order")
    how.add_argument("--walks", type=int, metavar="K", help="K seeded random walks")
    audit.add_argument("--seed", type=int, default=0)
    audit.add_argument("--jobs", type=int, default=1, metavar="J", help="local worker processes")
    audit.add_argument("--db", default="labyrinth.db", metavar="FILE", help="findings store (default ./labyrinth.db)")
    audit.add_argument("--resume", action="store_true", help="continue the last campaign with these parameters")
    audit.add_argument("--split", type=int, metavar="D", help="exhaustive: cut the tree into subtrees at D moves")
    audit.add_argument("--time-limit", type=float, default=60.0, metavar="SECONDS", help="per oracle query")
    audit.add_argument("--no-patterns", action="store_true", help="skip minimal stuck patterns (faster)")
    audit.add_argument("--json", action="store_true", help="one JSON object per finding, then the totals")
    audit.add_argument("--no-progress", action="store_true")
    audit.set_defaults(run=_audit)

    minimize = sub.add_parser("minimize", help="the minimal stuck pattern of a dead state (its first dead step)")
    minimize.add_argument("input", nargs="?", metavar="FILE", help="a research path file")
    minimize.add_argument("--moves", metavar="N:MOVES", help="a state in compact notation")
    minimize.add_argument("--rule", metavar="NAME", help="also print the pattern as a rule of the pattern language")
    minimize.add_argument("--time-limit", type=float, default=60.0, metavar="SECONDS")
    minimize.add_argument("--json", action="store_true")
    minimize.set_defaults(run=_minimize)

    findings = sub.add_parser("findings", help="read the findings store")
    fsub = findings.add_subparsers(dest="findings_command", required=True)
    flist = fsub.add_parser("list", help="findings, one per line (or campaigns / patterns)")
    flist.add_argument("what", nargs="?", default="findings", choices=["findings", "campaigns", "patterns"])
    flist.add_argument("--db", default="labyrinth.db", metavar="FILE")
    flist.add_argument("--kind", help="over-pruned, missed-dead, wrong-force or unknown")
    flist.add_argument("--campaign", type=int)
    flist.add_argument("--json", action="store_true")
    flist.set_defaults(run=_findings_list)
    fshow = fsub.add_parser("show", help="one finding in full, with its pattern drawn")
    fshow.add_argument("id", type=int)
    fshow.add_argument("--db", default="labyrinth.db", metavar="FILE")
    fshow.add_argument("--json", action="store_true")
    fshow.set_defaults(run=_findings_show)

    rules = sub.add_parser("rules", help="list, show, lint or mine rules")
    rsub = rules.add_subparsers(dest="rules_command", required=True)
    rlist = rsub.add_parser("list", help="the rules of a rule set, in the order they are asked")
    _rules_args(rlist)
    rlist.set_defaults(run=_rules_list)
    rshow = rsub.add_parser("show", help="one rule: what it does, and its drawing for pattern rules")
    rshow.add_argument("name")
    _rules_args(rshow)
    rshow.set_defaults(run=_rules_show)
    rlint = rsub.add_parser("lint", help="check rule files; one line per rule, or the first error")
    rlint.add_argument("files", nargs="+", metavar="FILE")
    rlint.set_defaults(run=_rules_lint)
    rmine = rsub.add_parser("mine", help="mine sound pattern rules from the stuck cases of an exhaustive run")
    rmine.add_argument("-n", type=int, required=True, help="board size; exhaustive, so 5 or 7")
    rmine.add_argument("--rules", default="universal", help="base rule set (default: universal)")
    rmine.add_argument("--radius", type=int, default=3, help="window radius around the head (1-3)")
    rmine.add_argument("-o", "--output", metavar="FILE", help="write the rule file here (default: stdout)")
    rmine.set_defaults(run=_rules_mine)
    return parser


def _rules_args(p):
    p.add_argument("--rules", default="default",
                   help="rule set: default, universal, none, oracle, or a .rule file (universal rules + its patterns)")
    p.add_argument("--off", default="", metavar="RULE[,RULE...]", help="switch these rules off")
    p.add_argument("--on", default="", metavar="RULE[,RULE...]",
                   help="switch these optional rules on (future-lines)")


def _rule_set(args):
    from labyrinth.rules import get_rule_set

    off = [r for r in getattr(args, "off", "").split(",") if r]
    on = [r for r in getattr(args, "on", "").split(",") if r]
    return get_rule_set(args.rules, off=off, on=on)


def _walk(args):
    from labyrinth.engine.walker import random_walk

    walk = random_walk(args.n, _rule_set(args), args.seed)
    if args.json:
        _emit({"state": walk.state.compact(), "outcome": walk.outcome, "stuck_step": walk.stuck_step})
    else:
        print(walk.state.compact())
        print(walk.outcome + ("" if walk.stuck_step is None else f" at step {walk.stuck_step}"))
    return EXIT_OK


def _enumerate(args):
    from labyrinth.engine import State, parse_state
    from labyrinth.engine.walker import enumerate_walks

    if (args.n is None) == (args.prefix is None):
        raise LabyrinthError("enumerate: give exactly one of -n N or --from N:MOVES")
    start = parse_state(args.prefix, source=args.prefix) if args.prefix else State.from_moves(args.n, "")
    rules = _rule_set(args)
    bar = _progress(None, disable=args.no_progress or args.json)
    bar.unit = "walkthrough"

    def progress(k):
        bar.n = k
        bar.refresh()

    result = enumerate_walks(start, rules, progress=progress)
    bar.close()
    out = {"start": start.compact(), "rules": rules.name, "walkthroughs": result.walkthroughs,
           "stuck": result.stuck, "nodes": result.nodes, "seconds": round(result.seconds, 3)}
    if args.json:
        _emit(out)
    else:
        print("  ".join(f"{k}: {v}" for k, v in out.items()))
    return EXIT_OK


def _stats(args):
    from labyrinth.engine.board import Board
    from labyrinth.engine.walker import STUDY_7X7_RULES, walk_statistics

    try:
        sizes = [int(v) for v in args.n.split(",") if v]
    except ValueError:
        raise LabyrinthError("board sizes must be odd integers separated by commas", token=args.n) from None
    for n in sizes:
        Board(n)
    if args.runs < 1 or args.cap < 1:
        raise LabyrinthError("--runs and --cap must be at least 1", token=f"{args.runs},{args.cap}")
    rules = _rule_set(args)
    rows = []
    for n in sizes:
        bar = _progress(args.runs, disable=args.no_progress or args.json)
        bar.unit = "run"
        bar.set_description(f"{n}x{n}")

        def progress(k, bar=bar):
            bar.n = k
            bar.refresh()

        st = walk_statistics(n, rules, args.runs, args.seed, cap=args.cap, progress=progress)
        bar.close()
        row = {"n": n, "rules": rules.name, "runs": st.runs, "mean": round(st.mean, 3), "ci95": [round(st.low, 3),
               round(st.high, 3)], "study": STUDY_7X7_RULES.get(n), "completion_rate": round(st.completion_rate, 4),
               "walks": st.walks, "censored": st.censored, "seconds": round(st.seconds, 2)}
        rows.append(row)
        if args.json:
            _emit(row)
    if not args.json:
        print(f"rules: {rules.name}, {args.runs} runs per size, seed {args.seed}")
        print(f"{'n':>3}  {'mean':>9}  {'95% CI':>19}  {'study':>6}  {'complete':>8}  {'walks':>9}  {'censored':>8}  "
              f"{'seconds':>7}")
        for r in rows:
            ci = f"{r['ci95'][0]:.2f}..{r['ci95'][1]:.2f}"
            study = "-" if r["study"] is None else f"{r['study']:.1f}"
            print(f"{r['n']:>3}  {r['mean']:>9.2f}  {ci:>19}  {study:>6}  {r['completion_rate']:>8.3f}  "
                  f"{r['walks']:>9}  {r['censored']:>8}  {r['seconds']:>7.1f}")
    return EXIT_OK


def _audit(args):
    from labyrinth.engine.board import Board
    from verify.audit import CLASSES
    from verify.campaign import run_campaign
    from verify.store import Store

    if args.n is None:
        raise LabyrinthError("audit: give -n N (and --exhaustive or --walks K)")
    Board(args.n)
    if not args.exhaustive and args.walks is None:
        raise LabyrinthError("audit: give --exhaustive or --walks K")
    if args.walks is not None and args.walks < 1 or args.jobs < 1:
        raise LabyrinthError("--walks and --jobs must be at least 1", token=f"{args.walks},{args.jobs}")
    rules = _rule_set(args)  # validates the names before any work
    off = tuple(r for r in args.off.split(",") if r)
    on = tuple(r for r in args.on.split(",") if r)
    bars = []

    def progress(done, total, totals):
        if not bars:  # made on the first unit, so an early error prints alone
            bars.append(_progress(total, disable=args.no_progress or args.json))
            bars[0].unit = "unit"
        bar = bars[0]
        bar.total = total
        bar.n = done
        share = totals.oracle_seconds / totals.seconds if totals.seconds else 0.0
        bar.set_postfix({k: totals.findings.get(k, 0) for k in CLASSES[:3]} | {"oracle": f"{share:.0%}"},
                        refresh=True)

    with Store(args.db) as store:
        campaign, totals, findings = run_campaign(
            store, n=args.n, rules_args=(args.rules, off, on), walks=args.walks, seed=args.seed,
            exhaustive=args.exhaustive, split=args.split, jobs=args.jobs, time_limit=args.time_limit,
            patterns=not args.no_patterns, resume=args.resume, progress=progress)
    for bar in bars:
        bar.close()
    if args.json:
        for f in findings:
            _emit(f.to_json())
        _emit({"campaign": campaign, "rules": rules.name, "totals": totals.to_json()})
        return EXIT_OK
    what = "exhaustive" if args.exhaustive else f"{args.walks} walks, seed {args.seed}"
    print(f"campaign {campaign} in {args.db}: {args.n}x{args.n}, rules {rules.name}, {what}")
    print(f"walkthroughs {totals.walkthroughs}, stuck {totals.stuck}, states audited {totals.steps}, "
          f"oracle queries {totals.queries}, {totals.seconds:.1f} s")
    print(f"{'class':<12} {'findings':>8}")
    for k in CLASSES:
        print(f"{k:<12} {totals.findings.get(k, 0):>8}")
    names = sorted(set(totals.fired) | set(totals.misfired))
    if names:
        width = max(len(r) for r in names)
        print(f"{'rule':<{width}} {'fired':>8} {'misfired':>8}")
        for r in names:
            print(f"{r:<{width}} {totals.fired.get(r, 0):>8} {totals.misfired.get(r, 0):>8}")
    return EXIT_OK


def _minimize(args):
    from labyrinth.engine import parse_state
    from labyrinth.engine.formats import load_trace
    from oracle import first_dead_step, get_oracle
    from verify.minimize import minimal_pattern

    if (args.input is None) == (args.moves is None):
        raise LabyrinthError("minimize: give exactly one of FILE or --moves N:MOVES")
    state = parse_state(args.moves, source=args.moves) if args.moves else _load_noting(load_trace, Path(args.input))
    with get_oracle("auto", time_limit=args.time_limit) as oracle:
        step, undecided = first_dead_step(state, oracle)
    label = args.moves or args.input
    if step is None:
        if undecided:
            print(f"labyrinth: {label}: the oracle timed out: status unknown", file=sys.stderr)
            return EXIT_UNKNOWN
        raise LabyrinthError("the line still has a completion: there is no stuck pattern", source=label)
    dead = state.prefix(step)
    pattern = minimal_pattern(dead, time_limit=args.time_limit)
    rule, rule_error = None, None
    if args.rule:
        try:
            rule = pattern.to_rule(args.rule)
        except LabyrinthError as err:
            rule_error = err  # the pattern is still printed: nothing computed is lost
    if args.json:
        _emit({"state": state.compact(), "first_dead_step": step, "dead_state": dead.compact(),
               "pattern": pattern.to_json(), "seconds": round(pattern.seconds, 3), "rule": rule,
               "rule_error": None if rule_error is None else str(rule_error)})
        return EXIT_BAD_INPUT if rule_error else EXIT_OK
    print(f"{dead.compact()}: dead since step {step}; minimal stuck pattern ({len(pattern.facts)} facts, "
          f"{pattern.seconds:.2f} s):")
    print(pattern.draw())
    print("(^ head moving up, # taken, B border, . must be visited, E the end, ? either)")
    if rule:
        print(rule, end="")
    if rule_error:
        print(f"labyrinth: no rule: {rule_error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK


def _findings_list(args):
    from verify.store import Store

    _must_exist(args.db)
    with Store(args.db) as store:
        if args.what == "campaigns":
            rows = store.campaigns()
            for r in rows:
                if args.json:
                    _emit(r)
                else:
                    print(f"{r['id']:>4}  {r['kind']:<10}  rules {r['rules']:<10}  {r['params']}  "
                          f"{'finished' if r['finished'] else 'unfinished'}")
            return EXIT_OK
        if args.what == "patterns":
            for r in store.patterns():
                if args.json:
                    _emit(r)
                else:
                    print(f"pattern {r['id']}: seen {r['count']} times, e.g. {r['example']}")
                    print("  " + r["drawing"].replace("\n", "\n  "))
            return EXIT_OK
        for r in store.findings(campaign=args.campaign, kind=args.kind):
            if args.json:
                _emit(r)
            else:
                blame = ",".join(r["rules"]) or "-"
                print(f"{r['id']:>5}  {r['kind']:<11}  {r['state']} {r['move']}  rules {blame}"
                      + (f"  pattern {r['pattern']}" if r["pattern"] else ""))
    return EXIT_OK


def _findings_show(args):
    from labyrinth.engine import parse_state
    from labyrinth.engine.text import draw
    from verify.store import Store

    _must_exist(args.db)
    with Store(args.db) as store:
        r = store.finding(args.id)
    if args.json:
        _emit(r)
        return EXIT_OK
    state = parse_state(r["state"], source=f"finding {args.id}")
    print(f"finding {r['id']}: {r['kind']} at {r['state']}, move {r['move']} (campaign {r['campaign']}, {r['unit']})")
    print(f"blamed: {', '.join(r['rules']) or '-'}" + (f" at {r['cells']}" if r["cells"] else ""))
    print(draw(state, {state.board.step(state.head, r["move"]): "x"}))
    if r["witness"]:
        print(f"witness: {r['witness']}")
    if r["stuck_step"] is not None:
        print(f"the walk got stuck at step {r['stuck_step']}")
    if r["checked_by"]:
        print(f"confirmed by: {r['checked_by']}")
    if r["pattern"]:
        p = r["pattern"]
        print(f"minimal stuck pattern {p['id']} (seen {p['count']} times):")
        print(p["drawing"])
    return EXIT_OK


def _must_exist(path):
    if not Path(path).exists():
        raise LabyrinthError("no findings store here (run labyrinth audit first)", source=path)


def _explain(args):
    from labyrinth.engine import parse_state
    from labyrinth.engine.formats import load_trace
    from labyrinth.engine.text import draw
    from labyrinth.rules import future_lines

    if (args.input is None) == (args.moves is None):
        raise LabyrinthError("explain: give exactly one of FILE or --moves N:MOVES")
    state = parse_state(args.moves, source=args.moves) if args.moves else _load_noting(load_trace, Path(args.input))
    rules = _rule_set(args)
    lines = future_lines(state)
    moves = {}
    if hasattr(rules, "decide"):
        decision = rules.decide(state)
        for m in state.open_moves():
            blame = decision.disabled.get(m, ())
            moves[m] = {"open": m in decision.open,
                        "by": [{"rule": e.rule, "kind": e.kind, "cells": [state.board.xy(c) for c in e.cells]}
                               for e in blame]}
    else:
        open_now = rules.open_moves(state)
        moves = {m: {"open": m in open_now, "by": [] if m in open_now else [{"rule": rules.name}]}
                 for m in state.open_moves()}
    xy = state.board.xy
    if args.json:
        _emit({"state": state.compact(), "rules": rules.name, "moves": moves,
               "future_lines": [[xy(c) for c in piece] for piece in lines.pieces],
               "future_dead": lines.dead, "future_cells": [xy(c) for c in lines.cells]})
        return EXIT_OK
    marks = {c: "+" for piece in lines.pieces for c in piece if not state.taken[c]}
    print(draw(state, marks))
    print(f"rules: {rules.name}   ('+' marks future lines: forced pieces of line)")
    for m, info in moves.items():
        if info["open"]:
            print(f"  {m}: open")
        for e in info["by"]:
            cells = " ".join(f"({x},{y})" for x, y in e.get("cells", ()))
            how = "closed by a force of" if e.get("kind") == "force" else "disabled by"
            print(f"  {m}: {how} {e['rule']}" + (f" at {cells}" if cells else ""))
    if lines.dead:
        cells = " ".join(f"({x},{y})" for x, y in (xy(c) for c in lines.cells))
        print(f"future lines: dead: {lines.dead} at {cells}")
    return EXIT_OK


def _rules_list(args):
    rules = _rule_set(args)
    inner = getattr(rules, "rules", None)
    if inner is None:
        print(f"{rules.name}: a move is open only if the oracle finds a completion after it")
        return EXIT_OK
    width = max([len(r.name) for r in inner] + [4])
    for r in inner:
        state = "off" if r.name in rules.off else "on"
        kind = getattr(r, "kind", "")
        spec = getattr(r, "spec", None)
        sizes = spec.sizes if spec is not None else "all"
        print(f"{r.name:<{width}}  {state:<3}  {kind:<7}  sizes {sizes:<6}  {getattr(r, 'summary', '')}".rstrip())
    return EXIT_OK


def _rules_show(args):
    rules = _rule_set(args)
    for r in getattr(rules, "rules", ()):
        if r.name == args.name:
            spec = getattr(r, "spec", None)
            print(f"{r.name}: {r.kind}; {getattr(r, 'summary', '') or '(no description)'}")
            if spec is None:
                print(f"universal rule, code in {type(r).__module__}")
            else:
                rot = {(): "no", ("left",): "left", ("right",): "right", ("left", "right"): "both"}[spec.rotate]
                print(f"sizes {spec.sizes}; mirror {'yes' if spec.mirror else 'no'}; rotate {rot}; "
                      f"from {spec.source}:{spec.line}")
                for row in spec.grid:
                    print("  " + row)
            return EXIT_OK
    raise LabyrinthError(f"no such rule in {rules.name}", token=args.name)


def _rules_lint(args):
    from labyrinth.rules import load_rules

    for path in args.files:
        for spec in load_rules(path):
            print(f"{path}:{spec.line}: {spec.name}: ok ({spec.kind}, sizes {spec.sizes}, "
                  f"{len(spec.cells)} conditions)")
    return EXIT_OK


def _rules_mine(args):
    from labyrinth.engine.board import Board
    from labyrinth.rules.mining import format_rules, mine

    Board(args.n)
    if not 1 <= args.radius <= 3:
        raise LabyrinthError("--radius must be 1, 2 or 3", token=str(args.radius))
    rules = _rule_set(args)
    if not getattr(rules, "compiled", lambda: False)():
        raise LabyrinthError("mining needs a compiled base rule set (not oracle)", token=args.rules)
    mined = mine(args.n, rules, radius=args.radius)
    header = (f"# mined by `labyrinth rules mine -n {args.n} --radius {args.radius} --rules {args.rules}`\n"
              f"# {mined.dead} topmost dead moves, {mined.covered} covered by {len(mined.specs)} rules, "
              f"{mined.inseparable} not separable within radius {args.radius}")
    text = format_rules(mined.specs, header)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    print(f"{len(mined.specs)} rules cover {mined.covered} of {mined.dead} dead moves "
          f"({mined.inseparable} inseparable at radius {args.radius})", file=sys.stderr)
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
