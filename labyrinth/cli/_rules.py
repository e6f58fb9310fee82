"""``labyrinth explain | rules``: one state's blame, and reading, linting and mining rules."""

import argparse
import functools
import stat
import sys
from pathlib import Path

from labyrinth.cli._common import (
    EXIT_FINDING,
    EXIT_OK,
    RULES_HELP,
    advance,
    again,
    emit,
    note,
    progress_bar,
    rule_set,
    rules_args,
    rules_label,
    sized_file,
    sized_state,
    stop_message,
    writable_output,
    write_text,
)
from labyrinth.cli._limits import MAX_N, file_name, positive_int, seconds, size_args
from labyrinth.cli._limits import seed as seed_arg
from labyrinth.errors import LabyrinthError


def register(sub):
    """Add this module's subcommands to the ``labyrinth`` parser."""
    explain = sub.add_parser("explain", help="one state: its drawing, future lines, and which rule closed each move")
    explain.add_argument("input", nargs="?", metavar="FILE", help="a research path file")
    explain.add_argument("--moves", metavar="N:MOVES", help="a state in compact notation")
    rules_args(explain)
    explain.add_argument("--json", action="store_true",
                         help="one JSON object: the moves, who closed each and its certificate (labyrinth certify "
                              "reads it)")
    explain.add_argument("--certify", action=argparse.BooleanOptionalAction, default=None,
                         help="give each closed move its certificate: why it is dead, step by step, checked "
                              "(default: for a set of sound rules such as strong)")
    explain.add_argument("--svg", type=file_name, metavar="FILE",
                         help="draw the closed moves' certificates here: a panel per step (implies --certify)")
    size_args(explain, "explain")
    explain.set_defaults(run=_explain)
    rules = sub.add_parser("rules", help="list, show, lint or mine rules")
    rsub = rules.add_subparsers(dest="rules_command", required=True)
    rlist = rsub.add_parser("list", help="the rules of a rule set, in the order they are asked")
    rules_args(rlist)
    rlist.set_defaults(run=_rules_list)
    rshow = rsub.add_parser("show", help="one rule: what it does, and its drawing for pattern rules")
    rshow.add_argument("name")
    rules_args(rshow)
    rshow.set_defaults(run=_rules_show)
    rlint = rsub.add_parser("lint", help="check rule files: syntax (one line per rule, or the first error) and "
                                         "soundness on every board (exit 1 when a rule is not proved sound)",
                            description="Check each rule's syntax, then whether it is sound on every board. Exit "
                                        "status 0 when every rule is proved sound (or with --no-soundness, when "
                                        "the syntax is right), 1 when some rule is not proved sound, 2 for a file "
                                        "that does not parse.")
    rlint.add_argument("files", nargs="+", metavar="FILE")
    rlint.add_argument("--no-soundness", action="store_true",
                       help="check the syntax only (by default each rule's window is also checked for soundness "
                            "on every board, by SAT in the open plane)")
    rlint.add_argument("--strict", action="store_true", help=argparse.SUPPRESS)  # the default now
    rlint.add_argument("--time-limit", type=seconds, default=30.0, metavar="SECONDS", help="per soundness query")
    rlint.set_defaults(run=_rules_lint)
    rmine = rsub.add_parser("mine", help="mine sound pattern rules from the stuck cases of an exhaustive run")
    rmine.add_argument("-n", type=positive_int(MAX_N), required=True, help="board size; exhaustive, so 5 or 7")
    rmine.add_argument("--rules", default="universal", help=RULES_HELP)
    rmine.add_argument("--radius", type=positive_int(3), default=3, help="window radius around the head (1-3)")
    rmine.add_argument("-o", "--output", type=file_name, metavar="FILE",
                       help="write the rule file here (default: stdout)")
    rmine.add_argument("--no-progress", action="store_true")
    rmine.set_defaults(run=_rules_mine, stoppable=True)
    rlearn = rsub.add_parser("learn", help="rounds of walks -> missed-dead findings -> minimal patterns -> rules "
                                           "proved sound on every board, measured again")
    rlearn.add_argument("-n", required=True, metavar="N[,N...]", help="board sizes walked every round, e.g. 9,11,13")
    rlearn.add_argument("--rules", default="default", help=RULES_HELP + " (the set learning starts from)")
    rlearn.add_argument("--rounds", type=positive_int(1000), default=3)
    rlearn.add_argument("--walks", type=positive_int(10 ** 7), default=400, help="walks per size per round")
    rlearn.add_argument("--seed", type=seed_arg, default=0)
    rlearn.add_argument("--budget", type=seconds, default=None, metavar="SECONDS",
                        help="time for deciding one round's findings; past it the run stops (continue with --resume)")
    rlearn.add_argument("--time-limit", type=seconds, default=30.0, metavar="SECONDS",
                        help="per minimal pattern and per soundness query")
    rlearn.add_argument("-o", "--output", type=file_name, metavar="FILE", required=True, help="the rule file to write")
    rlearn.add_argument("--store", type=file_name, metavar="FILE",
                        help="the run's units, for --resume (default: OUTPUT.units.jsonl)")
    rlearn.add_argument("--resume", action="store_true", help="continue the run stored in --store")
    rlearn.add_argument("--jobs", type=positive_int(256), default=1, metavar="J",
                        help="worker processes deciding the findings (the same rules as one)")
    rlearn.add_argument("--no-progress", action="store_true")
    rlearn.set_defaults(run=_rules_learn, stoppable=True)


def _explain(args):
    from labyrinth.engine.text import draw
    from labyrinth.rules import future_lines

    if (args.input is None) == (args.moves is None):
        raise LabyrinthError("explain: give exactly one of FILE or --moves N:MOVES")
    if args.svg:
        writable_output(args.svg)
    state = (sized_state(args.moves, "explain", args.allow_large) if args.moves
             else sized_file(Path(args.input), "explain", args.allow_large))
    rules = rule_set(args)
    lines = future_lines(state)
    moves = {}
    if rules.explains:
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
    certify = args.certify if args.certify is not None else (rules.sound or bool(args.svg))
    certificates = {}
    if certify:
        from verify.certificates import closed_certificates

        certificates = closed_certificates(state, rules, [m for m, info in moves.items() if not info["open"]])
        for m, cert in certificates.items():
            moves[m]["certificate"] = cert
    if args.svg:
        from labyrinth.view.certificate import render_certificates

        write_text(args.svg, render_certificates(state, list(certificates.items())),
                   f"the certificates of {len(certificates)} closed move{'' if len(certificates) == 1 else 's'}")
    xy = state.board.xy
    if args.json:
        emit({"state": state.compact(), "rules": rules_label(rules, args), "moves": moves,
               "future_lines": [[xy(c) for c in piece] for piece in lines.pieces],
               "future_dead": lines.dead, "future_cells": [xy(c) for c in lines.cells]})
        return EXIT_OK
    marks = {c: "+" for piece in lines.pieces for c in piece if not state.taken[c]}
    print(draw(state, marks))
    print(f"rules: {rules_label(rules, args)}   ('+' marks future lines: forced pieces of line)")
    for m, info in moves.items():
        if info["open"]:
            print(f"  {m}: open")
        for e in info["by"]:
            cells = " ".join(f"({x},{y})" for x, y in e.get("cells", ()))
            how = "closed by a force of" if e.get("kind") == "force" else "disabled by"
            print(f"  {m}: {how} {e['rule']}" + (f" at {cells}" if cells else ""))
        if m in certificates:
            _print_certificate(state, m, certificates[m])
    if lines.dead:
        cells = " ".join(f"({x},{y})" for x, y in (xy(c) for c in lines.cells))
        print(f"future lines: dead: {lines.dead} at {cells}")
    return EXIT_OK


def _print_certificate(state, move, cert):
    from verify.certificates import sentences

    if cert is None:
        print(f"  {move}: no certificate: the builder finds no contradiction after it")
        return
    steps = len(cert["steps"])
    print(f"  {move}: why, in {steps} step{'' if steps == 1 else 's'} (a certificate the checker accepts):")
    for line in sentences(state, move, cert):
        print(f"       {line}")


def _rules_list(args):
    rules = rule_set(args)
    if rules.command is not None:
        info = rules.info
        print(f"{rules.name}: an external engine (version {info.version or '-'}, sizes {info.sizes_text()}, "
              f"{'batches' if info.batch else 'one state per request'}): {rules.command}; its rules are "
              "named in its answers")
        return EXIT_OK
    if rules.perfect:
        print(f"{rules.name}: a move is open only if the oracle finds a completion after it")
        return EXIT_OK
    width = max([len(r.name) for r in rules.rules] + [4])
    for r in rules.rules:
        state = "off" if r.name in rules.off else "on"
        sizes = r.spec.sizes if r.spec is not None else "all"
        reach = getattr(r, "reach", None)  # the area rules' (program.py asks ``hasattr(rule, "reach")``)
        about = r.summary + (f" [reach: {reach}]" if reach else "")
        print(f"{r.name:<{width}}  {state:<3}  {r.kind:<7}  sizes {sizes:<6}  {about}".rstrip())
    for line in _set_notes(rules):
        print(line)
    return EXIT_OK


def _set_notes(rules):
    """What a user comparing rule sets must know: where patterns apply, and local against global reach."""
    specs = [r.spec for r in rules.active if r.spec is not None]
    out = []
    if specs:
        sizes = sorted({n for s in specs for n in range(max(3, s.nmin), min(s.nmax, 99) + 1, 2)})
        shown = ", ".join(f"{n}x{n}" for n in sizes[:6]) + (", ..." if len(sizes) > 6 else "")
        if len(sizes) <= 6:
            out.append(f"note: the {len(specs)} pattern rules apply only on {shown}: on every other size "
                       f"this set asks the same rules as universal")
        else:
            out.append(f"note: the {len(specs)} pattern rules apply on {shown}")
    reaches = {getattr(r, "reach", None) for r in rules.active} - {None}
    closure = any(r.name == "closure" for r in rules.active)
    if reaches == {"local"} and closure:
        out.append("note: area rules with local reach: a step is checked only where it touches a wall or the "
                   "line; with the closure after them the walks are those of the global reach")
    elif reaches == {"local"}:
        out.append("note: area rules with local reach: a step is checked only where it touches a wall or the "
                   "line (as in the study): much faster than global reach, and weaker (lets dead moves through)")
    elif reaches == {"global"}:
        out.append("note: area rules with global reach: the whole board's areas are checked at every step")
    return out


def _rules_show(args):
    from labyrinth.rules.language import LEGEND

    rules = rule_set(args)
    for r in rules.rules:
        if r.name == args.name:
            spec = r.spec
            print(f"{r.name}: {r.kind}; {r.summary or '(no description)'}")
            if spec is None:
                reach = getattr(r, "reach", None)
                print(f"universal rule, code in {type(r).__module__}" + (f"; reach {reach}" if reach else ""))
            else:
                rot = {(): "no", ("left",): "left", ("right",): "right", ("left", "right"): "both"}[spec.rotate]
                print(f"sizes {spec.sizes}; mirror {'yes' if spec.mirror else 'no'}; rotate {rot}; "
                      f"from {spec.source}:{spec.line}")
                for row in spec.grid:
                    print("  " + row)
                print(LEGEND)
            return EXIT_OK
    raise LabyrinthError(f"no such rule in {rules.name}", token=args.name)


def _rules_lint(args):
    from labyrinth.rules import load_rules
    from labyrinth.rules.sets import check_names
    from oracle.sat import SatOracle
    from verify.soundness import rule_soundness

    specs = [(path, spec) for path in args.files for spec in load_rules(path)]  # every file parses, or one error
    for path in args.files:
        check_names([spec for p, spec in specs if p == path], path)
    unproved = 0
    with SatOracle() as sat:
        for path, spec in specs:
            line = (f"{path}:{spec.line}: {spec.name}: ok ({spec.kind}, sizes {spec.sizes}, "
                    f"{len(spec.cells)} conditions)")
            if not args.no_soundness:
                verdicts = rule_soundness(spec, sat, time_limit=args.time_limit)
                doubtful = [v for v in verdicts if v.sound is not True]
                unproved += bool(doubtful)
                if not doubtful:
                    line += "; sound on every board (no way on after the closed move, in the open plane)"
                else:
                    moves = ", ".join(v.move + (" (timed out)" if v.sound is None else "") for v in doubtful)
                    line += (f"; NOT proved sound: after the {moves} move a way on exists in the open plane "
                             f"(sound at most on its sizes: 'labyrinth audit --rules {path}' checks it)")
            print(line)
    return EXIT_FINDING if unproved else EXIT_OK


def _rules_mine(args):
    from labyrinth.engine.board import Board
    from labyrinth.rules.mining import format_rules, mine

    Board(args.n)
    if args.n > 7:
        raise LabyrinthError("rules mine audits every walk of the board: sizes 3, 5 and 7 (9x9 alone would take "
                             "days)", source=f"-n {args.n}")
    if not 1 <= args.radius <= 3:
        raise LabyrinthError("--radius must be 1, 2 or 3", token=str(args.radius))
    rules = rule_set(args)
    if not rules.compiled():
        raise LabyrinthError("mining needs a compiled base rule set (not oracle)", token=args.rules)
    if args.output:
        writable_output(args.output)  # before the mining: a bad path must not cost the work
    from labyrinth.jobs.pool import WorkerPool

    if not args.no_progress:
        note(f"labyrinth: rules mine: enumerating every {args.n}x{args.n} walk under {rules.name}, then "
             "generalising each dead move...")
    try:
        with WorkerPool(1) as pool:  # one long compiled call: in a worker, so that Ctrl-C ends it at once
            mined = pool.call(functools.partial(mine, radius=args.radius), args.n, rules)
    except KeyboardInterrupt as stop:
        raise stop_message(stop, "nothing stored (rules mine writes its rules at the end)") from None
    side = 2 * args.radius + 1
    header = (f"# mined by `labyrinth rules mine -n {args.n} --radius {args.radius} --rules {args.rules}`\n"
              f"# {mined.dead} distinct {side}x{side} windows of topmost dead moves (a dead move the rules leave "
              "open, first on its branch, seen around the head), "
              f"{mined.covered} covered by {len(mined.specs)} rules, {mined.inseparable} not separable within "
              f"radius {args.radius}")
    text = format_rules(mined.specs, header)
    if args.output:
        write_text(args.output, text)
    else:
        sys.stdout.write(text)
    note(f"{len(mined.specs)} rules cover {mined.covered} of {mined.dead} distinct dead-move windows "
         f"({mined.inseparable} inseparable at radius {args.radius}): each is the {side}x{side} window round the "
         f"head of one or more topmost dead moves the {rules_label(rules, args)} rules leave open on some "
         f"{args.n}x{args.n} walk (an audit counts every such move, each state once)")
    return EXIT_OK


def _rules_learn(args):
    from labyrinth.cli._common import board_sizes
    from labyrinth.files import file_kind, file_status
    from verify.learn import format_learned, learn
    from verify.learn_units import UnitStore, stored_units

    sizes = board_sizes(args.n, "rules learn", False)
    rule_set(args)  # a bad base set is a one-line error before any work
    writable_output(args.output)
    status = file_status(args.output)
    if args.store is None and status is not None and not stat.S_ISREG(status.st_mode):
        raise LabyrinthError(f"not a regular file ({file_kind(status)}): rules learn keeps its run beside the rule "
                             "file (FILE.units.jsonl); write the rules to a regular file, or give --store",
                             source=args.output)
    store = args.store or f"{args.output}.units.jsonl"
    bars = {}

    def progress(event, **info):
        if event == "round":
            counts = ", ".join(f"{n}x{n}: {k}" for n, k in info["stuck"].items())
            note(f"round {info['round']}: {info['findings']} stuck walks to learn from ({counts} of {args.walks} "
                 f"walks per size)")
            bars["bar"] = progress_bar(info["findings"], unit="finding", desc=f"round {info['round']}",
                                       disable=args.no_progress)
        elif event == "finding":
            advance(bars["bar"], info["done"])
        elif event == "measured":
            if "bar" in bars:
                bars.pop("bar").close()
            figures = ", ".join(f"{n}x{n} {v['before']} -> {v['after']}" for n, v in info["sizes"].items())
            note(f"round {info['round']}: {info['new']} new rules ({info['rules']} in all); stuck walks before -> "
                 f"after: {figures}")

    try:
        with UnitStore(store, args.resume) as units:  # checked, and locked for this run, before any work
            learned = learn(sizes, base=args.rules, rounds=args.rounds, walks=args.walks, seed=args.seed,
                            store=units, budget=args.budget, time_limit=args.time_limit, progress=progress,
                            jobs=args.jobs)
    except KeyboardInterrupt as stop:
        for bar in bars.values():
            bar.close()
        raise stop_message(stop, f"{stored_units(store)} units (findings decided, rounds measured) stored in {store}; "
                            f"no rule file written", again(args, ["--resume"])) from None
    finally:
        for bar in bars.values():
            bar.close()
    command = "labyrinth rules learn " + " ".join(sys.argv[3:]) if len(sys.argv) > 3 else "labyrinth rules learn"
    write_text(args.output, format_learned(learned, command))
    note(f"wrote {len(learned.rules)} rules to {args.output}")
    if learned.unfinished:
        note(f"labyrinth: rules learn: {learned.unfinished}; continue with --resume --store {store}")
        return 3
    return EXIT_OK


