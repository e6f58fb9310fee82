"""The README and the pages of docs/ run as shown: every command of their ``sh`` blocks.

Each page's commands run in page order in a scratch folder of its own (holding the
project's ``data/`` and ``examples/``, an empty ``reports/`` and ``out/``), so that
later ones find what earlier ones wrote (``labyrinth.db``, ``out/wall.db``), exactly as
a reader typing them would, and every file they leave must be one git ignores (no
untracked litter in a clone). A few commands are left out, each for the reason given
in :data:`LEFT_OUT`; the test fails if a page gains a command that is neither run nor
listed there, or loses one that is listed.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: pages whose commands illustrate rather than run here, and why
ILLUSTRATIVE = {
    "docs/engine-protocol.md": "it shows how engines are called (its engines are not built here); "
                               "docs/external-engines.md runs the same commands",
}
PAGES = [README] + sorted(p for p in DOCS.glob("*.md") if p.relative_to(ROOT).as_posix() not in ILLUSTRATIVE)

#: command -> why the test does not run it
LEFT_OUT = {
    "make demo": "the set-up itself: it runs the corpus check that tests/test_cli.py runs on every file",
    "source .venv/bin/activate": "the set-up itself (the test puts this interpreter's folder on PATH)",
    "labyrinth rules mine -n 7 --rules universal -o out/new.rule":
        "about a minute; mining is tested on 5x5 in tests/test_rules.py and tests/test_newcomer.py",
    "labyrinth audit -n 21 --rules default --walks 100 --seed 1 --jobs 2":
        "minutes; its time is a benchmark (reports/BENCHMARKS.md); 21x21 walk audits run in tests/test_verify.py",
    "labyrinth audit --trace data/corpus --report out/corpus-audit.md --jobs 2 --no-patterns":
        "about 8 minutes; tests/test_trace.py audits corpus files, and reports/corpus-audit.md is its output",
    "labyrinth audit -n 21 --walks 1000 --executor ray":
        "an hour on a cluster; tests/test_ray.py runs a campaign on a local Ray cluster",
    "labyrinth serve --db labyrinth.db": "a server that runs until stopped; tests/test_browser.py drives it",
    "labyrinth rules learn -n 9,11,13 --rounds 3 -o out/learned.rule":
        "about half an hour; tests/test_learn.py runs a round on 9x9 and docs/rules-learn.md a small one",
    "labyrinth knight magic --symmetric --all --jobs 2":
        "about 30 s; tests/test_knight_magic.py enumerates the same tours (the 17 classes)",
    "labyrinth knight magic --symmetric --diagonals --jobs 2":
        "15-40 s; the enumeration in tests/test_knight_magic.py answers it (no symmetric tour has both diagonals 260)",
    "labyrinth knight magic --all --db out/m.db --sample 300 --seed 1 --max-units 300":
        "half an hour or more (300 units drawn at random); tests/test_knight_semimagic.py samples a small campaign",
    "labyrinth knight magic --all --closed --db out/magic.db --jobs 2":
        "about 1.2 h on 2 cores (every closed tour); tests/test_knight_semimagic.py runs a closed campaign over a "
        "part of it and has the whole campaign take its units",
    "labyrinth knight magic --all --db out/magic.db --jobs 2 --resume":
        "about 15 h on 2 cores: the whole enumeration; tests/test_knight_semimagic.py runs and resumes a "
        "campaign over a part of it",
    "labyrinth knight magic --all --db out/m.db --jobs 2 --resume":
        "about 15 h on 2 cores: the whole enumeration; tests/test_knight_semimagic.py runs and resumes a "
        "campaign over a part of it",
    "labyrinth knight magic --all --db out/m.db --jobs 2 --resume --sample 2000 --seed 2":
        "about an hour of unit time, then the whole enumeration; tests/test_knight_semimagic.py draws a late sample "
        "on a small campaign",
    "labyrinth knight magic --all --db out/m.db --jobs 2 --resume --first same-orbit":
        "hours (the 22 pairs, then the whole enumeration); tests/test_knight_semimagic.py runs a pair first",
    "labyrinth stats -n 41,61 --rules strong --runs 10000 --db out/curve.db --jobs 2":
        "hours on 2 cores (issue 40's curve); tests/test_stats_campaign.py runs, kills and resumes a small campaign",
    "labyrinth stats -n 41,61 --rules strong --runs 10000 --db out/curve.db --jobs 2 --resume":
        "hours on 2 cores; tests/test_stats_campaign.py resumes a killed campaign to the same rows",
    "labyrinth stats -n 41,61,81,101 --rules strong --runs 10000 --db out/curve-ray.db --executor ray --address "
    "HEAD:6379": "needs a Ray cluster at HEAD:6379; tests/test_ray.py runs a stats campaign on a local cluster",
    "labyrinth stats -n 41,61,81,101 --rules strong --runs 10000 --db out/strong-101.db --jobs 2":
        "days on 2 cores (the curve to 101x101); tests/test_stats_campaign.py runs a small campaign",
    "labyrinth stats -n 41,61,81,101 --rules strong --runs 10000 --db out/strong-101-ray.db --executor ray "
    "--address HEAD:6379": "needs a Ray cluster at HEAD:6379; tests/test_ray.py runs a stats campaign on a local "
                           "cluster",
    "python bench/strong_curve.py --sizes 7,9,11 --scale 0.01 --db out/curve-small.db --report out/curve-small.md":
        "a bench script of the clone (not on a user's PATH); tests/test_strong_curve.py runs it the same way",
    "python bench/strong_curve.py": "about 2 h on 2 cores (the curve to 101x101); tests/test_strong_curve.py runs a "
                                    "small one, stops it and goes on",
    "python bench/strong_curve.py --scale 10 --executor ray --address HEAD:6379 --db out/curve-x10.db --report "
    "out/curve-x10.md": "needs a Ray cluster at HEAD:6379; tests/test_ray.py runs a stats campaign on a local cluster",
    "python bench/strong_misses.py --per-size 5": "needs the curve's store; tests/test_strong_curve.py replays and "
                                                  "minimises the misses of a small one",
    "labyrinth knight magic --backend cpsat --time-limit 60":
        "a minute, then exit 3 (CP-SAT finds nothing on 8x8); tests/test_knight_magic.py checks the model on small boards",
}
#: command -> the exit status the page promises for it (0 for every other command)
EXIT = {
    "labyrinth regress --base universal --head universal --head-off count-area -n 9 --walks 50 --seed 1": 1,
    'labyrinth regress --base-engine out/corners --head-engine "out/corners --wrong" -n 5,7 --walks 20 --seed 1': 1,
    "labyrinth rules lint examples/rules/wall-ahead.rule": 1,
    "labyrinth knight magic --all --db out/m.db --resume --max-units 0 --json": 3,
}


def commands(page):
    """The commands of a page's ``sh`` blocks, comments stripped, in order."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL):
        for line in block.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                out.append(command)
    return out


def test_every_left_out_command_is_on_a_page():
    shown = {c for page in PAGES for c in commands(page)}
    assert set(LEFT_OUT) <= shown, set(LEFT_OUT) - shown
    assert set(EXIT) <= shown, set(EXIT) - shown


def _ignored_by_git(relative):
    """True when git ignores ``relative`` (a path inside the project); None when this is no git checkout."""
    try:
        proc = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", "--no-index", relative],
                              capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return {0: True, 1: False}.get(proc.returncode)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_command_of_a_page_runs_as_shown_and_leaves_no_untracked_file(page, tmp_path):
    for name in ("data", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    for name in ("reports", "out"):
        (tmp_path / name).mkdir()
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    failures = []
    for command in commands(page):
        if command in LEFT_OUT:
            continue
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=900)
        wanted = EXIT.get(command, 0)
        if proc.returncode != wanted or "Traceback" in proc.stderr:
            failures.append(f"{command}\n  exit {proc.returncode} (page: {wanted})\n  {proc.stderr.strip()[-500:]}")
    assert not failures, "\n".join(failures)
    left = [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")
            if p.is_file() and not p.relative_to(tmp_path).as_posix().startswith(("data/", "examples/"))]
    untracked = [p for p in left if _ignored_by_git(p) is False]
    assert not untracked, f"files a reader would find untracked in the clone: {untracked}"


def test_the_readme_is_a_front_page():
    """Short; says how to get `labyrinth` on the PATH; defines N:MOVES before the first state; one example a puzzle."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 160
    assert "source .venv/bin/activate" in text and ".venv/bin/labyrinth" in text
    notation = text.index("## Notation")
    first_state = re.search(r"\b\d+:[UDLR]+\b", text).start()
    assert notation < first_state and notation < text.index("N:MOVES")
    for puzzle in ("labyrinth check", "labyrinth toggle", "labyrinth numbers", "labyrinth knight"):
        assert puzzle in text
    assert "make test" in text and "minutes" in text and "Rules that learn" in text


def test_the_pages_and_the_help_stand_alone():
    """Nothing points a reader to files a clone does not have (the research texts) or to "the document"."""
    from conftest import all_help

    for page in [README, *DOCS.glob("*.md"), ROOT / "data" / "corpus" / "FORMAT.md"]:
        text = page.read_text(encoding="utf-8")
        assert "shared/research" not in text and "../research" not in text, page
        assert "the document" not in text.lower(), page
    help_text = all_help()
    assert "shared/research" not in help_text and "the document" not in help_text.lower()
    for link in re.findall(r"\]\(([^)#]+)", README.read_text(encoding="utf-8")):
        assert link.startswith("http") or (ROOT / link).exists(), link
    for page in DOCS.glob("*.md"):
        for link in re.findall(r"\]\(([^)#]+)", page.read_text(encoding="utf-8")):
            assert link.startswith("http") or (page.parent / link).exists(), (page, link)


def test_the_example_rule_shown_is_the_example_file_and_it_loads():
    from labyrinth.rules import load_rules, parse_rules

    page = DOCS / "labyrinth.md"
    block = re.search(r"```\n(name: .*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL).group(1)
    shown = parse_rules(block, source=str(page))
    (spec,) = load_rules(ROOT / "examples" / "rules" / "pocket.rule")
    assert [(s.name, s.cells, s.marks, s.nmin, s.nmax, s.mirror) for s in shown] == \
        [(spec.name, spec.cells, spec.marks, spec.nmin, spec.nmax, spec.mirror)]


def test_every_command_has_a_line_in_the_cli_reference():
    from labyrinth.cli import _parser

    reference = (DOCS / "cli.md").read_text(encoding="utf-8")
    sub = next(a for a in _parser()._actions if a.dest == "command")
    missing = [name for name in sub.choices if f"`{name}" not in reference]
    assert not missing, missing
