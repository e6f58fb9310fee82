"""The subtour relaxation (labyrinth.rules.subtour): sound, checked exactly, and it sees what the other rules miss."""

import dataclasses
import fractions
import pathlib

import numpy as np
import pytest
from brute import completions_exist, reachable_states

from labyrinth.engine import State
from labyrinth.rules import get_rule_set
from labyrinth.rules.gates import GatedAreas
from labyrinth.rules.subtour import SubtourCuts, check, refutation_of

DATA = pathlib.Path(__file__).with_name("data")


def _taken(state):
    return np.array(state.taken, dtype=np.uint8)


def test_every_5x5_state_the_relaxation_refutes_has_no_completion_and_it_refutes_nearly_every_dead_one():
    """Each reachable 5x5 state is the state after some move: brute force decides it, and each refutation checks."""
    refuted = dead = 0
    for state in reachable_states(5):
        if state.at_end() or not state.free_count:
            continue
        found = refutation_of(state)
        live = completions_exist(state)
        dead += not live
        if found is not None:
            assert not live, state.compact()
            assert check(state.board, _taken(state), state.head, found), state.compact()
            refuted += 1
    assert dead > 1000 and refuted > 0.9 * dead  # it is strong as well as sound: the check has something to check


def _dead_61():
    """The 61x61 state before the first dead step of a stuck walk of ``strong++++ --on probe-cut:3``, and the move."""
    text = [line for line in (DATA / "subtour-61x61-dead.txt").read_text().splitlines() if not line.startswith("#")]
    n, moves = text[0].split(":")
    return State.from_moves(int(n), moves), "R"


def test_the_relaxation_closes_the_fatal_move_of_a_61x61_walk_the_gates_and_the_probe_left_open():
    """reports/strong-gates-probe-cut-misses.md: no optional argument closes this move, CP-SAT within the gates'
    budget does not refute the state after it; the relaxation does, with a few regions, and the refutation checks."""
    before, move = _dead_61()
    d = "UDLR".index(move)
    assert move in get_rule_set("strong").open_moves(before)
    assert not GatedAreas().move_dead(before.board, _taken(before), before.head, d)
    rule = SubtourCuts()
    found = rule.refute_move(before.board, _taken(before), before.head, d)
    assert found is not None
    after = before.after(move)
    assert check(after.board, _taken(after), after.head, found)
    assert 1 <= len(found.regions) <= 20 and all(len(region) < after.free_count / 4 for region, _ in found.regions)
    assert "subtour cuts of" in found.describe(after.n)
    # the rule's effects name the move and only it (the other moves are live)
    assert [e.move for e in rule.effects(before)] == [move]


def test_the_check_refuses_a_refutation_that_is_altered():
    """The check is the proof: a refutation with a region's number negated, a region with the head or the end
    corner, its equations' numbers dropped or one swamped, or the state changed under it is refused."""
    before, move = _dead_61()
    after = before.after(move)
    found = refutation_of(after)
    board, taken, head = after.board, _taken(after), after.head
    assert check(board, taken, head, found)
    region, z = found.regions[0]
    negated = dataclasses.replace(found, regions=((region, -z),) + found.regions[1:])
    assert not check(board, taken, head, negated)
    with_head = dataclasses.replace(found, regions=((region | {head}, z),) + found.regions[1:])
    assert not check(board, taken, head, with_head)
    with_end = dataclasses.replace(found, regions=((region | {board.end}, z),) + found.regions[1:])
    assert not check(board, taken, head, with_end)
    assert not check(board, taken, head, dataclasses.replace(found, cells={}))
    # the numbers are a direction: scaled they still refute, and one more cell's equation does not go unnoticed
    halved = {c: y / 2 for c, y in found.cells.items()}
    assert check(board, taken, head, dataclasses.replace(found, cells=halved,
                                                         regions=tuple((r, z / 2) for r, z in found.regions)))
    tipped = dict(found.cells)
    tipped[head] = tipped.get(head, fractions.Fraction(0)) + 10 ** 6
    assert not check(board, taken, head, dataclasses.replace(found, cells=tipped))
    # the same numbers do not refute the state before the fatal move (it has a completion)
    assert not check(before.board, _taken(before), before.head, found)


@pytest.mark.parametrize(("n", "moves"), [(5, "RRRRDLLLLDRRRR"), (7, "RDLDRDLD"), (7, "DDDDDDRUUUUU")])
def test_a_state_with_a_completion_gets_no_refutation(n, moves):
    state = State.from_moves(n, moves)
    assert completions_exist(state)
    assert refutation_of(state) is None


def test_the_rule_switched_on_pauses_the_compiled_walker_and_the_walk_checks():
    rules = get_rule_set("strong+++", on=["subtour"])
    assert rules.sound and "subtour" in {r.name for r in rules.active}
    path, outcome = rules.runner().walk(State.from_moves(9, ""), 7, 3)
    line = State.from_cells(9, [(c % 9 + 1, c // 9 + 1) for c in path])  # checks every step
    assert outcome == 1 and line.free_count == 0 and line.at_end()


def test_the_move_gets_a_certificate_the_standalone_checker_accepts_in_words_and_exact_numbers():
    """``labyrinth explain --certify`` and ``labyrinth certify``: one ``weights`` step, its numbers written as
    integers or ``p/q`` (a float is refused), its words naming the regions."""
    from verify.certificates import certificate, sentences
    from verify.certificates import check as check_certificate

    before, move = _dead_61()
    text = before.compact()
    cert = certificate(text, move)
    assert [s["kind"] for s in cert["steps"]] == ["weights"]
    assert check_certificate(text, move, cert).valid
    words = sentences(text, move, cert)
    assert len(words) == 1 and "regions" in words[0] and words[0].endswith("dead")
    step = cert["steps"][0]
    cell, number = step["numbers"][0]
    as_float = float(fractions.Fraction(number))
    floated = {**step, "numbers": [[cell, as_float]] + step["numbers"][1:]}
    verdict = check_certificate(text, move, {"steps": [floated]})
    assert not verdict.valid and "integer" in verdict.reason


def test_a_state_with_more_free_cells_than_the_rule_takes_gets_no_verdict(monkeypatch):
    """Past MAX_FREE free cells the relaxation is not asked (its live states would cost tens of seconds): None,
    never a guess, even where a refutation exists."""
    from labyrinth.rules import subtour

    state = State.from_moves(101, "RRDDLL")  # (1,2) and (2,2): a pocket the head can enter and not leave
    assert state.free_count > subtour.MAX_FREE
    assert refutation_of(state) is None
    monkeypatch.setattr(subtour, "MAX_FREE", state.free_count)
    found = refutation_of(state)
    assert found is not None and check(state.board, _taken(state), state.head, found)
