"""``labyrinth warmup`` compiles every kernel through small commands; what still compiles says so on a terminal."""

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

from labyrinth import compiling
from labyrinth.cli import _warmup as warmup
from labyrinth.cli import main
from labyrinth.rules import RULE_SETS

ROOT = Path(__file__).resolve().parent.parent


def test_every_rule_set_gets_a_walk_and_an_explanation():
    commands = [s.command for s in warmup.steps()]
    for name in RULE_SETS:
        assert f"walk -n 7 --seed 1 --rules {name}" in commands
        assert f"explain --moves 7:RRDDDL --rules {name}" in commands
    labels = [s.label for s in warmup.steps()]
    assert len(labels) == len(set(labels))


def test_every_step_runs_and_succeeds(tmp_path):
    """Each step is a valid command (a renamed option would break warm-up silently otherwise)."""
    for step in warmup.steps():
        status, seconds, _ = warmup.run_step(step, tmp_path, main)
        assert status in (0, 1, 3), (step, status)  # 3: the magic tours' deliberate time limit
        assert seconds >= 0


def test_warmup_lists_its_steps(capsys):
    assert main(["warmup", "--list"]) == 0
    out = capsys.readouterr().out
    assert all(f"labyrinth {s.command}" in out for s in warmup.steps())


def test_the_estimate_counts_the_kernels_of_the_command_still_cold(tmp_path):
    cached = tmp_path / "a.nbi"
    cached.write_text("")
    record = {"kernels": {"m.a": [20.0, str(cached)], "m.b": [7.0, str(tmp_path / "b.nbi")],
                          "m.c": [3.0, str(tmp_path / "c.nbi")]},
              "commands": {"walk _walk": ["m.a", "m.b"]}}
    assert compiling.estimate("walk _walk", "m.b", record) == 7.0  # m.a is cached
    assert compiling.estimate("walk _walk", "m.c", record) == 10.0  # m.c was not seen with this command before
    assert compiling.estimate("stats _stats", "m.c", record) == 3.0  # an unknown command: the kernel alone
    assert compiling.estimate("stats _stats", "m.z", record) == compiling.DEFAULT_SECONDS


def test_the_record_keeps_what_each_command_compiled(tmp_path):
    path = tmp_path / "kernel-seconds.json"
    token = compiling.begin("walk _walk")
    compiling.compiled.append(("m.a", 12.34, "/x/a.nbi"))
    compiling.end(token, path)
    token = compiling.begin("walk _walk")
    compiling.compiled.append(("m.b", 1.0, "/x/b.nbi"))
    compiling.end(token, path)
    record = json.loads(path.read_text())
    assert record["kernels"] == {"m.a": [12.3, "/x/a.nbi"], "m.b": [1.0, "/x/b.nbi"]}
    assert record["commands"] == {"walk _walk": ["m.a", "m.b"]}


def _on_terminal(args, env):
    """Run the CLI with stderr on a pseudo-terminal; (status, what the terminal showed)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "labyrinth.cli", *args], stdout=subprocess.DEVNULL,
                            stderr=slave, cwd=ROOT, env=env)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return proc.wait(timeout=600), shown.decode(errors="replace")


def test_a_command_that_compiles_says_so_on_a_terminal_and_the_next_run_does_not(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))  # an empty cache: the kernels compile
    status, shown = _on_terminal(["toggle", "theorems", "--max-n", "3"], env)
    assert status == 0 and "compiling kernels, once: ~" in shown and "labyrinth warmup" in shown, shown
    status, shown = _on_terminal(["toggle", "theorems", "--max-n", "3"], env)
    assert status == 0 and "compiling" not in shown, shown


def test_a_redirected_run_says_nothing_about_compiling(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-m", "labyrinth.cli", "toggle", "theorems", "--max-n", "3"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    # a compiling run may take long enough for a progress line in the log (docs/cli.md), and nothing else
    lines = [line for line in proc.stderr.splitlines() if not re.fullmatch(r"labyrinth: \d+/3 sizes .*", line)]
    assert proc.returncode == 0 and lines == [], proc.stderr
