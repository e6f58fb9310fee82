"""Every backend against brute force, against each other, and the analysis built on them."""

import random

import pytest
from brute import completions_exist, reachable_states
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from labyrinth.engine import State
from oracle import analyse, check_witness, first_dead_step, get_oracle
from oracle.search import prune

#: brute force on 7x7 is only affordable from this many steps on (at most 25 free cells)
BRUTE_7x7_STEPS = 23


@pytest.fixture(scope="module")
def states5():
    return reachable_states(5)


def test_reachable_5x5_states(states5):
    # distinct (taken cells, head) pairs over all lines from the start; 578 have a completion
    assert len(states5) == 56_368
    assert sum(map(completions_exist, states5)) == 578


def test_backend_agrees_with_brute_force_on_every_5x5_state(backend, states5):
    for state in states5:
        verdict = backend.decide(state)
        assert verdict.feasible is completions_exist(state), state
        if verdict.feasible:
            assert check_witness(state, verdict.witness)


def test_backend_on_3x3_every_state(backend):
    for state in reachable_states(3):
        assert backend.decide(state).feasible is completions_exist(state), state


@pytest.mark.parametrize("radius", [0, 1, 2, 3])
def test_pruning_is_sound(states5, radius):
    """A state the pruning calls dead has no completion; a forced move is the only feasible one."""
    for state in states5:
        verdict = prune(state, radius)
        alive = completions_exist(state)
        if verdict == "dead":
            assert not alive, state
        elif verdict is not None and alive:
            feasible = [m for m in state.open_moves() if completions_exist(state.after(m))]
            assert feasible == [verdict], state


def test_pruning_is_sound_on_7x7_sample():
    rng = random.Random(7)
    checked = 0
    for _ in range(3000):
        state = State.from_moves(7, "")
        for _ in range(rng.randrange(BRUTE_7x7_STEPS, 48)):
            moves = state.open_moves()
            if not moves:
                break
            state = state.after(rng.choice(moves))
        if prune(state, 2) == "dead":
            checked += 1
            assert not completions_exist(state), state
    assert checked > 500


def _random_line(n, rng, steps):
    state = State.from_moves(n, "")
    for _ in range(steps):
        moves = state.open_moves()
        if not moves:
            break
        state = state.after(rng.choice(moves))
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.sampled_from([5, 7]), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 48))
def test_first_dead_step_is_the_first_prefix_without_completion(n, seed, steps):
    if n == 7:
        steps = max(steps, BRUTE_7x7_STEPS)
    state = _random_line(n, random.Random(seed), steps)
    with get_oracle("auto") as oracle:
        k, undecided = first_dead_step(state, oracle)
    assert undecided == 0
    # brute force backwards from the line's end: once a prefix is alive, so is every shorter one
    expected = None
    for i in range(state.steps, -1, -1):
        prefix = state.prefix(i)
        if n == 7 and prefix.free_count > 49 - BRUTE_7x7_STEPS and prefix.open_moves():
            assume(False)  # the first dead step lies beyond brute force's reach on 7x7

        if completions_exist(prefix):
            break
        expected = i
    assert k == expected


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([5, 7, 9, 11]), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 80),
       name=st.sampled_from(["auto", "search", "sat", "cpsat"]))
def test_witness_is_a_valid_completion(n, seed, steps, name):
    state = _random_line(n, random.Random(seed), steps)
    with get_oracle(name, time_limit=20) as oracle:
        verdict = oracle.decide(state)
    if verdict.feasible:
        replay = state.extended(verdict.witness)
        assert replay.is_complete() and replay.path[: len(state.path)] == state.path


def test_analyse_reports_feasible_moves_exactly():
    rng = random.Random(3)
    with get_oracle("auto") as oracle:
        for _ in range(200):
            state = _random_line(7, rng, rng.randrange(BRUTE_7x7_STEPS, 40))
            report = analyse(state, oracle)
            truth = sorted(m for m in state.open_moves() if completions_exist(state.after(m)))
            if state.is_complete():
                assert report.status == "complete"
            elif completions_exist(state):
                assert report.status == "alive" and report.feasible_moves == truth
                assert check_witness(state, report.witness)
            else:
                assert report.status == "dead" and report.feasible_moves == [] and report.witness is None


def test_auto_reuses_the_witness_along_its_line():
    with get_oracle("auto") as oracle:
        state = State.from_moves(15, "RRRRDD")
        first = oracle.decide(state)
        assert first.feasible and first.backend == "auto:search"
        along = state.extended(first.witness[:40])
        again = oracle.decide(along)
        assert again.backend == "auto:reuse" and again.witness == first.witness[40:]
        off = state.after(next(m for m in state.open_moves() if m != first.witness[0]))
        assert oracle.decide(off).backend != "auto:reuse"


def test_auto_remembers_decided_positions_by_taken_cells_and_head():
    with get_oracle("auto") as oracle:
        a = State.from_moves(7, "RRDLLDRR")  # same taken cells and head as b, drawn differently
        b = State.from_moves(7, "DDRUURDD")
        assert set(a.path) == set(b.path) and a.head == b.head
        va, vb = oracle.decide(a), oracle.decide(b)
        assert vb.backend == "auto:memo" and va.feasible == vb.feasible


def test_auto_remembers_positions_its_solvers_decided():
    # dead, and beyond the search's 3 000-node budget: settled by SAT or CP-SAT, then remembered
    state = State.from_moves(13, "DDDRURDDRUURRDLDRDDLULLLULDDDDRUURRDLDRRURRRRDR")
    with get_oracle("auto") as oracle:
        first = oracle.decide(state)
        assert first.feasible is False and first.backend in ("auto:sat", "auto:cpsat")
        again = oracle.decide(state)
        assert again.backend == "auto:memo" and again.feasible is False


@pytest.mark.parametrize("name", ["auto", "search", "sat", "cpsat"])
def test_timeout_is_unknown_never_a_guess(name):
    # a dead 13x13 state that the search alone does not settle in 10 s (found by bench runs)
    state = State.from_moves(13, "DDDRURDDRUURRDLDRDDLULLLULDDDDRUURRDLDRRURRRRDR")
    with get_oracle(name) as oracle:
        verdict = oracle.decide(state, time_limit=1e-4)
    assert verdict.feasible is None and verdict.witness is None and verdict.status == "unknown"
