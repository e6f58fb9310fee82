"""The order of states an engine is asked in (issue 31): the 7x7 exhaustive audit through the C# engines.

Usage: python bench/engine_order.py [--every 30] [-n 7] [--stateful "--keep 8" "--keep 64" ...]

Builds examples/engines/corners.cs (stateless: it lays out every state it is asked about) and
stateful.cs (it only steps; each --stateful argument list, e.g. "--keep 64 --work 20", is an engine
of its own) with Mono's mcs, and runs the units of the
exhaustive audit of an n x n board (the subtrees of the cut at 2n - 2 moves, in the campaign's order;
every --every-th of them, or all with --every 1) through each engine asked breadth-first (a level of
the subtree per request: the order before issue 31) and depth-first (one state per request, each
extending the one before or going back up its line), side by side: unit by unit, the
configurations in turn, the first one rotating (fair on a shared machine). Each unit runs as a
campaign runs it (tree, audit, confirmation; no minimal patterns), each configuration with its own
engine process and oracles. Printed per configuration: the units' time, the engine's requests,
states and round-trip seconds, and for stateful.cs the Step calls it reports (its --totals). The
findings of all configurations are compared unit by unit and must be identical.
"""

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# bench/oracle.py is named like the ``oracle`` package: keep this folder off the import path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from labyrinth.engine_protocol import ORDERS, EngineRuleSet  # noqa: E402
from verify import campaign  # noqa: E402
from verify.audit import AuditTotals  # noqa: E402

ENGINES = Path(__file__).resolve().parent.parent / "examples" / "engines"


def _build(out):
    mcs, mono = shutil.which("mcs"), shutil.which("mono")
    if not (mcs and mono):
        sys.exit("engine_order.py: needs Mono's mcs and mono (make engines installs them)")
    commands = {}
    for name in ("corners", "stateful"):
        exe = out / f"{name}.exe"
        subprocess.run([mcs, "-langversion:7", "-optimize+", f"-out:{exe}", str(ENGINES / f"{name}.cs"),
                        str(ENGINES / "Protocol.cs")], check=True, capture_output=True)
        commands[name] = f"{mono} {exe}"
    return commands


def _key(findings):
    return sorted((f.kind, f.state, f.move, tuple(f.rules)) for f in findings)


def _machine():
    """bench/cold_start.py's machine line (CPU, cores, Python, load average), and Mono's version."""
    spec = importlib.util.spec_from_file_location("cold_start", Path(__file__).with_name("cold_start.py"))
    cold_start = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cold_start)
    mono = subprocess.run(["mono", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return f"{cold_start.machine()}; {mono}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=7)
    ap.add_argument("--every", type=int, default=30, help="run every K-th unit of the audit (1: all)")
    ap.add_argument("--stateful", nargs="+", default=["--keep 8", "--keep 64"], metavar="ARGS",
                    help="stateful.cs's arguments, one configuration each (default: '--keep 8' '--keep 64')")
    args = ap.parse_args()
    print(f"machine: {_machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        commands = _build(tmp)
        for extra in args.stateful:
            commands[f"stateful {extra}"] = f"{commands['stateful']} {extra}"
        del commands["stateful"]
        split = 2 * args.n - 2
        with EngineRuleSet(commands["corners"]) as rules:
            units, _top = campaign._split(args.n, rules, split)
            rules.take_latency()  # (the cut's requests are nobody's units)
        sample = units[:: args.every]
        configs = [(name, order) for name in commands for order in ORDERS]
        contexts, totals_files = {}, {}
        for name, order in configs:
            command = commands[name]
            if name.startswith("stateful"):
                totals_files[(name, order)] = tmp / f"{len(totals_files)}.txt"
                command += f" --totals {totals_files[(name, order)]}"
            campaign._CTX.clear()
            campaign._init((f"engine:{command}", (), ()), 60.0, (0, campaign.PATTERN_SECONDS), "auto", None, order)
            contexts[(name, order)] = dict(campaign._CTX)
        seconds = dict.fromkeys(configs, 0.0)
        totals = {c: AuditTotals() for c in configs}
        states = same = 0
        for k, prefix in enumerate(sample):
            keys = {}
            for j in range(len(configs)):
                config = configs[(j + k) % len(configs)]
                campaign._CTX.clear()
                campaign._CTX.update(contexts[config])
                t0 = time.perf_counter()
                _, found, unit_totals, _ = campaign._tree_unit(args.n, prefix)
                seconds[config] += time.perf_counter() - t0
                totals[config].add(unit_totals)
                keys[config] = _key(found)
            same += len({tuple(v) for v in keys.values()}) == 1
            states += unit_totals.steps
        for ctx in contexts.values():
            ctx["rules"].close()
        print(f"{args.n}x{args.n} exhaustive, cut at {split} moves: {len(sample)} of {len(units)} units "
              f"(every {args.every}th), {states} states of the tree; findings identical in {same} of "
              f"{len(sample)} units across the {len(configs)} configurations")
        print("| engine | order | seconds | requests | states asked | round trips s | Step calls |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for name, order in configs:
            t = totals[(name, order)]
            steps = "-"
            if name.startswith("stateful"):
                line = totals_files[(name, order)].read_text().split()
                steps = f"{int(line[3]):,} ({int(line[3]) / max(1, int(line[1])):.1f} a state)"
            print(f"| {name.replace(' ', '.cs ', 1) if ' ' in name else name + '.cs'} | {order} | {seconds[(name, order)]:.1f} | {t.engine_requests:,} | "
                  f"{t.engine_states:,} | {t.engine_seconds:.1f} | {steps} |")


if __name__ == "__main__":
    main()
