"""Rules learned from stuck walks: sound by proof, each closes the move it was taught by, and runs resume."""

import re

import pytest

from labyrinth.engine import parse_compact
from labyrinth.rules import PatternRule, parse_rules
from verify.learn import format_learned, learn, subsumes
from verify.soundness import rule_soundness


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    store = tmp_path_factory.mktemp("learn") / "units.jsonl"
    learned = learn([9], base="default", rounds=1, walks=60, seed=7, store=store, time_limit=20.0)
    return learned, store


def test_every_learned_rule_is_proved_sound_and_closes_its_teaching_move(run):
    learned, _ = run
    assert learned.rules, "60 walks of 9x9 under default get stuck: something must be learned"
    for text in learned.rules:
        spec = parse_rules(text, source="learned")[0]
        assert all(v.sound is True for v in rule_soundness(spec)), spec.name
        fatal = parse_compact(re.search(r"from (\d+:[UDLR]+)", spec.about).group(1))
        before = fatal.prefix(fatal.steps - 1)
        closed = {e.move for e in PatternRule(spec).effects(before)}
        assert fatal.moves[-1] in closed, spec.name


def test_no_learned_rule_subsumes_another(run):
    learned, _ = run
    specs = [parse_rules(t, source="learned")[0] for t in learned.rules]
    for a in specs:
        for b in specs:
            if a is not b:
                assert not subsumes(a, b), (a.name, b.name)


def test_a_resumed_run_decides_nothing_again_and_learns_the_same(run):
    learned, store = run
    lines = store.read_text().splitlines()
    again = learn([9], base="default", rounds=1, walks=60, seed=7, store=store, resume=True, time_limit=20.0)
    assert store.read_text().splitlines() == lines
    assert again.rules == learned.rules and again.rounds == learned.rounds


def test_the_rule_file_loads_and_records_each_round(run, tmp_path):
    learned, _ = run
    text = format_learned(learned, "labyrinth rules learn -n 9")
    path = tmp_path / "learned.rule"
    path.write_text(text)
    from labyrinth.rules import get_rule_set

    rules = get_rule_set(str(path))
    assert len([r for r in rules.rules if r.name.startswith("learned-")]) == len(learned.rules)
    assert "# round 1:" in text and "stuck in 60 walks" in text


def test_the_command_refuses_to_overwrite_a_stored_run(tmp_path, capsys):
    from labyrinth.cli import main

    out = tmp_path / "learned.rule"
    store = tmp_path / "run.jsonl"
    store.write_text('{"kind": "round", "round": 1, "sizes": {}, "new": 0, "rules": 0, "seconds": 0}\n')
    assert main(["rules", "learn", "-n", "9", "--walks", "5", "-o", str(out), "--store", str(store)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--resume" in err[0] and str(store) in err[0]
    assert main(["rules", "learn", "-n", "8", "-o", str(out)]) == 2  # even size: one line, no work


def test_two_workers_learn_what_one_learns(tmp_path):
    one = learn([9], base="default", rounds=1, walks=25, seed=11, store=tmp_path / "a.jsonl", time_limit=60.0)
    two = learn([9], base="default", rounds=1, walks=25, seed=11, store=tmp_path / "b.jsonl", time_limit=60.0, jobs=2)
    before = [{n: (v["walks"], v["before"]) for n, v in run.rounds[0]["sizes"].items()} for run in (one, two)]
    assert before[0] == before[1]  # the same walks, the same stuck walks
    if not one.skipped.get("timeout") and not two.skipped.get("timeout"):
        assert one.rules == two.rules and one.rounds[0]["sizes"] == two.rounds[0]["sizes"]
    else:  # a finding that ran out of time under load is unknown, not refused: it only leaves a pattern out
        grids = [{text.partition("grid:")[2] for text in run.rules} for run in (one, two)]
        assert grids[0] <= grids[1] or grids[1] <= grids[0]
