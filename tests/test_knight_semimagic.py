"""The semi-magic enumeration (issue 30): the bound, the units, the search against independent ones, the campaign.

The whole enumeration takes hours (a campaign, ``bench/knight_semimagic.py``);
these tests run parts whose full answer takes seconds: units under a long
prefix and suffix of known tours, checked against the forward search of
:mod:`labyrinth.puzzles.knight._magic_search` (another kernel, another
pruning) and against a plain depth-first search that only knows the
definitions; and a small campaign killed and resumed.
"""

import itertools
import json
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from test_knight_magic import BEV, FIG2

from labyrinth import cli
from labyrinth.errors import LabyrinthError
from labyrinth.puzzles.knight import _magic_search as OS
from labyrinth.puzzles.knight import semimagic as S
from labyrinth.puzzles.knight._magic_common import Conditions, canonical, check_magic, grid_of, orbit
from verify.semimagic_campaign import SemimagicSettings, estimate, run_campaign, stored_results
from verify.store import Store, StoreError

# --- the line bound ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lo", [5, 6])
def test_line_bound_is_the_least_and_the_largest_sum(lo):
    """f pairwise non-consecutive numbers in lo..hi, x odd and y even: f*l + f*f - p and f*h - f*f + q, exactly."""
    hi = lo + 15
    for x, y in itertools.product(range(4), repeat=2):
        f = x + y
        if f == 0:
            continue
        sums = [sum(v) for v in itertools.combinations(range(lo, hi + 1), f)
                if all(b - a >= 2 for a, b in zip(v, v[1:])) and sum(n & 1 for n in v) == x]
        p = x if lo & 1 else y
        q = x if hi & 1 else y
        assert min(sums) == f * lo + f * f - p
        assert max(sums) == f * hi - f * f + q


def test_unions_hold_no_consecutive_numbers():
    """The unions bounded like lines: no knight's move joins two of their rows (so no two numbers are consecutive)."""
    for rows in S.UNIONS:
        for a, b in itertools.combinations(rows, 2):
            assert abs(a - b) >= 3
    kn, cell_lines, off, targets = S._tables(False)
    for c in range(64):
        for o in range(64):
            if S._knight(c, o):
                shared = set(cell_lines[c]) & set(cell_lines[o]) - {-1}
                assert not shared, (c, o, shared)  # a move never stays in one line, one union or one diagonal
    assert list(targets[:16]) == [260] * 16


def test_line_masks_follow_the_lines_and_their_distances():
    """The kernel's children's tests read ``lmask``: a line's cells, then the cells off it at ``off`` 1 or 2 and more."""
    for diagonals in (False, True):
        kn, cell_lines, off, targets = S._tables(diagonals)
        lmask = S._line_masks(diagonals)
        assert off.shape[1] % S.LINE_PAD == 0 and lmask.shape == (3, off.shape[1])
        for ln in range(off.shape[1]):
            cells = {c for c in range(64) if ln in set(cell_lines[c])}
            assert cells or targets[ln] == 0  # a padding line: no cells, nothing to reach
            for o in range(3):
                want = cells if o == 0 else {c for c in range(64) if c not in cells and off[c, ln] >= o}
                assert {c for c in range(64) if int(lmask[o, ln]) >> c & 1} == want


# --- the units -----------------------------------------------------------------------------------------------------


def _random_tour(rng):
    """A random open knight's tour (Warnsdorff's rule, random ties, restarts): any tour, magic or not."""
    while True:
        path = [rng.randrange(64)]
        seen = set(path)
        while len(path) < 64:
            opts = [o for o in range(64) if S._knight(path[-1], o) and o not in seen]
            if not opts:
                break
            degree = {o: sum(1 for n in range(64) if S._knight(o, n) and n not in seen) for o in opts}
            best = min(degree.values())
            o = rng.choice([o for o in opts if degree[o] == best])
            path.append(o)
            seen.add(o)
        if len(path) == 64:
            return tuple(path)


@pytest.fixture(scope="module")
def plan():
    return {(u.prefix, u.suffix) for u in S.plan_units()}


def test_every_class_has_a_tour_in_exactly_the_planned_units(plan):
    """Any tour (magic or not): some tour of its class lies in a unit of the plan."""
    rng = random.Random(7)
    tours = [BEV, FIG2] + [_random_tour(rng) for _ in range(30)]
    for t in tours:
        hits = [img for img in orbit(t) if (img[:S.DEPTH + 1], img[::-1][:S.DEPTH + 1]) in plan]
        assert hits, t


def test_pairs_and_units():
    reps = S.pair_orbits()
    pairs = {(s, e) for s in range(64) for e in range(64) if (s % 8 + s // 8 + e % 8 + e // 8) % 2}
    assert {min(p for p, _, _ in S._images(s, e)) for s, e in pairs} == set(reps)
    closed = S.plan_units(Conditions(closed=True))
    assert closed and all(S._knight(u.prefix[0], u.suffix[0]) for u in closed)
    for u in closed[:50]:
        assert S.parse_unit(u.name) == u


@pytest.mark.parametrize("text", ["a1", "a1-b3 c2 c1 d1", "a1-a1", "a1-b3 c3", "a1-b3 b3", "z9-b3", "a1-b3 c2.a1"])
def test_bad_unit_names(text):
    with pytest.raises(LabyrinthError):
        S.parse_unit(text)


# --- the search against independent ones -----------------------------------------------------------------------------


def _semimagic_all_ends(prefix):
    """Every semi-magic tour beginning with ``prefix``: one unit per cell of 64."""
    colour = (prefix[0] % 8 + prefix[0] // 8) % 2
    out = []
    for e in range(64):
        if e not in prefix and (e % 8 + e // 8) % 2 != colour:
            r = S.run_unit(S.Unit(tuple(prefix), (e,)))
            assert r.finished
            out += r.tours
    return sorted(out)


def _forward(prefix):
    """The same by the forward search (numbers 1, 2, 3... only; its own kernel and pruning)."""
    p = OS.plan(half=False, closed=False, starts=[prefix[0]], depth=0)
    finished, tours, _, _ = OS.run_unit(p, OS.Unit(prefix))
    assert finished
    return sorted(tuple(t) for t in tours)


@pytest.mark.parametrize("tour", [BEV, FIG2], ids=["beverley", "figure2"])
def test_search_agrees_with_the_forward_search(tour):
    for k in (22, 24):
        assert _semimagic_all_ends(tour[:k]) == _forward(tour[:k])
    assert tour in _semimagic_all_ends(tour[:22])


def test_search_agrees_with_the_forward_search_off_the_known_tours():
    """Prefixes of random walks: mostly nothing to find; both searches must say the same."""
    rng = random.Random(3)
    for _ in range(3):
        prefix = _random_tour(rng)[:26]
        assert _semimagic_all_ends(prefix) == _forward(prefix)


def _plain(prefix, suffix):
    """Every tour with ``prefix`` and ``suffix`` meeting 1-4, by a plain depth-first search and the checker alone."""
    used = set(prefix) | set(suffix)
    free = 64 - len(used)
    out = []

    def extend(path, seen):
        if len(path) == len(prefix) + free:
            if S._knight(path[-1], suffix[-1]):
                tour = tuple(path) + tuple(reversed(suffix))
                if check_magic(tour) == ():
                    out.append(tour)
            return
        for o in range(64):
            if o not in seen and S._knight(path[-1], o):
                seen.add(o)
                path.append(o)
                extend(path, seen)
                path.pop()
                seen.discard(o)

    extend(list(prefix), set(used))
    return sorted(out)


@pytest.mark.parametrize("tour", [BEV, FIG2], ids=["beverley", "figure2"])
def test_search_agrees_with_a_plain_search(tour):
    for k in (23, 25):
        pre, suf = tour[:k], tour[::-1][:k]
        r = S.run_unit(S.Unit(pre, suf))
        assert r.finished and sorted(r.tours) == _plain(pre, suf) and tour in r.tours
    # the same ends with the middle of another tour's beginning: the plain search finds nothing, nor must the kernel
    other = FIG2 if tour == BEV else BEV
    pre = tuple(c for c in other if c not in tour[::-1][:24])[:20]
    if all(S._knight(a, b) for a, b in zip(pre, pre[1:])):
        r = S.run_unit(S.Unit(pre, tour[::-1][:24]))
        assert sorted(r.tours) == _plain(pre, tour[::-1][:24])


def test_closed_and_diagonal_conditions():
    """FIG2 is closed, its diagonals 264 and 256: found under 1-5, not under 1-4, 7; every tour found re-checked."""
    pre, suf = FIG2[:14], FIG2[::-1][:14]
    closed = S.run_unit(S.Unit(pre, suf), Conditions(closed=True))
    assert FIG2 in closed.tours and all(check_magic(t, Conditions(closed=True)) == () for t in closed.tours)
    diag = S.run_unit(S.Unit(pre, suf), Conditions(diagonals=True))
    assert FIG2 not in diag.tours and all(check_magic(t, Conditions(diagonals=True)) == () for t in diag.tours)


def test_summary_counts_classes_and_tours():
    s = S.summarize([BEV, FIG2, orbit(FIG2).pop()])
    assert len(s["classes"]) == 2 and s["tours"] == 32 and s["closed_classes"] == 1 and s["open_classes"] == 1
    assert s["classes"] == sorted([canonical(BEV), canonical(FIG2)])
    assert (256, 264) in s["best_diagonals"]
    for cells, grid in zip(s["classes"], s["grids"]):
        assert sorted(grid) == list(range(1, 65)) and grid[cells[0]] == 1


# --- the campaign --------------------------------------------------------------------------------------------------

#: a part of the work whose 42 units take well under a second each (6 tours): Beverley's first 4 and last 4 cells,
#: one more move at each end
SCOPE = S.Unit(BEV[:4], BEV[::-1][:4]).name


@pytest.fixture(scope="module")
def scope_tours():
    """The tours of SCOPE, unit by unit in this process: the answer a campaign must store."""
    return sorted(t for u in S.plan_units(depth=1, scope=SCOPE) for t in S.run_unit(u).tours)


def _units(db):
    with sqlite3.connect(db) as con:
        return {u: json.loads(t) for u, t in con.execute("SELECT unit, totals FROM units")}


def _units_so_far(db):
    """The units a running campaign has stored: none while its store file is still being made."""
    try:
        return _units(db) if db.exists() else {}
    except sqlite3.OperationalError:  # the file exists, its tables not yet (or the writer holds it)
        return {}


def test_campaign_resumes_after_a_kill(tmp_path, scope_tours):
    db = tmp_path / "m.db"
    args = [sys.executable, "-m", "labyrinth.cli", "knight", "magic", "--all", "--scope", SCOPE, "--depth", "1",
            "--db", str(db), "--no-progress"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    t0 = time.time()
    while time.time() - t0 < 300 and len(_units_so_far(db)) < 3:
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    stored = _units(db)
    assert len(stored) >= 3
    total = len(S.plan_units(depth=1, scope=SCOPE))
    assert len(stored) < total, "the run finished before the kill: nothing left to resume"
    again = subprocess.run([*args, "--json"], capture_output=True, text=True, timeout=600)
    assert again.returncode == 2 and "--resume" in again.stderr and len(again.stderr.strip().splitlines()) == 1
    again = subprocess.run([*args, "--resume", "--json"], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    out = json.loads(again.stdout)
    units = _units(db)
    assert len(units) == total == out["units_total"] == out["units_done"]
    assert all(units[u] == stored[u] for u in stored)  # nothing stored before the kill was done again
    assert all(rec["seconds"] >= 0 and rec["nodes"] > 0 and rec["host"] for rec in units.values())
    # the same answer as one uninterrupted pass over the same units, in this process
    tours = scope_tours
    assert out["classes"] == len({canonical(t) for t in tours}) >= 1 and BEV in tours
    stored_tours = [tuple(t) for rec in units.values() for t in rec["tours"]]
    assert sorted(stored_tours) == tours
    assert all(check_magic(t) == () for t in stored_tours)
    for grid in out["grids"]:
        cells = tuple(sorted(range(64), key=lambda c: grid[c]))
        assert check_magic(cells) == () and grid_of(cells) == grid


def test_a_store_that_holds_a_wrong_tour_is_refused(tmp_path):
    with Store(tmp_path / "s.db") as store:
        result, stopped = run_campaign(store, SemimagicSettings(scope=SCOPE, depth=1, max_units=2))
        assert not stopped or result.units_done == 2
        unit = next(iter(store.done_units(result.campaign)))
        bad = list(BEV)
        bad[10], bad[11] = bad[11], bad[10]
        store.db.execute("UPDATE units SET totals = ? WHERE unit = ?",
                         (json.dumps({"tours": [bad], "nodes": 1, "seconds": 0.0}), unit))
        with pytest.raises(StoreError, match="fails the check"):
            stored_results(store, result.campaign, Conditions(), depth=1, scope=SCOPE)


def test_estimate_from_a_random_sample(tmp_path):
    with Store(tmp_path / "e.db") as store:
        result, stopped = run_campaign(store, SemimagicSettings(scope=SCOPE, depth=1, sample=4, seed=1, max_units=4))
        assert stopped and result.units_done == 4
        est = result.sample
        assert est["units"] == 4 and est["hours"] >= 0 and est["plus_minus"] >= 0
        sampled = [u for u, rec in store.done_units(result.campaign).items() if rec.get("sample")]
        assert len(sampled) == 4
        # two units in plan order, then more sample on resume (another seed): those are late, and only narrow the
        # time to go; the estimate made before the full run stays what it was
        result, _ = run_campaign(store, SemimagicSettings(scope=SCOPE, depth=1, resume=True, max_units=2))
        plan = [u.name for u in S.plan_units(depth=1, scope=SCOPE)]
        before = set(store.done_units(result.campaign))
        result, _ = run_campaign(store, SemimagicSettings(
            scope=SCOPE, depth=1, resume=True, sample=len(plan) // 2, seed=7, max_units=3))
        done = store.done_units(result.campaign)
        late = {u for u, rec in done.items() if rec.get("late")}
        assert len(late) == 3 and not late & before and all(done[u]["sample"] for u in late)
        again = result.sample
        assert (again["units"], again["hours"], again["plus_minus"]) == (4, est["hours"], est["plus_minus"])
        block = max(plan.index(u) for u, rec in done.items() if not rec.get("sample"))
        past = [u for u, rec in done.items() if rec.get("sample") and plan.index(u) > block]
        assert again["to_go_units"] == len(past) and again["late_units"] == len(late & set(past)) == 3


def test_the_estimate_gives_the_nodes_which_meet_the_real_total_whatever_the_machine(tmp_path):
    """Issue 44 (4): a unit's time depends on the machine and its load (the sample of the whole enumeration:
    29 h estimated on one machine, 186 h on a slower, busier one), its nodes do not. On a scoped campaign run
    to the end, the nodes estimated from the sample hold the real total within their band, two runs of the same
    sample give the same nodes whatever their times, and the hours come with the rate they were measured at."""
    plan = [u.name for u in S.plan_units(depth=1, scope=SCOPE)]
    estimates = []
    for name in ("a.db", "b.db"):
        with Store(tmp_path / name) as store:
            result, _ = run_campaign(store, SemimagicSettings(
                scope=SCOPE, depth=1, sample=len(plan) // 2, seed=1, max_units=len(plan) // 2))
            estimates.append(result.sample)
            result, _ = run_campaign(store, SemimagicSettings(scope=SCOPE, depth=1, resume=True))
            assert result.complete
            real = result.nodes
            done = store.done_units(result.campaign)
            assert all(rec["cpu_seconds"] >= 0 for rec in done.values())
    a, b = estimates
    assert a["units"] == b["units"] == len(plan) // 2
    assert (a["nodes"], a["nodes_plus_minus"]) == (b["nodes"], b["nodes_plus_minus"])  # the machine's state aside
    assert abs(a["nodes"] - real) <= a["nodes_plus_minus"], (a, real)
    assert a["rate"] > 0 and a["cpu_hours"] >= 0 and a["cpu_plus_minus"] >= 0
    sampled = [rec for rec in done.values() if rec.get("sample")]
    rate = sum(r["nodes"] for r in sampled) / sum(r["seconds"] for r in sampled) / 1e6
    assert b["rate"] == pytest.approx(rate, rel=0.01)


def test_estimate_keeps_the_pairs_run_ahead_apart():
    """Pairs run ahead of the plan are a part with its own block; the two parts' times to go add."""
    plan = ["a u0", "a u1", "a u2", "b u3", "b u4", "b u5"]
    done = {"a u1": {"seconds": 20.0, "sample": True}, "b u5": {"seconds": 4.0, "sample": True},
            "b u3": {"seconds": 1.0, "ahead": True}}
    e = estimate(done, 6, plan=plan)
    # part b (ahead): block at b u3, b u4 left, b u5 speaks for it; part a: no block, a u0 and a u2 left, a u1 speaks
    assert e["to_go_units"] == 2 and e["to_go_hours"] == round((4.0 + 2 * 20.0) / 3600, 2)
    plain = estimate({u: {k: v for k, v in r.items() if k != "ahead"} for u, r in done.items()}, 6, plan=plan)
    assert plain["to_go_units"] == 1  # read as units in plan order, the block would hide a u1
    # a part with units left and no sampled unit past its block: every sampled unit speaks for it
    e = estimate(done | {"b u4": {"seconds": 2.0, "ahead": True}}, 6, plan=plan)
    assert e["to_go_hours"] == round(2 * 20.0 / 3600, 2)


def test_pairs_run_first(tmp_path):
    """``--first``: the pair's units right after the sample, in plan order, marked ahead; a pair not in the plan is refused."""
    closed = Conditions(closed=True)
    plan = [u.name for u in S.plan_units(closed)]
    pair = "c3-e4"  # not the plan's first pair; its first unit is over in a moment
    assert plan[0].split()[0] != pair and S.same_orbit_pairs(closed=True) == ("d3-f4",)
    with Store(tmp_path / "f.db") as store:
        with pytest.raises(LabyrinthError, match="not a pair"):
            run_campaign(store, SemimagicSettings(conditions=closed, first=["c3-e5"], max_units=1))
        assert not store.campaigns()  # refused before a campaign was opened
        result, _ = run_campaign(store, SemimagicSettings(conditions=closed, first=[pair], max_units=1))
        done = store.done_units(result.campaign)
        assert list(done) == [next(u for u in plan if u.startswith(pair + " "))] and done[list(done)[0]]["ahead"]


def test_status_of_a_complete_campaign_gives_its_classes_as_found(tmp_path):
    """``bench/knight_semimagic.py status`` on a finished campaign: the classes are "found", nothing is "so far"."""
    from pathlib import Path

    db = tmp_path / "done.db"
    with Store(db) as store:
        result, _ = run_campaign(store, SemimagicSettings(scope=SCOPE, depth=1))
    assert result.complete
    bench = Path(__file__).resolve().parent.parent / "bench" / "knight_semimagic.py"
    out = subprocess.run([sys.executable, str(bench), "status", "--db", str(db)], capture_output=True, text=True,
                         timeout=600, check=True).stdout
    found = len(result.summary["classes"])
    assert found and f"found: {found} classes, {result.summary['tours']} tours" in out
    assert "so far" not in out and "to go" not in out


def test_status_estimates_the_time_to_go_two_ways(tmp_path):
    """``bench/knight_semimagic.py status``: on a plan of one pair of end cells the pair-by-pair estimate is the plain one."""
    import re
    from pathlib import Path

    db = tmp_path / "st.db"
    with Store(db) as store:
        result, _ = run_campaign(store, SemimagicSettings(scope=SCOPE, depth=1, sample=5, seed=3, max_units=5))
    bench = Path(__file__).resolve().parent.parent / "bench" / "knight_semimagic.py"
    out = subprocess.run([sys.executable, str(bench), "status", "--db", str(db)], capture_output=True, text=True,
                         timeout=600, check=True).stdout
    plain = float(re.search(r"^to go: ([0-9.]+) \+- ", out, re.M).group(1))
    by_pair = float(re.search(r"^to go, pair by pair: ([0-9.]+) h", out, re.M).group(1))
    assert {u.name.split()[0] for u in S.plan_units(depth=1, scope=SCOPE)} == {SCOPE.split()[0]}
    assert plain == result.sample["to_go_hours"] and abs(by_pair - plain) <= 0.01  # both round to 0.01 h
    assert f"{result.units_done} of {result.units_total} units" in out
    # two pairs, one slow and one fast, sampled unevenly: pair by pair each keeps its own mean
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_knight_semimagic", bench)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    plan = [f"a1-h1 u{i}" for i in range(10)] + [f"d4-e4 u{i}" for i in range(30)]
    done = {"a1-h1 u0": {"seconds": 360.0, "sample": True}, "d4-e4 u0": {"seconds": 0.0, "sample": True},
            "d4-e4 u1": {"seconds": 36.0, "sample": True}, "d4-e4 u2": {"seconds": 0.0, "sample": True}}
    hours, units, unsampled = mod._by_pair(done, plan)
    assert (units, unsampled) == (4, 0) and hours == round((9 * 360 + 27 * 12) / 3600, 2)
    assert mod._by_pair(done | {"c1-c2 u0": {"seconds": 5.0}}, plan + ["c1-c2 u1"])[2] == 1
    assert mod._tail(done) == 360 / 396


def test_run_units_on_two_processes_agree():
    units = S.plan_units(depth=1, scope=SCOPE)[:6]
    serial = sorted(t for r in S.run_units(units) for t in r.tours)
    parallel = sorted(t for r in S.run_units(units, jobs=2) for t in r.tours)
    assert serial == parallel


@pytest.mark.parametrize("argv", [
    ["knight", "magic", "--all", "--scope", "a1-b3 c3"],
    ["knight", "magic", "--all", "--resume", "--new"],
    ["knight", "magic", "--resume"],
    ["knight", "magic", "--scope", "a1-b3"],
    ["knight", "magic", "--all", "--sample", "-1"],
])
def test_cli_bad_campaign_input(argv, capsys, tmp_path):
    try:
        status = cli.main([*argv, "--db", str(tmp_path / "x.db")])
    except SystemExit as exit_:
        status = exit_.code
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err


def _replayed_scheme(cells):
    """The puzzle author's search replayed literally on one class: start fields, allowed ends, one opening of each
    pair of openings that are images of each other (first 10 moves), then every tour found."""
    syms = S._symmetries()
    field = {c: next(f for f in S.START_FIELDS if f in {p[c] for p in syms}) for c in range(64)}
    rank = {f: i for i, f in enumerate(S.START_FIELDS)}
    found = [t for t in orbit(cells) if t[0] in rank and rank[field[t[-1]]] >= rank[t[0]]]
    kept = set()
    for opening in sorted({t[:11] for t in found}):
        if not any(tuple(p[c] for c in opening) in kept for p in syms):
            kept.add(opening)
    return sum(1 for t in found if t[:11] in kept)


def test_scheme_count_replays_the_authors_search():
    """The puzzle author's count: 1 a class, 2 when both ends lie in one orbit; a diagonal start field adds nothing."""
    rng = random.Random(5)
    syms = S._symmetries()
    field = {c: next(f for f in S.START_FIELDS if f in {p[c] for p in syms}) for c in range(64)}
    seen, diagonal = set(), 0
    tours = [BEV, FIG2] + [_random_tour(rng) for _ in range(60)]
    for t in tours:
        reversing = any(tuple(p[c] for c in t[::-1]) == tuple(t) for p in syms)
        want = 2 if field[t[0]] == field[t[-1]] and not reversing else 1
        assert S.scheme_count([t]) == S.scheme_count([canonical(t)]) == _replayed_scheme(t) == want
        seen.add(want)
        diagonal += min(field[t[0]], field[t[-1]], key=S.START_FIELDS.index) in (0, 9, 18, 27)
    assert seen == {1, 2} and diagonal
    assert S.scheme_count(tours[:3]) == sum(S.scheme_count([t]) for t in tours[:3])
    assert S.scheme_count([BEV], order=S.START_FIELDS[::-1]) == S.scheme_count([BEV])


def test_json_of_a_result_gives_the_numbered_grids():
    """`knight magic --json`: each tour's numbered grid (64 numbers by rows) beside its path."""
    from labyrinth.core.path import PathState
    from labyrinth.puzzles.knight import knight_puzzle
    from labyrinth.puzzles.knight.magic import ALL, MagicResult

    states = tuple(PathState(knight_puzzle(8), t) for t in (canonical(BEV), canonical(FIG2)))
    out = MagicResult(Conditions(), ALL, states, states).to_json()
    assert len(out["grids"]) == len(out["paths"]) == 2
    for grid, state in zip(out["grids"], states):
        assert grid == grid_of(state.path) and grid[state.path[0]] == 1 and grid[state.path[-1]] == 64
        assert all(sum(grid[y * 8:y * 8 + 8]) == 260 for y in range(8))


def test_campaign_time_limit_is_partial_and_resumable(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    argv = ["knight", "magic", "--all", "--scope", SCOPE, "--depth", "1", "--db", db, "--no-progress"]
    assert cli.main([*argv, "--time-limit", "0.5"]) == 3
    err = capsys.readouterr().err
    assert "time limit" in err and "--resume" in err
    assert cli.main([*argv, "--resume", "--max-units", "0", "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unknown" and out["units_done"] < out["units_total"]


def test_the_time_to_go_is_estimated_from_the_sampled_units_past_the_units_run_in_order():
    plan = [f"u{i}" for i in range(10)]
    # u0..u2 run in order (slow: the head of a plan can be unlike the rest); u1, u5, u8 sampled at random
    done = {"u0": {"seconds": 900.0}, "u1": {"seconds": 1800.0, "sample": True}, "u2": {"seconds": 1200.0},
            "u5": {"seconds": 36.0, "sample": True}, "u8": {"seconds": 72.0, "sample": True}}
    e = estimate(done, len(plan), plan)
    left = len(plan) - len(done)
    past = [36.0, 72.0]  # u1 lies inside the block run in order: it is not a random draw from what is left
    assert e["to_go_units"] == len(past)
    assert e["to_go_hours"] == round(sum(past) / len(past) * left / 3600, 2)
    work = sum(r["seconds"] for r in done.values())
    assert e["expected_hours"] == round(work / 3600 + e["to_go_hours"], 2)
    assert e["units"] == 3 and e["hours"] == round((1800 + 36 + 72) / 3 * len(plan) / 3600, 2)
    every = {u: {"seconds": 10.0, "sample": u in ("u1", "u5")} for u in plan}
    whole = estimate(every, len(plan), plan)
    assert whole["to_go_hours"] == 0 and whole["expected_hours"] == round(100 / 3600, 2)
    assert "to_go_hours" not in estimate({"u0": {"seconds": 5.0, "sample": True}, "u1": {"seconds": 5.0}}, 10, plan)
    # a late sample (drawn once the run in order began) speaks for the units left, not for the first estimate
    late = done | {"u7": {"seconds": 108.0, "sample": True, "late": True}}
    e2 = estimate(late, len(plan), plan)
    assert (e2["units"], e2["hours"]) == (e["units"], e["hours"])
    assert (e2["to_go_units"], e2["late_units"]) == (3, 1)
    assert e2["to_go_hours"] == round((36 + 72 + 108) / 3 * (left - 1) / 3600, 2)
    only_late = estimate({"u0": {"seconds": 9.0}, "u4": {"seconds": 18.0, "sample": True, "late": True}}, 10, plan)
    assert only_late["units"] == 0 and "hours" not in only_late and only_late["to_go_hours"] == round(18 * 8 / 3600, 2)


#: a part of the work on a closed tour (FIG2's first and last 12 cells, one more move at each end): 12 units, 1 tour
CLOSED_SCOPE = S.Unit(FIG2[:12], FIG2[::-1][:12]).name


def test_a_campaign_takes_the_units_another_campaign_of_the_same_search_has_done(tmp_path):
    with Store(tmp_path / "shared.db") as store:
        closed, _ = run_campaign(store, SemimagicSettings(
            conditions=Conditions(closed=True), scope=CLOSED_SCOPE, depth=1))
        assert closed.complete and FIG2 in orbit(closed.summary["classes"][0])
        plan = [u.name for u in S.plan_units(depth=1, scope=CLOSED_SCOPE)]
        ran = []
        whole, _ = run_campaign(store, SemimagicSettings(
            scope=CLOSED_SCOPE, depth=1, progress=lambda d, t, r: ran.append(r.name)))
        # every unit of this plan was searched by the closed campaign: none is searched again, none is missing
        assert whole.complete and ran == [] and whole.units_done == len(plan)
        copied = store.done_units(whole.campaign)
        assert all(rec["copied_from"] == closed.campaign and "sample" not in rec for rec in copied.values())
        assert whole.summary["classes"] == closed.summary["classes"]
        # the same answer as searching them: a store of its own
        with Store(tmp_path / "alone.db") as alone:
            fresh, _ = run_campaign(alone, SemimagicSettings(scope=CLOSED_SCOPE, depth=1))
            assert fresh.summary["classes"] == whole.summary["classes"]
            assert {u: r["tours"] for u, r in alone.done_units(fresh.campaign).items()} == \
                {u: r["tours"] for u, r in copied.items()}
        # the diagonals change the search: nothing is taken from the others
        diag, _ = run_campaign(store, SemimagicSettings(
            conditions=Conditions(diagonals=True), scope=CLOSED_SCOPE, depth=1))
        assert diag.complete and not any("copied_from" in r for r in store.done_units(diag.campaign).values())


def test_the_estimate_leaves_out_sampled_units_another_campaign_has_done():
    plan = [f"u{i}" for i in range(10)]
    done = {"u0": {"seconds": 900.0}, "u3": {"seconds": 1.0, "sample": True}, "u6": {"seconds": 50.0, "sample": True},
            "u9": {"seconds": 2.0, "copied_from": 2}}
    e = estimate(done, len(plan), plan, elsewhere={"u3", "u9"})
    # u9 (copied) does not stretch the block run in order; u3 is done elsewhere: it speaks for no unit left
    assert e["to_go_units"] == 1 and e["to_go_hours"] == round(50.0 * 6 / 3600, 2)
