"""What ``labyrinth check`` reports for a line: status, first dead step, feasible moves, witness.

Deadness is monotone along a line (a completion of a longer prefix is one of
every shorter prefix), so the first dead step is found by bisection over
prefixes; each alive prefix's witness also clears every later prefix that
follows it, so a line that stays on its witnesses costs one query.
"""

import dataclasses
import time

__all__ = ["StateReport", "analyse", "dead_step_bounds", "first_dead_step"]


@dataclasses.dataclass
class StateReport:
    """The answer for one line; ``to_json()`` gives exactly the documented keys.

    A report is partial when a query ran out of time: ``undecided_moves``
    lists the open moves whose verdict is unknown (all of them when the state
    itself is unknown), and a dead line whose bisection was cut short has
    ``first_dead_step`` "unknown" with ``first_dead_between`` the interval
    known to hold it. ``feasible_moves`` are only the moves proven feasible.
    """

    state: str
    n: int
    steps: int
    status: str  # complete | alive | dead | unknown
    first_dead_step: object  # int, None (alive, complete) or "unknown"
    feasible_moves: list
    witness: object  # str or None
    seconds: float
    undecided: int = 0  # queries that ran out of time (the report is then incomplete)
    undecided_moves: list = dataclasses.field(default_factory=list)
    first_dead_between: object = None  # (lo, hi) when first_dead_step is "unknown"

    @property
    def partial(self):
        """True when some query ran out of time, so part of the answer is unknown."""
        return self.undecided > 0 or self.status == "unknown"

    def to_json(self):
        return {
            "state": self.state,
            "n": self.n,
            "steps": self.steps,
            "status": self.status,
            "first_dead_step": self.first_dead_step,
            "first_dead_between": None if self.first_dead_between is None else list(self.first_dead_between),
            "feasible_moves": list(self.feasible_moves),
            "undecided_moves": list(self.undecided_moves),
            "partial": self.partial,
            "witness": self.witness,
            "seconds": round(self.seconds, 6),
        }


def first_dead_step(state, oracle, final=None):
    """Smallest k such that the first k moves of ``state`` leave no completion.

    Returns ``(k, undecided)``: k is None when the line is alive or when a
    timeout left it open (then ``undecided`` > 0).
    """
    lo, hi, undecided = dead_step_bounds(state, oracle, final)
    if undecided or hi is None:
        return None, undecided
    return hi, 0


def dead_step_bounds(state, oracle, final=None):
    """Bisect a path's prefixes with ``oracle``: ``(lo, hi, undecided)``, prefix ``lo`` alive (-1: none known),
    prefix ``hi`` dead (None: the whole path is alive); ``final`` is the verdict on ``state`` if already known.

    Stops at the first query that runs out of time (``undecided`` = 1); the
    first dead step then lies in ``lo + 1 .. hi``.
    """
    final = final or oracle.decide(state)
    if final.feasible is None:
        return -1, state.steps, 1
    if final.feasible:
        return state.steps, None, 0
    lo, hi = -1, state.steps
    split = state.board.split
    moves = split(state.moves)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        v = oracle.decide(state.prefix(mid))
        if v.feasible is None:
            return lo, hi, 1
        if v.feasible:
            agree = 0
            rest = moves[mid:]
            witness = split(v.witness)
            while agree < len(witness) and agree < len(rest) and witness[agree] == rest[agree]:
                agree += 1
            lo = mid + agree
        else:
            hi = mid
    return lo, hi, 0


def analyse(state, oracle):
    """Decide ``state`` and its next moves with ``oracle``; see :class:`StateReport`."""
    t0 = time.perf_counter()
    if state.is_complete():
        return StateReport(state.compact(), state.n, state.steps, "complete", None, [], "",
                           time.perf_counter() - t0)
    final = oracle.decide(state)
    undecided = 0
    feasible_moves, undecided_moves, between = [], [], None
    witness = final.witness
    if final.feasible is None:
        status, dead_step, undecided = "unknown", "unknown", 1
        undecided_moves = list(state.open_moves())
    elif final.feasible:
        status, dead_step = "alive", None
        first = state.board.split(witness)[:1]
        for move in state.open_moves():
            if first and move == first[0]:
                feasible_moves.append(move)
                continue
            v = oracle.decide(state.after(move))
            if v.feasible is None:
                undecided += 1
                undecided_moves.append(move)
            elif v.feasible:
                feasible_moves.append(move)
    else:
        status = "dead"
        lo, hi, undecided = dead_step_bounds(state, oracle, final)
        dead_step = hi
        if undecided:
            dead_step, between = "unknown", (lo + 1, hi)
    return StateReport(state.compact(), state.n, state.steps, status, dead_step, sorted(feasible_moves),
                       witness, time.perf_counter() - t0, undecided, sorted(undecided_moves), between)
