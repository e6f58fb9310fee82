"""Subtour: the line's linear relaxation with subtour cuts, each refutation checked in exact arithmetic (issue 40).

Give every edge between free cells (and from the head) a weight ``x`` in
[0, 1]. A completion, read as these weights (1 on its edges), meets every
*degree* equation: the head and the end corner one edge, every other free
cell two; and every *subtour cut*: a set S of free cells holding neither the
head nor the end corner is entered and left, so the edges leaving S weigh at
least 2 (Dantzig, Fulkerson and Johnson 1954; the relaxation of Held and Karp
1970). When no weights at all meet the equations and cuts, the state has no
completion. This is the black/white count of the research (a degree equation
per cell, summed with signs) and the cut condition (a region must be entered
and left) *added together with fractions*: the two-matching sees the counts,
the closure and the cut rule see each region, and this sees a few regions and
their counts at once.

The four dead states the oracle located among the stuck walks of
``strong++++ --on probe-cut:3`` at 61x61 and 101x101
(``reports/strong-gates-probe-cut-misses.md``) all fall this way: the degree
equations and two to five subtour cuts round pockets of 16 to 550 cells,
which no rule of that set refutes; so do 86 of the 88 first dead states of
the stuck walks stored for every sound set (``reports/subtour.md``).

The search (Dantzig, Fulkerson and Johnson's cutting planes): GLOP solves the
*phase-one* program (the degree equations and the cuts found so far, each
with a slack whose sum is minimised). A positive minimum refutes the state,
and its dual values are a certificate. A zero minimum gives weights that meet
the equations; the cuts they break join the program (the components of the
edges of positive weight without the head or the end corner; where there are
none, each free cell's minimum cut from the head and end corner, by OR-Tools'
max flow), for at most :data:`ROUNDS` rounds. Floating point only *finds* the refutation:
:func:`check` re-derives it in integers (the duals rounded to a common
denominator, Farkas' lemma with the [0, 1] bounds), and a refutation that
fails there counts as none. So the rule is sound whatever the solver's
tolerances: it closes a move only when the state after it has no completion.

A certificate a person can check (:class:`Refutation`): multiply each degree
equation by its cell's number and each cut by its region's number, add; every
edge's total coefficient ``w`` is at most what its weight can give (``max(w,
0)``), and the sum of the right-hand sides exceeds the sum of those maxima.

It is a *pausing* rule like the gates (:mod:`labyrinth.rules.gates`): no numba
kernel; the compiled walker asks it only about a move it would take that no
rule proved live.

>>> from labyrinth.engine import State
>>> state = State.from_moves(5, "RRRRDLLLLDRRRR")  # three rows drawn: the last two are still open
>>> refutation_of(state) is None                    # it has a completion
True
>>> dead = State.from_moves(5, "RRRRDDLLLU")        # (3,2) and (4,2) are a pocket the head can only enter
>>> check(dead.board, dead.taken, dead.head, refutation_of(dead))
True
"""

import dataclasses
import fractions
import math

import numpy as np

from labyrinth.rules.base import DISABLE, Effect

__all__ = ["MAX_FREE", "ROUNDS", "Refutation", "SubtourCuts", "check", "refutation", "refutation_of"]

#: rounds of cutting planes before the rule gives up (the move stays open): the dead states of the misses of issue 40
#: take 5 to 30 (bench/subtour.py); a live state seldom runs out of violated cuts, so it costs the whole budget
ROUNDS = 30
#: states with more free cells are not asked (no verdict): a live state costs its whole budget, 4.5 s with 4 000 free
#: cells and 11 to 14 s with 6 500 to 7 800; the 101x101 misses of issue 40 went dead with 1 800 to 6 500 free cells
MAX_FREE = 8000
#: cuts added a round at most (the violated regions found first)
CUTS_PER_ROUND = 60
#: the common denominator the duals are rounded to before the exact check
DENOMINATOR = 1 << 24
#: a phase-one minimum below this counts as zero (the weights meet the equations): then the cuts are separated
ZERO = 1e-7
#: a cut value below ``2 - SLACK`` is violated
SLACK = 1e-6
#: max-flow capacities are the weights times this
SCALE = 1 << 20


@dataclasses.dataclass(frozen=True)
class Refutation:
    """Why a state has no completion: a number per free cell's degree equation and per subtour cut's region.

    ``cells`` maps a cell (board index; the head included) to its equation's
    multiplier, ``regions`` pairs each region (a frozenset of free cells, no
    head, no end corner) with its cut's multiplier (>= 0). All are
    :class:`fractions.Fraction`. :func:`check` verifies it; :meth:`describe`
    says it in words.
    """

    cells: dict
    regions: tuple

    def describe(self, n):
        """One line: how many equations and which regions (their sizes and bounding boxes, 1-based)."""
        parts = []
        for region, _ in self.regions:
            xs = [c % n + 1 for c in region]
            ys = [c // n + 1 for c in region]
            parts.append(f"{len(region)} cells in x {min(xs)}-{max(xs)}, y {min(ys)}-{max(ys)}")
        used = sum(1 for v in self.cells.values() if v)
        return (f"the degree equations of {used} cells and the subtour cuts of {len(self.regions)} region(s) "
                f"({'; '.join(parts) or 'none'}) admit no weights")


def _graph(board, taken, head):
    """``(cells, edges, need)``: the free cells and the head (sorted), the edges among them (index pairs), each
    cell's degree in a completion."""
    free = np.flatnonzero(np.asarray(taken) == 0)
    cells = np.union1d(free, [head]).astype(np.int64)
    index = np.full(len(taken), -1, np.int64)
    index[cells] = np.arange(len(cells))
    nb = np.asarray(board.neighbours, dtype=np.int64)[cells]
    pairs = []
    for d in range(nb.shape[1]):
        other = nb[:, d]
        ok = other >= 0
        j = np.where(ok, index[np.where(ok, other, 0)], -1)
        keep = (j > np.arange(len(cells)))
        pairs.append(np.stack([np.flatnonzero(keep), j[keep]], axis=1))
    edges = np.concatenate(pairs) if pairs else np.empty((0, 2), np.int64)
    need = np.full(len(cells), 2, np.int64)
    need[index[head]] = 1
    need[index[board.end]] = 1
    return cells, edges, need


def refutation(board, taken, head, *, rounds=ROUNDS):
    """A :class:`Refutation` of the state (``taken``: its taken cells, the head among them; ``head``), or None.

    None when weights meet the degree equations and every subtour cut (the
    relaxation cannot refute it), when :data:`ROUNDS` rounds of cuts end
    undecided, when more than :data:`MAX_FREE` cells are free, or when the
    solver's refutation does not survive the exact check: never a guess. The
    head must not be the end corner.
    """
    from ortools.linear_solver import pywraplp

    taken = np.asarray(taken)
    if head == board.end or taken[board.end] or len(taken) - int(np.count_nonzero(taken)) > MAX_FREE:
        return None
    cells, edges, need = _graph(board, taken, head)
    m = len(cells)
    solver = pywraplp.Solver.CreateSolver("GLOP")
    # without presolve GLOP starts each round from the last basis: half the time of a refutation or a live state
    solver.SetSolverSpecificParametersAsString("use_preprocessing: false")
    x = [solver.NumVar(0.0, 1.0, "") for _ in range(len(edges))]
    incident = [[] for _ in range(m)]
    for e, (a, b) in enumerate(edges):
        incident[a].append(e)
        incident[b].append(e)
    slack = []
    degree = []
    for c in range(m):
        up, down = solver.NumVar(0.0, solver.infinity(), ""), solver.NumVar(0.0, solver.infinity(), "")
        slack += [up, down]
        degree.append(solver.Add(sum(x[e] for e in incident[c]) + up - down == int(need[c])))
    cuts = []  # (mask over cells, constraint, slack)
    objective = solver.Objective()
    for s in slack:
        objective.SetCoefficient(s, 1.0)
    objective.SetMinimization()
    head_i = int(np.searchsorted(cells, head))
    end_i = int(np.searchsorted(cells, board.end))
    for _ in range(rounds):
        if solver.Solve() != solver.OPTIMAL:
            return None
        if objective.Value() > ZERO:
            found = _certificate(cells, edges, need, degree, cuts)
            return found if found is not None and check(board, taken, head, found) else None
        weights = np.array([v.solution_value() for v in x])
        new = _violated(m, edges, weights, head_i, end_i)
        if not new:
            return None
        for mask in new:
            crossing = np.flatnonzero(mask[edges[:, 0]] != mask[edges[:, 1]])
            t = solver.NumVar(0.0, solver.infinity(), "")
            objective.SetCoefficient(t, 1.0)
            cuts.append((mask, solver.Add(sum(x[e] for e in crossing) + t >= 2), t))
    return None


def _violated(m, edges, weights, head_i, end_i):
    """Masks of regions (no head, no end corner) whose leaving edges weigh less than 2 under ``weights``.

    First the components of the edges of positive weight (a component with
    neither the head nor the end is left by nothing); where there are none, the
    minimum cut between each cell not yet in a found region and the head and
    end corner together (one max-flow graph a round).
    """
    from ortools.graph.python import max_flow

    support = weights > SLACK
    found = _components(m, edges[support], head_i, end_i)
    if found:
        return found[:CUTS_PER_ROUND]
    flow = max_flow.SimpleMaxFlow()
    caps = np.rint(weights * SCALE).astype(np.int64)
    live = caps > 0
    tail, head_ = edges[live, 0], edges[live, 1]
    flow.add_arcs_with_capacity(np.concatenate([tail, head_]), np.concatenate([head_, tail]),
                                np.concatenate([caps[live], caps[live]]))
    sink = m
    flow.add_arc_with_capacity(head_i, sink, 4 * SCALE)
    flow.add_arc_with_capacity(end_i, sink, 4 * SCALE)
    covered = np.zeros(m, bool)
    covered[[head_i, end_i]] = True
    out = []
    seen = set()
    for v in range(m):
        if covered[v]:
            continue
        if flow.solve(v, sink) != flow.OPTIMAL:
            continue
        if flow.optimal_flow() < (2 - SLACK) * SCALE - len(edges):
            side = np.asarray(flow.get_source_side_min_cut(), dtype=np.int64)
            side = side[side < m]
            key = side.tobytes()
            if key in seen:
                continue
            seen.add(key)
            mask = np.zeros(m, bool)
            mask[side] = True
            covered |= mask
            out.append(mask)
            if len(out) >= CUTS_PER_ROUND:
                break
    return out


def _components(m, edges, head_i, end_i):
    """Masks of the connected components of ``edges`` on ``m`` cells that hold neither ``head_i`` nor ``end_i``."""
    parent = np.arange(m)

    def root(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b in edges:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
    roots = np.array([root(a) for a in range(m)])
    out = []
    for r in np.unique(roots):
        mask = roots == r
        if not mask[head_i] and not mask[end_i]:
            out.append(mask)
    return out


def _certificate(cells, edges, need, degree, cuts):
    """The phase-one program's duals as a :class:`Refutation` (rounded to :data:`DENOMINATOR`; unchecked)."""
    multipliers = {}
    for c, row in zip(cells, degree):
        y = round(row.dual_value() * DENOMINATOR)
        if y:
            multipliers[int(c)] = fractions.Fraction(y, DENOMINATOR)
    regions = []
    for mask, row, _ in cuts:
        z = round(row.dual_value() * DENOMINATOR)
        if z > 0:
            regions.append((frozenset(int(c) for c in cells[mask]), fractions.Fraction(z, DENOMINATOR)))
    return Refutation(multipliers, tuple(regions))


def check(board, taken, head, found):
    """Does ``found`` (a :class:`Refutation`) prove that the state has no completion? Exact arithmetic only.

    Every completion gives each edge among the free cells and the head a
    weight 0 or 1 that meets each degree equation and leaves each region by
    weight >= 2. Adding the equations times ``found.cells`` and the cuts times
    ``found.regions``' numbers (>= 0) gives ``sum(w_e x_e) >= rhs``; since
    ``sum(w_e x_e) <= sum(max(w_e, 0))`` for weights in [0, 1], a right-hand side
    above that sum leaves no weights, hence no completion. Regions must hold
    free cells only, neither the head nor the end corner, and numbers >= 0.
    """
    taken = np.asarray(taken)
    if head == board.end or taken[board.end]:
        return False
    cells, edges, need = _graph(board, taken, head)
    where = {int(c): i for i, c in enumerate(cells)}
    if any(c not in where for c in found.cells):
        return False
    scale = math.lcm(*(f.denominator for f in found.cells.values()), *(z.denominator for _, z in found.regions), 1)
    y = np.zeros(len(cells), dtype=object)
    for c, f in found.cells.items():
        y[where[c]] = int(f * scale)
    w = y[edges[:, 0]] + y[edges[:, 1]]
    rhs = int(np.dot(y, need.astype(object)))
    for region, z in found.regions:
        if z < 0 or head in region or board.end in region or any(c not in where for c in region):
            return False
        mask = np.zeros(len(cells), bool)
        mask[[where[c] for c in region]] = True
        z = int(z * scale)
        w = w + np.where(mask[edges[:, 0]] != mask[edges[:, 1]], z, 0).astype(object)
        rhs += 2 * z
    return rhs > sum(max(int(v), 0) for v in w)


def refutation_of(state):
    """:func:`refutation` of a :class:`~labyrinth.engine.State` (None at the end corner or when complete)."""
    if state.at_end() or not state.free_count:
        return None
    return refutation(state.board, np.asarray(state.taken, dtype=np.uint8), state.head)


class SubtourCuts:
    """Disable a move after which the degree equations and subtour cuts admit no weights (checked exactly)."""

    name = "subtour"
    kind = DISABLE
    optional = True
    #: no numba kernel: the compiled walker of a sound set stops at the moves it must see (PausingRunner)
    pauses = True
    #: not a pattern rule
    spec = None
    summary = ("every free cell has two line edges (the head and the end one) and every region is entered and "
               "left: a move after which no fractional weights meet both is closed (linear programming with "
               "subtour cuts, each refutation checked exactly)")

    def __repr__(self):
        return f"{type(self).__name__}()"

    def move_dead(self, board, taken, head, d):
        """True when the state after the move ``d`` is refuted (what the pausing walker asks)."""
        return self.refute_move(board, taken, head, d) is not None

    def refute_move(self, board, taken, head, d):
        """The :class:`Refutation` of the state after the move ``d`` (``taken`` left as it was), or None."""
        b = int(board.neighbours[head][d])
        if b < 0 or b == board.end:
            return None
        taken[b] = 1
        try:
            return refutation(board, taken, b)
        finally:
            taken[b] = 0

    def effects(self, state):
        """A DISABLE effect per free move the relaxation refutes (the regions' cells as the trigger)."""
        from labyrinth.engine.board import MOVES

        board = state.board
        taken = np.array(state.taken, dtype=np.uint8)
        out = []
        for d, move in enumerate(MOVES):
            if move not in state.open_moves():
                continue
            found = self.refute_move(board, taken, state.head, d)
            if found is not None:
                cells = sorted({c for region, _ in found.regions for c in region})
                out.append(Effect(self.name, DISABLE, move, tuple(cells)))
        return out
