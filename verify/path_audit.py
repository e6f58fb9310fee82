"""Audit a heuristic walk on any puzzle: where does the first fatal move happen, and was there a way out?

A walk under a rule of choice (Warnsdorff's, say) either completes or gets
stuck. A stuck walk from a start that has a completion made a *first fatal
move*: the move after which no completion exists, found by bisection over the
walk's prefixes (deadness is monotone along a path). The audit names it, the
moves that were still feasible there (with a witness through one of them),
and, when the start itself has no completion, says so instead of blaming the
heuristic. The finding is a ``missed-dead`` one, as in the labyrinth's audits:
the rule left open a move into a dead state.
"""

import dataclasses
import time

from labyrinth.core.walk import walk
from oracle.analysis import dead_step_bounds
from verify.audit import MISSED_DEAD, Finding

__all__ = ["COMPLETE", "NO_PATH", "STUCK", "UNKNOWN", "StartAudit", "audit_start"]

#: outcomes of :func:`audit_start`
COMPLETE, STUCK, NO_PATH, UNKNOWN = "complete", "stuck", "no path", "unknown"


@dataclasses.dataclass
class StartAudit:
    """The audit of one walk from one start.

    Attributes
    ----------
    start : tuple
        The first cell, 1-based ``(x, y)``.
    outcome : str
        ``complete``; ``stuck`` (a completion existed from the start);
        ``no path`` (none exists from this start: not the heuristic's fault);
        ``unknown`` (the oracle ran out of time).
    walk : str
        The walk in path notation.
    steps : int
        Moves the walk made.
    first_fatal_step : int, str or None
        k when the state after k moves is the first without completion
        (``"unknown"`` when a time limit cut the bisection short).
    fatal_move : str or None
        The k-th move.
    feasible_moves : tuple
        The moves that still had a completion where the fatal move was made.
    witness : str or None
        A completion from that state through the first of ``feasible_moves``.
    """

    start: tuple
    outcome: str
    walk: str
    steps: int
    first_fatal_step: object = None
    fatal_move: object = None
    feasible_moves: tuple = ()
    witness: object = None
    seconds: float = 0.0

    def to_json(self):
        out = dataclasses.asdict(self)
        out["start"] = list(self.start)
        out["feasible_moves"] = list(self.feasible_moves)
        out["seconds"] = round(self.seconds, 6)
        return out

    def finding(self, rule_name):
        """The ``missed-dead`` :class:`~verify.audit.Finding` of a stuck walk (None otherwise)."""
        if self.outcome != STUCK or not isinstance(self.first_fatal_step, int):
            return None
        from labyrinth.core.path import parse_path

        before = parse_path(self.walk).prefix(self.first_fatal_step - 1)
        return Finding(MISSED_DEAD, before.compact(), self.fatal_move, (rule_name,), (), self.witness,
                       stuck_step=self.steps, unit="start %d,%d" % self.start)


def audit_start(state, rule, oracle, *, seed=0):
    """Walk from ``state`` under ``rule`` and audit the walk with ``oracle`` (see :class:`StartAudit`).

    >>> from labyrinth.core import PathState
    >>> from labyrinth.core.walk import Warnsdorff
    >>> from labyrinth.puzzles.numbers import numbers_puzzle
    >>> from oracle import get_oracle
    >>> a = audit_start(PathState(numbers_puzzle(5), (0,)), Warnsdorff(), get_oracle("search"))
    >>> a.outcome, a.first_fatal_step
    ('complete', None)
    """
    t0 = time.perf_counter()
    w = walk(state, rule, seed=seed)
    final = w.state
    start = final.board.xy(final.path[0])
    audit = StartAudit(start, COMPLETE, final.compact(), final.steps)
    if w.outcome == "complete":
        audit.seconds = time.perf_counter() - t0
        return audit
    root = oracle.decide(final.prefix(state.steps))
    if root.feasible is None:
        audit.outcome = UNKNOWN
    elif not root.feasible:
        audit.outcome = NO_PATH if state.steps == 0 else STUCK
        audit.first_fatal_step = None if state.steps == 0 else "unknown"
    else:
        audit.outcome = STUCK
        lo, hi, undecided = dead_step_bounds(final, oracle)
        if undecided or hi is None:
            audit.first_fatal_step = "unknown"
        else:
            audit.first_fatal_step = hi
            moves = final.board.split(final.moves)
            audit.fatal_move = moves[hi - 1]
            before = final.prefix(hi - 1)
            feasible = []
            for move in before.open_moves():
                if move == audit.fatal_move:
                    continue
                v = oracle.decide(before.after(move))
                if v.feasible:
                    feasible.append(move)
                    if audit.witness is None:
                        sep = final.board.separator
                        audit.witness = move + (sep + v.witness if v.witness else "")
            audit.feasible_moves = tuple(feasible)
    audit.seconds = time.perf_counter() - t0
    return audit
