"""A CP-SAT model of the magic knight's tour: ``AddCircuit`` over the knight's graph, positions, linear sums.

OR-Tools CP-SAT's circuit constraint (``CpModel.add_circuit``) makes the true
arcs one cycle through every node. The nodes are the cells and one *dummy*
node: the arcs dummy -> c and c -> dummy choose the cells numbered first and
last, so the cycle is the tour (a closed tour also needs its last cell a
knight's move from the first: ``last(c) => OR(first(d), d a knight's move from c)``).
Each cell has a position ``pos[c]`` in 0..size-1 (its number minus one):

* an arc u -> v forces ``pos[v] = pos[u] + 1``; first(c) forces ``pos[c] = 0``,
  last(c) ``pos[c] = size - 1``;
* rows, columns (and diagonals) are linear sums of positions;
* central symmetry: ``pos[rot c] = pos[c] + size/2`` or ``pos[c] = pos[rot c] + size/2``
  (a literal per pair of cells: see :mod:`labyrinth.puzzles.knight.magic`);
* redundant: ``AllDifferent(pos)``, and parity: a knight changes colour at
  every move, so a cell's position is even or odd by its colour, the same
  way on every cell (one literal: the colour of the first cell).

It is exact on any board (tests compare its counts with brute force on small
boards), but on 8x8 it finds no semi-magic tour within minutes where the
dedicated search (:mod:`._magic_kernel`) enumerates the symmetric ones in
seconds: ``reports/knight_magic.md`` has the figures.
"""

from ortools.sat.python import cp_model

from labyrinth.puzzles.knight._magic_common import FOUND, NONE, UNKNOWN

__all__ = ["build", "count_cpsat", "solve_cpsat"]


def build(graph, *, closed, magic, symmetric=False, diagonals=False):
    """The model of ``graph``'s tours under the conditions: ``(model, pos)``, ``pos[c]`` the cell's position."""
    size, w, h = graph.size, graph.width, graph.height
    m = cp_model.CpModel()
    pos = [m.new_int_var(0, size - 1, f"pos{c}") for c in range(size)]
    dummy = size
    arcs = []
    first, last = [], []
    for u in range(size):
        for v in graph.neighbours_of(u):
            lit = m.new_bool_var(f"arc{u}_{v}")
            arcs.append((u, v, lit))
            m.add(pos[v] == pos[u] + 1).only_enforce_if(lit)
        a = m.new_bool_var(f"first{u}")
        b = m.new_bool_var(f"last{u}")
        arcs += [(dummy, u, a), (u, dummy, b)]
        first.append(a)
        last.append(b)
        m.add(pos[u] == 0).only_enforce_if(a)
        m.add(pos[u] == size - 1).only_enforce_if(b)
    m.add_circuit(arcs)
    m.add_all_different(pos)
    if closed or symmetric:
        for u in range(size):
            m.add_bool_or([first[d] for d in graph.neighbours_of(u)] + [last[u].Not()])
    if graph.bipartite:
        colour_first = m.new_bool_var("colour_first")  # true: the first cell has colour +1
        for c in range(size):
            half = m.new_int_var(0, size // 2, f"half{c}")
            if graph.colour[c] > 0:
                m.add(pos[c] == 2 * half + 1 - colour_first)
            else:
                m.add(pos[c] == 2 * half + colour_first)
    if magic:
        if (w * (size + 1)) % 2 or (h * (size + 1)) % 2:
            raise ValueError(f"no magic sum on {w}x{h}: the rows or columns would sum to a fraction")
        row, col = w * (size + 1) // 2 - w, h * (size + 1) // 2 - h  # positions are numbers minus one
        for y in range(h):
            m.add(sum(pos[y * w + x] for x in range(w)) == row)
        for x in range(w):
            m.add(sum(pos[y * w + x] for y in range(h)) == col)
        if diagonals and w == h:
            m.add(sum(pos[i * w + i] for i in range(w)) == row)
            m.add(sum(pos[i * w + w - 1 - i] for i in range(w)) == row)
    if symmetric:
        for c in range(size):
            r = size - 1 - c
            if c < r:
                up = m.new_bool_var(f"up{c}")
                m.add(pos[r] == pos[c] + size // 2).only_enforce_if(up)
                m.add(pos[c] == pos[r] + size // 2).only_enforce_if(up.Not())
    return m, pos


def _solver(time_limit, seed, workers):
    s = cp_model.CpSolver()
    if time_limit is not None:
        s.parameters.max_time_in_seconds = float(time_limit)
    s.parameters.random_seed = int(seed) % (1 << 31)
    s.parameters.num_workers = int(workers)
    return s


def _cells(solver, pos):
    return tuple(c for _, c in sorted((solver.value(p), c) for c, p in enumerate(pos)))


def solve_cpsat(conditions, *, time_limit=None, seed=0, workers=1, graph=None):
    """One tour of the 8x8 knight (or ``graph``) under ``conditions``: ``(status, cells or None, branches)``."""
    from labyrinth.puzzles.knight.board import knight_graph

    graph = knight_graph(8) if graph is None else graph
    model, pos = build(graph, closed=conditions.needs_closed, magic=True, symmetric=conditions.symmetric,
                       diagonals=conditions.diagonals)
    solver = _solver(time_limit, seed, workers)
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return FOUND, _cells(solver, pos), int(solver.num_branches)
    if status == cp_model.INFEASIBLE:
        return NONE, None, int(solver.num_branches)
    return UNKNOWN, None, int(solver.num_branches)


class _Collect(cp_model.CpSolverSolutionCallback):
    def __init__(self, pos):
        super().__init__()
        self.pos = pos
        self.tours = []

    def on_solution_callback(self):
        self.tours.append(tuple(c for _, c in sorted((self.value(p), c) for c, p in enumerate(self.pos))))


def count_cpsat(graph, *, closed, magic, symmetric=False, diagonals=False, time_limit=None):
    """Every tour of ``graph`` under the conditions, by CP-SAT's enumeration: a list of tours, None past the limit.

    ``enumerate_all_solutions`` needs one worker; for small boards (a cross-check of the model).
    """
    model, pos = build(graph, closed=closed, magic=magic, symmetric=symmetric, diagonals=diagonals)
    solver = _solver(time_limit, 0, 1)
    solver.parameters.enumerate_all_solutions = True
    collect = _Collect(pos)
    status = solver.solve(model, collect)
    if status == cp_model.OPTIMAL or status == cp_model.INFEASIBLE:
        return collect.tours
    return None
