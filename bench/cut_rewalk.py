"""Issue 40: the 32 stuck walks of ``strong++`` walked again (same seed and index) under ``strong++ --on cut``::

    python bench/cut_rewalk.py
"""

import json
import pathlib
import sys
from collections import Counter

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from labyrinth.engine.walker import random_walk  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402


def main():
    rows = [json.loads(line) for line in open(ROOT / "reports" / "strong-plus-plus-misses.jsonl")]
    plain, cut = get_rule_set("strong++"), get_rule_set("strong++", on=["cut"])
    tally = Counter()
    for r in rows:
        again = random_walk(r["n"], plain, r["seed"], index=r["index"])
        same = again.state.compact() == r["line"]
        walk = random_walk(r["n"], cut, r["seed"], index=r["index"])
        outcome = "complete" if walk.state.is_complete() else f"stuck at step {walk.state.steps}"
        tally[(r["n"], walk.state.is_complete())] += 1
        print(f"{r['n']}x{r['n']} index {r['index']}: strong++ replayed {'the same' if same else 'ANOTHER'} walk; "
              f"with cut: {outcome}", flush=True)
    for n in sorted({k[0] for k in tally}):
        print(f"{n}x{n}: {tally[(n, True)]} complete, {tally[(n, False)]} stuck")


if __name__ == "__main__":
    main()
