"""Knight's tour benchmarks: Warnsdorff audited from every start (n = 5..20, three tie-breaks), tours solved, counts.

Usage::

    python bench/knight.py [--sizes 5-20] [--orders clockwise,roth,random] [--tour-sizes 8,20,50,100]
                           [--repeat 3] [--skip walks,tours,count] [--report reports/knight.md]

Sections (each timed after a warm-up, so numba's compilation is not counted):

* audit targets: Warnsdorff (ties clockwise) from every start of 8x8 (target
  under 1 s) and 20x20 (under 30 s), each stuck walk's first fatal move found
  by the oracle (a complete walk needs no query; a stuck one a bisection);
* walks: the table of failing starts for every board of ``--sizes`` and every
  tie-break (random: seed 0, walk k seeded k, as ``labyrinth knight walk
  --all-starts --order random``), each query limited to 60 s;
* tours: ``labyrinth knight tour`` from (1,1), open and closed, with the
  ``search`` and ``auto`` backends (median of ``--repeat``);
* count: 5x5 and 6x6, open and closed (median of ``--repeat``), against the
  published figures (OEIS A165134, A001230).

Writes the Markdown report (``--report``) that reports/BENCHMARKS.md and the README quote.
"""

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

# keep bench/ off the import path (bench/oracle.py would shadow the oracle package)
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

from labyrinth.core import PathState  # noqa: E402
from labyrinth.core.walk import Warnsdorff  # noqa: E402
from labyrinth.puzzles.knight import knight_puzzle  # noqa: E402
from labyrinth.puzzles.knight.count import count_tours  # noqa: E402
from labyrinth.puzzles.knight.solve import SOLVED, tour  # noqa: E402
from oracle import get_oracle  # noqa: E402
from verify.path_audit import COMPLETE, NO_PATH, STUCK, audit_start  # noqa: E402

#: published figures: directed open tours (OEIS A165134) and undirected closed tours (OEIS A001230)
PUBLISHED = {5: (1_728, 0), 6: (6_637_920, 9_862)}


def _machine():
    """The machine line of bench/numbers_count.py (one definition for the benchmarks' reports)."""
    spec = importlib.util.spec_from_file_location("_bench_numbers_count", HERE / "numbers_count.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module._machine()


def _sizes(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def audit_all(n, order, oracle):
    """Audit Warnsdorff's walk (ties by ``order``) from every start of the n x n board: (audits, seconds)."""
    puzzle = knight_puzzle(n)
    rule = Warnsdorff(order)
    t0 = time.perf_counter()
    audits = [audit_start(PathState(puzzle, (c,)), rule, oracle, seed=c) for c in range(puzzle.graph.size)]
    return audits, time.perf_counter() - t0


def _targets(lines, repeat):
    with get_oracle("auto", time_limit=60) as oracle:
        audit_all(6, "clockwise", oracle)  # warm-up
    lines += ["### Warnsdorff audited from every start (targets)", "",
              "| board | starts | stuck | time (median) | target |", "|---|---:|---:|---:|---|"]
    for n, target in ((8, 1.0), (20, 30.0)):
        times = []
        for _ in range(repeat):
            with get_oracle("auto", time_limit=60) as oracle:  # a fresh oracle: nothing remembered between runs
                audits, seconds = audit_all(n, "clockwise", oracle)
            times.append(seconds)
        stuck = sum(a.outcome != COMPLETE for a in audits)
        med = statistics.median(times)
        print(f"audit {n}x{n}: {med:.2f} s (min {min(times):.2f}), {stuck} stuck", flush=True)
        lines.append(f"| {n}x{n} | {n * n} | {stuck} | {med:.2f} s (min {min(times):.2f}) | under {target:g} s: "
                     f"{'met' if med < target else 'missed'} |")
    lines.append("")


def _walks(lines, sizes, orders):
    head = "| n | starts | " + " | ".join(f"{o}: stuck (no tour from start)" for o in orders) + " | seconds |"
    rows = [head, "|---:|---:|" + "---:|" * len(orders) + "---:|"]
    detail = []
    with get_oracle("auto", time_limit=60) as oracle:
        for n in sizes:
            t0 = time.perf_counter()
            cells = []
            for order in orders:
                audits, _ = audit_all(n, order, oracle)
                stuck = [a for a in audits if a.outcome != COMPLETE]
                no_path = [a for a in audits if a.outcome == NO_PATH]
                undecided = [a for a in audits if a.outcome == "unknown" or a.first_fatal_step == "unknown"]
                cell = f"{len(stuck)} ({len(no_path)})" + (f", {len(undecided)} undecided" if undecided else "")
                cells.append(cell)
                for a in audits:
                    if a.outcome == STUCK:
                        detail.append(f"| {n} | {order} | {a.start[0]},{a.start[1]} | {a.steps} | "
                                      f"{a.first_fatal_step} ({a.fatal_move}) | {', '.join(a.feasible_moves)} |")
            rows.append(f"| {n} | {n * n} | " + " | ".join(cells) + f" | {time.perf_counter() - t0:.1f} |")
            print(rows[-1], flush=True)
    lines += ["### Warnsdorff's failing starts, n = 5..20", "",
              "Stuck walks of every start, and in brackets those from a start with no open tour at all (not the "
              "heuristic's fault: on odd boards the minority colour). Ties broken clockwise (NNE, ENE, ... first), "
              "by Roth's rule (farthest from the centre, then clockwise), or at random (seed 0, walk k seeded k).",
              "", *rows, "", "Every stuck walk from a start that has a tour: where it went wrong (the first move after "
              "which no tour exists, found by bisection with the oracle) and the moves still feasible there:", "",
              "| n | tie-break | start | moves made | first fatal move | feasible there |", "|---:|---|---|---:|---|---|",
              *detail, ""]


def _tours(lines, sizes, repeat):
    tour(8, start=(1, 1))  # warm-up
    lines += ["### `labyrinth knight tour` from (1,1)", "", "| board | kind | backend | time (median) | status |",
              "|---|---|---|---:|---|"]
    for n in sizes:
        for closed in (False, True):
            for backend in ("search", "auto"):
                times, status = [], None
                for _ in range(repeat):
                    with get_oracle(backend, time_limit=120) as oracle:
                        result = tour(n, start=(1, 1), closed=closed, oracle=oracle, time_limit=120)
                    times.append(result.seconds)
                    status = result.status
                    if result.status == SOLVED:
                        assert result.state.is_complete()
                med = statistics.median(times)
                kind = "closed" if closed else "open"
                print(f"tour {n}x{n} {kind} {backend}: {med:.3f} s, {status}", flush=True)
                lines.append(f"| {n}x{n} | {kind} | {backend} | {med:.3f} s (min {min(times):.3f}) | {status} |")
    lines.append("")


def _count(lines, repeat):
    count_tours(5)  # warm-up
    lines += ["### `labyrinth knight count`", "",
              "| board | what | time (median) | directed open tours | undirected closed tours | published |",
              "|---|---|---:|---:|---:|---|"]
    for n in (5, 6):
        for what, opts in (("open", {"closed": False}), ("closed", {"open_paths": False}), ("both", {})):
            times = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                r = count_tours(n, **opts)
                times.append(time.perf_counter() - t0)
            paths, cycles = PUBLISHED[n]
            ok = (r.paths in (None, paths)) and (r.cycles in (None, cycles))
            med = statistics.median(times)
            print(f"count {n}x{n} {what}: {med:.2f} s, paths {r.paths}, cycles {r.cycles}", flush=True)
            lines.append(f"| {n}x{n} | {what} | {med:.2f} s (min {min(times):.2f}) | "
                         f"{'-' if r.paths is None else f'{r.paths:,}'} | "
                         f"{'-' if r.cycles is None else f'{r.cycles:,}'} | {'agree' if ok else '**DISAGREE**'} |")
    lines.append("")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="5-20", help="boards of the walks table (default 5-20)")
    ap.add_argument("--orders", default="clockwise,roth,random", help="tie-breaks of the walks table")
    ap.add_argument("--tour-sizes", default="8,20,50,100")
    ap.add_argument("--repeat", type=int, default=3, help="runs per timing (the median is reported)")
    ap.add_argument("--skip", default="", help="sections to leave out: targets, walks, tours, count")
    ap.add_argument("--report", default=str(HERE.parent / "reports" / "knight.md"))
    args = ap.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    command = "python " + " ".join([Path(sys.argv[0]).as_posix(), *(argv if argv is not None else sys.argv[1:])])
    machine = _machine()
    print(f"machine: {machine}", flush=True)
    t0 = time.perf_counter()
    lines = []
    if "targets" not in skip:
        _targets(lines, args.repeat)
    if "tours" not in skip:
        _tours(lines, [int(v) for v in args.tour_sizes.split(",")], args.repeat)
    if "count" not in skip:
        _count(lines, args.repeat)
    if "walks" not in skip:
        _walks(lines, _sizes(args.sizes), args.orders.split(","))
    report = "\n".join(["## Knight's tour", "", f"Machine: {machine}. Command: `{command}` "
                        f"({(time.perf_counter() - t0) / 60:.1f} min in all).", "", *lines])
    Path(args.report).write_text(report + "\n", encoding="utf-8")
    print(f"wrote {args.report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
