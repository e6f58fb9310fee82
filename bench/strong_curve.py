"""The curve to 101x101: stuck walks per walk of `default`, `strong`, `strong+` and `strong++` from 7x7 up (issue 40).

The research asks whether one rule set can draw a labyrinth of any size, or
whether the rules must grow without end. This bench measures the stuck rate of
each rule set at n = 7, 9, ..., 21, 25, 31, 41, 51, 61, 81, 101. Each
(rule set, size) is a stats campaign (:mod:`verify.stats_campaign`, what
``labyrinth stats --db`` runs) in one findings store: its blocks of runs are
stored as they finish, a stop keeps them, the next run of this script goes on
where the last one stopped, and ``--executor ray --address A`` spreads the
blocks over a cluster. Before anything runs it says how long the rest will
take on this machine. Then it writes ``reports/strong-curve.md`` and its
chart from the store.

A *run* walks until its first stuck walk or ``cap`` walkthroughs (the study's
statistic); *stuck per walk* counts every walk, with a Wilson 95% interval.
The walks per size fall with n (a 101x101 walk of `strong` takes seconds):
``--scale`` multiplies every size's runs, for a cluster.

    python bench/strong_curve.py                        # the whole curve (about 1 h on 2 cores; goes on where it stopped)
    python bench/strong_curve.py --report-only          # rewrite the report from the store
    python bench/strong_curve.py --scale 10 --executor ray --address auto --db out/curve-x10.db --report out/c.md
    python bench/strong_curve.py --sizes 7,9 --scale 0.05 --db /tmp/c.db --report /tmp/c.md
"""

import argparse
import json
import math
import os
import pathlib
import platform
import shlex
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from labyrinth.engine.walker import wilson  # noqa: E402
from labyrinth.errors import CampaignInterrupted, LabyrinthError  # noqa: E402
from labyrinth.jobs import stop_on_signals  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402
from labyrinth.view.charts import line_chart  # noqa: E402
from verify import stats_campaign  # noqa: E402
from verify.campaign import rules_fingerprints  # noqa: E402
from verify.store import Store  # noqa: E402

#: runs and cap (walkthroughs a run at most) of each size: about 100 000 walks at 21x21 (the issue's stretch
#: target), then fewer as a walk gets dearer; `--scale` multiplies the runs
PLAN = {7: (1000, 100), 9: (1000, 100), 11: (1000, 100), 13: (1000, 100), 15: (1000, 100), 17: (1000, 100),
        19: (1000, 100), 21: (1000, 100), 25: (500, 100), 31: (400, 50), 41: (200, 50), 51: (100, 30),
        61: (100, 10), 81: (50, 5), 101: (30, 4)}
#: the rule sets of the curve, weakest first
SETS = ("default", "strong", "strong+", "strong++")
SEED = 2026


def plan(sizes, scale):
    """``{n: (runs, cap)}`` of the sizes asked (sizes not in :data:`PLAN` take the next larger size's)."""
    out = {}
    for n in sizes:
        key = min((k for k in PLAN if k >= n), default=max(PLAN))
        runs, cap = PLAN[key]
        out[n] = (max(1, round(runs * scale)), cap)
    return out


def _stored(store, name, n, runs, cap, seed, fingerprints, *, exact=True):
    """The id of the stats campaign of exactly these settings in ``store``, or None.

    ``fingerprints`` are the set's (:func:`verify.campaign.rules_fingerprints`: the current one, then the older one
    that counted the rules switched off). ``exact=False`` also takes a campaign of the same settings whose
    fingerprint differs (stored under the older fingerprint before an optional rule, switched off here, joined the
    set: the same walks), one of these fingerprints first.
    """
    want = {"sizes": [n], "rules": name, "off": [], "on": [], "runs": runs, "seed": seed, "cap": cap}
    same = [c for c in store.campaigns() if c["kind"] == stats_campaign.KIND and json.loads(c["params"]) == want]
    for fp in fingerprints:
        for c in same:
            if c["fingerprint"] == fp:
                return c["id"]
    return None if exact or not same else same[-1]["id"]


def _estimate(store, sets, sizes_plan, seed):
    """Seconds of one core the units not stored yet take, per (set, n), from stored units or timed walks."""
    total, rows = 0.0, []
    for name, rules in sets.items():
        fp = rules_fingerprints(rules)
        for n, (runs, cap) in sizes_plan.items():
            cid = _stored(store, name, n, runs, cap, seed, fp, exact=False)
            done = store.done_units(cid) if cid is not None else {}
            est = stats_campaign.estimate(rules, [n], runs, seed, cap, done, probe_seconds=0.3)
            total += est["seconds"]
            if est["seconds"]:
                rows.append((name, n, est["seconds"], est["bound"]))
    return total, rows


def run(store, sets, sizes_plan, args):
    """Run (or go on with) every (set, size) campaign, smallest size first; print a line as each finishes."""
    for n, (runs, cap) in sizes_plan.items():
        for name, rules in sets.items():
            cid = _stored(store, name, n, runs, cap, args.seed, rules_fingerprints(rules))
            other = _stored(store, name, n, runs, cap, args.seed, rules_fingerprints(rules), exact=False)
            if cid is None and other is not None and stats_campaign.stored_results(store, other).complete:
                continue  # measured before an optional rule (off here) joined the set: the same walks
            t0 = time.perf_counter()
            res = stats_campaign.run_campaign(store, stats_campaign.StatsSettings(
                sizes=[n], rules_args=(name, (), ()), runs=runs, seed=args.seed, cap=cap, rules=rules, jobs=args.jobs,
                executor=args.executor, address=args.address, resume=cid is not None))
            s = res.stats.get(n)
            if s is not None and time.perf_counter() - t0 > 0.5:
                print(f"{name:8s} n={n:3d} runs={s.runs:5d} walks={s.walks:7d} stuck={s.stuck:5d} "
                      f"{s.seconds:8.1f} s of walks", flush=True)


def collect(store, sets, sizes_plan, seed):
    """``{(set, n): WalkStats}`` of the campaigns stored (complete or not)."""
    out = {}
    for name, rules in sets.items():
        fp = rules_fingerprints(rules)
        for n, (runs, cap) in sizes_plan.items():
            cid = _stored(store, name, n, runs, cap, seed, fp, exact=False)
            if cid is None:
                continue
            res = stats_campaign.stored_results(store, cid)
            if n in res.stats:
                out[name, n] = (res.stats[n], res.size_complete(n))
    return out


def _rate(x):
    return f"{x:.1e}" if x else "0"


def _fit(points):
    """Least-squares slope and intercept of log(rate) against log(n) over ``points`` [(n, rate)], rate > 0."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(r) for _, r in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return slope, my - slope * mx


def findings(figures, names, sizes):
    """What the figures show, in sentences computed from them."""
    out = []
    for name in names:
        got = [(n, figures[name, n][0]) for n in sizes if (name, n) in figures]
        if not got:
            continue
        stuck = [(n, s.stuck / s.walks) for n, s in got if s.stuck]
        clean = []
        for n, s in got:  # the sizes from the smallest on without a stuck walk
            if s.stuck:
                break
            clean.append((n, s))
        parts = []
        if clean:
            top, s = clean[-1]
            parts.append(f"no stuck walk from {got[0][0]}x{got[0][0]} to {top}x{top} (at {top}x{top}: 0 of "
                         f"{s.walks} walks, 95% upper bound {_rate(wilson(0, s.walks)[1])} a walk)")
        if stuck:
            n0, r0 = stuck[0]
            parts.append(f"first stuck walks at {n0}x{n0} ({_rate(r0)} a walk)")
            n1, r1 = stuck[-1]
            if n1 != n0:
                parts.append(f"{_rate(r1)} a walk at {n1}x{n1}")
            below = [(n, r) for n, r in stuck if r < 0.5]  # short of saturation: a rate near 1 says nothing more
            fit = _fit(below) if len(below) >= 3 else None
            if fit is not None:
                slope, _ = fit
                parts.append(f"from {below[0][0]}x{below[0][0]} to {below[-1][0]}x{below[-1][0]} the rate grows "
                             f"like n^{slope:.1f} (least squares on log-log), so per cell of the board like "
                             f"n^{slope - 2:.1f}: a set whose misses were local patterns, each as likely at every "
                             f"cell, would give n^2 (n^0 per cell)")
        out.append(f"- **{name}**: " + "; ".join(parts) + ".")
    return out


def report(figures, sizes_plan, args, names):
    """The report's Markdown and its chart's SVG."""
    sizes = list(sizes_plan)
    cmd = "python bench/strong_curve.py" + (" " + shlex.join(args.argv) if args.argv else "")
    lines = ["# The curve to 101x101: stuck walks per walk of " + ", ".join(f"`{x}`" for x in names), "",
             f"Command: `{cmd}` ({platform.machine()}, python {platform.python_version()}, "
             f"{os.cpu_count()} cores, seed {args.seed}; each (set, size) a stats campaign in `{_shown(args.db)}`).", "",
             "A run walks until its first stuck walk or the cap; *stuck per walk* counts every walk "
             "(95% Wilson interval). `strong`, `strong+`, `strong++` and `strong+++` are sound (they never close a move that has a "
             "completion), so a stuck walk of any of them is a dead state its arguments did not see: the misses are in "
             "[strong-misses.md](strong-misses.md). Figures of a campaign not finished are marked *(part)*.", "",
             f"![stuck walks per walk]({pathlib.Path(args.report).with_suffix('.svg').name})", "",
             "| n | runs x cap | " + " | ".join(f"{name}: stuck / walks | {name}: stuck per walk (95%) | "
                                                   f"{name}: walks/s" for name in names) + " |",
             "|---|---|" + "---|---|---|" * len(names)]
    series = {name: [] for name in names}
    for n in sizes:
        runs, cap = sizes_plan[n]
        cells = [str(n), f"{runs} x {cap}"]
        for name in names:
            got = figures.get((name, n))
            if got is None:
                cells += ["", "", ""]
                series[name].append(None)
                continue
            s, whole = got
            lo, hi = wilson(s.stuck, s.walks)
            rate = s.stuck / s.walks if s.walks else 0.0
            cells += [f"{s.stuck} / {s.walks}" + ("" if whole else " *(part)*"),
                      f"{_rate(rate)} [{_rate(lo)}, {_rate(hi)}]",
                      f"{s.walks / s.seconds:.3g}" if s.seconds else ""]
            series[name].append(rate if rate > 0 else None)
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Walks/s: the campaign's walks over the seconds its units walked (one core each; the time "
              "of a stuck walk, the dearest, included).", "", "## What it shows", ""]
    lines += findings(figures, names, sizes)
    for weaker, stronger in zip(names, names[1:]):
        cuts = []
        for n in sizes:
            a, b = figures.get((weaker, n)), figures.get((stronger, n))
            if a and b and a[0].stuck and a[0].walks and b[0].walks:
                cuts.append(f"{(a[0].stuck / a[0].walks) / max(b[0].stuck / b[0].walks, 1e-12):.1f}x at {n}"
                            if b[0].stuck else f"none left of {a[0].stuck} at {n}")
        if cuts and weaker != "default":
            lines.append(f"- **{stronger}** against **{weaker}**, stuck walks per walk divided by: "
                         + ", ".join(cuts) + ".")
    lines += ["", "On \"any size\": a rate that grows with n means a fixed rule set of this kind gets stuck "
              "more often the larger the board; what these figures settle is the size range measured, not the "
              "limit. Each miss of `strong` names a dead pattern the next argument has to refute "
              "([strong-misses.md](strong-misses.md))."]
    svg = line_chart(sizes, series, title="stuck walks per walk (no point: none stuck)", xlabel="n",
                     ylabel="stuck per walk", floor=1e-6)
    return "\n".join(lines) + "\n", svg


def _shown(path):
    """A path as the report names it: relative to the project when inside it."""
    p = pathlib.Path(path).resolve()
    return p.relative_to(ROOT).as_posix() if p.is_relative_to(ROOT) else str(path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(n) for n in PLAN))
    parser.add_argument("--sets", default=",".join(SETS), help="rule sets, weakest first")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every size's runs")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--executor", default="local", choices=["local", "ray"])
    parser.add_argument("--address", default=None, help="ray: a running cluster's address")
    parser.add_argument("--db", default=str(ROOT / "reports" / "strong-curve.db"))
    parser.add_argument("--report", default=str(ROOT / "reports" / "strong-curve.md"))
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--no-estimate", action="store_true", help="skip the timed walks of the estimate")
    args = parser.parse_args(argv)
    args.argv = [a for a in (sys.argv[1:] if argv is None else argv) if a != "--report-only"]  # the run it reports
    try:
        sizes = [int(x) for x in args.sizes.split(",") if x]
        names = [x for x in args.sets.split(",") if x]
        sizes_plan = plan(sizes, args.scale)
        sets = {name: get_rule_set(name) for name in names}
        pathlib.Path(args.db).parent.mkdir(parents=True, exist_ok=True)
        with Store(args.db, create=not args.report_only, write=not args.report_only) as store:
            if not args.report_only:
                if not args.no_estimate:
                    total, rows = _estimate(store, sets, sizes_plan, args.seed)
                    jobs = max(1, args.jobs)
                    print(f"to do: about {total / 3600:.2f} h of one core ({total / 3600 / jobs:.2f} h on {jobs}); "
                          f"dearest: " + ", ".join(f"{name} {n}x{n} {sec / 60:.0f} min{'+' if b else ''}" for
                                                   name, n, sec, b in sorted(rows, key=lambda r: -r[2])[:3]),
                          flush=True)
                try:
                    with stop_on_signals():
                        run(store, sets, sizes_plan, args)
                except (CampaignInterrupted, KeyboardInterrupt):
                    print(f"bench/strong_curve.py: stopped; the finished blocks are in {args.db}: run the same "
                          f"command again to go on", file=sys.stderr)
                    sys.exit(130)
            figures = collect(store, sets, sizes_plan, args.seed)
    except LabyrinthError as err:
        print(f"bench/strong_curve.py: {err}", file=sys.stderr)
        sys.exit(2)
    text, svg = report(figures, sizes_plan, args, names)
    out = pathlib.Path(args.report)
    out.write_text(text)
    out.with_suffix(".svg").write_text(svg)
    print(f"wrote {out} and {out.with_suffix('.svg')}")


if __name__ == "__main__":
    main()
