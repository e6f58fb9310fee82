"""Shrinking an over-pruned finding to the shortest walk on the smallest board where the rule still misfires.

A finding from a 21x21 audit is a long walk; the researcher wants the smallest
case that shows the same mistake. In the manner of Hypothesis's shrinker
(MacIver and Donaldson, "Test-Case Reduction via Test-Case Generation",
ECOOP 2020), a candidate is a walk (board size, moves) plus the closed move,
and small named passes propose smaller candidates; a candidate is kept when
the *same rule* still closes the move there while the oracle finds a
completion through it, and when every step of its walk was open under the
rule set (so our walker can really reach it). The passes run, in order, until
a whole round makes no progress. "Smaller" is the order (board size, number of
moves, moves as text), so every accepted step strictly decreases and the
shrink terminates.

Passes:

* ``smaller_board``: replay the walk on the board two sizes down;
* ``delete_chunks``: remove a run of k consecutive moves (k = 8, 4, 2, 1);
* ``shortcut``: where the line later passes next to an earlier cell, go
  there directly and drop the loop in between;
* ``straighten``: replace a pair of moves by the same pair swapped (a corner
  taken the other way), which often unlocks further deletions.
"""

import dataclasses
import time

from labyrinth.engine import State
from labyrinth.errors import LabyrinthError

__all__ = ["ShrinkError", "Shrunk", "shrink_over_pruned"]


class ShrinkError(LabyrinthError):
    """The finding to shrink is not an over-pruned move of that rule."""


@dataclasses.dataclass
class Shrunk:
    """The smallest case found: ``state`` (compact) where ``rule`` closes the feasible ``move``."""

    state: str
    move: str
    rule: str
    witness: str
    original: str
    passes: dict  # pass name -> accepted steps
    tried: int
    seconds: float
    fixed_point: bool = True  # False when the time limit stopped the passes early (smaller cases may exist)

    def to_json(self):
        return dataclasses.asdict(self)


class _Shrinker:
    def __init__(self, rules, rule, move, oracle, deadline):
        self.rules, self.rule, self.move, self.oracle = rules, rule, move, oracle
        self.deadline = deadline
        self.tried = 0
        self.cache = {}

    def holds(self, n, moves):
        """Does ``rule`` close the feasible ``self.move`` after ``moves`` on an n x n board, reachably?"""
        key = (n, moves)
        if key in self.cache:
            return self.cache[key]
        self.cache[key] = False
        self.tried += 1
        try:
            state = State.from_moves(n, moves)
        except LabyrinthError:
            return False  # off the board or across the line
        if self.move not in state.open_moves():
            return False
        effects = self.rules.decide(state).disabled.get(self.move, ())
        if not any(e.rule == self.rule for e in effects):
            return False
        walk = State.from_moves(n, "")
        for m in moves:  # the walker must be able to take every step
            if m not in self.rules.open_moves(walk):
                return False
            walk = walk.after(m)
        verdict = self.oracle.decide(state.after(self.move))
        if verdict.feasible is None:
            return False  # undecided is not a counterexample
        self.cache[key] = bool(verdict.feasible)
        return self.cache[key]

    def out_of_time(self):
        return self.deadline is not None and time.perf_counter() > self.deadline


def _smaller_board(n, moves):
    if n - 2 >= 3:
        yield n - 2, moves


def _delete_chunks(n, moves):
    for k in (8, 4, 2, 1):
        for i in range(len(moves) - k, -1, -1):
            yield n, moves[:i] + moves[i + k:]


_DELTA = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}


def _shortcut(n, moves):
    cells = [(0, 0)]
    for m in moves:
        dx, dy = _DELTA[m]
        cells.append((cells[-1][0] + dx, cells[-1][1] + dy))
    for j in range(len(cells) - 1, 1, -1):
        for i in range(j - 2):
            dx, dy = cells[j][0] - cells[i][0], cells[j][1] - cells[i][1]
            if abs(dx) + abs(dy) == 1:
                step = next(m for m, d in _DELTA.items() if d == (dx, dy))
                yield n, moves[:i] + step + moves[j:]


def _straighten(n, moves):
    for i in range(len(moves) - 1):
        a, b = moves[i], moves[i + 1]
        if a != b:
            yield n, moves[:i] + b + a + moves[i + 2:]


PASSES = (("smaller_board", _smaller_board), ("delete_chunks", _delete_chunks), ("shortcut", _shortcut),
          ("straighten", _straighten))


def _size(n, moves):
    return n, len(moves), moves


def shrink_over_pruned(state, move, rules, oracle, *, rule=None, time_limit=60.0):
    """Shrink the over-pruned ``move`` at ``state`` under ``rules``: a :class:`Shrunk`.

    Parameters
    ----------
    state : labyrinth.engine.State
        Where ``rules`` closed ``move`` though a completion goes through it.
    rule : str, optional
        The rule whose misfire to keep (default: the first rule that closed
        the move at ``state``).
    time_limit : float or None
        Seconds for the whole shrink; past it the smallest case so far is
        returned (it is still a valid counterexample).
    """
    t0 = time.perf_counter()
    if not rules.explains:
        raise ShrinkError("the rule set has no rules to blame (the oracle rule set cannot over-prune)",
                          token=rules.name)
    effects = rules.decide(state).disabled.get(move, ())
    if rule is None:
        if not effects:
            raise ShrinkError(f"no rule closes {move} here", source=state.compact())
        rule = effects[0].rule
    shrinker = _Shrinker(rules, rule, move, oracle, None if time_limit is None else t0 + time_limit)
    n, moves = state.n, state.moves
    if not shrinker.holds(n, moves):
        raise ShrinkError(f"{rule} does not close a feasible {move} here (or the walker cannot reach it)",
                          source=state.compact())
    accepted = {name: 0 for name, _ in PASSES}
    progress = True
    while progress and not shrinker.out_of_time():
        progress = False
        for name, candidates in PASSES:
            changed = True
            while changed and not shrinker.out_of_time():
                changed = False
                for cn, cm in candidates(n, moves):
                    if _size(cn, cm) < _size(n, moves) and shrinker.holds(cn, cm):
                        n, moves = cn, cm
                        accepted[name] += 1
                        changed = progress = True
                        break
                    if shrinker.out_of_time():
                        break
    small = State.from_moves(n, moves)
    verdict = oracle.decide(small.after(move), time_limit=None)  # known feasible (cached): its witness is quick
    return Shrunk(small.compact(), move, rule, move + verdict.witness, state.compact(), accepted, shrinker.tried,
                  time.perf_counter() - t0, fixed_point=not shrinker.out_of_time())
