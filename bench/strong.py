"""The issue's targets for `strong`, side by side with `default` in one run: speed, stuck walks, and a learning round.

    python bench/strong.py                                   # speed and stuck walks (about 20 minutes)
    python bench/strong.py --walks 11:100000,13:100000,21:20000 --jobs 2
    python bench/strong.py --speed-sizes 21,41,101 --walks 41:400 --default-walks 400
    python bench/strong.py --learn                            # also one round of `rules learn` at 9..13, timed
    python bench/strong.py --speed-sizes 41,101 --walks "" --speed-sets default,strong++,strong+++ --clock cpu

Speed: random 21x21 walks per second on one core, caches warm, the sets interleaved in blocks
(the machine's slow phases hit every set alike), with the best 0.25 s block beside the mean.
Stuck walks: the same seeded walks under each set (walk k of seed S), per size; for `default` a
sample of the same walks. Prints Markdown for reports/BENCHMARKS.md. ``--clock cpu`` times by this
process's CPU seconds (``time.process_time``): on a shared machine other jobs then take the core, not
the figure (the walker is one thread).
"""

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from labyrinth.engine import State  # noqa: E402
from labyrinth.engine.walker import walk_statistics, wilson  # noqa: E402
from labyrinth.rules import get_rule_set  # noqa: E402

BLOCK = 0.25
#: the clocks a speed can be read from (``--clock``)
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def speed(sets, n, seconds, seed, clock=time.perf_counter):
    """Walks/s per set, interleaved: (mean, best block, mean steps, completed share), timed by ``clock``."""
    runners = {name: rules.runner() for name, rules in sets.items()}
    start = State.from_moves(n, "")
    for runner in runners.values():
        runner.walk(start, seed)  # compile or load
    stats = {name: [0, 0.0, 0.0, 0, 0] for name in sets}  # walks, seconds, best, steps, completed
    t0 = clock()
    while clock() - t0 < seconds * len(sets):
        for name, runner in runners.items():
            st = stats[name]
            b0 = clock()
            k0 = st[0]
            while clock() - b0 < BLOCK:
                cells, outcome = runner.walk(start, seed, st[0])
                st[0] += 1
                st[3] += len(cells) - 1
                st[4] += outcome
            dt = clock() - b0
            st[1] += dt
            st[2] = max(st[2], (st[0] - k0) / dt)
    return {name: (st[0] / st[1], st[2], st[3] / st[0], st[4] / st[0]) for name, st in stats.items()}


def stuck(rules, n, walks, seed, jobs):
    """Stuck walks among ``walks`` seeded walks (one run per walk: cap 1)."""
    st = walk_statistics(n, rules, walks, seed, cap=1, jobs=jobs)
    return st.stuck, st.walks, st.seconds


def _named(name):
    """The rule set a speed set names: ``NAME`` or ``NAME --on RULE[;RULE...]`` (``;``: commas part the sets)."""
    base, _, on = name.partition(" --on ")
    return get_rule_set(base, on=[r for r in on.split(";") if r])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="timed seconds per set for the speed")
    ap.add_argument("--speed-sizes", default="21", metavar="N[,N...]",
                    help="board sizes of the speed table (past 21 only default and the strong sets are timed)")
    ap.add_argument("--walks", default="11:100000,13:100000,21:20000", help="N:WALKS for the stuck walks of strong")
    ap.add_argument("--default-walks", type=int, default=2000, help="walks per size for default")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--speed-sets", default="", metavar="SET[,SET...]",
                    help="the sets timed past 21x21 (default: default, strong, strong+, strong++); a set may switch "
                         "rules on: 'strong+++ --on probe-cut:3'")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                    help="time by the wall clock or by this process's CPU seconds (steadier on a shared machine)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--learn", action="store_true", help="time one round of rules learn -n 9,11,13")
    args = ap.parse_args(argv)
    sets = {"default": get_rule_set("default"), "default --on future-lines": get_rule_set("default", on=["future-lines"]),
            "strong": get_rule_set("strong"), "strong+": get_rule_set("strong+"), "strong++": get_rule_set("strong++")}
    big = [s for s in args.speed_sets.split(",") if s] or ["default", "strong", "strong+", "strong++"]
    sets.update({name: _named(name) for name in big if name not in sets})
    print(f"# machine: {platform.machine()}, {os.cpu_count()} cores, python {platform.python_version()}; "
          f"load average at the start {os.getloadavg()[0]:.1f}; {args.clock} clock\n")
    print("## random walks, one core, caches warm, interleaved blocks\n")
    print("| n | rules | walks/s | s a walk | best 0.25 s block | mean steps | completed |")
    print("|---|---|---|---|---|---|---|")
    for n in (int(x) for x in args.speed_sizes.split(",")):
        timed = {k: sets[k] for k in big} if n > 21 or args.speed_sets else sets
        for name, (mean, best, steps, done) in speed(timed, n, args.seconds, args.seed, CLOCKS[args.clock]).items():
            print(f"| {n} | {name} | {mean:.2f} | {1 / mean:.3f} | {best:.1f} | {steps:.0f} | {done:.4f} |", flush=True)
    print("\n## stuck walks: walk k of the seed under each set (one walk per run)\n")
    print("| n | rules | walks | stuck | stuck per walk (95% Wilson) | walkthroughs per stuck walk | seconds |")
    print("|---|---|---|---|---|---|---|")
    for item in filter(None, args.walks.split(",")):
        n, walks = (int(x) for x in item.split(":"))
        for name, rules, count in (("default", sets["default"], args.default_walks), ("strong", sets["strong"], walks)):
            k, w, sec = stuck(rules, n, count, args.seed, args.jobs)
            lo, hi = wilson(k, w)
            per = f"{(w - k) / k:.0f}" if k else f"> {w}"
            print(f"| {n} | {name} | {w} | {k} | {k / w:.2e} ({lo:.1e}..{hi:.1e}) | {per} | {sec:.0f} |", flush=True)
    if args.learn:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "learned.rule"
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "labyrinth.cli", "rules", "learn", "-n", "9,11,13", "--rounds",
                                   "1", "-o", str(out), "--no-progress"], capture_output=True, text=True)
            dt = time.perf_counter() - t0
            print("\n## one round of `labyrinth rules learn -n 9,11,13 --rounds 1` (400 walks per size)\n")
            print(f"{dt / 60:.1f} min, exit {proc.returncode}")
            for line in proc.stderr.splitlines():
                if line.startswith(("round", "wrote")):
                    print(f"- {line}")


if __name__ == "__main__":
    main()
