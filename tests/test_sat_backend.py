"""The SAT backend against brute force, its readable variable pool, and its facts cores."""

import functools
import random
import time

import pytest
from brute import brute_force, reachable_states, state_mask

from labyrinth.engine import Board, State
from oracle.base import BuildExpired
from oracle.sat import SatOracle
from oracle.sat_encode import OPTIONAL, REQUIRED, TAKEN, Encoding

KINDS = {"visit": 1, "arc": 2, "head": 1, "last": 1}


@pytest.fixture(scope="module")
def oracle():
    with SatOracle() as o:
        yield o


@pytest.fixture(scope="module")
def states5():
    """``{(taken mask, head): path}`` of every reachable 5x5 state."""
    return {(state_mask(s), s.head): s.path for s in reachable_states(5)}


@pytest.mark.parametrize("splice", [False], ids=["cuts-only"])  # with splicing: test_oracle
def test_sat_matches_brute_force_on_every_5x5_state(states5, splice):
    alive = brute_force(5)
    board = Board(5)
    t0 = time.perf_counter()
    counts = {True: 0, False: 0}
    calls = 0
    with SatOracle(splice=splice) as oracle:
        for (mask, head), path in states5.items():
            verdict = oracle.decide(State(board, path, _trusted=True))
            expected = alive(mask, head)
            assert verdict.feasible is expected, (State(board, path).compact(), verdict)
            counts[expected] += 1
            if head != board.end:
                assert verdict.work["sat_calls"] >= 1  # the solver is asked every non-trivial state
                calls += verdict.work["sat_calls"]
    elapsed = time.perf_counter() - t0
    print(f"\n5x5 exhaustive ({'splice' if splice else 'cuts only'}): {len(states5)} states "
          f"({counts[True]} alive, {counts[False]} dead), {calls} SAT calls, {elapsed:.1f} s")
    assert counts[True] and counts[False]


@pytest.fixture(scope="module")
def near_misses7():
    """7x7 states near completions: prefixes of witnesses, and one different move after them."""
    n, rng = 7, random.Random(77)
    board = Board(n)
    states = []
    with SatOracle() as o:
        while len(states) < 240:
            s = State(board)
            for _ in range(rng.randrange(0, 12)):
                if s.open_moves():
                    s = s.after(rng.choice(s.open_moves()))
            v = o.decide(s)
            if s.at_end() or not v.feasible:
                continue
            full = State.from_moves(n, s.moves + v.witness)
            for _ in range(4):
                k = rng.randrange(max(1, s.steps), full.steps)
                p = full.prefix(k)
                states.append(p)
                other = [m for m in p.open_moves() if m != full.moves[k]]
                if other and not p.after(other[0]).at_end():
                    states.append(p.after(rng.choice(other)))
    return [s for s in states if s.free_count <= 40]


@pytest.mark.parametrize("splice", [True, False], ids=["splice", "cuts-only"])
def test_sat_matches_brute_force_near_7x7_completions(near_misses7, splice):
    alive = brute_force(7, prune=True)
    verdicts = {True: 0, False: 0}
    cut = 0
    with SatOracle(splice=splice) as oracle:
        for state in near_misses7:
            v = oracle.decide(state)
            expected = alive(sum(1 << c for c in state.path), state.head)
            assert v.feasible is expected, state.compact()
            verdicts[expected] += 1
            cut += v.work.get("cycles", 0)
    assert verdicts[True] > 50 and verdicts[False] > 20
    assert cut > 0  # the cut loop was exercised


@pytest.mark.parametrize("n", [3, 5, 7])
def test_every_variable_has_a_readable_key(n):
    enc = Encoding(n)
    b = enc.board
    # cuts for an arbitrary set too: they must not introduce anonymous variables
    ring = {0, 1, 2, n + 2, 2 * n + 2, 2 * n + 1, 2 * n, n}
    clauses = (enc.clauses + enc.subtour_cuts(ring) + enc.subtour_cuts(ring, leaving=True)
               + enc.subtour_cuts({0, 1, n, n + 1, 2 * n + 2}, compact=False))
    used = {abs(lit) for clause in clauses for lit in clause}
    assert used <= set(range(1, enc.pool.top + 1))
    for var in range(1, enc.pool.top + 1):
        key = enc.pool.obj(var)
        assert isinstance(key, tuple), (var, key)
        assert enc.pool.id(key) == var
        kind = key[0]
        if kind == "aux":
            assert isinstance(key[1], str) and isinstance(key[2], int)
            continue
        if kind == "cut":
            assert isinstance(key[1], int) and key[2] in ("in", "out")
            continue
        assert len(key) == 1 + KINDS[kind]
        assert all(0 <= c < b.size for c in key[1:])
        if kind == "arc":
            assert b.move_between(key[1], key[2]) is not None


def test_decode_reads_a_witness_back():
    n = 5
    enc = Encoding(n)
    state = State.from_moves(n, "RRDL")
    with SatOracle() as o:
        w = o.decide(state).witness
    full = State.from_moves(n, state.moves + w)
    path = full.path[state.steps:]
    model = [enc.visit(c) if c in path else -enc.visit(c) for c in range(n * n)]
    model += [enc.arc(a, c) for a, c in zip(path, path[1:])]
    model += [enc.head(path[0]), enc.last(path[-1])]
    d = enc.decode(model)
    assert d.path == tuple(path) and d.is_single_path and not d.cycles
    # a short path along the bottom row plus a 2x3 ring at the top: the ring is a subtour
    line, ring = [20, 21, 22, 23, 24], [0, 1, 2, 7, 6, 5]
    model = [enc.visit(c) for c in line + ring] + [enc.head(20), enc.last(24)]
    model += [enc.arc(a, c) for a, c in zip(line, line[1:])]
    model += [enc.arc(a, c) for a, c in zip(ring, ring[1:] + ring[:1])]
    d2 = enc.decode(model)
    assert d2.path == tuple(line) and d2.cycles == (frozenset(ring),) and not d2.is_single_path


def _facts(state):
    return [TAKEN if t else REQUIRED for t in state.taken]


def test_facts_query_agrees_with_states(oracle, states5):
    alive = brute_force(5)
    rng = random.Random(5)
    board = Board(5)
    sample = rng.sample(sorted(states5.items()), 400)
    for (mask, head), path in sample:
        state = State(board, path, _trusted=True)
        feasible, core, cells = oracle.decide_facts(5, head, board.end, _facts(state))
        assert feasible is alive(mask, head)
        if feasible:
            assert cells[0] == head and cells[-1] == board.end
            assert sorted(cells[1:]) == state.free()
            assert all(board.move_between(a, c) for a, c in zip(cells, cells[1:]))
        else:
            assert cells is None and core is not None


def _check_facts_path(board, head, end, status, cells):
    assert cells[0] == head and cells[-1] == end
    assert len(set(cells)) == len(cells)
    assert all(board.move_between(a, c) for a, c in zip(cells, cells[1:]))
    on = set(cells)
    for c in range(board.size):
        if c != head and status[c] == TAKEN:
            assert c not in on
        if status[c] == REQUIRED:
            assert c in on


def test_optional_cells_may_be_skipped(oracle):
    b = Board(5)
    # only the end required: the straight line down the right edge will do, among others
    status = [OPTIONAL] * b.size
    status[b.end] = REQUIRED
    feasible, core, cells = oracle.decide_facts(5, 4, b.end, status)
    assert feasible and core is None
    _check_facts_path(b, 4, b.end, status, cells)
    # a mapping leaves missing cells optional
    feasible, _, cells = oracle.decide_facts(5, 0, b.end, {12: REQUIRED, 6: TAKEN})
    assert feasible
    _check_facts_path(b, 0, b.end, [{12: REQUIRED, 6: TAKEN}.get(c, OPTIONAL) for c in range(b.size)],
                      cells)


def facts_brute_force(board, head, end, status):
    """Is there a simple path head -> end avoiding taken cells and covering required ones?"""
    nbrs = [board.neighbours_of(c) for c in range(board.size)]
    req = sum(1 << c for c in range(board.size) if status[c] == REQUIRED and c != head)
    tak = sum(1 << c for c in range(board.size) if status[c] == TAKEN and c != head)

    @functools.lru_cache(maxsize=None)
    def go(mask, c):
        if c == end:
            return mask & req == req
        return any(go(mask | 1 << d, d) for d in nbrs[c] if not (mask | tak) >> d & 1)

    return go(1 << head, head)


def test_facts_queries_with_optional_cells_match_brute_force():
    board, rng = Board(5), random.Random(55)
    verdicts = {True: 0, False: 0}
    with SatOracle() as o:
        for _ in range(150):
            head, end = rng.randrange(board.size), rng.choice([board.end, rng.randrange(board.size)])
            p = rng.random()
            status = rng.choices([TAKEN, REQUIRED, OPTIONAL], [p, (1 - p) / 2, (1 - p) / 2], k=board.size)
            truth = facts_brute_force(board, head, end, status)
            feasible, core, cells = o.decide_facts(5, head, end, status)
            assert feasible is truth, (head, end, status)
            verdicts[truth] += 1
            if feasible:
                _check_facts_path(board, head, end, status, cells)
            else:
                alone = [OPTIONAL] * board.size
                for cell, kind in core.facts:
                    alone[cell] = kind
                assert facts_brute_force(board, head, end, alone) is False
    assert verdicts[True] and verdicts[False]


@pytest.mark.parametrize("n,count", [(5, 150), (7, 40)])
def test_cores_are_infeasible_on_their_own(n, count):
    rng = random.Random(n)
    board = Board(n)
    dead = []
    with SatOracle() as o:
        while len(dead) < count:
            state = State(board)
            steps = rng.randrange(1, board.size)
            while state.steps < steps and state.open_moves():
                state = state.after(rng.choice(state.open_moves()))
            if state.at_end() or o.decide(state).feasible:
                continue
            dead.append(state)
        smaller = 0
        for state in dead:
            feasible, core, _ = o.decide_facts(n, state.head, board.end, _facts(state))
            assert feasible is False
            status = [OPTIONAL] * board.size
            for cell, kind in core.facts:
                assert kind in (TAKEN, REQUIRED)
                assert kind == (TAKEN if state.taken[cell] else REQUIRED)
                status[cell] = kind
            again, core2, _ = o.decide_facts(n, state.head, board.end, status)
            assert again is False, (state.compact(), core)
            smaller += len(core.facts) < board.size - 1
    # and with a fresh solver (no cuts learnt from the original queries)
    with SatOracle() as fresh:
        for state in dead[:20]:
            _, core, _ = fresh.decide_facts(n, state.head, board.end, _facts(state))
            status = [OPTIONAL] * board.size
            for cell, kind in core.facts:
                status[cell] = kind
            with SatOracle() as other:
                assert other.decide_facts(n, state.head, board.end, status)[0] is False
    assert smaller  # cores are usually proper subsets of the facts


@pytest.mark.parametrize("solver", ["cadical153", "glucose4"])
def test_time_limit_gives_unknown_not_a_guess(solver):
    state = State.from_moves(9, "RRRRRRRRDLLLLLLLLD")
    with SatOracle(solver=solver) as o:
        v = o.decide(state, time_limit=0.0)
        assert v.feasible is None and v.witness is None and v.status == "unknown"
        # the solver stays usable after a timeout
        v = o.decide(state)
        assert v.feasible is True


@pytest.mark.parametrize("solver", ["cadical153", "glucose4"])
def test_time_limit_interrupts_a_long_solve(solver):
    # every cell required but one white cell taken: dead by colour count alone,
    # which takes CDCL many seconds to refute on 13x13 (CaDiCaL ~15 s, Glucose > 60 s)
    n = 13
    status = [REQUIRED] * (n * n)
    status[2] = TAKEN
    with SatOracle(solver=solver) as o:
        o.decide(State.from_moves(n, "R"))  # build the encoding first
        feasible, core, cells = o.decide_facts(n, 0, n * n - 1, status, time_limit=0.3)
        assert (feasible, core, cells) == (None, None, None)  # how soon it stops: bench/limits.py
        # interrupted or sliced, the solver answers the next query normally
        assert o.decide(State.from_moves(n, "RDR")).feasible is False  # (1,2) is a dead end
        assert o.decide(State.from_moves(n, "RRD")).feasible is True


def test_cuts_are_kept_between_queries():
    state = State.from_moves(9, "DDDDRRRR")  # needs a few rounds of cuts without splicing
    with SatOracle(splice=False) as o:
        first = o.decide(state).work
        again = o.decide(state).work
    assert first["cuts"] > 0 and first["sat_calls"] > 1
    assert again["cuts_total"] >= first["cuts_total"]
    assert again["sat_calls"] < first["sat_calls"]


# --- building a big board's formula under a deadline (issue 28.8) ----------------------------------------------


@pytest.mark.parametrize("lits", [[3, 7], [5, -2, 9], list(range(1, 12)), [-4, 6, 8, 10, -12, 14, 16]])
def test_cardinality_clauses_are_pysats(lits):
    """The linear-time at-most-one encodings give pysat's clauses, in pysat's order (the solver sees the same CNF)."""
    from pysat.card import CardEnc, EncType

    enc = Encoding(3)
    top = enc.pool.top
    for method, kind in ((enc._pairwise, EncType.pairwise), (lambda x: list(enc._sequential(x, "t")),
                                                            EncType.seqcounter)):
        enc.clauses = []
        method(lits)
        theirs = CardEnc.atmost(lits=lits, bound=1, top_id=enc.pool.top, encoding=kind).clauses
        fresh = {top + 1 + k: enc.pool.id(("aux", "t", k)) for k in range(len(lits))}  # their new ids -> ours
        assert [tuple(c) for c in enc.clauses] == [tuple(fresh.get(abs(v), abs(v)) * (1 if v > 0 else -1)
                                                         for v in c) for c in theirs]
        top = enc.pool.top


def test_the_build_looks_at_the_deadline_often(monkeypatch):
    """Between two looks at the clock the build adds at most ~20 000 clauses and variables, on any board size.

    (pysat's own sequential counter added 3 n^2 clauses in one call, in time quadratic in n^2:
    33 s at 301x301, past any deadline.)
    """
    import oracle.sat_encode as sat_encode

    gaps, last, built = [], [0], []

    def look(deadline):
        if not built:
            return True  # the constructor stops at once; resume() below builds, watched
        now = len(built[0].clauses) + built[0].pool.top
        gaps.append(now - last[0])
        last[0] = now
        return False

    monkeypatch.setattr(sat_encode, "expired", look)
    built.append(Encoding(151, deadline=0.0, partial=True))
    assert built[0].resume(deadline=0.0) and len(gaps) > 50
    assert max(gaps) <= 20_000, max(gaps)


def test_a_build_cut_short_resumes_to_the_same_formula(monkeypatch):
    import itertools

    import oracle.sat_encode as sat_encode

    whole = Encoding(9)
    ticks = itertools.count()
    monkeypatch.setattr(sat_encode, "expired", lambda deadline: deadline is not None and next(ticks) % 3 == 2)
    enc = Encoding(9, deadline=0.0, partial=True)
    rounds = 1
    while not enc.resume(deadline=0.0):
        rounds += 1
    assert rounds > 1 and enc.complete
    assert enc.clauses == whole.clauses and enc.pool.obj2id == whole.pool.obj2id
    with pytest.raises(BuildExpired):
        Encoding(9, deadline=0.0)  # not partial: a build past its deadline is an error to the caller


def test_a_query_cut_short_in_the_build_leaves_it_for_the_next(monkeypatch):
    """Each query out of time while the formula is built says unknown; the next goes on, none starts again."""
    import itertools

    import oracle.sat_encode as sat_encode

    state = State.from_moves(7, "RRDD")
    ticks = itertools.count()
    monkeypatch.setattr(sat_encode, "expired", lambda deadline: deadline is not None and next(ticks) % 4 == 3)
    answers, sessions = [], set()
    with SatOracle(time_limit=600) as o:
        while len(answers) < 100:
            answers.append(o.decide(state).feasible)
            sessions.add(id(o._sessions[state.board]))
            if answers[-1] is not None:
                break
    truth = brute_force(7)(state_mask(state), state.head)
    assert answers[0] is None and answers[-1] is truth and set(answers[:-1]) == {None}
    assert len(sessions) == 1
