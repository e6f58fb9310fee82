"""Certificates of the moves `strong` closes: coverage, size, cost, and the cross-check against the oracle.

    python bench/certificates.py                                   # everything below (hours on 2 cores)
    python bench/certificates.py --exhaustive 0 --walks 21:20 --cross 7:200 --speed-before ""   # a quick look

* coverage: every move `strong` closes, on every state of the 7x7 exhaustive walk (`--exhaustive 7`:
  the tree of all walks under `strong`) and on every state of random walks (`--walks 21:1000,41:10`),
  gets a certificate (else *missing*) that the checker accepts (else *rejected*);
* size: steps and distinct cells named per certificate (median, 95th percentile, max) per n; the ten
  largest are drawn into `--report` (reports/certificates.md and its folder of pictures);
* cost: building (with minimising) and checking one certificate, median and 95th percentile per n;
* cross-check (`--cross 7:10000,9:10000`): random states (a uniformly random line cut at a random
  step); for every free move a certificate is built, and it, the same on the state's other moves and
  on its parent, and its tampered forms (a step dropped, a cell dropped from a set or a piece) are
  checked; every one the checker accepts must be dead by the oracle (a live one is a checker bug);
* speed (`--speed-before COMMIT`): `strong`'s random 21x21 walks per second in this tree and in
  COMMIT's (a temporary worktree), interleaved: certificates cost nothing when not asked for.

Prints Markdown for reports/BENCHMARKS.md.
"""

import argparse
import multiprocessing
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from labyrinth.engine import State  # noqa: E402
from labyrinth.engine.walker import random_walk  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402
from verify.certificates import certificate, check  # noqa: E402
from verify.certificates.build import cells_named  # noqa: E402

_RULES = {}


def _strong():
    if "strong" not in _RULES:
        _RULES["strong"] = get_rule_set("strong")
    return _RULES["strong"]


def _certify_state(state, out):
    """Certify every move `strong` closes at ``state``; append ``(n, steps, cells, build s, check s, status)``."""
    rules = _strong()
    opened = rules.open_moves(state)
    text = state.compact()
    for m in state.open_moves():
        if m in opened:
            continue
        t0 = time.perf_counter()
        cert = certificate(text, m)
        t1 = time.perf_counter()
        if cert is None:
            out.append((state.n, 0, 0, t1 - t0, 0.0, "missing", text, m))
            continue
        verdict = check(text, m, cert)
        t2 = time.perf_counter()
        out.append((state.n, len(cert["steps"]), cells_named(cert["steps"]), t1 - t0, t2 - t1,
                    "valid" if verdict.valid else "rejected", text, m))


def _subtree(prefix):
    """Every state of the walk tree of `strong` below (and at) ``prefix``: their certificates' records."""
    n, moves = prefix
    rules = _strong()
    out = []
    stack = [State.from_moves(n, moves)]
    while stack:
        state = stack.pop()
        if state.at_end():
            continue
        _certify_state(state, out)
        for m in rules.open_moves(state):
            stack.append(state.after(m))
    return out


def _walk(job):
    n, seed, index = job
    final = random_walk(n, _strong(), seed, index=index).state
    out = []
    for k in range(final.steps):
        _certify_state(State(final.board, final.path[:k + 1]), out)
    return out


def _pool(jobs):
    return multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None


def _map(pool, fn, items):
    if pool is None:
        for item in items:
            yield fn(item)
    else:
        yield from pool.imap_unordered(fn, items, chunksize=1)


def exhaustive(n, jobs, depth=10):
    """The records of every state of `strong`'s walk tree at n x n (split into subtrees at ``depth``)."""
    rules = _strong()
    records, prefixes = [], []
    stack = [State.from_moves(n, "")]
    while stack:
        state = stack.pop()
        if state.steps == depth:
            prefixes.append((n, state.moves))
            continue
        if state.at_end():
            continue
        _certify_state(state, records)
        for m in rules.open_moves(state):
            stack.append(state.after(m))
    with _pool(jobs) or _Null() as pool:
        for got in _map(pool if jobs > 1 else None, _subtree, prefixes):
            records.extend(got)
    return records


class _Null:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def walks(n, count, seed, jobs):
    records = []
    with _pool(jobs) or _Null() as pool:
        for got in _map(pool if jobs > 1 else None, _walk, [(n, seed, i) for i in range(count)]):
            records.extend(got)
    return records


# --- the cross-check -----------------------------------------------------------------------------------------


def _tampered(cert):
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


def _cross(job):
    """Random states of one seed: (states, moves, built, accepted tries, dead by the oracle, live accepted)."""
    from oracle import get_oracle

    n, seed, count = job
    rng = random.Random(seed)
    anything = get_rule_set("none")
    totals = [0, 0, 0, 0, 0, 0, 0]  # states, moves, built, accepted, oracle-dead, live accepted, unknown
    bad = []
    with get_oracle("auto", time_limit=60) as oracle:
        verdicts = {}

        def dead(state, move):
            key = (state.compact(), move)
            if key not in verdicts:
                verdicts[key] = oracle.decide(state.after(move)).feasible
            return verdicts[key]

        done = 0
        while done < count:
            final = random_walk(n, anything, rng.randrange(1 << 30)).state
            state = State(final.board, final.path[:rng.randrange(final.steps) + 1])
            if not state.open_moves():
                continue
            done += 1
            totals[0] += 1
            parent = State(state.board, state.path[:-1]) if state.steps else None
            for m in state.open_moves():
                totals[1] += 1
                cert = certificate(state.compact(), m)
                if cert is None:
                    continue
                totals[2] += 1
                tries = [(state, m2, cert) for m2 in state.open_moves()]
                tries += [(parent, m2, cert) for m2 in (parent.open_moves() if parent else ())]
                tries += [(state, m, t) for t in _tampered(cert)]
                for s, move, c in tries:
                    if check(s.compact(), move, c).valid:
                        totals[3] += 1
                        feasible = dead(s, move)
                        if feasible is None:
                            totals[6] += 1
                        elif feasible:
                            totals[5] += 1
                            bad.append((s.compact(), move, c))
                        else:
                            totals[4] += 1
    return totals, bad


def cross(n, count, seed, jobs, chunk=250):
    jobs_list = [(n, seed * 1_000_003 + k, min(chunk, count - k * chunk)) for k in range((count + chunk - 1) // chunk)]
    totals = [0] * 7
    bad = []
    with _pool(jobs) or _Null() as pool:
        for got, found in _map(pool if jobs > 1 else None, _cross, jobs_list):
            totals = [a + b for a, b in zip(totals, got)]
            bad.extend(found)
    return totals, bad


# --- speed --------------------------------------------------------------------------------------------------

_SPEED = """
import sys, time
from labyrinth.engine import State
from labyrinth.rules import get_rule_set
runner = get_rule_set("strong").runner()
start = State.from_moves(21, "")
runner.walk(start, 1)
k, t0 = 0, time.perf_counter()
while time.perf_counter() - t0 < float(sys.argv[1]):
    runner.walk(start, 2026, k)
    k += 1
print(k / (time.perf_counter() - t0))
"""


def _walks_per_second(tree, seconds):
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", _SPEED, str(seconds)], cwd=tree, env=env, capture_output=True,
                         text=True, check=True)
    return float(out.stdout.strip())


def speed(before, rounds, seconds):
    """`strong`'s 21x21 walks/s here and at commit ``before`` (medians over interleaved rounds)."""
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", str(other), before], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            _walks_per_second(other, 1)  # compile the before tree's kernels
            _walks_per_second(ROOT, 1)
            here, there = [], []
            for r in range(rounds):
                pair = [(ROOT, here), (other, there)]
                for tree, out in (pair if r % 2 == 0 else pair[::-1]):
                    out.append(_walks_per_second(tree, seconds))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, capture_output=True)
    return statistics.median(here), statistics.median(there)


# --- the report -------------------------------------------------------------------------------------------------


def _pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0


def _fmt(v):
    return f"{v:,}".replace(",", " ")


def table(label, records):
    """One Markdown row of coverage, size and cost for a sample's records."""
    valid = [r for r in records if r[5] == "valid"]
    missing = sum(1 for r in records if r[5] == "missing")
    rejected = sum(1 for r in records if r[5] == "rejected")
    steps = [r[1] for r in valid]
    cells = [r[2] for r in valid]
    build = [r[3] * 1e3 for r in records]
    chk = [r[4] * 1e3 for r in valid]
    return (f"| {label} | {_fmt(len(records))} | {_fmt(len(valid))} | {rejected} | {missing} | "
            f"{statistics.median(steps) if steps else 0:g} / {_pct(steps, 0.95)} / {max(steps, default=0)} | "
            f"{statistics.median(cells) if cells else 0:g} / {_pct(cells, 0.95)} / {max(cells, default=0)} | "
            f"{statistics.median(build):.2f} / {_pct(build, 0.95):.2f} | "
            f"{statistics.median(chk) if chk else 0:.3f} / {_pct(chk, 0.95):.3f} |")


def largest(records, k=10):
    """The ``k`` largest certificates (most steps, then cells): ``(n, steps, cells, state, move)``."""
    valid = [r for r in records if r[5] == "valid"]
    return sorted(valid, key=lambda r: (-r[1], -r[2], r[6], r[7]))[:k]


def write_report(path, rows, biggest, command):
    from labyrinth.engine import parse_compact
    from labyrinth.view.certificate import render_certificates
    from verify.certificates import sentences

    path = Path(path)
    folder = path.with_suffix("")
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["# Certificates of the moves `strong` closes", "",
             f"Produced by `{command}`. What a certificate is, its step kinds and why each is sound: "
             "[docs/certificates.md](../docs/certificates.md).", "",
             "| sample | closed moves | certificates accepted | rejected | missing | steps: median / 95% / max | "
             "cells: median / 95% / max | build ms: median / 95% | check ms: median / 95% |",
             "|---|---:|---:|---:|---:|---|---|---|---|", *rows, "",
             "## The ten largest", "",
             "Each drawn at its last step (the contradiction), every fact of the steps before it on the board "
             "(forced edges blue, unusable edges crossed out); every step in words below the picture.", ""]
    for i, r in enumerate(biggest, 1):
        n, steps, cells, _, _, _, text, move = r
        state = parse_compact(text)
        cert = certificate(text, move)
        name = f"{i:02d}.svg"
        (folder / name).write_text(render_certificates(state, [(move, cert)], last=True, columns=1))
        short = text if len(text) <= 60 else text[:28] + "…" + text[-28:]
        lines += [f"### {i}. `{short}` then {move}: {steps} steps, {cells} cells", "",
                  f"![certificate {i}]({folder.name}/{name})", "", "<details><summary>the state and every "
                  "step</summary>", "", f"`{text}` then `{move}`", ""]
        lines += [f"{w}  " for w in sentences(text, move, cert)] + ["", "</details>", ""]
    path.write_text("\n".join(lines) + "\n")


def _sizes(text):
    out = []
    for part in filter(None, text.split(",")):
        n, k = part.split(":")
        out.append((int(n), int(k)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exhaustive", type=int, default=7, help="the n of the exhaustive walk tree (0: none)")
    ap.add_argument("--walks", default="21:1000,41:10", help="N:WALKS,... random walks of strong, every state")
    ap.add_argument("--cross", default="7:10000,9:10000", help="N:STATES,... random states against the oracle")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--speed-before", default="7634d94", help="a commit to compare strong's walk speed with")
    ap.add_argument("--speed-rounds", type=int, default=6)
    ap.add_argument("--speed-seconds", type=float, default=10.0)
    ap.add_argument("--report", default="", help="write the size table and the ten largest, drawn, here (.md)")
    args = ap.parse_args()
    command = "python bench/certificates.py " + " ".join(sys.argv[1:])
    print(f"Command: `{command}` ({time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the start)\n")
    rows, everything = [], []
    t0 = time.perf_counter()
    if args.exhaustive:
        t = time.perf_counter()
        records = exhaustive(args.exhaustive, args.jobs)
        states = len({r[6] for r in records})
        rows.append(table(f"{args.exhaustive}x{args.exhaustive} exhaustive walk ({_fmt(states)} states with a "
                          f"closed move, {time.perf_counter() - t:.0f} s)", records))
        everything += records
        print(rows[-1], flush=True)
    for n, count in _sizes(args.walks):
        t = time.perf_counter()
        records = walks(n, count, args.seed, args.jobs)
        rows.append(table(f"{n}x{n}, {_fmt(count)} random walks ({time.perf_counter() - t:.0f} s)", records))
        everything += records
        print(rows[-1], flush=True)
    header = ("| sample | closed moves | certificates accepted | rejected | missing | steps: median / 95% / max | "
              "cells: median / 95% / max | build ms: median / 95% | check ms: median / 95% |\n"
              "|---|---:|---:|---:|---:|---|---|---|---|")
    print("\n" + header + "\n" + "\n".join(rows))
    for r in largest(everything):
        print(f"  largest: {r[0]}x{r[0]} {r[1]} steps {r[2]} cells: {r[6][:50]}... {r[7]}")
    if args.report and everything:
        write_report(args.report, rows, largest(everything), command)
    if args.cross:
        print("\n| n | random states | free moves | certificates built | checks accepted (built, other moves, "
              "parent, tampered) | dead by the oracle | live accepted | oracle unknown |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|")
        for n, count in _sizes(args.cross):
            totals, bad = cross(n, count, args.seed, args.jobs)
            print(f"| {n} | {_fmt(totals[0])} | {_fmt(totals[1])} | {_fmt(totals[2])} | {_fmt(totals[3])} | "
                  f"{_fmt(totals[4])} | {totals[5]} | {totals[6]} |", flush=True)
            for s, m, c in bad[:5]:
                print(f"  LIVE MOVE ACCEPTED: {s} {m} {c}")
    if args.speed_before:
        here, there = speed(args.speed_before, args.speed_rounds, args.speed_seconds)
        print(f"\n`strong`, random 21x21 walks per second (median of {args.speed_rounds} interleaved rounds of "
              f"{args.speed_seconds:g} s): this tree {here:.0f}, {args.speed_before} {there:.0f} "
              f"({(here / there - 1) * 100:+.1f}%)")
    print(f"\n{time.perf_counter() - t0:.0f} s in all")


if __name__ == "__main__":
    main()
