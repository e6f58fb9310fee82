"""The ``search`` backend on any move graph, against definition-only brute force.

* 5x5 number puzzle, open: every reachable (taken cells, head) state *up to the
  board's 8 symmetries* (``graph.symmetries()``): the states are walked orbit by
  orbit and each orbit is checked once, on its first-met member (checking all
  ~896k states would take minutes). The walk is complete: the children of any
  member of an orbit are the images of the children of the member expanded.
* 5x5 number puzzle, closed: every reachable state from three first cells (a
  corner, the centre, an edge cell), up to the symmetries that fix the first cell.
* the knight (bipartite, so colour balance prunes) on 5x5: every state from the
  centre up to symmetry, open and closed (5x5 has no closed tour), plus 3 000
  seeded random walks of 10 moves or more from any cell (all orbits would be
  531 502 states, and brute force on shallow dead ones is slow); on 6x6, open
  and closed: seeded random walks and witness prefixes with random detours.
* ``prune`` never calls an alive state dead, and a move it forces is the only feasible one.
* the general kernel against the labyrinth's own on every reachable 5x5 state
  and a seeded sample of 7x7 ones.
* seeded deep states on number boards 6 to 10 (open and closed): witnesses check,
  verdicts are consistent with the children's, and brute force confirms the dead
  ones with at most 20 free cells.
* every check the search skips agrees with the full check (an audit mode), and
  searches that called a position dead from memory agree with brute force.
"""

import random

import numpy as np
import pytest
from brute import completions_exist, reachable_states
from brute_puzzle import puzzle_alive

from labyrinth.core import CYCLE, PathState, Puzzle, blocks, move_graph
from labyrinth.engine import State
from labyrinth.puzzles.numbers import numbers_puzzle
from oracle import check_witness
from oracle.search import SearchOracle, _question, _run_general, _Tables, prune

#: brute force confirms dead deep states up to this many free cells
BRUTE_FREE = 20


def knight(n, closed=False):
    return Puzzle("knight-test", move_graph(n, ((1, 2),)), None, CYCLE if closed else None)


# --- states, one per orbit of the board's symmetries ------------------------------------


class _Images:
    """Bit-mask images under a group of cell permutations, by byte lookup tables."""

    def __init__(self, perms):
        self.perms = perms
        size = len(perms[0])
        self.tables = []
        for p in perms:
            rows = []
            for lo in range(0, size, 8):
                row = []
                for byte in range(256):
                    m = 0
                    for b in range(8):
                        if byte >> b & 1 and lo + b < size:
                            m |= 1 << int(p[lo + b])
                    row.append(m)
                rows.append(row)
            self.tables.append(rows)

    def canonical(self, mask, head):
        best = None
        for p, rows in zip(self.perms, self.tables):
            image = 0
            m = mask
            for row in rows:
                image |= row[m & 255]
                m >>= 8
            key = (image, int(p[head]))
            if best is None or key < best:
                best = key
        return best


def orbit_paths(puzzle, first=None):
    """One path per orbit of reachable ``(taken, head)`` states (from ``first``, or any cell).

    The group is the graph's symmetries (those fixing ``first`` when given).
    """
    g = puzzle.graph
    perms = [p for p in g.symmetries() if first is None or p[first] == first]
    images = _Images(perms)
    nbrs = [tuple(g.neighbours_of(c)) for c in range(g.size)]
    seen = set()
    stack = [(s,) for s in (range(g.size) if first is None else (first,))]
    while stack:
        path = stack.pop()
        mask = 0
        for c in path:
            mask |= 1 << c
        key = images.canonical(mask, path[-1])
        if key in seen:
            continue
        seen.add(key)
        yield path
        stack.extend(path + (w,) for w in nbrs[path[-1]] if not mask >> w & 1)


@pytest.fixture(scope="module")
def oracle():
    return SearchOracle()


def _agree(oracle, state, alive):
    verdict = oracle.decide(state)
    assert verdict.feasible is alive, state
    if alive:
        assert check_witness(state, verdict.witness), state


def _prune_sound(state, alive):
    """prune never says dead on an alive state; a move it forces is the only feasible one.

    Radius 2 only: its verdicts include those of radius 0 and 1 (the same checks,
    then the pocket check on a superset of cells; the forced move is the same).
    """
    verdict = prune(state, 2)
    if verdict == "dead":
        assert not alive, state
    elif verdict is not None and alive:
        feasible = [m for m in state.open_moves() if puzzle_alive(state.after(m))]
        assert feasible == [verdict], state
    return verdict


def _blocks_verdict(state):
    t = _Tables.of(state.board)
    taken, end, free_count = _question(state)
    freel = np.flatnonzero(taken == 0).astype(np.int32)
    return blocks.blocks(t.nb, t.colour, end, taken, state.head, free_count, freel, -1, t.work)


def _check_all(oracle, puzzle, paths):
    alive = dead = pruned = 0
    for path in paths:
        state = PathState(puzzle, path, _trusted=True)
        truth = puzzle_alive(state)
        _agree(oracle, state, truth)
        alive += truth
        dead += not truth
        pruned += _prune_sound(state, truth) == "dead"
    return alive, dead, pruned


# --- brute-force agreement ---------------------------------------------------------------------


def test_numbers_5x5_open_every_state_up_to_symmetry(oracle):
    puzzle = numbers_puzzle(5)
    assert len(puzzle.graph.symmetries()) == 8
    alive, dead, pruned = _check_all(oracle, puzzle, orbit_paths(puzzle))
    assert alive and dead and pruned


@pytest.mark.parametrize("first", [(1, 1), (3, 3), (1, 3)])
def test_numbers_5x5_closed_every_state_from_a_first_cell(oracle, first):
    puzzle = numbers_puzzle(5, closed=True)
    alive, dead, _ = _check_all(oracle, puzzle, orbit_paths(puzzle, puzzle.graph.cell(*first)))
    assert alive and dead


def test_knight_5x5_open_every_state_from_the_centre_and_a_sample(oracle):
    puzzle = knight(5)
    alive, dead, _ = _check_all(oracle, puzzle, orbit_paths(puzzle, puzzle.graph.cell(3, 3)))
    assert alive and dead
    rng = random.Random(55)
    walks = [_walk(puzzle, rng, rng.randrange(25), rng.randrange(10, 25)).path for _ in range(3000)]
    alive, dead, _ = _check_all(oracle, puzzle, walks)
    assert alive and dead
    colour = [_blocks_verdict(PathState(puzzle, p)) == blocks.COLOUR for p in walks]
    assert any(colour)  # colour balance does prune


def test_knight_5x5_closed_every_state_from_the_centre(oracle):
    puzzle = knight(5, closed=True)  # 25 cells, bipartite: no closed tour at all
    _, dead, pruned = _check_all(oracle, puzzle, orbit_paths(puzzle, puzzle.graph.cell(3, 3)))
    assert dead and pruned


def _walk(puzzle, rng, first, steps):
    state = PathState(puzzle, [first])
    for _ in range(steps):
        moves = state.open_moves()
        if not moves:
            break
        state = state.after(rng.choice(moves))
    return state


def _near_witness(oracle, puzzle, rng, first, free, detour):
    """A prefix of a witness from ``first`` with ``free`` cells left, then ``detour`` random moves."""
    start = PathState(puzzle, [first])
    verdict = oracle.decide(start)
    if not verdict.feasible:
        return None
    cells = [first] + puzzle.graph.replay(first, verdict.witness)
    state = PathState(puzzle, cells[: max(1, puzzle.graph.size - free)], _trusted=True)
    for _ in range(detour):
        moves = state.open_moves()
        if not moves:
            break
        state = state.after(rng.choice(moves))
    return state


@pytest.mark.parametrize("closed", [False, True])
def test_knight_6x6_seeded_states(oracle, closed):
    puzzle = knight(6, closed)
    rng = random.Random(6 + closed)
    states = []
    while len(states) < 300:
        first = rng.randrange(36)
        if len(states) % 2:
            state = _walk(puzzle, rng, first, rng.randrange(36 - BRUTE_FREE - 1, 36))
        else:
            state = _near_witness(oracle, puzzle, rng, first, rng.randrange(4, BRUTE_FREE + 3), rng.randrange(3))
        if state is not None and state.free_count <= BRUTE_FREE:
            states.append(state)
    alive = 0
    for state in states:
        truth = puzzle_alive(state)
        _agree(oracle, state, truth)
        _prune_sound(state, truth)
        alive += truth
    assert 0 < alive < len(states)


# --- the colour test is vacuous without a 2-colouring ---------------------------------------------


def test_colour_balance_never_fires_on_the_number_graph():
    puzzle = numbers_puzzle(5)
    assert not puzzle.graph.bipartite and not puzzle.graph.colour.any()
    rng = random.Random(5)
    verdicts = set()
    for _ in range(3000):
        state = _walk(puzzle, rng, rng.randrange(25), rng.randrange(25))
        if state.free_count:
            verdicts.add(_blocks_verdict(state))
    assert blocks.COLOUR not in verdicts and len(verdicts) > 1


# --- the general kernel against the labyrinth's own --------------------------------------------


def test_general_kernel_agrees_on_every_5x5_labyrinth_state():
    special, generic = SearchOracle(), SearchOracle(general=True)
    for state in reachable_states(5):
        truth = completions_exist(state)
        a, b = special.decide(state), generic.decide(state)
        assert a.feasible is b.feasible is truth, state
        if truth:
            assert check_witness(state, b.witness), state
        if prune(state, 2, general=True) == "dead":  # radius 2: see _prune_sound
            assert not truth, state


def test_general_kernel_agrees_on_7x7_labyrinth_sample():
    special, generic = SearchOracle(), SearchOracle(general=True)
    rng = random.Random(77)
    alive = 0
    for _ in range(1500):
        state = State.from_moves(7, "")
        for _ in range(rng.randrange(0, 48)):
            moves = state.open_moves()
            if not moves:
                break
            state = state.after(rng.choice(moves))
        a, b = special.decide(state), generic.decide(state)
        assert a.feasible is b.feasible, state
        if b.feasible:
            alive += 1
            assert check_witness(state, b.witness), state
    assert alive


# --- deep states on bigger number boards ------------------------------------------------------


@pytest.mark.parametrize("n", [6, 7, 8, 9, 10])
@pytest.mark.parametrize("closed", [False, True])
def test_deep_number_states_are_consistent(oracle, n, closed):
    puzzle = numbers_puzzle(n, closed)
    rng = random.Random(n * 2 + closed)
    alive = dead = confirmed = 0
    for _ in range(60):
        state = None
        while state is None:
            state = _near_witness(oracle, puzzle, rng, rng.randrange(n * n), rng.randrange(3, 2 * BRUTE_FREE),
                                  rng.randrange(1, 9))
        verdict = oracle.decide(state)
        assert verdict.feasible is not None
        children = [oracle.decide(state.after(m)).feasible for m in state.open_moves()]
        if verdict.feasible:
            alive += 1
            assert check_witness(state, verdict.witness), state
            nxt = state.after(state.board.split(verdict.witness)[0]) if verdict.witness else None
            assert nxt is None or oracle.decide(nxt).feasible
            assert True in children or state.free_count == 0
        else:
            dead += 1
            assert True not in children, state
        if state.free_count <= BRUTE_FREE:
            truth = puzzle_alive(state)
            assert verdict.feasible is truth, state
            _prune_sound(state, truth)
            confirmed += not truth
        elif verdict.feasible:
            assert prune(state, 1) != "dead", state
    assert alive and dead and confirmed


def test_positions_remembered_dead_agree_with_brute_force(oracle):
    """Searches that met a position again and called it dead from memory give the brute-force verdict."""
    rng = random.Random(21)
    checked = dead = 0
    for _ in range(300):
        n = rng.choice((8, 10, 12))
        puzzle = numbers_puzzle(n, rng.random() < 0.5)
        state = _near_witness(oracle, puzzle, rng, rng.randrange(n * n), rng.randrange(20, 27), rng.randrange(2, 9))
        if state is None:
            continue
        verdict = oracle.decide(state)
        if verdict.work.get("memo_hits"):
            assert verdict.feasible is puzzle_alive(state), state
            checked += 1
            dead += not verdict.feasible
            if checked == 10:
                break
    assert checked == 10 and dead


def test_remembered_positions_are_compared_exactly_not_by_key():
    """With the taken cells' Zobrist keys zero, a position's key is its head's alone: positions
    with one head share a key and a slot, only the kept taken set tells them apart, and the
    verdicts stay those of the real keys (which the brute-force tests above check)."""
    rng = random.Random(34)
    searcher = SearchOracle()
    checked = hits = alive = 0
    for _ in range(400):
        puzzle = rng.choice((numbers_puzzle(8), knight(8), numbers_puzzle(8, closed=True)))
        state = _walk(puzzle, rng, rng.randrange(64), rng.randrange(5, 30))
        if state.is_complete():
            continue
        truth = searcher.decide(state)
        if not truth.work.get("memo_hits"):
            continue
        tables = _Tables.of(state.board)
        keys = tables.zob.copy()
        tables.zob[:2] = 0
        try:
            verdict = searcher.decide(state)
        finally:
            tables.zob[:] = keys
        assert verdict.feasible is truth.feasible, state.compact()
        if verdict.feasible:
            assert check_witness(state, verdict.witness)
        hits += verdict.work["memo_hits"]
        alive += verdict.feasible
        checked += 1
        if checked == 8:
            break
    assert checked == 8 and alive and hits  # memory was used, through the full comparison only


def test_closed_witness_returns_next_to_the_first_cell(oracle):
    for n in (6, 8, 10):
        puzzle = numbers_puzzle(n, closed=True)
        state = PathState(puzzle, [puzzle.graph.cell(2, 3)])
        verdict = oracle.decide(state)
        cells = [state.head] + puzzle.graph.replay(state.head, verdict.witness)
        assert sorted(cells) == list(range(n * n))
        assert cells[0] in puzzle.graph.neighbours_of(cells[-1])


def test_skipped_checks_agree_with_full_checks():
    """The search skips the cut-vertex pass after corridor steps and locally 2-connected ones
    (and calls a head on a cut vertex dead); an audit reruns the full check there."""
    rng = random.Random(13)
    nodes = checks = 0
    for n in (6, 9, 12, 16):
        for puzzle in (numbers_puzzle(n), numbers_puzzle(n, True), knight(n), knight(n, True)):
            for _ in range(4):
                state = _walk(puzzle, rng, rng.randrange(n * n), rng.randrange(1, n * n // 2))
                if state.free_count == 0:
                    continue
                for radius in (0, 1):
                    _, _, work = _run_general(state, None, 5000, radius, rng.randrange(3), audit=True)
                    assert work["audit_failures"] == 0, state
                    nodes += work["nodes"]
                    checks += work["full_checks"]
    for _ in range(40):
        state = State.from_moves(9, "")
        for _ in range(rng.randrange(0, 60)):
            moves = state.open_moves()
            if not moves:
                break
            state = state.after(rng.choice(moves))
        if not state.at_end():
            _, _, work = _run_general(state, None, 5000, 0, 0, audit=True)
            assert work["audit_failures"] == 0, state
    assert checks < nodes  # the skips do happen


def test_node_limit_makes_unknown_not_a_guess():
    puzzle = numbers_puzzle(8)
    state = PathState(puzzle, [0])
    verdict = SearchOracle(node_limit=5).decide(state)
    assert verdict.feasible is None and verdict.witness is None
