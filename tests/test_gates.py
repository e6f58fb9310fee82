"""The gates (labyrinth.rules.gates): areas between single-cell gates decided by CP-SAT, and the pausing walker."""

import json
import pathlib

import numpy as np
import pytest
from conftest import RuleByRule

from labyrinth.engine import Board, State
from labyrinth.engine.walker import random_walk
from labyrinth.rules import get_rule_set
from labyrinth.rules.gates import GatedAreas, _circuit_verdict, area_chain, area_verdict
from labyrinth.rules.walks import PausingRunner
from oracle.cpsat_facts import decide_facts
from oracle.search import crossing

MISSES = pathlib.Path(__file__).parents[1] / "reports" / "strong-plus-plus-plus-misses.jsonl"


def _chain(state, move):
    board = state.board
    nb = np.asarray(board.neighbours, dtype=np.int64)
    after = state.after(move)
    taken = np.array(after.taken, dtype=np.uint8)
    return nb, after, area_chain(nb, after.end, taken, after.head)


def _cut_off(after, cell):
    """The free cells the head no longer reaches once ``cell`` is taken too (brute force)."""
    nb = after.board.neighbours
    seen, todo = {after.head}, [after.head]
    while todo:
        a = todo.pop()
        for b in nb[a]:
            if b >= 0 and b != cell and not after.taken[b] and b not in seen:
                seen.add(b)
                todo.append(b)
    return after.end not in seen


@pytest.mark.parametrize(("n", "index"), [(9, 0), (9, 3), (11, 1), (15, 2)])
def test_the_gates_are_exactly_the_cells_that_cut_the_head_from_the_end(n, index):
    walk = random_walk(n, get_rule_set("universal"), 7, index=index)
    checked = 0
    for k in range(0, walk.state.steps - 1, 3):
        state = walk.state.prefix(k)
        move = walk.state.moves[k]
        nb, after, (gates, label) = _chain(state, move)
        if len(gates) == 0:
            continue
        inner = [c for c in range(after.board.size) if not after.taken[c] and c != after.end]
        cuts = {c for c in inner if _cut_off(after, c)}
        assert set(int(g) for g in gates[1:-1]) == cuts
        assert gates[0] == after.head and gates[-1] == after.end
        # every free cell the head reaches has an area, the gates in the order the line meets them
        assert all(label[g] == i for i, g in enumerate(gates[:-1]))
        checked += 1
    assert checked > 5


def test_an_area_verdict_agrees_with_the_facts_query_of_the_oracle():
    """area_verdict on each area of states along 11x11 walks, against CP-SAT's facts query on the whole board
    (without a budget): the same verdict, or none past the budget."""
    rules = get_rule_set("universal")
    compared = decided = dead = 0
    for index in range(6):
        walk = random_walk(11, rules, 3, index=index)
        for k in range(0, walk.state.steps - 1, 4):
            state = walk.state.prefix(k)
            nb, after, (gates, label) = _chain(state, walk.state.moves[k])
            for i in range(len(gates) - 1):
                cells = [c for c in range(after.board.size) if label[c] == i]
                exit_ = int(gates[i + 1])
                area = set(cells) | {exit_}
                if len(area) < 3:
                    continue
                status = {c: ("required" if c in area else "taken") for c in range(after.board.size)}
                expected = decide_facts(11, int(gates[i]), exit_, status, time_limit=30, core=False)[0]
                got = area_verdict(after.board, sorted(area), int(gates[i]), exit_)
                assert got is expected or got is None  # past its budget an area is undecided, never guessed
                compared += 1
                decided += got is not None
                dead += got is False
    assert compared > 30 and dead > 0 and decided > 0.9 * compared


def test_the_fatal_moves_of_strong_plus_plus_plus_into_a_gated_pocket_are_closed():
    """Two stuck walks of ``strong+++`` (reports/strong-plus-plus-plus-misses.jsonl: 61x61 walk 514<<32+3, 101x101
    walk 29<<32+3) walk into a pocket behind a gate that no path crosses; ``strong+++`` leaves the move open, the
    gates close it, and the state after it is dead."""
    rows = [json.loads(line) for line in MISSES.open()]
    plain = get_rule_set("strong+++")
    for row in (rows[1], rows[3]):
        n, moves = row["line"].split(":")
        before = State.from_moves(int(n), moves[:row["first_dead_step"] - 1])
        assert row["move"] in plain.open_moves(before)
        assert row["move"] in {e.move for e in GatedAreas().effects(before)}
        cells, entry, exit_ = GatedAreas().dead_area(before.board, np.array(before.taken, dtype=np.uint8),
                                                     before.head, "UDLR".index(row["move"]))
        assert entry == before.after(row["move"]).head and exit_ not in cells
        assert len(cells) > 150  # the pocket is far too big for exact-areas' 40 cells


def test_the_fatal_moves_of_strong_plus_plus_plus_plus_left_by_smaller_areas_are_closed():
    """Two stuck walks of ``strong++++`` when it decided areas of at most 1 000 cells with CP-SAT's probing on
    (tests/data/gates-misses.jsonl, 61x61): one went dead with no gate at all (every free cell is the one
    area, 2 862 cells), one in a 356-cell area that CP-SAT refuted only past the budget with probing; both
    fatal moves are open under ``strong+++`` and closed by the gates now."""
    rows = [json.loads(line) for line in (pathlib.Path(__file__).parent / "data" / "gates-misses.jsonl").open()]
    plain = get_rule_set("strong+++")
    sizes = []
    for row in rows:
        n, moves = row["line"].split(":")
        before = State.from_moves(int(n), moves[:-1])
        move = moves[-1]
        assert move in plain.open_moves(before)
        after = before.after(move)
        found = GatedAreas().dead_area(before.board, np.array(before.taken, dtype=np.uint8), before.head,
                                       "UDLR".index(move))
        assert found is not None
        cells, entry, exit_ = found
        assert entry == after.head and len(cells) > 300
        sizes.append((len(cells), after.free_count))
    assert sizes[0][0] == sizes[0][1] + 1  # no gate: the area is the head and every free cell
    assert sizes[1][0] < sizes[1][1]  # an area behind gates: some free cells lie beyond its exit


class _Counting:
    """A pausing rule that closes nothing and counts what it is asked: the walker's stops cost nothing else."""

    name = "counting"
    kind = "disable"
    optional = True
    pauses = True
    spec = None

    def __init__(self):
        self.asked = 0

    def move_dead(self, board, taken, head, d):
        self.asked += 1
        return ()

    def effects(self, state):
        return []


@pytest.mark.parametrize(("n", "walks"), [(21, 12), (41, 3)])
def test_a_pausing_rule_that_closes_nothing_leaves_the_walks_as_they_were(n, walks):
    base = get_rule_set("strong+++")
    counting = _Counting()
    paused = base.extended([counting])
    runner = paused.runner()
    assert isinstance(runner, PausingRunner) and not paused.compiled() and paused.walkable()
    for i in range(walks):
        start = State.from_moves(n, "")
        assert runner.walk(start, 11, i) == base.runner().walk(start, 11, i)
    assert counting.asked > 0  # the walker did stop, and went on with the same random state


@pytest.mark.parametrize(("n", "walks"), [(7, 20), (9, 10), (11, 4)])
def test_the_pausing_walker_walks_the_walks_of_the_set_decided_in_python(n, walks):
    rules = get_rule_set("strong++++")
    assert rules.sound and "gates" in {r.name for r in rules.active}
    for i in range(walks):
        fast = random_walk(n, rules, 5, index=i)
        slow = random_walk(n, RuleByRule(rules), 5, index=i)
        assert fast.state.moves == slow.state.moves and fast.outcome == slow.outcome


def _brute_crossing(board, cells, entry, exit_):
    """A path from ``entry`` through all of ``cells`` ending on ``exit_``, by trying every path (tiny areas)."""
    cells = set(cells)

    def go(here, seen):
        if len(seen) == len(cells):
            return here == exit_
        return any(go(b, seen | {b}) for b in board.neighbours_of(here) if b in cells and b not in seen)

    return go(entry, {entry})


@pytest.mark.parametrize("n", [5, 7])
def test_the_search_and_cp_sat_each_decide_an_area_as_brute_force_does(n):
    """``crossing`` (the exact search, ample nodes) and the CP-SAT stage each agree with trying every path,
    on random connected areas of up to 14 cells with random entries and exits; both answers occur."""
    board = Board(n)
    nb = np.asarray(board.neighbours, dtype=np.int64)
    rng = np.random.default_rng(n)
    seen = set()
    for _ in range(150):
        cells = {int(rng.integers(board.size))}
        for _ in range(int(rng.integers(2, 14))):
            b = int(rng.choice([b for c in cells for b in board.neighbours_of(c) if b not in cells]))
            cells.add(b)
        entry, exit_ = (int(c) for c in rng.choice(sorted(cells), 2, replace=False))
        expected = _brute_crossing(board, cells, entry, exit_)
        assert crossing(board, sorted(cells), entry, exit_, 10**6) is expected
        assert _circuit_verdict(nb, sorted(cells), entry, exit_, 10.0) is expected
        seen.add(expected)
    assert seen == {True, False}
