"""Explained findings: each class catches its hand-made state before the cheaper ones, and no class fires on a live state."""

import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from brute import brute_force, reachable_states, state_mask

from labyrinth.engine import State
from oracle import get_oracle
from verify import explain as ex
from verify.audit import Finding
from verify.store import Store

ROOT = Path(__file__).resolve().parent.parent

# (state, class, cells that show it): hand-checked on the drawn boards
CASES = [
    # (4,1) walled in by the line on three sides and the border above: cut off
    ("7:RRDRRUR", "disconnected", ((4, 1),)),
    # (2,1): the start above, the line below, so only (3,1) is left: a dead end, the rest connected
    ("9:DRR", "dead-end", ((2, 1),)),
    # the 2x3 area x 2-4, y 1-2 hangs off (4,1) beside the head: entered, it cannot be left
    ("9:DDRRRRUU", "sealed-area", ((4, 1), (4, 2))),
    # an area between two gates with the wrong number of cells
    ("7:RRRDDDDLD", "area-parity", ((1, 3), (2, 4))),
    # parity fits, the colours do not
    ("9:DRURDDDRDRDRDRD", "colour-imbalance", ((8, 6), (9, 5))),
    # every area passes; the forced pieces of line leave a cell without its two ways
    ("7:RRDRURDDLDL", "future-lines", ((3, 7),)),
]
CHECKS = (ex._disconnected, ex._dead_end, ex._areas, ex._future)


def _state(text):
    n, moves = text.split(":", 1)
    return State.from_moves(int(n), moves)


@pytest.fixture(scope="module")
def oracle():
    with get_oracle("auto", time_limit=30) as o:
        yield o


@pytest.mark.parametrize("text,kind,cells", CASES)
def test_each_class_catches_its_state_and_the_cheaper_ones_do_not(text, kind, cells, oracle):
    state = _state(text)
    assert oracle.decide(state).feasible is False
    e = ex.explain(state)
    assert (e.kind, tuple(sorted(e.cells))) == (kind, tuple(sorted(cells)))
    assert e.family == ex.FAMILIES[kind]
    rank = {k: i for i, k in enumerate(ex.KINDS)}
    first = {ex.DISCONNECTED: 0, ex.DEAD_END: 1, ex.SEALED_AREA: 2, ex.AREA_PARITY: 2, ex.COLOUR_IMBALANCE: 2,
             ex.FUTURE_LINES: 3}[kind]
    for check in CHECKS[:first]:
        assert check(state) is None, check.__name__
    assert rank[kind] < rank[ex.NEEDS_SEARCH]


def test_needs_search_for_a_dead_state_no_argument_refutes(oracle):
    state = _state("9:DDRRDRDRD")
    assert oracle.decide(state).feasible is False
    assert all(check(state) is None for check in CHECKS)
    assert ex.explain(state).kind == ex.NEEDS_SEARCH


def test_every_5x5_state_with_a_class_is_dead_by_brute_force():
    """Soundness on every reachable 5x5 state (56 368): a class is assigned only when the exhaustive search
    finds no completion; and every class but colour-imbalance (which needs larger areas) occurs."""
    alive = brute_force(5)
    seen = set()
    for state in reachable_states(5):
        e = ex.explain(state)
        seen.add(e.kind)
        if e.kind != ex.NEEDS_SEARCH:
            assert not alive(state_mask(state), state.head), (state.compact(), e)
    assert seen >= set(ex.KINDS) - {ex.COLOUR_IMBALANCE, ex.FUTURE_LINES}


def test_random_live_9x9_states_get_no_class_and_classes_agree_with_the_oracle(oracle):
    rng = random.Random(7)
    live = dead = 0
    for _ in range(150):
        n = rng.choice((7, 9))
        state = State.from_moves(n, "")
        while state.open_moves() and not state.at_end() and rng.random() > 0.04:
            state = state.after(rng.choice(state.open_moves()))
        feasible = oracle.decide(state).feasible
        kind = ex.explain(state).kind
        if feasible:
            live += 1
            assert kind == ex.NEEDS_SEARCH, state.compact()
        elif feasible is False:
            dead += 1
    assert live > 20 and dead > 20


def test_a_store_without_the_column_opens_and_classifies_old_rows_lazily(tmp_path):
    db = tmp_path / "old.db"
    with Store(db) as store:
        campaign = store.start_campaign("walks", {"n": 7}, rules="default")
        store.record_unit(campaign, "walk 0", [Finding("missed-dead", "7:RRDRRU", "R"),
                                               Finding("over-pruned", "7:R", "D", ("c-shape",))], {})
    con = sqlite3.connect(db)  # make it an older store: drop the column
    con.execute("ALTER TABLE findings DROP COLUMN explanation")
    con.commit()
    con.close()
    with Store(db, create=False) as store:
        rows = ex.explain_findings(store, store.findings())
        assert rows[0]["explained"].kind == ex.DISCONNECTED and rows[1]["explained"] is None
    with Store(db, create=False) as store:  # kept
        assert store.findings()[0]["explanation"]["kind"] == ex.DISCONNECTED


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "labyrinth.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_findings_list_groups_by_class_and_family(tmp_path):
    db = tmp_path / "f.db"
    with Store(db) as store:
        campaign = store.start_campaign("walks", {"n": 7}, rules="default")
        found = [Finding("missed-dead", text[:-1], text[-1]) for text, _, _ in CASES if text.startswith("7:")]
        store.record_unit(campaign, "walk 0", found, {})
    out = _cli("findings", "list", "--db", str(db))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    heads = [line for line in lines if not line.startswith(" ")]
    assert heads == ["disconnected: 1 missed-dead findings; meant for near-border, older-line",
                     "area-parity: 1 missed-dead findings; meant for count-area",
                     "future-lines: 1 missed-dead findings; meant for future-lines (off in default)"]
    flat = _cli("findings", "list", "--db", str(db), "--by", "none", "--json")
    rows = [json.loads(line) for line in flat.stdout.splitlines()]
    assert [r["explanation"]["kind"] for r in rows] == ["disconnected", "area-parity", "future-lines"]


def test_report_section_groups_by_class_with_the_family(tmp_path):
    from labyrinth.view.report import _explained_section, _findings_section

    with Store(tmp_path / "r.db") as store:
        campaign = store.start_campaign("walks", {"n": 7}, rules="default")
        store.record_unit(campaign, "walk 0", [Finding("missed-dead", t[:-1], t[-1]) for t, _, _ in CASES
                                               if t.startswith("7:")], {})
        rows = ex.explain_findings(store, store.findings())
    section = _explained_section(rows)
    for kind, family in (("disconnected", "near-border, older-line"), ("area-parity", "count-area"),
                         ("future-lines", "future-lines")):
        assert f"<td>{kind}</td><td>{family}</td>" in section
    listing = _findings_section(rows, 10)
    assert listing.index("<b>disconnected</b>") < listing.index("<b>area-parity</b>") < listing.index(
        "<b>future-lines</b>")
