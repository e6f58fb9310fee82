"""Certificates: the checker accepts what the builder makes, rejects what was tampered with, never a live move.

The suite's sampled versions of the measured targets (bench/certificates.py
runs the full ones): every move ``strong`` closes on seeded walks gets a
certificate the checker accepts; on random 7x7 and 9x9 states every
certificate the checker accepts, built or tampered with, is for a move the
oracle finds dead.
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
from verify.certificates.check import MAX_DEPTH

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


@pytest.fixture(scope="module")
def examples(strong):
    """kind -> (state, move, certificate) holding a step of that kind, from seeded walks of strong (``area``,
    which strong's arguments never need, from exact-areas' example)."""
    found = {"area": _area_example()}
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
        assert imported - own <= {"dataclasses"}, (name, imported)
        total += len(path.read_text().splitlines())
    assert total <= 700


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
    assert quote("9:RRDDDRDR", "R") == {"closed": False, "certificate": None, "words": []}
