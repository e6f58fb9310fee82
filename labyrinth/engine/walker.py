"""Walks of the line under a rule set: seeded random walks and keep-left enumeration.

A *rule set* here is anything with ``open_moves(state) -> str``: the letters
of the moves it leaves open (a subset of ``state.open_moves()``). A walk is
*stuck* when no move is open before the line is complete.

Keep-left order is the research program's exhaustive order: at every
branching, left before straight before right relative to the current heading
(the last move; down at the start). Walkthrough numbers in the corpus, such as
``9_19717655``, count completed walkthroughs in this order.
"""

import dataclasses
import random
import time

from labyrinth.engine.state import State

__all__ = ["Enumeration", "Walk", "enumerate_walks", "heading", "keep_left_order", "random_walk"]

_LEFT = {"D": "R", "U": "L", "R": "U", "L": "D"}
_RIGHT = {"D": "L", "U": "R", "R": "D", "L": "U"}


def heading(state):
    """The direction of the last move; down (``D``) at the start."""
    return state.moves[-1:] or "D"


def keep_left_order(direction):
    """Moves in keep-left order for a heading: left, straight, right.

    >>> keep_left_order("D"), keep_left_order("R")
    ('RDL', 'URD')
    """
    return _LEFT[direction] + direction + _RIGHT[direction]


@dataclasses.dataclass(frozen=True)
class Walk:
    """One random walk: the final state, ``complete`` or ``stuck``, and the stuck step."""

    state: State
    outcome: str
    stuck_step: object = None


def random_walk(n, rules, seed, start=None):
    """Walk from ``start`` (the empty line by default), uniformly among the open moves."""
    rng = random.Random(seed)
    state = start if start is not None else State.from_moves(n, "")
    while not state.is_complete():
        moves = rules.open_moves(state)
        if not moves:
            return Walk(state, "stuck", state.steps)
        state = state.after(rng.choice(moves))
    return Walk(state, "complete")


@dataclasses.dataclass(frozen=True)
class Enumeration:
    """Counts of a keep-left enumeration: completed walkthroughs, stuck leaves, search nodes."""

    walkthroughs: int
    stuck: int
    nodes: int
    seconds: float
    first_stuck: object = None  # the first stuck state met, in keep-left order


def enumerate_walks(start, rules, progress=None):
    """Enumerate every walk below ``start`` (a :class:`State`) in keep-left order.

    ``nodes`` counts the states visited, ``start`` included; ``progress``, if
    given, is called with the walkthrough count each time it grows.
    """
    t0 = time.perf_counter()
    walkthroughs = stuck = nodes = 0
    first_stuck = None
    stack = [start]
    while stack:
        state = stack.pop()
        nodes += 1
        if state.is_complete():
            walkthroughs += 1
            if progress is not None:
                progress(walkthroughs)
            continue
        allowed = rules.open_moves(state)
        if not allowed:
            stuck += 1
            if first_stuck is None:
                first_stuck = state
            continue
        ordered = [m for m in keep_left_order(heading(state)) if m in allowed]
        # push in reverse so that the leftmost move is explored first
        stack.extend(state.after(m) for m in reversed(ordered))
    return Enumeration(walkthroughs, stuck, nodes, time.perf_counter() - t0, first_stuck)
