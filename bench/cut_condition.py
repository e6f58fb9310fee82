"""Issue 40: does the cut rule (``--on cut``) close the fatal moves of the stuck walks of ``strong++``?

For each stuck walk in ``reports/strong-plus-plus-misses.jsonl``: the state before its first dead step
(``first_dead_step - 1`` moves) and the fatal move; is it closed by the cut rule alone, and by
``strong++`` with ``--on cut``? Then the later moves of the walk until it got stuck (at most ``--later``):
the first one the cut rule closes. With ``--certify``, the fatal move's certificate too (the builder's
``crossing`` steps, :mod:`verify.certificates._crossing`): built, checked, its steps and the seconds it took.
Prints one row per miss and the counts per size::

    python bench/cut_condition.py                       # all 32
    python bench/cut_condition.py --later 0 --json out/cut-misses.json
    python bench/cut_condition.py --later 0 --certify   # and each fatal move's certificate
"""

import argparse
import json
import pathlib
import sys
import time
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from labyrinth.engine import State  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402
from labyrinth.rules.cut import CutCondition  # noqa: E402
from verify.certificates import certificate, check  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--misses", default=str(ROOT / "reports" / "strong-plus-plus-misses.jsonl"))
    ap.add_argument("--later", type=int, default=30, help="later moves of each walk to try (0: none)")
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--certify", action="store_true", help="build and check the fatal move's certificate")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in open(args.misses)]
    rule = CutCondition()
    plus = get_rule_set("strong++", on=["cut"])
    per_size = defaultdict(lambda: [0, 0, 0, 0])
    out = []
    for r in rows:
        n, moves = r["line"].split(":")
        n = int(n)
        k = r["first_dead_step"]
        before = State.from_moves(n, moves[:k - 1])
        fatal = moves[k - 1]
        t0 = time.perf_counter()
        alone = fatal in {e.move for e in rule.effects(before)}
        seconds = time.perf_counter() - t0
        in_set = fatal not in plus.open_moves(before)
        first = None
        for j in range(k, min(r["steps"], k + args.later)):
            if moves[j] in {e.move for e in rule.effects(State.from_moves(n, moves[:j]))}:
                first = j - k + 1
                break
        per_size[n][0] += 1
        per_size[n][1] += alone
        per_size[n][2] += in_set
        row = {"n": n, "seed": r["seed"], "index": r["index"], "dead_at": k, "move": fatal,
               "seen_after": r["seen_after"], "cut_closes": alone, "strong++ --on cut closes": in_set,
               "later_closed_at": first, "seconds": round(seconds, 3)}
        if args.certify:
            t0 = time.perf_counter()
            cert = certificate(before.compact(), fatal)
            row["certificate_seconds"] = round(time.perf_counter() - t0, 2)
            row["certificate_checked"] = cert is not None and check(before.compact(), fatal, cert).valid
            row["certificate_steps"] = None if cert is None else len(cert["steps"])
            row["crossing_sets"] = [] if cert is None else [len(s["cells"]) for s in cert["steps"]
                                                            if s["kind"] == "crossing"]
            per_size[n][3] += in_set and row["certificate_checked"]
        out.append(row)
        print(json.dumps(row), flush=True)
    total = [sum(v[i] for v in per_size.values()) for i in range(4)]
    print("size  misses  cut closes the fatal move  strong++ --on cut closes it"
          + ("  closed, with a checked certificate" if args.certify else ""))
    for n in sorted(per_size):
        m, a, b, c = per_size[n]
        print(f"{n:4d}  {m:6d}  {a:25d}  {b:27d}" + (f"  {c:34d}" if args.certify else ""))
    print(f" all  {total[0]:6d}  {total[1]:25d}  {total[2]:27d}" + (f"  {total[3]:34d}" if args.certify else ""))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
