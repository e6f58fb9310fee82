"""The whole-board rules that are sound by construction never close a live move.

Every reachable 5x5 state (against brute force), and states of seeded random
walks on larger boards (against the oracle).
"""

import pytest
from brute import completions_exist, reachable_states

from labyrinth.engine.walker import random_walk
from labyrinth.rules import get_rule_set
from labyrinth.rules.closure import Closure
from labyrinth.rules.cut import CutCondition
from labyrinth.rules.exact_areas import ExactAreas
from labyrinth.rules.gates import GatedAreas
from labyrinth.rules.matching import TwoMatching
from labyrinth.rules.probe import HeadProbe
from labyrinth.rules.subtour import SubtourCuts
from oracle import get_oracle


@pytest.mark.parametrize(("rule", "at_least"), [(Closure(), 1000), (ExactAreas(), 1000), (TwoMatching(), 50), (HeadProbe(), 1000),
                                               (HeadProbe(3), 1000), (CutCondition(), 1000), (GatedAreas(), 1000),
                                               (HeadProbe(1, cut=True), 1000), (HeadProbe(3, cut=True), 1000)],
                         ids=lambda x: getattr(x, "name", str(x)))
def test_the_rule_never_closes_a_live_move_on_any_5x5_state(rule, at_least):
    closed = 0
    for state in reachable_states(5):
        if state.at_end():
            continue
        for effect in rule.effects(state):
            closed += 1
            assert not completions_exist(state.after(effect.move)), (state.compact(), effect.move)
    assert closed > at_least  # it does close moves: the check has something to check


#: (rule, boards, rule sets walked, walks per board and rule set, seed, every k-th state, must add to the walked rules)
RANDOM_CASES = [
    *[(Closure(), (n,), ("none", "universal"), 25 if n < 11 else 10, 31, 2, False) for n in (7, 9, 11)],
    (ExactAreas(), (7, 9, 11, 13), ("universal",), 15, 123, 1, True),
    (GatedAreas(), (7, 9, 11), ("universal",), 6, 321, 2, True),
    (SubtourCuts(), (7, 9, 11), ("universal",), 6, 322, 2, True),
    *[(TwoMatching(), (n,), ("universal",), 40, 90, 3, False) for n in (7, 9)],
    *[(CutCondition(), (n,), ("none", "universal"), 20 if n < 11 else 8, 40, 2, False) for n in (7, 9, 11)],
]


@pytest.mark.parametrize(("rule", "sizes", "walked", "walks", "seed", "every", "adds"), RANDOM_CASES,
                         ids=[f"{c[0].name}-{'-'.join(map(str, c[1]))}" for c in RANDOM_CASES])
def test_the_rule_never_closes_a_live_move_on_random_states(rule, sizes, walked, walks, seed, every, adds):
    closed = added = 0
    with get_oracle("auto") as oracle:
        for n in sizes:
            for name in walked:
                rules = get_rule_set(name)
                for i in range(walks):
                    walk = random_walk(n, rules, seed, index=i)
                    for k in range(0, walk.state.steps, every):
                        state = walk.state.prefix(k)
                        moves = {e.move for e in rule.effects(state)}
                        for move in moves:
                            assert oracle.decide(state.after(move)).feasible is False, (state.compact(), move)
                        closed += len(moves)
                        added += len(moves & set(rules.open_moves(state))) if adds else 0
    assert closed > 0
    assert added > 0 or not adds  # exact-areas closes moves the rules walked leave open


def test_the_cut_closes_fatal_moves_strong_plus_plus_leaves_open():
    """The first stuck walks of ``strong++`` (``reports/strong-plus-plus-misses.jsonl``, 19x19 and 21x21): the move
    into the dead state (dead by the oracle when the file was written) is open under ``strong++``, closed with the cut."""
    import json
    import pathlib

    from labyrinth.engine import State
    misses = pathlib.Path(__file__).parents[1] / "reports" / "strong-plus-plus-misses.jsonl"
    rows = [json.loads(line) for line in misses.open()][:3]
    plain, more = get_rule_set("strong++"), get_rule_set("strong++", on=["cut"])
    for row in rows:
        n, moves = row["line"].split(":")
        before = State.from_moves(int(n), moves[:row["first_dead_step"] - 1])
        assert row["move"] in plain.open_moves(before)
        assert row["move"] not in more.open_moves(before)
        assert row["move"] in {e.move for e in CutCondition().effects(before)}


def test_strong_plus_plus_plus_is_strong_plus_plus_with_the_cut_and_decides_as_it_does():
    """The named set is ``strong++ --on cut``: the same rules switched on, the same open moves along a 21x21 walk."""
    from labyrinth.engine import State
    from labyrinth.engine.walker import random_walk

    named, built = get_rule_set("strong+++"), get_rule_set("strong++", on=["cut"])
    assert named.name == "strong+++" and named.sound
    assert [r.name for r in named.active] == [r.name for r in built.active]
    assert "cut" in {r.name for r in named.active} - {r.name for r in get_rule_set("strong++").active}
    line = random_walk(21, named, seed=5).state
    for k in range(0, len(line.moves), 7):
        state = State.from_moves(21, line.moves[:k])
        assert named.open_moves(state) == built.open_moves(state)
