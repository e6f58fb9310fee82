"""CP-SAT backend: one OR-Tools ``AddCircuit`` model per query, an independent exact cross-check.

``CpModel.add_circuit`` (AddCircuit, OR-Tools CP-SAT) forces the arcs whose
literals are true to form one cycle through every node without a true
self-loop. Here the nodes are the head and the free cells, and a fixed arc
end -> head closes the wanted head -> end path into that cycle, so a solution
is exactly a completion and infeasibility is a proof that the state is dead.

Modelling notes
---------------
* Nodes are renumbered densely (head = 0, then the free cells in index order),
  so taken cells are simply absent from the graph.
* CP-SAT's circuit constraint *ignores* node ids with no incident arc (a free
  cell walled in by taken cells would silently drop out of the cycle), so every
  node gets a self-loop fixed to false: that keeps it in the graph and forbids
  skipping it, i.e. every free cell is visited exactly once.
* Arcs: head -> each free neighbour; free -> free neighbour in both directions
  except out of the end corner; plus the fixed closing arc end -> head. Nothing
  ever enters the head except the closing arc.
* ``UNKNOWN`` (time limit hit) is reported as ``feasible=None``, never a guess.
"""

import time

from ortools.sat.python import cp_model

from oracle.base import BuildExpired, Oracle, OracleBug, check_deadline

__all__ = ["CpSatOracle", "DEFAULT_PARAMS"]

#: Solver settings applied to every query unless overridden. Without the LP
#: relaxation (``linearization_level`` 0; CP-SAT's default is 1) the circuit
#: propagator alone decides these grid instances markedly faster: on random 9x9
#: prefix/sibling states total time roughly halves and the slowest query drops
#: from ~1.5 s to ~0.3 s; the empty 13x13 board goes from >10 s to under 1 s.
DEFAULT_PARAMS = {"linearization_level": 0}


class CpSatOracle(Oracle):
    """Exact Hamiltonian-completion oracle on OR-Tools CP-SAT's circuit constraint.

    Parameters
    ----------
    time_limit : float or None
        Default per-query limit in seconds (None: no limit).
    workers : int
        CP-SAT ``num_workers``; the default 1 keeps the search deterministic.
    seed : int
        CP-SAT ``random_seed``.
    params : dict or None
        ``SatParameters`` fields overriding :data:`DEFAULT_PARAMS`.
    """

    name = "cpsat"

    def __init__(self, time_limit=None, workers=1, *, seed=0, params=None):
        super().__init__(time_limit)
        self.workers = int(workers)
        self.seed = int(seed)
        self.params = {**DEFAULT_PARAMS, **(params or {})}

    def _decide(self, state, deadline):
        t0 = time.perf_counter()
        try:
            model, nodes, out_arcs = _build(state, deadline)
        except BuildExpired:
            return None, None, {"status": "UNKNOWN", "build_seconds": time.perf_counter() - t0}
        build_seconds = time.perf_counter() - t0
        work = {"status": "UNKNOWN", "branches": 0, "conflicts": 0,
                "build_seconds": build_seconds, "nodes": len(nodes),
                "arcs": sum(len(a) for a in out_arcs)}

        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = self.workers
        params.random_seed = self.seed
        params.log_search_progress = False
        params.catch_sigint_signal = False  # Ctrl-C belongs to the caller, not to the solver
        for key, value in self.params.items():
            setattr(params, key, value)
        if deadline is not None:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return None, None, work
            params.max_time_in_seconds = remaining

        status = solver.solve(model)
        work.update(status=solver.status_name(status), branches=int(solver.num_branches),
                    conflicts=int(solver.num_conflicts), solve_seconds=float(solver.wall_time))
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return True, _decode(state, solver, nodes, out_arcs), work
        if status == cp_model.INFEASIBLE:
            return False, None, work
        if status == cp_model.MODEL_INVALID:
            raise OracleBug(f"{self.name}: invalid model for {state.compact()}: {model.validate()}")
        return None, None, work  # UNKNOWN: the time limit ran out; undecided, never a guess


class _Model(cp_model.CpModel):
    """A ``CpModel`` without the per-instance CamelCase aliases (they cost more than building this model, in 9.15)."""

    def _add_pre_pep8_methods(self):
        pass


def _build(state, deadline=None):
    """The circuit model: ``(model, nodes, out_arcs)`` with ``out_arcs[i] = [(j, literal), ...]``.

    Past ``deadline`` (checked every 1024 cells) raises :class:`~oracle.base.BuildExpired`.
    """
    board = state.board
    nb = board.neighbours
    taken = state.taken
    head, end = state.head, board.end
    nodes = [head] + state.free()
    node_of = {c: i for i, c in enumerate(nodes)}

    model = _Model()
    # a self-loop fixed false per node: nodes may not be skipped, nor silently ignored
    arcs = [(i, i, False) for i in range(len(nodes))]
    out_arcs = [[] for _ in nodes]
    for i, c in enumerate(nodes):
        if not i & 1023:
            check_deadline(deadline)
        if c == end:
            continue  # the end corner is left only by the closing arc
        for d in range(4):
            o = int(nb[c, d])
            if o < 0 or taken[o]:
                continue  # off the board, into a taken cell, or back into the head
            j = node_of[o]
            lit = model.new_bool_var("")
            arcs.append((i, j, lit))
            out_arcs[i].append((j, lit))
    arcs.append((node_of[end], 0, True))  # the fixed closing arc end -> head
    model.add_circuit(arcs)
    return model, nodes, out_arcs


def _decode(state, solver, nodes, out_arcs):
    """Follow the true arcs from the head to the end corner; the moves as a string."""
    board = state.board
    end = board.end
    moves = []
    i = 0
    for _ in range(len(nodes)):
        if nodes[i] == end:
            break
        nxt = next(j for j, lit in out_arcs[i] if solver.boolean_value(lit))
        moves.append(board.move_between(nodes[i], nodes[nxt]))
        i = nxt
    return "".join(moves)
