"""Walks on any puzzle under a move rule, and Warnsdorff's rule.

A *rule* is anything with ``open_moves(state) -> tuple of move names`` (a subset
of ``state.open_moves()``, the same protocol as the labyrinth's rule sets); a walk
picks uniformly among the open moves with a seeded generator and is *stuck*
when none is open before the path is complete.

Warnsdorff's rule (H. C. von Warnsdorf, *Des Rösselsprunges einfachste und
allgemeinste Lösung*, 1823) moves to the cell with the fewest onward moves.
Roth's tie-break (Arnd Roth, *The problem of the knight: a fast and simple
algorithm*, Wolfram Library Archive, 2000; studied with other tie-breaks by
S. Ganzfried, *A simple algorithm for knight's tours*, Oregon State REU, 2004)
takes, among tied moves, the one farthest from the board's centre.
"""

import dataclasses
import random
import weakref

__all__ = ["ORDERS", "PathWalk", "Warnsdorff", "walk"]

#: Named tie-break orders of :class:`Warnsdorff` (besides an explicit list of move names).
ORDERS = ("clockwise", "anticlockwise", "random", "roth")


@dataclasses.dataclass(frozen=True)
class PathWalk:
    """One walk: the final state and ``complete`` or ``stuck`` (``stuck_step``: its number of moves)."""

    state: object
    outcome: str
    stuck_step: object = None


def walk(state, rule, *, seed=0):
    """Walk from ``state`` under ``rule`` until complete or stuck (seeded: the same seed, the same walk).

    >>> from labyrinth.core import PathState
    >>> from labyrinth.puzzles.numbers import numbers_puzzle
    >>> w = walk(PathState(numbers_puzzle(5), (0,)), Warnsdorff())
    >>> w.outcome, w.state.steps
    ('complete', 24)
    """
    rng = random.Random(seed)
    while not state.is_complete():
        moves = rule.open_moves(state)
        if not moves:
            return PathWalk(state, "stuck", state.steps)
        state = state.after(moves[0] if len(moves) == 1 else rng.choice(moves))
    return PathWalk(state, "complete")


class Warnsdorff:
    """Warnsdorff's rule: leave open only the moves to a cell with the fewest onward moves.

    Parameters
    ----------
    order : str or sequence of str
        How ties are broken: ``"clockwise"`` (the first tied move in the board's
        move order, clockwise from north), ``"anticlockwise"``, an explicit
        sequence of move names (the first tied move in it), ``"random"``
        (every tied move stays open and the walk's seeded generator picks), or
        ``"roth"`` (the tied move whose cell is farthest from the board's centre,
        Euclidean; remaining ties clockwise).

    A rule of choice, not of pruning: it claims nothing about the moves it
    closes, so an audit looks for the first move after which no completion
    exists (the *first fatal move*), not for closed moves that were feasible.
    """

    claims_dead_only = False

    def __init__(self, order="clockwise"):
        if isinstance(order, str) and order not in ORDERS:
            order = [m.strip() for m in order.split(",")]
        self.order = order
        self.name = "warnsdorff" + ("" if order == "clockwise" else
                                    f"[{order if isinstance(order, str) else ','.join(order)}]")

    def ranked(self, state):
        """Open moves with their onward-move counts, ``[(onward, move), ...]`` in the board's move order."""
        board = state.board
        adjacent = _adjacency(board)
        taken = state.taken.tobytes()
        out = []
        for move in state.open_moves():
            w = board.targets[move][state.head]
            onward = sum(1 for c in adjacent[w] if not taken[c])
            out.append((onward, move))
        return out

    def open_moves(self, state):
        ranked = self.ranked(state)
        if not ranked:
            return ()
        best = min(k for k, _ in ranked)
        tied = [m for k, m in ranked if k == best]
        if self.order == "random" or len(tied) == 1:
            return tuple(tied)
        if self.order == "clockwise":
            return (tied[0],)
        if self.order == "anticlockwise":
            return (tied[-1],)
        if self.order == "roth":
            return (max(tied, key=lambda m: _off_centre(state.board, state.board.targets[m][state.head])),)
        for m in self.order:
            if m in tied:
                return (m,)
        return (tied[0],)

    def check(self, board):
        """Raise ``ValueError`` naming a move of an explicit order that ``board`` does not have, or a missing one."""
        if isinstance(self.order, str):
            return
        unknown = [m for m in self.order if m not in board.names]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not a move (the moves are {', '.join(board.names)})")
        missing = [m for m in board.names if m not in self.order]
        if missing:
            raise ValueError(f"the order leaves out {', '.join(missing)} (list every move once)")
        if len(set(self.order)) != len(self.order):
            raise ValueError("the order names a move twice")


_ADJACENCY = weakref.WeakKeyDictionary()


def _adjacency(board):
    """Each cell's neighbours as a tuple of Python ints (cached per graph: a walk asks at every step)."""
    adjacent = _ADJACENCY.get(board)
    if adjacent is None:
        adjacent = _ADJACENCY[board] = tuple(tuple(int(c) for c in row if c >= 0) for row in board.neighbours)
    return adjacent


def _off_centre(board, cell):
    """The squared distance of ``cell`` from the board's centre, times 4 (an integer, for exact ties)."""
    x, y = board.xy(cell)
    return (2 * x - board.width - 1) ** 2 + (2 * y - board.height - 1) ** 2
