"""Median and p95 query time of one oracle backend on 150 random labyrinth states (best of 3 fresh oracles).

Small and quick, for A/B checks of two trees in alternating processes, e.g.::

    for t in /tmp/before .; do (cd $t && PYTHONPATH=$t python /path/to/bench/oracle_sample.py 9 sat); done

Usage: ``python bench/oracle_sample.py N BACKEND``.
"""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
from labyrinth.engine import State  # noqa: E402
from oracle import get_oracle  # noqa: E402

n = int(sys.argv[1])
backend = sys.argv[2]
rng = random.Random(7)
states = []
while len(states) < 150:
    s = State.from_moves(n, "")
    for _ in range(rng.randrange(n, n * n // 2)):
        m = s.open_moves()
        if not m:
            break
        s = s.after(rng.choice(list(m)))
    if not s.at_end():
        states.append(s)
o = get_oracle(backend)
for s in states[:20]:
    o.decide(s)
per = []
for r in range(3):
    o = get_oracle(backend, time_limit=10)
    ts = []
    for s in states:
        t0 = time.perf_counter()
        o.decide(s)
        ts.append(time.perf_counter() - t0)
    per.append((statistics.median(ts), sorted(ts)[int(0.95 * len(ts))]))
    o.close()
print(n, backend, "median ms %.3f p95 ms %.3f" % (min(p[0] for p in per) * 1e3, min(p[1] for p in per) * 1e3))
