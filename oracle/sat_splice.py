"""Splicing a SAT model's subtours into its path: a witness without another SAT call.

Used by :mod:`oracle.sat` when a model has subtours: when every subtour can be
joined to the path by two-edge exchanges, the joined path is a witness for the
same assumptions.

The exchange: let ``a-b`` be an edge of one group (the path, or a cycle) and
``d-c`` an edge of another cycle, with ``a, d`` and ``b, c`` one move apart.
Dropping both edges and adding ``a-d`` and ``b-c`` joins the two: the cycle,
opened at ``d-c``, is run from ``d`` to ``c`` between ``a`` and ``b``. The
path keeps its head and its last cell, every cell keeps being visited once,
and every edge used is a move, so the result is again a path from the head to
the model's last cell (or one cycle, joining two cycles). This holds on any
move graph whose moves can be run backwards (every leaper's): on the
labyrinth's grid the four cells are a unit square, found directly from the
board's move columns.
"""

from labyrinth.engine.board import Board
from oracle.base import BuildExpired, expired

__all__ = ["splice_subtours"]


def splice_subtours(board, decoded, required=None, deadline=None):
    """Splice a model's subtours into its path by two-edge exchanges; the cell list or None.

    Where an edge of the path (or of a merged group) and an edge of another
    subtour are opposite sides of a 4-cycle of the graph (a unit square on
    the grid), swapping them for the two other sides joins the two into one
    path (or one cycle); direction along a subtour does not matter, as every
    move can be run backwards (graphs where one cannot are never spliced). The result runs from
    the head to the model's last cell through the model's visited cells,
    so it is a witness whenever the model's assumptions hold.

    Parameters
    ----------
    board : MoveGraph
        The graph of the encoding the model came from.
    decoded : Decoded
        A decoded model with exactly one head.
    required : set of int, optional
        The cells a witness must visit (facts queries with optional cells):
        subtours avoiding them are dropped rather than spliced. By default
        every visited cell is kept.
    deadline : float or None
        A ``time.perf_counter()`` value; past it (looked at every 4096 edges)
        :class:`~oracle.base.BuildExpired` is raised.

    Returns
    -------
    tuple of int or None
        The merged path, or None if some kept subtour could not be spliced in.
    """
    if len(decoded.heads) != 1 or len(decoded.path) != len(set(decoded.path)):
        return None
    cycles = decoded.cycles
    if required is not None:
        cycles = tuple(g for g in cycles if not g.isdisjoint(required))
    if not cycles:
        on_path = set(decoded.path)
        if required is None:
            return decoded.path if on_path == decoded.visited else None
        return decoded.path if on_path >= set(required) else None
    grid = isinstance(board, Board)
    if not grid and not _reversible(board):
        return None
    kept = set(decoded.path).union(*cycles)
    nb = board.neighbours
    moves = None if grid else {c: [int(x) for x in nb[c] if x >= 0] for c in kept}
    adj = {c: set() for c in kept}
    for a, d in decoded.succ.items():
        if a in kept:
            adj[a].add(d)
            adj[d].add(a)
    comp = {c: 0 for c in decoded.path}
    for i, group in enumerate(cycles, 1):
        for c in group:
            comp[c] = i
    parent = list(range(len(cycles) + 1))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def exchange(a, b, d, c):
        adj[a].discard(b), adj[b].discard(a)
        adj[d].discard(c), adj[c].discard(d)
        adj[a].add(d), adj[d].add(a)
        adj[b].add(c), adj[c].add(b)

    def splice_grid(a, b):
        # the two unit squares having {a, b} as a side: shift both ends sideways
        # (Board's move columns: 0, 1 = U, D for a horizontal edge; 2, 3 = L, R for a vertical one)
        for side in ((0, 1) if abs(a - b) == 1 else (2, 3)):
            d, c = int(nb[a, side]), int(nb[b, side])
            if d < 0 or c < 0 or c not in adj.get(d, ()):
                continue
            ga, gd = find(comp[a]), find(comp[d])
            if ga == gd:
                continue
            exchange(a, b, d, c)
            parent[gd] = ga
            return True
        return False

    def splice_any(a, b):
        # a kept neighbour d of a in another group, and a partner c of d there one move from b
        ga = find(comp[a])
        near_b = moves[b]
        for d in moves[a]:
            if d not in adj or find(comp[d]) == ga:
                continue
            for c in adj[d]:
                if c in near_b:
                    exchange(a, b, d, c)
                    parent[find(comp[d])] = ga
                    return True
        return False

    splice = splice_grid if grid else splice_any

    groups = len(parent)
    progress = True
    looked = 0
    while groups > 1 and progress:
        progress = False
        for a in list(adj):
            looked += 1
            if not looked & 4095 and expired(deadline):
                raise BuildExpired
            for b in list(adj[a]):
                if a < b and b in adj[a] and splice(a, b):
                    groups -= 1
                    progress = True
    if groups > 1:
        return None
    path, prev, c = [decoded.heads[0]], None, decoded.heads[0]
    while True:
        nxt = [x for x in adj[c] if x != prev]
        if not nxt:
            break
        prev, c = c, nxt[0]
        path.append(c)
    return tuple(path) if len(path) == len(adj) else None


def _reversible(graph):
    """True when every move of ``graph`` can be run backwards (its jumps are closed under negation)."""
    deltas = set(graph.deltas)
    return all((-dx, -dy) in deltas for dx, dy in deltas)
