"""``labyrinth engine``: serve one of this package's rule sets over the engine protocol (stdin/stdout)."""

import argparse
import sys

from labyrinth.cli._common import EXIT_OK, RULES_HELP
from labyrinth.engine_protocol.messages import MAX_NAME, engine_name


def register(sub):
    """Add ``engine`` to the ``labyrinth`` parser."""
    engine = sub.add_parser("engine", help="be a rule engine: answer the engine protocol on stdin/stdout "
                                           "(docs/engine-protocol.md) with a built-in rule set",
                            description="Read requests (JSON lines) on stdin and answer each on stdout with the "
                                        "moves the rule set allows, the forced move and the reasons, until 'quit' "
                                        "or the end of input. 'labyrinth audit --engine \"labyrinth engine --rules "
                                        "X\"' then audits X through the protocol.")
    engine.add_argument("--rules", default="default", help=RULES_HELP)
    engine.add_argument("--off", default="", metavar="RULE[,RULE...]", help="switch these rules off")
    engine.add_argument("--on", default="", metavar="RULE[,RULE...]", help="switch these optional rules on")
    engine.add_argument("--name", type=_name, metavar="NAME", help=f"the engine name said in the handshake, 1 to "
                                                                   f"{MAX_NAME} characters (default labyrinth-RULES)")
    engine.add_argument("--order", choices=["breadth-first", "depth-first"],
                        help="the order of states the handshake says this engine prefers (docs/engine-protocol.md; "
                             "default: it says nothing, and gets breadth-first)")
    engine.set_defaults(run=_engine)


def _name(text):
    """Parser type for ``--name``: a name the protocol's hello takes (the verifier at the other end checks it too)."""
    name = engine_name(text)
    if name is None:
        raise argparse.ArgumentTypeError(f"expected a name of 1 to {MAX_NAME} characters, got {len(text)} "
                                         f"characters" if text.strip() else f"expected a name, got {text!r}")
    return name


def _engine(args):
    from labyrinth import __version__
    from labyrinth.engine.formats import bounded_lines
    from labyrinth.engine_protocol import serve, warm
    from labyrinth.engine_protocol.messages import MAX_LINE
    from labyrinth.rules import get_rule_set

    off = [r for r in args.off.split(",") if r]
    on = [r for r in args.on.split(",") if r]
    rules = get_rule_set(args.rules, off=off, on=on)  # a bad name fails here, before the handshake
    warm(rules)  # load the compiled kernels before saying hello

    def write(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    lines = bounded_lines(sys.stdin, source="<stdin>", limit=MAX_LINE)  # /dev/zero is refused, not read forever
    serve(rules, lines, write, name=args.name, version=__version__, order=args.order)
    return EXIT_OK
