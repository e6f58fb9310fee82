"""Solver-guided random walks: the seeded state sets that tests and benchmarks share.

A guided walk moves uniformly at random among the *feasible* moves (the
perfect walker), so every state on it is alive; each open but infeasible move
beside it gives a dead sibling one wrong move away. These are the hard states:
deep, and dead only for a reason no local rule sees.
"""

import random

from labyrinth.engine import State

__all__ = ["guided_states", "guided_walk"]


def guided_walk(n, seed, oracle):
    """Yield ``(state, siblings)`` along one guided walk; ``siblings`` are the states
    after each open move, with the oracle's verdict on each: ``[(move, state, verdict)]``.
    """
    rng = random.Random(seed)
    state = State.from_moves(n, "")
    while not state.at_end():
        options = []
        for move in state.open_moves():
            nxt = state.after(move)
            options.append((move, nxt, oracle.decide(nxt)))
        yield state, options
        feasible = [o for o in options if o[2].feasible]
        if not feasible:
            return
        state = rng.choice(feasible)[1]


def guided_states(n, seed, oracle, count, siblings=True, per_walk=4):
    """``count`` states from seeded guided walks: alive states along them and dead siblings.

    Each walk contributes ``per_walk`` states at random depths (with their dead
    siblings), so shallow and deep states are both represented.
    """
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        visited = list(guided_walk(n, rng.randrange(2**32), oracle))
        picks = rng.sample(range(len(visited)), min(len(visited), per_walk))
        for i in picks:
            state, options = visited[i]
            out.append(state)
            if siblings:
                out.extend(s for _, s, v in options if v.feasible is False)
    return out[:count]
