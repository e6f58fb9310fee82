"""Issue 44 (3): a long command says where it stands in a log too: a plain line now and then, none with --no-progress."""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

from labyrinth.cli._progress import PlainProgress, advance, progress_bar

ROOT = Path(__file__).resolve().parent.parent


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_plain_line_at_most_every_interval_with_the_rate_and_the_time_to_go():
    clock, out = Clock(), io.StringIO()
    bar = PlainProgress(1000, unit="unit", desc="knight magic", every=30.0, clock=clock, stream=out)
    advance(bar, 200)  # a resumed run: 200 units stored before it
    for _ in range(20):  # 10 units a second
        clock.now += 1.0
        advance(bar, bar.n + 10)
    lines = out.getvalue().splitlines()
    assert len(lines) == 0  # 20 s: not yet
    clock.now += 11.0
    advance(bar, bar.n + 110)
    lines = out.getvalue().splitlines()
    assert lines == ["labyrinth: knight magic: 510/1000 units (51%), 10 units/s, about 49 s to go"]
    for _ in range(10):
        clock.now += 1.0
        advance(bar, bar.n + 10)
    assert len(out.getvalue().splitlines()) == 1  # the next one 30 s after the last


def test_an_unknown_total_gives_the_count_and_the_rate():
    clock, out = Clock(), io.StringIO()
    bar = PlainProgress(None, unit="walkthrough", every=5.0, clock=clock, stream=out)
    bar.update(0)
    clock.now += 6.0
    bar.update(300)
    assert out.getvalue() == "labyrinth: 300 walkthroughs, 50 walkthroughs/s\n"


def test_progress_goes_to_a_log_when_stderr_is_no_terminal_and_never_with_no_progress(capsys):
    assert isinstance(progress_bar(10, unit="run"), PlainProgress)  # pytest's stderr is no terminal
    assert not isinstance(progress_bar(10, unit="run", disable=True), PlainProgress)


def test_a_command_in_a_log_prints_progress_lines_and_none_with_no_progress(tmp_path):
    # a line every 10 ms; the runs walk for a few tenths of a second (a fast machine walks --cap 10 in 0.1 s)
    env = dict(os.environ, LABYRINTH_PROGRESS_SECONDS="0.01")
    args = [sys.executable, "-m", "labyrinth.cli", "stats", "-n", "9", "--rules", "strong", "--runs", "100",
            "--cap", "40", "--seed", "1"]
    with open(tmp_path / "log", "w") as log:
        done = subprocess.run(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log, text=True, timeout=600)
    assert done.returncode == 0
    lines = (tmp_path / "log").read_text().splitlines()
    pattern = r"labyrinth: 9x9: (\d+)/100 runs \(\d+%\), [\d.]+ runs/s(, about .* to go)?"
    progress = [line for line in lines if re.fullmatch(pattern, line)]
    assert progress, lines
    counts = [int(re.fullmatch(pattern, line).group(1)) for line in progress]
    assert counts == sorted(counts) and counts[-1] <= 100
    quiet = subprocess.run([*args, "--no-progress"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert quiet.returncode == 0 and "runs/s" not in quiet.stderr
