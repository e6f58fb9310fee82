"""Rule-edit regression: disabling a universal rule is caught and named; an unchanged set is clean."""

import json

import pytest

from labyrinth.cli import main
from labyrinth.engine import parse_state
from oracle.sat import SatOracle
from verify import Store


@pytest.fixture
def no_db(tmp_path):
    """A store path known not to exist (in the test's own folder): regress reads only its walks."""
    return str(tmp_path / "missing" / "none.db")


def _regress(capsys, no_db, *args):
    code = main(["regress", *args, "-n", "7", "--walks", "20", "--seed", "1", "--db", no_db, "--json",
                 "--no-progress"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("rule", ["count-area", "older-line"])
def test_disabling_a_universal_rule_exits_1_and_names_it(capsys, no_db, rule):
    code, report = _regress(capsys, no_db, "--base", "universal", "--head", "universal", "--head-off", rule)
    assert code == 1 and report["regressed"]
    assert report["diff"]["only_base"] == [rule]
    assert set(report["blamed"]) == {rule}
    assert report["classes"]["missed-dead"]["new"] == len(report["new"]) > 0
    with SatOracle() as sat:
        for item in report["new"]:
            state = parse_state(item["state"])
            assert sat.decide(state).feasible and not sat.decide(state.after(item["move"])).feasible
    # the edit undone: the same findings come back as fixed, and nothing regresses
    code, back = _regress(capsys, no_db, "--base", "universal", "--base-off", rule, "--head", "universal")
    assert code == 0 and not back["regressed"]
    assert {(f["state"], f["move"]) for f in back["fixed"]} == {(f["state"], f["move"]) for f in report["new"]}
    assert back["per_size"][0]["head_walkthroughs"] == report["per_size"][0]["base_walkthroughs"]


def test_the_same_rule_set_has_only_unchanged_findings(capsys, no_db):
    code, report = _regress(capsys, no_db, "--base", "universal", "--head", "universal")
    assert code == 0 and report["new"] == [] and report["fixed"] == []
    assert report["classes"]["missed-dead"]["unchanged"] > 0  # universal misses some dead moves on 7x7
    row = report["per_size"][0]
    assert row["base_walkthroughs"] == row["head_walkthroughs"]


def test_regress_reads_stored_findings_and_prints_the_verdict(tmp_path, capsys):
    db = str(tmp_path / "r.db")
    assert main(["audit", "-n", "7", "--rules", "universal", "--walks", "6", "--seed", "9", "--db", db,
                 "--no-patterns", "--no-progress"]) == 0
    capsys.readouterr()
    code = main(["regress", "--base", "universal", "--head", "universal", "--head-off", "near-border", "-n", "7",
                 "--walks", "5", "--seed", "3", "--db", db, "--no-progress"])
    out = capsys.readouterr().out
    assert code == 1 and "REGRESSION" in out and "near-border" in out.splitlines()[-1]
    with Store(db) as store:
        stored = {f["state"] for f in store.findings()}
    assert out.splitlines()[1] == f"stored findings: the {len(stored)} states of its findings on these sizes, " \
                                  f"from {db}, audited too"


def test_regress_says_when_it_reads_the_default_store(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["regress", "--base", "universal", "--head", "universal", "-n", "5", "--walks", "2", "--no-progress"]
    assert main(args) == 0
    assert "stored findings: none: no store at ./labyrinth.db (the default --db)" in capsys.readouterr().out
    assert main(["audit", "-n", "7", "--rules", "universal", "--walks", "30", "--seed", "3", "--no-patterns",
                 "--no-progress"]) == 0
    capsys.readouterr()
    assert main([a if a != "5" else "7" for a in args] + ["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["db"] == "labyrinth.db" and report["stored_states"] >= 1


@pytest.mark.parametrize("args, needle", [
    (["--base", "universal", "--head", "nope"], "nope"),
    (["--base", "universal", "--head", "universal", "--head-off", "no-such-rule"], "no-such-rule"),
    (["--base", "universal", "--head", "universal", "-n", "8"], "8"),
])
def test_regress_rejects_bad_input(args, needle, capsys):
    assert main(["regress", *args, "--walks", "2"]) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1
