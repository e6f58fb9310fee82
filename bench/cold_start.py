"""The first run of every README command after ``make demo``, in a fresh clone: cold against warm.

A newcomer clones the project, runs ``make demo`` and then the README's
commands one by one. Numba compiles a kernel the first time it is called with
a given set of argument types, so a first run can be far slower than the
second. This script reproduces exactly that: it clones the repository into a
temporary folder (``--commit``, default ``HEAD``; only committed code is
measured), runs ``make demo`` there (timed), then runs the commands in order in
the clone (the first runs), and once more in order in a scratch folder beside it
(the second runs: warm kernels, but no store or file left by the first pass, so
an audit is not refused as a campaign that exists). The target (issue 27): every
first run within its warm time + 10 s.

The commands are the ``sh`` blocks of this checkout's README (``--readme`` for
another page, ``--command`` to give them one by one), as in
``tests/test_readme.py``; ``make`` lines and commands that never end on their
own are skipped (:data:`SKIPPED`). Each command runs in the clone with
``.venv/bin`` first on ``PATH``, as after ``source .venv/bin/activate``.
Prints one markdown table and the machine; ``--keep`` leaves the clone.

    python bench/cold_start.py                       # the README's commands (10-20 minutes)
    python bench/cold_start.py --commit main --command "labyrinth walk -n 21 --seed 1"
"""

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the target: a first run at most this many seconds slower than the second
SLACK = 10.0
#: commands (by their first words) that are not timed, and why
SKIPPED = {
    "make": "the set-up itself",
    "source": "the set-up itself",
    "labyrinth serve": "a server that runs until stopped",
    "cc": "builds a reference engine, not a labyrinth command",
}


def readme_commands(path):
    """The commands of a markdown page's ``sh`` blocks, comments stripped, in order."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", Path(path).read_text(encoding="utf-8"), flags=re.DOTALL):
        for line in block.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                out.append(command)
    return out


def skipped(command):
    """The reason ``command`` is not timed, or ``None``."""
    for head, why in SKIPPED.items():
        if command == head or command.startswith(head + " "):
            return why
    return None


def machine():
    """One line: CPU model, cores, Python, load average."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, load average {load}"


def _timed(command, cwd, env, timeout):
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=timeout)
        status, err = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired:
        status, err = "timeout", ""
    return time.perf_counter() - t0, status, err


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commit", default="HEAD", help="the commit to clone and measure (default HEAD)")
    ap.add_argument("--readme", default=str(ROOT / "README.md"), help="the page whose sh blocks are timed")
    ap.add_argument("--command", action="append", default=[], help="time this command instead (repeatable)")
    ap.add_argument("--and-command", action="append", default=[], metavar="COMMAND",
                    help="time this command too, after the page's (repeatable)")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds allowed per run (default 1800)")
    ap.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    args = ap.parse_args(argv)

    commands = (args.command or readme_commands(args.readme)) + args.and_command
    work = Path(tempfile.mkdtemp(prefix="cold-start-"))
    clone = work / "labyrinth"
    print(f"machine: {machine()}", flush=True)
    try:
        subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "checkout", "--quiet", args.commit], cwd=clone, check=True)
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True,
                             text=True, check=True).stdout.strip()
        env = dict(os.environ, PATH=f"{clone / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}")
        env.pop("VIRTUAL_ENV", None)
        seconds, status, err = _timed(f"make demo PYTHON={sys.executable}", clone, env, args.timeout)
        print(f"commit {rev}: make demo {seconds:.0f} s, exit {status}", flush=True)
        if status != 0:
            print(err[-2000:])
            return 1
        print()
        print("| command | first run s | second run s | first - second s | within +10 s |")
        print("|---|---:|---:|---:|---|")
        timed = [c for c in commands if not skipped(c)]
        first = [_timed(c, clone, env, args.timeout) for c in timed]  # in the clone, in page order, as a reader would
        scratch = work / "second"  # the same commands again in order, where nothing they wrote the first time is
        scratch.mkdir()
        for name in ("data", "examples"):
            (scratch / name).symlink_to(clone / name)
        (scratch / "out").mkdir()
        untracked = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=clone,
                                   capture_output=True, text=True).stdout.split("\n")
        untracked = [line[3:] for line in untracked if line.startswith("??")]
        second = [_timed(c, scratch, env, args.timeout) for c in timed]
        runs = dict(zip(timed, zip(first, second)))
        worst = 0.0
        for command in commands:
            why = skipped(command)
            if why:
                print(f"| `{command}` | | | | not timed: {why} |", flush=True)
                continue
            (t1, s1, e1), (t2, s2, _) = runs[command]
            extra = t1 - t2
            worst = max(worst, extra)
            verdict = "yes" if extra <= SLACK else "**no**"
            if s1 not in (0, 1, 3) or s2 not in (0, 1, 3):
                verdict += f" (exit {s1}/{s2}: {e1.strip().splitlines()[-1][:80] if e1.strip() else ''})"
            print(f"| `{command}` | {t1:.1f} | {t2:.1f} | {extra:+.1f} | {verdict} |", flush=True)
        print(f"\nfiles the first pass left untracked in the clone: {', '.join(untracked) or 'none'}")
        print(f"worst first-run overhead: {worst:.1f} s (target: at most {SLACK:.0f} s); machine at the end: "
              f"{machine()}")
        return 0 if worst <= SLACK else 1
    finally:
        if args.keep:
            print(f"clone kept in {clone}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
