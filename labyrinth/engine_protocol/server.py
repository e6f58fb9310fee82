"""Serve a rule set over the engine protocol: ``labyrinth engine --rules X`` reads stdin, answers on stdout.

The other end of :mod:`labyrinth.engine_protocol.client`, for this package's
own rule sets: it makes the whole path testable end to end (auditing
``labyrinth engine --rules X`` must give exactly the findings of ``--rules X``),
and it is a reference for writing an engine. Reasons are computed only
where the rule set closes a move (the explained path is slower than the
compiled one), exactly as an in-process audit asks for them.
"""

from labyrinth.engine_protocol.messages import (
    MAX_BATCH,
    MAX_NAME,
    PROTOCOL,
    PUZZLE,
    Unreadable,
    decision_to_json,
    dumps,
    loads,
)
from labyrinth.errors import LabyrinthError

__all__ = ["StateCache", "answer", "serve", "warm"]


def warm(rules):
    """Run ``rules`` once on a small state the way :func:`serve` does, so its kernels load (or compile) now.

    ``labyrinth engine`` calls it before reading the hello (a cold kernel compiles in tens of seconds, longer
    than a verifier waits for the handshake); a test that starts an engine calls it first, so that the kernels
    are on disk when the engine process looks for them.
    """
    from labyrinth.engine import State

    state = State.from_moves(5, "RRDD")
    rules.open_moves(state)  # the compiled path every answer takes
    rules.decide(state)  # the explained path, for a state where a move is closed


def serve(rules, lines, write, *, name=None, version="", order=None):
    """Answer the protocol's requests read from ``lines`` through ``write(text)``, until ``quit`` or the end.

    ``order``, if given, is the order of states the hello says the engine prefers (``"depth-first"``: the
    verifier then sends one state per request, each extending the one before or going back up its line).

    Returns the number of requests answered. A bad request (not JSON, nested
    too deeply, a number that is not finite, too large a batch) gets an
    ``error`` answer and the session goes on; a
    :class:`~labyrinth.errors.LabyrinthError` raised by ``lines`` itself (a
    line past its bound: an endless input) is answered the same way, then raised.
    """
    answered = 0
    cache = StateCache()
    lines = iter(lines)
    while True:
        try:
            raw = next(lines)
        except StopIteration:
            break
        except LabyrinthError as err:
            write(dumps({"type": "error", "id": None, "message": str(err)}))
            raise
        line = raw.strip()
        if not line:
            continue
        try:
            request = loads(line)
        except Unreadable as err:
            write(dumps({"type": "error", "id": None,
                         "message": f"the request is not JSON this engine reads: {err}"}))
            continue
        except ValueError:
            write(dumps({"type": "error", "id": None, "message": "the request is not JSON"}))
            continue
        if not isinstance(request, dict):
            write(dumps({"type": "error", "id": None, "message": "the request is not a JSON object"}))
            continue
        kind = request.get("type")
        if kind == "quit":
            break
        if kind == "hello":
            hello = {"type": "hello", "protocol": PROTOCOL, "engine": name or f"labyrinth-{rules.name}"[:MAX_NAME],
                     "version": version, "puzzles": [PUZZLE], "sizes": "all", "batch": True, "max_batch": MAX_BATCH}
            write(dumps(hello | ({"order": order} if order else {})))
            continue
        write(dumps(answer(rules, request, cache)))
        answered += 1
    return answered


class StateCache:
    """Recently asked states by their text: a walk's next state is the last one plus a move (no replay).

    >>> cache = StateCache()
    >>> cache.get("5:RR").compact(), cache.get("5:RRD").head
    ('5:RR', 7)
    """

    def __init__(self, size=256):
        import collections

        self.size = size
        self.states = collections.OrderedDict()

    def get(self, text):
        """The state ``text`` names (``N:MOVES``); a :class:`~labyrinth.errors.LabyrinthError` if it is bad."""
        from labyrinth.engine import parse_state

        state = self.states.get(text)
        if state is None:
            parent = self.states.get(text[:-1])
            if parent is not None and text[-1:] in parent.open_moves():
                state = parent.after(text[-1])
            else:
                state = parse_state(text)
            self.states[text] = state
            if len(self.states) > self.size:
                self.states.popitem(last=False)
        return state


def answer(rules, request, cache=None):
    """The answer object to one ``decide`` request (an ``error`` object for a bad one)."""
    cache = StateCache() if cache is None else cache
    rid = request.get("id")
    if request.get("type") != "decide":
        return {"type": "error", "id": rid, "message": f"unknown request type {request.get('type')!r}"}
    if request.get("puzzle", PUZZLE) != PUZZLE:
        return {"type": "error", "id": rid, "message": f"this engine plays only the {PUZZLE}"}
    batch = "states" in request
    texts = request.get("states") if batch else [request.get("state")]
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        return {"type": "error", "id": rid, "message": "'state' must be N:MOVES ('states' a list of them)"}
    if len(texts) > MAX_BATCH:
        return {"type": "error", "id": rid,
                "message": f"a batch of {len(texts)} states: this engine takes at most {MAX_BATCH} per request"}
    items = []
    for text in texts:
        try:
            state = cache.get(text)
        except LabyrinthError as err:
            return {"type": "error", "id": rid, "message": str(err)}
        items.append(_one(rules, state))
    if batch:
        return {"type": "decision", "id": rid, "answers": items}
    return {"type": "decision", "id": rid} | items[0]


def _one(rules, state):
    from labyrinth.rules.base import Decision

    allowed = rules.open_moves(state)
    if allowed == state.open_moves() or not rules.explains:
        return decision_to_json(state, Decision(allowed, {}, ()))
    decision = rules.decide(state)
    return decision_to_json(state, Decision(allowed, decision.disabled, decision.forced))

