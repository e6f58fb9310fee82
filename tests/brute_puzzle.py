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
