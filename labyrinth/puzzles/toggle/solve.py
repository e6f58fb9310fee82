"""Is a toggle-squares state solvable, one solution, and a solution with the fewest presses, proven minimal.

The oracle is exact linear algebra over GF(2) (:mod:`labyrinth.puzzles.toggle.gf2`). When ``n``
is not ``3k+2`` the solution is unique, so it is also the minimum. When ``n = 3k+2`` the
solutions of a state are a coset ``X0 + ker`` with ``ker(A (x) A) = {v a^T + b v^T}`` (``v =
110110...11``, dimension ``2n - 1``). Split the rows and columns by ``v``: with ``S`` where
``v = 1`` (``m = 2k + 2`` of them) and ``Z`` where ``v = 0`` (``k``), a cell of ``X0 + v a^T +
b v^T`` is flipped by ``a_j + b_i`` on ``S x S``, by ``b_i`` alone on ``Z x S``, by ``a_j`` alone
on ``S x Z`` and never on ``Z x Z``. So each row of ``Z`` and each column of ``Z`` is chosen on
its own (flip it when more than half of its ``m`` cells are presses), and what is left is
Berlekamp's switching game on the ``m x m`` block ``S x S``: flip rows and columns to leave the
fewest ones. That is enumerated over the ``2^(m-1)`` column flips while ``m <= 32`` (``n <=
47``), within the time limit; beyond, it goes to CP-SAT (whose bounds on this problem are weak:
expect "unknown" there). Every minimum is checked: its presses solve the state.

>>> from labyrinth.puzzles.toggle.board import parse_board
>>> s = solve(parse_board("11000\\n11000\\n00000\\n00000\\n00000\\n"), minimum=True)
>>> s.solvable, s.presses.count(), s.minimum
(True, 1, 'proven')
"""

import dataclasses
import math
import time

import numpy as np

from labyrinth.errors import LabyrinthError, ToggleSizeError
from labyrinth.puzzles.toggle import _kernels as K
from labyrinth.puzzles.toggle import gf2
from labyrinth.puzzles.toggle.board import Board, Line, goal_board

__all__ = [
    "ENUMERATION_MAX_M",
    "MINIMUM_LIMIT",
    "Solution",
    "WorstCase",
    "all_minima",
    "brute_minimum",
    "is_solvable",
    "kernel_basis",
    "minimise",
    "solve",
    "solve_line_state",
    "switching_value",
    "worst_case",
]

#: the switching core is enumerated up to this size (2^31 column flips, about a minute; n <= 47), CP-SAT beyond
ENUMERATION_MAX_M = 32
#: column flips per call of the enumeration kernel (the time limit is checked between calls)
ENUMERATION_CHUNK = 1 << 22
#: ``--minimum`` on a 3k+2 board larger than this needs ``allow_large`` (CP-SAT on (2n/3)^2 cells)
MINIMUM_LIMIT = 512
#: the worst case is searched for switching blocks up to this size (11x11 boards) unless allowed
WORST_SWITCHING_MAX_M = 8


@dataclasses.dataclass
class Solution:
    """The answer for one state: solvable or not, a solution, and whether it is proven minimal.

    ``minimum`` is ``"proven"`` (no solution has fewer presses), ``"unknown"`` (the time limit
    ran out first: ``presses`` still solve the state, ``lower_bound`` is what was proven),
    ``"not asked"`` or ``"no solution"`` (the state is not solvable). ``solutions`` is the number of solutions as a power of two (its exponent).
    """

    state: Board
    goal: str
    solvable: bool
    presses: Board | None
    minimum: str
    lower_bound: int | None
    method: str
    solutions_log2: int | None
    seconds: float


def nullity(n):
    """Dimension of the 2-D press matrix's kernel: ``2n - 1`` when ``n = 3k+2``, else 0."""
    return 2 * n - 1 if n % 3 == 2 else 0


def is_solvable(state, goal="off"):
    """Whether pressing some cells takes ``state`` to the goal (all off, or all on)."""
    target = state ^ goal_board(state.n, goal) if goal != "off" else state
    return gf2.solve_packed(target.words, state.n) is not None


def solve(state, goal="off", *, minimum=False, time_limit=60.0, method="auto", allow_large=False, workers=1):
    """Solve ``state`` to ``goal``: one solution, or with ``minimum`` one with the fewest presses.

    Parameters
    ----------
    state : Board
    goal : {"off", "on"}
    minimum : bool
        Find a solution with the fewest presses and prove it minimal.
    time_limit : float
        Seconds for the search of a ``3k+2`` board's minimum (enumeration or CP-SAT); past them
        the answer is a solution with ``minimum="unknown"``.
    method : {"auto", "enumerate", "cpsat", "brute"}
        How the switching core is minimised (``brute``: every kernel element, small boards only).
    """
    t0 = time.perf_counter()
    n = state.n
    target = state ^ goal_board(n, goal) if goal != "off" else state
    x = gf2.solve_packed(target.words, n)
    if x is None:
        return Solution(state, goal, False, None, "no solution", None,
                        "no solution: B v != 0 or v^T B != 0 (v = 110110...11)", None, time.perf_counter() - t0)
    presses = Board(x, n)
    status, bound, how = "not asked", None, "light chasing (Kronecker solve)"
    if minimum:
        presses, proven, bound, how = minimise(presses, time_limit=time_limit, method=method,
                                               allow_large=allow_large, workers=workers)
        status = "proven" if proven else "unknown"
    if not Board(gf2.apply_packed(presses.words, n), n) == target:
        raise AssertionError("a solution failed its own check")  # a bug, never bad input
    return Solution(state, goal, True, presses, status, bound, how, nullity(n), time.perf_counter() - t0)


def solve_line_state(line, goal="off", *, minimum=False):
    """Solve a 1-D board (the note's Lemmas 1-2): one solution, or with ``minimum`` the fewest presses.

    Light chasing along the line; when ``n = 3k+2`` the solutions are ``x`` and ``x + v``
    (``v = 110110...11``), and the minimum is the lighter of the two, so it is always proven.

    >>> from labyrinth.puzzles.toggle.board import parse_board
    >>> s = solve_line_state(parse_board("11000", allow_line=True), minimum=True)
    >>> s.solvable, s.presses.text(), s.minimum
    (True, '10000\\n', 'proven')
    """
    t0 = time.perf_counter()
    n = line.n
    if goal not in ("off", "on"):
        goal_board(n, goal)  # the one-line error
    target = line.cells_1d ^ np.uint8(1) if goal == "on" else line.cells_1d
    x, ok = gf2.solve_line(target)
    singular = n % 3 == 2
    if not ok:
        return Solution(line, goal, False, None, "no solution", None,
                        "no solution: v . c != 0 (v = 110110...11)", None, time.perf_counter() - t0)
    status, bound, how = "not asked", None, "light chasing along the line"
    if minimum:
        if singular:
            other = x ^ gf2.kernel_vector(n)
            x = min(x, other, key=lambda y: (int(y.sum()), y.tolist()))
            how = "the lighter of the two solutions x and x + v"
        else:
            how = "the solution is unique (A is invertible)"
        status, bound = "proven", int(x.sum())
    toggled = x.copy()  # the press rule: each press toggles the cell and its two neighbours
    toggled[1:] ^= x[:-1]
    toggled[:-1] ^= x[1:]
    if not np.array_equal(toggled, target):
        raise AssertionError("a 1-D solution failed its own check")  # a bug, never bad input
    return Solution(line, goal, True, Line(x), status, bound, how, int(singular), time.perf_counter() - t0)


def minimise(presses, *, time_limit=60.0, method="auto", allow_large=False, workers=1):
    """The fewest presses equivalent to ``presses`` (same toggled board): ``(Board, proven, lower bound, method)``."""
    n = presses.n
    if n % 3 != 2:
        return presses, True, presses.count(), "the solution is unique (A is invertible)"
    if method == "brute":
        count, best = brute_minimum(presses)
        return best, True, count, f"every one of the 2^{2 * n - 1} kernel elements"
    if n > MINIMUM_LIMIT and not allow_large:
        raise ToggleSizeError(f"the fewest presses of a 3k+2 board is searched up to {MINIMUM_LIMIT}x"
                              f"{MINIMUM_LIMIT} (--allow-large: CP-SAT on {2 * (n + 1) // 3}^2 cells)", source=f"{n}x{n}")
    x0 = presses.cells()
    v = gf2.kernel_vector(n)
    s_idx, z_idx = np.nonzero(v)[0], np.nonzero(v == 0)[0]
    m = s_idx.size
    a = np.zeros(n, dtype=np.uint8)
    b = np.zeros(n, dtype=np.uint8)
    b[z_idx] = 2 * x0[np.ix_(z_idx, s_idx)].sum(axis=1) > m
    a[z_idx] = 2 * x0[np.ix_(s_idx, z_idx)].sum(axis=0) > m
    core = x0[np.ix_(s_idx, s_idx)]
    if method == "cpsat" or (method == "auto" and m > ENUMERATION_MAX_M):
        flips, proven, core_bound, how = _core_cpsat(core, time_limit, workers)
    elif method in ("auto", "enumerate"):
        flips, proven, core_bound, how = _core_enumerate(core, time_limit)
    else:
        raise LabyrinthError("the minimum method is auto, enumerate, cpsat or brute", token=str(method))
    a[s_idx] = [(flips >> j) & 1 for j in range(m)]
    y = core ^ a[s_idx][None, :]
    b[s_idx] = 2 * y.sum(axis=1) > m
    best = x0 ^ np.outer(v, a) ^ np.outer(b, v)
    fixed = int(x0[np.ix_(z_idx, z_idx)].sum())
    rows_z = int(np.minimum(x0[np.ix_(z_idx, s_idx)].sum(axis=1), m - x0[np.ix_(z_idx, s_idx)].sum(axis=1)).sum())
    cols_z = int(np.minimum(x0[np.ix_(s_idx, z_idx)].sum(axis=0), m - x0[np.ix_(s_idx, z_idx)].sum(axis=0)).sum())
    result = Board.from_cells(best)
    if core_bound is not None:
        core_bound += fixed + rows_z + cols_z
    if proven and result.count() != core_bound:
        raise AssertionError("the minimum's presses do not add up")  # a bug, never bad input
    if gf2.apply_packed((result ^ presses).words, n).any():
        raise AssertionError("the minimum left the solution's coset")  # a bug, never bad input
    return result, proven, core_bound, how


def _rows_as_ints(block):
    """The rows of a 0/1 block as uint64 integers (column ``j`` = bit ``j``)."""
    weights = np.uint64(1) << np.arange(block.shape[1], dtype=np.uint64)
    return (block.astype(np.uint64) * weights[None, :]).sum(axis=1).astype(np.uint64)


def _core_enumerate(core, time_limit):
    """Minimise the switching core by trying every column flip, in chunks, within ``time_limit`` seconds.

    The local search's flip is the first incumbent (it prunes from the start). Returns ``(flips as
    bits, proven, lower bound or None, method)``; past the time limit the incumbent is returned
    unproven.
    """
    m = core.shape[0]
    t0 = time.perf_counter()
    rows = _rows_as_ints(core)
    hint = _local_search(core)
    best_a = int(sum(int(hint[j]) << j for j in range(m)))
    best = int(_core_cost(core, hint))
    total = 1 << (m - 1)
    done = 0
    while done < total:
        stop = min(total, done + ENUMERATION_CHUNK)
        best, best_a = K.core_minimum_range(rows, m, best, best_a, done, stop)
        done = stop
        if done < total and time.perf_counter() - t0 > time_limit:
            how = f"switching core {m}x{m}: {done:,} of the 2^{m - 1} column flips tried in {time_limit:g} s"
            return int(best_a), False, None, how
    return int(best_a), True, int(best), f"switching core {m}x{m}: every one of the 2^{m - 1} column flips"


def _core_cost(core, a):
    """Ones left in the core after the column flips ``a`` and the best row flips for them."""
    w = (core ^ a[None, :]).sum(axis=1)
    return int(np.minimum(w, core.shape[1] - w).sum())


def _local_search(core):
    """Good row and column flips for the switching core, alternating best responses (a CP-SAT hint)."""
    m = core.shape[0]
    a = np.zeros(m, dtype=np.uint8)
    best, best_a = m * m + 1, a.copy()
    for _ in range(4 * m):
        y = core ^ a[None, :]
        b = (2 * y.sum(axis=1) > m).astype(np.uint8)
        y ^= b[:, None]
        a_new = a ^ (2 * y.sum(axis=0) > m).astype(np.uint8)
        cost = int((core ^ a_new[None, :] ^ b[:, None]).sum())
        if cost < best:
            best, best_a = cost, a_new.copy()
        if np.array_equal(a_new, a):
            break
        a = a_new
    return best_a ^ best_a[0]


def _core_cpsat(core, time_limit, workers):
    """Minimise the switching core with CP-SAT: ``(flips as bits, proven, lower bound, method)``."""
    from ortools.sat.python import cp_model

    m = core.shape[0]
    model = cp_model.CpModel()
    a = [model.new_bool_var(f"a{j}") for j in range(m)]
    b = [model.new_bool_var(f"b{i}") for i in range(m)]
    model.add(a[0] == 0)  # a and its complement (with b complemented) give the same block
    ones = []
    for i in range(m):
        for j in range(m):
            e = model.new_bool_var(f"e{i}_{j}")  # the cell is a press after the flips
            if core[i, j]:
                model.add_bool_or([e, a[j], b[i]])
                model.add_bool_or([e, ~a[j], ~b[i]])
            else:
                model.add_bool_or([e, ~a[j], b[i]])
                model.add_bool_or([e, a[j], ~b[i]])
            ones.append(e)
    model.minimize(sum(ones))
    hint = _local_search(core)
    for j in range(m):
        model.add_hint(a[j], int(hint[j]))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.num_workers = int(workers)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        flips = int(sum(int(hint[j]) << j for j in range(m)))
        return flips, False, None, f"CP-SAT on the {m}x{m} switching core: no answer within {time_limit:g} s"
    flips = int(sum(solver.value(a[j]) << j for j in range(m)))
    proven = status == cp_model.OPTIMAL
    bound = math.ceil(solver.best_objective_bound - 1e-6)  # the objective is an integer
    return flips, proven, bound, f"CP-SAT on the {m}x{m} switching core ({solver.status_name(status).lower()})"


def kernel_basis(n):
    """A basis of ``ker(A (x) A)`` as 0/1 boards: ``v e_j^T`` for every ``j`` and ``e_i v^T`` for ``i >= 1``.

    Empty unless ``n = 3k+2``; then ``2n - 1`` boards (``v_0 = 1`` makes them independent).
    """
    v = gf2.kernel_vector(n)
    if v is None:
        return []
    out = []
    for j in range(n):
        e = np.zeros(n, dtype=np.uint8)
        e[j] = 1
        out.append(Board.from_cells(np.outer(v, e)))
    for i in range(1, n):
        e = np.zeros(n, dtype=np.uint8)
        e[i] = 1
        out.append(Board.from_cells(np.outer(e, v)))
    return out


def brute_minimum(presses):
    """The fewest presses in the coset of ``presses``, by trying every kernel element (Gray code): ``(count, Board)``.

    Independent of the switching reduction; ``2^(2n-1)`` elements, so for small boards only.
    """
    n = presses.n
    basis = kernel_basis(n)
    if not basis:
        return presses.count(), presses
    if n > 14:
        raise ToggleSizeError(f"brute force over the kernel is for boards up to 14x14 (2^{2 * n - 1} elements)",
                              source=f"{n}x{n}")
    flat = np.stack([bb.words.reshape(-1) for bb in basis])
    count, combination = K.gray_minimum(presses.words.reshape(-1).copy(), flat)
    best = presses.words.reshape(-1).copy()
    for t in range(len(basis)):
        if (combination >> t) & 1:
            best ^= flat[t]
    return int(count), Board(best.reshape(n, gf2.words(n)), n)


def all_minima(n):
    """Every solvable state of an ``n x n`` board (as integers, cell (i, j) = bit ``i*n + j``) and its fewest presses.

    Proven by exhaustion: when ``n = 3k+2`` each coset of the kernel holds exactly one press
    pattern on the top-left ``(n-1) x (n-1)`` corner (those presses are independent:
    the toggle-squares note (docs/toggle.md), dimension section), and every kernel element is tried for each.
    Returns ``(states, minima)`` sorted by state.
    """
    if n * n > 25:
        raise ToggleSizeError("every state is enumerated up to 5x5 (2^16 solvable 5x5 states)", source=f"{n}x{n}")
    masks = K.press_masks(n)
    if n % 3 == 2:
        corner = [i * n + j for i in range(n - 1) for j in range(n - 1)]
        reps = np.zeros(1 << len(corner), dtype=np.int64)
        for t, cell in enumerate(corner):
            reps |= ((np.arange(reps.size, dtype=np.int64) >> t) & 1) << cell
        kernel = np.array([_as_int(c) for c in _span(kernel_basis(n))], dtype=np.int64)
        minima = K.coset_minimum(reps, kernel)
    else:
        reps = np.arange(1 << (n * n), dtype=np.int64)
        minima = np.bitwise_count(reps).astype(np.int16)
    states = K.states_of(reps, masks)
    order = np.argsort(states)
    return states[order], minima[order]


def _as_int(board):
    """A small board as an integer, cell (i, j) at bit ``i * n + j``."""
    cells = board.cells().reshape(-1)
    return int(sum(1 << i for i in np.nonzero(cells)[0]))


def _span(basis):
    """Every combination of a list of boards (small lists only)."""
    out = [Board.zeros(basis[0].n)] if basis else []
    for bb in basis:
        out += [c ^ bb for c in out]
    return out


@dataclasses.dataclass
class WorstCase:
    """The largest fewest-presses over all solvable states of an ``n x n`` board (the kernel's covering radius)."""

    n: int
    value: int
    proven: bool
    state: Board | None
    presses: Board | None
    switching_m: int
    switching_value: int | None
    nodes: int
    checked: str
    seconds: float


def switching_value(m, *, node_limit=0):
    """Berlekamp's switching game on an ``m x m`` block: the most ones no row and column flips can reduce.

    Returns ``(value, witness block, proven, nodes)``. The search raises its target each time it
    meets a block at least that bad and ends when an exhaustive search finds none better
    (``_kernels.switching_search``: canonical form and a bound on the rows still to place).
    """
    cost = K.switching_cost_table(m)
    value, witness, nodes = 0, np.zeros((m, m), dtype=np.uint8), 0
    while True:
        status, rows, used = K.switching_search(m, value + 1, cost, max(node_limit - nodes, 1) if node_limit else 0)
        nodes += used
        if status != 1:
            return value, witness, status == 0, nodes
        block = np.zeros((m, m), dtype=np.uint8)
        for i in range(m):
            for t in range(1, m):
                block[i, t] = (int(rows[i]) >> (m - 1 - t)) & 1
        found, _ = K.core_minimum(_rows_as_ints(block), m)
        if found <= value:
            raise AssertionError("the switching search returned a block below its target")  # a bug
        value, witness = found, block


def worst_case(n, *, node_limit=0, check=True, allow_large=False):
    """The hardest solvable states of an ``n x n`` board: the most presses a minimum solution can need.

    ``n`` not ``3k+2``: every press pattern is the unique solution of its state, so pressing
    every cell (the state ``A J A``) is the worst, ``n^2``. ``n = 3k+2``: the rows and columns of
    ``Z`` each contribute at most ``k+1`` and the ``Z x Z`` cells ``k^2``, independently of the
    ``m x m`` switching core (``m = 2k+2``), so the worst is ``k^2 + 2k(k+1) + G(m)`` with ``G``
    the switching game's value (OEIS A005311). A witness state is built and, with ``check``,
    its minimum re-derived by brute force over the whole kernel (``n <= 14``).
    """
    t0 = time.perf_counter()
    if n % 3 != 2:
        presses = Board.ones(n)
        state = Board(gf2.apply_packed(presses.words, n), n)
        return WorstCase(n, n * n, True, state, presses, 0, None, 0,
                         "unique solutions: the state of pressing every cell needs all n^2 presses",
                         time.perf_counter() - t0)
    k = (n - 2) // 3
    m = 2 * k + 2
    if m > WORST_SWITCHING_MAX_M and not allow_large:
        raise ToggleSizeError(f"the worst case is searched up to 11x11 (a {m}x{m} switching game: "
                              "--allow-large to try, the search grows steeply)", source=f"{n}x{n}")
    g, block, proven, nodes = switching_value(m, node_limit=node_limit)
    v = gf2.kernel_vector(n)
    s_idx, z_idx = np.nonzero(v)[0], np.nonzero(v == 0)[0]
    x0 = np.zeros((n, n), dtype=np.uint8)
    x0[np.ix_(s_idx, s_idx)] = block
    x0[np.ix_(z_idx, s_idx[: m // 2])] = 1  # each Z row: half of its S cells
    x0[np.ix_(s_idx[: m // 2], z_idx)] = 1  # each Z column likewise
    x0[np.ix_(z_idx, z_idx)] = 1
    value = k * k + 2 * k * (m // 2) + g
    presses = Board.from_cells(x0)
    best, ok, _, _ = minimise(presses)
    if not ok or best.count() != value:
        raise AssertionError("the worst-case witness does not need the worst-case presses")  # a bug
    checked = "the switching reduction"
    if check and n <= 14:
        count, _ = brute_minimum(presses)
        if count != value:
            raise AssertionError("brute force over the kernel disagrees with the switching reduction")  # a bug
        checked = f"the switching reduction and brute force over all 2^{2 * n - 1} kernel elements"
    state = Board(gf2.apply_packed(presses.words, n), n)
    return WorstCase(n, value, proven, state, best, m, g, nodes, checked, time.perf_counter() - t0)
