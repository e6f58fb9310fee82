"""The CP-SAT backend: its model, witnesses, settings and time limit (brute-force agreement is in test_oracle)."""

import time

import pytest
from brute import completions_exist, reachable_states

from labyrinth.engine import State
from oracle.base import check_witness
from oracle.cpsat import DEFAULT_PARAMS, CpSatOracle, _build


def assert_valid_completion(state, witness):
    """The witness, replayed after the state's moves, covers the board and ends on the end corner."""
    assert isinstance(witness, str) and set(witness) <= set("UDLR")
    assert len(witness) == state.free_count
    full = State.from_moves(state.board, state.moves + witness)
    assert full.is_complete()
    assert sorted(full.path) == list(range(state.board.size))
    assert check_witness(state, witness)


@pytest.fixture(scope="module")
def oracle():
    with CpSatOracle() as o:
        yield o


def test_walled_in_free_cell_is_dead(oracle):
    """A free cell with no free neighbour has no arc at all; it must still count (regression)."""
    state = State.from_moves(5, "DDDDRRRULULUURRRDLD")  # (3,2) and (2,4) are walled in
    b = state.board
    assert all(state.taken[c] for c in b.neighbours_of(b.cell(3, 2)))
    verdict = oracle.decide(state)
    assert verdict.feasible is False and verdict.witness is None
    assert verdict.work["status"] == "INFEASIBLE"


@pytest.mark.parametrize("compact", ["3:", "3:R", "3:RRDL", "5:", "5:RRRRDLLLL", "7:", "7:DR", "9:", "9:RRDD"])
def test_witness_is_a_valid_completion(oracle, compact):
    """(b) witnesses on larger boards too, including a head next to the end corner."""
    n, moves = compact.split(":")
    state = State.from_moves(int(n), moves)
    verdict = oracle.decide(state)
    assert verdict.feasible is True
    assert verdict.backend == "cpsat"
    assert_valid_completion(state, verdict.witness)


def test_head_next_to_end_with_one_free_cell(oracle):
    state = State.from_moves(3, "RRDLLDR")  # only the end corner is free, right of the head
    verdict = oracle.decide(state)
    assert verdict.feasible is True and verdict.witness == "R"


def test_trivial_states_skip_the_solver(oracle):
    done = State.from_moves(3, "RRDLLDRR")
    assert oracle.decide(done).feasible is True
    early = State.from_moves(3, "DDRR")  # on the end corner with cells left
    assert oracle.decide(early).feasible is False


def test_tiny_time_limit_is_unknown_not_a_guess():
    """(c) 1e-3 s on the empty 15x15 board: undecided, no witness."""
    state = State.from_moves(15, "")
    with CpSatOracle(time_limit=1e-3) as o:
        verdict = o.decide(state)
    assert verdict.feasible is None
    assert verdict.witness is None
    assert verdict.status == "unknown"
    assert verdict.work["status"] == "UNKNOWN"
    with CpSatOracle() as o:  # the per-query limit overrides the default one
        assert o.decide(state, time_limit=1e-3).feasible is None


def test_solver_time_limit_is_unknown_not_a_guess(monkeypatch):
    """A deadline that leaves the solver itself a sliver of time (2 ms once the model is built) yields None."""
    import oracle.cpsat as cpsat

    def build_then_wait(state, deadline):
        out = _build(state)
        while time.perf_counter() < deadline - 2e-3:  # however long the build took on this machine
            time.sleep(1e-4)
        return out

    monkeypatch.setattr(cpsat, "_build", build_then_wait)
    state = State.from_moves(15, "")
    with CpSatOracle() as o:
        feasible, witness, work = o._decide(state, time.perf_counter() + 1.0)
    assert feasible is None and witness is None
    assert work["status"] == "UNKNOWN"


def test_work_counters_and_settings(oracle):
    verdict = oracle.decide(State.from_moves(5, "RRD"))
    work = verdict.work
    assert {"branches", "conflicts", "status", "build_seconds", "nodes", "arcs"} <= set(work)
    assert work["status"] in ("OPTIMAL", "FEASIBLE")
    assert work["nodes"] == 22  # head + 21 free cells
    assert isinstance(work["branches"], int) and isinstance(work["conflicts"], int)
    assert work["build_seconds"] >= 0
    assert oracle.name == "cpsat" and oracle.workers == 1
    assert oracle.params == DEFAULT_PARAMS


def test_deterministic_with_one_worker():
    state = State.from_moves(7, "RD")
    with CpSatOracle() as a, CpSatOracle() as b:
        va, vb = a.decide(state), b.decide(state)
    assert va.witness == vb.witness
    assert va.work["branches"] == vb.work["branches"]


def test_more_workers_and_default_lp_agree():
    sample = reachable_states(5)[::500]
    with CpSatOracle(workers=2) as par, CpSatOracle(params={"linearization_level": 1}) as lp:
        for state in sample:
            assert par.decide(state).feasible is completions_exist(state)
            assert lp.decide(state).feasible is completions_exist(state)
