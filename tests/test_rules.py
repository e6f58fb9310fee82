"""Rules from the study's situations: where they fire and where they must not."""

from conftest import CORPUS

from labyrinth.engine import State, load_trace
from labyrinth.rules.base import Rule
from labyrinth.rules.cshape import CShape
from labyrinth.rules.ruleset import RuleSet


def test_cshape_example_from_the_study_forces_the_recorded_move():
    trace = load_trace(CORPUS / "rules" / "C-Shape example.txt")
    rules = RuleSet("c", [CShape()])
    decision = rules.decide(trace.state)
    # the research program allowed only L here: into (2,2), walled by the line at (1,2) and (2,3)
    assert decision.open == "".join(trace.options[-1]) == "L"
    (effect,) = decision.forced
    b = trace.state.board
    assert effect.rule == "c-shape" and effect.cells[0] == b.cell(2, 2)
    assert set(decision.disabled) == {"U", "R"}


def test_cshape_by_the_border_and_not_for_the_end_corner():
    # head (4,5) beside the end corner (5,5): the end is exempt
    state = State.from_moves(5, "DDDDRRR")
    assert CShape().effects(state) == []
    # along the top: the cell (5,1)'s other sides are border (up, right): forced into the corner cell
    top = State.from_moves(5, "RRR")
    (effect,) = CShape().effects(top)
    assert effect.move == "R" and effect.cells == (top.board.cell(5, 1),)


def test_cshape_does_not_fire_on_an_open_board():
    assert CShape().effects(State.from_moves(7, "RRDD")) == []


def test_two_cshapes_leave_nothing_open():
    # head (4,1): (3,1) is walled by the top border and (3,2); (5,1) by the border on two sides
    state = State.from_moves(5, "DDDDRUUURRU")
    effects = CShape().effects(state)
    assert {e.move for e in effects} == {"L", "R"}
    decision = RuleSet("c", [CShape()]).decide(state)
    assert decision.open == "" and set(decision.disabled) == {"L", "R"}


def test_rules_can_be_switched_off_by_name():
    trace = load_trace(CORPUS / "rules" / "C-Shape example.txt")
    assert RuleSet("c", [CShape()], off={"c-shape"}).open_moves(trace.state) == trace.state.open_moves()
    assert isinstance(CShape(), Rule)


# --- the universal rules on the study's situations ------------------------------------------------

import collections  # noqa: E402

import pytest  # noqa: E402
from brute import completions_exist, reachable_states  # noqa: E402

from labyrinth.errors import LabyrinthError  # noqa: E402
from labyrinth.rules import UNIVERSAL, get_rule_set  # noqa: E402
from labyrinth.rules.areas import ColourImbalance, CountArea, NearBorder, OlderLine  # noqa: E402


def test_near_border_example_from_the_study():
    # corpus rules/near border.txt: head (3,4) heading left; the program allowed L and U only.
    # Stepping down to (3,5) seals (4,5) and the end corner off from the cells on the left.
    trace = load_trace(CORPUS / "rules" / "near border.txt")
    decision = get_rule_set("default").decide(trace.state)
    assert sorted(decision.open) == sorted(trace.options[-1]) == ["L", "U"]
    (effect,) = decision.disabled["D"]
    assert effect.rule == "near-border" and effect.cells[0] == trace.state.board.cell(3, 5)


@pytest.mark.parametrize("name", ["2024_0611_7.txt", "2024_0611_8.txt"])
def test_count_area_examples_agree_with_the_research_program(name):
    # the countarea/ examples record the one move the research program allowed
    trace = load_trace(CORPUS / "countarea" / name)
    decision = get_rule_set("default").decide(trace.state)
    assert decision.open == "".join(trace.options[-1])
    from oracle import get_oracle

    oracle = get_oracle("auto")
    for move in decision.disabled:
        assert oracle.decide(trace.state.after(move)).feasible is False


def test_universal_rules_are_quiet_on_an_open_board():
    rules = get_rule_set("universal")
    for moves in ("", "R", "RRDD", "DDDRRR"):
        state = State.from_moves(9, moves)
        assert rules.decide(state).open == state.open_moves()


def _firings(n, rules):
    """Every effect of every universal rule on every reachable state of an n x n board."""
    fired = collections.defaultdict(list)
    for state in reachable_states(n):
        if state.at_end():
            continue
        for rule in rules:
            for e in rule.effects(state):
                fired[rule.name].append((state, e))
    return fired


@pytest.fixture(scope="module")
def firings_5x5():
    return _firings(5, [CShape(), NearBorder(), OlderLine(), CountArea(), ColourImbalance()])


def test_every_universal_rule_fires_on_5x5(firings_5x5):
    # (count-area and colour-imbalance need bigger areas: tested on 7x7 walks and corpus positions)
    assert {"c-shape", "near-border", "older-line"} <= set(firings_5x5)
    assert len(UNIVERSAL) == 5


@pytest.mark.parametrize("rule", ["near-border", "older-line", "count-area", "colour-imbalance"])
def test_area_rules_disable_only_dead_moves_on_every_5x5_state(firings_5x5, rule):
    for state, e in firings_5x5.get(rule, []):
        assert e.kind == "disable"
        assert not completions_exist(state.after(e.move)), (state.compact(), e)


def test_cshape_forces_only_moves_every_completion_takes(firings_5x5):
    for state, e in firings_5x5["c-shape"]:
        for other in state.open_moves():
            if other != e.move:
                assert not completions_exist(state.after(other)), (state.compact(), e)


def test_count_area_fires_on_7x7_walks_and_only_on_dead_moves():
    from labyrinth.engine.walker import random_walk
    from oracle import get_oracle

    oracle = get_oracle("search")
    fired = 0
    none = get_rule_set("none")
    for seed in range(400):
        walk = random_walk(7, none, seed).state
        for k in range(walk.steps):
            state = walk.prefix(k)
            for e in CountArea().effects(state):
                fired += 1
                assert oracle.decide(state.after(e.move)).feasible is False
    assert fired > 0


@pytest.mark.parametrize("name, step", [("2023_0415.txt", 61), ("2023_1006_2.txt", 42), ("2023_1006_2.txt", 46),
                                        ("2023_1119.txt", 32), ("2024_0107.txt", 30)])
def test_colour_imbalance_on_the_researchers_positions(name, step):
    # corpus positions where an enclosed area has the right parity but too many cells of one colour
    from oracle import get_oracle

    state = load_trace(CORPUS / name).state.prefix(step)
    effects = ColourImbalance().effects(state)
    assert effects and not CountArea().effects(state) or all(e.rule == "colour-imbalance" for e in effects)
    oracle = get_oracle("auto")
    for e in effects:
        assert e.kind == "disable" and oracle.decide(state.after(e.move)).feasible is False
    # with the rule switched off, the same move is open (no other rule closes it)
    off = get_rule_set("default", off=["colour-imbalance"])
    assert any(e.move in off.open_moves(state) for e in effects) or len(effects) == 0


def test_compiled_decisions_match_the_explained_ones():
    # the numba walker (Program.open_moves) and RuleSet.decide (per-rule effects) agree
    from labyrinth.engine.walker import random_walk

    for name in ("default", "fast"):
        rules = get_rule_set(name)
        for state in reachable_states(5)[::7]:
            assert rules.program().open_moves(state) == rules.decide(state).open, state.compact()
        none = get_rule_set("none")
        for seed in range(60):
            walk = random_walk(7, none, seed).state
            for k in range(walk.steps + 1):
                state = walk.prefix(k)
                assert rules.program().open_moves(state) == rules.decide(state).open, state.compact()


def test_switching_a_rule_off_and_unknown_names():
    rules = get_rule_set("default", off=["near-border"])
    trace = load_trace(CORPUS / "rules" / "near border.txt")
    assert "D" in rules.open_moves(trace.state)
    with pytest.raises(LabyrinthError, match="no such rule"):
        get_rule_set("default", off=["no-such-rule"])
    with pytest.raises(LabyrinthError, match="unknown rule set"):
        get_rule_set("bogus")
