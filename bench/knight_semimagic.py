"""The semi-magic enumeration (issue 30): where its campaign stands, its report, and its speed against the old search.

Usage:
    python bench/knight_semimagic.py status [--db out/knight_semimagic.db]
    python bench/knight_semimagic.py report [--db ...] [--report reports/knight_magic.md]
                                            [--classes reports/knight_semimagic.txt]
    python bench/knight_semimagic.py compare [--prefixes 16,18,20]
    python bench/knight_semimagic.py symmetric

The campaign itself is ``labyrinth knight magic --all --db FILE [--sample K --seed S] [--jobs J] [--resume]``
(``docs/knight.md``). ``status`` prints the units done, the unit time so far, the speed (nodes/s, units/hour),
the estimate of the total from the sampled units beside the actual, and the classes so far. ``report`` writes
every class found as one line of 64 numbers (the numbered grid by rows, row 1 first) to ``--classes``, and
the campaign's section of ``--report`` (between its markers, the rest of the file left as it is). ``compare``
times the search of :mod:`labyrinth.puzzles.knight.semimagic` against the forward search it replaced
(:mod:`labyrinth.puzzles.knight._magic_search`) on the tours beginning like Beverley's tour (every end).
``symmetric`` runs the units that hold the 17 centrally symmetric classes (enumerated by the half search,
another kernel) and checks that each class is found there: an end-to-end check of the plan and the kernel.
"""

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

# keep bench/ off the import path (bench/oracle.py is named like the ``oracle`` package)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.puzzles.knight import _magic_search as OS  # noqa: E402
from labyrinth.puzzles.knight import semimagic as S  # noqa: E402
from labyrinth.puzzles.knight._magic_common import Conditions, canonical, geometry_key, grid_of, is_closed  # noqa: E402
from labyrinth.puzzles.knight.semimagic import unit_pair  # noqa: E402
from verify.semimagic_campaign import KIND, stored_results  # noqa: E402
from verify.store import Store  # noqa: E402

BEGIN, END = "<!-- semimagic:begin -->", "<!-- semimagic:end -->"
CMP_BEGIN, CMP_END = "<!-- semimagic-compare:begin -->", "<!-- semimagic-compare:end -->"
#: Beverley's tour (1848), rows from the top
BEVERLEY = [[1, 30, 47, 52, 5, 28, 43, 54], [48, 51, 2, 29, 44, 53, 6, 27], [31, 46, 49, 4, 25, 8, 55, 42],
            [50, 3, 32, 45, 56, 41, 26, 7], [33, 62, 15, 20, 9, 24, 39, 58], [16, 19, 34, 61, 40, 57, 10, 23],
            [63, 14, 17, 36, 21, 12, 59, 38], [18, 35, 64, 13, 60, 37, 22, 11]]


def _machine():
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}"


def _campaigns(store):
    """The semi-magic campaigns of the store: ``[(row, conditions, params)]``, the whole enumeration's first."""
    import json

    out = []
    for row in store.campaigns():
        if row["kind"] == KIND:
            params = json.loads(row["params"])
            out.append((row, Conditions(closed=params["closed"], diagonals=params["diagonals"]), params))
    if not out:
        raise SystemExit("no semi-magic campaign in this store")
    return sorted(out, key=lambda c: ("scope" in c[2], c[1].needs_closed or c[1].diagonals, c[0]["id"]))


def _stats(store):
    row, cond, params = _campaigns(store)[0]
    r = stored_results(store, row["id"], cond, depth=params["depth"], scope=params.get("scope"))
    done = store.done_units(row["id"])
    times = sorted(float(v["seconds"]) for v in done.values())
    plan = [u.name for u in S.plan_units(cond, params["depth"], params.get("scope"))]
    return row, r, done, times, plan


def _others(store):
    """Every campaign but the whole enumeration's: ``[(row, CampaignResult)]`` (closed tours, scopes, diagonals)."""
    return [(row, stored_results(store, row["id"], cond, depth=params["depth"], scope=params.get("scope")))
            for row, cond, params in _campaigns(store)[1:]]


def _other_line(row, r):
    s = r.summary
    where = f" in the scope {r.scope}" if r.scope else ""
    figures = len({geometry_key(c) for c in s["classes"]})
    return (f"campaign {r.campaign} ({r.conditions.label}{where}): {'complete' if r.complete else 'partial'}, "
            f"{r.units_done} of {r.units_total} units, {r.work_seconds / 3600:.2f} h of unit time "
            f"({r.seconds / 3600:.2f} h of wall time); "
            f"{len(s['classes'])} classes ({s['closed_classes']} closed), {s['tours']} tours, {figures} figures")


def _every_class_found(results):
    """Classes of 1-4 found anywhere: those of every campaign's ``results`` (their tours all meet 1-4), and the symmetric enumeration."""
    from labyrinth.puzzles.knight.magic import enumerate_magic

    classes = set()
    for r in results:
        classes |= set(r.summary["classes"])
    symmetric = {canonical(tuple(s.path)) for s in enumerate_magic(Conditions(symmetric=True)).classes}
    return sorted(classes | symmetric), symmetric


def _pct(times, q):
    return times[min(len(times) - 1, int(q * len(times)))] if times else 0.0


def _by_pair(done, plan):
    """The time to go estimated pair by pair (cross-check of the plain one): ``(hours, sampled units, pairs unsampled)``.

    Unit times differ by pair of end cells far more than within one (a corner
    and an edge: tens of seconds a unit; two central cells: a tenth), so each
    pair's units left are estimated from that pair's sampled units (post-
    stratified); a pair with none left unsampled takes the mean of all.
    """
    from collections import defaultdict

    left, sampled = defaultdict(int), defaultdict(list)
    for u in plan:
        if u not in done:
            left[unit_pair(u)] += 1
    for u, rec in done.items():
        if rec.get("sample") and left.get(pair := unit_pair(u)):
            sampled[pair].append(float(rec["seconds"]))
    every = [t for ts in sampled.values() for t in ts]
    if not every:
        return None
    mean = statistics.mean(every)
    hours = sum(n * (statistics.mean(sampled[p]) if sampled[p] else mean) for p, n in left.items()) / 3600
    return round(hours, 2), len(every), sum(1 for p in left if not sampled[p])


def _tail(done):
    """The share of the sampled units' time held by their slowest 1% (how heavy the tail is)."""
    ts = sorted((float(r["seconds"]) for r in done.values() if r.get("sample")), reverse=True)
    return sum(ts[:max(1, len(ts) // 100)]) / sum(ts) if ts and sum(ts) else 0.0


def _pairs_sentence(done, plan, r):
    pairs = None if r.complete else _by_pair(done, plan)
    if not pairs:
        return ""
    return (f" Estimated pair by pair instead (each pair of end cells from its own sampled units, a pair with none "
            f"at the mean of all; {pairs[2]} pairs unsampled): {pairs[0]} h to go. The tail is heavy: the slowest 1% "
            f"of the sampled units hold {_tail(done):.0%} of their time, so a few hundred sampled units can read low.")


def _same_orbit_sentence(done, plan, r, k):
    """Where the ``k`` classes with both ends in one orbit stand: the puzzle author's count of 158 hinges on them.

    ``r`` is the whole enumeration's result: once it is complete, the count is made with the classes it found.
    """
    found = len(r.summary["classes"]) if r.complete else None
    pairs = set(S.same_orbit_pairs())
    units = [u for u in plan if unit_pair(u) in pairs]
    left = sum(1 for u in units if u not in done)
    text = (f"Classes with both ends in one orbit (his search finds each twice, see docs/knight.md, *Counting 158*): "
            f"{k}{' so far' if found is None else ''}; their {len(pairs)} pairs of end cells: "
            f"{len(units) - left} of {len(units)} units done.")
    if not left:
        n, whose = (140, "the literature's 140 classes") if found is None else (found, f"the {found} classes found")
        text += (f" Those pairs are complete, so {k} is all of them: with {whose} his way of counting gives "
                 f"{n} + {k} = {n + k}, against his 158.")
    return text


def _late(e):
    """How many of the units behind the time to go were drawn after the run in plan order began."""
    n = e.get("late_units", 0)
    return f"; {n} of them drawn later, from the units left, to narrow the band" if n else ""


def status(args):
    with Store(args.db, create=False) as store:
        row, r, done, times, plan = _stats(store)
    rate = r.nodes / r.work_seconds if r.work_seconds else 0.0
    print(f"campaign {r.campaign} ({r.conditions.label}): {r.units_done} of {r.units_total} units; "
          f"{r.work_seconds / 3600:.2f} h of unit time, {r.seconds / 3600:.2f} h of wall time over its runs")
    print(f"speed: {rate / 1e6:.1f} M nodes/s per process, {3600 * r.units_done / max(r.work_seconds, 1e-9):.0f} "
          f"units per hour of unit time; unit seconds: median {_pct(times, 0.5):.1f}, p90 {_pct(times, 0.9):.1f}, "
          f"p99 {_pct(times, 0.99):.1f}, max {times[-1] if times else 0:.1f}")
    e = r.sample
    if e.get("units"):
        print(f"estimate from {e['units']} sampled units: {e['hours']} +- {e['plus_minus']} h of unit time in all "
              f"(mean {e['mean']} s a unit, at {e.get('rate', 0):g} M nodes/s: this machine under its load); "
              f"{e.get('nodes', 0):.3g} +- {e.get('nodes_plus_minus', 0):.2g} nodes in all (any machine; "
              f"{r.nodes:.3g} so far)")
    if "to_go_hours" in e:
        print(f"to go: {e['to_go_hours']} +- {e['to_go_plus_minus']} h of unit time for the {r.units_total - r.units_done} "
              f"units left (from the {e['to_go_units']} sampled units past the units run in order{_late(e)}); "
              f"expected total {e['expected_hours']} h")
        pairs = _by_pair(done, plan)
        if pairs:
            print(f"to go, pair by pair: {pairs[0]} h (each pair of end cells from its own sampled units; "
                  f"{pairs[2]} pairs unsampled); the slowest 1% of the sampled units hold {_tail(done):.0%} of their time")
    s = r.summary
    counted = S.scheme_count(s["classes"])
    print(f"{'found' if r.complete else 'so far'}: {len(s['classes'])} classes, {s['tours']} tours, "
          f"{s['closed_classes']} closed, {s['open_classes']} open; scheme count {counted}; "
          f"diagonals nearest 260: {s['best_diagonals']}")
    print(_same_orbit_sentence(done, plan, r, counted - len(s["classes"])))
    with Store(args.db, create=False) as store:
        for row, other in _others(store):
            print(_other_line(row, other))


def _ahead_sentence(ahead):
    """How the pairs run first (``--first``) are named in the report's command line."""
    orbit = S.same_orbit_pairs()
    if set(ahead) <= set(orbit):
        return (f"; the units left in {len(ahead)} of the {len(orbit)} pairs of end cells whose ends lie in one orbit "
                "run before the rest, with `--resume --first same-orbit` (the others had none left)")
    return f"; the units of {len(ahead)} pairs of end cells run before the rest, with `--resume --first {','.join(ahead)}`"


def report(args):
    with Store(args.db, create=False) as store:
        row, r, done, times, plan = _stats(store)
        others = _others(store)
    every, symmetric_classes = _every_class_found([r] + [o for _, o in others])
    symmetric = len(symmetric_classes)
    s = r.summary
    counted = S.scheme_count(s["classes"])
    twice = counted - len(s["classes"])  # the classes with both ends in one orbit
    copied = sum(1 for rec in done.values() if rec.get("copied_from"))
    late = sum(1 for rec in done.values() if rec.get("late"))
    ahead = sorted({unit_pair(u) for u, rec in done.items() if rec.get("ahead")})
    Path(args.classes).write_text("".join(" ".join(map(str, grid_of(c))) + "\n" for c in every), encoding="utf-8")
    e = r.sample
    rate = r.nodes / r.work_seconds if r.work_seconds else 0.0
    geometry = len({geometry_key(c) for c in s["classes"]})
    closed_geometry = len({geometry_key(c) for c in s["classes"] if is_closed(c)})
    so_far = "" if r.complete else " so far"
    finished = "complete" if r.complete else f"**partial: {r.units_done} of {r.units_total} units**"
    est = (f"{e['hours']} h +- {e['plus_minus']} h of unit time (two standard errors; mean {e['mean']} s a unit "
           f"over {e['units']} units drawn at random)" if e.get("units") else "no sample yet")
    lines = [BEGIN, "", "## Every semi-magic tour (conditions 1-4): the campaign", "",
             f"Machine: {_machine()} when this report was made (a shared machine: the node rate below is what the "
             "campaign's runs saw). Command: `labyrinth knight magic --all --db "
             "out/knight_semimagic.db --sample 300 --seed 1 --jobs 2` (resumed with `--resume`"
             + (f"; {late} more units drawn at random once the run in plan order had begun, with `--resume --sample K "
                "--seed S`" if late else "")
             + (_ahead_sentence(ahead) if ahead else "") + "); this section by "
             "`python bench/knight_semimagic.py report`.", "",
             f"Status: {finished}. Unit time{so_far or ' in all'} {r.work_seconds / 3600:.2f} h "
             f"({r.nodes:,} nodes, "
             f"{rate / 1e6:.1f} M nodes/s per process, {3600 * r.units_done / max(r.work_seconds, 1e-9):.0f} units "
             f"per hour of unit time); wall time of its own runs {r.seconds / 3600:.2f} h"
             + (f" ({copied} of its units, with their unit time, taken from the campaigns below, which searched "
                "them)." if copied else "."), "",
             f"Estimate before the full run: {est}. Actual{so_far}: "
             f"{r.work_seconds / 3600:.2f} h for "
             f"{r.units_done} units; per unit: median {_pct(times, 0.5):.1f} s, 90th percentile "
             f"{_pct(times, 0.9):.1f} s, 99th {_pct(times, 0.99):.1f} s, longest {times[-1] if times else 0:.1f} s."
             + (f" Still to go, estimated now: {e['to_go_hours']} h +- {e['to_go_plus_minus']} h of unit time for the "
                f"{r.units_total - r.units_done} units left (from the {e['to_go_units']} sampled units past the units "
                f"run in plan order, which are a block at its head, not a random part"
                f"{' (the pairs run first: a part of their own, with its own block)' if ahead else ''}{_late(e)}), so "
                f"{e['expected_hours']} h in all." if "to_go_hours" in e and not r.complete else "")
             + _pairs_sentence(done, plan, r),
             "", "| | found | literature (2003) |", "|---|---|---|",
             f"| classes (8 symmetries x reversal) | {len(s['classes'])} | 140 |",
             f"| tours | {s['tours']} | 2 240 |",
             f"| closed classes | {s['closed_classes']} | 63 |",
             f"| open classes | {s['open_classes']} | 77 |",
             f"| figures (geometry classes) | {geometry} ({closed_geometry} closed) | 108 (31 closed) |",
             f"| the puzzle author's way of counting | {counted} ({len(s['classes'])} classes + "
             f"{twice} with both ends in one orbit) | his 158 |",
             f"| diagonal sums nearest 260 | {', '.join(f'{a} and {b}' for a, b in s['best_diagonals'][:2])} "
             "| none both 260 |", "",
             _same_orbit_sentence(done, plan, r, twice), ""]
    if others:
        lines += ["The other campaigns in the store (their units are the same searches as the whole enumeration's "
                  "when only the plan differs, and are not searched twice):", ""]
        for row, o in others:
            line = f"- {_other_line(row, o)}"
            if o.conditions == Conditions(closed=True) and not o.scope:
                held = len(symmetric_classes & set(o.summary["classes"]))
                line += (f"; of the {len(symmetric_classes)} centrally symmetric classes (another kernel), {held} "
                         "among them (the literature: 63 closed classes, 31 figures, so 1 008 tours: its 2 240 "
                         "tours are 16 a class)")
            lines.append(line)
        lines.append("")
    lines += [f"`{args.classes}` holds every class found{so_far}, one a line: its least tour's numbered grid, 64 "
             "numbers by rows (row 1 first, each from column 1). "
             + ("They are the campaign's classes." if r.complete else
                f"Until the campaign is complete they are the union of its classes, those of the other campaigns "
                f"in the same store (the closed tours, parts of the work run on their own with `--scope`), and "
                f"the {symmetric} centrally symmetric "
                f"classes (enumerated completely by `--symmetric --all`): {len(every)} classes, "
                f"{S.scheme_count(every)} by the puzzle author's way of counting.")
             + " Every stored tour was checked again by `check_magic` when this report was made.", "", END]
    text = Path(args.report).read_text(encoding="utf-8") if Path(args.report).exists() else ""
    if CMP_BEGIN in text:  # the comparison (by ``compare``) stays in the section
        lines.insert(len(lines) - 1, text[text.index(CMP_BEGIN):text.index(CMP_END) + len(CMP_END)] + "\n")
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + "\n".join(lines) + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"
    Path(args.report).write_text(text, encoding="utf-8")
    print(f"wrote {args.classes} ({len(every)} classes) and the campaign's section of {args.report}")


def compare(args):
    where = {v: (7 - y) * 8 + x for y, row in enumerate(BEVERLEY) for x, v in enumerate(row)}
    tour = tuple(where[k] for k in range(1, 65))
    S.run_unit(S.Unit(tour[:20], tour[::-1][:20]))  # load the kernels
    OS.run_unit(OS.plan(half=False, closed=False, starts=[tour[0]], depth=0), OS.Unit(tour[:40]))
    lines = [CMP_BEGIN, "", "### Against the forward search it replaced", "",
             f"`python bench/knight_semimagic.py compare --prefixes {args.prefixes}` ({_machine()}): every "
             "semi-magic tour beginning with Beverley's first k cells, by the forward search (numbers 1, 2, 3... "
             "only: `_magic_search`) and by the search from both ends (one unit for each cell 64 can take). "
             "Both find the same tours.", "",
             "| first cells fixed | forward: nodes | seconds | both ends: nodes | seconds | tours | times faster |",
             "|---|---|---|---|---|---|---|"]
    for k in [int(v) for v in args.prefixes.split(",")]:
        t0 = time.perf_counter()
        p = OS.plan(half=False, closed=False, starts=[tour[0]], depth=0)
        _, old, old_nodes, _ = OS.run_unit(p, OS.Unit(tour[:k]))
        t_old = time.perf_counter() - t0
        t0 = time.perf_counter()
        new, new_nodes = [], 0
        for e in range(64):
            if e not in tour[:k] and (e % 8 + e // 8) % 2 != (tour[0] % 8 + tour[0] // 8) % 2:
                res = S.run_unit(S.Unit(tour[:k], (e,)))
                new += res.tours
                new_nodes += res.nodes
        t_new = time.perf_counter() - t0
        same = sorted(map(tuple, old)) == sorted(new)
        line = (f"| {k} | {old_nodes:,} | {t_old:.2f} | {new_nodes:,} | {t_new:.2f} | {len(new)}"
                f"{'' if same else ' DIFFER'} | {t_old / max(t_new, 1e-9):.0f} |")
        print(line, flush=True)
        lines.append(line)
    lines += ["", CMP_END]
    text = Path(args.report).read_text(encoding="utf-8")
    if CMP_BEGIN in text:
        text = text[:text.index(CMP_BEGIN)] + "\n".join(lines) + text[text.index(CMP_END) + len(CMP_END):]
    elif END in text:
        text = text.replace(END, "\n".join(lines) + "\n\n" + END)
    Path(args.report).write_text(text, encoding="utf-8")


def symmetric(args):
    """An end-to-end check: each of the 17 centrally symmetric classes is found in the unit of the plan that holds it."""
    from labyrinth.puzzles.knight._magic_common import canonical, orbit
    from labyrinth.puzzles.knight.magic import enumerate_magic

    plan = {(u.prefix, u.suffix): u for u in S.plan_units()}
    found = 0
    classes = sorted(tuple(c.path) for c in enumerate_magic(Conditions(symmetric=True)).classes)
    for cls in classes:
        units = [plan[key] for key in {(t[:S.DEPTH + 1], t[::-1][:S.DEPTH + 1]) for t in orbit(cls)} if key in plan]
        hit = False
        for u in units:
            res = S.run_unit(u)
            hit = hit or cls in {canonical(t) for t in res.tours}
            print(f"{u.name}: {len(res.tours)} tours, {res.nodes:,} nodes, {res.seconds:.1f} s", flush=True)
        found += hit
        print(f"class {classes.index(cls) + 1}: {'found' if hit else 'NOT FOUND'} in {len(units)} unit(s)", flush=True)
    print(f"{found} of {len(classes)} symmetric classes found in their units")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["status", "report", "compare", "symmetric"])
    ap.add_argument("--db", default="out/knight_semimagic.db")
    ap.add_argument("--report", default="reports/knight_magic.md")
    ap.add_argument("--classes", default="reports/knight_semimagic.txt")
    ap.add_argument("--prefixes", default="16,18,20")
    args = ap.parse_args(argv)
    {"status": status, "report": report, "compare": compare, "symmetric": symmetric}[args.what](args)


if __name__ == "__main__":
    main()
