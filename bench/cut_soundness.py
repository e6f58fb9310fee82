"""Issue 40: hunt for a live move the cut rule closes (there must be none): seeded walks, every state, the oracle.

For each state of seeded random walks under the given rule sets, every move the cut rule closes that the
closure alone leaves open is decided by the oracle; a feasible one is printed as UNSOUND (exit status 1)::

    python bench/cut_soundness.py -n 11,13,17,21 --rules universal,strong --walks 20
"""

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from labyrinth.engine.walker import random_walk  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402
from labyrinth.rules.closure import Closure  # noqa: E402
from labyrinth.rules.cut import CutCondition  # noqa: E402
from oracle import get_oracle  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", default="11,13,17,21")
    ap.add_argument("--rules", default="universal,strong")
    ap.add_argument("--walks", type=int, default=20)
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--time-limit", type=float, default=60.0)
    args = ap.parse_args(argv)
    cut, closure = CutCondition(), Closure()
    bad = 0
    t0 = time.perf_counter()
    with get_oracle("auto") as oracle:
        for n in (int(x) for x in args.n.split(",")):
            for name in args.rules.split(","):
                rules = get_rule_set(name)
                states = closed = beyond = unknown = 0
                for i in range(args.walks):
                    walk = random_walk(n, rules, args.seed, index=i)
                    for k in range(walk.state.steps):
                        state = walk.state.prefix(k)
                        states += 1
                        moves = {e.move for e in cut.effects(state)}
                        closed += len(moves)
                        extra = moves - {e.move for e in closure.effects(state)}
                        for move in sorted(extra):
                            beyond += 1
                            verdict = oracle.decide(state.after(move), time_limit=args.time_limit)
                            if verdict.feasible is None:
                                unknown += 1
                            elif verdict.feasible:
                                bad += 1
                                print("UNSOUND", state.compact(), move, flush=True)
                print(f"{n}x{n} {name}: {args.walks} walks, {states} states, cut closes {closed} moves, "
                      f"{beyond} beyond the closure (oracle: dead, {unknown} unknown), "
                      f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
