"""Facts queries on OR-Tools CP-SAT's circuit constraint: the second engine of minimal stuck patterns.

A *facts query* (see :meth:`oracle.sat.SatOracle.decide_facts`) asks for a
simple path from a head cell through every *required* cell, avoiding every
*taken* cell, ending on a given cell or anywhere, other cells *optional*.
With one ``AddCircuit`` constraint that is direct: every cell is a node, an
optional cell may take its self-loop (skipped), a required one may not, a
taken one must; a dummy node closes the path into a cycle (arcs from the
cells where the path may end into it, one fixed arc from it to the head).

Why a second engine: the SAT encoding learns connectivity lazily, by rounds
of subtour cuts, and a refutation that rests on parity over a large area (the
*needs-search* dead states of :mod:`verify.explain`) is hard for clause
learning (8.8 s on a 21x21 state where this model takes 0.1 s); the circuit
propagator sees connectivity at once. Each fact is an assumption literal, so
an infeasible answer comes with a core (CP-SAT's
``sufficient_assumptions_for_infeasibility``) read back as facts, as the SAT
engine's is. Feasible answers come with the path, a certificate checkable
without any solver.
"""

from ortools.sat.python import cp_model

from labyrinth.engine.board import Board
from oracle.sat_encode import OPTIONAL, REQUIRED, TAKEN, FactsCore

__all__ = ["decide_facts"]

_STATUSES = (TAKEN, REQUIRED, OPTIONAL)


def decide_facts(n, head, end, status, *, time_limit=None, never_last=(), seed=0, core=True):
    """Decide a facts query on the ``n`` x ``n`` grid with CP-SAT (one worker: deterministic).

    Parameters
    ----------
    n : int
        Board size.
    head : int
        The cell where the path starts.
    end : int or None
        The cell where it must end (None: anywhere but the ``never_last`` cells).
    status : mapping
        Cell -> :data:`~oracle.sat_encode.TAKEN` or :data:`~oracle.sat_encode.REQUIRED`;
        missing cells are optional. The head's status is ignored.
    time_limit : float or None
        Seconds; past them the answer is None (unknown), never a guess.
    never_last : iterable of int
        With ``end`` None: cells where the path may not end.
    seed : int
        CP-SAT ``random_seed``.
    core : bool
        Ask for a core: the facts become assumptions. Without, they are fixed
        (CP-SAT's presolve then removes the taken cells: often many times
        faster) and an infeasible answer's core is every fact given.

    Returns
    -------
    (feasible, core, path)
        As :meth:`oracle.sat.SatOracle.decide_facts`: ``core`` a
        :class:`~oracle.sat_encode.FactsCore` when infeasible (``last`` True
        when the end assumption is in it), ``path`` the cells from the head
        when feasible.

    Examples
    --------
    >>> decide_facts(3, 0, 8, {4: "taken"})[0]            # round the centre
    True
    >>> feasible, core, _ = decide_facts(3, 0, None, {1: "taken", 3: "taken", 4: "required", 8: "required"})
    >>> feasible, core.facts, core.last                   # the head's corner is walled in
    (False, ((1, 'taken'), (3, 'taken'), (4, 'required')), False)
    """
    if time_limit is not None and time_limit <= 0:
        return None, None, None
    nb = Board(n).neighbours
    size = n * n
    for name, cell in (("head", head), ("end", end)):
        if cell is not None and not 0 <= cell < size:
            raise ValueError(f"{name} cell {cell} is off the {n}x{n} board")
    never_last = frozenset(never_last)
    model = cp_model.CpModel()
    dummy = size
    arcs = []
    succ = {}  # (a, b) -> arc literal, b == dummy for the closing arcs
    assumption = {}  # literal index -> (cell, status) or "last"
    fixed = []  # the facts fixed without assumptions (core=False)
    for c in range(size):
        skip = model.new_bool_var(f"skip{c}")
        arcs.append((c, c, skip))
        if c == head:
            model.add(skip == 0)
        else:
            st = status.get(c, OPTIONAL)
            if st not in _STATUSES:
                raise ValueError(f"cell {c}: status {st!r} is not one of {_STATUSES}")
            if st != OPTIONAL and core:
                lit = model.new_bool_var(f"fact{c}")
                model.add(skip == (1 if st == TAKEN else 0)).only_enforce_if(lit)
                assumption[lit.index] = (c, st)
            elif st != OPTIONAL:
                model.add(skip == (1 if st == TAKEN else 0))
                fixed.append((c, st))
        for b in nb[c]:
            b = int(b)
            if b >= 0 and b != head:
                succ[(c, b)] = lit = model.new_bool_var("")
                arcs.append((c, b, lit))
        if end is None and c in never_last:
            continue
        succ[(c, dummy)] = lit = model.new_bool_var("")
        arcs.append((c, dummy, lit))
    arcs.append((dummy, head, model.new_constant(1)))
    if end is not None and core:
        last = model.new_bool_var("last")
        model.add(succ[(end, dummy)] == 1).only_enforce_if(last)
        assumption[last.index] = "last"
    elif end is not None:
        model.add(succ[(end, dummy)] == 1)
    model.add_circuit(arcs)
    if core:
        model.add_assumptions([model.get_bool_var_from_proto_index(i) for i in assumption])

    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1
    params.random_seed = seed
    params.catch_sigint_signal = False
    # CP-SAT's default LP relaxation (linearization level 1) is kept: unlike the oracle's queries
    # (oracle.cpsat.DEFAULT_PARAMS), these refutations by parity over wide areas need it (1.3 s against
    # 21 s with level 0 on a 21x21 needs-search state)
    if time_limit is not None:
        params.max_time_in_seconds = time_limit
    result = solver.solve(model)
    if result in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        path, c = [head], head
        nxt = {a: b for (a, b), lit in succ.items() if solver.boolean_value(lit)}
        while nxt.get(c, dummy) != dummy and len(path) <= size:
            c = nxt[c]
            path.append(c)
        return True, None, tuple(path)
    if result == cp_model.INFEASIBLE and not core:
        return False, FactsCore(tuple(sorted(fixed)), False, end is not None), None
    if result == cp_model.INFEASIBLE:
        facts, has_last = set(), False
        for i in solver.sufficient_assumptions_for_infeasibility():
            key = assumption[i]
            if key == "last":
                has_last = True
            else:
                facts.add(key)
        return False, FactsCore(tuple(sorted(facts)), False, has_last), None
    if result == cp_model.MODEL_INVALID:  # pragma: no cover - a bug in the model above
        raise RuntimeError(f"invalid CP-SAT facts model: {model.validate()}")
    return None, None, None
