"""The walker's incremental area bookkeeping changes no decision of the global area analysis.

The reference is the same rule set compiled with ``incremental=False``: every
GLOBAL step then runs the whole-board block and pocket search, as before the
bookkeeping existed. Walks and per-state verdicts must agree (the enumeration does not use the bookkeeping).
"""

import random

import numpy as np
import pytest

from labyrinth.engine import State
from labyrinth.rules import areas, get_rule_set
from labyrinth.rules.frame import Tables
from labyrinth.rules.program import Program, decide
from labyrinth.rules.walks import Runner


def _programs(name="default"):
    active = get_rule_set(name).active
    return Program(active), Program(active, incremental=False)


@pytest.mark.parametrize("n,walks", [(5, 300), (7, 300), (9, 200), (11, 100), (13, 60), (21, 25)])
def test_random_walks_are_identical_to_the_full_analysis(n, walks):
    fast, full = _programs()
    start = State.from_moves(n, "")
    for k in range(walks):
        assert Runner(fast).walk(start, 11, k) == Runner(full).walk(start, 11, k), (n, k)


def test_walks_from_a_saved_prefix_are_identical():
    fast, full = _programs()
    start = State.from_moves(13, "RRRRDDLLLLDDRRRRRRRRUUUU")
    for k in range(40):
        assert Runner(fast).walk(start, 5, k) == Runner(full).walk(start, 5, k)


def _lines(n, count, seed):
    """Random self-avoiding lines from the start (no rules: dead and split states too)."""
    rng = random.Random(seed)
    for _ in range(count):
        state = State.from_moves(n, "")
        for _ in range(rng.randrange(1, n * n)):
            moves = state.open_moves()
            if not moves:
                break
            state = state.after(rng.choice(moves))
        yield state


@pytest.mark.parametrize("n", [7, 9, 15])
def test_every_area_verdict_matches_on_random_lines(n):
    """With the bookkeeping started on the line, each direction's verdict equals the full analysis'."""
    fast, full = _programs()
    t = Tables.of(State.from_moves(n, "").board)
    arrays = fast.patterns.arrays()
    compared = 0
    for state in _lines(n, 150, n):
        if state.at_end():
            continue
        heading = "UDLR".index(state.moves[-1]) if state.steps else 1
        verdicts = []
        for program in (fast, full):
            taken = np.array(state.taken, dtype=np.uint8)
            scratch = t.scratch()  # the bookkeeping keeps its chain of cut cells there
            areas.track_init(t.nb, n, taken, program.area, scratch)
            mask = decide(program.order, t.nb, t.colour, n, t.end, taken, state.head, heading, state.free_count,
                          scratch, program.area, arrays, program.window, program.trig, program.ntrig)
            verdicts.append((mask, program.area[:4, 0].tolist()))
            areas.track_stop(program.area)
            assert np.array_equal(taken, state.taken)
        assert verdicts[0] == verdicts[1], state.compact()
        compared += 1
    assert compared > 100


def test_bookkeeping_counts_match_a_recount_along_a_walk_and_back():
    """track_take / track_release keep the cut count and the row windows equal to a fresh count, and never miss a split."""
    from labyrinth.rules._ring import ROW_WINDOWS
    n = 11
    t = Tables.of(State.from_moves(n, "").board)
    area = np.zeros((5, 3), dtype=np.int32)
    area[4, 0] = areas.GLOBAL
    for state in _lines(n, 30, 3):
        taken = np.zeros(n * n, dtype=np.uint8)
        taken[0] = 1
        scratch = t.scratch()
        areas.track_init(t.nb, n, taken, area, scratch)
        for cell in state.path[1:]:
            areas.track_take(n, taken, cell, area, scratch)
        counts = (int(area[4, 1]), int(area[4, 2]) >> 1 > 0)
        fresh = np.zeros((5, 3), dtype=np.int32)
        fresh[4, 0] = areas.GLOBAL
        fresh_scratch = t.scratch()
        areas.track_init(t.nb, n, taken.copy(), fresh, fresh_scratch)
        assert np.array_equal(scratch[ROW_WINDOWS], fresh_scratch[ROW_WINDOWS]), state.compact()
        # the cut count is exact; the split count only errs on the safe side (a line that used up a
        # part it had cut off leaves the rest connected, but the count still says "maybe split")
        assert counts[0] == fresh[4, 1] and (counts[1] or fresh[4, 2] >> 1 == 0), state.compact()
        for cell in reversed(state.path[1:]):
            areas.track_release(n, taken, cell, area, scratch)
        assert (area[4, 1], area[4, 2] >> 1) == (1, 0)  # the board minus its start corner has no cut cell
        areas.track_init(t.nb, n, taken.copy(), fresh, fresh_scratch)
        assert np.array_equal(scratch[ROW_WINDOWS], fresh_scratch[ROW_WINDOWS]), state.compact()
        areas.track_stop(area)


def _expected_chain(n, taken, nb, colour, end):
    """The cut cells of the free cells, head's side first, with the colour sum beyond each (plain recount)."""
    free = [c for c in range(n * n) if not taken[c]]
    if not free:
        return []

    def part_with_end(q):
        seen, stack = {end}, [end]
        while stack:
            v = stack.pop()
            for w in nb[v]:
                if w >= 0 and w != q and not taken[w] and w not in seen:
                    seen.add(w)
                    stack.append(w)
        return seen

    def parts(q):
        rest, k = set(free) - {q}, 0
        while rest:
            k += 1
            stack = [rest.pop()]
            while stack:
                v = stack.pop()
                for w in nb[v]:
                    if w in rest:
                        rest.discard(w)
                        stack.append(w)
        return k

    chain = []
    for q in free:
        if q != end and parts(q) > 1:
            beyond = part_with_end(q)
            chain.append((len(beyond), q, sum(int(colour[v]) for v in beyond)))
    chain.sort(reverse=True)
    return [(q, s) for _, q, s in chain]


def _replay(n, path, program, t, check):
    """Replay ``path`` with the bookkeeping, calling ``check(head, taken, scratch)`` before each decision."""
    arrays = program.patterns.arrays()
    scratch = t.scratch()
    taken = np.zeros(n * n, dtype=np.uint8)
    taken[path[0]] = 1
    area = program.area
    areas.track_init(t.nb, n, taken, area, scratch)
    for i in range(1, len(path)):
        head = path[i - 1]
        heading = int(np.nonzero(t.nb[path[i - 2]] == head)[0][0]) if i > 1 else 1
        free_count = n * n - i
        check(head, taken, scratch, area)
        decide(program.order, t.nb, t.colour, n, t.end, taken, head, heading, free_count, scratch, area, arrays,
               program.window, program.trig, program.ntrig)
        d = int(np.nonzero(t.nb[head] == path[i])[0][0])
        areas.track_step(t.nb, t.colour, n, t.end, taken, head, d, free_count - 1, area, scratch)
    areas.track_stop(area)


@pytest.mark.parametrize("n,seed,walks", [(5, 1, 60), (7, 2, 40), (9, 3, 30), (13, 4, 12), (21, 5, 6)])
def test_carried_chain_equals_a_recount_at_every_step(n, seed, walks):
    """The chain of cut cells carried along a walk is the recounted one, and its move mask keeps its promise."""
    from labyrinth.rules._chain import CUTS, KNOWN, SUMS

    fast, _ = _programs()
    t = Tables.of(State.from_moves(n, "").board)
    nb = t.nb.tolist()
    seen = {"valid": 0, "longest": 0}

    def check(head, taken, scratch, area):
        if not area[4, 2] & 1:
            return
        k = int(scratch[CUTS, 0])
        carried = [(int(scratch[CUTS, i]), int(scratch[SUMS, i])) for i in range(k, 0, -1)]
        expected = _expected_chain(n, taken, nb, t.colour, t.end)
        assert carried == expected
        seen["valid"] += 1
        seen["longest"] = max(seen["longest"], k)
        mask = int(scratch[SUMS, 0])
        if mask & KNOWN:
            beyond = [set() for _ in expected]
            for j, (q, _) in enumerate(expected):
                stack, part = [t.end], {t.end}
                while stack:
                    v = stack.pop()
                    for w in nb[v]:
                        if w >= 0 and w != q and not taken[w] and w not in part:
                            part.add(w)
                            stack.append(w)
                beyond[j] = part
            for d in range(4):
                c = nb[head][d]
                if c < 0 or taken[c]:
                    continue
                on_head_side = all(c not in part for part in beyond)
                if mask >> d & 1:
                    assert on_head_side
                else:
                    assert not on_head_side or c in {q for q, _ in expected}

    start = State.from_moves(n, "")
    for k in range(walks):
        path, _ = Runner(fast).walk(start, seed, k)
        _replay(n, path, fast, t, check)
    assert seen["valid"] > 0
    if n >= 13:
        assert seen["longest"] >= 5  # long chains (corridors along the border or an older line) occur


@pytest.mark.parametrize("n", [7, 11, 15])
def test_every_verdict_matches_along_random_lines_with_the_chain(n):
    """Along random lines (dead and split states too), each step's verdicts equal the full analysis'."""
    fast, full = _programs()
    t = Tables.of(State.from_moves(n, "").board)
    arrays = full.patterns.arrays()
    from labyrinth.rules._chain import PGEN, PKEY

    compared = {"all": 0, "with cut cells": 0, "pocket cache hits": 0, "two-part floods": 0}

    def check(head, taken, scratch, area):
        if head == t.end:
            return
        tk = taken.copy()
        free_count = int((tk == 0).sum())
        heading = 1
        decide(full.order, t.nb, t.colour, n, t.end, tk, head, heading, free_count, t.scratch(), full.area,
               arrays, full.window, full.trig, full.ntrig)
        check.expected = full.area[:4, 0].tolist()
        check.cuts = area[4, 1] > 1

    for state in _lines(n, 40, n + 1):
        path = list(state.path)
        arrays_fast = fast.patterns.arrays()
        scratch = t.scratch()
        taken = np.zeros(n * n, dtype=np.uint8)
        taken[path[0]] = 1
        area = fast.area
        areas.track_init(t.nb, n, taken, area, scratch)
        for i in range(1, len(path)):
            head = path[i - 1]
            free_count = n * n - i
            check(head, taken, scratch, area)
            decide(fast.order, t.nb, t.colour, n, t.end, taken, head, 1, free_count, scratch, area, arrays_fast,
                   fast.window, fast.trig, fast.ntrig)
            assert area[:4, 0].tolist() == check.expected, (state.compact(), i)
            compared["all"] += 1
            compared["with cut cells"] += int(check.cuts)
            d = int(np.nonzero(t.nb[head] == path[i])[0][0])
            areas.track_step(t.nb, t.colour, n, t.end, taken, head, d, free_count - 1, area, scratch)
        areas.track_stop(area)
        compared["pocket cache hits"] += int(scratch[PGEN, 1])
        compared["two-part floods"] += int(scratch[PKEY, 0])
    assert compared["with cut cells"] > 50
    # the pair checks of the chain verdict ran the two-part flood, and reused a carried pocket
    assert compared["two-part floods"] >= 20 and compared["pocket cache hits"] >= 1, compared


@pytest.mark.parametrize("n,seed,walks", [(9, 7, 30), (15, 8, 12), (21, 9, 8)])
def test_two_part_floods_and_the_pocket_cache_match_the_full_pocket_test(n, seed, walks):
    """Along walks, every pair of gates the 7x7 window leaves open gets pocket_ok's answer from pair_ok.

    pair_ok decides a pair from the pocket cache (Y carried over from earlier steps) or by the
    two-part flood; pocket_ok floods every part afresh. Both branches must be taken, often.
    """
    from labyrinth.rules._chain import MARK, PGEN, PKEY, pocket_ok
    from labyrinth.rules._pockets import pair_ok, pocket_reset
    from labyrinth.rules._ring import (
        _RX,
        _RY,
        _is_cut,
        _no_pocket_at,
        row_windows_init,
        row_windows_mark,
    )

    fast, _ = _programs()
    t = Tables.of(State.from_moves(n, "").board)
    nb, colour, end = t.nb, t.colour, t.end
    counts = {"pairs": 0, "refuted": 0, "hits": 0, "floods": 0}
    start = State.from_moves(n, "")
    for k in range(walks):
        path, _ = Runner(fast).walk(start, seed, k)
        scratch, fresh = t.scratch(), t.scratch()
        pocket_reset(scratch)
        scratch[MARK, :] = 0  # the floods' marks start clear (track_init clears them for the walker)
        fresh[MARK, :] = 0
        seeds = np.zeros(8, dtype=np.int32)
        taken = np.zeros(n * n, dtype=np.uint8)
        taken[path[0]] = 1
        row_windows_init(n, taken, scratch)
        for i in range(1, len(path)):
            head = int(path[i - 1])
            total = int(colour[0]) * (1 - i % 2)  # the free cells' colour sum (i cells taken)
            for d in range(4):
                c = int(nb[head, d])
                if c < 0 or taken[c] or c == end:
                    continue
                for e in range(4):
                    a = int(nb[c, e])
                    if a < 0 or taken[a] or a == end or _is_cut(n, taken, a):
                        continue
                    gates = _no_pocket_at(n, scratch, a, c, end, total * int(colour[a]), seeds)
                    if gates < 0:
                        continue
                    for j in range(8):
                        if gates >> j & 1:
                            p = a + _RY[j] * n + _RX[j]
                            expected = pocket_ok(nb, colour, taken, a, p, c, end, total, fresh, True)
                            got = pair_ok(nb, colour, n, taken, a, j, int(seeds[j]), c, head, end, total, scratch)
                            assert got == expected, (k, i, c, a, p)
                            counts["pairs"] += 1
                            counts["refuted"] += int(not expected)
            taken[path[i]] = 1
            row_windows_mark(n, scratch, path[i], 0)
        counts["hits"] += int(scratch[PGEN, 1])
        counts["floods"] += int(scratch[PKEY, 0])
    # the new branches are exercised, not only the fallback
    assert counts["hits"] >= 5 * walks and counts["floods"] >= 20 * walks, counts
    assert counts["refuted"] > 0, counts


def _ring_parts(free, i):
    """Plain count: the 4-connected parts of the free cells round {centre, ring cell i} touching a gate."""
    from labyrinth.rules._ring import _RX, _RY

    gates = {(3, 3), (3 + _RX[i], 3 + _RY[i])}
    ring = {(x + dx, y + dy) for x, y in gates for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - gates
    cells = {q for q in ring if free >> (7 * q[1] + q[0]) & 1}
    parts, seen = 0, set()
    for q in cells:
        touches = any(abs(q[0] - g[0]) + abs(q[1] - g[1]) == 1 for g in gates)
        if q in seen or not touches:
            continue
        parts += 1
        stack = [q]
        seen.add(q)
        while stack:
            x, y = stack.pop()
            for w in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if w in cells and w not in seen:
                    seen.add(w)
                    stack.append(w)
    return parts


def test_runs_round_a_gate_pair_bound_its_parts_and_agree_with_the_arcs():
    """_runs_round (runs along the cycle round {a, p}) is never below the parts, and one run means one part
    or none, as _arcs' flood counts them; the walker skips a pair on that test alone."""
    from labyrinth.rules._ring import _RX, _RY, _arcs, _runs_round

    rng = random.Random(7)
    one_run = several = 0
    for _ in range(4000):
        i = rng.randrange(8)
        free = rng.getrandbits(49) | rng.getrandbits(49)  # mostly free, as near the head
        gates = 1 << 24 | 1 << (24 + 7 * _RY[i] + _RX[i])
        free |= gates
        parts = _ring_parts(free, i)
        runs = int(_runs_round(free, i))
        assert int(_arcs(free, gates, 0)) & 255 == parts
        assert runs >= parts
        if runs <= 1:
            one_run += 1
            assert parts <= 1
        else:
            several += 1
    assert one_run > 500 and several > 500, (one_run, several)
