"""The units of an exact path count: one prefix per symmetry orbit, the paths a symmetry fixes reversed, the closed tours.

See :mod:`labyrinth.core.count` for what each kind of unit counts and how
the counts are put together (Burnside's lemma for the classes).
"""

import dataclasses

from labyrinth.core.graph import move_graph
from labyrinth.errors import LabyrinthError

__all__ = ["MAX_CELLS", "Plan", "default_depth", "plan"]

#: the search keeps the taken cells in one 64-bit word: boards up to 8x8
MAX_CELLS = 64


@dataclasses.dataclass(frozen=True)
class Plan:
    """The units of a count: ``(name, kind, cells, end cells)``; kinds ``open``, ``closed``, ``fixed``.

    ``open``: the paths beginning with ``cells`` (a prefix representing its
    orbit); ``closed``: the paths beginning with ``cells`` (from the closed
    tours' cell) that end on one of ``end cells``; ``fixed``: the paths that
    symmetry number ``cells[0]`` composed with reversal fixes, whose first
    half begins with ``cells[1:]`` (any first cell when that is empty).
    """

    n: int
    units: tuple
    images: dict  # open unit name -> start cells of the distinct images of its prefix (with repeats)


def _perms(graph):
    return [tuple(int(v) for v in p) for p in graph.symmetries()]


def _prefixes(graph, depth):
    """Every path of ``depth`` moves (fewer only when it reaches every cell), in order of cells."""
    nbrs = [graph.neighbours_of(c) for c in range(graph.size)]
    depth = min(depth, graph.size - 1)
    out = []

    def extend(path, seen):
        if len(path) == depth + 1:
            out.append(tuple(path))
            return
        for u in nbrs[path[-1]]:
            if u not in seen:
                seen.add(u)
                path.append(u)
                extend(path, seen)
                path.pop()
                seen.discard(u)

    for s in range(graph.size):
        extend([s], {s})
    return out


def default_depth(n):
    """Moves in an open unit's prefix: enough units to share among workers, few enough to plan at once."""
    return 0 if n <= 4 else 1 if n == 5 else 2 if n == 6 else 3 if n == 7 else 4


def plan(n, leaps, *, depth=None, open_paths=True, closed=True, closed_depth=None):
    """The units of the count of the ``leaps`` graph on an n x n board (see :class:`Plan`)."""
    graph = move_graph(n, leaps)
    if graph.size > MAX_CELLS:
        raise LabyrinthError(f"counting handles boards up to 8x8 ({MAX_CELLS} cells: one 64-bit word)",
                             source=f"-n {n}")
    perms = _perms(graph)
    units = []
    images = {}
    if open_paths:
        for prefix in _prefixes(graph, default_depth(n) if depth is None else depth):
            mapped = {tuple(p[c] for c in prefix) for p in perms}
            if min(mapped) != prefix:
                continue  # another prefix of its orbit stands for it
            name = "open " + ",".join(map(str, prefix))
            units.append((name, "open", prefix, ()))
            images[name] = tuple(sorted(m[0] for m in mapped))
        if graph.size > 1:
            for i, p in enumerate(perms):
                if i and all(p[p[c]] == c for c in range(graph.size)) \
                        and sum(p[c] == c for c in range(graph.size)) == graph.size % 2:
                    # a few seconds up to 7x7: one unit per symmetry; hours on 8x8: one per first move
                    for prefix in [()] if n <= 7 else _half_prefixes(graph, p, 1):
                        units.append((f"fixed {i}:" + ",".join(map(str, prefix)), "fixed", (i, *prefix), ()))
    if closed and graph.size > 2:
        s = min(range(graph.size), key=lambda c: (len(graph.neighbours_of(c)), c))
        nbrs = sorted(graph.neighbours_of(s))
        cdepth = max(0, (default_depth(n) if closed_depth is None else closed_depth) - 1)
        for a in nbrs:
            ends = tuple(b for b in nbrs if b > a)
            if not ends:
                continue
            for prefix in _prefixes_from(graph, (s, a), cdepth):
                units.append(("closed " + ",".join(map(str, prefix)), "closed", prefix, ends))
    return Plan(n, tuple(units), images)


def _half_prefixes(graph, perm, depth):
    """The starts of first halves of paths that ``perm`` composed with reversal fixes: ``depth`` moves, one cell per pair."""
    nbrs = [graph.neighbours_of(c) for c in range(graph.size)]
    length = min(depth + 1, graph.size // 2)
    out = []

    def extend(path, used):
        if len(path) == length:
            out.append(tuple(path))
            return
        for u in nbrs[path[-1]]:
            if u not in used and perm[u] != u:
                used |= {u, perm[u]}
                path.append(u)
                extend(path, used)
                path.pop()
                used -= {u, perm[u]}

    for s in range(graph.size):
        if perm[s] != s:
            extend([s], {s, perm[s]})
    return out


def _prefixes_from(graph, start, more):
    """The paths that extend ``start`` by ``more`` moves (fewer only when they reach every cell)."""
    nbrs = [graph.neighbours_of(c) for c in range(graph.size)]
    more = min(more, graph.size - len(start))
    out = []

    def extend(path):
        if len(path) == len(start) + more:
            out.append(tuple(path))
            return
        for u in nbrs[path[-1]]:
            if u not in path:
                path.append(u)
                extend(path)
                path.pop()

    extend(list(start))
    return out
