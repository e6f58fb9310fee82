"""Issue 44 (5, 6): the commands of README.md and docs/ parse, write under out/, and run one after another.

A reader runs the README's commands, then each page's, in one clone: a command that
starts a run must not meet an output an earlier command wrote (``rules learn`` would
refuse the store, an audit or a knight-magic campaign its settings already stored),
and no two different commands may write one file. These checks read the pages only
(``make docs-check`` runs them with tests/test_readme.py, which runs the quick
commands page by page).
"""

import contextlib
import io
import re
import shlex

import pytest
from test_readme import DOCS, README, commands

from labyrinth.cli import _parser

#: every page, the illustrative ones included: their commands must parse too
ALL_PAGES = [README] + sorted(DOCS.glob("*.md"))
#: the options whose value is a file (or folder) a command writes
OUTPUTS = ("output", "svg", "report", "store", "log")


def labyrinth_commands():
    """``(page name, command text, argv after 'labyrinth')`` of every labyrinth command, in reading order."""
    out = []
    for page in ALL_PAGES:
        for text in commands(page):
            for part in text.split("|"):  # echo 7:RRDD | labyrinth check -
                words = shlex.split(part, comments=True)
                if ">" in words:  # labyrinth explain ... --json > out/why.json: the shell writes the file
                    words = words[:words.index(">")]
                if words and words[0] == "labyrinth":
                    out.append((page.name, text, words[1:]))
    return out


def _parse(argv):
    """The parsed options, or the parser's one-line error."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            return _parser().parse_args(argv), None
        except SystemExit as stop:  # --help and --version exit 0: they parse
            return None, None if stop.code == 0 else err.getvalue().strip()


def test_every_command_of_the_pages_parses():
    bad = []
    for page, text, argv in labyrinth_commands():
        args, err = _parse(argv)
        if err is not None:
            bad.append(f"{page}: {text}: {err}")
    assert not bad, "\n".join(bad)


def _outputs(args):
    paths = [getattr(args, name) for name in OUTPUTS if isinstance(getattr(args, name, None), str)]
    if getattr(args, "command", None) == "rules" and getattr(args, "store", None) is None and \
            isinstance(getattr(args, "output", None), str) and "rounds" in args:
        paths.append(f"{args.output}.units.jsonl")  # rules learn's default store
    return paths


def _campaign(args):
    """``(store, settings)`` of a command that starts a campaign (refused if one with them is stored), else None."""
    if getattr(args, "resume", False) or getattr(args, "new", False):
        return None
    if args.command == "audit":
        keys = ("n", "rules", "off", "on", "engine", "walks", "seed", "exhaustive", "split", "trace", "backend")
        return args.db, tuple(str(getattr(args, k, None)) for k in keys)
    if args.command == "stats" and args.db is not None:
        return args.db, tuple(str(getattr(args, k, None)) for k in ("n", "rules", "off", "on", "seed", "cap", "runs"))
    if args.command == "knight" and getattr(args, "all", False) and not args.symmetric:
        return args.db, (args.closed, args.diagonals, args.scope, args.depth)
    return None


def _resumed(args):
    """The ``(store, settings)`` a ``--resume`` continues (and starts when missing)."""
    if not getattr(args, "resume", False):
        return None
    saved = args.resume
    args.resume = False
    try:
        return _campaign(args)
    finally:
        args.resume = saved


def test_no_two_commands_write_the_same_output_and_no_run_meets_one_stored_before():
    """In reading order (README, then each page), as a reader runs them in one clone."""
    written = {}  # path -> the command that wrote it first
    campaigns = {}  # (store, settings) -> the command that started it
    clashes = []
    for page, text, argv in labyrinth_commands():
        args, _ = _parse(argv)
        if args is None:
            continue
        for path in _outputs(args):
            first = written.setdefault(path, (page, text))
            if first[1] != text:  # the very same command twice writes the same file again: harmless
                clashes.append(f"{path}: {first[0]}: {first[1]}\n  and {page}: {text}")
        started = _campaign(args)
        if started is not None and started in campaigns:
            first = campaigns[started]
            clashes.append(f"a campaign with these settings in {started[0]}: {first[0]}: {first[1]}\n"
                           f"  and {page}: {text} (add --resume or --new, or another --db)")
        for key in (started, _resumed(args)):
            if key is not None:
                campaigns.setdefault(key, (page, text))
    assert not clashes, "\n".join(clashes)


@pytest.mark.parametrize("page", ALL_PAGES, ids=lambda p: p.name)
def test_the_pages_commands_write_under_out(page):
    """Pictures, reports and stores go under out/ (git ignores it); the default store ./labyrinth.db too."""
    wrong = []
    for text in commands(page):
        for part in text.split("|"):
            words = shlex.split(part)
            if not words or words[0] != "labyrinth":
                continue
            args, _ = _parse(words[1:])
            if args is None:
                continue
            paths = _outputs(args)
            if _campaign(args) is not None or _resumed(args) is not None:
                paths.append(args.db)
            wrong += [f"{text}: {p}" for p in paths if not (p.startswith("out/") or p == "labyrinth.db")]
        for path in re.findall(r"(?:^|\s)(?:-o\s+|-out:)(\S+)", text if not text.startswith("labyrinth") else ""):
            if not path.startswith("out/"):
                wrong.append(f"{text}: {path}")
    assert not wrong, "\n".join(wrong)
