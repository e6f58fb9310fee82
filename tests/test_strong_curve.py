"""The curve bench (bench/strong_curve.py) and its misses (bench/strong_misses.py), on small boards."""

import importlib.util
import json
import sys
from pathlib import Path

from labyrinth.engine.walker import walk_statistics
from labyrinth.rules import get_rule_set
from oracle import get_oracle

ROOT = Path(__file__).resolve().parent.parent


def _bench(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # importable by name: its functions go to worker processes (--jobs)
    spec.loader.exec_module(module)
    return module


def test_the_curve_gives_the_statistic_of_a_run_without_a_store_and_goes_on_where_it_stopped(tmp_path, capsys):
    curve = _bench("strong_curve")
    db, report = tmp_path / "c.db", tmp_path / "c.md"
    args = ["--sizes", "7,9", "--sets", "default,strong", "--scale", "0.01", "--jobs", "1", "--db", str(db),
            "--report", str(report)]
    curve.main(args)
    text = report.read_text()
    plan = curve.plan([7, 9], 0.01)
    for n in (7, 9):
        runs, cap = plan[n]
        for name in ("default", "strong"):
            st = walk_statistics(n, get_rule_set(name), runs, curve.SEED, cap)
            assert f"{st.stuck} / {st.walks}" in text.split(f"\n| {n} | ")[1].splitlines()[0], (name, n)
    assert report.with_suffix(".svg").read_text().startswith("<svg")
    capsys.readouterr()
    curve.main(args)  # everything is stored: nothing runs again, the same report
    assert "n=" not in capsys.readouterr().out
    assert report.read_text() == text


def test_the_misses_are_replayed_found_dead_where_the_oracle_says_and_shrunk(tmp_path, capsys):
    curve, misses = _bench("strong_curve"), _bench("strong_misses")
    db = tmp_path / "c.db"
    curve.main(["--sizes", "9", "--sets", "default", "--scale", "0.005", "--jobs", "1", "--db", str(db),
                "--report", str(tmp_path / "c.md"), "--no-estimate"])
    store, report = tmp_path / "m.jsonl", tmp_path / "m.md"
    misses.main(["--db", str(db), "--rules", "default", "--per-size", "2", "--misses", str(store), "--report",
                 str(report), "--time-limit", "60"])
    recs = [json.loads(line) for line in store.read_text().splitlines()]
    assert len(recs) == 2
    from labyrinth.engine.state import State

    with get_oracle("sat", time_limit=60) as oracle:
        for r in recs:
            line = State.from_moves(r["n"], r["line"].partition(":")[2])
            assert r["outcome"] == "stuck" and r["steps"] == line.steps
            k = r["first_dead_step"]
            assert oracle.decide(line.prefix(k)).feasible is False
            assert oracle.decide(line.prefix(k - 1)).feasible is True
            assert r["seen_after"] == line.steps - k and r["facts"] >= 2
    text = report.read_text()
    assert text.count("\n| 9 | ") == 2 and "```" in text
    capsys.readouterr()
    misses.main(["--db", str(db), "--rules", "default", "--per-size", "2", "--misses", str(store), "--report",
                 str(report), "--certify"])  # done before: nothing again; the probe's closed moves certified
    assert len(store.read_text().splitlines()) == 2
    said = capsys.readouterr().out
    assert "missing 0, rejected 0" in said, said


def test_the_witness_profile_counts_every_step_of_the_walk_it_profiles_once():
    from labyrinth.engine.walker import random_walk

    profile = _bench("witness_profile")
    runner = get_rule_set("strong").runner()
    for index in range(3):
        got, outcome, length = profile.profile(runner, 15, 4, index, 7)
        walk = random_walk(15, get_rule_set("strong"), 4, index=index)
        assert length == len(walk.state.path) and bool(outcome) == (walk.outcome == "complete")
        assert sum(steps for steps, _ in got.values()) == length - 1  # slices of 7 steps, each counted once
        assert got["line"][0] > 0  # the empty board's witness is a line: the profile sees it


def test_the_runs_walked_again_are_the_same_on_two_processes_and_every_seed_counts_once(tmp_path, capsys):
    curve, gates = _bench("strong_curve"), _bench("strong_gates")
    db = tmp_path / "c.db"
    for seed in ("1", "2"):
        curve.main(["--sizes", "9", "--sets", "default", "--scale", "0.004", "--jobs", "1", "--seed", seed,
                    "--db", str(db), "--report", str(tmp_path / "c.md"), "--no-estimate"])
    reports = {}
    for jobs in ("1", "2"):
        runs = tmp_path / f"runs{jobs}.jsonl"
        args = ["--db", str(db), "--base", "default", "--rules", "default", "--runs", str(runs),
                "--report", str(tmp_path / f"g{jobs}.md"), "--jobs", jobs]
        gates.main(args)
        recs = sorted((json.loads(line) for line in runs.read_text().splitlines()), key=lambda r: (r["seed"], r["run"]))
        reports[jobs] = recs
        # the base set walked again from its stuck walk gets stuck on that walk again (a walk is its seed's)
        assert recs and all(r["sample"] == r["base_sample"] and r["walks"] == r["base_sample"] + 1 for r in recs)
        gates.main(args)  # everything walked: nothing runs again
        assert len(runs.read_text().splitlines()) == len(recs)
    strip = [[{k: v for k, v in r.items() if k != "seconds"} for r in recs] for recs in reports.values()]
    assert strip[0] == strip[1]
    text = (tmp_path / "g2.md").read_text()
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith("| 9 | ") and "(seed" in line]
    assert len(rows) == 2
    stuck = sum(int(r[3].split(" / ")[0]) for r in rows)
    walks = sum(int(r[3].split(" / ")[1].replace(" ", "")) for r in rows)
    pooled = next(line for line in text.splitlines() if line.startswith("| 9 | 2 | "))
    assert pooled.split(" | ")[2] == f"{stuck} / {walks:,}".replace(",", " ")
    assert stuck == len(reports["2"])
    capsys.readouterr()


def test_runs_a_contained_set_walked_again_start_the_stronger_sets_runs_and_a_run_it_completed_is_complete(
        tmp_path, capsys):
    curve, gates = _bench("strong_curve"), _bench("strong_gates")
    db = tmp_path / "c.db"
    curve.main(["--sizes", "9", "--sets", "universal", "--scale", "0.004", "--jobs", "1", "--seed", "3",
                "--db", str(db), "--report", str(tmp_path / "c.md"), "--no-estimate"])
    common = ["--db", str(db), "--base", "universal", "--rules", "default"]
    first = tmp_path / "first.jsonl"
    gates.main([*common, "--runs", str(first), "--report", str(tmp_path / "first.md")])
    recs = [json.loads(line) for line in first.read_text().splitlines()]
    assert len(recs) >= 2 and all(r["sample"] < r["cap"] for r in recs)  # default gets stuck on 9x9 too
    # another set's runs, one of them completed: the stronger set's run is complete without a walk, and the
    # others start where that set got stuck (here the same set: stuck on the same walk again)
    other = tmp_path / "other.jsonl"
    done = dict(recs[0], sample=recs[0]["cap"], walks=recs[0]["cap"])
    other.write_text("\n".join(json.dumps(r) for r in [done, *recs[1:]]) + "\n")
    chained = tmp_path / "chained.jsonl"
    gates.main([*common, "--also", str(other), "--runs", str(chained), "--report", str(tmp_path / "chained.md")])
    got = {(r["seed"], r["run"]): r for r in map(json.loads, chained.read_text().splitlines())}
    assert len(got) == len(recs)
    key = (done["seed"], done["run"])
    assert got[key]["known"] and got[key]["sample"] == got[key]["walks"] == done["cap"]
    for r in recs[1:]:
        mine = got[(r["seed"], r["run"])]
        assert "known" not in mine and (mine["sample"], mine["walks"]) == (r["sample"], r["walks"])
    row = next(line for line in (tmp_path / "chained.md").read_text().splitlines() if line.startswith("| 9 | "))
    assert row.split(" | ")[5].split(" / ")[0] == str(len(recs) - 1)
    capsys.readouterr()
