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
(and the rest of its run), on ``--jobs`` processes, stores each run as it is
done in a JSON-lines file (a stop loses only the runs in hand; running again
goes on), and writes the figures of both sets side by side: per campaign, and
per size over its seeds. A run is known by its size, seed, cap and number, which
decide its walks, so two campaigns of the same settings (one started again
under a new id) share the runs walked again.

    python bench/strong_gates.py --jobs 2            # reports/strong-curve-2027.db, strong+++ -> strong++++
    python bench/strong_gates.py --report-only

The same holds for any sound rules added to the base set: ``--rules strong+++
--on probe-cut:3 --runs reports/probe-cut.jsonl --report reports/probe-cut.md``
measures ``strong+++`` with the probe whose suppositions the cut rule closes.
And it chains: a walk that a set contained in the stronger one completed, the
stronger one completes too. ``--also RUNS`` names the runs walked again of
such sets (``strong++++`` and ``strong+++ --on probe-cut:3`` for ``strong++++
--on probe-cut:3``): a run one of them completed is complete, and the others
start from the furthest walk those reached, so only the runs every one of them
left stuck are walked again.
"""

import argparse
import itertools
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
from labyrinth.errors import Interrupted  # noqa: E402
from labyrinth.jobs import WorkerPool, stop_on_signals  # noqa: E402
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
        out[_key(rec["n"], rec["seed"], rec["cap"], rec["run"])] = rec
    return out


def _key(n, seed, cap, run):
    """A run walked again, by what decides its walks: two campaigns of the same size, seed and cap walk the same
    runs (one resumed under a new id, say), so a run is walked again once for both."""
    return n, seed, cap, run


#: this process's runner of the stronger set, by name (a worker builds it once, for its first run)
_RUNNERS = {}


def again(rules, on, campaign, n, seed, cap, run, k, start=None):
    """Run ``run`` of the stronger set ``rules`` (with the optional rules ``on``) from its walk ``start`` (by
    default ``k``, the first stuck one of the base set) to the cap: the record of the run."""
    start = k if start is None else start
    runner = _RUNNERS.get((rules, on))
    if runner is None:
        runner = _RUNNERS[rules, on] = get_rule_set(rules, on=on).runner()
    t0 = time.perf_counter()
    closed = getattr(runner, "closed", 0)  # moves the pausing rules closed (a set without them: none)
    board = State.from_moves(n, "").board
    done, ran = runner.runs_until_stuck(board, seed, (run << 32) + start, cap - start)
    return {"campaign": campaign, "n": n, "seed": seed, "cap": cap, "run": run, "base_sample": k, "sample": start + done,
            "walks": start + ran, "gates_closed": getattr(runner, "closed", 0) - closed, "seconds": round(time.perf_counter() - t0, 1)}


def _rate(stuck, walks):
    lo, hi = wilson(stuck, walks)
    shown = f"{walks:,}".replace(",", " ")
    return f"{stuck} / {shown} | {stuck / walks if walks else 0:.1e} [{lo:.1e}, {hi:.1e}]"


def report(rows, recs, args):
    lines = [f"# `{args.label}` on the campaigns of `{args.base}`", "",
             f"Command: `{shlex.join(['python', 'bench/strong_gates.py', *args.argv])}` over the stats campaigns of "
             f"`{args.db}`, {platform.machine()}, python {platform.python_version()}.", "",
             f"`{args.label}` walks the walks of `{args.base}` step for step until the rules it adds close a move "
             "the walk drew, and they close only dead moves, which the base set takes and then gets stuck. So each "
             f"campaign of `{args.label}` on the same seed is the campaign of `{args.base}` with its stuck walks walked again, "
             "and where one completes now, the rest of its run walked (`bench/strong_gates.py` says why). The "
             "figures below are those campaigns, exactly, not an estimate: stuck walks per walk, Wilson 95% "
             "intervals.", "",
             f"| n | campaign | runs (cap) | `{args.base}`: stuck / walks | per walk [95%] | `{args.label}`: "
             "stuck / walks | per walk [95%] | stuck walks walked again | of them completed now |",
             "|---|---|---|---|---|---|---|---|---|"]
    widest = {}  # (n, seed) -> the campaign of the most walks (those of one seed are the same walks)
    for row in rows:
        if row[5] > widest.get(row[1:3], (0,) * 6)[5]:
            widest[row[1:3]] = row
    pooled = {}  # n -> [base stuck, base walks, stuck, walks, seeds] over the widest campaigns walked again whole
    for campaign, n, seed, cap, runs, walks, stuck in rows:
        mine = [recs[_key(n, seed, cap, r)] for r, _ in stuck if _key(n, seed, cap, r) in recs]
        if len(mine) < len(stuck):
            lines.append(f"| {n} | {campaign} (seed {seed}) | {runs} ({cap}) | {_rate(len(stuck), walks)} | "
                         f"{len(mine)} of {len(stuck)} runs walked again so far |  |  |  |")
            continue
        new_walks = walks - sum(k + 1 for _, k in stuck) + sum(rec["walks"] for rec in mine)
        new_stuck = sum(1 for rec in mine if rec["sample"] < cap)
        fixed = sum(1 for rec in mine if rec["sample"] > rec["base_sample"])
        lines.append(f"| {n} | {campaign} (seed {seed}) | {runs} ({cap}) | {_rate(len(stuck), walks)} | "
                     f"{_rate(new_stuck, new_walks)} | {len(stuck)} | {fixed} |")
        if widest[(n, seed)][0] != campaign:
            continue
        row = pooled.setdefault(n, [0, 0, 0, 0, 0])
        for i, x in enumerate((len(stuck), walks, new_stuck, new_walks, 1)):
            row[i] += x
    if any(row[4] > 1 for row in pooled.values()):
        lines += ["", "Every seed of a size together (per seed its campaign of the most walks, walked again whole):", "",
                  f"| n | seeds | `{args.base}`: stuck / walks | per walk [95%] | `{args.label}`: stuck / walks | "
                  "per walk [95%] |", "|---|---|---|---|---|---|"]
        for n, (bs, bw, ns, nw, k) in sorted(pooled.items()):
            lines.append(f"| {n} | {k} | {_rate(bs, bw)} | {_rate(ns, nw)} |")
    lines += ["", "## The runs walked again", "",
              "| n | campaign | run | walk of `" + args.base + "` stuck | `" + args.label + "`: walkthroughs "
              "(cap) | moves the gates closed | seconds |", "|---|---|---|---|---|---|---|"]
    for rec in sorted(recs.values(), key=lambda r: (r["n"], r["seed"], r["campaign"], r["run"])):
        lines.append(f"| {rec['n']} | {rec['campaign']} | {rec['run']} | {rec['base_sample']} | {rec['sample']} "
                     f"({rec['cap']}) | {rec['gates_closed']} | {rec['seconds']} |")
    return "\n".join(lines) + "\n"


def _walked(todo, jobs):
    """The records of the runs ``todo`` (:func:`again`'s arguments) as they finish, on ``jobs`` processes; a stop
    (Ctrl-C, SIGTERM) ends it at once, the runs finished kept by the caller."""
    if jobs <= 1:
        with stop_on_signals():
            for task in todo:
                yield again(*task)
        return
    with WorkerPool(jobs) as pool:
        yield from pool.map_unordered(again, todo, window=jobs)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default="reports/strong-curve-2027.db")
    ap.add_argument("--base", default="strong+++")
    ap.add_argument("--rules", default="strong++++")
    ap.add_argument("--on", default="", help="optional rules switched on in --rules, comma-separated (probe-cut:3)")
    ap.add_argument("--also", action="append", default=[],
                    help="the runs walked again (JSON lines) of a set the stronger one contains; repeatable")
    ap.add_argument("--max-n", type=int, default=101)
    ap.add_argument("--runs", default="reports/strong-gates.jsonl", help="the runs walked again (JSON lines)")
    ap.add_argument("--report", default="reports/strong-gates.md")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--jobs", type=int, default=1, help="runs walked again at once (worker processes)")
    args = ap.parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else list(argv)
    on = tuple(sorted(x for x in args.on.split(",") if x))
    if on:
        args.rules_on, args.label = on, f"{args.rules} --on {','.join(on)}"
    else:
        args.rules_on, args.label = (), args.rules
    out = pathlib.Path(args.runs)
    with Store(args.db) as store:
        rows = [r for r in base_runs(store, args.base) if r[1] <= args.max_n]
    recs = load(out)
    if not args.report_only:
        also = [load(pathlib.Path(p)) for p in args.also]
        todo, known = {}, {}
        for campaign, n, seed, cap, _, _, stuck in rows:
            for run, k in stuck:
                key = _key(n, seed, cap, run)
                if key in recs or key in todo or key in known:
                    continue
                start = max([k] + [a[key]["sample"] for a in also if key in a])
                if start >= cap:  # a set this one contains completed the run: so does this one, walk for walk
                    known[key] = {"campaign": campaign, "n": n, "seed": seed, "cap": cap, "run": run, "base_sample": k,
                                  "sample": cap, "walks": cap, "gates_closed": 0, "seconds": 0.0, "known": True}
                    continue
                todo[key] = (args.rules, args.rules_on, campaign, n, seed, cap, run, k, start)
        todo = todo.values()
        try:
            with out.open("a") as f:
                for rec in itertools.chain(known.values(), _walked(todo, args.jobs)):
                    recs[_key(rec["n"], rec["seed"], rec["cap"], rec["run"])] = rec
                    f.write(json.dumps(rec) + "\n")
                    f.flush()
                    print(json.dumps(rec), flush=True)
        except Interrupted:
            print(f"stopped: the runs finished are kept in {out}; run again to go on", file=sys.stderr)
            sys.exit(2)
    pathlib.Path(args.report).write_text(report(rows, recs, args))
    print(f"wrote {args.report}")


if __name__ == "__main__":
    main()
