"""Brute-force reference for small boards: memoised search over (taken mask, head)."""

from functools import lru_cache

from labyrinth.engine import Board, State


def completions_exist(state, prune=False):
    """True iff ``state`` has a completion, by exhaustive search (see :func:`brute_force`)."""
    return brute_force(state.n, prune)(state_mask(state), state.head)


def state_mask(state):
    m = 0
    for c in state.path:
        m |= 1 << c
    return m


@lru_cache(maxsize=None)
def brute_force(n, prune=False):
    """The memoised exact test ``alive(mask, head)`` on an n x n board.

    With ``prune``, two plainly sound shortcuts make 7x7 affordable: a free
    cell other than the end with fewer than two free-or-head neighbours, or
    free cells not all connected to the head, mean no completion.
    """
    board = Board(n)
    full = (1 << board.size) - 1
    nbrs = [board.neighbours_of(c) for c in range(board.size)]
    end = board.end

    def hopeless(mask, head):
        free = [c for c in range(board.size) if not mask >> c & 1]
        for c in free:
            if c != end and sum(1 for d in nbrs[c] if d == head or not mask >> d & 1) < 2:
                return True
        seen, todo = {head}, [head]
        while todo:
            for d in nbrs[todo.pop()]:
                if d not in seen and not mask >> d & 1:
                    seen.add(d)
                    todo.append(d)
        return len(seen) != len(free) + 1

    @lru_cache(maxsize=None)
    def alive(mask, head):
        if mask == full:
            return head == end
        if head == end or (prune and hopeless(mask, head)):
            return False
        return any(not mask >> w & 1 and alive(mask | 1 << w, w) for w in nbrs[head])

    return alive


def reachable_states(n):
    """Every state reachable from the start, one line per distinct (taken cells, head)."""
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
