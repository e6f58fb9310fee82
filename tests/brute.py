"""Brute-force reference for small boards: memoised search over (taken mask, head)."""

from functools import lru_cache

from labyrinth.engine import Board, State


def completions_exist(state):
    """True iff ``state`` has a completion, by exhaustive search (n <= 7 in practice)."""
    return _solver(state.n)(_mask(state), state.head)


def _mask(state):
    m = 0
    for c in state.path:
        m |= 1 << c
    return m


@lru_cache(maxsize=None)
def _solver(n):
    board = Board(n)
    full = (1 << board.size) - 1
    nbrs = [board.neighbours_of(c) for c in range(board.size)]
    end = board.end

    @lru_cache(maxsize=None)
    def alive(mask, head):
        if mask == full:
            return head == end
        if head == end:
            return False
        return any(not mask >> w & 1 and alive(mask | 1 << w, w) for w in nbrs[head])

    return alive


def reachable_states(n):
    """Every state reachable from the start, deduplicated by (taken cells, head)."""
    board = Board(n)
    seen = {}
    nbrs = [board.neighbours_of(c) for c in range(board.size)]

    def walk(path, mask):
        key = (mask, path[-1])
        if key in seen:
            return
        seen[key] = State(board, path, _trusted=True)
        if path[-1] == board.end:
            return
        for w in nbrs[path[-1]]:
            if not mask >> w & 1:
                path.append(w)
                walk(path, mask | 1 << w)
                path.pop()

    walk([board.start], 1 << board.start)
    return list(seen.values())
