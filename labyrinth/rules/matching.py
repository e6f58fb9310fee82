"""Two-matching: the line's degrees must fit together (Hall's condition on the whole board), a universal rule.

Every free cell is passed through by the line, so it uses two of its edges
to free neighbours (the end corner one, the head one); a completion is such
an edge set that is also connected. Dropping connectedness leaves a
*perfect 2-matching* (a b-matching with b = the degrees): on the grid, a
bipartite graph (the checkerboard colours), it exists exactly when a flow
from the black cells to the white ones saturates every degree, which is
Hall's condition for every set of cells at once (Ford and Fulkerson 1956;
Schrijver 2003, *Combinatorial Optimization*, ch. 21). The study's
black/white counts are the case "all the cells of an area"; this rule also
catches a checkerboard of cells of one colour whose neighbours of the other
colour are too few to pass through them all, where no area is closed off.

The rule disables a move after which no perfect 2-matching exists. It is
sound (a completion is a perfect 2-matching) and exact for the relaxation.
It reads the whole board, and its work is one augmenting path per move: the
walker keeps a completion of the current state, its *witness*
(:mod:`labyrinth.rules._witness`), and a move changes it in at most two
edges, which one breadth-first search for an alternating path repairs
(Hopcroft and Karp 1973). A state the kernel has no witness for (the first
of a walk, or after a jump in an enumeration) gets a 2-matching built from
scratch; the witness is always checked against the state before it is used.

>>> from labyrinth.engine import State
>>> from labyrinth.rules import get_rule_set
>>> state = State.from_moves(9, "RRDDDRDR")
>>> get_rule_set("universal").open_moves(state)             # the universal rules see nothing wrong
'UDR'
>>> [(e.move, e.cells) for e in TwoMatching().effects(state)]  # but after D no edge set meets every degree
[('D', (49,))]
"""

from numba import njit

from labyrinth.rules import _twomatch, _witness, codes
from labyrinth.rules._moves import asked_moves
from labyrinth.rules._witness import as_path, move_witness
from labyrinth.rules.base import DISABLE, CompiledRule

__all__ = ["BASE", "CERTIFY_CODE", "CODE", "ROWS", "TwoMatching", "as_path", "matching_masks", "move_witness"]

CODE = codes.MATCHING
#: the code of the same rule in a rule set whose rules are all sound: it also certifies live moves
CERTIFY_CODE = codes.MATCHING_CERTIFY
#: the scratch rows of the matching: its 2-matchings, re-routing and the walker's witness
#: (:mod:`labyrinth.rules._twomatch`, :mod:`labyrinth.rules._reroute`, :mod:`labyrinth.rules._repair`)
BASE = _twomatch.BASE
ROWS = _witness.ROWS


@njit(cache=True)
def matching_masks(nb, colour, end, taken, head, free_count, moves, w, trig, ntrig, certify):
    """Which of the moves ``moves`` (bits 0-3) leave no perfect 2-matching; the cell entered is the trigger.

    With ``certify``, bits 8-11 mark the moves the witness proves live (a
    completion after them: a sound rule set need ask no other rule about
    them). A move onto the end corner is left to the other rules.
    """
    out = 0
    asked = asked_moves(nb, end, taken, head, moves)
    if asked == 0:
        return 0
    _witness.sync(nb, colour, end, taken, head, free_count, w)
    for d in range(4):
        if (asked >> d) & 1:
            verdict = _witness.query(nb, colour, end, taken, head, free_count, d, w)
            if verdict == _witness.DEAD:
                out |= 1 << d
                trig[d, 0] = nb[head, d]
                ntrig[d] = 1
            elif verdict == _witness.LIVE and certify:
                out |= 1 << (d + 8)
    return out


class TwoMatching(CompiledRule):
    """Disable a move after which the free cells admit no perfect 2-matching (every degree met)."""

    name = "two-matching"
    code = CODE
    kind = DISABLE
    optional = True
    summary = ("every free cell needs two line edges (the end and the head one): a move after which no "
               "choice of edges meets every degree (Hall's condition, the black/white count generalised) is closed")
