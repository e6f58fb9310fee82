"""Shrinking over-pruned findings: the same rule still misfires on a walk the walker can take, and no pass helps."""

import json

import pytest

from labyrinth.cli import main
from labyrinth.engine import parse_state
from labyrinth.rules import get_rule_set
from oracle import check_witness, get_oracle
from oracle.sat import SatOracle
from verify.audit import OVER_PRUNED, audit_walk
from verify.shrink import PASSES, ShrinkError, shrink_over_pruned

WRONG_RULE = """\
name: no-straight-beside-line
about: a wrong rule: never step straight while the line runs along the left
sizes: all
mirror: no
grid:
  ? x ?
  # H ?
  # # ?
"""


@pytest.fixture(scope="module")
def wrong(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "wrong.rule"
    path.write_text(WRONG_RULE)
    return str(path)


@pytest.fixture(scope="module")
def findings_11(wrong):
    rules = get_rule_set(wrong)
    found = []
    with get_oracle("auto") as oracle:
        for i in range(6):
            found += [f for f in audit_walk(11, rules, 5, i, oracle)[0] if f.kind == OVER_PRUNED]
    assert len(found) >= 4
    return rules, found[:6]


def _reachable(rules, state):
    walk = parse_state(f"{state.n}:")
    for m in state.moves:
        if m not in rules.open_moves(walk):
            return False
        walk = walk.after(m)
    return True


def test_shrunk_cases_are_smaller_real_and_at_a_fixed_point(findings_11):
    rules, found = findings_11
    with get_oracle("auto") as oracle, SatOracle() as sat:
        for f in found:
            original = parse_state(f.state)
            shrunk = shrink_over_pruned(original, f.move, rules, oracle, rule=f.rules[0])
            small = parse_state(shrunk.state)
            assert (small.n, small.steps) < (original.n, original.steps)
            # the same rule closes the move, the move is feasible (a second backend agrees), the walker can get there
            assert any(e.rule == f.rules[0] for e in rules.decide(small).disabled[f.move])
            assert sat.decide(small.after(f.move)).feasible
            assert shrunk.witness[0] == f.move and check_witness(small, shrunk.witness)
            assert _reachable(rules, small)
            assert sum(shrunk.passes.values()) > 0
            # a fixed point: no candidate of any pass is a smaller counterexample
            for _, candidates in PASSES:
                for n, moves in candidates(small.n, small.moves):
                    if (n, len(moves), moves) >= (small.n, small.steps, small.moves):
                        continue
                    try:
                        cand = parse_state(f"{n}:{moves}")
                    except Exception:
                        continue
                    if f.move not in cand.open_moves() or not _reachable(rules, cand):
                        continue
                    fires = any(e.rule == f.rules[0] for e in rules.decide(cand).disabled.get(f.move, ()))
                    assert not (fires and sat.decide(cand.after(f.move)).feasible), (shrunk.state, moves)


def test_shrinking_a_move_the_rule_does_not_close_is_an_error(findings_11):
    rules, found = findings_11
    state = parse_state(found[0].state)
    other = next(m for m in state.open_moves() if m != found[0].move)
    with get_oracle("auto") as oracle, pytest.raises(ShrinkError):
        shrink_over_pruned(state, other, rules, oracle, rule=found[0].rules[0])


def test_minimize_shrinks_a_stored_over_pruned_finding(tmp_path, wrong, capsys):
    db = str(tmp_path / "s.db")
    assert main(["audit", "-n", "9", "--rules", wrong, "--walks", "4", "--seed", "5", "--db", db, "--json",
                 "--no-patterns"]) == 0
    found = [json.loads(x) for x in capsys.readouterr().out.splitlines()[:-1]]
    over = [f for f in found if f["kind"] == OVER_PRUNED]
    assert over
    main(["findings", "list", "--db", db, "--kind", OVER_PRUNED, "--json"])
    fid = json.loads(capsys.readouterr().out.splitlines()[0])["id"]
    assert main(["minimize", "--finding", str(fid), "--db", db, "--json"]) == 0
    shrunk = json.loads(capsys.readouterr().out)
    assert shrunk["rule"] == "no-straight-beside-line" and shrunk["original"] == over[0]["state"]
    assert parse_state(shrunk["state"]).n <= 9
    assert main(["minimize", "--moves", over[0]["state"], "--move", over[0]["move"], "--rules", wrong]) == 0
    assert "smallest case" in capsys.readouterr().out


def test_the_docs_shrinking_demo_shrinks(tmp_path, capsys):
    """Issue 44 (9): docs/auditing.md's demonstration (examples/rules/beside-line.rule, finding 5) ends smaller
    on both counts: a smaller board and a shorter walk, the same rule still closing a feasible move."""
    from pathlib import Path

    rule = str(Path(__file__).resolve().parent.parent / "examples" / "rules" / "beside-line.rule")
    db = str(tmp_path / "beside.db")
    assert main(["audit", "-n", "11", "--rules", rule, "--walks", "5", "--seed", "1", "--db", db,
                 "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["minimize", "--finding", "5", "--db", db, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    before, after = parse_state(out["original"]), parse_state(out["state"])
    assert after.n < before.n and len(after.moves) < len(before.moves) and out["rule"] == "beside-line"
    with get_oracle("auto") as oracle:
        assert oracle.decide(after.after(out["move"])).feasible
