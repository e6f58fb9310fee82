"""The sat, cpsat and auto backends on move graphs other than the labyrinth's: number puzzles and knights.

References: the definition-only brute force (``tests/brute_puzzle.py``) wherever it is
affordable, and the two backends against each other where it is not. Every
verdict is compared, every witness replayed by ``check_witness``.
"""

import random

import pytest
from brute import completions_exist
from brute_puzzle import puzzle_alive
from pysat.solvers import Solver

from labyrinth.core import CYCLE, PathState, Puzzle, move_graph
from labyrinth.engine import Board, State
from labyrinth.puzzles.numbers import numbers_graph, numbers_puzzle
from oracle.auto import AutoOracle
from oracle.base import check_witness
from oracle.cpsat import CpSatOracle
from oracle.sat import SatOracle
from oracle.sat_encode import Encoding
from oracle.sat_splice import splice_subtours

BACKENDS = {"sat": SatOracle, "cpsat": CpSatOracle, "auto": AutoOracle}
KNIGHT = ((1, 2),)


@pytest.fixture(scope="module", params=sorted(BACKENDS))
def oracle(request):
    with BACKENDS[request.param]() as o:
        yield o


@pytest.fixture(scope="module")
def both():
    with SatOracle() as sat, CpSatOracle() as cpsat:
        yield sat, cpsat


def knight(n, end=None, start=None):
    return Puzzle("knight-test", move_graph(n, KNIGHT), start, end)


def walked_states(puzzle, starts):
    """One state per symmetry orbit among the states a walker reaches while a completion exists.

    That is: the paths of just the ``starts``, and every child of an alive state
    (alive by the brute force). Open puzzles ignore the first cell in the orbit key.
    """
    g = puzzle.graph
    syms = [p.tolist() for p in g.symmetries()]
    cycle = puzzle.end == CYCLE

    def orbit(path):
        return min((p[path[0]] if cycle else -1, tuple(sorted(p[c] for c in path)), p[path[-1]]) for p in syms)

    seen, out = set(), []
    stack = [(s,) for s in starts]
    while stack:
        path = stack.pop()
        key = orbit(path)
        if key in seen:
            continue
        seen.add(key)
        state = PathState(puzzle, path, _trusted=True)
        out.append(state)
        if puzzle_alive(state):
            stack.extend(path + (w,) for w in g.neighbours_of(path[-1]) if w not in path)
    return out


def assert_agrees_with_brute_force(oracle, states):
    counts = {True: 0, False: 0}
    for s in states:
        verdict = oracle.decide(s)
        expected = puzzle_alive(s)
        assert verdict.feasible is expected, (s.compact(), verdict)
        if expected:
            assert check_witness(s, verdict.witness), (s.compact(), verdict.witness)
        counts[expected] += 1
    return counts


# --- the brute force on every walked state ------------------------------------------------------

@pytest.fixture(scope="module")
def numbers5_open():
    return walked_states(numbers_puzzle(5), range(25))


@pytest.fixture(scope="module")
def numbers5_closed():
    return walked_states(numbers_puzzle(5, closed=True), (0, 1, 6, 12))  # a corner, an edge, inside, centre


def test_numbers_5x5_open_every_walked_state(oracle, numbers5_open):
    counts = assert_agrees_with_brute_force(oracle, numbers5_open)
    assert counts[True] > 1000 and counts[False] > 1000


def test_numbers_5x5_closed_every_walked_state_from_four_starts(oracle, numbers5_closed):
    assert {s.path[0] for s in numbers5_closed} == {0, 1, 6, 12}
    counts = assert_agrees_with_brute_force(oracle, numbers5_closed)
    assert counts[True] > 500 and counts[False] > 500


def test_knight_5x5_open_and_fixed_end_every_walked_state(oracle):
    """From a corner, the edge's middle and the centre, and corner to corner."""
    counts = assert_agrees_with_brute_force(oracle, walked_states(knight(5), (0, 2, 12)))
    assert counts[True] and counts[False]
    g = move_graph(5, KNIGHT)
    corners = knight(5, end=g.cell(5, 5), start=g.cell(1, 1))
    counts = assert_agrees_with_brute_force(oracle, walked_states(corners, (corners.start,)))
    assert counts[True] and counts[False]


def test_knight_5x5_closed(oracle, both):
    """No closed tour on 25 cells of a bipartite graph: starts, and the prefixes of open tours, are dead."""
    closed, open_ = knight(5, CYCLE), knight(5)
    states = walked_states(closed, (0, 12))
    sat = both[0]
    for first in (0, 12):
        tour = sat.decide(PathState(open_, (first,)))
        if tour.feasible:
            cells = (first,) + tuple(open_.graph.replay(first, tour.witness))
            states += [PathState(closed, cells[:k], _trusted=True) for k in range(2, len(cells) + 1, 2)]
    assert len(states) > 12
    counts = assert_agrees_with_brute_force(oracle, states)
    assert counts[False] == len(states)


# --- deeper states: the two backends against each other, and the brute force near the end -----------

def deep_states(puzzle, rng, count, guide):
    """Seeded states deep into a board: prefixes of ``guide``'s witnesses, and (every other one) a
    random walk after such a prefix, leaving the witness, until stuck, then backed off up to 3 moves."""
    g = puzzle.graph
    out = []
    while len(out) < count:
        s = PathState(puzzle, (rng.randrange(g.size),))
        verdict = guide.decide(s)
        if not verdict.feasible:
            out.append(s)
            continue
        cells = g.replay(s.head, verdict.witness)
        k = rng.randrange(len(cells) // 3, len(cells))
        s = PathState(puzzle, s.path + tuple(cells[:k]), _trusted=True)
        if len(out) % 2:
            off = [m for m in s.open_moves() if g.targets[m][s.head] != cells[k]]
            walk = s.after(rng.choice(off or s.open_moves()))
            while walk.open_moves():
                walk = walk.after(rng.choice(walk.open_moves()))
            s = walk.prefix(max(s.steps + 1, walk.steps - rng.randrange(4)))
        out.append(s)
    return out


def assert_backends_agree(both, states, brute_limit=20):
    counts = {True: 0, False: 0}
    brute = 0
    for s in states:
        a, b = (o.decide(s) for o in both)
        assert a.feasible is b.feasible, (s.compact(), a, b)
        assert a.feasible is not None
        if a.feasible:
            assert check_witness(s, a.witness) and check_witness(s, b.witness), s.compact()
        if s.free_count <= brute_limit:
            assert puzzle_alive(s) is a.feasible, s.compact()
            brute += 1
        counts[a.feasible] += 1
    return counts, brute


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_numbers_6_to_10_deep_states_sat_vs_cpsat(both, closed):
    rng = random.Random(613 + closed)
    totals = {True: 0, False: 0}
    checked = 0
    for n in range(6, 11):
        counts, brute = assert_backends_agree(both, deep_states(numbers_puzzle(n, closed), rng, 24, both[0]))
        totals[True] += counts[True]
        totals[False] += counts[False]
        checked += brute
    assert totals[True] > 20 and totals[False] > 20
    assert checked > 30


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize("search_nodes", [3_000, 0], ids=["search-first", "solvers"])
def test_numbers_6_to_10_deep_states_auto_vs_sat(both, closed, search_nodes):
    """auto (its search first, or without it so the solver slices decide) against sat."""
    rng = random.Random(1013 + closed)
    with AutoOracle(search_nodes=search_nodes) as auto:
        totals = {True: 0, False: 0}
        for n in range(6, 11):
            counts, _ = assert_backends_agree((auto, both[0]), deep_states(numbers_puzzle(n, closed), rng, 12, both[0]))
            for k in counts:
                totals[k] += counts[k]
        assert totals[True] > 10 and totals[False] > 10
    if search_nodes == 0:  # the solver slices did decide them
        with AutoOracle(search_nodes=search_nodes, reuse=False) as auto:
            states = deep_states(numbers_puzzle(10, closed), rng, 6, both[0])
            assert {auto.decide(s).backend for s in states} & {"auto:sat", "auto:cpsat"}


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_knight_6x6_sat_vs_cpsat(both, closed):
    """Every state of up to three moves (one per orbit), then deep states also against the brute force."""
    puzzle = knight(6, CYCLE if closed else None)
    g = puzzle.graph
    syms = [p.tolist() for p in g.symmetries()]
    shallow, seen = [], set()
    layer = [PathState(puzzle, (c,)) for c in range(g.size)]
    for _ in range(4):
        nxt = []
        for s in layer:
            key = min((p[s.path[0]], tuple(p[c] for c in s.path)) for p in syms)
            if key not in seen:
                seen.add(key)
                shallow.append(s)
                nxt += [s.after(m) for m in s.open_moves()]
        layer = nxt
    counts, _ = assert_backends_agree(both, shallow, brute_limit=-1)
    assert counts[True] > 100
    counts, brute = assert_backends_agree(both, deep_states(puzzle, random.Random(66 + closed), 60, both[1]))
    assert counts[True] and counts[False] and brute > 20


# --- the encoding, the sessions and the splicing on any graph ---------------------------------------

def test_encoding_on_a_move_graph():
    g = numbers_graph(6)
    enc = Encoding(g)
    assert enc.board is g and Encoding(5).board is Board(5)
    arcs = {key[1:] for key in map(enc.pool.obj, range(1, enc.pool.top + 1)) if key[0] == "arc"}
    assert arcs == {(a, b) for a in range(g.size) for b in g.neighbours_of(a)}


@pytest.mark.parametrize("end", [None, CYCLE, 35], ids=["free", "cycle", "fixed"])
def test_state_assumptions_place_the_last_cell(end):
    g = numbers_graph(6)
    state = PathState.from_moves(Puzzle("numbers-test", g, None, end), (1, 1), "E,S,W,NE")
    enc = Encoding(g)
    lits = set(enc.state_assumptions(state))
    not_last = {c for c in range(g.size) if -enc.last(c) in lits}
    last = {c for c in range(g.size) if enc.last(c) in lits}
    taken = set(state.path) - {state.head}
    if end is None:
        assert not last and not_last == taken
    elif end == CYCLE:
        ends = {c for c in g.neighbours_of(state.path[0]) if c not in taken}
        assert ends and not last and not_last == set(range(g.size)) - ends
    else:
        assert last == {end} and not_last == set(range(g.size)) - {end}
    assert {c for c in range(g.size) if enc.visit(c) in lits} == set(state.free()) | {state.head}
    assert {c for c in range(g.size) if enc.head(c) in lits} == {state.head}


def test_one_session_per_graph():
    """The labyrinth's, the number puzzle's and the knight's 5x5 graphs share no solver, and answer right."""
    rng = random.Random(5)
    puzzles = [numbers_puzzle(5), knight(5), numbers_puzzle(5, closed=True)]
    with SatOracle() as o:
        for _ in range(60):
            kind = rng.randrange(4)
            if kind == 3:
                s = State(Board(5))
                for _ in range(rng.randrange(12)):
                    if s.open_moves():
                        s = s.after(rng.choice(s.open_moves()))
                assert o.decide(s).feasible is completions_exist(s), s.compact()
                continue
            s = PathState(puzzles[kind], (rng.randrange(25),))
            for _ in range(rng.randrange(1, 12)):
                if s.open_moves():
                    s = s.after(rng.choice(s.open_moves()))
            assert o.decide(s).feasible is puzzle_alive(s), s.compact()
        assert len(o._sessions) == 3
        assert Board(5) in o._sessions


@pytest.mark.parametrize("graph", [numbers_graph(7), move_graph(6, KNIGHT)], ids=["numbers7", "knight6"])
def test_splicing_raw_models(graph):
    """Models with subtours, straight from the solver without cuts: every splice is a path from the
    head to the model's last cell through exactly the visited cells, along moves."""
    enc = Encoding(graph)
    rng = random.Random(graph.size)
    spliced = subtours = 0
    with Solver(name="cadical153", bootstrap_with=enc.clauses) as solver:
        for _ in range(80):
            puzzle = Puzzle("t", graph, None, rng.choice([None, CYCLE]))
            s = PathState(puzzle, (rng.randrange(graph.size),))
            for _ in range(rng.randrange(1, 8)):
                if s.open_moves():
                    s = s.after(rng.choice(s.open_moves()))
            if s.free_count == 0 or not solver.solve(assumptions=enc.state_assumptions(s)):
                continue
            decoded = enc.decode(solver.get_model())
            if decoded.is_single_path:
                continue
            subtours += 1
            path = splice_subtours(graph, decoded)
            if path is None:
                continue
            spliced += 1
            assert path[0] == s.head and (path[-1],) == decoded.lasts
            assert len(path) == len(set(path)) and set(path) == decoded.visited
            assert all(graph.move_between(a, b) for a, b in zip(path, path[1:]))
            assert check_witness(s, graph.spell(path))
    assert subtours > 10 and spliced > 5


def test_sat_without_splicing_agrees(numbers5_closed):
    """The cuts alone (no splicing) decide the closed 5x5 walked states like the brute force."""
    with SatOracle(splice=False) as o:
        counts = assert_agrees_with_brute_force(o, numbers5_closed[::3])
        assert counts[True] and counts[False]
        assert o._sessions[numbers_graph(5)].cut_clauses > 0
