"""Walkthrough numbers: rank and unrank in keep-left order, and uniform sampling, by counting.

The research program enumerates walks in *keep-left order* (at every
branching, left before straight before right relative to the heading, down
at the start: :func:`labyrinth.engine.frame.keep_left_order`), and names a
position by the number of walkthroughs (complete corner-to-corner paths) it
had completed on reaching it: ``9_19717655``. With exact completion counts
(:mod:`oracle.count`) that number is a sum instead of an enumeration:

* the *rank* of a line (complete or a prefix) is, summed over its steps, the
  completions of every sibling move that comes earlier in keep-left order
  than the move taken: the walkthroughs strictly before the first one that
  extends the line (for a complete path, its 0-based walkthrough number);
* *unrank* descends from the start, at each branching skipping whole
  subtrees while the number left is at least their count;
* a *uniform sample* unranks a uniformly drawn number below the total, so
  every Hamiltonian corner path is equally likely.

This is the classical ranking of combinatorial objects in lexicographic
order through the sizes of their subtrees (Kreher and Stinson,
"Combinatorial Algorithms: Generation, Enumeration, and Search", 1999, ch. 2).

>>> from labyrinth.engine import State
>>> first = walkthrough_unrank(5, 0)
>>> first.compact(), walkthrough_rank(first)
('5:RRRRDDDLLLURRULLLDDDRRRR', 0)
>>> walkthrough_rank(walkthrough_unrank(5, 103))
103
>>> walkthrough_rank(State.from_moves(5, "D"))   # every walk starting R comes first
52
"""

import numbers
import random

from labyrinth.engine import Board, State
from labyrinth.engine.frame import heading, keep_left_order
from labyrinth.errors import LabyrinthError
from oracle.base import OracleBug
from oracle.count import CompletionCounter

__all__ = ["sample_walkthrough", "walkthrough_rank", "walkthrough_unrank"]


def _ordered_moves(state):
    """The open moves of ``state`` in keep-left order."""
    open_ = state.open_moves()
    return [m for m in keep_left_order(heading(state)) if m in open_]


def walkthrough_rank(state, counter=None):
    """The walkthroughs that come before ``state`` in keep-left order.

    Parameters
    ----------
    state : State
        A line from the start: a complete path or any prefix (alive or dead).
    counter : CompletionCounter, optional
        A shared cache of completion counts.

    Returns
    -------
    int
        The number of complete walkthroughs strictly before the first
        walkthrough extending ``state`` (the walkthrough number a keep-left
        enumeration shows on reaching it).
    """
    counter = counter if counter is not None else CompletionCounter()
    node = State(state.board)
    rank = 0
    for move in state.moves:
        for earlier in _ordered_moves(node):
            if earlier == move:
                break
            rank += counter(node.after(earlier))
        node = node.after(move)
    return rank


def walkthrough_unrank(n, number, counter=None):
    """The walkthrough with exactly ``number`` walkthroughs before it in keep-left order.

    Parameters
    ----------
    n : int
        The board size (odd, >= 3).
    number : int
        The 0-based walkthrough number, below the board's count of paths.
    counter : CompletionCounter, optional
        A shared cache of completion counts.

    Returns
    -------
    State
        A complete state; :class:`LabyrinthError` if ``number`` is out of range.
    """
    counter = counter if counter is not None else CompletionCounter()
    node = State(Board(n))
    total = counter(node)
    if isinstance(number, bool) or not isinstance(number, numbers.Integral) or not 0 <= number < total:
        raise LabyrinthError(f"a {n}x{n} board has walkthroughs 0 .. {total - 1}", token=str(number))
    left = int(number)
    below = total  # walkthroughs below ``node``; ``left`` of them come before the one wanted
    while not node.is_complete():
        moves = _ordered_moves(node)
        for i, move in enumerate(moves):
            child = node.after(move)
            size = below if i == len(moves) - 1 else counter(child)
            if left < size:
                node, below = child, size
                break
            left -= size
            below -= size
        else:
            raise OracleBug(f"unrank: the counts below {node.compact()} do not add up")
    return node


def sample_walkthrough(n, seed, counter=None):
    """A uniformly random walkthrough of the n x n board and its walkthrough number.

    Every Hamiltonian corner path is equally likely: the number is drawn
    uniformly (``random.Random(seed).randrange``, exact on big integers)
    below the count of paths and unranked.

    Returns
    -------
    tuple of (int, State)
        The walkthrough number and the complete state.

    >>> number, state = sample_walkthrough(5, seed=1)
    >>> state.is_complete(), walkthrough_rank(state) == number
    (True, True)
    """
    counter = counter if counter is not None else CompletionCounter()
    total = counter(State(Board(n)))
    number = random.Random(seed).randrange(total)
    return number, walkthrough_unrank(n, number, counter)
