"""The probe (``strong+``): sound, stronger than the closure alone, never weaker than ``strong``, and certified."""

import random

import pytest

from labyrinth.engine import State
from labyrinth.engine.walker import random_walk
from labyrinth.rules import get_rule_set
from labyrinth.rules.closure import Closure
from labyrinth.rules.probe import HeadProbe
from oracle import get_oracle
from verify.certificates import certificate, check


def _random_states(n, count, seed):
    """States of random lines (uniform among free moves), cut at a random step; each has a free move."""
    rng = random.Random(seed)
    anything = get_rule_set("none")
    out = []
    while len(out) < count:
        final = random_walk(n, anything, rng.randrange(1 << 30)).state
        state = State(final.board, final.path[:rng.randrange(final.steps) + 1])
        if state.open_moves():
            out.append(state)
    return out


@pytest.mark.parametrize(("n", "depth", "cut"), [(7, 1, False), (9, 1, False), (11, 1, False), (7, 3, False),
                                                 (9, 2, False), (11, 3, False), (9, 1, True), (11, 3, True)])
def test_every_move_the_probe_closes_is_dead_by_the_oracle(n, depth, cut):
    states = _random_states(n, 300, seed=n)
    probe = HeadProbe(depth, cut=cut)
    closed = 0
    with get_oracle("sat", time_limit=60) as oracle:
        for state in states:
            for effect in probe.effects(state):
                closed += 1
                assert oracle.decide(state.after(effect.move)).feasible is False, (state.compact(), effect.move)
    assert closed > 50  # it closes moves: the check has something to check


#: a 41x41 walk of `strong` that got stuck (seed 7, walk 567): it entered a dead state whose every next move the
#: closure refutes (bench/strong_misses.py finds such walks)
STUCK_41 = (41, 7, 567)


def test_the_probe_closes_the_move_into_a_dead_state_that_strong_walked_into_with_a_case_certificate():
    n, seed, index = STUCK_41
    strong, plus = get_rule_set("strong"), get_rule_set("strong+")
    walk = random_walk(n, strong, seed, index=index)
    assert walk.outcome == "stuck"
    found = []
    for k in range(walk.state.steps - 1, -1, -1):  # from the end back: the last states are the dead ones
        state = walk.state.prefix(k)
        extra = set(strong.open_moves(state)) - set(plus.open_moves(state))
        if extra:
            found = [(state, move) for move in sorted(extra)]
            break
    assert found, "strong+ closes no move strong left open on the stuck walk"
    state, move = found[0]
    closure = {e.move for e in Closure().effects(state)}
    assert move not in closure  # the closure alone leaves it open: the probe is stronger
    with get_oracle("sat", time_limit=120) as oracle:
        assert oracle.decide(state.after(move)).feasible is False
    cert = certificate(state, move)
    assert cert is not None and check(state.compact(), move, cert).valid
    assert [s["kind"] for s in cert["steps"]][-1] == "degree" and cert["steps"][0]["kind"] == "case"
    # a case dropped is refused: the head then keeps a way on
    assert not check(state.compact(), move, {"steps": cert["steps"][1:]}).valid
    # each case's own steps are minimal: without any one of them the case no longer refutes its supposition
    for i, case in enumerate(cert["steps"][:-1]):
        for j in range(len(case["steps"])):
            fewer = {**case, "steps": case["steps"][:j] + case["steps"][j + 1:]}
            tampered = {"steps": cert["steps"][:i] + [fewer] + cert["steps"][i + 1:]}
            assert not check(state.compact(), move, tampered).valid, (i, j)
    # and strong+ walks the same walk to the end or to a later stuck state, never into this one
    again = random_walk(n, plus, seed, index=index)
    assert again.state.moves[:state.steps + 1] != state.moves + move


def test_strong_plus_is_strong_with_the_probe_and_keeps_every_move_strong_keeps_open():
    plus, strong = get_rule_set("strong+"), get_rule_set("strong")
    assert [r.name for r in plus.active] == [r.name for r in strong.active] + ["probe"]
    assert plus.sound
    for state in _random_states(9, 200, seed=3):
        a, b = set(plus.open_moves(state)), set(strong.open_moves(state))
        assert a <= b


#: a 21x21 walk of `strong+` that got stuck (seed 2026, walk 3809635991591, from reports/strong-plus-misses.jsonl):
#: a move two steps before the end entered a dead state that the probe one level deep does not refute
STUCK_21_PLUS = (21, 2026, 3809635991591)


def test_the_deep_probe_closes_what_strong_plus_walked_into_and_its_nested_cases_certify_it():
    n, seed, index = STUCK_21_PLUS
    plus, deeper = get_rule_set("strong+"), get_rule_set("strong++")
    assert deeper.sound and [r.name for r in deeper.active] == [r.name for r in get_rule_set("strong").active] + [
        "probe:3"]
    walk = random_walk(n, plus, seed, index=index)
    assert walk.outcome == "stuck"
    found = []
    probes = [HeadProbe(k) for k in (1, 2, 3, 4)]
    for k in range(walk.state.steps - 1, -1, -1):
        state = walk.state.prefix(k)
        closed = [{e.move for e in p.effects(state)} for p in probes]
        for shallow, deep in zip(closed, closed[1:]):
            assert shallow <= deep, state.compact()  # looking deeper never closes less
        extra = set(plus.open_moves(state)) - set(deeper.open_moves(state))
        assert extra <= closed[2]  # what strong++ closes beyond strong+ is the deep probe's
        if extra and not found:
            found = [(state, move) for move in sorted(extra)]
    assert found, "strong++ closes no move strong+ left open on its stuck walk"
    state, move = found[0]
    with get_oracle("sat", time_limit=120) as oracle:
        assert oracle.decide(state.after(move)).feasible is False
    cert = certificate(state, move)
    assert cert is not None and check(state.compact(), move, cert).valid
    nested = [s for case in cert["steps"] if case["kind"] == "case" for s in case["steps"] if s["kind"] == "case"]
    assert nested, "the probe one level deep leaves it open: its certificate needs a case within a case"
    assert not check(state.compact(), move, {"steps": cert["steps"][1:]}).valid
    again = random_walk(n, deeper, seed, index=index)
    assert again.state.moves[:state.steps + 1] != state.moves + move


@pytest.mark.parametrize("name", ["probe:1", "probe:5", "probe:x", "probe:", "probe-cut:0", "probe-cut:5", "probe-cut:"])
def test_a_bad_depth_is_a_one_line_error_naming_it(name):
    from labyrinth.errors import LabyrinthError
    with pytest.raises(LabyrinthError) as err:
        get_rule_set("strong", on=[name])
    assert name in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("depth", [1, 3])
def test_the_probe_with_the_cut_closes_every_move_the_probe_closes(depth):
    plain, cut = HeadProbe(depth), HeadProbe(depth, cut=True)
    closed = 0
    for n in (9, 11, 13):
        for state in _random_states(n, 150, seed=100 + n):
            moves = {e.move for e in plain.effects(state)}
            assert moves <= {e.move for e in cut.effects(state)}, (state.compact(), moves)
            closed += len(moves)
    assert closed > 50


def test_the_probe_with_the_cut_completes_a_61x61_walk_that_strong_plus_plus_plus_got_stuck_on():
    """Walk 6 of run 1855 of seed 2027 (reports/strong-probe-cut.md): the walk of ``strong+++`` takes a move
    that ``probe-cut:3`` closes, gets stuck, and the walk with ``probe-cut:3`` goes on to a walkthrough."""
    n, seed, index = 61, 2027, (1855 << 32) + 6
    start = State.from_moves(n, "")
    base, more = get_rule_set("strong+++"), get_rule_set("strong+++", on=["probe-cut:3"])
    stuck, stuck_outcome = base.runner().walk(start, seed, index)
    done, done_outcome = more.runner().walk(start, seed, index)
    assert stuck_outcome == 0 and done_outcome == 1
    walkthrough = State.from_cells(n, [(c % n + 1, c // n + 1) for c in done])  # checks every step
    assert walkthrough.free_count == 0 and walkthrough.at_end()
    k = next(i for i in range(len(stuck)) if stuck[i] != done[i])
    line = State.from_cells(n, [(c % n + 1, c // n + 1) for c in stuck])
    before, move = line.prefix(k - 1), line.moves[k - 1]
    assert move in base.open_moves(before) and move not in more.open_moves(before)
    assert more.open_moves(before) and set(more.open_moves(before)) < set(base.open_moves(before))
