"""Shared fixtures: every installed oracle backend, the corpus folder shipped with the project, the C# engines."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from labyrinth.rules.base import RuleSetBase
from oracle import available_backends, get_oracle

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"
BACKENDS = available_backends()
PURE_BACKENDS = [b for b in BACKENDS if b != "auto"]


class RuleByRule(RuleSetBase):
    """``rules`` asked rule by rule (:meth:`RuleSet.decide`), never the compiled walker: each whole-board rule
    built afresh per state, no proven-live shortcut; it walks as ``rules`` does (sound or not)."""

    def __init__(self, rules):
        self.asked = rules
        self.name = rules.name
        self.sound = rules.sound

    def open_moves(self, state):
        return self.asked.decide(state).open


@pytest.fixture(params=BACKENDS, scope="module")
def backend(request):
    """An oracle of each installed backend (the test runs once per backend)."""
    with get_oracle(request.param, time_limit=30) as oracle:
        yield oracle


@pytest.fixture(scope="session")
def corpus_files():
    files = sorted(CORPUS.rglob("*.txt"))
    assert len(files) >= 400, f"corpus missing from {CORPUS}"
    return files


@pytest.fixture(scope="session")
def cs_engines(tmp_path_factory):
    """The C# engines of examples/engines/ built with Mono's ``mcs``: name -> command (``mono ...exe``).

    ``make test`` installs Mono (mono-mcs, mono-runtime): a missing ``mcs`` or
    ``mono`` is a failure naming it, not a skip, as for the C and JS engines.
    """
    tools = {tool: shutil.which(tool) for tool in ("mcs", "mono")}
    for tool, path in tools.items():
        if path is None:
            pytest.fail(f"no '{tool}' on PATH: run `make test` (it installs mono-mcs and mono-runtime) or install "
                        "Mono")
    engines = Path(__file__).resolve().parent.parent / "examples" / "engines"
    out = tmp_path_factory.mktemp("cs-engines")
    built = {}
    for name in ("corners", "stateful"):
        exe = out / f"{name}.exe"
        proc = subprocess.run([tools["mcs"], "-langversion:7", "-warnaserror", f"-out:{exe}",
                               str(engines / f"{name}.cs"), str(engines / "Protocol.cs")],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        built[name] = f"{tools['mono']} {exe}"
    return built


def check_golden(path, text):
    """Compare rendered ``text`` with its golden file (``UPDATE_GOLDEN=1`` rewrites the file)."""
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with UPDATE_GOLDEN=1 once"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} changed (UPDATE_GOLDEN=1 rewrites it)"


def all_help():
    """The --help text of every command and subcommand of ``labyrinth``, joined."""
    import argparse

    from labyrinth.cli import _parser

    out = []

    def walk(parser):
        out.append(parser.format_help())
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub)

    walk(_parser())
    return "\n".join(out)
