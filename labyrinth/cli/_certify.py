"""``labyrinth certify FILE|-``: check certificates that moves are dead, one JSON line at a time."""

import json
import sys

from labyrinth.cli._common import EXIT_FINDING, EXIT_OK, emit, writable_output, write_text
from labyrinth.cli._limits import file_name
from labyrinth.errors import FormatError, LabyrinthError

_HELP = """\
Each line is {"state": "N:MOVES", "move": "D", "certificate": {...}}, or what labyrinth explain --json
writes (every move there with a certificate is checked). Prints valid or invalid, with the first
failing step and why, for each. Exit status 0 when every certificate is valid, 1 when one is invalid
or missing, 2 for a line that is not such an object."""


def register(sub):
    """Add ``certify`` to the ``labyrinth`` parser."""
    p = sub.add_parser("certify", help="check certificates that moves are dead (what explain --json writes)",
                       description=_HELP)
    p.add_argument("input", metavar="FILE", help="JSON lines, or - for stdin")
    p.add_argument("--json", action="store_true", help="one JSON line per certificate: valid, step, reason")
    p.add_argument("--svg", type=file_name, metavar="FILE", help="draw the valid certificates here: a panel per step")
    p.set_defaults(run=_certify)


def _entries(obj, where):
    """``(state, move, certificate)`` of one line: a certificate, or explain's object with its moves."""
    if not isinstance(obj, dict) or not isinstance(obj.get("state"), str):
        raise FormatError('expected an object with "state": "N:MOVES"', source=where)
    if "moves" in obj and "move" not in obj:
        if not isinstance(obj["moves"], dict):
            raise FormatError('"moves" must be an object: move -> its verdict', source=where)
        return [(obj["state"], m, info["certificate"]) for m, info in obj["moves"].items()
                if isinstance(info, dict) and "certificate" in info]
    if "move" not in obj or "certificate" not in obj:
        raise FormatError('expected "move" and "certificate" (or explain\'s "moves")', source=where)
    return [(obj["state"], obj["move"], obj["certificate"])]


def _lines(path):
    if path == "-":
        yield from enumerate(sys.stdin, 1)
        return
    try:
        with open(path, encoding="utf-8") as f:
            yield from enumerate(f, 1)
    except OSError as err:
        raise LabyrinthError(f"cannot read: {err.strerror or err}", source=path) from None
    except UnicodeDecodeError:
        raise FormatError("not UTF-8 text", source=path) from None


def _short(state):
    return state if len(state) <= 40 else state[:18] + "…" + state[-18:]


def _certify(args):
    from verify.certificates.check import Invalid, check, parse_state

    if args.svg:
        writable_output(args.svg)
    name = "stdin" if args.input == "-" else args.input
    counts = {"valid": 0, "invalid": 0, "missing": 0}
    drawn = []
    for number, text in _lines(args.input):
        if not text.strip():
            continue
        where = f"{name}:{number}"
        try:
            obj = json.loads(text)
        except ValueError as err:
            raise FormatError(f"not JSON ({err.msg})", source=where) from None
        for state, move, cert in _entries(obj, where):
            try:
                parse_state(state)
            except Invalid as err:
                raise FormatError(err.reason, source=where) from None
            if move not in ("U", "D", "L", "R"):
                raise FormatError(f"move {str(move)[:8]!r} is not one of U, D, L, R", source=where)
            if cert is None:
                verdict, kind = None, "missing"
            else:
                verdict = check(state, move, cert)
                kind = "valid" if verdict.valid else "invalid"
            counts[kind] += 1
            if kind == "valid" and args.svg:
                drawn.append((state, move, cert))
            if args.json:
                emit({"line": number, "state": state, "move": move, "valid": kind == "valid",
                      "step": None if verdict is None else verdict.step,
                      "reason": "no certificate" if verdict is None else verdict.reason})
            elif kind == "valid":
                steps = len(cert["steps"])
                print(f"{where} {_short(state)} {move}: valid ({steps} step{'' if steps == 1 else 's'})")
            elif kind == "missing":
                print(f"{where} {_short(state)} {move}: no certificate")
            else:
                at = f" at step {verdict.step}" if verdict.step is not None else ""
                print(f"{where} {_short(state)} {move}: invalid{at}: {verdict.reason}")
    if args.svg:
        from labyrinth.engine import parse_compact
        from labyrinth.view.certificate import render_entries

        write_text(args.svg, render_entries([(parse_compact(s), m, c) for s, m, c in drawn]),
                   f"{len(drawn)} valid certificate{'' if len(drawn) == 1 else 's'} drawn")
    total = sum(counts.values())
    if not args.json:
        print(f"{total} certificate{'' if total == 1 else 's'}: {counts['valid']} valid, {counts['invalid']} "
              f"invalid, {counts['missing']} missing", file=sys.stderr)
    return EXIT_OK if counts["valid"] == total else EXIT_FINDING
