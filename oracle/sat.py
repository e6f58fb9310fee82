"""SAT backend: one incremental solver per move graph, states as assumptions, lazy subtour cuts.

Each move graph (for the labyrinth: each board size) gets one
:class:`~oracle.sat_encode.Encoding` loaded into one pysat solver; states of
every puzzle on that graph (fixed end, free end, closed tour) share it, their
differences being only assumptions. A query solves under the state's assumptions; a model whose arcs
are a single path from the head covering every visited (for facts queries:
every required) cell is a witness. A model with subtours is first spliced: its
subtours are joined to the path by exchanges of two edges where possible
(2x2 squares on the grid; any two edges whose ends are pairwise one move apart
on other graphs: :func:`oracle.sat_splice.splice_subtours`), which yields a witness
from that same model. Failing that, the query adds cuts -- for every subtour,
for every region of touching subtours, and for the cells off the path (the
path must reach beyond its present cells) -- and solves again. Cuts are valid
for every state and stay in the solver, so they also serve later queries of
the same size. Every non-trivial query calls the solver at least once; UNSAT
verdicts come from the solver alone.

Time limits. pysat's ``interrupt()`` is implemented only by the MiniSat-like
solvers (Glucose, MapleChrono, Minisat, ...); for CaDiCaL (1.0.3, 1.5.3, 1.9.5)
it raises ``NotImplementedError`` -- and raised inside a ``threading.Timer``
that error is merely printed by the timer thread while the solve runs on to the
end. CaDiCaL does honour conflict budgets in ``solve_limited``, so for solvers
without ``interrupt`` a deadline is enforced by solving in conflict-budget
slices sized from the measured conflict rate, checking the clock between
slices; for the others a ``Timer`` calls ``interrupt()``. Which mechanism
applies is probed once per solver. Either way a query that runs out of time
answers None (unknown), never a guess. Slicing costs CaDiCaL about 10% on a
long (15 s) refutation; deadlines overshoot by some milliseconds. Lingeling
has neither ``interrupt()`` nor ``solve_limited`` and cannot take a time limit.
"""

import threading
import time

from pysat.solvers import Solver

from oracle.base import BuildExpired, Oracle, OracleBug, expired
from oracle.sat_encode import Encoding, encoding_graph
from oracle.sat_splice import splice_subtours

__all__ = ["SatOracle"]

#: Clauses handed to a new solver between two looks at the deadline.
_LOAD_CHUNK = 50_000
#: First conflict budget of a sliced (CaDiCaL) solve under a deadline.
_FIRST_SLICE = 2000
#: Largest factor by which a slice may exceed the previous one.
_SLICE_GROWTH = 4
#: Longest a slice is aimed to run (seconds), bounding the overshoot of a deadline.
_SLICE_SECONDS = 0.25


class _Session:
    """One move graph: its encoding, its solver and the cuts learnt so far."""

    def __init__(self, graph, solver_name, splice=True, deadline=None):
        self.enc = Encoding(graph, deadline, partial=True)
        self.solver = Solver(name=solver_name)
        self._loaded = 0  # clauses handed to the solver so far; None once all are
        self.cut_sets = set()
        self.cut_clauses = 0
        # cut options, fixed to the measured best; tests and benchmarks may flip them
        self.leaving, self.compact, self.escape, self.cut_first = False, True, True, False
        self.splice = splice
        self.interruptible = _probe_interrupt(self.solver)
        self.advance(deadline)

    @property
    def ready(self):
        """Whether the formula is built and loaded (a session cut short by a deadline is not, yet)."""
        return self._loaded is None

    def advance(self, deadline):
        """Build and load on until ready (True) or ``deadline`` passes (False): the next query goes on from there.

        A million cells take minutes to encode, so work cut short is kept, not
        thrown away (freeing it would cost seconds past the deadline too).
        """
        if self._loaded is None:
            return True
        if not self.enc.resume(deadline):
            return False
        clauses = self.enc.clauses
        while self._loaded < len(clauses):
            if expired(deadline):
                return False
            self.solver.append_formula(clauses[self._loaded:self._loaded + _LOAD_CHUNK])
            self._loaded += _LOAD_CHUNK
        self._loaded = None
        return True

    def close(self):
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def conflicts(self):
        try:
            return int(self.solver.accum_stats().get("conflicts", 0))
        except (AttributeError, NotImplementedError, TypeError):
            return 0

    def run(self, assumptions, deadline, work, required=None, max_conflicts=None):
        """The lazy loop: solve, cut the model's subtours (or splice them in), repeat.

        Parameters
        ----------
        assumptions : list of int
        deadline : float or None
            A ``time.perf_counter()`` value.
        work : dict
            Counters, updated in place.
        required : set of int, optional
            For facts queries: the cells a witness must visit; a model's path
            covering them is accepted whatever its subtours (they only hold
            optional cells, which may be skipped). None: every visited cell.
        max_conflicts : int, optional
            A conflict budget for the whole loop: past it the answer is None,
            as for the deadline, but the same on every machine.

        Returns
        -------
        (status, path, core)
            ``status`` True with the cells of a single path from the head
            covering the model's visited cells; False with the solver's core
            over ``assumptions``; None (and no path, no core) when the deadline
            passed.
        """
        c0 = self.conflicts()
        try:
            while True:
                budget = None if max_conflicts is None else max_conflicts - (self.conflicts() - c0)
                status = self._solve(assumptions, deadline, work, budget)
                if status is None:
                    return None, None, None
                if not status:
                    return False, None, list(self.solver.get_core() or ())
                decoded = self.enc.decode(self.solver.get_model(), deadline)
                if decoded.is_single_path:
                    return True, decoded.path, None
                if required is not None and set(decoded.path) >= required:
                    return True, decoded.path, None
                # A model with subtours: splice them into the path if possible (a witness
                # from this very model); otherwise cut every subtour, every region of
                # touching subtours and the path's own cell set (it must reach beyond
                # them), and solve again. (Cutting before a successful splice too,
                # ``cut_first``, was measured slower: the cuts pile up for little use.)
                cut_now = set()
                if self.cut_first:
                    self._cut(decoded.cycles, "cycles", cut_now, work, deadline)
                    self._cut(decoded.regions, "regions", cut_now, work, deadline)
                if self.splice:
                    path = splice_subtours(self.enc.board, decoded, required, deadline)
                    if path is not None:
                        work["spliced"] += 1
                        return True, path, None
                if not self.cut_first:
                    self._cut(decoded.cycles, "cycles", cut_now, work, deadline)
                    self._cut(decoded.regions, "regions", cut_now, work, deadline)
                if self.escape:
                    self._cut([self.enc.all_cells - frozenset(decoded.path)], "escapes", cut_now, work, deadline)
        except BuildExpired:  # reading, splicing or cutting a model of a big board ran past the deadline
            return None, None, None
        except KeyboardInterrupt:
            # a solver stopped by Ctrl-C mid-call is in an invalid state: drop it, never query it
            self.close()
            raise
        finally:
            if self.solver is not None:
                work["conflicts"] += self.conflicts() - c0
            work["cuts_total"] = self.cut_clauses

    def _cut(self, sets, kind, cut_now, work, deadline=None):
        """Add the cuts of each set in ``sets`` (none of which the model satisfies) to the solver.

        ``cut_now`` holds the sets already cut for this model, which may recur
        under another kind (a region that is a single subtour); any other
        repeat means a cut failed to hold, a bug. Past ``deadline`` (looked at
        every 64 sets) :class:`~oracle.base.BuildExpired` is raised; the cuts
        added so far stay, valid as every cut is.
        """
        for i, cells in enumerate(sets):
            if not (i + 1) % 64 and expired(deadline):
                raise BuildExpired
            if cells in cut_now:
                continue
            if cells in self.cut_sets:
                raise OracleBug(f"{kind}: {sorted(cells)} came back after its cut")
            cut_now.add(cells)
            self.cut_sets.add(cells)
            clauses = self.enc.subtour_cuts(cells, leaving=self.leaving, compact=self.compact)
            self.solver.append_formula(clauses)
            self.cut_clauses += len(clauses)
            work["cuts"] += len(clauses)
            work[kind] += 1

    def _solve(self, assumptions, deadline, work, budget=None):
        """One SAT call (True/False), or None if ``deadline`` passed or the conflict ``budget`` ran out first."""
        work["sat_calls"] += 1
        s = self.solver
        if budget is not None:
            if budget <= 0:
                return None
            if deadline is None or self.interruptible:
                s.conf_budget(budget)
                if deadline is None:
                    return s.solve_limited(assumptions=assumptions)
        if deadline is None:
            return s.solve(assumptions=assumptions)
        if time.perf_counter() >= deadline:
            return None
        if self.interruptible:
            timer = threading.Timer(max(0.0, deadline - time.perf_counter()), s.interrupt)
            timer.start()
            try:
                return s.solve_limited(assumptions=assumptions, expect_interrupt=True)
            finally:
                timer.cancel()
                timer.join()
                s.clear_interrupt()
        cap, budget = budget, _FIRST_SLICE
        while True:
            t0, c0 = time.perf_counter(), self.conflicts()
            if cap is not None:
                budget = min(budget, cap)
            s.conf_budget(budget)
            status = s.solve_limited(assumptions=assumptions)
            if status is not None:
                return status
            now = time.perf_counter()
            if cap is not None:
                cap -= self.conflicts() - c0
                if cap <= 0:
                    return None
            if now >= deadline:
                return None
            spent, done = now - t0, self.conflicts() - c0
            grown = budget * _SLICE_GROWTH
            if spent > 0 and done > 0:
                # aim the next slice at half the time left, and at most _SLICE_SECONDS
                aim = min(_SLICE_SECONDS, (deadline - now) / 2)
                grown = min(grown, int(done / spent * aim) + 1)
            budget = max(100, grown)
            work["slices"] = work.get("slices", 0) + 1


def _probe_interrupt(solver):
    """True if ``solver.interrupt()`` works (MiniSat-like), False if unsupported (CaDiCaL)."""
    try:
        solver.interrupt()
    except NotImplementedError:
        return False
    solver.clear_interrupt()
    return True


class SatOracle(Oracle):
    """Exact oracle by incremental SAT with lazily learnt, state-independent subtour cuts.

    Parameters
    ----------
    time_limit : float or None
        Default seconds per query; None waits for the answer.
    solver : str
        A pysat solver name (default ``"cadical153"``). CaDiCaL is timed by
        conflict-budget slices, MiniSat-like solvers by ``interrupt()``.
    splice : bool
        When a model has subtours, first try to splice them into the path by
        two-edge exchanges (:func:`~oracle.sat_splice.splice_subtours`); on
        success that path is the witness, saving further SAT calls, otherwise
        they are cut. False leaves the subtours to the cuts alone (slower; for
        testing the cuts).

    Notes
    -----
    ``Verdict.work`` counters: ``sat_calls``; ``cuts`` (cut clauses added by
    this query) and ``cuts_total`` (cut clauses in this graph's solver);
    ``cycles``, ``regions``, ``escapes`` (cut sets added, by kind);
    ``spliced`` (1 if the witness came from splicing subtours); ``conflicts``
    (solver conflicts during this query); ``slices`` (budget slices that ran
    out, CaDiCaL under a time limit).

    Any puzzle on any move graph: one session per graph (``Board(n)`` is one
    object per size, so the labyrinth keeps one per board size). Not
    thread-safe: one solver per graph is shared by all queries.

    Examples
    --------
    >>> from labyrinth.engine import State
    >>> with SatOracle() as o:
    ...     o.decide(State.from_moves(3, "RR")).feasible, o.decide(State.from_moves(3, "RD")).feasible
    (True, False)
    """

    name = "sat"

    def __init__(self, time_limit=None, solver="cadical153", *, splice=True):
        super().__init__(time_limit)
        self.solver_name = solver
        self.splice = splice
        self._sessions = {}

    def _session(self, graph, deadline=None):
        """The session of a move graph (an int n: the labyrinth's ``Board(n)``), built on first use.

        None if ``deadline`` passed while building it (the next query goes on building).
        """
        graph = encoding_graph(graph)
        s = self._sessions.get(graph)
        if s is None or s.solver is None:
            s = self._sessions[graph] = _Session(graph, self.solver_name, self.splice, deadline)
        elif not s.advance(deadline):
            return None
        return s if s.ready else None

    def _decide(self, state, deadline):
        """Solve the state's assumptions with lazy cuts; witness moves when feasible."""
        sess = self._session(state.board, deadline)
        work = _new_work()
        if sess is None:
            return None, None, work
        status, path, _ = sess.run(sess.enc.state_assumptions(state), deadline, work)
        if not status:
            return status, None, work
        return True, state.board.spell(path), work

    def decide_facts(self, n, head, end, status, *, time_limit=None, never_last=(), max_conflicts=None):
        """Decide a facts query; an infeasible one comes with a core expressed as facts.

        Parameters
        ----------
        n : int
            Board size.
        head : int
            The cell where the path must start.
        end : int or None
            The cell where it must end (None: anywhere).
        status : sequence of str or mapping
            Per cell :data:`~oracle.sat_encode.TAKEN` (not visited),
            :data:`~oracle.sat_encode.REQUIRED` (visited) or
            :data:`~oracle.sat_encode.OPTIONAL` (either); a mapping leaves
            missing cells optional. The head's status is ignored (always visited).
        time_limit : float or None
            Seconds for this query; defaults to the oracle's ``time_limit``.
        never_last : iterable of int
            With ``end`` None: cells where the path may not end.
        max_conflicts : int, optional
            A conflict budget (the same on every machine, unlike a time
            limit); past it the answer is None, as for a timeout.

        Returns
        -------
        feasible : bool or None
            None if the time ran out.
        core : FactsCore or None
            When infeasible: the facts (and head/last flags) of the solver's core;
            these facts alone, every other cell optional, are infeasible too.
        path : tuple of int or None
            When feasible: the cells of a path from ``head`` to ``end`` visiting
            every required cell, no taken cell and any optional ones.
        """
        limit = self.time_limit if time_limit is None else time_limit
        deadline = None if limit is None else time.perf_counter() + limit
        sess = self._session(n, deadline)
        if sess is None:
            return None, None, None
        work = _new_work()
        lits = sess.enc.facts_assumptions(head, end, status, never_last)
        required = {sess.enc.key(lit)[1] for lit in lits if lit > 0 and sess.enc.key(lit)[0] == "visit"}
        feasible, path, core = sess.run(lits, deadline, work, required, max_conflicts)
        if feasible is None:
            return None, None, None
        if not feasible:
            return False, sess.enc.core_facts(core), None
        return True, None, path

    def close(self):
        """Delete every solver; cuts learnt so far are lost."""
        for sess in self._sessions.values():
            sess.close()
        self._sessions.clear()


def _new_work():
    return {"sat_calls": 0, "cuts": 0, "cycles": 0, "regions": 0, "escapes": 0, "spliced": 0,
            "cuts_total": 0, "conflicts": 0}
