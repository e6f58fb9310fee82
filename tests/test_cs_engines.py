"""The C# engines of examples/engines/ (issue 31), talked to directly and through the command line.

* a bad request gets one JSON error line naming what is wrong, and the engine goes on;
* a C# engine's faults seen by the verifier are one line, exit 2 (a size it does not play, an
  assembly Mono cannot open, an adapter that refuses its arguments);
* the stateful engine steps on from the longest state it keeps and replays from the start only
  without one; how it reached a state never changes its answer there.

Their findings against the brute force, and their walks against the C and JS engines, are tested
with the other reference engines in tests/test_engine_protocol.py.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HELLO = {"type": "hello", "protocol": 1, "client": "test"}


def _talk(command, requests, timeout=120):
    """Send ``requests`` (objects, or raw lines) to the engine run as ``command``; its answers and the process."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    proc = subprocess.run(command.split(), input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=timeout)
    return [json.loads(line) for line in proc.stdout.splitlines()], proc


def _decide(rid, state):
    return {"type": "decide", "id": rid, "puzzle": "labyrinth", "state": state}


@pytest.mark.parametrize("name", ["corners", "stateful"])
def test_a_bad_request_is_one_error_line_and_the_engine_goes_on(name, cs_engines):
    requests = [HELLO, "this is not json", "[" * 40 + "]" * 40, '{"type": "decide", "id": NaN, "state": "5:R"}',
                _decide(2, "4:R"), _decide(3, "5:RL"), _decide(4, "5:RX"), {"type": "solve", "id": 5},
                {"type": "decide", "id": 6, "states": []}, _decide(7, "5:R"), {"type": "quit"}]
    answers, proc = _talk(cs_engines[name], requests)
    assert proc.returncode == 0, proc.stderr
    hello, *errors, last = answers
    assert hello["type"] == "hello" and hello["engine"] == f"{name}-cs"
    needles = ["not JSON", "deeper than 32", "not JSON", "N odd from 3", "not free", "not a move",
               "unknown request type", "1 to 4096"]
    assert len(errors) == len(needles)
    for error, needle in zip(errors, needles):
        assert error["type"] == "error" and needle in error["message"], (error, needle)
    assert [e["id"] for e in errors[3:]] == [2, 3, 4, 5, 6]  # a request's id comes back when it can be read
    assert last["type"] == "decision" and last["id"] == 7 and set(last["allowed"]) == {"D", "R"}


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "labyrinth.cli", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def test_a_cs_engine_fault_is_one_line_and_exit_2(cs_engines, tmp_path):
    mono = cs_engines["corners"].split()[0]
    cases = [
        (("walk", "-n", "103", "--allow-large", "--engine", cs_engines["corners"]), "does not play 103x103"),
        (("audit", "-n", "5", "--walks", "2", "--no-progress", "--db", str(tmp_path / "a.db"),
          "--engine", f"{mono} {tmp_path / 'missing.exe'}"), "Cannot open assembly"),
        (("audit", "-n", "5", "--walks", "2", "--no-progress", "--db", str(tmp_path / "b.db"),
          "--engine", cs_engines["stateful"] + " --keep 0"), "bad arguments"),
    ]
    for args, needle in cases:
        proc = _cli(*args)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert needle in lines[0], lines[0]


@pytest.mark.parametrize("keep,expected", [
    (8, [0, 1, 1, 1, 1, 2, 0]),  # 7:RR extends the kept 7:R; 7:DR the kept empty line; 7:RD is still kept
    (1, [0, 1, 1, 2, 1, 2, 2]),  # only the last state kept: a sibling is replayed from the start
])
def test_the_stateful_engine_steps_on_from_a_kept_state(keep, expected, cs_engines):
    states = ["7:", "7:R", "7:RD", "7:RR", "7:RRD", "7:DR", "7:RD"]
    answers, proc = _talk(f"{cs_engines['stateful']} --keep {keep}",
                          [HELLO, *(_decide(i, s) for i, s in enumerate(states)), {"type": "quit"}])
    assert proc.returncode == 0, proc.stderr
    hello, *decisions = answers
    assert hello["order"] == "depth-first" and hello["batch"] is True
    assert [d["steps"] for d in decisions] == expected
    assert f"{len(states)} states, {sum(expected)} steps" in proc.stderr
    # the answers do not depend on how the state was reached: the same as corners.cs, which parses each state
    plain, _ = _talk(cs_engines["corners"], [HELLO, *(_decide(i, s) for i, s in enumerate(states))])
    strip = [{k: v for k, v in d.items() if k != "steps"} for d in decisions]
    assert strip == plain[1:]


def test_the_stateful_engine_answers_a_batch_in_order_each_state_from_the_one_before(cs_engines):
    batch = {"type": "decide", "id": 1, "states": ["9:RR", "9:RRD", "9:RRDD", "9:RRDR"]}
    answers, proc = _talk(cs_engines["stateful"], [HELLO, batch])
    assert [a["steps"] for a in answers[1]["answers"]] == [2, 1, 1, 1]
    assert [a["state"] for a in answers[1]["answers"]] == batch["states"]
