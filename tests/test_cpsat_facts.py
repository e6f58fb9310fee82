"""The CP-SAT facts engine (the minimal patterns' second engine) against brute force, and patterns made with it."""

import functools
import random

import pytest
from brute import completions_exist, reachable_states

import verify.minimize as minimize
from labyrinth.engine import Board
from oracle import cpsat_facts
from oracle.sat import SatOracle
from oracle.sat_encode import REQUIRED, TAKEN
from verify import minimal_pattern, verify_pattern
from verify.minimize import matches


def _brute(board, head, end, status, never_last=()):
    """Is there a simple path from ``head`` avoiding taken cells, covering required ones, ending at ``end``
    (or, with ``end`` None, anywhere but ``never_last``)?"""
    nbrs = [board.neighbours_of(c) for c in range(board.size)]
    req = sum(1 << c for c, k in status.items() if k == REQUIRED and c != head)
    tak = sum(1 << c for c, k in status.items() if k == TAKEN and c != head)

    @functools.lru_cache(maxsize=None)
    def go(mask, c):
        if (c == end if end is not None else c not in never_last) and mask & req == req:
            return True
        if c == end:
            return False
        return any(go(mask | 1 << d, d) for d in nbrs[c] if not (mask | tak) >> d & 1)

    return go(1 << head, head)


def _valid(board, head, end, status, path, never_last=()):
    on = set(path)
    return (path[0] == head and len(on) == len(path)
            and all(board.move_between(a, b) for a, b in zip(path, path[1:]))
            and all((c in on) == (k == REQUIRED) for c, k in status.items() if c != head)
            and (path[-1] == end if end is not None else path[-1] not in never_last))


@pytest.mark.parametrize("with_end", [True, False], ids=["end", "anywhere"])
def test_facts_queries_match_brute_force_and_cores_are_infeasible_alone(with_end):
    board, rng = Board(5), random.Random(7 + with_end)
    verdicts = {True: 0, False: 0}
    for _ in range(120):
        head = rng.randrange(board.size)
        end = rng.choice([board.end, rng.randrange(board.size)]) if with_end else None
        never_last = () if with_end else tuple(rng.sample(range(board.size), 3))
        p = rng.random()
        status = {c: k for c in range(board.size)
                  if (k := rng.choices([TAKEN, REQUIRED, None], [p, (1 - p) / 2, (1 - p) / 2])[0])}
        truth = _brute(board, head, end, status, never_last)
        for core in (True, False):
            feasible, found, path = cpsat_facts.decide_facts(5, head, end, status, never_last=never_last,
                                                             core=core)
            assert feasible is truth, (head, end, status)
            if feasible:
                assert found is None and _valid(board, head, end, status, path, never_last)
                continue
            alone = dict(found.facts)
            assert set(found.facts) <= {(c, k) for c, k in status.items() if c != head}
            if not core:
                assert alone == {c: k for c, k in status.items() if c != head}
            # the core's facts alone (and the end only if the core keeps it) are infeasible
            assert not _brute(board, head, end if found.last else None, alone, never_last if not found.last
                              else ())
        verdicts[truth] += 1
    assert verdicts[True] > 10 and verdicts[False] > 10


def test_it_agrees_with_the_sat_engine_on_dead_5x5_states():
    from verify.minimize import _Domain, state_facts

    rng = random.Random(3)
    dead = [s for s in reachable_states(5) if not s.at_end() and s.steps > 3 and not completions_exist(s)]
    with SatOracle() as sat:
        for state in rng.sample(dead, 25):
            n = state.n
            dom = _Domain(n + 4, 2, 2)
            facts = {dom.cell(*xy): (REQUIRED if k == "visit" else TAKEN) for xy, k in state_facts(state).items()}
            head = dom.cell(state.head % n, state.head // n)
            for end in (dom.cell(n - 1, n - 1), None):
                mine = cpsat_facts.decide_facts(n + 4, head, end, facts)[0]
                theirs = sat.decide_facts(n + 4, head, end, facts)[0]
                assert mine is theirs, state.compact()


def test_patterns_found_by_cpsat_alone_are_sound_and_minimal(monkeypatch):
    dead = [s for s in reachable_states(5) if not s.at_end() and s.steps > 3 and not completions_exist(s)]
    monkeypatch.setattr(minimize, "SAT_CONFLICTS", 0)  # every query goes past the SAT budget
    found = [(s, minimal_pattern(s, verify=False)) for s in dead[::max(1, len(dead) // 12)]]
    monkeypatch.undo()
    with SatOracle() as fresh:
        for state, p in found:
            assert matches(p, state), state.compact()
            assert verify_pattern(p, fresh) == (True, True), state.compact()
