"""CP-SAT backend: one OR-Tools ``AddCircuit`` model per query, an independent exact cross-check.

``CpModel.add_circuit`` (AddCircuit, OR-Tools CP-SAT) forces the arcs whose
literals are true to form one cycle through every node without a true
self-loop. Here the nodes are the head and the free cells, and *closing arcs*
into the head close the wanted path from the head into that cycle, so a
solution is exactly a completion and infeasibility is a proof that the state
is dead. Any puzzle on any move graph: where the path may end is only a
matter of closing arcs.

Modelling notes
---------------
* Nodes are renumbered densely (head = 0, then the free cells in index order),
  so taken cells are simply absent from the graph.
* CP-SAT's circuit constraint *ignores* node ids with no incident arc (a free
  cell walled in by taken cells would silently drop out of the cycle), so every
  node gets a self-loop fixed to false: that keeps it in the graph and forbids
  skipping it, i.e. every free cell is visited exactly once.
* Arcs: head -> each free cell one move away; free -> free one move away,
  except out of a fixed end cell. Closing arcs, the only arcs into the head:
  with a fixed end (the labyrinth's end corner), the one arc end -> head,
  fixed true; with a free end, one literal arc from every free cell; for a
  closed tour (``state.cycle``), literal arcs only from the free cells one move
  from the path's first cell (the head's own self-loop stays false: there are
  free cells left, or the state would be trivial).
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

    ``out_arcs`` holds the moves only, not the closing arcs into the head.
    Past ``deadline`` (checked every 1024-16384 cells) raises :class:`~oracle.base.BuildExpired`.
    """
    board = state.board
    nb = board.neighbours
    head, end = state.head, state.end
    nodes = [head] + state.free()
    check_deadline(deadline)  # a million cells take tenths of a second per step: look at the clock between them
    node_of = dict.fromkeys(nodes, 0)  # the head too: a move into it is skipped below, as into a taken cell
    for i, c in enumerate(nodes):
        if not i & 16383:
            check_deadline(deadline)
        node_of[c] = i
    check_deadline(deadline)

    model = _Model()
    new_bool = model.new_bool_var
    # a self-loop fixed false per node: nodes may not be skipped, nor silently ignored
    arcs = []
    for start in range(0, len(nodes), 16384):
        check_deadline(deadline)
        arcs.extend((i, i, False) for i in range(start, min(len(nodes), start + 16384)))
    out_arcs = []
    for i, c in enumerate(nodes):
        if not i & 1023:
            check_deadline(deadline)
        out = []
        out_arcs.append(out)
        if c == end:
            continue  # a fixed end cell is left only by the closing arc
        for o in nb[c].tolist():
            j = node_of.get(o)
            if not j:
                continue  # off the board, into a taken cell, or back into the head
            lit = new_bool("")
            arcs.append((i, j, lit))
            out.append((j, lit))
    if end is not None:
        if node_of.get(end):  # (a fixed end the path already ran through closes nothing: no circuit)
            arcs.append((node_of[end], 0, True))  # the fixed closing arc end -> head
    else:
        if state.cycle:
            closers = [node_of[o] for o in nb[state.path[0]].tolist() if node_of.get(o)]
        else:
            closers = range(1, len(nodes))
        arcs.extend((i, 0, new_bool("")) for i in closers)
    model.add_circuit(arcs)
    return model, nodes, out_arcs


def _decode(state, solver, nodes, out_arcs):
    """Follow the true arcs from the head through every node; the moves as a string."""
    cells = [nodes[0]]
    i = 0
    for _ in range(len(nodes) - 1):
        i = next(j for j, lit in out_arcs[i] if solver.boolean_value(lit))
        cells.append(nodes[i])
    return state.board.spell(cells)
