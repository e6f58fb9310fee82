"""Future lines: the path pieces every completion must draw, found by propagating degrees.

The study draws "blue fragments ... a path we have to go through in the
future": a free cell with only two ways in and out (a corner of a walled 2x2
or 2x3 area) must use both, so a piece of line is already known. Pieces
*extend* (a forced edge takes a neighbour's option away, leaving it two) and
*connect* (two pieces whose ends touch). The study ends up keeping them "as a
visible aid" that does not decide moves; here they are both:

* :func:`future_lines` returns the pieces of a state (to draw them) and,
  when the propagation runs into a contradiction, why the state is dead;
* :class:`FutureLines` is an optional rule (off by default; ``--on
  future-lines``) that disables a move whose next state the propagation
  refutes. Every deduction is a necessary condition of a Hamiltonian path,
  so the rule is sound. The walker runs it compiled
  (:mod:`labyrinth.rules._lines`, the same verdicts as this module); it adds
  nothing the default rules miss on 7x7, which is why ``default`` keeps it
  off, as the study does; the ``strong`` set switches it on.

Degree conditions: a free cell other than the end uses two edges, the end
one, the head one (the next step). An edge is an option while both its
cells are free or the head; the edge between the head and the end is an
option only when the end is the last free cell. Propagation, to a fixed point:

1. a cell with fewer options than it needs: dead;
2. a cell with exactly as many options as it needs: they are all forced;
3. a cell with all the forced edges it needs: its other options go;
4. an option joining the two ends of one piece would close a loop, and one
   joining the head's piece to the end's piece leaves cells out: both go.

>>> from labyrinth.engine import State
>>> state = State.from_moves(7, "RRDDDL")      # a 2x2 pocket walled on three sides
>>> lines = future_lines(state)
>>> head_piece = next(p for p in lines.pieces if state.head in p)
>>> [state.board.xy(c) for c in head_piece]      # from the head round the walls and out
[(2, 4), (2, 3), (2, 2), (1, 2), (1, 3), (1, 4), (1, 5)]
"""

import dataclasses

from labyrinth.rules._lines import CODE as _LINES_CODE
from labyrinth.rules.base import DISABLE, CompiledRule

__all__ = ["FutureLines", "Lines", "future_lines"]


@dataclasses.dataclass(frozen=True)
class Lines:
    """The future lines of a state.

    ``edges``: forced cell pairs ``(a, b)`` with ``a < b``; ``pieces``: each
    piece as its cells in order (the head's forced continuation included);
    ``dead``: None, or why no completion exists, with ``cells`` that show it.
    """

    edges: frozenset
    pieces: tuple
    dead: str = None
    cells: tuple = ()


class _Dead(Exception):
    def __init__(self, reason, cells):
        super().__init__(reason)
        self.reason = reason
        self.cells = tuple(cells)


def future_lines(state):
    """The future lines of ``state``: forced pieces of line, or a proof that it is dead.

    Parameters
    ----------
    state : labyrinth.engine.State

    Returns
    -------
    Lines
    """
    board = state.board
    head, end = state.head, board.end
    free = [c for c in range(board.size) if not state.taken[c]]
    if not free:
        return Lines(frozenset(), ())
    nodes = set(free) | {head}
    need = {c: 2 for c in free}
    need[end] = 1
    need[head] = 1
    options = {c: {d for d in board.neighbours_of(c) if d in nodes} for c in nodes}
    if len(free) > 1 and end in options[head]:
        options[head].discard(end)
        options[end].discard(head)
    forced = {c: set() for c in nodes}
    try:
        _propagate(nodes, need, options, forced, head, end)
    except _Dead as dead:
        return Lines(_edge_set(forced), _pieces(forced), dead.reason, dead.cells)
    return Lines(_edge_set(forced), _pieces(forced))


def _propagate(nodes, need, options, forced, head, end):
    changed = True
    while changed:
        changed = False
        for c in nodes:
            if len(options[c]) < need[c]:
                raise _Dead("a cell has too few ways in and out", [c])
            if len(options[c]) == need[c] and len(forced[c]) < need[c]:
                for d in list(options[c]):
                    if d not in forced[c]:
                        _force(c, d, need, forced)
                        changed = True
            if len(forced[c]) == need[c] and len(options[c]) > need[c]:
                for d in list(options[c] - forced[c]):
                    options[c].discard(d)
                    options[d].discard(c)
                changed = True
        changed |= _cut_closing_edges(nodes, options, forced, head, end)


def _force(a, b, need, forced):
    if len(forced[a]) >= need[a] or len(forced[b]) >= need[b]:
        raise _Dead("future lines meet a cell from too many sides", [a, b])
    forced[a].add(b)
    forced[b].add(a)


def _label_pieces(nodes, forced):
    """Piece number of every cell and each piece's size; a piece that is a loop is dead."""
    piece, sizes = {}, []
    for c in nodes:
        if c in piece:
            continue
        k = len(sizes)
        piece[c] = k
        todo, cells, ends = [c], 0, 0
        while todo:
            a = todo.pop()
            cells += 1
            ends += len(forced[a])
            for b in forced[a]:
                if b not in piece:
                    piece[b] = k
                    todo.append(b)
        if ends // 2 >= cells:
            raise _Dead("future lines close a loop", [c])
        sizes.append(cells)
    return piece, sizes


def _cut_closing_edges(nodes, options, forced, head, end):
    """Drop options that would close a piece into a loop or join head to end too early."""
    piece, sizes = _label_pieces(nodes, forced)
    ph, pe = piece[head], piece[end]
    if ph == pe and sizes[ph] < len(nodes):
        raise _Dead("future lines join the head to the end too early", [head, end])
    changed = False
    for a in nodes:
        for b in list(options[a]):
            if b < a or b in forced[a]:
                continue
            pa, pb = piece[a], piece[b]
            early = pa != pb and {pa, pb} == {ph, pe} and sizes[pa] + sizes[pb] < len(nodes)
            if pa == pb or early:
                options[a].discard(b)
                options[b].discard(a)
                changed = True
    return changed


def _edge_set(forced):
    return frozenset((a, b) for a in forced for b in forced[a] if a < b)


def _pieces(forced):
    seen = set()
    out = []
    for c in sorted(forced):
        if c in seen or len(forced[c]) != 1:
            continue
        piece = [c]
        prev, cur = None, c
        while True:
            nxt = [d for d in forced[cur] if d != prev]
            if not nxt:
                break
            prev, cur = cur, nxt[0]
            piece.append(cur)
        seen.update(piece)
        out.append(tuple(piece))
    return tuple(out)


class FutureLines(CompiledRule):
    """Disable a move whose next state's future lines prove it dead (optional, off by default).

    The walker runs the numba form of the propagation
    (:mod:`labyrinth.rules._lines`), which decides every state as
    :func:`future_lines` does.
    """

    name = "future-lines"
    code = _LINES_CODE
    kind = DISABLE
    optional = True
    summary = ("disable a step after which the future lines (forced pieces of line) "
               "meet a contradiction; an optional aid, off by default")

    def __repr__(self):
        return "FutureLines()"
