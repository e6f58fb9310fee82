"""The future-lines aid: forced pieces of line, the study's 2x2/2x3 pictures, and soundness."""

import pytest
from brute import completions_exist, reachable_states

from labyrinth.engine import State
from labyrinth.engine.walker import enumerate_walks, random_walk
from labyrinth.rules import FutureLines, future_lines, get_rule_set
from oracle import get_oracle


def _edge(state, a, b):
    ca, cb = state.board.cell(*a), state.board.cell(*b)
    return (min(ca, cb), max(ca, cb))


def test_walled_2x2_area_beside_the_head_gets_a_line_along_its_walls():
    # the study: "a 2x2 empty area next to the live end that is walled by three sides
    # will have a future line going through along the walls"
    state = State.from_moves(7, "RRDDDL")  # 2x2 free block x 1..2, y 2..3, open below
    lines = future_lines(state)
    assert lines.dead is None
    line = [(1, 3), (1, 2), (2, 2), (2, 3)]
    assert {_edge(state, a, b) for a, b in zip(line, line[1:])} <= lines.edges


def test_walled_2x3_area_gets_its_corner_edges():
    # "a 2x3 empty area ... walled by three sides (2-3-2 long) will have a future line going
    # through along the walls ... how the middle field will be filled is not yet known"
    state = State.from_moves(7, "DDDRRDD")  # free 2x3 block x 1..2, y 5..7, the head beside it
    lines = future_lines(state)
    assert lines.dead is None
    line = [(2, 6), (2, 5), (1, 5), (1, 6), (1, 7), (2, 7)]
    assert {_edge(state, a, b) for a, b in zip(line, line[1:])} <= lines.edges
    # here the piece's two ends (2,6) and (2,7) touch: joining them would close a loop, so the
    # near end must take the head's next step and the far end leaves by (3,7)
    assert _edge(state, (2, 6), (2, 7)) not in lines.edges
    assert _edge(state, (2, 6), (3, 6)) in lines.edges and _edge(state, (2, 7), (3, 7)) in lines.edges


def test_an_open_board_has_only_the_two_free_corners_lines():
    state = State.from_moves(9, "")
    lines = future_lines(state)
    cell = state.board.cell
    assert lines.dead is None
    assert {frozenset(p) for p in lines.pieces} == {frozenset({cell(8, 1), cell(9, 1), cell(9, 2)}),
                                                   frozenset({cell(1, 8), cell(1, 9), cell(2, 9)})}


def test_forced_edges_are_in_every_witness_along_walks():
    # every forced edge belongs to every completion: the oracle's witness must contain them all
    with get_oracle("auto") as oracle:
        checked = 0
        for seed in range(6):
            walk = random_walk(9, get_rule_set("default"), seed)
            for k in range(0, walk.state.steps, 3):
                state = walk.state.prefix(k)
                verdict = oracle.decide(state)
                lines = future_lines(state)
                if verdict.feasible:
                    path = state.extended(verdict.witness).path
                    used = {(min(a, b), max(a, b)) for a, b in zip(path, path[1:])}
                    assert lines.edges <= used, state.compact()
                    assert lines.dead is None, state.compact()
                    checked += len(lines.edges)
    assert checked > 50


@pytest.fixture(scope="module")
def states_5x5():
    return [s for s in reachable_states(5) if not s.at_end()]


def test_future_lines_refute_only_dead_5x5_states(states_5x5):
    dead = 0
    for state in states_5x5:
        if future_lines(state).dead:
            dead += 1
            assert not completions_exist(state), state.compact()
    assert dead > 100


def test_future_lines_rule_disables_only_dead_moves_on_5x5(states_5x5):
    rule = FutureLines()
    fired = 0
    for state in states_5x5:
        for e in rule.effects(state):
            fired += 1
            assert e.kind == "disable" and e.cells
            assert not completions_exist(state.after(e.move)), (state.compact(), e)
    assert fired > 100


def test_future_lines_alone_walk_5x5_without_getting_stuck():
    # the study's 5x5 method: "whenever it is possible to draw future lines ... I found 104"
    rules = get_rule_set("none")
    from labyrinth.rules import RuleSet

    alone = RuleSet("future", [FutureLines()], on=["future-lines"])
    result = enumerate_walks(State.from_moves(5, ""), alone)
    assert result.walkthroughs == 104
    assert result.stuck < enumerate_walks(State.from_moves(5, ""), rules).stuck


def test_future_lines_are_off_unless_switched_on():
    default = get_rule_set("default")
    assert "future-lines" in default.off and default.compiled()
    on = get_rule_set("default", on=["future-lines"])
    assert "future-lines" not in on.off and on.compiled()  # the walker runs them compiled
    # a state where only future lines see the trouble: switched on, they blame themselves
    state = State.from_moves(5, "RRRRDDLLL")
    assert "future-lines" not in {e.rule for es in default.decide(state).disabled.values() for e in es}
