"""The walker core in numba: seeded random walks, runs until stuck, keep-left enumeration.

These kernels drive a compiled rule set (:mod:`labyrinth.rules.program`);
:mod:`labyrinth.engine.walker` is the front end that picks them when a rule
set is compiled, and falls back to Python otherwise (the ``oracle`` set).

Random numbers come from splitmix64 (:mod:`labyrinth.rules._random`), seeded
per walk from ``(seed, walk index)``, so a walk depends only on its seed and
number; the move taken is drawn by :func:`labyrinth.rules.program.choose`.
"""

import numpy as np
from numba import njit

from labyrinth.engine.graph import descend
from labyrinth.rules.areas import (
    track_init,
    track_release,
    track_step,
    track_stop,
    track_take,
)
from labyrinth.rules.frame import LEFT_DIR, RIGHT_DIR, Tables
from labyrinth.rules._random import walk_seed
from labyrinth.rules._repair import ASK, CTRL, OUT_CLOSED, OUT_OPEN, PENDING
from labyrinth.rules.program import choose, decide

__all__ = ["COMPLETE", "PAUSED", "PausingRunner", "RUNNING", "SLICED_CELLS", "SLICE_STEPS", "STUCK", "Runner",
           "enumerate_chunk", "random_walk", "runs_until_stuck", "walk_seed", "walk_steps"]

COMPLETE = 1
STUCK = 0
#: a walk cut short by its step budget (:func:`walk_steps`), to go on
RUNNING = 2
#: a pausing walk stopped at a move for an outside check (:class:`PausingRunner`), to go on once it is in
PAUSED = 3
#: steps a compiled walk takes per call on boards past :data:`SLICED_CELLS` cells: a stop signal is seen between
#: calls, so a stop waits for at most this many steps (a step of a dead 101x101 state costs up to tens of ms)
SLICE_STEPS = 32
#: boards of more cells are walked in slices of :data:`SLICE_STEPS` steps
SLICED_CELLS = 2048

@njit(cache=True)
def _direction(nb, a, b):
    for d in range(4):
        if nb[a, d] == b:
            return d
    return 1


@njit(cache=True)
def walk_steps(order, nb, colour, n, end, pat, taken, path, length, rng, scratch, area, window, trig, ntrig, budget,
               first):
    """Extend ``path[:length]`` uniformly among the open moves until complete, stuck, or ``budget`` steps taken.

    ``taken`` must mark exactly the path's cells; ``budget`` below 0 sets no
    limit. Returns ``(length, outcome, random state)``: the outcome is
    :data:`RUNNING` when the budget ran out first, and a call with the path,
    ``taken``, that state, the same ``scratch`` and ``first`` False goes on
    with the same walk: the area rules' bookkeeping of cut cells is carried
    over as it stands (started afresh only when ``first``), so the walk
    decides every state as one call would. The outcome :data:`PAUSED`: a
    pausing walk (``scratch[CTRL, ASK]`` set) stopped at a move no rule proved
    live (``scratch[CTRL, PENDING]``), the random state the one before its
    draw; the caller checks the move, records it in ``scratch[CTRL, OUT_CLOSED]``
    or ``OUT_OPEN`` and calls again. A walk given up while running
    must end the bookkeeping (:func:`labyrinth.rules.areas.track_stop`).
    """
    size = n * n
    head = path[length - 1]
    heading = _direction(nb, path[length - 2], head) if length > 1 else 1
    state = rng
    if first:
        track_init(nb, n, taken, area, scratch)
    steps = 0
    while True:
        free_count = size - length
        if head == end:
            track_stop(area)
            return length, COMPLETE if free_count == 0 else STUCK, state
        if steps == budget:
            return length, RUNNING, state
        d, state = choose(order, nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window,
                          trig, ntrig, state)
        if d == -2:
            return length, PAUSED, state
        if d < 0:
            track_stop(area)
            return length, STUCK, state
        scratch[CTRL, OUT_CLOSED] = 0
        scratch[CTRL, OUT_OPEN] = 0
        head = track_step(nb, colour, n, end, taken, head, d, free_count - 1, area, scratch)
        heading = d
        path[length] = head
        length += 1
        steps += 1


@njit(cache=True)
def random_walk(order, nb, colour, n, end, pat, taken, path, length, rng, scratch, area, window, trig, ntrig):
    """Extend ``path[:length]`` uniformly among the open moves until complete or stuck.

    ``taken`` must mark exactly the path's cells. Returns ``(length, outcome)``.
    """
    length, outcome, _ = walk_steps(order, nb, colour, n, end, pat, taken, path, length, rng, scratch, area, window,
                                    trig, ntrig, -1,
                                    True)
    return length, outcome


@njit(cache=True)
def runs_until_stuck(order, nb, colour, n, end, pat, seed, first_walk, cap, scratch, area, window, trig, ntrig):
    """Walk from the empty line with walk indices ``first_walk, first_walk + 1, ...`` until
    one is stuck or ``cap`` walks completed. Returns ``(completed, walks_run)``.
    """
    size = n * n
    taken = np.zeros(size, dtype=np.uint8)
    path = np.empty(size, dtype=np.int32)
    done = 0
    while done < cap:
        taken[:] = 0
        taken[0] = 1
        path[0] = 0
        length, outcome = random_walk(order, nb, colour, n, end, pat, taken, path, 1,
                                      walk_seed(seed, first_walk + done),
                                      scratch, area, window, trig, ntrig)
        if outcome == STUCK:
            return done, done + 1
        done += 1
    return done, done


@njit(cache=True)
def heading_at(nb, path, depth):
    """The direction of the step into ``path[depth]`` (down, the study's start heading, at depth 0)."""
    return _direction(nb, path[depth - 1], path[depth]) if depth > 0 else 1


@njit(cache=True)
def keep_left_moves(order, nb, colour, n, end, pat, taken, path, depth, cand, scratch, area, window, trig, ntrig):
    """Write the open moves at ``path[depth]`` to ``cand[depth]``, left before straight before right.

    Returns their number.
    """
    head = path[depth]
    heading = heading_at(nb, path, depth)
    mask = decide(order, nb, colour, n, end, taken, head, heading, n * n - depth - 1, scratch, area,
                  pat, window, trig, ntrig)
    return order_keep_left(mask, heading, cand, depth)


@njit(inline="always")
def order_keep_left(mask, heading, cand, depth):
    """Write the moves of ``mask`` to ``cand[depth]``, left before straight before right of ``heading``.

    Returns their number; the enumerator, the miner and the exhaustive audit all order moves this way.
    """
    k = 0
    for j in range(3):
        d = LEFT_DIR[heading] if j == 0 else heading if j == 1 else RIGHT_DIR[heading]
        if (mask >> d) & 1:
            cand[depth, k] = d
            k += 1
    return k


@njit(cache=True)
def _expand(order, nb, colour, n, end, pat, taken, path, depth, cand, ncand, idx, scratch, area, window, trig, ntrig):
    """Fill the keep-left ordered open moves at ``depth`` and reset its cursor; returns their number."""
    k = keep_left_moves(order, nb, colour, n, end, pat, taken, path, depth, cand, scratch, area, window, trig, ntrig)
    ncand[depth] = k
    idx[depth] = 0
    return k


@njit(cache=True)
def enumerate_chunk(order, nb, colour, n, end, pat, taken, path, base, frame, cand, ncand, idx, counters, first_stuck,
                    budget,
                    scratch, area, window, trig, ntrig):
    """Resumable keep-left enumeration below ``path[:base + 1]``; at most ``budget`` nodes per call.

    ``frame[0]`` is the current depth (``-1``: not started). ``counters`` =
    (walkthroughs, stuck leaves, nodes, length of the first stuck path or 0);
    the first stuck path is copied to ``first_stuck``. Returns True when done.
    """
    size = n * n
    depth = frame[0]
    steps = 0
    # no track_init here: on the small boards enumerated the free cells are seldom free of cut
    # cells, so the bookkeeping cost more than it saved (bench/before_after.py: 7x7 +50%)
    if depth < 0:
        depth = base
        counters[2] += 1
        if _leaf(nb, end, path, depth, size, counters, first_stuck):
            frame[0] = depth
            track_stop(area)
            return True
        if _expand(order, nb, colour, n, end, pat, taken, path, depth, cand, ncand, idx, scratch, area, window, trig,
                   ntrig) == 0:
            _stuck(path, depth, counters, first_stuck)
            frame[0] = depth
            track_stop(area)
            return True
    while steps < budget:
        if idx[depth] < ncand[depth]:
            depth = descend(nb, cand, idx, path, taken, depth)
            taken[path[depth]] = 0  # descend marked it; take it again with the bookkeeping
            track_take(n, taken, path[depth], area, scratch)
            counters[2] += 1
            steps += 1
            if _leaf(nb, end, path, depth, size, counters, first_stuck):
                ncand[depth] = 0
                idx[depth] = 0
            elif _expand(order, nb, colour, n, end, pat, taken, path, depth, cand, ncand, idx, scratch, area, window,
                         trig, ntrig) == 0:
                _stuck(path, depth, counters, first_stuck)
        else:
            if depth == base:
                frame[0] = depth
                track_stop(area)
                return True
            track_release(n, taken, path[depth], area, scratch)
            depth -= 1
    frame[0] = depth
    track_stop(area)
    return False


@njit(cache=True)
def _leaf(nb, end, path, depth, size, counters, first_stuck):
    """Count a walkthrough or a line stuck on the end corner; True if ``path[depth]`` is a leaf."""
    if path[depth] != end:
        return False
    if depth == size - 1:
        counters[0] += 1
    else:
        _stuck(path, depth, counters, first_stuck)
    return True


@njit(cache=True)
def _stuck(path, depth, counters, first_stuck):
    counters[1] += 1
    if counters[3] == 0:
        counters[3] = depth + 1
        first_stuck[: depth + 1] = path[: depth + 1]


# --- the compiled walker's entry points --------------------------------------------------------------------
def _run_arrays(program, board):
    t = Tables.of(board)
    return (program.order, t.nb, t.colour, t.n, t.end, program.patterns.arrays())


class Runner:
    """The compiled walker's entry points (random walks, runs, enumeration) for a :class:`~labyrinth.rules.program.Program`.

    >>> from labyrinth.engine import State
    >>> from labyrinth.rules import get_rule_set
    >>> path, outcome = get_rule_set("default").runner().walk(State.from_moves(5, ""), seed=1)
    >>> len(path), outcome == COMPLETE
    (25, True)
    """

    #: walks stop for outside checks (:class:`PausingRunner`): runs take each walk in Python's hands, never one
    #: numba call a run
    pauses = False

    def __init__(self, program):
        self.program = program

    def walk(self, start, seed, index=0):
        """A seeded random walk from ``start``: ``(path cells, outcome)`` with outcome COMPLETE/STUCK.

        On boards of more than :data:`SLICED_CELLS` cells the walk is taken
        :data:`SLICE_STEPS` steps a call (the same walk), so that a stop
        signal is handled within a few steps, not at the end of the walk.
        """
        return self._walk(start.board, start.taken, start.path, seed, index)

    def _walk(self, board, taken, line, seed, index):
        p = self.program
        taken = np.array(taken, dtype=np.uint8)
        path = np.empty(board.size, dtype=np.int32)
        path[: len(line)] = line
        arrays, scratch = _run_arrays(p, board), Tables.of(board).scratch()
        self._ready(board, scratch)
        budget = SLICE_STEPS if board.size > SLICED_CELLS else -1
        length, outcome, rng = len(line), RUNNING, np.uint64(walk_seed(seed, index))
        first = True
        try:
            while outcome in (RUNNING, PAUSED):
                length, outcome, rng = walk_steps(*arrays, taken, path, length, np.uint64(rng), scratch, p.area,
                                                  p.window, p.trig, p.ntrig, budget, first)
                first = False
                if outcome == PAUSED:
                    self._check(board, scratch, taken, int(path[length - 1]))
        finally:
            if outcome in (RUNNING, PAUSED):  # given up between slices (a stop): the rule kernels' bookkeeping ends
                track_stop(p.area)
        return path[:length].tolist(), outcome

    def _ready(self, board, scratch):
        """Set up a walk's scratch before its first step (nothing here: this walker never pauses)."""

    def runs_until_stuck(self, board, seed, first_walk, cap):
        """Completed walks before the first stuck one, from walk ``first_walk`` on: ``(completed, run)``.

        Boards of more than :data:`SLICED_CELLS` cells take each walk in
        slices of steps (:meth:`walk`): the same walks, a stop seen within a few steps.
        """
        p = self.program
        if self.pauses or board.size > SLICED_CELLS:
            empty = np.zeros(board.size, dtype=np.uint8)
            empty[0] = 1
            done = 0
            while done < cap:
                if self._walk(board, empty, [0], seed, first_walk + done)[1] != COMPLETE:
                    return done, done + 1
                done += 1
            return done, done
        done, run = runs_until_stuck(*_run_arrays(p, board), seed, first_walk, cap,
                                           Tables.of(board).scratch(), p.area, p.window, p.trig, p.ntrig)
        return int(done), int(run)

    def enumerate(self, start, progress=None, chunk=200_000):
        """Keep-left enumeration below ``start``: ``(walkthroughs, stuck, nodes, first stuck cells)``.

        ``progress(walkthroughs)`` is called between chunks of ``chunk`` nodes.
        """
        p = self.program
        board = start.board
        size = board.size
        taken = np.array(start.taken, dtype=np.uint8)
        path = np.empty(size, dtype=np.int32)
        path[: len(start.path)] = start.path
        frame = np.array([-1], dtype=np.int64)
        cand = np.zeros((size, 3), dtype=np.int8)
        ncand = np.zeros(size, dtype=np.int8)
        idx = np.zeros(size, dtype=np.int8)
        counters = np.zeros(4, dtype=np.int64)
        first = np.empty(size, dtype=np.int32)
        scratch = Tables.of(board).scratch()
        arrays = _run_arrays(p, board)
        while not enumerate_chunk(*arrays, taken, path, len(start.path) - 1, frame, cand, ncand, idx,
                                        counters, first, chunk, scratch, p.area, p.window, p.trig, p.ntrig):
            if progress is not None:
                progress(int(counters[0]))
        if progress is not None:
            progress(int(counters[0]))
        stuck_path = first[: counters[3]].tolist() if counters[3] else None
        return int(counters[0]), int(counters[1]), int(counters[2]), stuck_path


class PausingRunner(Runner):
    """The compiled walker of a sound set with *pausing* rules (no numba kernel: :mod:`labyrinth.rules.gates`).

    The walk runs in numba and stops at a move it would take that no rule of
    the compiled part proved live (:func:`labyrinth.rules.program.choose`);
    each pausing rule's ``move_dead(board, taken, head, d)`` is asked about
    it here, the verdict recorded, and the walk goes on from the same random
    state: the walk the rule set decided in Python takes
    (:func:`labyrinth.engine.walker.random_walk`). Runs of walks take each
    walk this way (never one numba call a run). Enumeration needs the whole
    set in numba: the Python walker does it.
    """

    pauses = True

    def __init__(self, program, pausing):
        super().__init__(program)
        self.pausing = tuple(pausing)
        #: outside checks asked and moves they closed, over this runner's walks
        self.asked = 0
        self.closed = 0

    def _ready(self, board, scratch):
        if scratch.shape[1] <= PENDING:
            raise ValueError(f"a pausing walk needs a board of at least 5x5, not {board.n}x{board.n}")
        scratch[CTRL, ASK] = 1

    def _check(self, board, scratch, taken, head):
        """The pausing rules asked about the move the walk stopped at; the verdict recorded for its next call."""
        d = int(scratch[CTRL, PENDING])
        self.asked += 1
        if any(rule.move_dead(board, taken, head, d) for rule in self.pausing):
            self.closed += 1
            scratch[CTRL, OUT_CLOSED] |= 1 << d
        else:
            scratch[CTRL, OUT_OPEN] |= 1 << d

    def enumerate(self, start, progress=None, chunk=200_000):
        raise TypeError("a rule set with pausing rules enumerates in Python (labyrinth.engine.walker)")
