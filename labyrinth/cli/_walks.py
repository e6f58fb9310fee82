"""``labyrinth walk | enumerate | stats``: the walker and its statistics."""

from labyrinth.cli._common import (
    EXIT_OK,
    advance,
    board_sizes,
    emit,
    progress_bar,
    rule_set,
    rules_args,
    rules_label,
    sized_state,
    stop_message,
)
from labyrinth.cli._limits import MAX_N, check_size, positive_int, seed, size_args
from labyrinth.cli._stats_campaign import add_campaign_options, campaign_asked, run_stats_campaign
from labyrinth.errors import LabyrinthError


def register(sub):
    """Add this module's subcommands to the ``labyrinth`` parser."""
    walk = sub.add_parser("walk", help="one seeded random walk under a rule set")
    walk.add_argument("-n", type=positive_int(MAX_N), required=True, help="board size (odd, >= 3)")
    rules_args(walk)
    walk.add_argument("--seed", type=seed, default=0)
    walk.add_argument("--json", action="store_true")
    size_args(walk, "walk")
    walk.set_defaults(run=_walk)

    enum = sub.add_parser("enumerate", help="every walk in keep-left order: walkthroughs and stuck leaves")
    enum.add_argument("-n", type=positive_int(MAX_N), help="board size (odd, >= 3), from the start")
    enum.add_argument("--moves", "--from", dest="prefix", metavar="N:MOVES",
                      help="enumerate below a saved prefix (--from is the same)")
    rules_args(enum)
    enum.add_argument("--json", action="store_true")
    size_args(enum, "enumerate")
    enum.add_argument("--no-progress", action="store_true")
    enum.set_defaults(run=_enumerate, stoppable=True)

    stats = sub.add_parser("stats", help="the study's statistic: walkthroughs completed before the first stuck walk")
    stats.add_argument("-n", required=True, metavar="N[,N...]", help="board sizes, e.g. 9,11,13")
    stats.add_argument("--runs", type=positive_int(10 ** 9), default=1000, help="runs per size (the study used 1000)")
    rules_args(stats)
    stats.add_argument("--seed", type=seed, default=0)
    stats.add_argument("--cap", type=positive_int(10 ** 12), default=100, metavar="K",
                       help="stop a run after K walkthroughs (counted as K, reported as censored; default 100): "
                            "a strong rule set's runs would otherwise never end")
    stats.add_argument("--jobs", type=positive_int(256), default=1, metavar="J",
                       help="worker processes (compiled rule sets; the same figures as one)")
    stats.add_argument("--json", action="store_true")
    size_args(stats, "stats")
    stats.add_argument("--no-progress", action="store_true")
    add_campaign_options(stats)
    stats.set_defaults(run=_stats, stoppable=True)


def _walk(args):
    from labyrinth.engine.walker import random_walk

    check_size(args.n, "walk", args.allow_large)
    walk = random_walk(args.n, rule_set(args), args.seed)
    if args.json:
        emit({"state": walk.state.compact(), "outcome": walk.outcome, "stuck_step": walk.stuck_step})
    else:
        print(walk.state.compact())
        print(walk.outcome + ("" if walk.stuck_step is None else f" at step {walk.stuck_step}"))
    return EXIT_OK


def _enumerate(args):
    from labyrinth.engine import State
    from labyrinth.engine.walker import enumerate_walks
    from verify import count_subtree

    if (args.n is None) == (args.prefix is None):
        raise LabyrinthError("enumerate: give exactly one of -n N or --moves N:MOVES")
    if args.prefix:
        start = sized_state(args.prefix, "enumerate", args.allow_large)
    else:
        start = State.from_moves(check_size(args.n, "enumerate", args.allow_large), "")
    rules = rule_set(args)
    bar = progress_bar(None, unit="walkthrough", disable=args.no_progress or args.json)

    seen = [0]

    def progress(k):
        seen[0] = k
        advance(bar, k)

    # the perfect walker's subtrees run in the verifier's exhaustive kernel (exact, and fast)
    subtree = count_subtree if rules.perfect else None
    try:
        result = enumerate_walks(start, rules, progress=progress, subtree=subtree)
    except KeyboardInterrupt as stop:
        bar.close()
        raise stop_message(stop, f"{seen[0]} walkthroughs counted so far; nothing stored (enumerate keeps no store)") \
            from None
    bar.close()
    out = {"start": start.compact(), "rules": rules_label(rules, args), "walkthroughs": result.walkthroughs,
           "stuck": result.stuck, "nodes": result.nodes, "seconds": round(result.seconds, 3)}
    if args.json:
        emit(out)
    else:
        print("  ".join(f"{k}: {v}" for k, v in out.items()))
    return EXIT_OK


def _stats(args):
    from labyrinth.engine.walker import walk_statistics

    sizes = board_sizes(args.n, "stats", args.allow_large)
    if args.runs < 1 or args.cap < 1:
        raise LabyrinthError("--runs and --cap must be at least 1", token=f"{args.runs},{args.cap}")
    if campaign_asked(args):
        return run_stats_campaign(args, sizes, stats_row, _stats_table)
    rules = rule_set(args)
    rows = []
    for n in sizes:
        bar = progress_bar(args.runs, unit="run", desc=f"{n}x{n}", disable=args.no_progress or args.json)

        seen = [0]

        def progress(k, bar=bar, seen=seen):
            seen[0] = k
            advance(bar, k)

        try:
            st = walk_statistics(n, rules, args.runs, args.seed, cap=args.cap, progress=progress, jobs=args.jobs)
        except KeyboardInterrupt as stop:
            bar.close()
            if rows and not args.json:
                _stats_table(rows, rules, args)  # the sizes finished are still shown
            done = ", ".join(f"{r['n']}x{r['n']}" for r in rows)
            raise stop_message(stop, f"{n}x{n}: {seen[0]} of {args.runs} runs done"
                          + (f" ({done} finished, shown)" if done else "")
                          + "; nothing stored (stats keeps no store without --db FILE)") from None
        bar.close()
        row = stats_row(st, rules, args)
        rows.append(row)
        if args.json:
            emit(row)
    if not args.json:
        _stats_table(rows, rules, args)
    return EXIT_OK


def stats_row(st, rules, args):
    """One size's figures (a :class:`~labyrinth.engine.walker.WalkStats`) as ``stats`` prints and emits them."""
    from labyrinth.engine.walker import STUDY_7X7_RULES

    rate, low, high = st.stuck_rate
    per = st.walkthroughs_per_stuck
    return {"n": st.n, "rules": rules_label(rules, args), "runs": st.runs, "mean": round(st.mean, 3),
            "ci95": [round(st.low, 3), round(st.high, 3)], "study": STUDY_7X7_RULES.get(st.n),
            "completion_rate": round(st.completion_rate, 4), "walks": st.walks, "stuck": st.stuck,
            "stuck_per_walk": rate, "stuck_per_walk_ci95": [low, high],
            "walkthroughs_per_stuck": None if per is None else round(per, 2), "censored": st.censored,
            "cap": args.cap, "seconds": round(st.seconds, 2)}


def _stats_table(rows, rules, args):
    print(f"rules: {rules_label(rules, args)}, {args.runs} runs per size (each up to {args.cap} walkthroughs), "
          f"seed {args.seed}")
    print(f"{'n':>3}  {'mean':>9}  {'95% CI':>19}  {'study':>6}  {'complete':>8}  {'walks':>9}  {'stuck':>7}  "
          f"{'stuck/walk (95% CI)':>28}  {'censored':>8}  {'seconds':>7}")
    for r in rows:
        ci = f"{r['ci95'][0]:.2f}..{r['ci95'][1]:.2f}"
        study = "-" if r["study"] is None else f"{r['study']:.1f}"
        lo, hi = r["stuck_per_walk_ci95"]
        rate = f"{r['stuck_per_walk']:.2e} ({lo:.1e}..{hi:.1e})"
        print(f"{r['n']:>3}  {r['mean']:>9.2f}  {ci:>19}  {study:>6}  {r['completion_rate']:>8.4f}  "
              f"{r['walks']:>9}  {r['stuck']:>7}  {rate:>28}  {r['censored']:>8}  {r['seconds']:>7.1f}")
