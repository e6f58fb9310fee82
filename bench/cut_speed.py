"""Issue 40: walks/s of ``strong++`` and ``strong++ --on cut``, interleaved (bench/strong.py's harness), and the
stuck walks of both on the same seeded walks::

    python bench/cut_speed.py --sizes 21,41 --seconds 20 --walks 21:200,41:50
"""

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from strong import speed, stuck  # noqa: E402

from labyrinth.rules import get_rule_set  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="21")
    ap.add_argument("--seconds", type=float, default=20.0, help="seconds of walking per set and size")
    ap.add_argument("--walks", default="", help="SIZE:WALKS,... seeded walks per set for the stuck count")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    sets = {"strong++": get_rule_set("strong++"), "strong++ --on cut": get_rule_set("strong++", on=["cut"])}
    print("| n | set | walks/s (mean) | best block | steps/walk | completed |")
    print("|---|---|---|---|---|---|")
    for n in (int(x) for x in args.sizes.split(",")):
        for name, (mean, best, steps, done) in speed(sets, n, args.seconds, args.seed).items():
            print(f"| {n} | {name} | {mean:.1f} | {best:.1f} | {steps:.0f} | {done:.3f} |", flush=True)
    for item in filter(None, args.walks.split(",")):
        n, walks = (int(x) for x in item.split(":"))
        for name, rules in sets.items():
            s, w, sec = stuck(rules, n, walks, args.seed, 1)
            print(f"{n}x{n} {name}: {s} stuck in {w} walks ({sec:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
