"""How far local rules go: the walk statistic of `universal + window:R` for growing R, beside `default` and `strong`.

For every board size and rule set (a *unit*), runs of random walks (each up
to ``--cap`` walkthroughs, until the first stuck walk) within a time budget;
each unit is stored in ``--store`` as it finishes, so an interrupted campaign
continues with ``--resume``. Then ``reports/rule-strength.md`` (tables, a
chart of stuck walks per walk on a log scale, and what the figures show) is
written from the store.

    python bench/rule_strength.py                       # the whole campaign (hours; resumable)
    python bench/rule_strength.py --resume              # continue it
    python bench/rule_strength.py --report-only         # rewrite the report from the store
    python bench/rule_strength.py --sizes 7,9 --radii 1,2 --runs 50 --store /tmp/u.jsonl --report /tmp/r.md
"""

import argparse
import json
import math
import pathlib
import platform
import shlex
import signal
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from labyrinth.engine.walker import STUDY_7X7_RULES, walk_runs, wilson  # noqa: E402
from labyrinth.jobs import held, stop_on_signals  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402
from labyrinth.view.charts import line_chart  # noqa: E402

#: the study's full rule set, as its text reports it: stuck walks per walk
STUDY_ALL_RULES = {11: (0, 1_000_000), 13: (1, 4_000)}


def rule_sets(radii, lines):
    """(label, rule set name, rules switched on) of every set the campaign measures, weakest first."""
    out = [("universal", "universal", ())]
    if lines:
        out.append(("universal + future-lines", "universal", ("future-lines",)))
    for r in radii:
        out.append((f"universal + window:{r}", "universal", (f"window:{r}",)))
        if lines:
            out.append((f"universal + future-lines + window:{r}", "universal", ("future-lines", f"window:{r}")))
    out += [("default", "default", ()), ("strong", "strong", ())]
    return out


def load(store):
    """The stored units: (label, n) -> record."""
    units = {}
    if store.exists():
        for line in store.read_text().splitlines():
            if line.strip():
                rec = json.loads(line)
                units[rec["set"], rec["n"]] = rec
    return units


def run_unit(label, name, on, n, args, cache):
    """Runs of one unit within its budget; the record to store."""
    rules = cache.get(label)
    if rules is None:
        rules = cache[label] = get_rule_set(name, on=on)
        walk_runs(5, rules, 0, 0, 1, 1)  # compile (or load) the kernels outside the unit's time budget
    t0 = time.perf_counter()
    samples, walks = [], 0
    while len(samples) < args.runs and time.perf_counter() - t0 < args.unit_seconds:
        first = len(samples)
        got, ran = walk_runs(n, rules, args.seed, first, min(args.runs, first + args.chunk), args.cap)
        samples += got
        walks += ran
    censored = sum(1 for x in samples if x >= args.cap)
    return {"set": label, "rules": name, "on": list(on), "n": n, "runs": len(samples), "cap": args.cap,
            "seed": args.seed, "samples": samples, "walks": walks, "stuck": len(samples) - censored,
            "censored": censored, "seconds": round(time.perf_counter() - t0, 2)}


def summary(rec):
    """Mean walkthroughs before the first stuck walk (95% CI) and stuck walks per walk (Wilson 95% CI)."""
    xs = rec["samples"]
    runs = len(xs)
    mean = sum(xs) / runs
    var = sum((x - mean) ** 2 for x in xs) / (runs - 1) if runs > 1 else 0.0
    half = 1.96 * math.sqrt(var / runs)
    rate = rec["stuck"] / rec["walks"] if rec["walks"] else 0.0
    return mean, max(0.0, mean - half), mean + half, rate, *wilson(rec["stuck"], rec["walks"])


def _rate(x):
    return f"{x:.2e}" if x else "0"


def report(units, sets, sizes, args):
    """The report's Markdown and the chart's SVG."""
    labels = [label for label, _, _ in sets]
    lines = ["# How far local rules go", "",
             f"Command: `python bench/rule_strength.py{' ' + ' '.join(args.argv) if args.argv else ''}` "
             f"(machine: {platform.machine()}, python {platform.python_version()}, "
             f"{args.cores} cores; each unit at most {args.runs} runs of up to {args.cap} walkthroughs, "
             f"within {args.unit_seconds:.0f} s, seed {args.seed}).", "",
             "Each figure comes from random walks under the rule set: a run walks until its first stuck walk "
             "(or the cap); *mean* is the study's statistic (walkthroughs completed before the first stuck walk, "
             "censored at the cap), *stuck per walk* counts every walk. `window:R` closes a move whose "
             "(2R+1)x(2R+1) window round the new head cannot be traversed however the board outside it looks "
             "(`labyrinth/rules/window.py`): the strongest kind of rule that reads only that window. "
             "`strong` is the closure of future lines, two-matching and connectedness "
             "(`labyrinth/rules/closure.py`) over the universal rules.", "",
             "![stuck walks per walk](rule-strength.svg)", "",
             "## Stuck walks per walk", "",
             "| rule set | " + " | ".join(str(n) for n in sizes) + " |",
             "|---|" + "---|" * len(sizes)]
    series = {}
    for label in labels:
        cells, vals = [], []
        for n in sizes:
            rec = units.get((label, n))
            if rec is None or not rec["walks"]:
                cells.append("")
                vals.append(None)
                continue
            _, _, _, rate, lo, hi = summary(rec)
            cells.append(f"{_rate(rate)} ({rec['stuck']}/{rec['walks']})")
            vals.append(rate if rate > 0 else hi / 10)  # zero: drawn on the floor
        series[label] = vals
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    study = []
    for n in sizes:
        k, w = STUDY_ALL_RULES.get(n, (None, None))
        study.append("" if k is None else f"{_rate(k / w)} ({k}/{w})")
    lines.append("| the study, all its rules | " + " | ".join(study) + " |")
    lines += ["", "## Mean walkthroughs before the first stuck walk (95% CI; censored runs count as the cap)", "",
              "| rule set | " + " | ".join(str(n) for n in sizes) + " |", "|---|" + "---|" * len(sizes)]
    for label in labels:
        cells = []
        for n in sizes:
            rec = units.get((label, n))
            if rec is None or not rec["runs"]:
                cells.append("")
                continue
            mean, lo, hi, _, _, _ = summary(rec)
            cen = f", {rec['censored']}/{rec['runs']} at cap" if rec["censored"] else ""
            cells.append(f"{mean:.2f} [{lo:.2f}, {hi:.2f}]{cen}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("| the study, 7x7 rules | " + " | ".join(
        f"{STUDY_7X7_RULES[n]}" if n in STUDY_7X7_RULES else "" for n in sizes) + " |")
    lines += ["", "## What it shows", ""] + findings(units, labels, sizes) + [""]
    chart_series = {label: series[label] for label in labels}
    svg = line_chart(sizes, chart_series, title="stuck walks per walk (log scale; none stuck: drawn at a tenth "
                     "of the 95% upper bound)", xlabel="board size n", ylabel="stuck per walk", floor=1e-6)
    return "\n".join(lines), svg


def findings(units, labels, sizes):
    """Plain statements read off the figures: per rule set how the stuck rate grows with n and where it passes 10%,
    and per window rule what it adds to the same set without it."""
    out = []
    rates = {}
    for label in labels:
        pts = [(n, summary(units[label, n])[3]) for n in sizes if (label, n) in units and units[label, n]["walks"]]
        rates[label] = dict(pts)
        if len(pts) < 2:
            continue
        if all(r == 0 for _, r in pts):
            total = sum(units[label, n]["walks"] for n, _ in pts)
            out.append(f"- **{label}**: no stuck walk at any size ({total} walks from n = {pts[0][0]} to {pts[-1][0]}).")
            continue
        rising = all(b >= a for (_, a), (_, b) in zip(pts, pts[1:]))
        past = next((n for n, r in pts if r > 0.10), None)
        trend = "rises with n at every step" if rising else "rises with n overall" if pts[-1][1] > pts[0][1] \
            else "does not rise with n"
        where = f"passes 10% stuck per walk at n = {past}" if past else "stays under 10% up to the largest n measured"
        out.append(f"- **{label}**: stuck per walk {_rate(pts[0][1])} at n = {pts[0][0]}, {_rate(pts[-1][1])} at "
                   f"n = {pts[-1][0]}; it {trend}, and {where}.")
    out.append("")
    for label in labels:
        if " + window:" not in label:
            continue
        base = label.rsplit(" + window:", 1)[0]
        if base not in rates:
            continue
        cuts = [(n, 1 - rates[label][n] / rates[base][n]) for n in sizes
                if n in rates[label] and n in rates[base] and rates[base][n] > 0]
        if not cuts:
            continue
        text = ", ".join(f"{100 * c:+.0f}% at {n}" if c else f"none at {n}" for n, c in cuts)
        out.append(f"- **{label}** against **{base}**: stuck walks cut by {text}.")
    return out


def _run_units(sets, sizes, units, store, args):
    """Run the units not in ``units`` yet, appending each to ``store`` as it finishes."""
    cache = {}
    for label, name, on in sets:
        for n in sizes:
            if (label, n) in units:
                continue
            rec = run_unit(label, name, on, n, args, cache)
            with held():  # a stop waits for the unit's line
                units[label, n] = rec
                with store.open("a") as f:
                    f.write(json.dumps(rec) + "\n")
            print(f"{label:40s} n={n:2d} runs={rec['runs']:4d} walks={rec['walks']:6d} stuck={rec['stuck']:5d} "
                  f"{rec['seconds']:7.1f} s", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="7,9,11,13,15,17,19,21")
    parser.add_argument("--radii", default="1,2,3")
    parser.add_argument("--no-lines", action="store_true", help="leave out the sets with future lines")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--cap", type=int, default=50)
    parser.add_argument("--chunk", type=int, default=10, help="runs between looks at the clock")
    parser.add_argument("--unit-seconds", type=float, default=150.0, help="time budget of one unit")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--store", default=str(ROOT / "reports" / "rule_strength_units.jsonl"))
    parser.add_argument("--report", default=str(ROOT / "reports" / "rule-strength.md"))
    parser.add_argument("--resume", action="store_true", help="keep the stored units and run only the missing ones")
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    args.cores = __import__("os").cpu_count()
    sizes = [int(x) for x in args.sizes.split(",")]
    radii = [int(x) for x in args.radii.split(",") if x]
    sets = rule_sets(radii, not args.no_lines)
    store = pathlib.Path(args.store)
    units = load(store)
    if not args.report_only:
        if not args.resume:
            units = {}
            store.write_text("")
        try:
            with stop_on_signals():
                _run_units(sets, sizes, units, store, args)
        except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM: the units finished are in the store
            again = shlex.join(["python", "bench/rule_strength.py", *[a for a in args.argv if a != "--resume"],
                                "--resume"])
            print(f"bench/rule_strength.py: interrupted ({signal.Signals(getattr(stop, 'signum', 2)).name}); "
                  f"{len(units)} units stored in {store}; continue with: {again}", file=sys.stderr)
            sys.exit(getattr(stop, "status", 130))
    text, svg = report(units, sets, sizes, args)
    out = pathlib.Path(args.report)
    out.write_text(text + "\n")
    out.with_suffix(".svg").write_text(svg)
    print(f"wrote {out} and {out.with_suffix('.svg')}")


if __name__ == "__main__":
    main()
