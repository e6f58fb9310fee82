"""Numba kernel of the exhaustive audit: a keep-left walk of a subtree that asks the search at every node.

At each node the rule set's open moves are walked (keep-left order, as the
enumerator does); every free move the rules close is decided by the oracle's
search kernel on a copy of the state (a feasible one is *over-pruned*). On
the way back up, an open move whose subtree holds no walkthrough is decided
too: dead means *missed dead*, kept only for the topmost dead state of a dead
subtree. A move along which a walkthrough was found is alive at no cost.
"""

import collections

import numpy as np
from numba import njit

from labyrinth.engine.graph import descend
from labyrinth.engine.search import BUDGET, EXHAUSTED, FOUND, search
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

# What a visit reads and fills, grouped (numba takes named tuples of arrays as they are; none changes shape
# during an audit):
#: the board's tables (:class:`labyrinth.rules.frame.Tables`)
Board = collections.namedtuple("Board", "nb colour n end rank")
#: the rule program's arrays (``perfect``: the search is the rule), its scratch space, and ``fired`` (closures per rule)
Program = collections.namedtuple("Program", "order pat scratch area window trig ntrig fired perfect")
#: the oracle's search space: copies of the state, its stacks, and the node budget of one query
Query = collections.namedtuple("Query", "taken path cand ncand idx scratch budget")
#: the walk down the tree: cells taken, the path, and per depth the open moves, the next one, and a walkthrough below
Tree = collections.namedtuple("Tree", "taken path cand ncand idx good")
#: what the audit finds: ``records`` and ``counters`` (see :func:`audit_subtree`)
Out = collections.namedtuple("Out", "records counters")


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
    size = start.board.size
    t = Tables.of(start.board)
    board = Board(t.nb, t.colour, t.n, t.end, t.rank)
    cap = 256
    while True:
        fired = np.zeros(max(1, len(program.order)), dtype=np.int64)
        rules = Program(program.order, program.patterns.arrays(), t.scratch(), program.area, program.window,
                        program.trig, program.ntrig, fired, perfect)
        query = Query(np.empty(size, dtype=np.uint8), np.empty(size + 1, dtype=np.int32),
                      np.zeros((size + 1, 4), dtype=np.int8), np.zeros(size + 1, dtype=np.int8),
                      np.zeros(size + 1, dtype=np.int8), t.scratch(), query_budget)
        path = np.zeros(size, dtype=np.int32)
        path[: len(start.path)] = start.path
        tree = Tree(np.array(start.taken, dtype=np.uint8), path, np.zeros((size, 3), dtype=np.int8),
                    np.zeros(size, dtype=np.int8), np.zeros(size, dtype=np.int8), np.zeros(size, dtype=np.uint8))
        out = Out(np.zeros((cap, size + 3), dtype=np.int32), np.zeros(6, dtype=np.int64))
        if audit_subtree(board, rules, query, tree, out, len(start.path) - 1):
            return out.records[: out.counters[0]], out.counters, fired
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
def _query(board, query, taken, path, depth, w, counters):
    """Search the state ``path[:depth + 1]`` + ``w`` on the copies of ``query``; returns the kernel's status."""
    q_taken, q_path, q_cand, q_ncand, q_idx, scratch, budget = query
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
    status = search(board.nb, board.colour, board.end, q_taken, q_path, base, frame, q_cand, q_ncand, q_idx, scratch,
                    board.rank, 0, budget, qc)
    counters[3] += 1
    counters[4] += qc[0]
    return status


@njit(cache=True)
def audit_subtree(board, rules, query, tree, out, base):
    """Audit every node below ``tree.path[:base + 1]`` (whose cells ``tree.taken`` marks).

    Parameters
    ----------
    board : Board
        The board's tables.
    rules : Program
        The rule program; with ``rules.perfect`` the rules are the search
        itself (the ``oracle`` rule set): a move is open exactly when the
        search finds a completion after it; the audit of such a tree is its
        count: every walkthrough found and no stuck leaf. ``rules.fired[i]``
        counts the moves rule ``rules.order[i]`` closed (see
        :func:`labyrinth.rules.program.attribute`).
    query : Query
        The oracle's search space and node budget.
    tree : Tree
        The walk: cells taken and path to ``base``, and room per depth.
    out : Out
        ``records[k] = (kind, depth, direction, path[0..depth])``; ``counters``
        = (records, walkthroughs, stuck leaves, oracle queries, search nodes,
        tree nodes).
    base : int
        The depth of the subtree's root.

    Returns
    -------
    bool
        False if ``out.records`` filled up (run again with more room).
    """
    nb = board.nb
    taken, path, cand, ncand, idx, good = tree
    counters = out.counters
    mark = np.zeros(taken.shape[0], dtype=np.int64)
    depth = base
    if not _visit(board, rules, query, tree, out, depth):
        return False
    mark[depth] = counters[0]
    while True:
        if idx[depth] < ncand[depth]:
            depth = descend(nb, cand, idx, path, taken, depth)
            w = path[depth]
            mark[depth] = counters[0]
            if not _visit(board, rules, query, tree, out, depth):
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
            status = _query(board, query, taken, path, depth, w, counters)
            if status == FOUND:
                continue  # alive: the rules closed something feasible further down (recorded there)
            # dead (or unknown): only the topmost dead state of a dead subtree is kept
            counters[0] = mark[depth + 1]
            if not _record(out.records, counters, MISSED_DEAD if status != BUDGET else UNKNOWN, path, depth,
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
def _visit(board, rules, query, tree, out, depth):
    """Enter the node at ``depth``: count it, settle leaves, query the moves the rules close, list the open ones."""
    nb, colour, n, end, _rank = board
    order, pat, scratch, area, window, trig, ntrig, fired, perfect = rules
    taken, path, cand, ncand, idx, good = tree
    records, counters = out
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
            status = _query(board, query, taken, path, depth, w, counters)
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
        status = _query(board, query, taken, path, depth, w, counters)
        if status == FOUND or status == BUDGET:
            if not _record(records, counters, OVER_PRUNED if status == FOUND else UNKNOWN, path, depth, d):
                return False
    k = order_keep_left(mask, heading, cand, depth)
    ncand[depth] = k
    if k == 0:
        counters[2] += 1
    return True
