"""The README runs as shown: every command of its ``sh`` blocks, and its example rule is a real file.

Commands run in README order in one scratch folder (holding the project's
``data/`` and ``examples/`` and an empty ``reports/``), so that later ones find
what earlier ones wrote (``labyrinth.db``, ``wall.db``), exactly as a reader
typing them would. A few commands are left out, each for the reason given in
:data:`LEFT_OUT`; the test fails if the README gains a command that is neither
run nor listed there, or loses one that is listed.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

#: command -> why the test does not run it
LEFT_OUT = {
    "make demo": "the set-up itself: it runs the corpus check that tests/test_cli.py runs on every file",
    "make test": "the set-up itself: this suite is what it runs",
    "labyrinth rules mine -n 7 --rules universal -o new.rule":
        "about 2 minutes; mining is tested on 5x5 in tests/test_rules.py and tests/test_newcomer.py",
    "labyrinth audit -n 21 --rules default --walks 100 --seed 1 --jobs 2":
        "minutes; its time is a benchmark (reports/BENCHMARKS.md); 21x21 walk audits run in tests/test_verify.py",
    "labyrinth audit --trace data/corpus --report reports/corpus-audit.md --jobs 2 --no-patterns":
        "about 8 minutes; tests/test_trace.py audits corpus files, and reports/corpus-audit.md is its output",
    "labyrinth audit -n 21 --walks 1000 --executor ray":
        "an hour on a cluster; tests/test_ray.py runs a campaign on a local Ray cluster",
    "labyrinth serve --db labyrinth.db": "a server that runs until stopped; tests/test_browser.py drives it",
    "labyrinth knight magic --symmetric --all --jobs 2":
        "about 30 s; tests/test_knight_magic.py enumerates the same tours (the 17 classes)",
    "labyrinth knight magic --symmetric --diagonals --jobs 2":
        "15-40 s; the enumeration in tests/test_knight_magic.py answers it (no symmetric tour has both diagonals 260)",
    "labyrinth knight magic --all --time-limit 60":
        "a minute, then exit 3 by design; tests/test_knight_magic.py runs a time limit through the CLI",
    "labyrinth knight magic --backend cpsat --time-limit 60":
        "a minute, then exit 3 (CP-SAT finds nothing on 8x8); tests/test_knight_magic.py checks the model on small boards",
}
#: command -> the exit status the README promises for it (0 for every other command)
EXIT = {
    "labyrinth regress --base universal --head universal --head-off count-area -n 9 --walks 50 --seed 1": 1,
    'labyrinth regress --base-engine ./corners --head-engine "./corners --wrong" -n 5,7 --walks 20 --seed 1': 1,
}


def commands():
    """The commands of the README's ``sh`` blocks, comments stripped, in order."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL):
        for line in block.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                out.append(command)
    return out


def test_every_left_out_command_is_in_the_readme():
    assert set(LEFT_OUT) <= set(commands())
    assert set(EXIT) <= set(commands())


def test_every_readme_command_runs_as_shown(tmp_path):
    for name in ("data", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "reports").mkdir()
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    failures = []
    ran = 0
    for command in commands():
        if command in LEFT_OUT:
            continue
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600)
        ran += 1
        wanted = EXIT.get(command, 0)
        if proc.returncode != wanted or "Traceback" in proc.stderr:
            failures.append(f"{command}\n  exit {proc.returncode} (README: {wanted})\n  {proc.stderr.strip()[-500:]}")
    assert not failures, "\n".join(failures)
    assert ran >= 30


def test_the_readme_rule_is_the_example_file_and_it_loads():
    from labyrinth.rules import load_rules, parse_rules

    text = README.read_text(encoding="utf-8")
    block = re.search(r"```\n(name: .*?)```", text, flags=re.DOTALL).group(1)
    shown = parse_rules(block, source="README.md")
    (spec,) = load_rules(ROOT / "examples" / "rules" / "pocket.rule")
    assert [(s.name, s.cells, s.marks, s.nmin, s.nmax, s.mirror) for s in shown] == \
        [(spec.name, spec.cells, spec.marks, spec.nmin, spec.nmax, spec.mirror)]
