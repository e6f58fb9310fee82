"""``labyrinth knight ...``: the knight's tour family (a minimal stand-in: ``magic`` only so far)."""

from labyrinth.cli._common import family_subparsers

DOCUMENT = "knight-magic-tour.md"


def register(sub):
    """Add ``knight`` and its subcommands to the ``labyrinth`` parser."""
    from labyrinth.cli._knight_magic import register_magic

    family = sub.add_parser("knight", help=f"the knight's tour ({DOCUMENT}): magic tours on 8x8")
    ksub = family_subparsers(family, "knight_command")
    register_magic(ksub)
