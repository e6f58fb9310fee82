"""The ``search`` backend: exact depth-first completion search compiled with numba.

Sound pruning (connectivity, dead ends, forced moves, cut-vertex order and
colour balance per block) with a Warnsdorff move order (fewest onward moves
first) that walks open boards to a witness with little or no backtracking.
A puzzle with kernels of its own runs on them (``Puzzle.kernels``: the
labyrinth's 4-move kernel :mod:`labyrinth.engine.search`; ties away from the
end); every other move graph, and
the labyrinth too when asked (``general=True``), on the general kernel
:mod:`labyrinth.core.search` (pruning: :mod:`labyrinth.core.prune`) (any degree; fixed or free end; a closed tour
becomes a fixed end on its first cell; ties nearer the board's edge first).
The search is resumable: it runs in node budgets between which the deadline
is checked, so a time limit costs nothing when unused and yields ``unknown``
when hit.
"""

import weakref
from collections import OrderedDict

import numpy as np

from labyrinth.core import blocks as gblocks
from labyrinth.core import prune as gprune
from labyrinth.core import search as gsearch
from labyrinth.engine import MOVES
from labyrinth.engine.graph import GraphTables
from oracle.base import Oracle, check_witness, expired

__all__ = ["SearchOracle", "crossing", "prune"]

_CHUNK = 20_000
#: Cell visits per deadline check: a node costs about one pass over the free
#: cells, so the chunk shrinks with the board (4 081 nodes at 7x7, 19 at
#: 101x101, 2 at 301x301) and the deadline is looked at every few milliseconds.
_CHUNK_WORK = 200_000
#: Expansions tried with the cheap pruning alone before the search restarts with
#: the two-cell cut check around the head (slower per node, far fewer nodes on hard states).
_FAST_NODES = 3_000
_POCKET_RADIUS = 2
#: The general kernel's restart rounds cycle through this many tie-break variants.
_VARIANTS = 8
#: Its pocket check's reach in moves from the head: none, as on the number and knight
#: boards it saved under 1% of the nodes at twice the time per node (``prune`` and
#: ``run`` still take a radius).
_GENERAL_POCKET_RADIUS = 0
#: Expansions of a round's short probes in other move orders (doubling each round).
_PROBE_NODES = 1_000
#: The attempts of one restart round: (move order, budget base; None: the state's own).
_ROUND = ((gsearch.WARNSDORFF, None), (gsearch.RANKED, _PROBE_NODES), (gsearch.REVERSE, _PROBE_NODES))
#: Bytes of the general kernel's dead-position table: its columns are the largest power
#: of two (at most 2**19) whose rows (keys, generation, head, the taken set's words) fit.
_TABLE_BYTES = 32 << 20
_TABLE_MAX_COLUMNS = 1 << 19
_TABLE = None
_GENERATION = 0
_ZOBRIST_SEED = 20240613
#: Tie-break arrays kept per move graph (one per fixed end and variant).
_RANKS_KEPT = 32


def _specialised(state, general):
    """True when ``state`` runs on its puzzle's own kernels (``Puzzle.kernels``), not the general ones."""
    return not general and getattr(state.puzzle, "kernels", None) is not None


def prune(state, radius=0, *, general=False):
    """Apply the search's pruning to ``state`` alone.

    ``radius`` > 0 adds the two-cell cut check around the head (Manhattan
    radius on the labyrinth's kernel, graph distance on the general one).
    Returns ``"dead"`` when a necessary condition fails (so no completion
    exists), else the forced move's name or ``None``. ``general`` runs the
    general kernel on a labyrinth state too.

    >>> from labyrinth.engine import State
    >>> prune(State.from_moves(5, "RRRRDLLL"))   # (1,2) is walled in: must go there now
    'L'
    >>> prune(State.from_moves(5, "RRRRDDLLLUL"))  # (1,2)...(1,5) can not all be reached
    'dead'
    >>> from labyrinth.core import PathState
    >>> from labyrinth.puzzles.numbers import numbers_puzzle
    >>> state = PathState.from_moves(numbers_puzzle(5), (1, 1), "SE,SE,W,N,SE")
    >>> prune(state)  # (5,2) has one way in: the end; (4,1) and (1,4) both need the next move
    'dead'
    >>> prune(PathState.from_moves(numbers_puzzle(5), (1, 1), "S,E,NW,S,E"))  # (4,1) is the end: (5,2) now
    'N'
    """
    if not _specialised(state, general):
        return _prune_general(state, radius)
    k = state.puzzle.kernels
    if state.at_end():
        return None if state.free_count == 0 else "dead"
    t = GraphTables.of(state.board)
    taken = np.array(state.taken, dtype=np.uint8)
    r = k.check(t.nb, t.colour, state.board.end, taken, state.head, state.free_count, t.work)
    if r == k.DEAD:
        return "dead"
    if radius and k.pockets(t.nb, t.colour, state.board.end, taken, state.head, state.free_count,
                            radius, t.work) != 0:
        return "dead"
    return None if r == k.OPEN else MOVES[r]


class SearchOracle(Oracle):
    """Exact depth-first search; ``node_limit`` bounds the expansions (None: unbounded)."""

    name = "search"

    def __init__(self, time_limit=None, node_limit=None, *, general=False):
        super().__init__(time_limit)
        self.node_limit = node_limit
        self.general = general  # the general kernel on labyrinth states too

    def _decide(self, state, deadline):
        return self._decide_budget(state, deadline, self.node_limit)

    def _decide_budget(self, state, deadline, limit):
        """Search with at most ``limit`` expansions (None: unbounded) -> (feasible, witness, work)."""
        if not _specialised(state, self.general):
            return _decide_general([state], deadline, limit)[1:]
        k = state.puzzle.kernels
        first = _FAST_NODES if limit is None else min(_FAST_NODES, limit)
        status, witness, work = self.run(state, deadline, first, radius=0)
        if status == k.BUDGET and (limit is None or limit > first) and not expired(deadline):
            rest = None if limit is None else limit - first
            status, witness, more = self.run(state, deadline, rest, radius=_POCKET_RADIUS)
            work = {k: work[k] + more[k] for k in work}
        if status == k.FOUND:
            return True, witness, work
        if status == k.EXHAUSTED:
            return False, None, work
        return None, None, work

    def _first_step(self, state, deadline):
        """A closed tour from its first cell alone: every first move's state searched side by side."""
        if _specialised(state, self.general):
            return super()._first_step(state, deadline)
        moves = state.open_moves()
        afters = [state.after(m) for m in moves]
        for move, after in zip(moves, afters):
            if after.free_count == 0 and check_witness(after, ""):
                return True, move, {}
        hard = [i for i, after in enumerate(afters) if after.free_count]
        i, feasible, witness, work = _decide_general([afters[i] for i in hard], deadline, self.node_limit)
        if feasible:
            sep = state.board.separator
            return True, moves[hard[i]] + (sep + witness if witness else ""), work
        return feasible, None, work

    def run(self, state, deadline=None, node_limit=None, radius=0, variant=0):
        """Search ``state``; returns ``(status, witness, work)`` with a kernel status code.

        ``radius`` > 0 adds the two-cell cut check within that distance of the head;
        ``variant`` picks the general kernel's tie-break (0: deterministic rank alone).
        """
        if not _specialised(state, self.general):
            return _run_general(state, deadline, node_limit, radius, variant)
        k = state.puzzle.kernels
        board = state.board
        t = GraphTables.of(board)
        size = board.size
        taken = np.array(state.taken, dtype=np.uint8)
        path = np.empty(size + 1, dtype=np.int32)
        base = len(state.path) - 1
        path[: base + 1] = state.path
        frame = np.array([-1, state.free_count], dtype=np.int64)
        cand = np.zeros((size + 1, 4), dtype=np.int8)
        ncand = np.zeros(size + 1, dtype=np.int8)
        idx = np.zeros(size + 1, dtype=np.int8)
        counters = np.zeros(2, dtype=np.int64)
        status = _in_chunks(lambda budget: k.search(t.nb, t.colour, board.end, taken, path, base, frame, cand, ncand,
                                                    idx, t.work, t.rank, radius, budget, counters),
                            k.BUDGET, size, counters, node_limit, deadline)
        work = {"nodes": int(counters[0]), "backtracks": int(counters[1])}
        witness = None
        if status == k.FOUND:
            witness = board.spell(path[base: int(frame[0]) + 1])
        return status, witness, work


# --- any move graph: the general kernel ---------------------------------------------------


class _Area:
    """The question "a path from ``entry`` through every cell of ``cells`` ending on ``exit_``" as a state of the
    general kernel: the cells outside taken, the line one cell long (``entry``), ``exit_`` its fixed end."""

    cycle = False

    def __init__(self, graph, cells, entry, exit_):
        self.board = graph
        self.taken = np.ones(graph.size, dtype=np.uint8)
        self.taken[np.asarray(cells, dtype=np.int64)] = 0
        self.taken[exit_] = 0
        self.taken[entry] = 1
        self.path = (int(entry),)
        self.head = int(entry)
        self.end = int(exit_)
        self.free_count = int(graph.size - int(self.taken.sum()))


def crossing(graph, cells, entry, exit_, node_limit):
    """Is there a path from ``entry`` through every cell of ``cells`` (a set of cells of ``graph``) that ends
    on ``exit_``? True, False, or None past ``node_limit`` expansions of the general kernel.

    The restart rounds of the exact search (:func:`_decide_general`), counted in
    nodes, not seconds: the same question gets the same answer on every machine.
    The gates (:mod:`labyrinth.rules.gates`) ask it of the areas between
    single-cell gates, where Warnsdorff's order crosses most live areas of a
    few hundred grid cells without backtracking.

    >>> from labyrinth.engine import Board
    >>> board = Board(5)
    >>> row = [board.cell(x, 1) for x in range(1, 6)]                    # the top row
    >>> crossing(board, row, row[0], row[-1], 100), crossing(board, row, row[1], row[-1], 100)
    (True, False)
    """
    area = _Area(graph, cells, entry, exit_)
    if area.free_count == 0:
        return entry == exit_
    return _decide_general([area], None, node_limit)[1]


class _Tables:
    """Arrays of one move graph for the general kernel (cached per graph): read-only tables,
    and scratch and per-depth arrays shared by its searches, one at a time (as the
    labyrinth's :class:`GraphTables` share ``work``)."""

    _cache = weakref.WeakKeyDictionary()

    def __init__(self, graph):
        self.graph = weakref.ref(graph)
        self.nb = np.ascontiguousarray(graph.neighbours, dtype=np.int32)
        self.colour = np.ascontiguousarray(graph.colour, dtype=np.int32)
        cells = np.arange(graph.size)
        x, y = cells % graph.width, cells // graph.width
        self.edge = np.minimum(np.minimum(x, graph.width - 1 - x), np.minimum(y, graph.height - 1 - y))
        self.work = np.zeros((gprune.SCRATCH_ROWS, graph.size + 1), dtype=np.int32)
        # Zobrist keys of the taken cells (two 64-bit hashes) and of the head, fixed per graph
        bits = np.random.default_rng(_ZOBRIST_SEED).integers(-2**63, 2**63 - 1, size=(4, graph.size),
                                                             dtype=np.int64)
        self.zob = np.ascontiguousarray(bits)
        # the search's per-depth arrays, reused run after run (each run writes before it reads)
        k = max(1, self.nb.shape[1])
        self.path = np.zeros(graph.size + 1, dtype=np.int32)
        self.ends = np.zeros(graph.size + 1, dtype=np.int64)
        self.fpos = np.zeros(graph.size, dtype=np.int32)
        self.cand = np.zeros((graph.size + 1, k), dtype=np.int32)
        self.ncand = np.zeros(graph.size + 1, dtype=np.int32)
        self.idx = np.zeros(graph.size + 1, dtype=np.int32)
        self.info = np.zeros(gprune.INFO_LEN, dtype=np.int64)
        self._ranks = OrderedDict()

    @classmethod
    def of(cls, graph):
        t = cls._cache.get(graph)
        if t is None:
            t = cls._cache[graph] = cls(graph)
        return t

    def rank(self, end, variant):
        """Warnsdorff's tie-break, smallest first: farther from a fixed end (moves over the
        whole board), then nearer the board's edge; variant v > 0 breaks the remaining
        ties by a permutation seeded with v, else they fall to move order."""
        key = (end, variant)
        r = self._ranks.get(key)
        if r is None:
            size = self.nb.shape[0]
            primary = self.edge.astype(np.int64)
            if end >= 0:
                dist = gprune.distances(self.nb, end)
                far = int(dist.max())
                dist[dist < 0] = far
                primary = (far - dist) * (int(self.edge.max()) + 1) + primary
            if variant:
                primary = primary * size + np.random.default_rng(variant).permutation(size)
            r = self._ranks[key] = np.ascontiguousarray(primary, dtype=np.int64)
            if len(self._ranks) > _RANKS_KEPT:
                self._ranks.popitem(last=False)
        return r


def _question(state):
    """``(taken, end, free_count)`` for the general kernel: a closed tour's first cell
    is given back as free and becomes the fixed end its last step returns to."""
    taken = np.array(state.taken, dtype=np.uint8)
    if state.cycle:
        first = state.path[0]
        taken[first] = 0
        return taken, first, state.free_count + 1
    end = state.end
    return taken, (gprune.FREE_END if end is None else end), state.free_count


def _prune_general(state, radius):
    if state.at_end():
        return None if state.free_count == 0 else "dead"
    if state.free_count == 0 or (state.cycle and len(state.path) < 2):
        return None  # complete (or not: no pruning decides that), or a tour's first cell alone
    t = _Tables.of(state.board)
    taken, end, free_count = _question(state)
    freel = np.flatnonzero(taken == 0).astype(np.int32)
    r = gprune.check(t.nb, t.colour, end, taken, state.head, free_count, freel, t.work, t.info)
    if r == gprune.DEAD:
        return "dead"
    eff = int(t.info[0])
    if radius and gblocks.pockets(t.nb, t.colour, eff, taken, state.head, free_count, freel, radius,
                                    t.work) != gblocks.PASS:
        return "dead"
    return None if r == gprune.OPEN else state.board.move_between(state.head, int(r))


def _decide_general(states, deadline, limit):
    """Is one of ``states`` alive? Restarts on the general kernel -> ``(index, feasible, witness, work)``.

    Round r gives every state still open three attempts (:data:`_ROUND`):
    Warnsdorff's order with budget (_FAST_NODES + free cells) * 2**r, then two
    short probes in other orders (by rank alone, and most onward moves first)
    with _PROBE_NODES * 2**r, each with the round's tie-break variant
    r % _VARIANTS; ``limit`` caps the sum of expansions. Every attempt is an
    exact search: one that exhausts its tree proves its state dead, so the
    restarts only reorder the work, and a state whose first attempts get lost
    in a dead subtree does not hold up the others. The probes rescue the
    irregular leftovers where Warnsdorff keeps making the same wrong choice.
    """
    work = {"nodes": 0, "backtracks": 0, "full_checks": 0, "memo_hits": 0, "restarts": -1}
    generation = _generation()  # one question: dead positions stay dead across the attempts
    live = list(range(len(states)))
    scale = 1
    round_ = 0
    while live:
        for i in list(live):
            for order, base in _ROUND:
                this = (base or _FAST_NODES + states[i].free_count) * scale
                if limit is not None:
                    this = min(this, limit - work["nodes"])
                    if this <= 0:
                        return None, None, None, work
                status, witness, more = _run_general(states[i], deadline, this, _GENERAL_POCKET_RADIUS,
                                                     round_ % _VARIANTS, order=order, generation=generation)
                work["restarts"] += 1
                for key in ("nodes", "backtracks", "full_checks", "memo_hits"):
                    work[key] += more[key]
                if status == gsearch.FOUND:
                    return i, True, witness, work
                if status == gsearch.EXHAUSTED:
                    live.remove(i)
                    break
                if expired(deadline):
                    return None, None, None, work
        round_ += 1
        scale *= 2
    return None, False, None, work


def _in_chunks(search, budget_status, size, counters, node_limit, deadline):
    """Run a resumable search kernel, ``search(budget)``, a chunk of nodes at a time: its last status.

    Between chunks the deadline is looked at; ``node_limit`` (nodes in all,
    ``counters[0]`` counting them) ends it with ``budget_status``.
    """
    chunk = max(1, min(_CHUNK, _CHUNK_WORK // size))
    while True:
        budget = chunk
        if node_limit is not None:
            budget = min(budget, node_limit - int(counters[0]))
            if budget <= 0:
                return budget_status
        status = search(budget)
        if status != budget_status or expired(deadline):
            return status


def _memo(words):
    """The dead-position table of the general kernel for taken sets of ``words`` 64-bit words
    (shared: a new generation per question; rebuilt when the board's word count changes)."""
    global _TABLE
    if _TABLE is None or _TABLE.shape[0] != 4 + words:
        rows = 4 + words
        columns = 1 << max(4, min(_TABLE_MAX_COLUMNS.bit_length() - 1, (_TABLE_BYTES // (8 * rows)).bit_length() - 1))
        _TABLE = np.zeros((rows, columns), dtype=np.int64)
    return _TABLE


def _bitset(taken):
    """The taken cells as 64-bit words, cell c at bit c % 64 of word c // 64 (the kernel's ``tbits``)."""
    words = (len(taken) + 63) // 64
    bits = np.zeros(words * 64, dtype=np.uint8)
    bits[: len(taken)] = taken != 0
    return np.packbits(bits, bitorder="little").view("<u8").astype(np.int64)


def _generation():
    global _GENERATION
    _GENERATION += 1
    return _GENERATION


def _run_general(state, deadline, node_limit, radius, variant=0, audit=False, order=gsearch.WARNSDORFF,
                 generation=None):
    """:meth:`SearchOracle.run` on the general kernel (status codes are the same).

    ``audit`` (tests) double-checks every skipped check: ``work["audit_failures"]`` counts disagreements.
    """
    board = state.board
    if state.cycle and len(state.path) < 2:
        raise ValueError("a closed tour's first cell alone: decide each first move (Oracle._first_step)")
    t = _Tables.of(board)
    size = board.size
    taken, end, free_count = _question(state)
    rank = t.rank(end, variant)
    path, ends, fpos, cand, ncand, idx = t.path, t.ends, t.fpos, t.cand, t.ncand, t.idx
    base = len(state.path) - 1
    path[: base + 1] = state.path
    h = np.bitwise_xor.reduce(t.zob[:2, taken.astype(bool)], axis=1)
    frame = np.array([-1, free_count, -1, h[0], h[1], _generation() if generation is None else generation],
                     dtype=np.int64)
    freel = np.flatnonzero(taken == 0).astype(np.int32)
    fpos[freel] = np.arange(len(freel), dtype=np.int32)
    counters = np.zeros(5, dtype=np.int64)
    tbits = _bitset(taken)
    table = _memo(len(tbits))
    status = _in_chunks(lambda budget: gsearch.search(t.nb, t.colour, end, taken, path, base, frame, cand, ncand,
                                                       idx, t.work, t.info, rank, order, radius, budget, counters,
                                                       ends, freel, fpos, t.zob, table, tbits, audit),
                        gsearch.BUDGET, size, counters, node_limit, deadline)
    work = {"nodes": int(counters[0]), "backtracks": int(counters[1]), "full_checks": int(counters[2]),
            "memo_hits": int(counters[4])}
    if audit:
        work["audit_failures"] = int(counters[3])
    witness = None
    if status == gsearch.FOUND:
        cells = path[base: int(frame[0]) + 1]
        if state.cycle:
            cells = cells[:-1]  # the step back onto the first cell closes the tour: not a move
        witness = board.spell(cells)
    return status, witness, work
