"""CNF encoding of Hamiltonian completion: one formula per move graph, states given as assumptions.

The formula describes a set of arcs between adjacent cells (cells one move
apart on the graph) in which every visited cell has exactly one way in (an
arc, or being the ``head``) and exactly one way out (an arc, or being the
``last`` cell); 2-cycles are excluded outright, and on the labyrinth's grid
2x2 cycles too (on other graphs no longer cycle is excluded statically). Such
an arc set is one path plus disjoint cycles; cycles are removed lazily by
*subtour cuts* (:meth:`Encoding.subtour_cuts`), clauses that hold for every
state and so stay in the solver for later queries. A state (or
a set of *facts* for core minimisation) only fixes assumption literals: which
cell is the head, which may be the last, which cells must or must not be
visited. The puzzle's end mode is only a matter of ``last`` literals: one
fixed last cell; any free cell (free end); or the free cells one move from the
path's first cell (a closed tour: the path, closed by that move, is the cycle).

Variables live in a :class:`pysat.formula.IDPool` keyed by readable tuples:

``("visit", c)``
    the remaining path passes through cell ``c``;
``("arc", a, b)``
    ``b`` follows ``a`` on the remaining path;
``("head", c)`` / ``("last", c)``
    the remaining path starts / ends at ``c``;
``("aux", tag, k)``
    the ``k``-th auxiliary variable of the cardinality encodings named ``tag``
    (``"amo-head"``, ``"amo-last"``: sequential counters);
``("cut", k, "in")`` / ``("cut", k, "out")``
    the ``k``-th cut's "S is entered" / "S is left" disjunction (compact cuts).

Decoding a model and reading a core go through the pool's reverse lookup
(:meth:`IDPool.obj`), never through arithmetic on variable ids
(:mod:`oracle.sat_decode`, whose :class:`Decoded`, :class:`FactsCore` and
facts statuses this module gives too).
"""

import numpy as np
from pysat.formula import IDPool

from labyrinth.core.graph import MoveGraph
from labyrinth.engine.board import Board
from oracle.base import BuildExpired, expired
from oracle.sat_decode import _BLOCK, OPTIONAL, REQUIRED, TAKEN, Decoded, FactsCore, _Decoding

__all__ = ["Decoded", "Encoding", "FactsCore", "OPTIONAL", "REQUIRED", "TAKEN", "encoding_graph", "is_grid"]

_STATUSES = (TAKEN, REQUIRED, OPTIONAL)

#: The jumps of the unit-step grid (the labyrinth's moves, in any order): its 2x2 squares are 4-cycles.
_GRID_DELTAS = frozenset({(0, -1), (0, 1), (-1, 0), (1, 0)})


def encoding_graph(graph):
    """The move graph an :class:`Encoding` (or a SAT session) is built on: an int n means the labyrinth's ``Board(n)``."""
    return graph if isinstance(graph, MoveGraph) else Board(graph)


def is_grid(graph):
    """True for the unit-step grid (the labyrinth's move graph): 2x2 exchanges and 2x2 cycle clauses apply."""
    return frozenset(graph.deltas) == _GRID_DELTAS


class Encoding(_Decoding):
    """The CNF of one-path-plus-cycles on a move graph, with its readable variable pool.

    Parameters
    ----------
    graph : MoveGraph or int
        The move graph; an int n means the labyrinth's ``Board(n)`` (odd, >= 3).
    deadline : float or None
        A ``time.perf_counter()`` value: past it the build stops (a million
        cells take a minute), raising :class:`~oracle.base.BuildExpired`, or
        with ``partial`` leaving the formula half built for :meth:`resume`.

    Attributes
    ----------
    board : MoveGraph
        The graph (a :class:`~labyrinth.engine.Board` for the labyrinth).
    pool : pysat.formula.IDPool
        Every variable of :attr:`clauses` (auxiliaries included) has a readable key.
    clauses : list of tuple of int
        The static formula (tuples: once seen by the garbage collector they are not
        scanned again, where lists would make each full collection walk millions of them);
        cuts are produced separately by :meth:`subtour_cuts`.

    Examples
    --------
    >>> enc = Encoding(3)
    >>> enc.pool.obj(enc.arc(0, 1)), enc.pool.obj(enc.visit(4))
    (('arc', 0, 1), ('visit', 4))
    """

    def __init__(self, graph, deadline=None, *, partial=False):
        self.board = encoding_graph(graph)
        self.all_cells = frozenset(range(self.board.size))
        self.pool = IDPool()
        self.clauses = []
        self._aux_counts = {}
        self._steps = self._build()  # a generator: it yields every 256-4096 cells, where the deadline is looked at
        if not self.resume(deadline) and not partial:
            raise BuildExpired

    @property
    def complete(self):
        """Whether :attr:`clauses` holds the whole static formula (a build cut short by a deadline does not)."""
        return self._steps is None

    def resume(self, deadline=None):
        """Build on until the formula is complete (True) or ``deadline`` passes (False; the work so far is kept)."""
        steps = self._steps
        if steps is None:
            return True
        for _ in steps:
            if expired(deadline):
                return False
        self._steps = None
        return True

    # --- variables ----------------------------------------------------------
    def visit(self, cell):
        """Variable: the path passes through ``cell``."""
        return self.pool.id(("visit", cell))

    def arc(self, a, b):
        """Variable: ``b`` is the successor of ``a`` (adjacent cells only)."""
        return self.pool.id(("arc", a, b))

    def head(self, cell):
        """Variable: the path starts at ``cell``."""
        return self.pool.id(("head", cell))

    def last(self, cell):
        """Variable: the path ends at ``cell``."""
        return self.pool.id(("last", cell))

    def key(self, lit):
        """The readable key of a literal's variable (None if the id is unknown)."""
        return self.pool.obj(abs(lit))

    # --- static formula -----------------------------------------------------
    def _build(self):
        """Add the static formula to :attr:`clauses`, yielding between blocks of work (see :meth:`resume`)."""
        b = self.board
        size = b.size
        cells = range(size)
        # neighbour lists a block of rows at a time (one tolist() per block, not a numpy row per cell)
        nbrs = []
        for start in range(0, size, _BLOCK):
            yield
            nbrs.extend([v for v in row if v >= 0] for row in b.neighbours[start:start + _BLOCK].tolist())
        # register the readable variables first, in a fixed order (their ids kept in arrays for the assumptions)
        visits, heads, lasts = [], [], []
        for c in cells:
            if not c % _BLOCK:
                yield
            visits.append(self.visit(c))
        for c in cells:
            if not c % _BLOCK:
                yield
            heads.append(self.head(c))
            lasts.append(self.last(c))
        self._ids = tuple(np.array(ids, dtype=np.int64) for ids in (heads, lasts, visits))
        del visits, heads, lasts
        for a in cells:
            if not a % _BLOCK:
                yield
            for d in nbrs[a]:
                self.arc(a, d)
        add = self.clauses.append
        for c in cells:
            if not c & 255:
                yield
            v = self.visit(c)
            outs = [self.arc(c, d) for d in nbrs[c]] + [self.last(c)]
            ins = [self.arc(d, c) for d in nbrs[c]] + [self.head(c)]
            for group in (outs, ins):
                # sum(group) == visit(c): each member implies the visit, a visit needs one,
                # and at most one holds (pairwise: at most five literals, no auxiliaries)
                for x in group:
                    add((-x, v))
                add((-v, *group))
                self._pairwise(group)
        # no 2-cycles
        for a in cells:
            if not a % _BLOCK:
                yield
            for d in nbrs[a]:
                if a < d:
                    add((-self.arc(a, d), -self.arc(d, a)))
        # no 2x2 cycles, either orientation (the grid's only 4-cycles)
        if is_grid(b):
            w = b.width
            for y in range(b.height - 1):
                yield
                for x in range(w - 1):
                    sq = (y * w + x, y * w + x + 1, (y + 1) * w + x + 1, (y + 1) * w + x)
                    for r in (sq, sq[::-1]):
                        add((-self.arc(r[0], r[1]), -self.arc(r[1], r[2]), -self.arc(r[2], r[3]),
                             -self.arc(r[3], r[0])))
        # at most one head, at most one last (sequential counters)
        for var, tag in ((self.head, "amo-head"), (self.last, "amo-last")):
            lits = []
            for start in range(0, size, _BLOCK):
                yield
                lits.extend(var(c) for c in range(start, min(size, start + _BLOCK)))
            yield from self._sequential(lits, tag)

    def _pairwise(self, lits):
        """Add ``sum(lits) <= 1`` as one clause per pair (the clauses of pysat's ``EncType.pairwise``, in its order)."""
        add = self.clauses.append
        for i, a in enumerate(lits):
            for b in lits[i + 1:]:
                add((-a, -b))

    def _sequential(self, lits, tag):
        """Add ``sum(lits) <= 1`` as a sequential counter whose auxiliaries are ``("aux", tag, k)``.

        The clauses and their order are those of pysat's ``EncType.seqcounter``
        (Sinz 2005: ``s_i`` means "one of the first i literals holds"), built here
        in linear time, yielding every :data:`_BLOCK` literals for a look at the deadline:
        pysat's own builds them in time quadratic in the literals (33 s for the
        90 601 cells of 301x301, hours for a million), in one uninterruptible call.
        """
        n = len(lits)
        if n < 2:
            return
        add = self.clauses.append
        if n == 2:
            add((-lits[0], -lits[1]))
            return
        k0 = self._aux_counts.get(tag, 0)
        self._aux_counts[tag] = k0 + n - 1
        s = []
        for k in range(n - 1):
            if not k % _BLOCK:
                yield
            s.append(self.pool.id(("aux", tag, k0 + k)))
        add((-lits[0], s[0]))
        for i in range(1, n - 1):
            if not i % _BLOCK:
                yield
            add((-s[i - 1], s[i]))
            add((-lits[i], -s[i - 1]))
            add((-lits[i], s[i]))
        add((-lits[-1], -s[-1]))

    # --- cuts ------------------------------------------------------------------
    def subtour_cuts(self, cells, *, leaving=False, compact=True):
        """Clauses forbidding ``cells`` from holding visited cells cut off from the head.

        For each ``v`` in the set S: ``visit(v)`` implies the path starts in S
        or some arc enters S from outside. With ``leaving``, also: ``visit(v)``
        implies the path ends in S or some arc leaves S. Both hold for every
        state, so the clauses can stay in the solver for all later queries.

        Parameters
        ----------
        cells : iterable of int
            The set S (typically a subtour found in a model).
        leaving : bool
            Also add the symmetric "end in S or leave S" clauses.
        compact : bool
            Name the long disjunction once: a fresh variable ``("cut", k, "in")``
            (resp. ``"out"``) implies it, and ``visit(v)`` implies the variable.
            Equivalent under unit propagation to the |S| long clauses
            ``-visit(v) | heads(S) | arcs into S`` it replaces, at a fraction of
            the size. With ``compact=False`` those long clauses are produced.

        Returns
        -------
        list of list of int
        """
        s = set(cells)
        b = self.board
        entering = [self.head(c) for c in sorted(s)]
        exiting = [self.last(c) for c in sorted(s)]
        for c in sorted(s):
            for d in b.neighbours_of(c):
                if d not in s:
                    entering.append(self.arc(d, c))
                    exiting.append(self.arc(c, d))
        sides = [("in", entering)] + ([("out", exiting)] if leaving else [])
        out = []
        k = self._aux_counts.get("cut", 0)
        self._aux_counts["cut"] = k + 1
        for side, lits in sides:
            if compact:
                e = self.pool.id(("cut", k, side))
                out.append([-e] + lits)
                out.extend([-self.visit(c), e] for c in sorted(s))
            else:
                out.extend([-self.visit(c)] + lits for c in sorted(s))
        return out

    # --- assumptions -----------------------------------------------------------
    def state_assumptions(self, state):
        """Assumption literals for a state of any puzzle on this graph.

        The head is the path's start; taken cells other than the head are not
        visited; free cells and the head are. Where the path may end follows the
        puzzle: a fixed end cell is the last (the labyrinth's end corner); with
        a free end only the taken cells are ruled out; for a closed tour
        (``state.cycle``) the last cell must be one move from ``state.path[0]``,
        so ``last`` is false everywhere else. A closed tour whose path is only
        its first cell is not a state this encoding can express (the oracle
        tries each first move instead: :meth:`~oracle.base.Oracle.decide`).
        """
        b = self.board
        if state.board is not b:
            raise ValueError(f"a state of {state.board!r} given to the encoding of {b!r}")
        h, e = state.head, state.end
        taken = state.taken
        heads, lasts, visits = self._ids
        cells = np.arange(b.size)
        on = (taken == 0) | (cells == h)
        lits = np.empty((b.size, 3), dtype=np.int64)  # per cell: head, last, visit (0: no assumption)
        lits[:, 0] = np.where(cells == h, heads, -heads)
        lits[:, 2] = np.where(on, visits, -visits)
        if e is not None:
            lits[:, 1] = np.where(cells == e, lasts, -lasts)
            return lits.ravel().tolist()
        not_last = ~on
        if state.cycle:
            first = state.path[0]
            if first == h:
                raise ValueError("a closed tour needs its first move before the encoding can take it")
            ends = np.zeros(b.size, dtype=bool)
            ends[[int(c) for c in b.neighbours[first] if c >= 0 and (c == h or not taken[c])]] = True
            not_last |= ~ends
        lits[:, 1] = np.where(not_last, -lasts, 0)
        flat = lits.ravel()
        return flat[flat != 0].tolist()

    def facts_assumptions(self, head, end, status, never_last=()):
        """Assumption literals for a facts query.

        Parameters
        ----------
        head : int
            The cell where the path must start.
        end : int or None
            The cell where the path must end; None lets it end anywhere.
        never_last : iterable of int
            With ``end`` None: cells where the path may not end (free cells
            known not to be the end corner).
        status : sequence of str or mapping
            Per cell one of :data:`TAKEN`, :data:`REQUIRED`, :data:`OPTIONAL`;
            a mapping leaves missing cells optional. The head's own status is
            ignored: the head is always visited, as the path's first cell.

        Returns
        -------
        list of int
        """
        size = self.board.size
        for name, cell in (("head", head), ("end", end)):
            if cell is None and name == "end":
                continue
            if not 0 <= cell < size:
                raise ValueError(f"{name} cell {cell} is off the {self.board.width}x{self.board.height} board")
        if hasattr(status, "items"):
            status = [status.get(c, OPTIONAL) for c in range(size)]
        elif len(status) != size:
            raise ValueError(f"status has {len(status)} entries, expected {size}")
        lits = []
        never_last = frozenset(never_last)
        for c in range(size):
            lits.append(self.head(c) if c == head else -self.head(c))
            if end is not None:
                lits.append(self.last(c) if c == end else -self.last(c))
            elif c in never_last:
                lits.append(-self.last(c))
            if c == head:
                lits.append(self.visit(c))
                continue
            st = status[c]
            if st == TAKEN:
                lits.append(-self.visit(c))
            elif st == REQUIRED:
                lits.append(self.visit(c))
            elif st != OPTIONAL:
                raise ValueError(f"cell {c}: status {st!r} is not one of {_STATUSES}")
        return lits
