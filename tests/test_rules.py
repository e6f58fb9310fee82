"""Rules from the study's situations: where they fire and where they must not."""

from labyrinth.engine import State, load_trace
from labyrinth.rules.base import Rule, RuleSet
from labyrinth.rules.cshape import CShape

from conftest import CORPUS


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
