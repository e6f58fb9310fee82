"""What ``labyrinth check`` reports for a line: status, first dead step, feasible moves, witness.

Deadness is monotone along a line (a completion of a longer prefix is one of
every shorter prefix), so the first dead step is found by bisection over
prefixes; each alive prefix's witness also clears every later prefix that
follows it, so a line that stays on its witnesses costs one query.
"""

import dataclasses
import time

__all__ = ["StateReport", "analyse", "first_dead_step"]


@dataclasses.dataclass
class StateReport:
    """The answer for one line; ``to_json()`` gives exactly the documented keys."""

    state: str
    n: int
    steps: int
    status: str  # complete | alive | dead | unknown
    first_dead_step: object  # int or None
    feasible_moves: list
    witness: object  # str or None
    seconds: float
    undecided: int = 0  # queries that ran out of time (the report is then incomplete)

    def to_json(self):
        return {
            "state": self.state,
            "n": self.n,
            "steps": self.steps,
            "status": self.status,
            "first_dead_step": self.first_dead_step,
            "feasible_moves": list(self.feasible_moves),
            "witness": self.witness,
            "seconds": round(self.seconds, 6),
        }


def first_dead_step(state, oracle, final=None):
    """Smallest k such that the first k moves of ``state`` leave no completion.

    Returns ``(k, undecided)``: k is None when the line is alive or when a
    timeout left it open (then ``undecided`` > 0).
    """
    final = final or oracle.decide(state)
    if final.feasible is None:
        return None, 1
    if final.feasible:
        return None, 0
    lo, hi = -1, state.steps  # prefix lo known alive (-1: nothing known), prefix hi dead
    undecided = 0
    moves = state.moves
    while hi - lo > 1:
        mid = (lo + hi) // 2
        v = oracle.decide(state.prefix(mid))
        if v.feasible is None:
            undecided += 1
            return None, undecided
        if v.feasible:
            agree = 0
            rest = moves[mid:]
            while agree < len(v.witness) and agree < len(rest) and v.witness[agree] == rest[agree]:
                agree += 1
            lo = mid + agree
        else:
            hi = mid
    return hi, undecided


def analyse(state, oracle):
    """Decide ``state`` and its next moves with ``oracle``; see :class:`StateReport`."""
    t0 = time.perf_counter()
    if state.is_complete():
        return StateReport(state.compact(), state.n, state.steps, "complete", None, [], "",
                           time.perf_counter() - t0)
    final = oracle.decide(state)
    undecided = 0
    feasible_moves = []
    witness = final.witness
    if final.feasible is None:
        status, dead_step, undecided = "unknown", None, 1
    elif final.feasible:
        status, dead_step = "alive", None
        for move in state.open_moves():
            if witness and move == witness[0]:
                feasible_moves.append(move)
                continue
            v = oracle.decide(state.after(move))
            if v.feasible is None:
                undecided += 1
            elif v.feasible:
                feasible_moves.append(move)
    else:
        status = "dead"
        dead_step, undecided = first_dead_step(state, oracle, final)
    return StateReport(state.compact(), state.n, state.steps, status, dead_step, sorted(feasible_moves),
                       witness, time.perf_counter() - t0, undecided)
