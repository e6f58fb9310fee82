"""The verifier: audits find what brute force and the oracle say is wrong, patterns are sound and minimal."""

import pytest
from brute import completions_exist, reachable_states

from labyrinth.engine import State, parse_state
from oracle import check_witness, get_oracle
from oracle.sat import SatOracle
from verify import AuditSettings, Store, minimal_pattern, run_campaign, verify_pattern
from verify.minimize import matches

BAD_RULES = """\
name: no-straight-beside-line
about: a wrong rule: never step straight while the line runs along the left
sizes: 5
mirror: no
grid:
  ? x ?
  # H ?
  # # ?

name: always-right
about: a wrong rule: turn right whenever the line ahead is free
sizes: 5
mirror: no
grid:
  ? . ?
  ? H f
"""


def _dead_5x5_states():
    return [s for s in reachable_states(5) if not s.at_end() and s.steps > 3 and not completions_exist(s)]


@pytest.fixture(scope="module")
def patterns_5x5():
    dead = _dead_5x5_states()
    picked = dead[:: max(1, len(dead) // 40)]
    return [(s, minimal_pattern(s)) for s in picked]


def test_patterns_agree_with_their_state_and_are_sound_and_minimal(patterns_5x5):
    assert len(patterns_5x5) >= 30
    with SatOracle() as fresh:
        for state, p in patterns_5x5:
            assert matches(p, state), state.compact()
            assert verify_pattern(p, fresh) == (True, True), state.compact()
            assert len(p.facts) < state.board.size + 4 * state.n


def test_every_5x5_state_a_pattern_matches_is_dead(patterns_5x5):
    states = [s for s in reachable_states(5) if not s.at_end()][::7]
    keys = {}
    for _, p in patterns_5x5:
        keys.setdefault(p.key, p)
    hits = 0
    for s in states:
        for p in keys.values():
            if matches(p, s):
                hits += 1
                assert not completions_exist(s), (p.key, s.compact())
    assert hits > len(keys)


def test_pattern_is_canonical_under_the_left_right_mirror():
    # the same dead end, once with the line turning left and once turning right
    a = minimal_pattern(State.from_moves(7, "RRRRRRDDLLLLLU"))
    state_b = State.from_moves(7, "DDDDDDRRUUUUUL")  # mirrored along the diagonal: left and right swap
    b = minimal_pattern(state_b)
    assert a.key == b.key
    assert a.facts != b.facts or a.heading != b.heading


def test_pattern_as_a_rule_fires_before_the_dead_step():
    from labyrinth.rules import PatternRule, RuleSet, parse_rules

    dead = State.from_moves(5, "RRRRDDLL")
    p = minimal_pattern(dead)
    text = p.to_rule("from-pattern")
    rule = RuleSet("x", [PatternRule(parse_rules(text, source="t")[0])])
    parent = dead.prefix(dead.steps - 1)
    assert dead.moves[-1] in rule.decide(parent).disabled


def test_alive_state_has_no_pattern():
    from verify import PatternError

    with pytest.raises(PatternError):
        minimal_pattern(State.from_moves(5, "RR"))


def _campaign(db, **kw):
    with Store(db) as store:
        return run_campaign(store, AuditSettings(**kw))


def test_exhaustive_5x5_default_has_no_findings(tmp_path):
    _, totals, findings = _campaign(tmp_path / "a.db", n=5, rules_args=("default", (), ()), exhaustive=True)
    assert (totals.walkthroughs, totals.stuck, findings) == (104, 0, [])


def test_exhaustive_7x7_audits(tmp_path):
    # default: the research program's 111 712 and no finding of any class
    _, totals, findings = _campaign(tmp_path / "d.db", n=7, rules_args=("default", (), ()), exhaustive=True,
                                    jobs=2)
    assert (totals.walkthroughs, totals.stuck, len(findings)) == (111712, 0, 0)
    # the universal rules alone miss dead states: one topmost finding per stuck leaf, each confirmed by a solver
    # and carrying a pattern that re-verifies
    _, totals, findings = _campaign(tmp_path / "u.db", n=7, rules_args=("universal", (), ()), exhaustive=True,
                                    jobs=2)
    assert totals.walkthroughs == 111712 and totals.stuck > 0
    assert findings and {f.kind for f in findings} == {"missed-dead"}
    assert all(f.checked_by in ("sat", "cpsat") for f in findings)  # a second opinion: not the search
    assert len(findings) <= totals.stuck
    with SatOracle() as fresh:
        for f in findings[:: max(1, len(findings) // 12)]:
            dead = parse_state(f.dead_state)
            assert not completions_exist(dead, prune=True)
            assert f.pattern is not None and matches(f.pattern, dead)
            assert verify_pattern(f.pattern, fresh) == (True, True)
    with Store(tmp_path / "u.db") as store:
        assert sum(p["count"] for p in store.patterns()) == len(findings)


def test_wrong_rules_are_caught_with_blame_and_witness(tmp_path):
    path = tmp_path / "bad.rule"
    path.write_text(BAD_RULES)
    universal = ("c-shape", "near-border", "older-line", "count-area", "colour-imbalance")
    _, totals, findings = _campaign(tmp_path / "b.db", n=5, rules_args=(str(path), universal, ()),
                                    exhaustive=True)
    kinds = {f.kind for f in findings}
    assert "over-pruned" in kinds and "wrong-force" in kinds
    for f in findings:
        state = parse_state(f.state)
        if f.kind == "over-pruned":
            assert f.rules and f.witness[0] == f.move and check_witness(state, f.witness)
            assert f.rules[0] in ("no-straight-beside-line", "always-right")
        if f.kind == "wrong-force":
            assert f.rules == ("always-right",)
            assert not completions_exist(state.after(f.move)) and check_witness(state, f.witness)
        if f.kind == "missed-dead":
            assert not completions_exist(state.after(f.move))
    assert totals.misfired["always-right"] == sum(f.rules == ("always-right",) for f in findings)


@pytest.mark.parametrize("rules_name", ["default", "universal"])
def test_exhaustive_fired_counts_match_the_explained_rules(tmp_path, rules_name):
    """The kernel's per-rule closure counts equal those of the explained path over the same keep-left tree."""
    import collections

    from labyrinth.rules import get_rule_set
    from verify.audit import count_fired

    rules = get_rule_set(rules_name)
    _, totals, _ = _campaign(tmp_path / "f.db", n=5, rules_args=(rules_name, (), ()), exhaustive=True, split=3)
    expected = collections.Counter()
    stack = [State.from_moves(5, "")]
    while stack:
        s = stack.pop()
        if s.at_end():
            continue
        decision = rules.decide(s)
        count_fired(decision, expected)
        stack.extend(s.after(m) for m in decision.open)
    assert expected and totals.fired == expected


@pytest.mark.parametrize("n", [5, 7])
def test_exhaustive_oracle_rules_have_no_findings_and_every_walkthrough(tmp_path, n):
    """The oracle rule set's keep-left tree is every Hamiltonian corner path, with no stuck leaf (A001184)."""
    from oracle.count import count_paths

    _, totals, findings = _campaign(tmp_path / "o.db", n=n, rules_args=("oracle", (), ()), exhaustive=True, jobs=2)
    assert findings == [] and totals.stuck == 0 and sum(totals.findings.values()) == 0
    assert totals.walkthroughs == count_paths(n) == {5: 104, 7: 111_712}[n]


def test_oracle_rules_walks_have_no_findings(tmp_path):
    for n, walks in ((9, 8), (11, 3)):
        _, totals, findings = _campaign(tmp_path / "o.db", n=n, rules_args=("oracle", (), ()), walks=walks, seed=3)
        assert findings == [] and totals.walkthroughs == walks


def test_walk_audit_finds_what_the_walk_runs_into(tmp_path):
    _, totals, findings = _campaign(tmp_path / "w.db", n=7, rules_args=("universal", (), ()), walks=40, seed=1)
    stuck_walks = totals.stuck
    assert stuck_walks > 0
    traced = [f for f in findings if f.kind == "missed-dead" and f.stuck_step is not None]
    assert len(traced) == stuck_walks  # every stuck walk is traced back to its first dead step
    for f in traced:
        assert parse_state(f.dead_state).steps <= f.stuck_step
    with get_oracle("auto") as oracle:
        for f in findings:
            assert oracle.decide(parse_state(f.dead_state)).feasible is False
