"""Issue 40, the first try: vertex cuts (toughness) split by colour, on the dead states of the misses of ``strong++``.

For a set S of nodes (free cells and the head), a completion minus S falls into at most |S| + 1 pieces, each
component of the rest holds at least one, a component of colour imbalance b at least |b|; split by colour, the
piece ends of one colour need the P-edges of the S cells of the other (two each, one at the head or the end).
``violation`` is the largest excess of those counts (> 0: no completion). Candidate sets: every diamond
(one colour of the free cells within grid distance r of a cell, r <= 12), then a random local search (toggle
one cell, keep the change unless the excess falls), on the bare graph and on the closure's option graph
(forced edges cost S cells capacity)::

    python bench/cut_toughness.py            # all 32: the best excess found per dead state (0: none refuted)
    python bench/cut_toughness.py 1 2 5      # some of them
"""

import json
import pathlib
import sys
import time

import numpy as np
from numba import njit

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from labyrinth.engine import State  # noqa: E402
from labyrinth.engine.graph import GraphTables  # noqa: E402
from labyrinth.rules._lines import FRC, NEED, OPT  # noqa: E402
from labyrinth.rules.closure import closure_dead  # noqa: E402


@njit(cache=True)
def violation(nb, colour, inv, ins, head, end, comp, queue):
    """max over colours of (ends needing an S neighbour) - capacity; > 0 means dead."""
    size = inv.shape[0]
    for c in range(size):
        comp[c] = -1
    nS0 = 0
    nS1 = 0
    for c in range(size):
        if inv[c] and ins[c]:
            if colour[c] == 1:
                nS0 += 1  # colour +1 -> class 0
            else:
                nS1 += 1
    ends0 = 0
    ends1 = 0
    ncomp = 0
    for root in range(size):
        if not inv[root] or ins[root] or comp[root] >= 0:
            continue
        comp[root] = ncomp
        queue[0] = root
        qt = 1
        qh = 0
        imb = 0
        hh = False
        ee = False
        while qh < qt:
            a = queue[qh]
            qh += 1
            if colour[a] == 1:
                imb += 1
            else:
                imb -= 1
            if a == head:
                hh = True
            if a == end:
                ee = True
            for d in range(4):
                b = nb[a, d]
                if b >= 0 and inv[b] and not ins[b] and comp[b] < 0:
                    comp[b] = ncomp
                    queue[qt] = b
                    qt += 1
        p = abs(imb)
        if p < 1:
            p = 1
        if hh and ee and (nS0 + nS1) > 0 and p < 2:
            p = 2
        ends0 += p + imb
        ends1 += p - imb
        ncomp += 1
    # capacities
    cap1 = 2 * nS1
    cap0 = 2 * nS0  # S cells of class1 absorb class0 ends
    for x in (head, end):
        if ins[x]:
            if colour[x] == 1:
                cap0 -= 1
            else:
                cap1 -= 1
        else:
            if colour[x] == 1:
                ends0 -= 1
            else:
                ends1 -= 1
    return max(ends0 - cap1, ends1 - cap0)


def setup(state):
    t = GraphTables.of(state.board)
    inv = np.zeros(state.board.size, np.uint8)
    tk = state.taken
    for c in range(state.board.size):
        if not tk[c]:
            inv[c] = 1
    inv[state.head] = 1
    return t, inv


def bfs_dist(nb, inv, src):
    size = inv.shape[0]
    dist = np.full(size, -1, np.int64)
    dist[src] = 0
    q = [src]
    i = 0
    while i < len(q):
        a = q[i]
        i += 1
        for d in range(4):
            b = nb[a, d]
            if b >= 0 and inv[b] and dist[b] < 0:
                dist[b] = dist[a] + 1
                q.append(b)
    return dist


def best_ball(state, rmax=12, grid=False):
    t, inv = setup(state)
    size = inv.shape[0]
    n = state.board.n
    comp = np.zeros(size, np.int64)
    queue = np.zeros(size, np.int64)
    best = (-(10**9), None)
    cells = np.nonzero(inv)[0]
    xs = np.arange(size) % n
    ys = np.arange(size) // n
    for c in cells:
        dist = (np.abs(xs - xs[c]) + np.abs(ys - ys[c])) if grid else bfs_dist(t.nb, inv, c)
        for r in range(1, rmax + 1):
            ball = (dist >= 0) & (dist <= r) & (inv == 1)
            for col in (1, -1):
                ins = (ball & (t.colour == col)).astype(np.uint8)
                v = violation(t.nb, t.colour, inv, ins, state.head, state.end, comp, queue)
                if v > best[0]:
                    best = (v, (int(c), r, col))
    return best


@njit(cache=True)
def violation2(nb, colour, opt, frc, need, ins, head, end, comp, queue):
    size = need.shape[0]
    for c in range(size):
        comp[c] = -1
    capA = 0
    capB = 0  # capA: S cells of colour -1 absorbing ends of colour +1 cells
    nS = 0
    for s in range(size):
        if need[s] <= 0 or not ins[s]:
            continue
        nS += 1
        k_out = 0
        f_in = 0
        for d in range(4):
            if (opt[s] >> d) & 1:
                x = nb[s, d]
                if ins[x]:
                    if (frc[s] >> d) & 1:
                        f_in += 1
                else:
                    k_out += 1
        cap = need[s] - f_in
        if k_out < cap:
            cap = k_out
        if cap < 0:
            cap = 0
        if colour[s] == 1:
            capB += cap
        else:
            capA += cap
    endsA = 0
    endsB = 0
    for root in range(size):
        if need[root] <= 0 or ins[root] or comp[root] >= 0:
            continue
        queue[0] = root
        qt = 1
        qh = 0
        comp[root] = root
        imb = 0
        hA = 0
        hB = 0
        he = 0
        while qh < qt:
            a = queue[qh]
            qh += 1
            if colour[a] == 1:
                imb += 1
            else:
                imb -= 1
            if a == head or a == end:
                he += 1
                if colour[a] == 1:
                    hA += 1
                else:
                    hB += 1
            for d in range(4):
                if (opt[a] >> d) & 1:
                    b = nb[a, d]
                    if not ins[b] and comp[b] < 0:
                        comp[b] = root
                        queue[qt] = b
                        qt += 1
        p = 1
        if abs(imb) > p:
            p = abs(imb)
        if hA - imb > p:
            p = hA - imb
        if hB + imb > p:
            p = hB + imb
        if he == 2 and nS > 0 and p < 2:
            p = 2
        endsA += p + imb - hA
        endsB += p - imb - hB
    return max(endsA - capA, endsB - capB)


def fixed_point(state):
    t = GraphTables.of(state.board)
    taken = np.array(state.taken, dtype=np.uint8)
    w = t.scratch()
    cells = np.zeros(64, np.int32)
    k = closure_dead(t.nb, t.colour, t.end, taken, state.head, state.free_count, w, cells)
    return t, w, k


def climb2(state, iters=20000, seed=0, restarts=20):
    rng = np.random.default_rng(seed)
    t, w, k = fixed_point(state)
    if k:
        return 99, None
    opt = w[OPT].copy()
    frc = w[FRC].copy()
    need = w[NEED].copy()
    size = need.shape[0]
    n = state.board.n
    comp = np.zeros(size, np.int64)
    queue = np.zeros(size, np.int64)
    cells = np.nonzero(need > 0)[0]
    xs = np.arange(size) % n
    ys = np.arange(size) // n
    best = -(10**9)
    bestS = None
    for rs in range(restarts):
        c = rng.choice(cells)
        r = rng.integers(2, 10)
        col = rng.choice([1, -1])
        dist = np.abs(xs - xs[c]) + np.abs(ys - ys[c])
        ins = ((dist <= r) & (need > 0) & (t.colour == col)).astype(np.uint8)
        v = violation2(t.nb, t.colour, opt, frc, need, ins, state.head, state.end, comp, queue)
        for it in range(iters // restarts):
            x = rng.choice(cells)
            ins[x] ^= 1
            v2 = violation2(t.nb, t.colour, opt, frc, need, ins, state.head, state.end, comp, queue)
            if v2 >= v or rng.random() < 0.02:
                v = v2
            else:
                ins[x] ^= 1
            if v > best:
                best = v
                bestS = ins.copy()
    return best, bestS


def climb(state, iters=20000, seed=0, restarts=20):
    rng = np.random.default_rng(seed)
    t, inv = setup(state)
    size = inv.shape[0]
    n = state.board.n
    comp = np.zeros(size, np.int64)
    queue = np.zeros(size, np.int64)
    cells = np.nonzero(inv)[0]
    xs = np.arange(size) % n
    ys = np.arange(size) // n
    best = -(10**9)
    bestS = None
    for rs in range(restarts):
        c = rng.choice(cells)
        r = rng.integers(2, 10)
        col = rng.choice([1, -1])
        dist = np.abs(xs - xs[c]) + np.abs(ys - ys[c])
        ins = ((dist <= r) & (inv == 1) & (t.colour == col)).astype(np.uint8)
        v = violation(t.nb, t.colour, inv, ins, state.head, state.end, comp, queue)
        for it in range(iters // restarts):
            x = rng.choice(cells)
            ins[x] ^= 1
            v2 = violation(t.nb, t.colour, inv, ins, state.head, state.end, comp, queue)
            if v2 >= v or rng.random() < 0.02:
                v = v2
            else:
                ins[x] ^= 1
            if v > best:
                best = v
                bestS = ins.copy()
    return best, bestS


def main():
    rows = [json.loads(line) for line in open(ROOT / "reports" / "strong-plus-plus-misses.jsonl")]
    which = [int(a) for a in sys.argv[1:]] or range(len(rows))
    iters = 20000
    for i in which:
        r = rows[i]
        n, moves = r["line"].split(":")
        n = int(n)
        s = State.from_moves(n, moves[: r["first_dead_step"]])
        t0 = time.time()
        diamonds = best_ball(s, grid=True)[0]
        bare = climb(s, iters=iters)[0] if s.free_count <= 1200 else None
        options = climb2(s, iters=iters)[0] if s.free_count <= 1200 else None
        print(
            f"{i} {n}x{n} free {s.free_count}: best excess, diamonds {diamonds}, local search {bare}, "
            f"on the closure's options {options} ({time.time() - t0:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
