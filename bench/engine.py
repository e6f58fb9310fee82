"""External-engine benchmark (issue 16): an audit through the engine protocol against the same audit in process.

Usage: python bench/engine.py [--walks 9=40,21=6] [--rules default] [--seed 1]
Target: auditing walks through ``labyrinth engine --rules default`` (a separate process, JSON lines
over pipes) takes at most 2x the time of the same audit in process, on 9x9 and 21x21 walks.
Both sides audit the same seeded walks (the engine's walks follow the compiled walker's generator)
as a campaign's units do: in process one walk per unit, through the engine 8 walks per unit walked
in lockstep (one request per step for all of them); unit by unit in turn, who goes first
alternating (fair on a shared machine), each side with its own oracle; the engine is started and
warmed up before the timing. The findings of both sides are compared and must be identical.
"""

import argparse
import platform
import sys
import time
from pathlib import Path

# bench/oracle.py is named like the ``oracle`` package: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.engine.walker import random_walks  # noqa: E402
from labyrinth.engine_protocol import EngineRuleSet, median_seconds  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402
from oracle import get_oracle  # noqa: E402
from verify import audit_walk  # noqa: E402
from verify.campaign import ENGINE_WALKS_PER_UNIT  # noqa: E402


def _key(findings):
    return sorted((f.kind, f.state, f.move, f.rules, f.cells) for f in findings)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--walks", default="9=40,21=6", help="SIZE=WALKS,... (default 9=40,21=6)")
    ap.add_argument("--rules", default="default")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    plan = [tuple(int(v) for v in part.split("=")) for part in args.walks.split(",")]
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}")
    inproc = get_rule_set(args.rules)
    command = f"{sys.executable} -m labyrinth.cli engine --rules {args.rules}"
    with get_oracle("auto") as oracle, get_oracle("auto") as oracle2, EngineRuleSet(command) as engine:
        engine.start()
        for n, walks in plan:
            audit_walk(n, inproc, args.seed, walks, oracle)  # compile and warm up outside the timing
            audit_walk(n, engine, args.seed, walks, oracle2)
            engine.take_latency()
            t_in, t_eng, same = [], [], True
            requests = states = 0
            hist = {}
            longest = 0.0

            def in_process(group):
                return [audit_walk(n, inproc, args.seed, i, oracle)[0] for i in group]

            def through_engine(group):  # as a campaign's unit: the group walked in lockstep, then audited
                walked = random_walks(n, engine, args.seed, group)
                return [audit_walk(n, engine, args.seed, i, oracle2, walk=w) for i, w in zip(group, walked)]

            groups = [range(i, min(i + ENGINE_WALKS_PER_UNIT, walks)) for i in range(0, walks, ENGINE_WALKS_PER_UNIT)]
            for k, group in enumerate(groups):  # each side with its own oracle; who goes first alternates
                for side in ((0, 1) if k % 2 == 0 else (1, 0)):
                    t0 = time.perf_counter()
                    if side == 0:
                        a = in_process(group)
                        t_in.append(time.perf_counter() - t0)
                    else:
                        b = through_engine(group)
                        t_eng.append(time.perf_counter() - t0)
                        for _, totals in b:
                            requests += totals.engine_requests
                            states += totals.engine_states
                            longest = max(longest, totals.engine_max)
                            for key, v in totals.engine_latency.items():
                                hist[key] = hist.get(key, 0) + v
                same &= all(_key(x) == _key(y) for x, (y, _) in zip(a, b))
            total_in, total_eng = sum(t_in), sum(t_eng)
            print(f"{n}x{n}, {walks} walks, rules {args.rules}, seed {args.seed}: in process {total_in:.2f} s, "
                  f"through the engine {total_eng:.2f} s ({len(groups)} units of up to {ENGINE_WALKS_PER_UNIT} walks): "
                  f"ratio {total_eng / total_in:.2f}; "
                  f"{requests} requests ({states} states), round trip median "
                  f"{median_seconds(hist) * 1e3:.3f} ms, max {longest * 1e3:.1f} ms; "
                  f"findings {'identical' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
