"""Trace audits: check the research program's own recorded decisions against the oracle.

A research file (``data/corpus/FORMAT.md``) records, at every cell of its line,
the directions the research program allowed. Those recorded options are
compared with the oracle's feasible moves, step by step, exactly as a walk
audit compares our rules' open moves (:func:`verify.audit.audit_state`), so the
program's rules are checked without re-implementing them:

* a feasible move the program did not allow is ``over-pruned`` (blamed on
  ``research-program``: a file does not say which of its rules closed it);
* an allowed move into a dead state, at an alive state, is ``missed-dead``;
* the files do not record which options were forced, so a forced dead move
  shows as a ``missed-dead`` finding beside an ``over-pruned`` one (never as
  ``wrong-force``).

The audit follows the line while it is alive and stops at its first dead
step (every later state is dead too). An absent trail (the last list of
options) means the program allowed nothing there; an empty list in the middle
of a line, or a legacy file without options, records nothing and is not
judged.
"""

import dataclasses
import time

from labyrinth.engine import State
from labyrinth.rules.base import RuleSetBase
from verify.audit import (
    CLASSES,
    MISSED_DEAD,
    UNKNOWN,
    AuditTotals,
    Finding,
    _Asker,
    audit_state,
)

__all__ = ["RESEARCH_PROGRAM", "TraceSummary", "audit_trace", "corpus_report"]

RESEARCH_PROGRAM = "research-program"


@dataclasses.dataclass
class TraceSummary:
    """One file's audit: its line, how much of it was judged, and where it died."""

    file: str
    n: int
    steps: int
    recorded: int = 0  # states whose options the file records and that were judged
    status: str = "alive"  # complete | alive | dead | unknown (of the whole line)
    first_dead_step: object = None  # int or None
    off_options: int = 0  # steps taken in a direction the file does not list as allowed
    findings: dict = dataclasses.field(default_factory=dict)

    def to_json(self):
        return dataclasses.asdict(self)


class _Recorded(RuleSetBase):
    """The research program as a rule set: at step k it opens what the file recorded there."""

    name = RESEARCH_PROGRAM

    def __init__(self, trace):
        self.trace = trace

    def options(self, k):
        """The options allowed at cell ``k`` of the line, or None when the file records none."""
        trace = self.trace
        if trace.legacy:
            return None
        opts = trace.options[k]
        if k == trace.state.steps:
            return tuple(opts or ())  # an absent trail: the program allowed nothing
        return tuple(opts) if opts else None

    def open_moves(self, state):
        return self.options(state.steps) or ()


def audit_trace(trace, oracle, *, label="<trace>"):
    """Audit one research file: ``(findings, summary, totals)``; findings come unconfirmed.

    >>> from labyrinth.engine import parse_trace
    >>> from oracle import get_oracle
    >>> trace = parse_trace("5|1-1,1;0,1-2,1;1,0-2,2;3,0")  # at (2,2) it allowed left and down
    >>> with get_oracle("search") as oracle:
    ...     findings, summary, _ = audit_trace(trace, oracle)
    >>> summary.status, summary.first_dead_step, [(f.kind, f.move) for f in findings]
    ('alive', None, [('missed-dead', 'D')])
    """
    t0 = time.perf_counter()
    state = trace.state
    recorded = _Recorded(trace)
    totals = AuditTotals(walks=1)
    summary = TraceSummary(label, state.n, state.steps)
    asker = _Asker(oracle, totals)
    moves = state.moves
    for k, move in enumerate(moves):
        opts = recorded.options(k)
        if opts is not None and move not in opts:
            summary.off_options += 1
    current = State.from_moves(state.n, "")
    ok, witness = asker.decide(current)
    findings = []
    for k in range(state.steps + 1):
        if ok is None:
            summary.status = UNKNOWN
            findings.append(Finding(UNKNOWN, current.compact(), moves[k] if k < len(moves) else ""))
            break
        if ok is False:
            summary.status, summary.first_dead_step = "dead", k
            break
        if current.is_complete():
            summary.status = "complete"
            break
        move = moves[k] if k < len(moves) else None
        if recorded.options(k) is not None:
            summary.recorded += 1
            totals.steps += 1
            found, feasible = audit_state(current, recorded, asker, witness)
            findings.extend(found)
            if move is None:
                break
            if move in feasible:
                ok, witness = True, feasible[move]
            elif any(f.move == move and f.kind == UNKNOWN for f in found):
                summary.status = UNKNOWN
                break
            elif any(f.move == move and f.kind == MISSED_DEAD for f in found):
                ok = False
            else:  # a step the program did not allow: decide it here
                ok, witness = asker.decide(current.after(move))
        elif move is None:
            break
        elif witness and witness[0] == move:
            witness = witness[1:]
        else:
            ok, witness = asker.decide(current.after(move))
        current = current.after(move)
    # how the saved line ends: complete (a walkthrough), stuck (the program allowed nothing more
    # before the end corner), or saved with moves still allowed, alive or already dead (neither of the two)
    last = recorded.options(state.steps)
    stuck = not state.is_complete() and last is not None and not last
    for f in findings:
        f.unit = f"file {label}"
        if f.kind == MISSED_DEAD and stuck:
            f.stuck_step = state.steps
    summary.findings = {k: sum(f.kind == k for f in findings) for k in CLASSES}
    totals.findings.update(f.kind for f in findings)
    if summary.status == "complete":
        totals.walkthroughs += 1
    elif stuck:
        totals.stuck += 1
    elif summary.status == "dead":
        totals.ended_dead += 1
    else:
        totals.ended_alive += 1
    totals.seconds = time.perf_counter() - t0
    return findings, summary, totals


def corpus_report(summaries, totals, *, title="Corpus audit", command=None, findings=()):
    """A Markdown report: per-class totals, one row per file with its first dead step, then each missed-dead
    finding of ``findings`` with ``strong``'s reason (its certificate in words, :mod:`verify.certificates`)."""
    summaries = sorted(summaries, key=lambda s: s.file)
    lines = [f"# {title}", ""]
    if command:
        lines += [f"Produced by `{command}`.", ""]
    lines += [
        "Each research file records the directions the research program allowed at every cell of its line. "
        "Those options are compared with the oracle's feasible moves while the line is alive: an allowed move "
        "into a dead state is *missed-dead*, a feasible move not allowed is *over-pruned* (the files do not "
        "record which of the program's rules closed it, nor which options were forced). Each finding was "
        "checked again by the SAT backend; where SAT ran out of time the finding rests on the search alone "
        "(unconfirmed, counted below).", ""]
    status = {}
    for s in summaries:
        status[s.status] = status.get(s.status, 0) + 1
    judged = sum(s.recorded for s in summaries)
    lines += ["## Totals", "",
              f"- files: {len(summaries)} ({', '.join(f'{v} {k}' for k, v in sorted(status.items()))})",
              f"- states judged (alive, options recorded): {judged}; oracle queries {totals.queries}, "
              f"{totals.seconds:.1f} s",
              f"- steps taken off the recorded options: {sum(s.off_options for s in summaries)}",
              f"- findings SAT could not re-decide in time (unconfirmed): {totals.unconfirmed}; "
              f"findings SAT contradicted (a backend bug, not counted): {totals.disagreements}", "",
              "| class | findings | files |", "|---|---:|---:|"]
    for k in CLASSES:
        files = sum(1 for s in summaries if s.findings.get(k))
        lines.append(f"| {k} | {sum(s.findings.get(k, 0) for s in summaries)} | {files} |")
    sizes = sorted({s.n for s in summaries})
    lines += ["", "Per board size:", "", "| n | files | dead | first dead step (median) | "
              + " | ".join(CLASSES) + " |", "|---:|---:|---:|---:|" + "---:|" * len(CLASSES)]
    for n in sizes:
        group = [s for s in summaries if s.n == n]
        deaths = sorted(s.first_dead_step for s in group if s.first_dead_step is not None)
        median = deaths[len(deaths) // 2] if deaths else "-"
        counts = " | ".join(str(sum(s.findings.get(k, 0) for s in group)) for k in CLASSES)
        lines.append(f"| {n} | {len(group)} | {len(deaths)} | {median} | {counts} |")
    lines += ["", "## Files", "", "| file | n | steps | judged | status | first dead step | off options | "
              + " | ".join(CLASSES) + " |", "|---|---:|---:|---:|---|---:|---:|" + "---:|" * len(CLASSES)]
    for s in summaries:
        dead = "-" if s.first_dead_step is None else str(s.first_dead_step)
        counts = " | ".join(str(s.findings.get(k, 0)) for k in CLASSES)
        lines.append(f"| {s.file} | {s.n} | {s.steps} | {s.recorded} | {s.status} | {dead} | {s.off_options} | "
                     f"{counts} |")
    lines += _why_section(findings)
    return "\n".join(lines) + "\n"


def _why_section(findings):
    """Each missed-dead finding with the certificate of the first sound set that closes its move (or why there is
    none)."""
    from verify.certificates import quote, quote_text

    missed = [f for f in findings if f.kind == MISSED_DEAD and ":" in f.state and "@" not in f.state]
    if not missed:
        return []
    rows, closed = [], 0
    for f in sorted(missed, key=lambda f: (f.unit, len(f.state))):
        q = quote(f.state, f.move)
        closed += q["certificate"] is not None
        state = f.state if len(f.state) <= 30 else f.state[:12] + "…" + f.state[-12:]
        why = quote_text(q).replace("|", "\\|")
        rows.append(f"| {f.unit.removeprefix('file ')} | `{state}` | {f.move} | {why} |")
    share = (f"The sound sets close all {len(missed)} of them, each with a certificate." if closed == len(missed)
             else f"The sound sets close {closed} of these {len(missed)} moves with a certificate; the others need "
             f"an argument beyond them.")
    return ["", "## Why the missed-dead moves are dead", "",
            f"For each move the research program allowed into a dead state: the reason the first sound set that "
            f"closes it gives (`strong`, else `strong+` to `strong+++`), as its certificate (docs/certificates.md) "
            f"in words, each checked by the independent checker. {share}",
            "",
            "| file | state | move | why it is dead |", "|---|---|---|---|"] + rows
