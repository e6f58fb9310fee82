"""``labyrinth audit | minimize``: the verifier, into its findings store."""

import contextlib
import sys
from pathlib import Path

from labyrinth.cli._common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_UNKNOWN,
    advance,
    again,
    emit,
    engine_order,
    expand,
    must_exist,
    note,
    order_arg,
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
from labyrinth.cli._limits import (
    MAX_N,
    check_size,
    file_name,
    positive_int,
    seconds,
    seed,
    size_args,
)
from labyrinth.errors import CampaignExists, CampaignInterrupted, LabyrinthError, TimeLimitError
from labyrinth.rules import natural_key
from oracle.registry import backend_names
from verify.audit import CLASSES
from verify.campaign import PATTERN_SECONDS, PATTERNS_ALL_UP_TO
from verify.minimize import LEGEND


def register(sub):
    """Add this module's subcommands to the ``labyrinth`` parser."""
    audit = sub.add_parser("audit", help="audit a rule set against the oracle: over-pruned, missed dead, wrong force",
                           description="Run the walker under a rule set and ask the oracle about every free move at "
                                       "every step. Findings are the audit's results, not a failure: exit status 0, "
                                       "or 3 when some query ran out of time (unknown findings), 130 when "
                                       "interrupted (Ctrl-C: the units finished are stored; --resume continues).")
    audit.add_argument("-n", type=positive_int(MAX_N), help="board size (odd, >= 3)")
    rules_args(audit)
    how = audit.add_mutually_exclusive_group()
    how.add_argument("--exhaustive", action="store_true", help="every walk in keep-left order")
    how.add_argument("--walks", type=positive_int(10 ** 9), metavar="K", help="K seeded random walks")
    how.add_argument("--trace", nargs="+", metavar="FILE",
                     help="research files or folders: check the options the research program recorded")
    audit.add_argument("--seed", type=seed, default=0)
    audit.add_argument("--jobs", type=positive_int(1024), default=1, metavar="J", help="worker processes (local or Ray CPUs)")
    audit.add_argument("--executor", default="local", choices=["local", "ray"],
                       help="where units run: local processes (default) or a Ray cluster")
    audit.add_argument("--address", metavar="ADDR", help="ray: a running cluster's address (default: start one)")
    audit.add_argument("--backend", default="auto", metavar="ORACLE",
                       help=f"the oracle that decides every move: {backend_names()}; findings "
                            "are confirmed by SAT (by CP-SAT when the oracle is sat)")
    audit.add_argument("--report", type=file_name, metavar="FILE.md",
                       help="trace: write the per-file Markdown report here")
    audit.add_argument("--db", type=file_name, default="labyrinth.db", metavar="FILE",
                       help="findings store (default ./labyrinth.db)")
    audit.add_argument("--resume", action="store_true",
                       help="continue the last campaign with these parameters (runs resuming it at once share its "
                            "units; a finished one prints its totals again)")
    audit.add_argument("--new", action="store_true",
                       help="start a new campaign even when the store holds one with these parameters (without "
                            "--resume or --new, that is refused)")
    audit.add_argument("--split", type=positive_int(10 ** 6), metavar="D",
                       help="exhaustive: cut the tree into subtrees at D moves")
    audit.add_argument("--time-limit", type=seconds, default=60.0, metavar="SECONDS",
                       help="per oracle query (default 60); past it the move is an 'unknown' finding")
    order_arg(audit)
    audit.add_argument("--patterns", default="auto", metavar="K|all|auto",
                       help="which missed-dead and wrong-force findings get a minimal stuck pattern: 'all'; K per "
                            "unit (a walk, a subtree, a file; the walk's fatal move first); 'auto' (default): all "
                            f"up to {PATTERNS_ALL_UP_TO}x{PATTERNS_ALL_UP_TO}, 1 per unit beyond, where a pattern "
                            "costs seconds (1.5 s each on average at 21x21, against 0.7 s for a whole audited walk). "
                            "'labyrinth minimize --finding ID' adds a missing one later")
    audit.add_argument("--no-patterns", action="store_true", help="no minimal patterns (the same as --patterns 0)")
    audit.add_argument("--pattern-time-limit", type=seconds, default=PATTERN_SECONDS, metavar="SECONDS",
                       help=f"per minimal pattern (default {PATTERN_SECONDS:g}: most take well under a second, a few "
                            "take minutes); past it the finding is stored without one")
    audit.add_argument("--json", action="store_true", help="one JSON object per finding, then the totals")
    audit.add_argument("--no-progress", action="store_true")
    size_args(audit, "audit")
    audit.set_defaults(run=_audit, stoppable=True)

    minimize = sub.add_parser("minimize", help="minimal counterexamples: the stuck pattern of a dead state, or the "
                                               "smallest walk where a rule over-prunes (--move or --finding)")
    minimize.add_argument("input", nargs="?", metavar="FILE", help="a research path file")
    minimize.add_argument("--moves", metavar="N:MOVES", help="a state in compact notation")
    minimize.add_argument("--move", metavar="M", help="shrink this over-pruned move of the state (U, D, L or R) "
                                                      "under --rules: shortest walk, smallest board")
    minimize.add_argument("--finding", type=positive_int(2 ** 62), metavar="ID", help="a finding of the store (--db)")
    minimize.add_argument("--db", type=file_name, default="labyrinth.db", metavar="FILE")
    rules_args(minimize)
    minimize.add_argument("--rule", metavar="NAME", help="also print the pattern as a rule of the pattern language")
    minimize.add_argument("--time-limit", type=seconds, default=60.0, metavar="SECONDS",
                          help="for the whole minimisation (default 60); past it the exit status is 3")
    minimize.add_argument("--json", action="store_true")
    size_args(minimize, "minimize")
    minimize.set_defaults(run=_minimize)



def _patterns(args):
    """The ``--patterns`` policy: 'auto', 'all' or a count (one-line error otherwise)."""
    if args.no_patterns:
        return 0
    text = str(args.patterns).strip().lower()
    if text in ("auto", "all"):
        return text
    if text.isdigit():
        return int(text)
    raise LabyrinthError("--patterns takes a count, 'all' or 'auto'", token=args.patterns)


def _oracle_name(args):
    from oracle import BACKENDS

    if args.backend in ("local", "ray"):
        raise LabyrinthError(f"--backend names the oracle now: for where units run, use --executor {args.backend}",
                             token=args.backend)
    if args.backend not in BACKENDS:
        raise LabyrinthError(f"unknown oracle backend (choose from {', '.join(BACKENDS)})", token=args.backend)
    return args.backend


def _audit(args):
    from labyrinth.engine.board import Board

    patterns = _patterns(args)
    oracle = _oracle_name(args)
    if args.trace:
        return _audit_traces(args, patterns, oracle)
    if args.report:
        raise LabyrinthError("--report goes with --trace FILE...", token=args.report)
    if args.n is None:
        raise LabyrinthError("audit: give -n N (and --exhaustive or --walks K), or --trace FILE...")
    check_size(args.n, "audit", args.allow_large)
    Board(args.n)
    if not args.exhaustive and args.walks is None:
        raise LabyrinthError("audit: give --exhaustive or --walks K (or --trace FILE...)")
    if args.walks is not None and args.walks < 1 or args.jobs < 1:
        raise LabyrinthError("--walks and --jobs must be at least 1", token=f"{args.walks},{args.jobs}")
    if args.split is not None:
        from verify.campaign import check_split

        if not args.exhaustive:
            raise LabyrinthError("cuts the exhaustive tree: it goes with --exhaustive", source=f"--split {args.split}")
        check_split(args.n, args.split)
    rules = rule_set(args)  # validates the names (and starts an engine, to check it) before any work
    order = rules.order  # an external engine's: the option's, else its hello's
    asked = f", asked {order}" if isinstance(order, str) else ""
    off = tuple(r for r in args.off.split(",") if r)
    on = tuple(r for r in args.on.split(",") if r)
    progress, bars = _audit_progress(args)

    from verify.campaign import run_campaign
    from verify.settings import AuditSettings
    from verify.store import Store

    with Store(args.db) as store, _campaign_errors(args, bars):
        campaign, totals, findings = run_campaign(store, AuditSettings(
            n=args.n, rules_args=(args.rules, off, on), walks=args.walks, seed=args.seed,
            exhaustive=args.exhaustive, split=args.split, jobs=args.jobs, executor=args.executor,
            address=args.address, oracle=oracle, time_limit=args.time_limit, patterns=patterns,
            pattern_time_limit=args.pattern_time_limit, resume=args.resume, progress=progress,
            engine_timeout=args.engine_timeout, engine_order=engine_order(args), refuse_same=not args.new))
        distinct = len({f["pattern"] for f in store.findings(campaign=campaign) if f["pattern"] is not None})
    if args.json:
        for f in findings:
            emit(f.to_json())
        emit({"campaign": campaign, "rules": rules_label(rules, args), "totals": totals.to_json()})
    else:
        what = "exhaustive" if args.exhaustive else f"{args.walks} walks, seed {args.seed}"
        print(f"campaign {campaign} in {args.db}: {args.n}x{args.n}, rules {rules_label(rules, args)}, {what}"
              + (f", oracle {oracle}" if oracle != "auto" else "") + asked)
        _print_totals(totals, distinct=distinct)
    return EXIT_UNKNOWN if totals.findings.get("unknown", 0) else EXIT_OK


@contextlib.contextmanager
def _campaign_errors(args, bars):
    """Close the bars; say how to go on after an interruption, or when the campaign already exists."""
    try:
        yield
    except CampaignInterrupted as stop:
        for bar in bars:
            bar.close()
        raise stop_message(stop, f"{stop.stored} of {stop.units} units stored in {args.db}",
                      again(args, ["--resume"], ["--new"])) from None
    except CampaignExists as err:
        raise LabyrinthError(f"{err.reason}: add --resume to continue it (or to print its totals again), or --new "
                             "to start another", source=err.source) from None
    finally:
        for bar in bars:
            bar.close()


def _audit_progress(args):

    bars = []

    def progress(done, total, totals):
        if not bars:  # made on the first unit, so an early error prints alone
            bars.append(progress_bar(total, unit="unit", disable=args.no_progress or args.json))
        bar = bars[0]
        share = totals.oracle_seconds / totals.work_seconds if totals.work_seconds else 0.0
        bar.set_postfix({k: totals.findings.get(k, 0) for k in CLASSES[:3]} | {"oracle": f"{share:.0%}"},
                        refresh=False)
        advance(bar, done, total)

    return progress, bars


def _print_totals(totals, trace=False, distinct=None):

    outcomes = f"walkthroughs {totals.walkthroughs}, stuck {totals.stuck}"
    if trace:
        outcomes += f", ended alive {totals.ended_alive}, ended dead {totals.ended_dead}"
    share = totals.oracle_seconds / totals.work_seconds if totals.work_seconds else 0.0
    print(f"{outcomes}, states audited {totals.steps}, oracle queries {totals.queries}; "
          f"{totals.seconds:.1f} s (work {totals.work_seconds:.1f} s, {share:.0%} of it in the oracle)")
    print(f"{'class':<12} {'findings':>8}")
    for k in CLASSES:
        print(f"{k:<12} {totals.findings.get(k, 0):>8}")
    if totals.patterns or totals.patterns_missing:
        print(f"minimal stuck patterns: {totals.patterns} findings have one"
              + (f", {distinct} distinct ('labyrinth findings list patterns')" if distinct is not None else "")
              + (f"; {totals.patterns_missing} ran out of --pattern-time-limit (stored without one: "
                 "'labyrinth minimize --finding ID' adds it)" if totals.patterns_missing else ""))
    if totals.unconfirmed:
        print(f"unconfirmed: {totals.unconfirmed} (the second backend ran out of time re-deciding them)")
    if totals.disagreements:
        print(f"BACKENDS DISAGREE on {totals.disagreements} findings (not reported): please report this bug")
    names = sorted(set(totals.fired) | set(totals.misfired), key=natural_key)
    if names:
        width = max(len(r) for r in names)
        print(f"{'rule':<{width}} {'fired':>8} {'misfired':>8}")
        for r in names:
            print(f"{r:<{width}} {totals.fired.get(r, 0):>8} {totals.misfired.get(r, 0):>8}")
    if totals.engine_requests:
        print(engine_latency_line(totals))
    if totals.findings.get("unknown", 0):
        print("some queries ran out of time (unknown findings): give more with --time-limit SECONDS")


def engine_latency_line(totals):
    """One line on an external engine's requests: how many, states asked, round-trip median and max."""
    from labyrinth.engine_protocol import median_seconds

    median = median_seconds(totals.engine_latency)
    return (f"engine: {totals.engine_requests} requests ({totals.engine_states} states), round trip median "
            f"{median * 1e3:.3f} ms, max {totals.engine_max * 1e3:.3f} ms, {totals.engine_seconds:.2f} s in all")


def _audit_traces(args, patterns, oracle):
    from labyrinth.engine.formats import load_trace
    from verify.campaign import run_trace_campaign
    from verify.store import Store
    from verify.trace import TraceSummary, corpus_report

    if args.report:
        writable_output(args.report)  # before the audit: a bad path must not cost the work
    if args.n is not None or args.rules != "default" or args.off or args.on or args.engine or args.order != "auto":
        raise LabyrinthError("--trace audits the options recorded in the files: no -n, --rules, --engine, --off, "
                             "--on or --order")
    if args.jobs < 1:
        raise LabyrinthError("--jobs must be at least 1", token=str(args.jobs))
    files, errors = [], 0
    for item in args.trace:
        for path in expand(item):
            try:
                load_trace(path)
            except LabyrinthError as err:
                errors += 1
                note(f"labyrinth: {err}")
                continue
            files.append(str(path))
    progress, bars = _audit_progress(args)
    if files:
        with Store(args.db) as store, _campaign_errors(args, bars):
            campaign, totals, findings, summaries = run_trace_campaign(
                store, files, jobs=args.jobs, executor=args.executor, address=args.address, oracle=oracle,
                time_limit=args.time_limit, patterns=patterns, pattern_time_limit=args.pattern_time_limit,
                resume=args.resume, progress=progress, refuse_same=not args.new)
            distinct = len({f["pattern"] for f in store.findings(campaign=campaign) if f["pattern"] is not None})
        summaries = [TraceSummary(**s) for s in summaries]
        if args.report:
            command = ("labyrinth audit --trace " + " ".join(args.trace) + f" --report {args.report}"
                       + (f" --jobs {args.jobs}" if args.jobs > 1 else "")
                       + (" --no-patterns" if patterns == 0 else f" --patterns {patterns}" if patterns != "auto"
                          else "")
                       + (f" --time-limit {args.time_limit:g}" if args.time_limit != 60.0 else ""))
            write_text(args.report, corpus_report(summaries, totals, command=command, findings=findings))
        if args.json:
            for f in findings:
                emit(f.to_json())
            for s in summaries:
                emit(s.to_json())
            emit({"campaign": campaign, "files": len(summaries), "totals": totals.to_json()})
        else:
            print(f"campaign {campaign} in {args.db}: {len(summaries)} research files, their recorded options "
                  "against the oracle")
            width = max(len(s.file) for s in summaries)
            print(f"{'file':<{width}}  {'n':>2}  {'steps':>5}  {'status':<8} {'first dead':>10}  findings")
            for s in summaries:
                found = ", ".join(f"{v} {k}" for k, v in s.findings.items() if v) or "-"
                dead = "-" if s.first_dead_step is None else str(s.first_dead_step)
                print(f"{s.file:<{width}}  {s.n:>2}  {s.steps:>5}  {s.status:<8} {dead:>10}  {found}")
            _print_totals(totals, trace=True, distinct=distinct)
        if errors:
            return EXIT_BAD_INPUT
        return EXIT_UNKNOWN if totals.findings.get("unknown", 0) else EXIT_OK
    return EXIT_BAD_INPUT if errors else EXIT_OK


def _minimize(args):
    from oracle import first_dead_step, get_oracle

    if args.finding is not None:
        return _minimize_finding(args)
    if (args.input is None) == (args.moves is None):
        raise LabyrinthError("minimize: give exactly one of FILE, --moves N:MOVES or --finding ID")
    state = (sized_state(args.moves, "minimize", args.allow_large) if args.moves
             else sized_file(Path(args.input), "minimize", args.allow_large))
    label = args.moves or args.input
    if args.move is not None:
        return _shrink(args, state, args.move, rule_set(args), None, label)
    with get_oracle("auto", time_limit=args.time_limit) as oracle:
        step, undecided = first_dead_step(state, oracle)
    if step is None:
        if undecided:
            raise TimeLimitError("the oracle ran out of time: the line's status is unknown", source=label)
        raise LabyrinthError("the line still has a completion: there is no stuck pattern", source=label)
    return _pattern(args, state.prefix(step), {"state": state.compact(), "first_dead_step": step},
                    f"dead since step {step}")


def _minimize_finding(args):
    import json

    from labyrinth.engine import parse_state
    from labyrinth.rules import get_rule_set
    from verify.audit import OVER_PRUNED, UNKNOWN
    from verify.store import Store

    if args.input or args.moves or args.move:
        raise LabyrinthError("--finding ID takes its state and move from the store: no FILE, --moves or --move")
    must_exist(args.db)
    with Store(args.db, create=False) as store:
        f = store.finding(args.finding)
        params = json.loads(store.campaign(f["campaign"])["params"])
    label = f"finding {args.finding}"
    state = parse_state(f["state"], source=label)
    if f["kind"] == UNKNOWN:
        raise LabyrinthError("an unknown finding has nothing to minimise (the oracle timed out)", source=label)
    if f["kind"] == OVER_PRUNED:
        if "rules" not in params or params.get("kind") == "trace":
            raise LabyrinthError("the research program's rules are not ours to replay: only the state is known",
                                 source=label)
        rules = get_rule_set(params["rules"], off=params.get("off", ()), on=params.get("on", ()),
                             engine_timeout=args.engine_timeout)
        return _shrink(args, state, f["move"], rules, f["rules"][0] if f["rules"] else None, label)
    if not f["pattern"]:  # the pattern will be stored: the store must take it, checked before the work
        Store(args.db, create=False, write=True).close()
    return _pattern(args, state.after(f["move"]), {"finding": args.finding, "state": f["state"], "move": f["move"]},
                    f"{f['kind']} finding {args.finding}", finding=None if f["pattern"] else args.finding)


def _shrink(args, state, move, rules, rule, label):
    from labyrinth.engine import parse_state
    from labyrinth.engine.text import draw, legend
    from oracle import get_oracle
    from verify.shrink import shrink_over_pruned

    if move not in ("U", "D", "L", "R"):
        raise LabyrinthError("a move is one of U, D, L, R", token=move)
    with get_oracle("auto", time_limit=args.time_limit) as oracle:
        shrunk = shrink_over_pruned(state, move, rules, oracle, rule=rule, time_limit=args.time_limit)
    status = EXIT_OK if shrunk.fixed_point else EXIT_UNKNOWN
    if args.json:
        emit(shrunk.to_json())
        return status
    small = parse_state(shrunk.state)
    print(f"{label}: {shrunk.rule} closes the feasible move {move} at {state.compact()}")
    print(f"smallest case ({shrunk.tried} candidates tried, {shrunk.seconds:.2f} s): {shrunk.state} {move}")
    print(draw(small, {small.board.step(small.head, move): "x"}))
    print(legend({"x": "the move the rule closes"}))
    print(f"witness through {move}: {shrunk.witness}")
    print("passes: " + ", ".join(f"{k} {v}" for k, v in shrunk.passes.items()))
    if not shrunk.fixed_point:
        note("labyrinth: the time limit stopped the passes early: a smaller case may exist; give more time with "
             "--time-limit SECONDS")
    return status


def _pattern(args, dead, about, what, finding=None):
    from verify.minimize import minimal_pattern

    pattern = minimal_pattern(dead, time_limit=args.time_limit)
    if finding is not None:
        from verify.store import Store

        with Store(args.db, create=False, write=True) as store:  # a finding stored without its pattern gets it now
            store.set_pattern(finding, pattern)
    rule, rule_error = None, None
    if args.rule:
        try:
            rule = pattern.to_rule(args.rule)
        except LabyrinthError as err:
            rule_error = err  # the pattern is still printed: nothing computed is lost
    if args.json:
        emit(about | {"dead_state": dead.compact(), "pattern": pattern.to_json(),
                      "seconds": round(pattern.seconds, 3), "rule": rule,
                      "rule_error": None if rule_error is None else str(rule_error)})
        return EXIT_BAD_INPUT if rule_error else EXIT_OK
    print(f"{dead.compact()}: {what}; minimal stuck pattern ({len(pattern.facts)} facts, "
          f"{pattern.seconds:.2f} s):")
    print(pattern.draw())
    print(LEGEND)
    if rule:
        print(rule, end="")
    if rule_error:
        print(f"labyrinth: no rule: {rule_error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK
