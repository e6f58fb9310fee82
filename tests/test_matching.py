"""The two-matching rule: exact for its relaxation, and the walker's incremental repair decides as a rebuild."""

import collections

import pytest
from conftest import RuleByRule

from labyrinth.engine import State
from labyrinth.engine.walker import random_walk
from labyrinth.rules import get_rule_set
from labyrinth.rules.matching import TwoMatching


def _perfect_two_matching(state):
    """True if every free cell can get two edges (end and head one) among free cells: a plain max flow.

    Written apart from the kernel (Edmonds-Karp on a dictionary network) so the two can be compared.
    """
    board = state.board
    head, end = state.head, board.end
    free = [c for c in range(board.size) if not state.taken[c]]
    nodes = set(free) | {head}
    need = {c: 2 for c in free}
    need[end] = 1
    need[head] = 1
    black = [c for c in nodes if board.colour[c] == 1]
    white = [c for c in nodes if board.colour[c] != 1]
    if sum(need[c] for c in black) != sum(need[c] for c in white):
        return False
    cap = collections.defaultdict(int)
    adj = collections.defaultdict(set)

    def arc(u, v, c):
        cap[u, v] += c
        adj[u].add(v)
        adj[v].add(u)

    for b in black:
        arc("s", b, need[b])
        for w in board.neighbours_of(b):
            if w in nodes and not ({b, w} == {head, end} and len(free) > 1):
                arc(b, w, 1)
    for w in white:
        arc(w, "t", need[w])
    flow = 0
    while True:
        prev = {"s": None}
        queue = collections.deque(["s"])
        while queue and "t" not in prev:
            u = queue.popleft()
            for v in adj[u]:
                if v not in prev and cap[u, v] > 0:
                    prev[v] = u
                    queue.append(v)
        if "t" not in prev:
            return flow == sum(need[c] for c in black)
        v = "t"
        while prev[v] is not None:
            cap[prev[v], v] -= 1
            cap[v, prev[v]] += 1
            v = prev[v]
        flow += 1


def _refuted(state):
    """The moves the relaxation refutes (a move onto the end corner is left to other rules)."""
    return {m for m in state.open_moves()
            if not state.after(m).at_end() and not _perfect_two_matching(state.after(m))}


@pytest.mark.parametrize("n", [5, 7, 9, 11, 13, 21])
@pytest.mark.parametrize("rules", ["none", "default"])
def test_the_rule_closes_exactly_the_moves_a_max_flow_refutes(n, rules):
    rule = TwoMatching()
    closed = 0
    for i in range(10 if n < 13 else 3):
        walk = random_walk(n, get_rule_set(rules), 44, index=i)
        for k in range(0, walk.state.steps, 1 if n < 13 else 4):
            state = walk.state.prefix(k)
            got = {e.move for e in rule.effects(state)}
            assert got == _refuted(state), state.compact()
            closed += len(got)
    if rules == "none":
        assert closed > 0


@pytest.mark.parametrize("n", [5, 7, 11, 15, 21])
def test_the_walker_repairing_its_matching_walks_as_a_rebuild_per_state(n):
    rules = get_rule_set("universal", on=["two-matching", "future-lines"])
    for i in range(10 if n < 15 else 3):
        a = random_walk(n, rules, 8, index=i)
        b = random_walk(n, RuleByRule(rules), 8, index=i)
        assert (a.state, a.outcome) == (b.state, b.outcome)


def test_a_state_without_a_matching_closes_every_move():
    # after 9:RRDDDRDR D no edge set meets every degree, and no later move can mend that
    state = State.from_moves(9, "RRDDDRDRD")
    assert not _perfect_two_matching(state)
    moves = {m for m in state.open_moves() if not state.after(m).at_end()}
    assert moves and {e.move for e in TwoMatching().effects(state)} == moves
