"""All backends agree with each other on 5 000 seeded states of boards 7 to 15.

The states come from solver-guided walks (alive states at random depths and
their one-wrong-move siblings, which are dead) plus random walks (shallow and
deep, mostly dead). Every decided verdict must agree; an undecided one
(timeout) is allowed but counted, and must stay rare.
"""

import random

import pytest
from conftest import PURE_BACKENDS

from labyrinth.engine import State
from oracle import check_witness, get_oracle
from oracle.guided import guided_states

PLAN = {7: 2000, 9: 1500, 11: 800, 13: 450, 15: 250}  # 5 000 states


def _random_walk_states(n, rng, count):
    out = []
    while len(out) < count:
        state = State.from_moves(n, "")
        stop = rng.randrange(1, n * n)
        while state.steps < stop and state.open_moves():
            state = state.after(rng.choice(state.open_moves()))
        out.append(state)
    return out


def _states(n):
    rng = random.Random(n)
    count = PLAN[n]
    with get_oracle("auto", time_limit=120) as gen:
        guided = guided_states(n, rng.randrange(2**32), gen, count * 3 // 4, per_walk=12)
    return guided + _random_walk_states(n, rng, count - len(guided))


def test_plan_covers_5000_states():
    assert sum(PLAN.values()) == 5000 and min(PLAN) == 7 and max(PLAN) == 15


@pytest.mark.parametrize("n", sorted(PLAN))
def test_backends_agree(n):
    states = _states(n)
    assert len(states) == PLAN[n]
    verdicts = {}
    for name in ["auto"] + PURE_BACKENDS:
        with get_oracle(name, time_limit=10) as oracle:
            verdicts[name] = [oracle.decide(s) for s in states]
    alive = dead = 0
    for i, state in enumerate(states):
        decided = {name: v[i].feasible for name, v in verdicts.items() if v[i].feasible is not None}
        assert len(set(decided.values())) <= 1, (state.compact(), decided)
        assert decided, state.compact()
        for name, v in verdicts.items():
            if v[i].feasible:
                assert check_witness(state, v[i].witness), (name, state.compact())
        alive += True in decided.values()
        dead += False in decided.values()
    # both kinds well represented, and every backend decides nearly everything
    assert alive > len(states) // 5 and dead > len(states) // 5
    for name, v in verdicts.items():
        unknown = sum(x.feasible is None for x in v)
        assert unknown <= len(v) // 50, (name, unknown)
