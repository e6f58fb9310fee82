"""The rule-engine protocol's messages: JSON lines, built and checked (``docs/engine-protocol.md``).

One JSON object per line, each way. The verifier says ``hello``, the engine
answers ``hello`` (its name, version, the board sizes it supports and
whether it takes batches); then each ``decide`` request (one ``state``, or a
``states`` list for an engine that takes batches) gets one answer: the moves
it ``allowed``, the ``forced`` move if a rule forced one, and per ``closed``
move the engine's reasons (a rule name and cells). ``quit`` ends the session.
Unknown fields are ignored both ways; the ``protocol`` number changes only
when a message changes meaning.

Everything an engine sends is checked here, and any fault is an
:class:`~labyrinth.errors.EngineError` naming the engine, the request and the
answer: an answer that is not JSON, lacks a field, names a move that is not a
free neighbour of the head (off the board, onto the line), or a cell off the
board. A well-formed answer becomes a :class:`~labyrinth.rules.Decision`, the
same object a built-in rule set gives, so every audit reads it unchanged.
"""

import dataclasses
import json
import math

from labyrinth.errors import EngineError, one_line
from labyrinth.rules.base import BREADTH_FIRST, DEPTH_FIRST, DISABLE, FORCE, ORDERS, Decision, Effect  # noqa: F401 (the protocol names its orders too)

__all__ = [
    "BREADTH_FIRST",
    "DEPTH_FIRST",
    "MAX_BATCH",
    "MAX_DEPTH",
    "MAX_LINE",
    "MAX_NAME",
    "ORDERS",
    "PROTOCOL",
    "PUZZLE",
    "EngineInfo",
    "Unreadable",
    "decision_to_json",
    "dumps",
    "engine_name",
    "hello_request",
    "loads",
    "parse_answer",
    "parse_hello",
]

#: the protocol version this verifier speaks
PROTOCOL = 1
#: the puzzle this package's engines decide (other puzzles may follow under other names)
PUZZLE = "labyrinth"
_MOVES = "UDLR"
#: the longest line either side reads, in bytes (a 1001x1001 state is a million letters; a batch of 8 of them
#: is what the verifier sends at most at that size)
MAX_LINE = 64 << 20
#: the longest engine name (in a hello) and rule name (in a reason), in characters: one limit, read by the
#: verifier and kept by ``labyrinth engine --name``
MAX_NAME = 100
#: the deepest nesting of arrays and objects in a message (the protocol's own deepest, a reason's cell in a
#: batch answer, is 8)
MAX_DEPTH = 32
#: the most states in one request (the verifier sends at most 256)
MAX_BATCH = 4096
#: the orders an engine may prefer its states in (its hello's ``order``): a whole level of the exhaustive tree
#: per request and walks in lockstep (the default: fewest requests), or one state per request, each extending
#: the one before or going back up its line first (for engines that keep state: a step instead of a replay)
#: (declared with the rule-set interface, :mod:`labyrinth.rules.base`, which the verifier reads too)


class Unreadable(ValueError):
    """A line refused before it is read as JSON: too long, nested too deeply, or with a number that is not finite."""


def loads(line):
    """One protocol line read as JSON, bounded: :class:`Unreadable` for more than :data:`MAX_LINE`
    characters, nesting past :data:`MAX_DEPTH`, or a number that is not finite (``NaN``, ``1e999``);
    a ValueError for any other text that is not JSON.

    >>> loads('{"id": 1, "cells": [[1, 2]]}')
    {'id': 1, 'cells': [[1, 2]]}
    >>> loads("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    labyrinth.engine_protocol.messages.Unreadable: nested deeper than 32 levels
    """
    if len(line) > MAX_LINE:
        raise Unreadable(f"a line longer than {MAX_LINE >> 20} MiB")
    try:
        obj = json.loads(line, parse_constant=_not_a_number, parse_float=_finite)
    except RecursionError:  # the C decoder keeps to the interpreter's recursion limit
        raise Unreadable(f"nested deeper than {MAX_DEPTH} levels") from None
    if line.count("[") + line.count("{") > MAX_DEPTH:
        _check_depth(obj)
    return obj


def dumps(obj):
    """One protocol line (compact JSON; a number that is not finite is refused, never written as ``NaN``)."""
    return json.dumps(obj, separators=(",", ":"), allow_nan=False)


def _not_a_number(name):
    raise Unreadable(f"{name} is not a JSON number")


def _finite(text):
    value = float(text)
    if not math.isfinite(value):
        raise Unreadable(f"the number {one_line(text, 40)} is too large")
    return value


def _check_depth(obj):
    """Walk ``obj`` without recursion; :class:`Unreadable` past :data:`MAX_DEPTH` levels of arrays and objects."""
    stack = [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > MAX_DEPTH:
            raise Unreadable(f"nested deeper than {MAX_DEPTH} levels")
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))


@dataclasses.dataclass(frozen=True)
class EngineInfo:
    """What an engine said in its handshake: name, version, sizes (None: every size), batching and its cap, and
    the order it prefers its states in (:data:`ORDERS`)."""

    name: str
    version: str = ""
    sizes: object = None  # None (all), a frozenset of sizes, or (min, max)
    batch: bool = False
    puzzles: tuple = (PUZZLE,)
    max_batch: object = None  # the most states per request it takes (None: it did not say)
    order: str = BREADTH_FIRST

    def supports(self, n):
        """Whether the engine said it plays ``n`` x ``n`` boards."""
        if self.sizes is None:
            return True
        if isinstance(self.sizes, tuple):
            return self.sizes[0] <= n <= self.sizes[1]
        return n in self.sizes

    def sizes_text(self):
        if self.sizes is None:
            return "every size"
        if isinstance(self.sizes, tuple):
            return f"{self.sizes[0]}..{self.sizes[1]}"
        return ", ".join(str(n) for n in sorted(self.sizes))


def hello_request(client):
    """The verifier's first line."""
    return {"type": "hello", "protocol": PROTOCOL, "client": client, "puzzles": [PUZZLE]}


def _fail(reason, engine, request, answer):
    raise EngineError(reason, engine=engine, request=request, answer=answer)


def parse_hello(line, *, engine, request):
    """Read the engine's handshake line into an :class:`EngineInfo` (an :class:`EngineError` if malformed)."""
    obj = _object(line, engine, request)
    if obj.get("type") != "hello":
        _fail("the engine's first line must be its hello", engine, request, line)
    version = obj.get("protocol")
    if not isinstance(version, int) or isinstance(version, bool):
        _fail("hello without an integer 'protocol'", engine, request, line)
    if version != PROTOCOL:
        _fail(f"the engine speaks protocol {version}, this verifier {PROTOCOL}", engine, request, line)
    name = obj.get("engine")
    if not isinstance(name, str) or engine_name(name) is None:
        _fail(f"hello without an 'engine' name (a string of 1 to {MAX_NAME} characters)", engine, request, line)
    puzzles = obj.get("puzzles", [PUZZLE])
    if not isinstance(puzzles, list) or PUZZLE not in puzzles:
        _fail(f"the engine does not play the {PUZZLE} (its 'puzzles': {puzzles!r})", engine, request, line)
    sizes = _sizes(obj.get("sizes", "all"), name, request, line)
    batch = obj.get("batch", False)
    if not isinstance(batch, bool):
        _fail("'batch' must be true or false", name, request, line)
    max_batch = obj.get("max_batch")
    if max_batch is not None and not (_int(max_batch) and max_batch >= 1):
        _fail("'max_batch' must be a whole number of states, at least 1", name, request, line)
    order = obj.get("order", BREADTH_FIRST)
    if order not in ORDERS:
        _fail(f"'order' must be {' or '.join(map(repr, ORDERS))}", name, request, line)
    version_text = obj.get("version", "")
    return EngineInfo(name.strip(), str(version_text), sizes, batch, tuple(p for p in puzzles if isinstance(p, str)),
                      max_batch, order)


def engine_name(text):
    """``text`` as an engine's name (stripped) if the protocol takes it: 1 to :data:`MAX_NAME` characters; else None.

    >>> engine_name(" corners "), engine_name("x" * 101), engine_name("  ")
    ('corners', None, None)
    """
    name = text.strip()
    return name if 1 <= len(name) <= MAX_NAME and len(text) <= MAX_NAME else None


def _sizes(value, engine, request, line):
    if value == "all" or value is None:
        return None
    if isinstance(value, dict):
        lo, hi = value.get("min", 3), value.get("max", 10 ** 9)
        if _int(lo) and _int(hi) and lo <= hi:
            return (lo, hi)
    elif isinstance(value, list) and value and all(_int(v) for v in value):
        return frozenset(value)
    _fail("'sizes' must be \"all\", a list of sizes or {\"min\": N, \"max\": M}", engine, request, line)


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _object(line, engine, request):
    try:
        obj = loads(line)
    except Unreadable as err:
        _fail(f"the answer is not JSON that this verifier reads: {err}", engine, request, line)
    except ValueError:  # UnicodeDecodeError is one
        _fail("the answer is not JSON", engine, request, line)
    if not isinstance(obj, dict):
        _fail("the answer is not a JSON object", engine, request, line)
    return obj


def parse_answer(line, states, *, engine, request, rid):
    """Read the answer to request ``rid`` about ``states`` (a list; more than one: a batch) into Decisions."""
    obj = _object(line, engine, request)
    if obj.get("type") == "error":
        _fail(f"the engine reported an error: {one_line(obj.get('message', ''), 200)}", engine, request, line)
    if not _int(obj.get("id")) or obj["id"] != rid:  # true is not the id 1
        _fail(f"the answer's id is {dumps(obj.get('id'))[:40]}, the request's {rid}", engine, request, line)
    if len(states) == 1 and "answers" not in obj:
        items = [obj]
    else:
        items = obj.get("answers")
        if not isinstance(items, list) or len(items) != len(states):
            _fail(f"a batch of {len(states)} states needs 'answers', a list of {len(states)}", engine, request,
                  line)
    return [_decision(item, state, engine, request, line) for item, state in zip(items, states)]


def _decision(item, state, engine, request, line):
    here = state.compact()
    if not isinstance(item, dict):
        _fail(f"the answer about {here} is not an object", engine, request, line)
    echoed = item.get("state")
    if echoed is not None and echoed != here:
        _fail(f"the answer about {here} names the state {echoed!r}", engine, request, line)
    allowed = item.get("allowed")
    if not isinstance(allowed, str):
        _fail(f"the answer about {here} has no 'allowed' string of moves", engine, request, line)
    free = state.open_moves()
    seen = set()
    for m in allowed:
        _free_move(m, state, free, f"allowed move {m!r}", engine, request, line)
        if m in seen:
            _fail(f"allowed move {m!r} at {here} is listed twice", engine, request, line)
        seen.add(m)
    forced = tuple(_reason(r, state, free, FORCE, engine, request, line, need_move=True)
                   for r in _listed(item.get("forced")))
    wanted = {e.move for e in forced}
    if forced and (len(wanted) > 1 and allowed or allowed and allowed not in wanted):
        _fail(f"at {here} the engine forced {''.join(sorted(wanted))} but allowed {allowed!r}", engine, request,
              line)
    closed = item.get("closed", {})
    if closed is None:
        closed = {}
    if not isinstance(closed, dict):
        _fail(f"'closed' at {here} must map moves to reasons", engine, request, line)
    disabled = {}
    for m, reasons in closed.items():
        _free_move(m, state, free, f"closed move {m!r}", engine, request, line)
        if m in seen:
            _fail(f"move {m!r} at {here} is both allowed and closed", engine, request, line)
        effects = []
        for r in _listed(reasons):
            e = _reason(r, state, free, DISABLE, engine, request, line, move=m)
            for f in forced:  # a move the force excluded: the force's own effect, as a built-in set keeps it
                if f.rule == e.rule and f.cells == e.cells:
                    e = f
                    break
            effects.append(e)
        disabled[m] = tuple(effects)
    open_moves = "".join(m for m in _MOVES if m in seen)
    return Decision(open_moves, disabled, forced)


def _listed(value):
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _free_move(m, state, free, what, engine, request, line):
    if m in free:
        return
    here = state.compact()
    if not isinstance(m, str) or len(m) != 1 or m not in _MOVES:
        _fail(f"{what} at {here} is not one of U, D, L, R", engine, request, line)
    if state.at_end():
        _fail(f"{what} at {here}: the line has reached the end corner", engine, request, line)
    target = state.board.step(state.head, m)
    if target < 0:
        _fail(f"{what} at {here} leaves the board", engine, request, line)
    _fail(f"{what} at {here} steps onto the line at {state.board.xy(target)}", engine, request, line)


def _reason(r, state, free, kind, engine, request, line, need_move=False, move=""):
    here = state.compact()
    if isinstance(r, str):
        r = {"rule": r}
    if not isinstance(r, dict):
        _fail(f"a reason at {here} must be an object with 'rule' and 'cells'", engine, request, line)
    rule = r.get("rule", engine)
    if not isinstance(rule, str) or not rule or len(rule) > MAX_NAME:
        _fail(f"a reason's 'rule' at {here} must be a name of 1 to {MAX_NAME} characters", engine, request, line)
    if need_move:
        move = r.get("move", "")
        _free_move(move, state, free, f"forced move {move!r}", engine, request, line)
    cells = []
    board = state.board
    raw = r.get("cells", [])
    if not isinstance(raw, list):
        _fail(f"'cells' of rule {rule!r} at {here} must be a list of [x, y]", engine, request, line)
    for c in raw:
        if not (isinstance(c, list) and len(c) == 2 and all(_int(v) for v in c) and board.on_board(*c)):
            _fail(f"cell {c!r} of rule {rule!r} at {here} is not an [x, y] on the {board.n}x{board.n} board",
                  engine, request, line)
        cells.append(board.cell(*c))
    return Effect(rule, kind, move, tuple(cells))


def decision_to_json(state, decision):
    """The answer an engine gives about ``state`` for a :class:`~labyrinth.rules.Decision` (``labyrinth engine``)."""
    board = state.board
    out = {"allowed": decision.open}
    if decision.forced:
        out["forced"] = [{"move": e.move, "rule": e.rule, "cells": [list(board.xy(c)) for c in e.cells]}
                         for e in decision.forced]
    if decision.disabled:
        out["closed"] = {m: [{"rule": e.rule, "cells": [list(board.xy(c)) for c in e.cells]} for e in effects]
                         for m, effects in decision.disabled.items()}
    return out
