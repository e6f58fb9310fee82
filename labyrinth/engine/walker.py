"""Walks of the line under a rule set: seeded random walks and keep-left enumeration.

A *rule set* here answers the interface of
:class:`labyrinth.rules.base.RuleSetBase` (handed in: the engine never imports
the rules): above all ``open_moves(state) -> str``, the letters of the moves
it leaves open (a subset of ``state.open_moves()``). A walk is *stuck* when
no move is open before the line is complete. Rule sets whose rules all have
numba kernels (``compiled()``) run in the compiled walker of
:mod:`labyrinth.rules.walks`; others (the ``oracle`` set) walk in Python.

Keep-left order is the research program's exhaustive order: at every
branching, left before straight before right relative to the current heading
(the last move; down at the start). Walkthrough numbers in the corpus, such as
``9_19717655``, count completed walkthroughs in this order.
"""

import dataclasses
import time

from labyrinth.engine.frame import heading, keep_left_order
from labyrinth.engine.state import State

__all__ = [
    "STUDY_7X7_RULES",
    "Enumeration",
    "Walk",
    "WalkStats",
    "enumerate_walks",
    "random_walk",
    "random_walks",
    "runs_statistics",
    "walk_runs",
    "walk_statistics",
    "wilson",
]

#: the study's statistic for its 7x7 rule set: mean walkthroughs completed before the
#: first stuck walk, over 1000 attempts, per board size (the study, docs/labyrinth.md)
STUDY_7X7_RULES = {9: 19.5, 11: 5.7, 13: 2.6, 15: 1.2, 17: 0.7, 19: 0.4, 21: 0.2}

@dataclasses.dataclass(frozen=True)
class Walk:
    """One random walk: the final state, ``complete`` or ``stuck``, and the stuck step."""

    state: State
    outcome: str
    stuck_step: object = None


def _runner(rules):
    return rules.runner() if rules.walkable() else None


def random_walk(n, rules, seed, start=None, index=0):
    """Walk from ``start`` (the empty line by default), uniformly among the open moves.

    The walk depends only on ``seed``, ``index`` (the walk's number in a
    campaign) and the start. Compiled rule sets walk in numba; any other rule
    set (the oracle, an external engine) draws from the same generator
    (splitmix64, :func:`labyrinth.rules.walks.walk_seed`) in Python, so a rule
    set that gives the same answers walks the same walk. A *sound* set
    (``rules.sound``: ``strong``, the oracle) draws its free moves in
    a random order and takes the first open one, which lets the compiled
    walker ask about one move at a time (:func:`labyrinth.rules.program.choose`);
    any other draws one of its open moves. Both are the uniform choice among
    the open moves.
    """
    state = start if start is not None else State.from_moves(n, "")
    runner = _runner(rules)
    if runner is not None:
        cells, outcome = runner.walk(state, seed, index)
        final = State(state.board, cells)
        if outcome:
            return Walk(final, "complete")
        return Walk(final, "stuck", final.steps)
    rng = _Splitmix(seed, index)
    sound = rules.sound
    while not state.at_end():
        moves = rules.open_moves(state)
        move = _draw(state, moves, rng) if sound else moves[rng.below(len(moves))] if moves else None
        if move is None:
            return Walk(state, "stuck", state.steps)
        state = state.after(move)
    return Walk(state, "complete") if state.is_complete() else Walk(state, "stuck", state.steps)


def _draw(state, moves, rng):
    """A sound set's draw: the free moves in a random order, the first open one (None: stuck)."""
    candidates = list(state.open_moves())
    while candidates:
        move = candidates.pop(rng.below(len(candidates)))
        if move in moves:
            return move
    return None


def random_walks(n, rules, seed, indices):
    """The walks ``indices`` of campaign ``seed``, walked in lockstep: the same walks as :func:`random_walk`.

    Every step asks an external engine (``rules.external``) about all the
    walks still going at once (``rules.decide_many``: one request), so a rule set behind a pipe pays one round trip
    per step of the longest walk, not per step of every walk.
    """
    if rules.compiled() or not rules.external:
        return [random_walk(n, rules, seed, index=i) for i in indices]
    states = [State.from_moves(n, "") for _ in indices]
    rngs = [_Splitmix(seed, i) for i in indices]
    out = [None] * len(states)
    going = list(range(len(states)))
    while going:
        for k, d in zip(going, rules.decide_many([states[k] for k in going])):
            if not d.open:
                out[k] = Walk(states[k], "stuck", states[k].steps)
                continue
            states[k] = states[k].after(d.open[rngs[k].below(len(d.open))])
            if states[k].at_end():
                s = states[k]
                out[k] = Walk(s, "complete") if s.is_complete() else Walk(s, "stuck", s.steps)
        going = [k for k in going if out[k] is None]
    return out


_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z):
    """splitmix64's output function on Python integers (Steele, Lea and Flood 2014), as the numba walker's."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class _Splitmix:
    """The compiled walker's random numbers in Python: walk ``index`` of campaign ``seed``.

    >>> from labyrinth.rules.walks import walk_seed
    >>> _Splitmix(7, 3).state == int(walk_seed(7, 3))
    True
    """

    def __init__(self, seed, index):
        seed, index = int(seed) & _MASK64, int(index) & _MASK64
        self.state = _mix((seed * _GOLDEN + _mix((index + _GOLDEN) & _MASK64)) & _MASK64)

    def below(self, k):
        """A number in ``0..k-1``; the moves are listed in U, D, L, R order, as the kernel's mask bits."""
        self.state = (self.state + _GOLDEN) & _MASK64
        return _mix(self.state) % k


@dataclasses.dataclass(frozen=True)
class Enumeration:
    """Counts of a keep-left enumeration: completed walkthroughs, stuck leaves, search nodes."""

    walkthroughs: int
    stuck: int
    nodes: int
    seconds: float
    first_stuck: object = None  # the first stuck state met, in keep-left order


def enumerate_walks(start, rules, progress=None, *, subtree=None):
    """Enumerate every walk below ``start`` (a :class:`State`) in keep-left order.

    ``nodes`` counts the states visited, ``start`` included; ``progress``, if
    given, is called with the walkthrough count each time it grows.
    ``subtree(state, rules) -> (walkthroughs, stuck, nodes)``, if given, counts
    whole subtrees below the first few levels (the caller passes
    :func:`verify.count_subtree` for the ``oracle`` set: the engine never
    calls the verifier itself).
    """
    t0 = time.perf_counter()
    if subtree is not None:
        return _enumerate_by_subtrees(start, rules, progress, t0, subtree)
    runner = _runner(rules)
    if runner is not None:
        walkthroughs, stuck, nodes, cells = runner.enumerate(start, progress)
        first = State(start.board, cells) if cells else None
        return Enumeration(walkthroughs, stuck, nodes, time.perf_counter() - t0, first)
    walkthroughs = stuck = nodes = 0
    first_stuck = None
    stack = [start]
    while stack:
        state = stack.pop()
        nodes += 1
        if state.is_complete():
            walkthroughs += 1
            if progress is not None:
                progress(walkthroughs)
            continue
        allowed = rules.open_moves(state)
        if not allowed:
            stuck += 1
            if first_stuck is None:
                first_stuck = state
            continue
        ordered = [m for m in keep_left_order(heading(state)) if m in allowed]
        # push in reverse so that the leftmost move is explored first
        stack.extend(state.after(m) for m in reversed(ordered))
    return Enumeration(walkthroughs, stuck, nodes, time.perf_counter() - t0, first_stuck)


#: subtrees a whole-subtree counter is handed (more: finer progress, more Python above them)
_SUBTREE_UNITS = 256


def _enumerate_by_subtrees(start, rules, progress, t0, subtree):
    """Keep-left enumeration that hands whole subtrees to ``subtree(state, rules)``.

    The nodes near ``start`` are expanded here with the rule set itself until
    there are :data:`_SUBTREE_UNITS` subtrees; each is then counted at once by
    ``subtree``, which returns ``(walkthroughs, stuck, nodes)`` (for the
    ``oracle`` set the verifier's exhaustive kernel,
    :func:`verify.count_subtree`, which raises rather than guess).
    """
    walkthroughs = stuck = nodes = 0
    first_stuck = None
    frontier = [start]
    while 0 < len(frontier) < _SUBTREE_UNITS:
        grown = []
        for state in frontier:
            if state.is_complete():
                walkthroughs += 1
                nodes += 1
                continue
            allowed = rules.open_moves(state)
            nodes += 1
            if not allowed:
                stuck += 1
                first_stuck = first_stuck or state
                continue
            grown.extend(state.after(m) for m in keep_left_order(heading(state)) if m in allowed)
        frontier = grown
        if progress is not None and walkthroughs:
            progress(walkthroughs)
    for state in frontier:
        done, dead, visited = subtree(state, rules)
        walkthroughs += done
        stuck += dead
        nodes += visited
        if progress is not None:
            progress(walkthroughs)
    return Enumeration(walkthroughs, stuck, nodes, time.perf_counter() - t0, first_stuck)


@dataclasses.dataclass(frozen=True)
class WalkStats:
    """The study's statistic on one board size: walkthroughs completed before the first stuck walk.

    ``mean`` over ``runs`` runs, with a 95% confidence interval ``low``..``high``
    (normal approximation); ``censored`` runs reached ``cap`` walkthroughs
    without getting stuck and count as ``cap``. ``walks`` counts every walk
    and ``stuck`` the stuck ones (a run ends with its first stuck walk).
    """

    n: int
    runs: int
    mean: float
    low: float
    high: float
    censored: int
    walks: int
    seconds: float
    stuck: int = 0

    @property
    def completion_rate(self):
        """The fraction of walks that completed."""
        return 1 - self.stuck / self.walks if self.walks else 0.0

    @property
    def stuck_rate(self):
        """Stuck walks per walk, with its 95% Wilson score interval ``(rate, low, high)``.

        >>> WalkStats(9, 1, 0.0, 0.0, 0.0, 1, 1000, 0.0, 0).stuck_rate[2] < 0.004   # none in 1000: under 1 in 260
        True
        """
        return (self.stuck / self.walks if self.walks else 0.0, *wilson(self.stuck, self.walks))

    @property
    def walkthroughs_per_stuck(self):
        """Completed walks per stuck walk (None when no walk got stuck)."""
        return (self.walks - self.stuck) / self.stuck if self.stuck else None


def wilson(k, n, z=1.96):
    """The Wilson score interval of a proportion ``k / n`` (Wilson 1927): ``(low, high)``.

    >>> [round(x, 4) for x in wilson(0, 10_000)]
    [0.0, 0.0004]
    >>> wilson(0, 60_000)[0]            # exactly 0, not a rounding error's 1e-21
    0.0
    """
    if n == 0:
        return 0.0, 1.0
    if k == 0:
        return 0.0, min(1.0, z * z / (n + z * z))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def walk_runs(n, rules, seed, first, stop, cap):
    """Runs ``first .. stop - 1`` of the statistic: their walkthrough counts and the walks they took."""
    runner = _runner(rules)
    start = State.from_moves(n, "")
    samples, walks = [], 0
    for r in range(first, stop):
        if runner is not None:
            done, ran = _compiled_run(runner, start.board, seed, r, cap)
        else:
            done = ran = 0
            while done < cap:  # the walks the compiled runs take (walk r * 2**32 + k of the seed)
                ran += 1
                if random_walk(n, rules, seed, index=(r << 32) + ran - 1).outcome != "complete":
                    break
                done += 1
        samples.append(done)
        walks += ran
    return samples, walks


#: cells walked per call of the compiled runs (walks of n x n: WALK_SLICE_CELLS // n**2): a stop is seen between calls
WALK_SLICE_CELLS = 8192


def _compiled_run(runner, board, seed, r, cap):
    """Run ``r`` of the statistic in the compiled walker, in slices of a few walks: ``(completed, walks run)``.

    The same walks as one call (``r * 2**32``, ``r * 2**32 + 1``, ...), cut so
    that a stop signal is seen within a slice, not at the end of the run.
    """
    step = max(1, WALK_SLICE_CELLS // board.size)
    done = ran = 0
    while done < cap:
        k = min(step, cap - done)
        got, walked = runner.runs_until_stuck(board, seed, (r << 32) + done, k)
        done += got
        ran += walked
        if got < k:  # stuck
            break
    return done, ran


def walk_statistics(n, rules, runs, seed, cap=100, progress=None, jobs=1):
    """Run ``runs`` times: walk from the empty line until a walk gets stuck; count the completions.

    Run ``r`` uses the walks numbered ``r * 2**32, r * 2**32 + 1, ...`` of the
    seed, so every run is reproducible on its own, and ``jobs`` worker
    processes (rule sets the compiled walker takes) give the same figures as one.
    ``progress(r)`` is called with the number of runs done.
    """
    t0 = time.perf_counter()
    if jobs > 1 and rules.walkable() and runs > 1:
        samples, walks = _parallel_runs(n, rules, runs, seed, cap, progress, jobs)
    else:
        samples, walks = [], 0
        for r in range(runs):
            got, ran = walk_runs(n, rules, seed, r, r + 1, cap)
            samples += got
            walks += ran
            if progress is not None:
                progress(r + 1)
    return runs_statistics(n, samples, walks, cap, time.perf_counter() - t0)


def runs_statistics(n, samples, walks, cap, seconds=0.0):
    """The :class:`WalkStats` of runs whose walkthrough counts are ``samples`` (in run order) and took ``walks``.

    What :func:`walk_statistics` reports, from runs done anywhere (a campaign's
    stored units, :func:`walk_runs`): the same samples give the same figures.

    >>> st = runs_statistics(9, [3, 100, 1], 106, cap=100)
    >>> st.mean, st.censored, st.stuck
    (34.666666666666664, 1, 2)
    """
    runs = len(samples)
    censored = sum(1 for x in samples if x >= cap)
    stuck = runs - censored
    mean = sum(samples) / runs if runs else 0.0
    var = sum((x - mean) ** 2 for x in samples) / (runs - 1) if runs > 1 else 0.0
    half = 1.96 * (var / runs) ** 0.5 if runs else 0.0
    return WalkStats(n, runs, mean, max(0.0, mean - half), mean + half, censored, walks, seconds, stuck)


def _parallel_runs(n, rules, runs, seed, cap, progress, jobs):
    """The runs in chunks over ``jobs`` worker processes (:class:`~labyrinth.jobs.pool.WorkerPool`), in run order."""
    from labyrinth.jobs.pool import WorkerPool

    chunks = max(jobs, min(runs, 32 * jobs))
    bounds = [runs * i // chunks for i in range(chunks + 1)]
    parts = {}
    done = 0
    with WorkerPool(jobs, start="spawn") as pool:
        spans = [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]
        for a, part in pool.map_unordered(_runs_part, [(n, rules, seed, a, b, cap) for a, b in spans]):
            parts[a] = part
            done += len(part[0])
            if progress is not None:
                progress(done)
    samples, walks = [], 0
    for a in sorted(parts):
        samples += parts[a][0]
        walks += parts[a][1]
    return samples, walks


def _runs_part(n, rules, seed, first, stop, cap):
    """A worker's chunk of runs: ``(first, walk_runs(...))``."""
    return first, walk_runs(n, rules, seed, first, stop, cap)
