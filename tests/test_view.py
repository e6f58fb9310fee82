"""Pictures, the report and the viewer's server: golden SVGs, what the pictures claim, bad input answered.

Golden files live in ``tests/golden/``; after a deliberate change of the
drawing, rewrite them with ``UPDATE_GOLDEN=1 pytest tests/test_view.py`` and
look at the difference before committing.
"""

import json
import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import CORPUS, check_golden

from labyrinth.cli import main
from labyrinth.engine import State, parse_state
from labyrinth.view import (
    describe,
    place_pattern,
    render,
    render_pattern,
    stuck_pattern,
)
from oracle import check_witness, get_oracle

GOLDEN = Path(__file__).resolve().parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"
#: a 9x9 research file whose line (24 moves) has been dead since step 22
DEAD_FILE = CORPUS / "2023_1008_2.txt"

#: name -> (state, rule set, oracle backend or None)
GOLDEN_STATES = {
    "plain_3": ("3:RD", "none", None),
    "alive_5": ("5:RRDD", "universal", "search"),
    "blamed_7": ("7:RRDDDL", "default", "search"),
    "dead_7": ("7:RRRRRRDLDRDLDRDLLULU", "universal", "search"),
}


def _view(name):
    text, rules, backend = GOLDEN_STATES[name]
    state = parse_state(text)
    if backend is None:
        return describe(state, rules)
    with get_oracle(backend, time_limit=30) as oracle:
        return describe(state, rules, oracle, time_limit=60)


@pytest.fixture(scope="module")
def views():
    return {name: _view(name) for name in GOLDEN_STATES}


@pytest.mark.parametrize("name", sorted(GOLDEN_STATES))
def test_svg_matches_its_golden_file(views, name):
    svg = render(views[name])
    assert svg == render(views[name])  # deterministic
    check_golden(GOLDEN / f"{name}.svg", svg)


def test_pattern_svg_matches_its_golden_file(views):
    pattern = stuck_pattern(parse_state(GOLDEN_STATES["dead_7"][0]))
    check_golden(GOLDEN / "pattern_dead_7.svg", render_pattern(pattern.facts, title=pattern.draw()))


def _tree(svg):
    return ET.fromstring(svg.split("?>", 1)[1])


def _titles(root):
    return [t.text for t in root.iter(f"{SVG}title")]


def test_picture_marks_each_disabled_move_with_its_rule(views):
    v = views["blamed_7"]
    assert v.open == "U" and sorted(v.disabled) == ["D", "L"]
    root = _tree(render(v))
    marks = [g for g in root.iter(f"{SVG}g") if g.get("class") == "disabled"]
    assert sorted(g.get("data-move") for g in marks) == ["D", "L"]
    for g in marks:
        title = g.find(f"{SVG}title").text
        assert title.startswith(g.get("data-move") + ": disabled by near-border at (")


def test_picture_rings_feasible_moves_and_dashes_a_checked_witness(views):
    v = views["alive_5"]
    assert v.status == "alive" and v.feasible == "DLR" and check_witness(v.state, v.witness)
    root = _tree(render(v))
    rings = [t for t in _titles(root) if t.endswith("feasible (the oracle finds a completion after it)")]
    assert sorted(t[0] for t in rings) == ["D", "L", "R"]
    dashed = [e for e in root.iter() if e.get("stroke-dasharray") and e.find(f"{SVG}title") is not None
              and e.find(f"{SVG}title").text.startswith("witness completion")]
    assert len(dashed) == 1
    # the dashed line runs through the centre of each cell of the completion, from the head (cell 32, margin 16)
    points = [tuple(float(c) for c in p.split(",")) for p in re.findall(r"[-\d.]+,[-\d.]+", dashed[0].get("d"))]
    board, cell = v.state.board, v.state.head
    expected = [board.xy(cell)]
    for m in v.witness:
        cell = board.step(cell, m)
        expected.append(board.xy(cell))
    assert points == [(16 + (x - 0.5) * 32, 16 + (y - 0.5) * 32) for x, y in expected]


def test_dead_picture_outlines_the_minimal_pattern_and_no_witness(views):
    v = views["dead_7"]
    assert v.status == "dead" and v.first_dead_step == 20 and v.witness is None and v.feasible == ""
    p = v.pattern
    assert p is not None and p.dead_state == v.state.compact()
    svg = render(v)
    root = _tree(svg)
    titles = _titles(root)
    assert sum(t.startswith("pattern: (") for t in titles) == len(p.facts)
    assert not any(t.startswith("witness") for t in titles)
    # facts agree with the state: taken facts on the line or off the board, visit facts free, end at (n, n)
    n = v.state.n
    for x, y, kind in p.facts:
        inside = 1 <= x <= n and 1 <= y <= n
        if kind == "taken":
            assert inside and v.state.taken[v.state.board.cell(x, y)]
        elif kind == "border":
            assert not inside
        elif kind == "visit":
            assert inside and not v.state.taken[v.state.board.cell(x, y)]
        else:
            assert (x, y) == (n, n)
    assert not set(p.optional) & {(x, y) for x, y, _ in p.facts}


def test_pattern_lies_where_verify_puts_it_on_the_board():
    from verify.minimize import board_cells

    state = parse_state("9:RRRRRRRRDDDLDRDLLULLLURR").prefix(22)
    pattern = stuck_pattern(state)
    laid = place_pattern(pattern, state)
    on_board = {state.board.cell(x, y): k for x, y, k in laid.facts if 1 <= x <= 9 and 1 <= y <= 9}
    assert on_board == board_cells(pattern, state)


def test_oracle_rule_set_blames_the_oracle_and_complete_state_has_no_moves():
    with get_oracle("search", time_limit=30) as oracle:
        from labyrinth.rules import OracleRules

        v = describe(parse_state("5:RRRRDDLLLU"), OracleRules(oracle), oracle)
        assert v.open == v.feasible and all(b[0].rule == "oracle" for b in v.disabled.values())
        done = describe(State.from_moves(3, "RRDLLDRR"), "default", oracle)
    assert done.status == "complete" and done.free == "" and done.future == ()
    assert "<title>3:RRDLLDRR" in render(done)


def test_state_view_json_is_plain_data(views):
    obj = json.loads(json.dumps(views["dead_7"].to_json()))
    assert obj["status"] == "dead" and obj["first_dead_step"] == 20 and obj["pattern"]["facts"]
    assert obj["blame"] == [f"{m}: closed by a force of c-shape at (5,4) (5,5) (6,4)" for m in "LU"]


# --- the command line ----------------------------------------------------------------------------------------
def test_draw_writes_svg_and_png(tmp_path, capsys):
    out = tmp_path / "s.svg"
    assert main(["draw", "--moves", "7:RRDDDL", "-o", str(out), "--backend", "search"]) == 0
    assert out.read_text().startswith("<?xml") and "near-border" in out.read_text()
    png = tmp_path / "s.png"
    assert main(["draw", str(DEAD_FILE), "--step", "21", "-o", str(png), "--no-pattern"]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["draw", "--moves", "5:RD", "--no-oracle"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("</svg>")


@pytest.mark.parametrize("argv, token", [
    (["draw", "--moves", "7:RRQ"], "'Q'"),
    (["draw", "--moves", "8:RR"], "odd"),
    (["draw", "--moves", "7:RR", "--step", "5"], "--step"),
    (["draw"], "exactly one"),
    (["report", "--db", "{tmp}/missing/x.db"], "no findings store"),
])
def test_bad_input_is_one_line_and_exit_2(argv, token, capsys, tmp_path):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]  # a path in the test's own folder, known not to exist
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("labyrinth: ") and token in err


# --- a findings store, the report ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def store_db(tmp_path_factory):
    """A small real store: random-walk audits of 7x7 and 9x9 with the universal rules (missed-dead findings)."""
    from verify import AuditSettings, Store, run_campaign

    db = tmp_path_factory.mktemp("store") / "view.db"
    with Store(db) as store:
        run_campaign(store, AuditSettings(
            n=7, rules_args=("universal", (), ()), walks=40, seed=1, time_limit=3600, pattern_time_limit=3600))  # every pattern found, however busy the machine
        run_campaign(store, AuditSettings(
            n=9, rules_args=("universal", (), ()), walks=10, seed=1, time_limit=3600, pattern_time_limit=3600))
    return db


def make_report(db, out, stats_runs=3, sizes="9,11"):
    """``labyrinth report`` of ``db`` into ``out`` (a small measurement); returns ``out``."""
    assert main(["report", "--db", str(db), "-o", str(out), "--stats-runs", str(stats_runs), "--stats-sizes", sizes,
                 "--timing", "6", "--time-limit", "5", "--no-progress"]) == 0
    return out


def test_report_is_self_contained_and_links_each_pattern_to_its_example(store_db, tmp_path):
    from verify import Store

    page = make_report(store_db, tmp_path / "r.html").read_text(encoding="utf-8")
    # offline: no scripts, stylesheets or images fetched; the only URLs are SVG namespace names
    assert not re.search(r"<(script|link|img|iframe)\b", page)
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {"http://www.w3.org/2000/svg",
                                                               "http://www.w3.org/1999/xlink"}
    with Store(store_db) as store:
        campaigns, patterns, findings = store.campaigns(), store.patterns(), store.findings()
    assert patterns and findings
    for c in campaigns:
        assert f"<td>{c['id']}</td>" in page
    ids = set(re.findall(r'id="([^"]+)"', page))
    for p in patterns:
        assert f"pattern-{p['id']}" in ids and f"example-{p['id']}" in ids
        assert f'href="#example-{p["id"]}"' in page
    for link in re.findall(r'href="#([^"]+)"', page):
        assert link in ids, link
    for section in ("Campaigns", "Findings per class", "Rules: fired and misfired",
                    "Walkthroughs before the first stuck walk", "Oracle time per query", "Pattern frequency",
                    "Gallery of minimal stuck patterns"):
        assert f"<h2>{section}</h2>" in page
    assert "study (7x7 rules)" in page and "c-shape" in page
    for backend in ("auto", "search", "sat"):
        assert f">{backend}</text>" in page


def test_report_rows_name_every_kind_of_campaign_and_count_an_unfinished_one_s_units(tmp_path):
    """Issue 44 (7): a trace campaign is not 'NonexNone, None walks'; an unfinished campaign's row counts the
    findings of the units it has stored (as 'in store' does), not an empty total."""
    from labyrinth.view._campaigns import board_and_run, campaign_row
    from verify import Store

    with Store(tmp_path / "k.db") as store:
        trace = store.start_campaign("trace", {"kind": "trace", "files": 3, "digest": "ab"})
        walks = store.start_campaign("walks", {"n": 9, "walks": 20, "seed": 4, "kind": "walks"}, seed=4)
        knight = store.start_campaign("knight-semimagic", {"board": 8, "closed": False, "diagonals": False,
                                                           "depth": 2})
        stats = store.start_campaign("stats", {"sizes": [7, 9], "rules": "fast", "off": [], "on": [], "runs": 4,
                                               "seed": 0, "cap": 5}, seed=0, rules="fast")
        for i, found in enumerate((2, 3)):
            store.record_unit(walks, f"walk {i}", [], {"walks": 1, "findings": {"missed-dead": found}})
        store.record_unit(stats, "7x7 runs 0-1", [], {"runs": 2, "walks": 7, "walkthroughs": 6, "stuck": 1,
                                                      "censored": 1, "samples": [5, 1], "seconds": 0.1})
        rows = {r["id"]: campaign_row(r, store) for r in store.campaigns()}
    assert board_and_run(rows[trace]) == ("research files", "3 files, their recorded options")
    assert board_and_run(rows[walks]) == ("9x9", "20 walks, seed 4")
    assert board_and_run(rows[knight]) == ("8x8", "knight-semimagic")
    assert board_and_run(rows[stats]) == ("7x7, 9x9", "walk statistic: 4 runs a size, each up to 5 walkthroughs, "
                                                      "seed 0")
    assert rows[walks]["totals"] == {"walks": 2, "findings": {"missed-dead": 5}}
    assert rows[stats]["totals"]["walks"] == 7 and rows[stats]["totals"]["stuck"] == 1
    assert not any("None" in " ".join(board_and_run(r)) for r in rows.values())


def test_every_store_reader_takes_a_store_with_one_campaign_of_each_kind(tmp_path, capsys):
    """The readers of the store (findings list, the report, a stats campaign's results) take every kind of
    campaign the commands write, finished or not."""
    from labyrinth.cli import main
    from labyrinth.view.report import build_report
    from verify import Store
    from verify.stats_campaign import stored_results

    db = str(tmp_path / "all.db")
    assert main(["audit", "-n", "5", "--walks", "2", "--db", db, "--no-progress"]) == 0
    assert main(["stats", "-n", "5,7", "--rules", "fast", "--runs", "4", "--cap", "5", "--db", db,
                 "--no-progress"]) == 0
    with Store(db) as store:
        store.start_campaign("trace", {"kind": "trace", "files": 3, "digest": "ab"})
        store.start_campaign("knight-semimagic", {"board": 8, "closed": False, "diagonals": False, "depth": 2})
        unfinished = store.start_campaign("stats", {"sizes": [9], "rules": "fast", "off": [], "on": [], "runs": 40,
                                                    "seed": 0, "cap": 5}, seed=0, rules="fast")  # 2 runs a unit
        store.record_unit(unfinished, "9x9 runs 0-1", [], {"runs": 2, "walks": 3, "walkthroughs": 1, "stuck": 2,
                                                           "censored": 0, "samples": [1, 0], "seconds": 0.1})
        kinds = sorted(c["kind"] for c in store.campaigns())
        page = build_report(store, stats_runs=0, timing=0, gallery=0)
        partial = stored_results(store, unfinished)
    assert kinds == ["knight-semimagic", "stats", "stats", "trace", "walks"]
    assert "walk statistic: 4 runs a size" in page and "7x7" in page
    assert not partial.complete and partial.stats[9].runs == 2 and not partial.size_complete(9)
    capsys.readouterr()
    for what in ("campaigns", "findings", "patterns"):
        for extra in ([], ["--json"]):
            assert main(["findings", "list", what, "--db", db, *extra]) == 0, (what, extra)
    listed = capsys.readouterr().out
    assert listed.count("stats") >= 4 and "Traceback" not in listed


# --- the viewer's server -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(store_db):
    from labyrinth.view.server import make_server

    srv = make_server(store_db, port=0, time_limit=10)
    srv.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _get(server, path, body=None):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(server.url.rstrip("/") + path, data=data,
                                 headers={"Content-Type": "application/json"} if data is not None else {})
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            raw, code, kind = res.read(), res.status, res.headers["Content-Type"]
    except urllib.error.HTTPError as err:
        raw, code, kind = err.read(), err.code, err.headers["Content-Type"]
    return code, (json.loads(raw) if kind == "application/json" else raw.decode())


def test_server_binds_localhost_and_serves_the_page(server):
    assert server.server_address[0] == "127.0.0.1"
    code, page = _get(server, "/")
    assert code == 200 and "labyrinth viewer" in page and "ArrowRight" in page
    assert not re.search(r"<(script|link)[^>]+(src|href)=", page)  # everything inline
    code, meta = _get(server, "/api/meta")
    assert code == 200 and "default" in meta["rule_sets"] and meta["findings"] > 0


def test_server_loads_a_research_file_and_steps_through_it(server):
    code, line = _get(server, "/api/load", {"text": DEAD_FILE.read_text(), "rules": "default"})
    assert code == 200 and line["n"] == 9 and line["steps"] == 24 and line["first_dead_step"] == 22
    assert len(line["options"]) == 25
    moves = line["moves"]
    code, before = _get(server, f"/api/view?state=9:{moves[:21]}&rules=default")
    code2, after = _get(server, f"/api/view?state=9:{moves[:22]}&rules=default")
    assert (code, code2) == (200, 200)
    assert before["status"] == "alive" and after["status"] == "dead" and after["first_dead_step"] == 22
    assert after["pattern"] and before["svg"] != after["svg"] and after["svg"].startswith("<svg")


def test_server_opens_a_finding_of_the_store(server):
    code, findings = _get(server, "/api/findings")
    assert code == 200 and findings
    f = findings[0]
    code, opened = _get(server, f"/api/finding?id={f['id']}")
    assert code == 200 and opened["line"] == f["state"] + f["move"]
    assert opened["step"] == len(f["state"].split(":")[1]) and opened["kind"] == f["kind"]
    assert opened["campaign_rules"] == opened["rule_set"] == "universal"  # seen under the rules that missed it


@pytest.mark.parametrize("path, body, words", [
    ("/api/view?state=7:RRZZ", None, "'Z'"),
    ("/api/view?state=8:RR", None, "odd"),
    ("/api/view?state=99:R", None, "up to 49"),
    ("/api/view?state=", None, "nothing to load"),
    ("/api/view?state=7:RRLL", None, "revisits"),
    ("/api/view?state=7:RR&rules=../../etc/x.rule", None, "unknown rule set"),
    ("/api/load", b"not json", "JSON"),
    ("/api/load", {"text": 5}, "nothing to load"),
    ("/api/load", {"text": "9|1-1,1;0-9,9"}, "not a single step"),
    ("/api/load", {"text": "7|garbage"}, "expected"),
    ("/api/finding?id=abc", None, "a number"),
    ("/api/finding?id=99999", None, "no such finding"),
])
def test_server_rejects_malformed_input_with_a_message(server, path, body, words):
    code, answer = _get(server, path, body)
    assert code == 400 and words in answer["error"]


def test_server_unknown_path_is_404_json(server):
    code, answer = _get(server, "/etc/passwd")
    assert code == 404 and "no such page" in answer["error"]
