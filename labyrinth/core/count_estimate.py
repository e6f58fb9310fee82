"""How long would an exact count take? Knuth's estimator of a count's paths and time, from random prefixes.

D. E. Knuth, *Estimating the efficiency of backtrack programs*, Mathematics
of Computation 29 (1975): a random path down the search tree, weighted by the
product of the branchings met, estimates the tree's totals without bias.
"""

import math
import random
import time

from labyrinth.core import count as _C
from labyrinth.core.count_plan import MAX_CELLS
from labyrinth.core.graph import move_graph
from labyrinth.errors import LabyrinthError

__all__ = ["estimate"]


def estimate(n, leaps, *, depth, samples=100, seed=0, memo_log2=None, sample_time_limit=600.0, closed=False,
             progress=None):
    """Estimate an open count's paths and time by sampling (Knuth's estimator), without running it all.

    Each sample is a random path of ``depth`` moves from a random start,
    each move chosen uniformly among those that leave every free cell
    reachable with at most one forced end (the *ends* pruning, so dead
    branches are not drawn); its weight is the number of starts times the
    product of the choices met. The weighted mean of its subtree's count
    and search time estimates the totals without bias (a subtree past
    ``sample_time_limit`` counts as that long and makes the time a lower
    bound, and its paths unknown). The time is divided by the symmetry
    group's order, as the count searches one prefix per orbit. The memo of
    a real run is shared by neighbouring units, so the time is an upper guide.

    With ``closed``, the same for the closed tours: ``paths`` is then the
    number of Hamiltonian cycles (the closed units' paths from the closed
    tours' cell ``s`` through a first neighbour ``a`` to a last ``b > a``).

    Returns a dict: ``paths`` and ``seconds`` (estimates), their standard
    errors ``paths_se`` and ``seconds_se``, ``samples``, ``timed_out``.
    """
    graph = move_graph(n, leaps)
    if graph.size > MAX_CELLS:
        raise LabyrinthError(f"counting handles boards up to 8x8 ({MAX_CELLS} cells)", source=f"-n {n}")
    nbrs = [graph.neighbours_of(c) for c in range(graph.size)]
    rng = random.Random(seed)
    _C._ensure((_C.default_memo_log2(n) if memo_log2 is None else memo_log2,))
    order = len(graph.symmetries())
    paths, times, timed_out = [], [], 0
    s0 = min(range(graph.size), key=lambda c: (len(nbrs[c]), c))
    firsts = [a for a in sorted(nbrs[s0]) if any(b > a for b in nbrs[s0])]
    if closed:
        order = 1  # the closed units are not reduced by symmetry
    for i in range(samples):
        ends = ()
        if closed:
            if not firsts:
                paths.append(0)
                times.append(0.0)
                continue
            a = rng.choice(firsts)
            path, weight, ends = [s0, a], len(firsts), tuple(b for b in sorted(nbrs[s0]) if b > a)
        else:
            path, weight = [rng.randrange(graph.size)], graph.size
        while len(path) <= depth:
            options = [u for u in nbrs[path[-1]] if u not in path and _ends_ok(nbrs, path + [u])]
            if not options:
                weight = 0
                break
            weight *= len(options)
            path.append(rng.choice(options))
        if weight == 0:
            paths.append(0)
            times.append(0.0)
            continue
        kind = "closed" if closed else "open"
        _, _, count, _, seconds, _ = _C._count_unit(n, _C._leaps(leaps), "sample", kind, tuple(path), ends,
                                                    time.time() + sample_time_limit)
        if count is None:
            timed_out += 1
            count = 0
        paths.append(weight * count)
        times.append(weight * seconds / order)
        if progress is not None:
            progress(i + 1, samples)

    def mean_se(xs):
        m = sum(xs) / len(xs)
        var = sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1)
        return m, math.sqrt(var / len(xs))

    p, p_se = mean_se(paths)
    t, t_se = mean_se(times)
    return {"n": n, "closed": closed, "depth": depth, "samples": samples, "paths": p, "paths_se": p_se, "seconds": t,
            "seconds_se": t_se, "timed_out": timed_out}


def _ends_ok(nbrs, path):
    """The *ends* test of a path's head: every free cell keeps a link, at most one keeps only one."""
    taken = set(path)
    head = path[-1]
    ends = 0
    for u in range(len(nbrs)):
        if u in taken:
            continue
        links = sum(1 for v in nbrs[u] if v not in taken or v == head)
        if links == 0:
            return False
        ends += links == 1
    return ends <= 1
