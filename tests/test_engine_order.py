"""The order in which an external engine is asked (issue 31): breadth-first or depth-first.

* the findings and the audit's totals are the same in either order, exhaustive and walks, one job or
  two; only the requests differ (depth-first: one state per request);
* an engine whose hello says ``"order": "depth-first"`` is asked so by default, and then each request
  extends the one before by a move or goes back up its line first (a jump only where a new unit starts);
  ``--order`` overrides the hello;
* a stepping engine (examples/engines/stateful.cs) steps far less depth-first than breadth-first;
* ``--order`` without an engine, or a hello with another order, is a one-line error.
"""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from labyrinth.engine_protocol import DEPTH_FIRST, ORDERS, warm
from labyrinth.rules import get_rule_set
from verify import AuditSettings, Store, run_campaign

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
WALL = str(ROOT / "examples" / "rules" / "wall-ahead.rule")

#: an engine serving the rules of wall-ahead.rule (they over-prune) that logs every request it reads, one JSON
#: line each, and says in its hello the order given on its command line (if any)
LOGGING = r'''
import json, os, sys
from labyrinth.engine_protocol import serve
from labyrinth.rules import get_rule_set

log = open(sys.argv[1], "a")
order = sys.argv[2] if sys.argv[2] != "-" else None


def lines():
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "decide":
            states = request.get("states") or [request["state"]]
            log.write(json.dumps({"pid": os.getpid(), "states": states}) + "\n")
            log.flush()
        yield line


def write(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


serve(get_rule_set(sys.argv[3]), lines(), write, name="logged", order=order)
'''


def _warm():
    """Compile the wall-ahead rules' kernels here (once, kept on disk), not in an engine's 60 s handshake."""
    warm(get_rule_set(WALL))


@pytest.fixture(scope="module")
def logging_engine(tmp_path_factory):
    _warm()
    path = tmp_path_factory.mktemp("logging") / "logging_engine.py"
    path.write_text(LOGGING)
    return lambda log, order=None: " ".join([PY, str(path), str(log), order or "-", WALL])


def _requests(log):
    return [json.loads(line) for line in Path(log).read_text().splitlines()]


def _jumps(requests):
    """Requests whose state is neither the previous state + a move nor an earlier state of its line + a move."""
    jumps = 0
    previous = {}
    for r in requests:
        state = r["states"][0]
        before = previous.get(r["pid"])
        if before is not None and not before.startswith(state[:-1] if state[-1] != ":" else state):
            jumps += 1
        previous[r["pid"]] = state
    return jumps


def _cli(*args):
    return subprocess.run([PY, "-m", "labyrinth.cli", *args, "--no-progress"], capture_output=True, text=True,
                          timeout=900, cwd=ROOT)


def _rows(db):
    with sqlite3.connect(db) as con:
        return sorted(con.execute("SELECT kind, state, move, rules, cells, witness FROM findings"))


def _key(findings):
    return sorted((f.kind, f.state, f.move, tuple(f.rules), tuple(map(tuple, f.cells))) for f in findings)


def test_both_orders_give_the_same_exhaustive_audit():
    """5x5 exhaustive through a served rule set that over-prunes: findings, totals and rule counts alike."""
    _warm()
    engine = f"engine:{PY} -m labyrinth.cli engine --rules {WALL}"
    runs = {}
    with Store(":memory:") as store:
        for order in ORDERS:
            _, totals, found = run_campaign(store, AuditSettings(
                n=5, rules_args=(engine, (), ()), exhaustive=True, patterns=0, engine_order=order))
            runs[order] = (totals, found)
    (bt, bf), (dt, df) = runs["breadth-first"], runs["depth-first"]
    assert _key(bf) == _key(df) and "over-pruned" in {f.kind for f in bf}  # wall-ahead closes feasible moves
    for field in ("walkthroughs", "stuck", "steps", "queries", "fired", "misfired", "findings"):
        assert getattr(bt, field) == getattr(dt, field), field
    assert dt.engine_requests == dt.engine_states  # depth-first: one state per request
    assert bt.engine_states > bt.engine_requests  # breadth-first: a level per request
    assert dt.engine_states == bt.engine_states  # every state asked once either way


def test_an_engine_that_prefers_depth_first_is_asked_so_each_request_extending_the_one_before(logging_engine,
                                                                                                tmp_path):
    log = tmp_path / "depth.log"
    db = tmp_path / "a.db"
    proc = _cli("audit", "-n", "5", "--exhaustive", "--engine", logging_engine(log, DEPTH_FIRST), "--db", str(db),
                "--no-patterns")
    assert proc.returncode == 0, proc.stderr
    assert "asked depth-first" in proc.stdout.splitlines()[0]
    requests = _requests(log)
    assert requests and all(len(r["states"]) == 1 for r in requests)
    with sqlite3.connect(db) as con:
        units = con.execute("SELECT COUNT(*) FROM units").fetchone()[0]
    assert _jumps(requests) <= units  # at most one jump where each unit's subtree starts
    assert len(requests) > 10 * units  # (so the bound says something)
    # the option overrides the hello: breadth-first batches, the same findings
    wide = tmp_path / "wide.log"
    db2 = tmp_path / "b.db"
    proc = _cli("audit", "-n", "5", "--exhaustive", "--engine", logging_engine(wide, DEPTH_FIRST), "--db", str(db2),
                "--no-patterns", "--order", "breadth-first")
    assert proc.returncode == 0 and "asked breadth-first" in proc.stdout, proc.stderr
    assert max(len(r["states"]) for r in _requests(wide)) > 1
    assert _rows(db) == _rows(db2) and _rows(db)


def test_walk_campaigns_give_the_same_findings_in_either_order_with_two_workers(logging_engine, tmp_path):
    rows = {}
    for order in ORDERS:
        log = tmp_path / f"{order}.log"
        db = tmp_path / f"{order}.db"
        proc = _cli("audit", "-n", "7", "--walks", "16", "--seed", "3", "--engine", logging_engine(log), "--jobs",
                    "2", "--order", order, "--db", str(db))
        assert proc.returncode == 0, proc.stderr
        rows[order] = _rows(db)
        requests = _requests(log)
        if order == DEPTH_FIRST:  # one walk after another: each request the last state plus a move, but where a
            # walk leaves the states asked before (their answers are kept: the first new one is a jump)
            assert all(len(r["states"]) == 1 for r in requests) and _jumps(requests) <= 16
        else:  # lockstep: a request for all the walks still going
            assert max(len(r["states"]) for r in requests) == 8
    assert rows["breadth-first"] == rows["depth-first"] and rows["depth-first"]


@pytest.mark.parametrize("keep", [8, 1])
def test_a_stepping_engine_steps_less_depth_first_with_the_same_findings(keep, cs_engines, tmp_path):
    """stateful.cs, keeping 8 instances or only the last one, audited exhaustively on 5x5 in both orders."""
    found, steps, states = {}, {}, {}
    for order in ORDERS:
        totals_file = tmp_path / f"{order}.txt"
        with Store(":memory:") as store:
            _, totals, out = run_campaign(store, AuditSettings(
                n=5, rules_args=(f"engine:{cs_engines['stateful']} --keep {keep} --totals {totals_file}", (), ()),
                exhaustive=True, patterns=0, engine_order=order))
        found[order] = _key(out)
        (line,) = totals_file.read_text().splitlines()  # "stateful: S states, K steps, R replayed from the start"
        states[order], steps[order] = int(line.split()[1]), int(line.split()[3])
        assert states[order] == totals.engine_states
    assert found["breadth-first"] == found["depth-first"] and found["depth-first"]
    assert states["breadth-first"] == states["depth-first"]
    assert steps["depth-first"] < steps["breadth-first"]
    if keep > 1:  # about a step a state depth-first (a replay where it backs up past its kept states)
        assert steps["depth-first"] < 2 * states["depth-first"] < steps["breadth-first"]


def test_the_hello_says_the_order_and_an_old_engine_gets_breadth_first():
    from labyrinth.engine_protocol import EngineRuleSet

    served = f"{PY} -m labyrinth.cli engine --rules universal"
    with EngineRuleSet(f"{served} --order depth-first") as deep, EngineRuleSet(served) as plain:
        assert deep.info.order == deep.order == DEPTH_FIRST
        assert plain.info.order == plain.order == "breadth-first"  # a hello without the field
    chosen = EngineRuleSet(f"{served} --order depth-first", order="breadth-first")
    assert chosen.order == "breadth-first"  # --order overrides the hello, without starting the engine
    assert not chosen._process.running


def test_order_goes_with_an_engine_only(tmp_path):
    for args in (("-n", "5", "--walks", "2", "--rules", "universal"),
                 ("--trace", str(ROOT / "data" / "corpus"))):
        proc = _cli("audit", *args, "--order", "depth-first", "--db", str(tmp_path / "x.db"))
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert "order" in lines[0]
