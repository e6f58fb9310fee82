"""Every stuck walk of `strong` in the curve's campaigns, its first fatal move minimised and drawn (issue 40).

`strong` is sound, so a stuck walk is a state it let through that was already
dead. For each stuck walk stored by ``bench/strong_curve.py`` (run ``r`` of a
size ended stuck after ``k`` walkthroughs: the walk ``r * 2**32 + k`` of the
seed) this script walks it again, finds its first dead step with the oracle
(bisection over prefixes, :func:`oracle.analysis.dead_step_bounds`), shrinks
the dead state to its minimal stuck pattern (:func:`verify.minimize.minimal_pattern`)
and asks which optional argument switched on over `strong` would have closed the
fatal move (``probe``, ``exact-areas``, ``gates``, ``window:R``). Each miss is stored in a JSON-lines
file as it is done (a stop loses only the one in hand; the next run goes on),
then ``reports/strong-misses.md`` lists them: the next rule to write is visible there.

    python bench/strong_misses.py                       # every miss of reports/strong-curve.db (goes on where it stopped)
    python bench/strong_misses.py --report-only
    python bench/strong_misses.py --db /tmp/c.db --misses /tmp/m.jsonl --report /tmp/m.md --time-limit 30
    python bench/strong_misses.py --rules strong++++ --rewalked reports/strong-gates.jsonl \
        --misses reports/strong-plus-plus-plus-plus-misses.jsonl --report reports/strong-plus-plus-plus-plus-misses.md
    python bench/strong_misses.py --rules strong++++ --on probe-cut:3 --rewalked reports/strong-gates-probe-cut.jsonl \
        --misses reports/strong-gates-probe-cut-misses.jsonl --report reports/strong-gates-probe-cut-misses.md
"""

import argparse
import json
import pathlib
import platform
import shlex
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "bench"))  # strong_gates, after the project (bench/oracle.py must not hide the package)

from labyrinth.engine.walker import random_walk  # noqa: E402
from labyrinth.errors import LabyrinthError  # noqa: E402
from labyrinth.jobs import held, stop_on_signals  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402
from oracle import get_oracle  # noqa: E402
from oracle.analysis import dead_step_bounds  # noqa: E402
from verify import stats_campaign  # noqa: E402
from verify.minimize import LEGEND, PatternError, minimal_pattern  # noqa: E402
from verify.store import Store  # noqa: E402

#: the arguments tried over `strong` on the state before the fatal move, cheapest first
ARGUMENTS = ("probe", "probe:4", "probe-cut:3", "exact-areas", "gates", "window:3", "window:5")


def stuck_walks(store, rules_name):
    """``(n, seed, index)`` of every stuck walk stored in the stats campaigns of ``rules_name``, by size."""
    out = []
    for c in store.campaigns():
        if c["kind"] != stats_campaign.KIND:
            continue
        p = json.loads(c["params"])
        if p["rules"] != rules_name or p["on"] or p["off"]:
            continue
        for unit, totals in store.done_units(c["id"]).items():
            n, first, _ = stats_campaign.parse_unit(unit)
            for i, done in enumerate(totals.get("samples", ())):
                if done < p["cap"]:
                    out.append((n, p["seed"], ((first + i) << 32) + done))
    return sorted(set(out))


def rewalked_stuck(path):
    """``(n, seed, index)`` of every run a runs file of ``bench/strong_gates.py`` ended stuck (the stuck walks of the
    stronger set, which has no stats campaign of its own), read by that script's own loader."""
    from strong_gates import load as load_runs

    runs = load_runs(pathlib.Path(path)).values()
    return sorted({(r["n"], r["seed"], (r["run"] << 32) + r["sample"]) for r in runs if r["sample"] < r["cap"]})


def miss(n, seed, index, rules, time_limit):
    """The record of one stuck walk: where it went dead, the minimal pattern, what would have closed the move."""
    t0 = time.perf_counter()
    walk = random_walk(n, rules, seed, index=index)
    rec = {"n": n, "seed": seed, "index": index, "outcome": walk.outcome, "steps": walk.state.steps,
           "free_left": walk.state.free_count, "line": walk.state.compact()}
    if walk.outcome != "stuck":
        rec["error"] = "the walk completed: the store and the walker disagree"
        return rec
    oracle = get_oracle("auto", time_limit=time_limit)
    try:
        lo, hi, undecided = dead_step_bounds(walk.state, oracle)
    finally:
        getattr(oracle, "close", lambda: None)()
    if undecided or hi is None:
        rec |= {"first_dead_between": [lo + 1, hi], "seconds": round(time.perf_counter() - t0, 1)}
        return rec
    dead = walk.state.prefix(hi)
    before = walk.state.prefix(hi - 1)
    move = walk.state.board.split(walk.state.moves)[hi - 1]
    rec |= {"first_dead_step": hi, "move": move, "free_at_dead": dead.free_count, "seen_after": walk.state.steps - hi,
            # one step of look-ahead (singleton consistency on the new head's options) closes the fatal move
            # exactly when the set itself closes every move of the dead state
            "lookahead": dead.head != dead.board.end and rules.open_moves(dead) == ""}
    try:
        pattern = minimal_pattern(dead, time_limit=time_limit)
        xs = [x for x, _, _ in pattern.facts]
        ys = [y for _, y, _ in pattern.facts]
        rec |= {"pattern": pattern.to_json(), "extent": [max(xs) - min(xs) + 1, max(ys) - min(ys) + 1],
                "facts": len(pattern.facts)}
    except PatternError as err:
        rec["pattern_error"] = str(err)
    closed = []
    for arg in ARGUMENTS:
        extra = get_rule_set("strong", on=[arg])
        extra.start()
        try:
            if move not in extra.open_moves(before):
                closed.append(arg)
        finally:
            extra.close()
    rec |= {"closed_by": closed, "seconds": round(time.perf_counter() - t0, 1)}
    return rec


def certify_probe(recs):
    """Along every stored stuck walk, each move ``strong+`` closes and ``strong`` leaves open: certified and checked.

    Returns ``(closed, accepted, missing, rejected, steps)``: the probe's extra closed moves, those with a
    certificate the checker accepts, without one, with one it refuses, and the accepted ones' step counts.
    """
    from labyrinth.engine.state import State
    from verify.certificates import certificate, check

    plus, strong = get_rule_set("strong+"), get_rule_set("strong")
    closed = accepted = missing = rejected = 0
    steps = []
    for rec in recs.values():
        n, _, moves = rec["line"].partition(":")
        line = State.from_moves(int(n), moves)
        for k in range(line.steps + 1):
            state = line.prefix(k)
            if state.at_end():
                continue
            for move in sorted(set(strong.open_moves(state)) - set(plus.open_moves(state))):
                closed += 1
                cert = certificate(state, move)
                if cert is None:
                    missing += 1
                elif check(state.compact(), move, cert).valid:
                    accepted += 1
                    steps.append(len(cert["steps"]))
                else:
                    rejected += 1
    return closed, accepted, missing, rejected, steps


def load(path):
    out = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                out[r["n"], r["seed"], r["index"]] = r
    return out


def report(recs, args):
    label = f"{args.rules} --on {args.on}" if args.on else args.rules
    lines = [f"# The stuck walks of `{label}`: what its arguments miss", "",
             f"Command: `{shlex.join(['python', 'bench/strong_misses.py', *args.argv])}` over "
             + (f"the stuck walks walked again in `{_shown(args.rewalked)}` (`bench/strong_gates.py`)" if args.rewalked
                else f"the stats campaigns of `{_shown(args.db)}` (`bench/strong_curve.py`)")
             + f", {platform.machine()}, python {platform.python_version()}, oracle "
             f"time limit {args.time_limit:.0f} s a query.", "",
             f"Each row is a stuck walk of `{label}` (sound: it never closes a live move, so the walk went into a "
             "dead state it did not see). *dead at*: the first step after which no completion exists (oracle, "
             "bisection); *free*: free cells then; *pattern*: the minimal stuck pattern of that state (the fewest "
             "cell facts that alone leave it dead, re-verified), its extent and facts; *closed by*: the optional "
             "arguments that, switched on over `strong` (`--on`), close the fatal move.", "",
             "*seen after*: the steps the walk took from the dead state until it got stuck (0: the set closes "
             "every move of the dead state, so one step of look-ahead at the new head, singleton consistency on its "
             "options, would have closed the fatal move).", "",
             "| n | walk (seed, index) | stuck after | dead at (move) | seen after | free then | pattern extent | "
             "facts | closed by |", "|---|---|---|---|---|---|---|---|---|"]
    for (n, seed, index), r in sorted(recs.items()):
        dead = (f"{r['first_dead_step']} ({r['move']})" if "first_dead_step" in r
                else f"between {r['first_dead_between'][0]} and {r['first_dead_between'][1]} (timeout)"
                if "first_dead_between" in r else r.get("error", "?"))
        ext = "x".join(map(str, r["extent"])) if "extent" in r else r.get("pattern_error", "")
        lines.append(f"| {n} | {seed}, {index >> 32}<<32+{index & 0xFFFFFFFF} | {r['steps']} steps, "
                     f"{r['free_left']} free | {dead} | {r.get('seen_after', '')} | {r.get('free_at_dead', '')} | {ext} | "
                     f"{r.get('facts', '')} | {_closed(r)} |")
    counts = {}
    for r in recs.values():
        for a in r.get("closed_by", ()):
            counts[a] = counts.get(a, 0) + 1
    lines += ["", "## What it shows", ""]
    if not recs:
        lines.append(f"- No stuck walk of `{label}` in the store.")
    else:
        lines.append(f"- {len(recs)} stuck walks; closed by an optional argument: "
                     + (", ".join(f"{a} {k}" for a, k in counts.items()) or "none") + ".")
        seen = sorted(r["seen_after"] for r in recs.values() if "seen_after" in r)
        if seen:
            ahead = sum(1 for r in recs.values() if r.get("lookahead"))
            lines.append(f"- {ahead} of {len(seen)} would be closed by one step of look-ahead at the head; the "
                         f"walk went on for a median of {seen[len(seen) // 2]} steps (most {seen[-1]}) after the "
                         f"first dead step before it got stuck.")
        widths = sorted(max(r["extent"]) for r in recs.values() if "extent" in r)
        if widths:
            lines.append(f"- Pattern extents (the longer side): {', '.join(map(str, widths))}; "
                         f"a window rule of radius R sees at most {2 * 5 + 1} cells across at R = 5.")
    lines += ["", "## The patterns", "", f"Legend {LEGEND}.", ""]
    for (n, seed, index), r in sorted(recs.items()):
        if "pattern" not in r:
            continue
        lines += [f"### {n}x{n}, walk {index >> 32}<<32+{index & 0xFFFFFFFF} of seed {seed}: dead at step "
                  f"{r['first_dead_step']}", "", "```", r["pattern"]["drawing"], "```", ""]
    return "\n".join(lines) + "\n"


def _closed(rec):
    """The arguments that close a miss's fatal move: "none", or "?" when its dead step was not found."""
    if "closed_by" not in rec:
        return "? (no dead step found)"
    return ", ".join(rec["closed_by"]) or "none"


def _shown(path):
    """A path as the report names it: relative to the project when inside it."""
    p = pathlib.Path(path).resolve()
    return p.relative_to(ROOT).as_posix() if p.is_relative_to(ROOT) else str(path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=str(ROOT / "reports" / "strong-curve.db"))
    parser.add_argument("--rules", default="strong")
    parser.add_argument("--on", default="", help="optional rules switched on in --rules, comma-separated")
    parser.add_argument("--misses", default=str(ROOT / "reports" / "strong-misses.jsonl"))
    parser.add_argument("--report", default=str(ROOT / "reports" / "strong-misses.md"))
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds an oracle query or a pattern")
    parser.add_argument("--max-n", type=int, default=101, help="leave out the misses of larger boards")
    parser.add_argument("--per-size", type=int, default=None, help="look at most at this many misses of a size")
    parser.add_argument("--rewalked", default=None, metavar="JSONL",
                        help="the stuck walks of a runs file of bench/strong_gates.py instead of the store's campaigns")
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--certify", action="store_true",
                        help="also certify every move strong+ closes and strong leaves open along the stored walks")
    args = parser.parse_args(argv)
    args.argv = [a for a in (sys.argv[1:] if argv is None else argv) if a not in ("--report-only", "--certify")]
    path = pathlib.Path(args.misses)
    recs = load(path)
    try:
        if not args.report_only:
            if args.rewalked:
                todo = [w for w in rewalked_stuck(args.rewalked) if w[0] <= args.max_n]
            else:
                with Store(args.db, create=False, write=False) as store:
                    todo = [w for w in stuck_walks(store, args.rules) if w[0] <= args.max_n]
            if args.per_size is not None:  # the first misses of each size, in walk order
                todo = [w for w in todo if sum(1 for v in todo if v[0] == w[0] and v < w) < args.per_size]
            todo = [w for w in todo if w not in recs]
            print(f"{len(todo)} stuck walks to look at ({len(recs)} done before)", flush=True)
            rules = get_rule_set(args.rules, on=[r for r in args.on.split(",") if r])
            rules.start()
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                with stop_on_signals():
                    for n, seed, index in todo:
                        r = miss(n, seed, index, rules, args.time_limit)
                        with held():
                            recs[n, seed, index] = r
                            with path.open("a") as f:
                                f.write(json.dumps(r) + "\n")
                        print(f"{n}x{n} walk {index}: dead at {r.get('first_dead_step', '?')}, extent "
                              f"{r.get('extent', '?')}, closed by {r.get('closed_by')} ({r['seconds']} s)",
                              flush=True)
            except KeyboardInterrupt:
                print(f"bench/strong_misses.py: stopped; {len(recs)} misses stored in {path}: run it again to go "
                      f"on", file=sys.stderr)
                sys.exit(130)
            finally:
                rules.close()
    except LabyrinthError as err:
        print(f"bench/strong_misses.py: {err}", file=sys.stderr)
        sys.exit(2)
    if args.certify:
        closed, accepted, missing, rejected, steps = certify_probe(recs)
        steps.sort()
        print(f"along {len(recs)} stuck walks: {closed} moves strong+ closes and strong leaves open; certified and "
              f"accepted {accepted}, missing {missing}, rejected {rejected}; steps median "
              f"{steps[len(steps) // 2] if steps else '-'}, most {steps[-1] if steps else '-'}")
    out = pathlib.Path(args.report)
    out.write_text(report(recs, args))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
