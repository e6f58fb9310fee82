"""Certificates: the checker accepts what the builder makes, rejects what was tampered with, never a live move.

The suite's sampled versions of the measured targets (bench/certificates.py
runs the full ones): every move ``strong`` closes on seeded walks gets a
certificate the checker accepts, and every move ``strong+++`` closes too;
on random 7x7 and 9x9 states every certificate the checker accepts, built or
tampered with, is for a move the oracle finds dead. The ``crossing`` step
(the cut rule's bridges and two-edge cuts) is checked on a move only ``cut``
closes, and against every completion of small boards.
"""

import ast
import json
import random
from pathlib import Path

import pytest

from labyrinth.cli import main
from labyrinth.engine import State
from labyrinth.engine.walker import random_walk
from labyrinth.rules import get_rule_set
from oracle import get_oracle
from verify.certificates import KINDS, WORDS, certificate, check, closed_certificates, quote, sentences
from verify.certificates.board import edge_key
from verify.certificates.check import MAX_DEPTH, Board, Facts, Invalid, holds
from verify.certificates.quote import quote_text

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def strong():
    return get_rule_set("strong")


@pytest.fixture(scope="module")
def oracle():
    with get_oracle("auto", time_limit=60) as o:
        yield o


def _dead(oracle, state, move):
    verdict = oracle.decide(state.after(move))
    assert verdict.feasible is not None, "the oracle ran out of time"
    return not verdict.feasible


def _closed(state, rules):
    return [m for m in state.open_moves() if m not in rules.open_moves(state)]


def _walk_states(n, rules, seeds):
    for seed in seeds:
        final = random_walk(n, rules, seed).state
        for k in range(final.steps):
            yield State(final.board, final.path[:k + 1])


# --- coverage: every move strong closes -------------------------------------------------------------------


@pytest.mark.parametrize("n, seeds", [(7, range(12)), (9, range(5)), (13, range(2))])
def test_every_move_strong_closes_gets_a_certificate_the_checker_accepts(strong, n, seeds):
    closed = 0
    for state in _walk_states(n, strong, seeds):
        for m in _closed(state, strong):
            cert = certificate(state.compact(), m)
            assert cert is not None, f"missing: {state.compact()} {m}"
            verdict = check(state.compact(), m, cert)
            assert verdict.valid, (state.compact(), m, verdict)
            closed += 1
    assert closed > 0


def test_every_move_strong_plus_plus_plus_closes_near_the_stuck_walks_gets_a_certificate_the_checker_accepts():
    """Walks of strong+++ rarely meet a move strong leaves open (none in dozens of walks to 25x25); the stuck walks
    of strong, strong+ and strong++ up to 21x21 do, from the step before the first dead one to three after it:
    moves the probe closes (``case`` steps, or the cut's argument where the builder finds it first) and moves
    only the cut closes (``crossing`` steps)."""
    rules, strong = get_rule_set("strong+++"), get_rule_set("strong")
    closed, beyond, kinds = 0, 0, set()
    for name in ("strong-misses", "strong-plus-misses", "strong-plus-plus-misses"):
        for miss in _misses(name):
            if miss["n"] > 21 or miss.get("first_dead_step") is None:
                continue
            n, moves = miss["line"].split(":")
            k = miss["first_dead_step"]
            for j in range(k - 1, min(k + 3, len(moves) + 1)):
                state = State.from_moves(int(n), moves[:j])
                for m in _closed(state, rules):
                    cert = certificate(state.compact(), m)
                    assert cert is not None, f"missing: {state.compact()} {m}"
                    verdict = check(state.compact(), m, cert)
                    assert verdict.valid, (state.compact(), m, verdict)
                    closed += 1
                    beyond += m in strong.open_moves(state)
                    kinds |= {s["kind"] for s in cert["steps"]}
    assert closed > 50 and beyond > 20 and {"case", "crossing"} <= kinds, (closed, beyond, kinds)


# --- the cross-check: nothing the checker accepts is live --------------------------------------------------


def _random_states(n, count, seed):
    """States of random lines (uniform among free moves), cut at a random step; each has a free move."""
    rng = random.Random(seed)
    anything = get_rule_set("none")
    out = []
    while len(out) < count:
        final = random_walk(n, anything, rng.randrange(1 << 30)).state
        state = State(final.board, final.path[:rng.randrange(final.steps) + 1])
        if state.open_moves():
            out.append(state)
    return out


def _tampered(cert):
    """Certificates one change away from ``cert``: a step dropped, a cell dropped from a set or a piece."""
    steps = cert["steps"]
    for i in range(len(steps)):
        yield {"steps": steps[:i] + steps[i + 1:]}
        step = steps[i]
        cells = step.get("cells")
        if isinstance(cells, list) and cells:
            for j in {0, len(cells) - 1}:
                yield {"steps": steps[:i] + [{**step, "cells": cells[:j] + cells[j + 1:]}] + steps[i + 1:]}
        for p, piece in enumerate(step.get("pieces", [])):
            smaller = step["pieces"][:p] + [piece[1:]] + step["pieces"][p + 1:]
            yield {"steps": steps[:i] + [{**step, "pieces": smaller}] + steps[i + 1:]}


@pytest.mark.parametrize("n, count", [(7, 300), (9, 150)])
def test_a_certificate_the_checker_accepts_is_for_a_dead_move(oracle, n, count):
    """Built certificates, the same on the state's other moves and on its parent, and tampered ones: whenever
    the checker accepts one, the oracle finds the move dead (a live one accepted is a bug in the checker)."""
    accepted = built = 0
    for state in _random_states(n, count, seed=n):
        parent = State(state.board, state.path[:-1]) if state.steps else None
        for m in state.open_moves():
            cert = certificate(state.compact(), m)
            if cert is None:
                continue
            built += 1
            tries = [(state, m2, cert) for m2 in state.open_moves()]
            tries += [(parent, m2, cert) for m2 in (parent.open_moves() if parent else ())]
            tries += [(state, m, t) for t in _tampered(cert)]
            for s, move, c in tries:
                if check(s.compact(), move, c).valid:
                    accepted += 1
                    assert _dead(oracle, s, move), f"the checker accepts a live move: {s.compact()} {move} {c}"
    assert built > 0 and accepted >= built


# --- tampering, kind by kind -------------------------------------------------------------------------------


def _area_example():
    """exact-areas' example: after L, the area between the new head and the gate (7,4) cannot be crossed."""
    from verify.certificates.check import Board

    state, move = State.from_moves(7, "DDDDDDRRRURDRUULU"), "L"
    board = Board.after(state.compact(), move)
    gate = board.cell([7, 4])
    seen, todo = {board.head}, [board.head]
    while todo:
        c = todo.pop()
        for d in board.adj[c]:
            if d not in seen and d != gate:
                seen.add(d)
                todo.append(d)
    return state, move, {"steps": [{"kind": "area", "cells": [list(board.xy(c)) for c in sorted(seen)], "dead": True}]}


def _misses(name):
    with (ROOT / "reports" / f"{name}.jsonl").open() as f:
        return [json.loads(line) for line in f]


@pytest.fixture(scope="module")
def cut_miss():
    """A stuck walk of ``strong++`` (21x21, the third in reports/strong-plus-plus-misses.jsonl, drawn in
    reports/cut-condition.md): the state before its fatal move and the move, which only the cut rule closes."""
    miss = _misses("strong-plus-plus-misses")[2]
    n, moves = miss["line"].split(":")
    k = miss["first_dead_step"]
    return State.from_moves(int(n), moves[:k - 1]), moves[k - 1]


@pytest.fixture(scope="module")
def weights_miss():
    """A stuck walk of ``strong++++ --on probe-cut:3`` (61x61, tests/data/subtour-61x61-dead.txt): the state
    before its fatal move and the move, which only the subtour relaxation closes."""
    lines = [t for t in (ROOT / "tests" / "data" / "subtour-61x61-dead.txt").read_text().splitlines()
             if not t.startswith("#")]
    n, moves = lines[0].split(":")
    return State.from_moves(int(n), moves), "R"


@pytest.fixture(scope="module")
def examples(strong, cut_miss, weights_miss):
    """kind -> (state, move, certificate) holding a step of that kind, from seeded walks of strong (``area``,
    which strong's arguments never need, from exact-areas' example; ``crossing``, which only the cut rule's
    moves need, from a stuck walk of strong++; ``weights``, the subtour relaxation's, from a stuck walk of
    strong++++ --on probe-cut:3)."""
    found = {"area": _area_example(), "crossing": (*cut_miss, certificate(cut_miss[0].compact(), cut_miss[1])),
             "weights": (*weights_miss, certificate(weights_miss[0].compact(), weights_miss[1]))}
    for counting in (True, False):
        # the rarer kinds (``balance``: a few closed moves in a hundred 7x7 walks) need more walks; the search
        # stops as soon as every kind has an example
        for n, seeds in ((7, range(200)), (9, range(60)), (11, range(30))):
            for state in _walk_states(n, strong, seeds):
                for m in _closed(state, strong):
                    cert = certificate(state.compact(), m, counting=counting)
                    for step in cert["steps"]:
                        found.setdefault(step["kind"], (state, m, cert))
                if set(KINDS) - {"case"} <= set(found):
                    return found
    return found


@pytest.mark.parametrize("kind", sorted(set(KINDS) - {"case"}))
def test_tampering_with_each_step_kind_is_rejected(examples, oracle, kind):
    assert kind in examples, f"no certificate with a {kind} step on the sampled walks"
    state, move, cert = examples[kind]
    text = state.compact()
    assert check(text, move, cert).valid
    at = next(i for i, s in enumerate(cert["steps"]) if s["kind"] == kind)
    step = cert["steps"][at]

    def swap(new):
        return {"steps": cert["steps"][:at] + [new] + cert["steps"][at + 1:]}

    # every step is needed: dropping any one is rejected
    for i in range(len(cert["steps"])):
        assert not check(text, move, {"steps": cert["steps"][:i] + cert["steps"][i + 1:]}).valid
    # a cell dropped from the step's set or from a piece it lists (an area without the head or the end corner
    # is the same argument with that cell as its gate: the one drop that may be accepted)
    after = state.after(move)
    ends = {after.board.xy(after.head), after.board.xy(after.board.end)}
    if isinstance(step.get("cells"), list) and len(step["cells"]) > 0:
        for j in range(len(step["cells"])):
            if check(text, move, swap({**step, "cells": step["cells"][:j] + step["cells"][j + 1:]})).valid:
                assert kind in ("area", "balance") and tuple(step["cells"][j]) in ends, step["cells"][j]
    for p, piece in enumerate(step.get("pieces", [])):
        for j in range(len(piece)):
            pieces = step["pieces"][:p] + [piece[:j] + piece[j + 1:]] + step["pieces"][p + 1:]
            assert not check(text, move, swap({**step, "pieces": pieces})).valid
    # a weights step's region with a number below 0, or with the head in it; its numbers dropped
    for j, region in enumerate(step.get("regions", [])):
        head = list(after.board.xy(after.head))
        for bad in ({**region, "number": "-1"}, {**region, "cells": region["cells"] + [head]}):
            regions = step["regions"][:j] + [bad] + step["regions"][j + 1:]
            assert not check(text, move, swap({**step, "regions": regions})).valid
    if "numbers" in step:
        assert not check(text, move, swap({**step, "numbers": []})).valid
        assert not check(text, move, swap({**step, "numbers": step["numbers"] + step["numbers"][:1]})).valid
    # a claim the step does not derive, or a contradiction it does not show
    if not step.get("dead"):
        assert not check(text, move, swap({**step, "dead": True})).valid
    # another move or another state where the move is live
    live = [(state, m) for m in state.open_moves() if not _dead(oracle, state, m)]
    earlier = State(state.board, state.path[:-1])
    live += [(earlier, m) for m in earlier.open_moves() if not _dead(oracle, earlier, m)]
    assert live, "no live move near the example"
    for s, m in live:
        assert not check(s.compact(), m, cert).valid


# --- crossing: the cut rule's bridges and two-edge cuts --------------------------------------------------


def test_a_move_only_cut_closes_gets_a_certificate_with_crossing_steps(cut_miss, capsys):
    state, move = cut_miss
    text = state.compact()
    assert move in get_rule_set("strong++").open_moves(state)
    assert move not in get_rule_set("strong+++").open_moves(state)
    cert = certificate(text, move)
    kinds = [s["kind"] for s in cert["steps"]]
    assert "crossing" in kinds and "case" not in kinds
    assert check(text, move, cert).valid
    words = sentences(text, move, cert)
    assert any("crosses its boundary an even number of times" in w and "the line needs them all" in w for w in words)
    # the command line prints it under the cut rule; the audits' quote names the set that closes the move
    assert main(["explain", "--moves", text, "--rules", "strong+++"]) == 0
    out = capsys.readouterr().out
    assert f"{move}: disabled by cut" in out and "crosses its boundary" in out
    q = quote(text, move)
    assert q["rules"] == "strong+++" and q["certificate"] == cert
    assert quote_text(q).startswith("strong+++ closes it; its certificate")


def test_the_cut_argument_refutes_the_probe_s_cases_where_the_other_arguments_do_not(cut_miss):
    """Inside ``case`` steps as everywhere: on the move only cut closes, the probe's cases (each way on from the
    head supposed) stand without cuts and fall with them, each by crossing steps; the checker replays them."""
    from verify.certificates.build import derive_cases

    state, move = cut_miss
    board = Board.after(state.compact(), move)
    assert derive_cases(board, cuts=False) is None
    steps = derive_cases(board)
    cases = [s for s in steps if s["kind"] == "case"]
    assert cases and all(any(t["kind"] == "crossing" for t in case["steps"]) for case in cases)
    assert check(state.compact(), move, {"steps": steps}).valid


def test_tampering_with_a_crossing_step_is_rejected(cut_miss):
    state, move = cut_miss
    text = state.compact()
    cert = certificate(text, move)
    board = Board.after(text, move)
    at = next(i for i, s in enumerate(cert["steps"]) if s["kind"] == "crossing")
    step = cert["steps"][at]
    xs = board.cells(step["cells"])
    facts = Facts()
    for before in cert["steps"][:at]:
        holds(board, facts, before)
    across = {edge_key(x, d) for x in xs for d in board.adj[x] if d not in xs}
    left = sorted(e for e in across if not facts.is_removed(e))
    assert len(left) == 2 and board.head not in xs and board.end not in xs

    def swap(new):
        return {"steps": cert["steps"][:at] + [new] + cert["steps"][at + 1:]}

    def xy(cells):
        return [list(board.xy(c)) for c in sorted(cells)]

    # the other side of the boundary is the same argument; a set must leave nodes on both sides
    assert check(text, move, swap({**step, "cells": xy(board.nodes - xs)})).valid
    for cells in (board.nodes, ()):
        assert not check(text, move, swap({**step, "cells": xy(cells)})).valid
    # a wrong set: the cell beyond an edge left across it added (the boundary moves), or the head (an odd count)
    a, b = left[0]
    assert not check(text, move, swap({**step, "cells": xy(xs | {b if a in xs else a})})).valid
    assert not check(text, move, swap({**step, "cells": xy(xs | {board.head})})).valid
    # an extra edge across it: an unusable one put back
    more = facts.copy()
    more.removed.discard(sorted(across - set(left))[0])
    with pytest.raises(Invalid):
        holds(board, more, step)
    # a claim it does not derive: a contradiction, an edge inside the set
    assert not check(text, move, swap({**step, "dead": True})).valid
    inside = next(edge_key(x, d) for x in sorted(xs) for d in board.adj[x]
                  if d in xs and not facts.is_forced(edge_key(x, d)) and not facts.is_removed(edge_key(x, d)))
    assert not check(text, move, swap({**step, "forces": [xy(inside)]})).valid


def _completions(board):
    """Every completion on ``board`` (a path from the head through every node to the end corner), as edge sets."""
    total, out = len(board.nodes), []
    path, seen = [board.head], {board.head}

    def extend():
        last = path[-1]
        if len(path) == total:
            if last == board.end:
                out.append(frozenset(edge_key(a, b) for a, b in zip(path, path[1:])))
            return
        for d in board.adj[last]:
            if d not in seen and d != board.end or len(path) == total - 1 and d == board.end:
                seen.add(d)
                path.append(d)
                extend()
                path.pop()
                seen.discard(d)

    extend()
    return out


def _cut_off(board, facts, gone):
    """The nodes the head does not reach over the options without the edges ``gone``."""
    seen, todo = {board.head}, [board.head]
    while todo:
        c = todo.pop()
        for d in facts.options(board, c):
            if d not in seen and edge_key(c, d) not in gone:
                seen.add(d)
                todo.append(d)
    return board.nodes - seen


def test_a_crossing_step_derives_only_what_every_completion_shows(strong):
    """On the last 20 cells of 7x7 walks, facts drawn from what every completion does, and the sets one or two
    edges cut off (and the other side): whatever a ``crossing`` step derives holds in every completion (on a
    board with none, it may show the contradiction)."""
    rng = random.Random(40)
    derived = {"forces": 0, "removes": 0, "dead": 0}
    boards = 0
    for state in _walk_states(7, strong, range(6)):
        for m in state.open_moves():
            board = Board.after(state.compact(), m)
            if not 4 <= board.free <= 20:
                continue
            paths = _completions(board)
            boards += bool(paths)
            edges = {edge_key(c, d) for c in board.nodes for d in board.adj[c]}
            facts = Facts()
            if paths:
                always, used = frozenset.intersection(*paths), frozenset.union(*paths)
                facts = Facts(forced=[e for e in always if rng.random() < 0.5],
                              removed=[e for e in edges - used if rng.random() < 0.5])
            options = sorted(e for e in edges if not facts.is_removed(e))
            sets = set()
            for i, e in enumerate(options):
                for f in [e] + rng.sample(options[i + 1:], min(8, len(options) - i - 1)):
                    part = _cut_off(board, facts, {e, f})
                    if part:
                        sets.update((frozenset(part), frozenset(board.nodes - part)))
            for xs in sets:
                step = {"kind": "crossing", "cells": [list(board.xy(c)) for c in sorted(xs)]}
                try:
                    got = KINDS["crossing"](board, facts, step)
                except Invalid:
                    continue
                assert not (paths and got.dead), (state.compact(), m, step)
                assert all(got.forces <= p and not got.removes & p for p in paths), (state.compact(), m, step)
                for key in derived:
                    derived[key] += bool(getattr(got, key))
    assert boards > 50 and min(derived.values()) > 0, (boards, derived)


def _supposed(state, move, cert):
    """A certificate with a ``case`` step: suppose an option at the new head is used; the same count refutes it."""
    after = state.after(move)
    head = after.board.xy(after.head)
    free = [after.board.xy(after.board.step(after.head, m)) for m in after.open_moves()]
    edge = [list(head), list(free[0])]
    return {"steps": [{"kind": "case", "edge": edge, "steps": [cert["steps"][-1]], "removes": [sorted(edge)]},
                      cert["steps"][-1]]}


def test_case_steps_are_checked_and_tampering_with_them_is_rejected(examples):
    state, move, cert = examples["hall"]
    if len(cert["steps"]) != 1:
        pytest.skip("the hall example needs other steps before its count")
    text = state.compact()
    supposed = _supposed(state, move, cert)
    assert check(text, move, supposed).valid
    assert "suppose" in sentences(text, move, supposed)[0]
    case = supposed["steps"][0]
    for bad in ({**case, "steps": []}, {**case, "steps": [{"kind": "end", "dead": True}]},
                {**case, "removes": [case["edge"][::-1], case["edge"]], "edge": [case["edge"][0], [1, 1]]},
                {**case, "removes": []}):
        assert not check(text, move, {"steps": [bad] + supposed["steps"][1:]}).valid
    nested = cert["steps"][-1]
    for _ in range(MAX_DEPTH + 2):
        nested = {"kind": "case", "edge": case["edge"], "steps": [nested], "removes": case["removes"]}
    assert not check(text, move, {"steps": [nested, cert["steps"][-1]]}).valid


@pytest.mark.parametrize("bad", [None, [], {"steps": []}, {"steps": "x"}, {"steps": [1]}, {"steps": [{"kind": "x"}]},
                                 {"steps": [{"kind": "degree"}]}, {"steps": [{"kind": "degree", "cell": [0, 9]}]},
                                 {"steps": [{"kind": "degree", "cell": [True, 2], "dead": True}]},
                                 {"steps": [{"kind": "hall", "cells": [[2, 2], [2, 3]], "dead": True}]},
                                 {"steps": [{"kind": "cut", "cells": [], "pieces": []}]},
                                 {"steps": [{"kind": "end", "dead": True}]}])
def test_malformed_certificates_are_invalid_not_errors(bad):
    verdict = check("7:RRDD", "D", bad)
    assert not verdict.valid and verdict.reason


def test_a_state_or_move_that_does_not_parse_is_invalid():
    cert = {"steps": [{"kind": "end", "dead": True}]}
    for state, move in (("7:RRX", "D"), ("8:RR", "D"), ("7:RR", "Q"), ("7:RR", "L"), ("3:RRDDLLUR", "R")):
        assert not check(state, move, cert).valid


# --- the checker stands alone, the registries agree ------------------------------------------------------


def test_the_checker_imports_only_the_standard_library_and_stays_small():
    """The checker is check.py with its board and its step kinds: no rule, no oracle, nothing but Python's own."""
    checker = {"check.py", "board.py", "kinds.py"}
    total = 0
    for name in checker:
        path = ROOT / "verify" / "certificates" / name
        tree = ast.parse(path.read_text())
        imported = {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
        imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        own = {f"verify.certificates.{n[:-3]}" for n in checker}
        assert imported - own <= {"dataclasses", "fractions"}, (name, imported)
        total += len(path.read_text().splitlines())
    assert total <= 740  # 640 before the subtour relaxation's weights step


def test_every_step_kind_has_a_check_words_and_a_drawing():
    from labyrinth.view.certificate import DRAWINGS

    assert set(KINDS) == set(WORDS) == set(DRAWINGS)


# --- words, pictures, the command line, the viewer, audits ------------------------------------------------


def test_words_name_the_counts_the_checker_compares():
    cert = certificate("9:RRDDDRDR", "D")
    [line] = sentences("9:RRDDDRDR", "D", cert)
    step = cert["steps"][0]
    assert step["kind"] == "hall" and f"these {len(step['cells'])} black cells need {2 * len(step['cells'])}" in line


def test_closed_certificates_cover_the_closed_moves(strong):
    state = State.from_moves(7, "RRDDDL")
    found = closed_certificates(state, strong)
    assert sorted(found) == sorted(_closed(state, strong))
    assert all(check(state.compact(), m, c).valid for m, c in found.items())


def test_the_drawing_has_a_panel_per_step_with_its_words(examples):
    from labyrinth.view.certificate import render_certificate

    state, move, cert = examples["loop"]
    svg = render_certificate(state, move, cert)
    assert svg.startswith("<?xml")
    for i in range(1, len(cert["steps"]) + 1):
        assert f">{i}. " in svg


def test_explain_prints_each_closed_move_certificate_and_certify_checks_it(capsys, tmp_path):
    assert main(["explain", "--moves", "9:RRDDDRDR", "--rules", "strong"]) == 0
    out = capsys.readouterr().out
    assert "D: why, in 1 step" in out and "these 15 black cells need 30 line ends" in out
    assert main(["explain", "--moves", "9:RRDDDRDR", "--rules", "strong", "--json"]) == 0
    line = capsys.readouterr().out
    obj = json.loads(line)
    assert obj["moves"]["D"]["certificate"] == certificate("9:RRDDDRDR", "D")
    good = tmp_path / "good.jsonl"
    good.write_text(line)
    assert main(["certify", str(good)]) == 0
    assert "D: valid (1 step)" in capsys.readouterr().out
    step = obj["moves"]["D"]["certificate"]["steps"][0]
    bad = {"state": "9:RRDDDRDR", "move": "D", "certificate": {"steps": [{**step, "cells": step["cells"][1:]}]}}
    live = {"state": "9:RRDDDRDR", "move": "R", "certificate": obj["moves"]["D"]["certificate"]}
    (tmp_path / "bad.jsonl").write_text(json.dumps(bad) + "\n" + json.dumps(live) + "\n")
    assert main(["certify", str(tmp_path / "bad.jsonl"), "--json"]) == 1
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["valid"] for r in rows] == [False, False] and rows[0]["step"] == 1
    svg = tmp_path / "why.svg"
    assert main(["explain", "--moves", "7:RRDDDL", "--svg", str(svg)]) == 0
    assert "hangs off" in svg.read_text()


@pytest.mark.parametrize("text, needle", [("nope\n", "not JSON"), ('{"move": "D"}\n', "state"),
                                          ('{"state": "7:RX", "move": "D", "certificate": {}}\n', "'X'"),
                                          ('{"state": "7:RR", "move": "Z", "certificate": {}}\n', "move"),
                                          ('{"state": "7:RR", "move": "D"}\n', "certificate")])
def test_certify_refuses_bad_input_in_one_line(capsys, tmp_path, text, needle):
    path = tmp_path / "in.jsonl"
    path.write_text(text)
    assert main(["certify", str(path)]) == 2
    err = capsys.readouterr().err
    assert needle in err and f"{path}:1" in err and len(err.strip().splitlines()) == 1


def test_the_viewer_shows_the_certificates_of_a_state():
    from labyrinth.view.viewer import Viewer

    v = Viewer(rule_sets=["strong"], time_limit=10)
    try:
        out = v.view("7:RRDDDL", "strong")
    finally:
        v.close()
    assert sorted(out["certificates"]) == ["D", "L"]
    assert all("hangs off" in words[0] for words in out["certificates"].values())
    assert out["certificate_svg"].startswith("<svg")


def test_an_audit_quotes_strong_on_a_missed_dead_move(strong):
    q = quote("9:RRDDDRDR", "D")  # the universal rules leave D open; strong closes it
    assert "D" in get_rule_set("universal").open_moves(State.from_moves(9, "RRDDDRDR"))
    assert q["closed"] and check("9:RRDDDRDR", "D", q["certificate"]).valid and q["words"]
    assert q["rules"] == "strong" and quote_text(q).startswith("strong closes it")
    assert quote("9:RRDDDRDR", "R") == {"closed": False, "rules": None, "certificate": None, "words": []}
