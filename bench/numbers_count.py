"""Number puzzle count benchmarks: 5x5 and 6x6 (1 and 2 jobs) timed, 7x7 from a unit log, 8x8 estimated.

Usage: python bench/numbers_count.py [--repeat 3] [--seven LOG] [--eight-samples 300] [--report FILE.md]

Targets (issue 13): the 6x6 count (all directed paths, per start cell, closed tours) under 10 s on
the 2-core machine (its author's program needed about 30 minutes; a plain C depth-first search
without symmetry needs 46 s); 7x7 counted and recorded (no published figure); 8x8 attempted, with
the time it would take. ``--seven LOG`` reads the units of a 7x7 count run with
``labyrinth numbers count -n 7 --log LOG`` (every unit done: the totals come from the log alone);
without it the 7x7 count is not run here (about an hour on one core). The 8x8 estimate samples
random prefixes (Knuth's estimator, :func:`labyrinth.puzzles.numbers.count.estimate`), checked
first on 7x7 against the real count when ``--seven`` is given.
"""

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

# keep bench/ off the import path (bench/oracle.py is named like the ``oracle`` package)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.puzzles.numbers.count import count_solutions, estimate  # noqa: E402


def _machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            names = [line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")]
        cpu = names[0] if names else cpu
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, load average {load:.1f} at start"


def _timed(n, jobs, repeat):
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = count_solutions(n, jobs=jobs)
        times.append(time.perf_counter() - t0)
    return result, times


def _seven_check():
    """The 7x7 centre cell's paths with no symmetry, and the cycles through cell (4,2): independent recounts."""
    from labyrinth.core import count as C
    from labyrinth.core.count_plan import _prefixes_from
    from labyrinth.puzzles.numbers import LEAPS, numbers_graph

    g = numbers_graph(7)
    C._init(C.default_memo_log2(7))
    centre = sum(C._count_unit(7, LEAPS, "check", "open", p, (), None)[2] for p in _prefixes_from(g, (24,), 2))
    C._init(C.default_memo_log2(7))
    s = g.cell(4, 2)
    nbrs = sorted(g.neighbours_of(s))
    cycles = 0
    for a in nbrs:
        ends = tuple(b for b in nbrs if b > a)
        for p in _prefixes_from(g, (s, a), 1) if ends else ():
            cycles += C._count_unit(7, LEAPS, "check", "closed", p, ends, None)[2]
    C._CTX.clear()
    return centre, cycles


def _years(seconds):
    return seconds / (365.25 * 86400)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3, help="runs per timing (the median is reported)")
    ap.add_argument("--seven", metavar="LOG", help="the unit log of a finished 7x7 count")
    ap.add_argument("--seven-check", action="store_true",
                    help="recount the 7x7 centre cell without symmetry and the cycles through another cell (3 min)")
    ap.add_argument("--seven-samples", type=int, default=200, help="samples of the estimator checked on 7x7")
    ap.add_argument("--eight-samples", type=int, default=300, help="samples of the 8x8 estimate (0: none)")
    ap.add_argument("--eight-depth", type=int, default=14, help="moves in each sampled 8x8 prefix")
    ap.add_argument("--eight-closed-depth", type=int, default=12, help="moves in each sampled 8x8 closed prefix")
    ap.add_argument("--report", metavar="FILE.md", help="also write the figures as a Markdown fragment here")
    args = ap.parse_args()
    command = "python " + " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]])
    machine = _machine()
    print(f"machine: {machine}")
    count_solutions(5)  # load the kernels outside the timing
    lines = []
    rows = []
    for n, jobs in ((5, 1), (6, 1), (6, 2)):
        r, times = _timed(n, jobs, args.repeat)
        med = statistics.median(times)
        print(f"{n}x{n}, {jobs} job(s): median {med:.2f} s of {len(times)} (min {min(times):.2f}): {r.paths} paths, "
              f"{r.cycles} cycles, {r.classes} classes, {r.units} units, {r.nodes} nodes", flush=True)
        rows.append(f"| {n}x{n} | {jobs} | {med:.2f} s (min {min(times):.2f}) | {r.paths:,} | {r.cycles:,} | "
                    f"{r.classes:,} | {r.units} | {r.nodes:,} |")
        six = r
    grid = "\n".join("    " + " ".join(f"{v:>6}" for v in row) for row in six.grid())
    lines += ["| board | jobs | time (median) | directed paths | Hamiltonian cycles | classes | units | nodes |",
              "|---|---|---|---|---|---|---|---|", *rows, "",
              "6x6 paths per start cell (row 1 first):", "", grid, ""]
    if args.seven:
        units = [json.loads(line) for line in Path(args.seven).read_text().splitlines() if line.strip()]
        with tempfile.TemporaryDirectory() as tmp:  # a copy: units the log lacks (renamed since) are added there
            copy = Path(tmp) / "units.jsonl"
            shutil.copy(args.seven, copy)
            r = count_solutions(7, log=copy)  # every open and closed unit is in the log: those do not run
        unit_seconds = sum(u["seconds"] for u in units if u["n"] == 7)
        open_seconds = sum(u["seconds"] for u in units if u["unit"].startswith("open"))
        print(f"7x7: {r.paths} paths, {r.cycles} cycles, {r.classes} classes, {r.units} units, "
              f"{r.nodes} nodes, {unit_seconds:.0f} s in units", flush=True)
        grid7 = "\n".join("    " + " ".join(f"{v:>10}" for v in row) for row in r.grid())
        lines += [f"7x7 (new: no published figure): **{r.paths:,}** directed paths ({r.undirected:,} undirected), "
                  f"**{r.classes:,}** classes under the 8 symmetries and reversal, **{r.cycles:,}** Hamiltonian "
                  f"cycles ({r.closed:,} closed solutions, {r.closed_per_start:,} from each cell); {r.units} units, "
                  f"{r.nodes:,} search nodes, {unit_seconds / 60:.0f} minutes of unit time on 1 worker at nice 10 "
                  f"on the shared machine (`labyrinth numbers count -n 7 --log FILE`).", "",
                  "7x7 paths per start cell (row 1 first):", "", grid7, ""]
        if args.seven_check:
            t0 = time.perf_counter()
            centre, cycles = _seven_check()
            ok = centre == r.per_start[24] and cycles == r.cycles
            print(f"7x7 independent check ({time.perf_counter() - t0:.0f} s): centre {centre}, cycles through (4,2) "
                  f"{cycles}: {'agree' if ok else 'DISAGREE'}", flush=True)
            lines += [f"Independent check ({time.perf_counter() - t0:.0f} s): the centre cell recounted without "
                      f"symmetry (every first two moves, fresh memo) gives {centre:,}, and the cycles counted through "
                      f"cell (4,2) instead of the corner give {cycles:,}: "
                      + ("both agree." if ok else "**they disagree**."), ""]
        if args.seven_samples:
            t0 = time.perf_counter()
            e = estimate(7, depth=8, samples=args.seven_samples, seed=1)
            print(f"7x7 estimator check ({args.seven_samples} samples, {time.perf_counter() - t0:.0f} s): paths "
                  f"{e['paths']:.3g} +- {e['paths_se']:.2g} (real {r.paths}), seconds {e['seconds']:.3g} +- "
                  f"{e['seconds_se']:.2g} (real {unit_seconds:.0f})", flush=True)
            closed_seconds = sum(u["seconds"] for u in units if u["unit"].startswith("closed"))
            c = estimate(7, depth=10, samples=args.seven_samples, seed=1, closed=True)
            print(f"7x7 closed estimator check: cycles {c['paths']:.3g} +- {c['paths_se']:.2g} (real {r.cycles}), "
                  f"seconds {c['seconds']:.3g} +- {c['seconds_se']:.2g} (real {closed_seconds:.0f})", flush=True)
            lines += [f"The estimator on 7x7 ({args.seven_samples} prefixes of 8 moves): {e['paths']:.3g} ± "
                      f"{e['paths_se']:.2g} paths (real {r.paths:.3g}), {e['seconds']:.3g} ± {e['seconds_se']:.2g} s "
                      f"(real {open_seconds:.3g} s of open units). On the closed tours ({args.seven_samples} prefixes "
                      f"of 10 moves): {c['paths']:.3g} ± {c['paths_se']:.2g} cycles (real {r.cycles:.3g}), "
                      f"{c['seconds']:.3g} ± {c['seconds_se']:.2g} s (real {closed_seconds:.3g} s: the closed units "
                      "of one first move share their memo, which a sample does not, so this time is far too high).",
                      ""]
    if args.eight_samples:
        t0 = time.perf_counter()
        e = estimate(8, depth=args.eight_depth, samples=args.eight_samples, seed=1, sample_time_limit=600)
        spent = time.perf_counter() - t0
        print(f"8x8 estimate ({args.eight_samples} samples of {args.eight_depth} moves, {spent:.0f} s): paths "
              f"{e['paths']:.3g} +- {e['paths_se']:.2g}, count time {e['seconds']:.3g} +- {e['seconds_se']:.2g} s "
              f"({_years(e['seconds']):.1f} years on one core), {e['timed_out']} samples timed out", flush=True)
        lines += [f"8x8 (not finished: estimated from {args.eight_samples} random prefixes of {args.eight_depth} "
                  f"moves, Knuth's estimator, {spent / 60:.0f} minutes): about {e['paths']:.2g} ± "
                  f"{e['paths_se']:.1g} directed paths, and {e['seconds']:.2g} ± {e['seconds_se']:.1g} s of search "
                  f"(about {_years(e['seconds']):.0f} years on one core"
                  + (f"; {e['timed_out']} samples timed out, so a lower bound" if e["timed_out"] else "") + ").", ""]
        t0 = time.perf_counter()
        c = estimate(8, depth=args.eight_closed_depth, samples=args.eight_samples, seed=1, sample_time_limit=600,
                     closed=True)
        spent = time.perf_counter() - t0
        print(f"8x8 closed estimate ({args.eight_samples} samples of {args.eight_closed_depth} moves, {spent:.0f} s): "
              f"cycles {c['paths']:.3g} +- {c['paths_se']:.2g}, time {c['seconds']:.3g} +- {c['seconds_se']:.2g} s, "
              f"{c['timed_out']} samples timed out", flush=True)
        lines += [f"8x8 closed tours (not counted: a closed unit takes more than 2 minutes; estimated from "
                  f"{args.eight_samples} random prefixes of {args.eight_closed_depth} moves, {spent / 60:.0f} "
                  f"minutes): about {c['paths']:.2g} ± {c['paths_se']:.1g} Hamiltonian cycles; the sampled time, "
                  f"{c['seconds']:.2g} ± {c['seconds_se']:.1g} s ({c['seconds'] / 86400:.0f} days on one core), is "
                  "an upper guide (see the 7x7 check above: closed units share their memo, samples do not).", ""]
    report = "\n".join(["## Number puzzle: `labyrinth numbers count`", "",
                        f"Machine: {machine}. Command: `{command}`.", "", *lines])
    if args.report:
        Path(args.report).write_text(report + "\n", encoding="utf-8")
        print(f"wrote {args.report}")


if __name__ == "__main__":
    main()
