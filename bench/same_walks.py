"""The same seeded walks on two trees: are they the same walks, and how many CPU seconds each tree takes.

A change to a sound set's speed machinery (the witness, the order rules are
asked in) must not change a walk: the walk depends only on which moves are
open, and a sound set's open moves do not depend on how it proves them live.
This walks walks ``0 .. K-1`` of a seed under each set and size on the
``--before`` commit (a temporary git worktree) and on this checkout,
alternating the trees round by round, and prints one Markdown row per
(set, size): both trees' CPU seconds (the median over rounds) and whether
the walks (every cell, every outcome) hash equal. Usage::

    python bench/same_walks.py --before 710126e~1 --rules strong,strong+++ --walks 41:300,101:12 [--rounds 2]
    python bench/same_walks.py --before b68cab1 --tree /tmp/wt-base ...   # a kept checkout of b68cab1

The first round on the before tree compiles its kernels (minutes); it is
timed after a first walk, like the others, so compiling is not counted.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the script each tree runs: the walks of one set and size, their hash and CPU seconds (one JSON line)
_WALKS = """
import hashlib, json, sys, time
from labyrinth.engine import State
from labyrinth.rules import get_rule_set
name, n, k, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
runner = get_rule_set(name).runner()
start = State.from_moves(n, "")
runner.walk(start, seed)
digest, stuck, t0 = hashlib.sha256(), 0, time.process_time()
for i in range(k):
    cells, outcome = runner.walk(start, seed, i)
    digest.update(repr((cells, outcome)).encode())
    stuck += outcome != 1
print(json.dumps({"hash": digest.hexdigest()[:16], "stuck": stuck, "cpu": time.process_time() - t0}))
"""


def _walks(tree, name, n, k, seed):
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", _WALKS, name, str(n), str(k), str(seed)], cwd=tree, env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="the commit to compare with")
    ap.add_argument("--tree", type=Path, help="a checkout of --before to use (kept, with its compiled kernels) "
                    "instead of a temporary worktree compiled afresh")
    ap.add_argument("--rules", default="strong", help="rule sets, comma-separated")
    ap.add_argument("--walks", default="21:1000,41:300", help="N:K[,N:K...]: walks 0..K-1 of the N x N board")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args(argv)
    cases = [(name, *map(int, item.split(":"))) for name in args.rules.split(",")
             for item in args.walks.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        before = args.tree or Path(tmp) / "before"
        if args.tree is None:
            subprocess.run(["git", "worktree", "add", "--detach", str(before), args.before], cwd=ROOT, check=True,
                           capture_output=True)
        try:
            runs = {case: {"before": [], "after": []} for case in cases}
            for r in range(args.rounds):
                order = ("before", "after") if r % 2 == 0 else ("after", "before")
                for case in cases:
                    for which in order:
                        runs[case][which].append(_walks(before if which == "before" else ROOT, *case, args.seed))
                print(f"round {r + 1} done", file=sys.stderr)
        finally:
            if args.tree is None:
                subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, capture_output=True)
    print(f"Before: {args.before}; after: the working tree; seed {args.seed}; {args.rounds} rounds alternating, "
          f"median CPU seconds; {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f} at the end.\n")
    print("| rules | n | walks | stuck | CPU s before | CPU s after | change | same walks |")
    print("|---|---|---|---|---:|---:|---:|---|")
    differ = 0
    for (name, n, k), got in runs.items():
        b = statistics.median(x["cpu"] for x in got["before"])
        a = statistics.median(x["cpu"] for x in got["after"])
        same = len({x["hash"] for x in got["before"] + got["after"]}) == 1
        differ += not same
        print(f"| {name} | {n} | {k} | {got['after'][0]['stuck']} | {b:.2f} | {a:.2f} | {100 * (a - b) / b:+.0f}% | "
              f"{'yes' if same else '**no**'} |")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
