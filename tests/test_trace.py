"""Trace audits: the research program's recorded options judged against the oracle, file by file."""

import random
import subprocess
import sys

import pytest

from labyrinth.engine import State, Trace, format_trace, load_trace, parse_trace
from oracle import check_witness, first_dead_step, get_oracle
from oracle.sat import SatOracle
from verify.audit import MISSED_DEAD, OVER_PRUNED
from verify.trace import TraceSummary, audit_trace, corpus_report


@pytest.fixture(scope="module")
def oracle():
    with get_oracle("auto", time_limit=60) as o:
        yield o


@pytest.fixture(scope="module")
def sat():
    with SatOracle(time_limit=60) as s:
        yield s


def _small(corpus_files, limit):
    return [p for p in corpus_files if load_trace(p).n <= limit]


def test_findings_on_small_corpus_files_are_what_the_oracle_says(corpus_files, oracle, sat):
    """Every 5x5-9x9 research file: each finding is true by a second backend, and the first dead step agrees."""
    files = _small(corpus_files, 9)
    assert len(files) >= 150
    kinds = set()
    for path in files:
        trace = load_trace(path)
        findings, summary, _ = audit_trace(trace, oracle, label=str(path))
        state = trace.state
        step, undecided = first_dead_step(state, sat)
        assert undecided == 0
        assert summary.first_dead_step == step, path
        assert summary.status == ("dead" if step is not None else "complete" if state.is_complete() else "alive")
        for f in findings:
            kinds.add(f.kind)
            at = State.from_moves(trace.n, f.state.split(":", 1)[1])
            assert state.moves.startswith(at.moves), path  # findings lie on the file's own line
            recorded = trace.options[at.steps] or ()
            if f.kind == OVER_PRUNED:
                assert f.move not in recorded
                assert f.witness[0] == f.move and check_witness(at, f.witness), path
            else:
                assert f.kind == MISSED_DEAD and f.move in recorded, path
                assert sat.decide(at.after(f.move)).feasible is False, path
                assert sat.decide(at).feasible, path  # the topmost dead state: its parent is alive
    assert kinds == {OVER_PRUNED, MISSED_DEAD}  # the small files hold both kinds of the program's mistakes


def _oracle_trace(n, seed, sat, allow):
    """A trace whose recorded options are ``allow(state, feasible moves)``, along a random feasible line."""
    rng = random.Random(seed)
    state = State.from_moves(n, "")
    options = []
    while not state.is_complete():
        feasible = [m for m in state.open_moves() if sat.decide(state.after(m)).feasible]
        options.append(tuple(allow(state, feasible)))
        state = state.after(rng.choice(feasible))
    options.append(None)
    return Trace(state, tuple(options))


@pytest.mark.parametrize("n,seed", [(5, 1), (7, 2), (9, 3)])
def test_a_program_that_allows_exactly_the_feasible_moves_has_no_findings(n, seed, oracle, sat):
    trace = _oracle_trace(n, seed, sat, lambda s, feasible: feasible)
    trace = parse_trace(format_trace(trace))  # through the research notation and back
    findings, summary, _ = audit_trace(trace, oracle)
    assert findings == []
    assert summary.status == "complete" and summary.recorded == n * n - 1


def test_a_program_that_allows_every_free_move_misses_each_dead_one(oracle, sat):
    trace = _oracle_trace(7, 4, sat, lambda s, feasible: s.open_moves())
    findings, summary, _ = audit_trace(trace, oracle)
    expected = set()
    state = State.from_moves(7, "")
    for m in trace.state.moves:
        for other in state.open_moves():
            if not sat.decide(state.after(other)).feasible:
                expected.add((state.compact(), other))
        state = state.after(m)
    assert expected, "the line should pass some dead moves"
    assert {(f.state, f.move) for f in findings} == expected
    assert all(f.kind == MISSED_DEAD for f in findings) and summary.status == "complete"


def test_an_absent_trail_at_an_alive_state_over_prunes_each_feasible_move(oracle, sat):
    trace = parse_trace("7|1-1,1;0,1-2,1;0,1-3,1")  # the program allowed nothing at (3,1)
    findings, summary, _ = audit_trace(trace, oracle)
    feasible = {m for m in trace.state.open_moves() if sat.decide(trace.state.after(m)).feasible}
    assert {f.move for f in findings} == feasible and feasible
    assert all(f.kind == OVER_PRUNED for f in findings) and summary.status == "alive"


@pytest.mark.parametrize("text", ["5|1,1;2,1;2,2;2,3;1,3", "5|1,1;2,1;2,2;1,2;1,3"])
def test_unrecorded_steps_are_not_judged_but_the_line_is(text, oracle, sat):
    trace = parse_trace(text)  # a legacy file: cells only
    findings, summary, _ = audit_trace(trace, oracle)
    assert findings == [] and summary.recorded == 0
    assert summary.first_dead_step == first_dead_step(trace.state, sat)[0]


def test_report_lists_every_file_and_sums_the_classes(corpus_files, oracle):
    from verify.audit import AuditTotals

    files = _small(corpus_files, 7)[:12]
    summaries, totals = [], AuditTotals()
    for p in files:
        findings, s, t = audit_trace(load_trace(p), oracle, label=p.name)
        summaries.append(s)
        totals.add(t)
    text = corpus_report(summaries, totals, command="labyrinth audit --trace X")
    rows = [line for line in text.splitlines() if line.startswith("| ") and line.split("|")[1].strip().endswith(".txt")]
    assert len(rows) == len(files)
    for k in ("over-pruned", "missed-dead"):
        total_row = next(line for line in text.splitlines() if line.startswith(f"| {k} |"))
        assert int(total_row.split("|")[2]) == sum(s.findings[k] for s in summaries)
    assert TraceSummary(**summaries[0].to_json()) == summaries[0]


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "labyrinth.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def test_cli_audits_a_folder_reports_bad_files_and_keeps_the_rest(tmp_path, corpus_files):
    folder = tmp_path / "files"
    folder.mkdir()
    for p in _small(corpus_files, 5)[:6]:
        (folder / p.name).write_text(p.read_text(encoding="utf-8-sig"), encoding="utf-8")
    (folder / "broken.txt").write_text("6|1-1,1;0,1-2,1\n", encoding="utf-8")
    report = tmp_path / "audit.md"
    proc = _cli("audit", "--trace", str(folder), "--db", str(tmp_path / "t.db"), "--report", str(report),
                "--no-progress")
    assert proc.returncode == 2, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if not line.startswith("labyrinth: wrote ")]
    assert len(errors) == 1 and "broken.txt" in errors[0] and "Traceback" not in proc.stderr
    assert f"labyrinth: wrote {report}" in proc.stderr  # the report of the other files, named
    assert "6 research files" in proc.stdout
    text = report.read_text(encoding="utf-8")
    files = text.split("## Files", 1)[1].split("\n## ", 1)[0]  # the per-file table (the findings' section follows)
    assert sum(line.startswith("| ") and ".txt |" in line for line in files.splitlines()) == 6
    listed = _cli("findings", "list", "campaigns", "--db", str(tmp_path / "t.db"))
    assert "trace" in listed.stdout


def test_cli_trace_rejects_rule_options(tmp_path, corpus_files):
    proc = _cli("audit", "--trace", str(corpus_files[0]), "--rules", "universal", "--db", str(tmp_path / "t.db"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


def test_report_quotes_strong_for_each_missed_dead_move():
    """A missed-dead move of the research program comes with strong's certificate for it, or why there is none."""
    from verify.audit import AuditTotals, Finding
    from verify.certificates import certificate

    findings = [Finding("missed-dead", "9:RRDDDRDR", "D", unit="file a.txt"),
                Finding("missed-dead", "7:RRDDDL", "U", unit="file b.txt"),  # U is live: strong leaves it open
                Finding("over-pruned", "7:RRDDDL", "U", unit="file b.txt")]
    text = corpus_report([], AuditTotals(), findings=findings)
    section = text.split("## Why the missed-dead moves are dead", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("| a.txt") or line.startswith("| b.txt")]
    assert len(rows) == 2 and "close 1 of these 2 moves" in section
    hall = certificate("9:RRDDDRDR", "D")["steps"][0]
    assert f"these {len(hall['cells'])} black cells need" in rows[0] and "checked" in rows[0]
    assert "leaves this move open too" in rows[1]
