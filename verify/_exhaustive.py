"""Numba kernel of the exhaustive audit: a keep-left walk of a subtree that asks the search at every node.

At each node the rule set's open moves are walked (keep-left order, as the
enumerator does); every free move the rules close is decided by the oracle's
search kernel on a copy of the state (a feasible one is *over-pruned*). On
the way back up, an open move whose subtree holds no walkthrough is decided
too: dead means *missed dead*, kept only for the topmost dead state of a dead
subtree. A move along which a walkthrough was found is alive at no cost.
"""

import numpy as np
from numba import njit

from labyrinth.engine._graph import descend
from labyrinth.engine._search import BUDGET, EXHAUSTED, FOUND, search
from labyrinth.errors import TimeLimitError
from labyrinth.rules.program import attribute, decide
from labyrinth.rules.walks import heading_at, order_keep_left

__all__ = ["MISSED_DEAD", "OVER_PRUNED", "UNKNOWN", "audit_subtree", "count_subtree", "run_subtree"]

OVER_PRUNED = 1
MISSED_DEAD = 2
UNKNOWN = 3
_ = (EXHAUSTED, FOUND)


#: search nodes one query may expand before its move is recorded as unknown
QUERY_BUDGET = 50_000_000


def run_subtree(start, rules, query_budget=QUERY_BUDGET):
    """Run :func:`audit_subtree` below the :class:`~labyrinth.engine.State` ``start`` under ``rules``.

    ``rules`` is a compiled rule set, or the ``oracle`` set (no ``program``:
    the kernel's search is then the rule). Returns ``(records, counters,
    fired)`` as the kernel fills them, the records cut to those made.
    """
    from labyrinth.rules.frame import Tables

    perfect = not rules.compiled()
    if perfect:
        from labyrinth.rules import get_rule_set

        program = get_rule_set("none").program()  # its arrays fill the kernel's signature; never asked
    else:
        program = rules.program()
    board = start.board
    t = Tables.of(board)
    cap = 256
    while True:
        taken = np.array(start.taken, dtype=np.uint8)
        path = np.zeros(board.size, dtype=np.int32)
        path[: len(start.path)] = start.path
        records = np.zeros((cap, board.size + 3), dtype=np.int32)
        counters = np.zeros(6, dtype=np.int64)
        fired = np.zeros(max(1, len(program.order)), dtype=np.int64)
        done = audit_subtree(program.order, t.nb, t.colour, t.n, t.end, program.patterns.arrays(), t.rank, taken,
                             path, len(start.path) - 1, records, counters, query_budget, t.scratch(), program.area,
                             program.window, program.trig, program.ntrig, fired, perfect)
        if done:
            return records[: counters[0]], counters, fired
        cap *= 8


def count_subtree(start, rules):
    """Walkthroughs, stuck walks and nodes below ``start`` under ``rules``, counted by :func:`run_subtree`.

    The whole-subtree counter :func:`labyrinth.engine.walker.enumerate_walks`
    takes as ``subtree``; under the ``oracle`` set the kernel's search opens
    exactly the feasible moves. A move the search cannot decide within its
    node budget is a :class:`~labyrinth.errors.TimeLimitError`: the count is
    never guessed.
    """
    records, counters, _ = run_subtree(start, rules)
    if any(int(row[0]) == UNKNOWN for row in records):
        raise TimeLimitError("the search ran out of its node budget deciding a move", source=start.compact())
    return int(counters[1]), int(counters[2]), int(counters[5])


@njit(cache=True)
def _query(nb, colour, end, taken, path, depth, w, q_taken, q_path, q_cand, q_ncand, q_idx, scratch, rank,
           budget, counters):
    """Search the state ``path[:depth + 1]`` + ``w`` on copies; returns the kernel's status."""
    size = taken.shape[0]
    free_count = 0
    for c in range(size):
        q_taken[c] = taken[c]
        if not taken[c]:
            free_count += 1
    for i in range(depth + 1):
        q_path[i] = path[i]
    base = depth
    if w >= 0:
        base = depth + 1
        q_path[base] = w
        q_taken[w] = 1
        free_count -= 1
    frame = np.empty(2, dtype=np.int64)
    frame[0] = -1
    frame[1] = free_count
    qc = np.zeros(2, dtype=np.int64)
    status = search(nb, colour, end, q_taken, q_path, base, frame, q_cand, q_ncand, q_idx, scratch, rank, 0,
                    budget, qc)
    counters[3] += 1
    counters[4] += qc[0]
    return status


@njit(cache=True)
def audit_subtree(order, nb, colour, n, end, pat,
                  rank, taken, path, base, records, counters, query_budget, scratch, area, window, trig, ntrig,
                  fired, perfect=False):
    """Audit every node below ``path[:base + 1]`` (whose cells ``taken`` marks).

    ``records[k] = (kind, depth, direction, path[0..depth])``; ``counters`` =
    (records, walkthroughs, stuck leaves, oracle queries, search nodes, tree
    nodes). Returns False if ``records`` filled up (run again with more room).
    With ``perfect`` the rules are the search itself (the ``oracle`` rule set):
    a move is open exactly when the search finds a completion after it; the
    audit of such a tree is its count: every walkthrough found and no stuck
    leaf. ``fired[i]`` counts the moves rule ``order[i]`` closed (see
    :func:`labyrinth.rules.program.attribute`).
    """
    size = n * n
    cand = np.zeros((size, 3), dtype=np.int8)
    ncand = np.zeros(size, dtype=np.int8)
    idx = np.zeros(size, dtype=np.int8)
    good = np.zeros(size, dtype=np.uint8)
    mark = np.zeros(size, dtype=np.int64)
    q_taken = np.empty(size, dtype=np.uint8)
    q_path = np.empty(size + 1, dtype=np.int32)
    q_cand = np.zeros((size + 1, 4), dtype=np.int8)
    q_ncand = np.zeros(size + 1, dtype=np.int8)
    q_idx = np.zeros(size + 1, dtype=np.int8)
    q_scratch = np.empty_like(scratch)
    depth = base
    if not _visit(order, nb, colour, n, end, pat,
                  rank, taken, path, depth, cand, ncand, idx, good, records, counters, query_budget, scratch, area,
                  window, trig, ntrig, q_taken, q_path, q_cand, q_ncand, q_idx, q_scratch, fired, perfect):
        return False
    mark[depth] = counters[0]
    while True:
        if idx[depth] < ncand[depth]:
            depth = descend(nb, cand, idx, path, taken, depth)
            w = path[depth]
            mark[depth] = counters[0]
            if not _visit(order, nb, colour, n, end, pat, rank, taken, path, depth, cand, ncand, idx, good, records,
                          counters, query_budget,
                          scratch, area, window, trig, ntrig, q_taken, q_path, q_cand, q_ncand, q_idx, q_scratch,
                          fired, perfect):
                return False
        else:
            if depth == base:
                return True
            w = path[depth]
            child_good = good[depth]
            taken[w] = 0
            depth -= 1
            if child_good:
                good[depth] = 1
                continue
            # no walkthrough below this open move: is its state dead?
            status = _query(nb, colour, end, taken, path, depth, w, q_taken, q_path, q_cand, q_ncand, q_idx,
                            q_scratch, rank, query_budget, counters)
            if status == FOUND:
                continue  # alive: the rules closed something feasible further down (recorded there)
            # dead (or unknown): only the topmost dead state of a dead subtree is kept
            counters[0] = mark[depth + 1]
            if not _record(records, counters, MISSED_DEAD if status != BUDGET else UNKNOWN, path, depth,
                           _dir(nb, path[depth], w)):
                return False


@njit(cache=True)
def _dir(nb, a, b):
    for d in range(4):
        if nb[a, d] == b:
            return d
    return -1


@njit(cache=True)
def _record(records, counters, kind, path, depth, d):
    k = counters[0]
    if k >= records.shape[0]:
        return False
    records[k, 0] = kind
    records[k, 1] = depth
    records[k, 2] = d
    for i in range(depth + 1):
        records[k, 3 + i] = path[i]
    counters[0] = k + 1
    return True


@njit(cache=True)
def _visit(order, nb, colour, n, end, pat, rank,
           taken, path, depth, cand, ncand, idx, good, records, counters, query_budget, scratch, area, window, trig,
           ntrig, q_taken, q_path, q_cand, q_ncand, q_idx, q_scratch, fired, perfect):
    """Enter a node: count it, settle leaves, query the moves the rules close, list the open ones."""
    size = n * n
    head = path[depth]
    counters[5] += 1
    good[depth] = 0
    idx[depth] = 0
    ncand[depth] = 0
    if head == end:
        if depth == size - 1:
            counters[1] += 1
            good[depth] = 1
        else:
            counters[2] += 1
        return True
    free_count = size - depth - 1
    heading = heading_at(nb, path, depth)
    if perfect:  # open exactly the moves the search finds feasible; the rest are dead, or unknown (recorded)
        mask = 0
        for d in range(4):
            w = nb[head, d]
            if w < 0 or taken[w]:
                continue
            status = _query(nb, colour, end, taken, path, depth, w, q_taken, q_path, q_cand, q_ncand, q_idx,
                            q_scratch, rank, query_budget, counters)
            if status == FOUND:
                mask |= 1 << d
            elif status == BUDGET and not _record(records, counters, UNKNOWN, path, depth, d):
                return False
    else:
        mask = decide(order, nb, colour, n, end, taken, head, heading, free_count, scratch,
                      area, pat, window, trig, ntrig)
        free = 0
        for d in range(4):
            w = nb[head, d]
            if w >= 0 and not taken[w]:
                free |= 1 << d
        if mask != free:
            attribute(order, nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window, trig,
                      ntrig, fired)
    for d in range(4):
        if perfect:
            break
        w = nb[head, d]
        if w < 0 or taken[w] or (mask >> d) & 1:
            continue
        status = _query(nb, colour, end, taken, path, depth, w, q_taken, q_path, q_cand, q_ncand, q_idx,
                        q_scratch, rank, query_budget, counters)
        if status == FOUND or status == BUDGET:
            if not _record(records, counters, OVER_PRUNED if status == FOUND else UNKNOWN, path, depth, d):
                return False
    k = order_keep_left(mask, heading, cand, depth)
    ncand[depth] = k
    if k == 0:
        counters[2] += 1
    return True
