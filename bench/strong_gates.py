"""`strong++++` on the campaigns of `strong+++`, exactly, by walking again only the stuck walks (issue 40).

`strong++++` is `strong+++` with the gates (:mod:`labyrinth.rules.gates`), a
sound rule asked only at a move the walker is about to take. Both walkers draw
from the same random numbers, so a walk of `strong++++` leaves the walk of
`strong+++` only where the gates close the move it drew; the gates close only
dead moves, and `strong+++` takes that move, so its walk was stuck. Every walk
`strong+++` completed is therefore a walk `strong++++` completes, step for
step, and a stats campaign of `strong++++` on the same seed is the campaign of
`strong+++` with its stuck walks walked again: where one completes now, its run
goes on (walks `strong+++` never took) until a stuck walk or the cap.

This script reads the stats campaigns of the base set in a store
(``bench/strong_curve.py``), walks each stuck walk again under the stronger set
(and the rest of its run), stores each run as it is done in a JSON-lines file
(a stop loses only the run in hand; running again goes on), and writes the
figures of both sets side by side.

    python bench/strong_gates.py                     # reports/strong-curve-2027.db, strong+++ -> strong++++
    python bench/strong_gates.py --report-only
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

from labyrinth.engine import State  # noqa: E402
from labyrinth.engine.walker import wilson  # noqa: E402
from labyrinth.jobs import stop_on_signals  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402
from verify import stats_campaign  # noqa: E402
from verify.store import Store  # noqa: E402


def base_runs(store, base):
    """Per stats campaign of ``base`` (no rules switched): ``(campaign id, n, seed, cap, runs, walks, stuck runs)``,
    the stuck runs as ``(run, walkthroughs before the stuck walk)``."""
    out = []
    for c in store.campaigns():
        if c["kind"] != stats_campaign.KIND:
            continue
        p = json.loads(c["params"])
        if p["rules"] != base or p["on"] or p["off"]:
            continue
        per = {}
        for unit, totals in store.done_units(c["id"]).items():
            n, first, _ = stats_campaign.parse_unit(unit)
            row = per.setdefault(n, [0, 0, []])
            samples = totals.get("samples", ())
            row[0] += len(samples)
            row[1] += int(totals.get("walks", 0))
            row[2] += [(first + i, k) for i, k in enumerate(samples) if k < p["cap"]]
        for n, (runs, walks, stuck) in sorted(per.items()):
            out.append((c["id"], n, p["seed"], p["cap"], runs, walks, sorted(stuck)))
    return out


def load(path):
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a stop
        out[(rec["campaign"], rec["n"], rec["run"])] = rec
    return out


def again(runner, campaign, n, seed, cap, run, k):
    """Run ``run`` of the stronger set from its walk ``k`` (the first stuck one of the base set) to the cap."""
    t0 = time.perf_counter()
    closed = runner.closed
    board = State.from_moves(n, "").board
    done, ran = runner.runs_until_stuck(board, seed, (run << 32) + k, cap - k)
    return {"campaign": campaign, "n": n, "seed": seed, "cap": cap, "run": run, "base_sample": k, "sample": k + done,
            "walks": k + ran, "gates_closed": runner.closed - closed, "seconds": round(time.perf_counter() - t0, 1)}


def _rate(stuck, walks):
    lo, hi = wilson(stuck, walks)
    shown = f"{walks:,}".replace(",", " ")
    return f"{stuck} / {shown} | {stuck / walks if walks else 0:.1e} [{lo:.1e}, {hi:.1e}]"


def report(rows, recs, args):
    lines = [f"# `{args.rules}` on the campaigns of `{args.base}`", "",
             f"Command: `{shlex.join(['python', 'bench/strong_gates.py', *args.argv])}` over the stats campaigns of "
             f"`{args.db}`, {platform.machine()}, python {platform.python_version()}.", "",
             f"`{args.rules}` walks the walks of `{args.base}` step for step until the gates close a move the walk "
             "drew, and they close only dead moves, which the base set takes and then gets stuck. So each campaign "
             f"of `{args.rules}` on the same seed is the campaign of `{args.base}` with its stuck walks walked again, "
             "and where one completes now, the rest of its run walked (`bench/strong_gates.py` says why). The "
             "figures below are those campaigns, exactly, not an estimate: stuck walks per walk, Wilson 95% "
             "intervals.", "",
             f"| n | campaign | runs (cap) | `{args.base}`: stuck / walks | per walk [95%] | `{args.rules}`: "
             "stuck / walks | per walk [95%] | stuck walks walked again | of them completed now |",
             "|---|---|---|---|---|---|---|---|---|"]
    for campaign, n, seed, cap, runs, walks, stuck in rows:
        mine = [recs[(campaign, n, r)] for r, _ in stuck if (campaign, n, r) in recs]
        if len(mine) < len(stuck):
            lines.append(f"| {n} | {campaign} | {runs} ({cap}) | {_rate(len(stuck), walks)} | "
                         f"{len(mine)} of {len(stuck)} runs walked again so far |  |  |  |")
            continue
        new_walks = walks - sum(k + 1 for _, k in stuck) + sum(rec["walks"] for rec in mine)
        new_stuck = sum(1 for rec in mine if rec["sample"] < cap)
        fixed = sum(1 for rec in mine if rec["sample"] > rec["base_sample"])
        lines.append(f"| {n} | {campaign} | {runs} ({cap}) | {_rate(len(stuck), walks)} | "
                     f"{_rate(new_stuck, new_walks)} | {len(stuck)} | {fixed} |")
    lines += ["", "## The runs walked again", "",
              "| n | campaign | run | walk of `" + args.base + "` stuck | `" + args.rules + "`: walkthroughs "
              "(cap) | moves the gates closed | seconds |", "|---|---|---|---|---|---|---|"]
    for rec in sorted(recs.values(), key=lambda r: (r["n"], r["campaign"], r["run"])):
        lines.append(f"| {rec['n']} | {rec['campaign']} | {rec['run']} | {rec['base_sample']} | {rec['sample']} "
                     f"({rec['cap']}) | {rec['gates_closed']} | {rec['seconds']} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default="reports/strong-curve-2027.db")
    ap.add_argument("--base", default="strong+++")
    ap.add_argument("--rules", default="strong++++")
    ap.add_argument("--max-n", type=int, default=101)
    ap.add_argument("--runs", default="reports/strong-gates.jsonl", help="the runs walked again (JSON lines)")
    ap.add_argument("--report", default="reports/strong-gates.md")
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else list(argv)
    out = pathlib.Path(args.runs)
    with Store(args.db) as store:
        rows = [r for r in base_runs(store, args.base) if r[1] <= args.max_n]
    recs = load(out)
    if not args.report_only:
        runner = get_rule_set(args.rules).runner()
        with stop_on_signals(), out.open("a") as f:
            for campaign, n, seed, cap, _, _, stuck in rows:
                for run, k in stuck:
                    if (campaign, n, run) in recs:
                        continue
                    rec = again(runner, campaign, n, seed, cap, run, k)
                    recs[(campaign, n, run)] = rec
                    f.write(json.dumps(rec) + "\n")
                    f.flush()
                    print(json.dumps(rec), flush=True)
    pathlib.Path(args.report).write_text(report(rows, recs, args))
    print(f"wrote {args.report}")


if __name__ == "__main__":
    main()
