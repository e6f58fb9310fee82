"""Closure: future lines, two-matching exchanges and connectedness, propagated together to a fixed point.

Three sound arguments about the completions of a state, each feeding the others:

* the future lines (:mod:`labyrinth.rules._lines`): degree propagation,
  forced pieces of line, no loops, no early join of the head and the end;
* the two-matching (:mod:`labyrinth.rules.matching`) on what the lines
  leave: a perfect 2-matching of the remaining options exists, and an option
  that lies in *no* perfect 2-matching is dropped, one that lies in *every*
  one is forced. Both are read off the strongly connected components of
  the matching's residual graph (an unmatched option lies in some perfect
  matching exactly when an alternating cycle runs through it: Régin 1994's
  filtering for matching constraints, here with capacities two);
* connectedness: every free cell must still be reachable from the head over
  the options left.

Each argument only ever removes options that no completion uses, or forces
edges that every completion uses, so the closure is sound; where they
disagree with each other (a cell left without options, a loop, no matching,
cells cut off) the state has no completion. This is the argument behind the
study's checkerboard patterns: cells of one colour whose neighbours of the
other colour are just enough to pass through them all, so none of those
neighbours can also lead the line out to the rest of the board.

The rule ``closure`` disables a move whose next state the closure refutes.
It reads the whole board; its work per move is bounded by a fixed number of
rounds, each one propagation, one matching repair, one component search and
one flood (linear in the board).

>>> from labyrinth.engine import State
>>> from labyrinth.rules import get_rule_set
>>> from labyrinth.rules.future import FutureLines
>>> from labyrinth.rules.matching import TwoMatching
>>> state = State.from_moves(9, "DRURDDLLDDDDDDRRRRRRUUUUULD")
>>> get_rule_set("universal").open_moves(state)
'DL'
>>> [e.move for rule in (FutureLines(), TwoMatching()) for e in rule.effects(state)]   # each alone: nothing
[]
>>> [e.move for e in Closure().effects(state)]                                          # together: L is dead
['L']
"""

from numba import njit

from labyrinth.rules import _lines, _twomatch, _witness, codes
from labyrinth.rules._lines import CTRL, FRC, NEED, OPT, POP
from labyrinth.rules._moves import asked_moves
from labyrinth.rules._repair import CTRL as _WITNESS_CTRL
from labyrinth.rules._repair import KDIR, KVER, MATE, MODE, PATH, VER
from labyrinth.rules.base import DISABLE, CompiledRule
from labyrinth.rules.matching import ROWS as _MATCHING_ROWS

__all__ = ["BASE", "CODE", "Closure", "ROWS", "closure_after_move", "closure_dead", "closure_masks", "closure_rounds",
           "completion_kept", "flood", "seed_matching", "seeded_rounds"]

CODE = codes.CLOSURE
#: first scratch row of the closure (after the two-matching's rows)
BASE = _MATCHING_ROWS
CM, PREV, QUEUE, SEEN, IDX, LOW, COMP, TSTACK, CSTACK, CITER = range(BASE, BASE + 10)
#: the scratch rows the closure uses (BASE .. ROWS - 1)
ROWS = BASE + 10
#: rounds of the three arguments before the closure gives up looking for more (it never guesses: no verdict)
MAX_ROUNDS = 30

#: the column of the CTRL row that holds the flood stamp (columns 0-5 are the propagation's)
STAMP = 6



@njit(cache=True, inline="always")
def _stamp(w):
    """A fresh mark for the ``SEEN`` row (cleared when the counter gets large)."""
    return _twomatch.fresh_mark(w, SEEN, CTRL, STAMP)


@njit(cache=True, inline="always")
def _spare(w, c):
    """How many more edges cell ``c`` needs beyond its forced ones."""
    return w[NEED, c] - POP[w[FRC, c]]


@njit(cache=True, inline="always")
def _free_options(w, c):
    """The options of ``c`` that are not forced: the edges the matching chooses among."""
    return w[OPT, c] & ~w[FRC, c]


@njit(cache=True)
def _augment(nb, w, src):
    """Give ``src`` one more matched option along an alternating path to another cell short of one.

    The search is :func:`labyrinth.rules._twomatch.alternating_path` over the
    closure's options (the state's arguments are not read there: ``w[SEEN]`` stands for ``taken``).
    """
    seen = w[SEEN]
    b = _twomatch.alternating_path(nb, -1, seen, -1, 0, w[CM], src, seen, w[PREV], w[QUEUE], _stamp(w), w, True)
    if b < 0:
        return False
    _twomatch.flip(nb, w, w[CM], w[PREV], b, False)
    return True


@njit(cache=True)
def _match(nb, colour, w):
    """Make ``w[CM]`` a perfect 2-matching of the free options (forced edges counted); False if none exists.

    Keeps what it can of the previous round's matching: options since
    dropped or forced leave it, cells over their need shed edges, then
    augmenting paths fill every cell that is short.
    """
    size = w.shape[1]
    m = w[CM]
    for c in range(size):
        m[c] &= _free_options(w, c)
    for c in range(size):
        for d in range(4):
            if POP[m[c]] <= _spare(w, c):
                break
            if (m[c] >> d) & 1:
                x = nb[c, d]
                m[c] &= ~(1 << d)
                m[x] &= ~(1 << (d ^ 1))
    for c in range(size):
        if colour[c] != 1:
            continue
        avail = _free_options(w, c) & ~m[c]
        for d in range(4):
            if POP[m[c]] >= _spare(w, c):
                break
            if (avail >> d) & 1:
                x = nb[c, d]
                if POP[m[x]] < _spare(w, x):
                    m[c] |= 1 << d
                    m[x] |= 1 << (d ^ 1)
    for c in range(size):
        if colour[c] != 1:
            continue
        while POP[m[c]] < _spare(w, c):
            if not _augment(nb, w, c):
                return False
    for c in range(size):
        if POP[m[c]] != _spare(w, c):
            return False
    return True


@njit(cache=True, inline="always")
def _arcs(colour, w, c):
    """The residual arcs out of ``c`` as a direction mask: unmatched options from black, matched ones from white."""
    if colour[c] == 1:
        return _free_options(w, c) & ~w[CM, c]
    return w[CM, c]


@njit(cache=True)
def _components(nb, colour, w):
    """Strongly connected components of the residual graph into ``w[COMP]`` (Tarjan 1972, iteratively)."""
    size = w.shape[1]
    idx = w[IDX]
    low = w[LOW]
    comp = w[COMP]
    for c in range(size):
        idx[c] = -1
        comp[c] = -1
    counter = 0
    ncomp = 0
    tsp = 0
    for root in range(size):
        if idx[root] >= 0 or _spare(w, root) <= 0:
            continue
        csp = 0
        w[CSTACK, 0] = root
        w[CITER, 0] = 0
        idx[root] = counter
        low[root] = counter
        counter += 1
        w[TSTACK, tsp] = root
        tsp += 1
        while csp >= 0:
            v = w[CSTACK, csp]
            arcs = _arcs(colour, w, v)
            d = w[CITER, csp]
            descended = False
            while d < 4:
                if (arcs >> d) & 1:
                    x = nb[v, d]
                    if idx[x] < 0:
                        w[CITER, csp] = d + 1
                        csp += 1
                        w[CSTACK, csp] = x
                        w[CITER, csp] = 0
                        idx[x] = counter
                        low[x] = counter
                        counter += 1
                        w[TSTACK, tsp] = x
                        tsp += 1
                        descended = True
                        break
                    if comp[x] < 0 and idx[x] < low[v]:
                        low[v] = idx[x]
                d += 1
            if descended:
                continue
            if low[v] == idx[v]:
                while True:
                    tsp -= 1
                    x = w[TSTACK, tsp]
                    comp[x] = ncomp
                    if x == v:
                        break
                ncomp += 1
            csp -= 1
            if csp >= 0:
                u = w[CSTACK, csp]
                if low[v] < low[u]:
                    low[u] = low[v]


@njit(cache=True)
def _filter(nb, colour, w, cells):
    """Drop the options in no perfect 2-matching, force those in every one; -1 if nothing changed,
    else 0 or how many ``cells`` show a contradiction (from forcing)."""
    size = w.shape[1]
    comp = w[COMP]
    changed = False
    for b in range(size):
        if colour[b] != 1 or _spare(w, b) <= 0:
            continue
        free = _free_options(w, b)
        for d in range(4):
            if not (free >> d) & 1:
                continue
            x = nb[b, d]
            if comp[b] == comp[x]:
                continue
            changed = True
            if (w[CM, b] >> d) & 1:
                w[CM, b] &= ~(1 << d)
                w[CM, x] &= ~(1 << (d ^ 1))
                k = _lines.force(nb, w, b, d, cells)
                if k:
                    return k
            else:
                _lines.remove(nb, w, b, d)
    return 0 if changed else -1


@njit(cache=True)
def flood(nb, w, head):
    """The cells the head reaches over the options ``w[OPT]``, breadth first: ``(how many, mark)``.

    Each cell reached holds the fresh ``mark`` in ``w[SEEN]``; ``w[QUEUE]``
    lists them in the order reached (the head first, then a cell's
    neighbours in direction order). The closure's connectedness test, and the
    cut rule's searches (:mod:`labyrinth.rules.cut`).
    """
    stamp = _stamp(w)
    seen = w[SEEN]
    queue = w[QUEUE]
    queue[0] = head
    seen[head] = stamp
    qt = 1
    qh = 0
    while qh < qt:
        a = queue[qh]
        qh += 1
        o = w[OPT, a]
        for d in range(4):
            if (o >> d) & 1:
                b = nb[a, d]
                if seen[b] != stamp:
                    seen[b] = stamp
                    queue[qt] = b
                    qt += 1
    return qt, stamp


@njit(cache=True)
def _connected(nb, w, head):
    """True if every cell still to visit is reachable from the head over the options left."""
    size = w.shape[1]
    stamp = flood(nb, w, head)[1]
    seen = w[SEEN]
    for c in range(size):
        if w[NEED, c] > 0 and seen[c] != stamp:
            return False
    return True


@njit(cache=True)
def seed_matching(nb, w, mate):
    """Start the closure's matching from ``mate`` (a 2-matching as direction masks): its free options only,
    its one-sided edges dropped.

    Which perfect 2-matching the closure starts from changes nothing it
    deduces (an option lies in some, or in every, perfect 2-matching whichever
    one is at hand); a near-perfect one spares most of the augmenting paths
    that fill a matching from scratch on a big board, and its fixed point
    patches into a line much like ``mate`` (:func:`completion_kept`).
    """
    size = w.shape[1]
    m = w[CM]
    for c in range(size):
        m[c] = mate[c] & _free_options(w, c)
    for c in range(size):
        for d in range(4):
            if (m[c] >> d) & 1 and not (m[nb[c, d]] >> (d ^ 1)) & 1:
                m[c] &= ~(1 << d)


@njit(cache=True)
def _rounds(nb, colour, w, start, cells):
    """The closure's rounds from the matching in ``w[CM]`` (:func:`closure_rounds`)."""
    for _ in range(MAX_ROUNDS):
        if not _connected(nb, w, start):
            cells[0] = start
            return 1
        if not _match(nb, colour, w):
            cells[0] = start
            return 1
        _components(nb, colour, w)
        k = _filter(nb, colour, w, cells)
        if k < 0:
            return 0
        if k:
            return k
        k = _lines.propagate(nb, w, cells)
        if k:
            return k
    return 0


@njit(cache=True)
def seeded_rounds(nb, colour, w, start, cells, mate):
    """:func:`closure_rounds` with the matching started from ``mate`` (:func:`seed_matching`)."""
    seed_matching(nb, w, mate)
    return _rounds(nb, colour, w, start, cells)


@njit(cache=True)
def closure_rounds(nb, colour, w, start, cells):
    """The matching, its filtering and connectedness, with the propagation, to a fixed point (or the round
    limit) from the future lines in the work rows; 0, or how many ``cells`` show a contradiction."""
    size = w.shape[1]
    for c in range(size):
        w[CM, c] = 0
    return _rounds(nb, colour, w, start, cells)


@njit(cache=True)
def closure_after_move(nb, colour, w, head, d, cells):
    """From the state's fixed point in the work rows, the future lines after the move ``d``
    (:func:`labyrinth.rules._lines.after_move`), then the closure; 0, or how many ``cells`` refute the move."""
    k = _lines.after_move(nb, w, head, d, cells)
    if k == 0:
        # the walker's line, after the move, is nearly a perfect 2-matching; a witness left a 2-matching with
        # cycles is not used: its cycles would pass into the closure's matching, whose patching into a line
        # is how the walker gets a line back (completion_kept)
        if w[_WITNESS_CTRL, MODE] == PATH:
            seed_matching(nb, w, w[MATE])
        else:
            for c in range(w.shape[1]):
                w[CM, c] = 0
        k = _rounds(nb, colour, w, head, cells)
    return k


@njit(cache=True)
def closure_dead(nb, colour, end, taken, head, free_left, w, cells):
    """How many cells show that the closure refutes the state (0: it does not); the cells go to ``cells``.

    ``taken`` marks the line (the head included), ``free_left`` counts the
    free cells; ``w`` is the scratch block (rows up to :data:`ROWS` - 1).
    """
    if free_left == 0:
        return 0
    k = _lines.lines_dead(nb, end, taken, head, free_left, w, cells)
    if k:
        return k
    return closure_rounds(nb, colour, w, head, cells)


@njit(cache=True)
def _completion(nb, end, taken, head, free_left, step, w):
    """Patch the closure's fixed point (forced edges plus its 2-matching) into a line in ``BUF``; True if one.

    ``step`` is the direction of a move whose edge the closure forced (the
    line then starts at the cell it enters), or -1 (the line starts at the head).
    """
    m = w[_witness.BUF]
    size = taken.shape[0]
    for c in range(size):
        m[c] = w[FRC, c] | w[CM, c]
    start = head
    left = free_left
    if step >= 0:
        start = nb[head, step]
        m[head] = 0
        m[start] &= ~(1 << (step ^ 1))
        left -= 1
        taken[start] = 1
    ok = _witness.as_path(nb, end, taken, start, left, m, w) and _witness.is_line(nb, end, taken, start, left, m, w)
    if step >= 0:
        taken[start] = 0
    return ok


@njit(cache=True)
def closure_masks(nb, colour, end, taken, head, free_count, moves, w, trig, ntrig):
    """Which of the moves ``moves`` (bits 0-3) the closure refutes; the cells that show it go to ``trig[d]``.

    The future lines of the state are found once; each move starts from them
    with its step forced (:func:`labyrinth.rules._lines.after_move`: the same
    fixed point as the state after the move). A move onto the end corner
    with cells left is refuted outright (the line cannot go on from the end;
    the end corner is its trigger), so the closure does not lean on the area
    rules for it. Bits 8-11 mark the moves it leaves whose fixed point
    patches into a completion (proven live).
    """
    out = 0
    early = free_count > 1 and taken[end] == 0  # the end corner entered with cells left
    for d in range(4):
        if early and (moves >> d) & 1 and nb[head, d] == end:
            out |= 1 << d
            trig[d, 0] = end
            ntrig[d] = 1
    asked = asked_moves(nb, end, taken, head, moves)
    for d in range(4):
        if (asked >> d) & 1 and _witness.query_reroute(nb, end, taken, head, free_count, d, w) == _witness.LIVE:
            asked &= ~(1 << d)
            out |= 1 << (d + 8)  # the walker's witness mends round the cell entered: live, no closure needed
    asked, refuted = _lines.start_moves(nb, end, taken, head, free_count, asked, w, trig, ntrig)
    out |= refuted
    first = True
    for d in range(4):
        if not (asked >> d) & 1:
            continue
        if not first:
            _lines.restore(w)
        first = False
        k = closure_after_move(nb, colour, w, head, d, trig[d])
        if k:
            out |= 1 << d
            ntrig[d] = k
        elif completion_kept(nb, end, taken, head, free_count, d, w):
            out |= 1 << (d + 8)
    return out


@njit(cache=True)
def completion_kept(nb, end, taken, head, free_left, step, w):
    """:func:`_completion` after the move ``step``, the line kept: if the walker takes that move, the witness installs it.

    The line stays in ``BUF``, the move and the witness's version in its
    control row (:data:`labyrinth.rules._repair.KDIR`, ``KVER``), for
    :func:`labyrinth.rules._witness.sync`, which checks it whole before use.
    """
    if not _completion(nb, end, taken, head, free_left, step, w):
        return False
    w[_WITNESS_CTRL, KDIR] = step
    w[_WITNESS_CTRL, KVER] = w[_WITNESS_CTRL, VER]
    return True


class Closure(CompiledRule):
    """Disable a move after which future lines, two-matching exchanges and connectedness together refute the state."""

    name = "closure"
    code = CODE
    kind = DISABLE
    optional = True
    summary = ("future lines, the options no perfect 2-matching uses and the cells the rest cut off, "
               "propagated together: a move after which they meet a contradiction is closed")
