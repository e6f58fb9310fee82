"""Explained findings campaign: short audits of ``default`` at 9, 11, 13, 15 and 21, findings by class.

Usage: python bench/explained.py [--budget 9:60,11:80,13:90,15:100,21:150] [--jobs 2] [--db FILE]
       [--out reports/explained-findings.md]

For each size, audited random walks run in chunks (one campaign per chunk, seeds 0, 1, ...)
until that size's budget of seconds is spent; every missed-dead finding is classified by
:func:`verify.explain.explain`. The report gives counts per class per size (and per 100 walks,
so sizes compare), and the ten most frequent minimal stuck patterns of each class, drawn
(SVG files next to the report).
"""

import argparse
import collections
import platform
import sys
import time
from pathlib import Path

# bench/oracle.py is named like the ``oracle`` package: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.view.svg import render_pattern  # noqa: E402
from verify import AuditSettings, Store, run_campaign  # noqa: E402
from verify.explain import FAMILIES, KINDS, explain_findings  # noqa: E402

CHUNK = {9: 10, 11: 6, 13: 4, 15: 2, 17: 2, 19: 1, 21: 1}


def _budget(text):
    out = {}
    for part in text.split(","):
        n, seconds = part.split(":")
        out[int(n)] = float(seconds)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=_budget, default=_budget("9:60,11:80,13:90,15:100,21:150"),
                    help="N:SECONDS,... audit time per board size")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--db", default=":memory:")
    ap.add_argument("--out", default="reports/explained-findings.md")
    args = ap.parse_args()
    machine = f"{platform.processor() or platform.machine()}, python {platform.python_version()}"
    walks = collections.Counter()
    stuck = collections.Counter()
    seconds = collections.Counter()
    with Store(args.db) as store:
        for n, budget in args.budget.items():
            t0 = time.perf_counter()
            chunk = 0
            while time.perf_counter() - t0 < budget:
                _, totals, _ = run_campaign(store, AuditSettings(
                    n=n, rules_args=("default", (), ()), walks=CHUNK.get(n, 1), seed=chunk, jobs=args.jobs,
                    time_limit=20.0, pattern_time_limit=20.0))
                walks[n] += totals.walks
                stuck[n] += totals.stuck
                chunk += 1
            seconds[n] = time.perf_counter() - t0
            print(f"{n}x{n}: {walks[n]} walks, {stuck[n]} stuck, {seconds[n]:.0f} s", flush=True)
        rows = explain_findings(store, store.findings(kind="missed-dead"))
        patterns = {p["id"]: p for p in store.patterns()}
    out = Path(args.out)
    pics = out.with_suffix("")
    pics.mkdir(parents=True, exist_ok=True)
    text = _report(rows, patterns, walks, stuck, seconds, pics, out.parent, machine, args)
    out.write_text(text)
    print(f"report: {out}")


def _report(rows, patterns, walks, stuck, seconds, pics, base, machine, args):
    sizes = sorted(walks)
    by = collections.defaultdict(collections.Counter)  # kind -> n -> findings
    pats = collections.defaultdict(collections.Counter)  # kind -> pattern id -> findings
    for r in rows:
        kind = r["explained"].kind
        by[kind][r["n"]] += 1
        if r["pattern"] is not None:
            pats[kind][r["pattern"]] += 1
    budget = ",".join(f"{n}:{s:g}" for n, s in args.budget.items())
    lines = [
        "# Explained findings: which rule family is missing (rule set `default`)",
        "",
        f"Command: `python bench/explained.py --budget {budget} --jobs {args.jobs}` "
        f"(machine: {machine}, 2 cores shared with other work; audits niced).",
        "",
        "Short audits of random walks under `default` at each size; every missed-dead finding (an open move "
        "into a state without completion, confirmed by a second backend) is classified by the cheapest sound "
        "argument that refutes its dead state on the whole board (`verify/explain.py`): "
        + ", ".join(f"`{k}`" for k in KINDS) + ". The rules apply the same checks only to the step, within "
        "their reach (the area analysis looks at the areas the step closes, two-gate areas only next to the "
        "head), so a finding in a class is a place where that family's reach falls short; `needs-search` "
        "findings are refuted by no local argument at all (only size-specific pattern rules or search).",
        "",
        "## Walks and findings per size",
        "",
        "| n | walks | stuck | audit s | missed-dead | " + " | ".join(KINDS) + " |",
        "|---|---|---|---|---|" + "---|" * len(KINDS),
    ]
    for n in sizes:
        total = sum(by[k][n] for k in KINDS)
        lines.append(f"| {n} | {walks[n]} | {stuck[n]} | {seconds[n]:.0f} | {total} | "
                     + " | ".join(str(by[k][n]) for k in KINDS) + " |")
    lines += ["", "Per 100 walks (how each class grows with n):", "",
              "| n | " + " | ".join(KINDS) + " |", "|---|" + "---|" * len(KINDS)]
    for n in sizes:
        lines.append(f"| {n} | " + " | ".join(f"{100 * by[k][n] / max(walks[n], 1):.1f}" for k in KINDS) + " |")
    lines += ["", "## Classes and the rules meant to catch them", "",
              "| class | rule family | findings | distinct patterns |", "|---|---|---|---|"]
    for k in KINDS:
        family = ", ".join(FAMILIES[k]) or "none (size-specific pattern rules, search)"
        if k == "future-lines":
            family += " (off in `default`)"
        lines.append(f"| {k} | {family} | {sum(by[k].values())} | {len(pats[k])} |")
    lines += ["", "## The ten most frequent patterns of each class", "",
              "Each pattern in its own frame: the head at the centre heading up, dark = taken, hatched = border, "
              "white = must be visited, E = the end, pale = either. Counts are findings of this campaign.", ""]
    for k in KINDS:
        top = pats[k].most_common(10)
        lines += [f"### {k}", ""]
        if not top:
            lines += ["No findings of this class with a minimal pattern.", ""]
            continue
        for pid, count in top:
            p = patterns[pid]
            name = f"{k}-{pid}.svg"
            (pics / name).write_text(render_pattern(p["facts"], title=p["drawing"], id_prefix=f"p{pid}_"))
            rel = (pics / name).relative_to(base)
            lines += [f"**pattern {pid}**: {count} findings, e.g. `{p['example']}`", "",
                      f"![pattern {pid}]({rel})", "", "```", p["drawing"], "```", ""]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
