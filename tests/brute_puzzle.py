"""Brute-force references for any puzzle on a move graph (small boards), knowing only the definitions.

Paths are tuples of cells; ``PathState(puzzle, path)`` turns one into a state for the code under test.
"""

from functools import lru_cache

from labyrinth.core import CYCLE


def puzzle_alive(state):
    """True iff a path state of any puzzle has a completion (visit every free cell once; end as required)."""
    mask = 0
    for c in state.path:
        mask |= 1 << c
    return _alive(state.puzzle, state.path[0] if state.cycle else -1)(mask, state.head)


@lru_cache(maxsize=64)
def _alive(puzzle, first):
    g = puzzle.graph
    full = (1 << g.size) - 1
    nbrs = [tuple(g.neighbours_of(c)) for c in range(g.size)]
    end = puzzle.end
    fixed_end = end is not None and end != CYCLE

    @lru_cache(maxsize=None)
    def alive(mask, head):
        if mask == full:
            if end == CYCLE:
                return g.size > 2 and first in nbrs[head]
            return not fixed_end or head == end
        if fixed_end and head == end:
            return False
        return any(not mask >> w & 1 and alive(mask | 1 << w, w) for w in nbrs[head])

    return alive


def reachable_paths(puzzle, first=None):
    """One path per distinct reachable ``(first if cycle, taken, head)``, from ``first`` (every start if None).

    Yields tuples of cells; for open puzzles the first cell does not matter to the
    question, so paths with the same taken cells and head are given once.
    """
    g = puzzle.graph
    nbrs = [tuple(g.neighbours_of(c)) for c in range(g.size)]
    end = puzzle.end
    fixed_end = end is not None and end != CYCLE
    seen = set()
    for s in (range(g.size) if first is None else (first,)):
        stack = [(s,)]
        while stack:
            path = stack.pop()
            mask = 0
            for c in path:
                mask |= 1 << c
            key = (path[0] if end == CYCLE else -1, mask, path[-1])
            if key in seen:
                continue
            seen.add(key)
            yield path
            if fixed_end and path[-1] == end:
                continue
            stack.extend(path + (w,) for w in nbrs[path[-1]] if not mask >> w & 1)


def count_paths(puzzle):
    """Directed Hamiltonian paths per start cell (a closed tour counts once per start and direction)."""
    g = puzzle.graph
    nbrs = [tuple(g.neighbours_of(c)) for c in range(g.size)]
    full = (1 << g.size) - 1
    end = puzzle.end

    def count(first, mask, head):
        if mask == full:
            if end == CYCLE:
                return int(g.size > 2 and first in nbrs[head])
            return int(end is None or head == end)
        if end is not None and end != CYCLE and head == end:
            return 0
        return sum(count(first, mask | 1 << w, w) for w in nbrs[head] if not mask >> w & 1)

    return [count(s, 1 << s, s) for s in range(g.size)]


def count_paths_compiled(puzzle):
    """:func:`count_paths` (any start, end anywhere or a cycle) as a plain depth-first search compiled with numba.

    No pruning and no memo: every path is walked to its end, as in :func:`count_paths`,
    only faster (the 5x5 knight's 1 728 tours in about a second instead of a minute).
    """
    import numpy as np

    g = puzzle.graph
    end = puzzle.end
    if end is not None and end != CYCLE:
        raise ValueError("a fixed end is not supported here")
    nb = np.ascontiguousarray(g.neighbours, dtype=np.int64)
    return [int(_dfs_count(nb, s, end == CYCLE)) for s in range(g.size)]


def _dfs_count_py(nb, start, cycle):
    size, k = nb.shape
    taken = [False] * size
    path = [0] * size
    pos = [0] * size
    taken[start] = True
    path[0] = start
    depth, total = 0, 0
    while depth >= 0:
        head = path[depth]
        if depth == size - 1:
            if not cycle:
                total += 1
            elif size > 2:
                for d in range(k):
                    if nb[head, d] == start:
                        total += 1
                        break
            taken[head] = depth == 0
            depth -= 1
            continue
        if pos[depth] < k:
            w = nb[head, pos[depth]]
            pos[depth] += 1
            if w >= 0 and not taken[w]:
                taken[w] = True
                depth += 1
                path[depth] = w
                pos[depth] = 0
            continue
        pos[depth] = 0
        if depth > 0:
            taken[head] = False
        depth -= 1
    return total


try:
    from numba import njit

    _dfs_count = njit(cache=False)(_dfs_count_py)
except ImportError:  # pragma: no cover
    _dfs_count = _dfs_count_py


def all_paths(graph, starts=None, closed=False):
    """Every directed Hamiltonian path of ``graph`` from ``starts`` (default: every cell), by plain
    depth-first search; ``closed``: only those whose last cell is one move from the first."""
    nbrs = [graph.neighbours_of(c) for c in range(graph.size)]
    out = []

    def extend(path, seen):
        if len(path) == graph.size:
            if not closed or path[0] in nbrs[path[-1]]:
                out.append(tuple(path))
            return
        for u in nbrs[path[-1]]:
            if u not in seen:
                seen.add(u)
                path.append(u)
                extend(path, seen)
                path.pop()
                seen.discard(u)

    for s in range(graph.size) if starts is None else starts:
        extend([s], {s})
    return out


def path_classes(graph, paths):
    """The number of classes of ``paths`` under the board's symmetries and reversal (canonical forms)."""
    perms = [tuple(int(v) for v in p) for p in graph.symmetries()]
    return len({min(min(tuple(p[c] for c in t), tuple(p[c] for c in reversed(t))) for p in perms) for t in paths})
