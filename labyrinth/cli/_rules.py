"""``labyrinth explain | rules``: one state's blame, and reading, linting and mining rules."""

import sys
from pathlib import Path

from labyrinth.cli._common import (
    EXIT_OK,
    emit,
    load_noting,
    rule_set,
    rules_args,
)
from labyrinth.errors import LabyrinthError


def register(sub):
    """Add this module's subcommands to the ``labyrinth`` parser."""
    explain = sub.add_parser("explain", help="one state: its drawing, future lines, and which rule closed each move")
    explain.add_argument("input", nargs="?", metavar="FILE", help="a research path file")
    explain.add_argument("--moves", metavar="N:MOVES", help="a state in compact notation")
    rules_args(explain)
    explain.add_argument("--json", action="store_true")
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
    rlint = rsub.add_parser("lint", help="check rule files; one line per rule, or the first error")
    rlint.add_argument("files", nargs="+", metavar="FILE")
    rlint.set_defaults(run=_rules_lint)
    rmine = rsub.add_parser("mine", help="mine sound pattern rules from the stuck cases of an exhaustive run")
    rmine.add_argument("-n", type=int, required=True, help="board size; exhaustive, so 5 or 7")
    rmine.add_argument("--rules", default="universal", help="base rule set (default: universal)")
    rmine.add_argument("--radius", type=int, default=3, help="window radius around the head (1-3)")
    rmine.add_argument("-o", "--output", metavar="FILE", help="write the rule file here (default: stdout)")
    rmine.set_defaults(run=_rules_mine)


def _explain(args):
    from labyrinth.engine import parse_state
    from labyrinth.engine.formats import load_trace
    from labyrinth.engine.text import draw
    from labyrinth.rules import future_lines

    if (args.input is None) == (args.moves is None):
        raise LabyrinthError("explain: give exactly one of FILE or --moves N:MOVES")
    state = parse_state(args.moves, source=args.moves) if args.moves else load_noting(load_trace, Path(args.input))
    rules = rule_set(args)
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
        emit({"state": state.compact(), "rules": rules.name, "moves": moves,
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
    rules = rule_set(args)
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
    rules = rule_set(args)
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
    rules = rule_set(args)
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
