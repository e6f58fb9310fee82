"""The certificate checker: replays a certificate's steps on the board and accepts it only when every step holds.

A certificate says "after move M from state S the line has no completion".
It is a list of steps about the line's *edges* in the state after M: the
nodes are the free cells and the head; an edge joins two neighbouring nodes
(the head-end edge only when the end is the last free cell); the head and
the end corner need one line edge, every other free cell two. Each step
derives facts (edges *forced*: used by every completion; edges *removed*:
used by none) from the board and the facts of the steps before it, or a
contradiction, which ends the certificate. The step kinds and why each is
sound are in docs/certificates.md; :data:`KINDS` maps each kind to its check.

The checker stands alone: it imports nothing but the standard library (no
rule, no oracle), reads the state's size and moves, the move and the steps,
and trusts nothing a step claims. Adding a step kind: write
``_kind(board, facts, step) -> Outcome`` (raise :class:`Invalid` when the
step does not hold), list it in :data:`KINDS`, and give it words
(:mod:`verify.certificates.words`) and a drawing (:mod:`labyrinth.view.certificate`).

>>> cert = {"steps": [{"kind": "degree", "cell": [1, 2], "dead": True}]}
>>> check("5:RD", "R", cert).valid          # (1,2) keeps one free neighbour after R: it needs two
True
>>> check("5:RD", "L", cert)                 # after L, (1,2) is the head and needs one edge: it has one
Verdict(valid=False, step=1, reason='the step claims a contradiction it does not show')
"""

import dataclasses

__all__ = ["AREA_CELLS", "AREA_NODES", "Board", "Facts", "Invalid", "KINDS", "MAX_DEPTH", "MAX_SIZE", "Outcome", "Verdict", "check", "holds",
           "parse_state", "replay"]

_MOVES = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
#: how deeply ``case`` steps may nest
MAX_DEPTH = 8
#: the largest board a certificate may be about (the command line's limit too)
MAX_SIZE = 1001


def parse_state(state):
    """``(n, line)`` of a state ``"N:MOVES"`` (the line's cells from the start); :class:`Invalid` if it does not parse."""
    if not isinstance(state, str) or state.count(":") != 1:
        raise Invalid(f"state {str(state)[:40]!r} is not N:MOVES")
    size, moves = state.split(":")
    if (not (size.isascii() and size.isdigit()) or len(size) > 4 or not 3 <= int(size) <= MAX_SIZE
            or int(size) % 2 == 0):
        raise Invalid(f"state {state[:40]!r}: the size must be an odd number from 3 to {MAX_SIZE}")
    n = int(size)
    line = [0]
    seen = {0}
    for i, letter in enumerate(moves):
        if letter not in _MOVES:
            raise Invalid(f"state {state[:40]!r}: step {i + 1}: {letter!r} is not one of U, D, L, R")
        if line[-1] == n * n - 1:
            raise Invalid(f"state {state[:40]!r}: step {i + 1}: the line already ended at the end corner")
        dx, dy = _MOVES[letter]
        x, y = line[-1] % n + dx, line[-1] // n + dy
        if not (0 <= x < n and 0 <= y < n) or y * n + x in seen:
            raise Invalid(f"state {state[:40]!r}: step {i + 1}: {letter} leaves the board or revisits a cell")
        line.append(y * n + x)
        seen.add(y * n + x)
    return n, line


class Invalid(Exception):
    """A step that does not hold (``reason``), at ``step`` (1-based; nested ``case`` steps as ``3.2``)."""

    def __init__(self, reason, step=None):
        super().__init__(reason)
        self.reason = reason
        self.step = step


@dataclasses.dataclass(frozen=True)
class Verdict:
    """The checker's answer: ``valid``, else the first failing ``step`` (1-based; None: the whole) and why."""

    valid: bool
    step: object = None
    reason: str = ""


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What a step derives: ``dead``, or edges it ``forces`` and ``removes``; ``reads``: the edges it looked at."""

    dead: bool = False
    forces: frozenset = frozenset()
    removes: frozenset = frozenset()
    reads: frozenset = frozenset()


def _edge(a, b):
    return (a, b) if a < b else (b, a)


class _Need(dict):
    """A node's need, worked out when first asked: 1 for the head and the end corner, 2 for the rest."""

    def __init__(self, board):
        super().__init__()
        self.board = board

    def __missing__(self, c):
        self[c] = 1 if c == self.board.head or c == self.board.end else 2
        return self[c]


class _Adjacency(dict):
    """A node's neighbours among the nodes, worked out when first asked (the head-end edge only at the last cell)."""

    def __init__(self, board):
        super().__init__()
        self.board = board

    def __missing__(self, c):
        b = self.board
        grid = _GRID.get(b.n)
        if grid is None:
            grid = _GRID[b.n] = _grid(b.n)
        ends = (b.head, b.end) if b.free > 1 else ()
        out = tuple(d for d in grid[c] if d in b.nodes and not (c in ends and d in ends and c != d))
        self[c] = out
        return out


#: board size -> every cell's neighbours on the board (up, down, left, right)
_GRID = {}


def _grid(n):
    out = []
    for c in range(n * n):
        x, y = c % n, c // n
        out.append(tuple(c + dx + dy * n for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0))
                         if 0 <= x + dx < n and 0 <= y + dy < n))
    return out


class Board:
    """The state after the move, as the steps see it: nodes, their needs and the edges between them."""

    def __init__(self, n, line):
        self.n = n
        self.head = line[-1]
        self.end = n * n - 1
        self.free = n * n - len(line)
        self.nodes = frozenset(range(n * n)).difference(line[:-1])
        self.need = _Need(self)
        self.adj = _Adjacency(self)

    @classmethod
    def after(cls, state, move):
        """The board after ``move`` from ``state`` (``"N:MOVES"``); :class:`Invalid` if either does not parse."""
        n, line = parse_state(state)
        if not isinstance(move, str) or len(move) != 1 or move not in _MOVES:
            raise Invalid(f"move {move!r} is not one of U, D, L, R")
        if line[-1] == n * n - 1:
            raise Invalid("the line has already ended at the end corner: there is no move")
        dx, dy = _MOVES[move]
        x, y = line[-1] % n + dx, line[-1] // n + dy
        if not (0 <= x < n and 0 <= y < n) or y * n + x in line:
            raise Invalid(f"the move {move} leaves the board or enters the line")
        return cls(n, line + [y * n + x])

    def xy(self, c):
        """1-based ``(x, y)`` of a cell."""
        return c % self.n + 1, c // self.n + 1

    def name(self, c):
        return "(%d,%d)" % self.xy(c)

    def colour(self, c):
        """+1 on the start's colour (black), -1 on the other (white)."""
        return 1 if (c % self.n + c // self.n) % 2 == 0 else -1

    def cell(self, value, what="cell"):
        """The node a step names as ``[x, y]``; :class:`Invalid` if it is no node of the board."""
        if isinstance(value, (list, tuple)) and len(value) == 2:
            x, y = value
            if type(x) is int and type(y) is int and 1 <= x <= self.n and 1 <= y <= self.n:
                c = (y - 1) * self.n + (x - 1)
                if c not in self.nodes:
                    raise Invalid(f"{what} ({x},{y}) is on the line behind the head")
                return c
            if type(x) is int and type(y) is int:
                raise Invalid(f"{what} ({x},{y}) is off the board")
        raise Invalid(f"{what} {value!r} is not [x, y]")

    def cells(self, values, what="cells", empty=False):
        """A set of distinct nodes a step names."""
        if not isinstance(values, (list, tuple)) or (not values and not empty):
            raise Invalid(f"{what} must be a{'' if empty else ' non-empty'} list of [x, y]")
        out = [self.cell(v, what) for v in values]
        if len(set(out)) != len(out):
            raise Invalid(f"{what} name a cell twice")
        return frozenset(out)

    def edge(self, value):
        """The edge a step names as ``[[x, y], [x, y]]``."""
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise Invalid(f"edge {value!r} is not [[x, y], [x, y]]")
        a, b = self.cell(value[0], "edge end"), self.cell(value[1], "edge end")
        if b not in self.adj[a]:
            raise Invalid(f"{self.name(a)}-{self.name(b)} is no edge of the board")
        return _edge(a, b)


class Facts:
    """Forced and removed edges so far (a step reads them only through these four methods)."""

    def __init__(self, forced=(), removed=()):
        self.forced = set(forced)
        self.removed = set(removed)

    def copy(self):
        return Facts(self.forced, self.removed)

    def options(self, board, c):
        """The neighbours of ``c`` joined to it by an edge not removed (forced ones included)."""
        return [d for d in board.adj[c] if _edge(c, d) not in self.removed]

    def forced_of(self, board, c):
        """The neighbours of ``c`` joined to it by a forced edge."""
        return [d for d in board.adj[c] if _edge(c, d) in self.forced]

    def is_forced(self, e):
        return e in self.forced

    def is_removed(self, e):
        return e in self.removed


def _piece(board, facts, a, without):
    """The cells joined to ``a`` by forced edges other than ``without``, and the forced edges read."""
    seen, todo, read = {a}, [a], set()
    while todo:
        c = todo.pop()
        for d in facts.forced_of(board, c):
            e = _edge(c, d)
            if e == without:
                continue
            read.add(e)
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen, read


def _degree(board, facts, step):
    x = board.cell(step.get("cell"))
    opts, frc, need = facts.options(board, x), facts.forced_of(board, x), board.need[x]
    reads = frozenset(_edge(x, d) for d in board.adj[x])
    if len(opts) < need or len(frc) > need:
        return Outcome(dead=True, reads=reads)
    forces = frozenset(_edge(x, d) for d in opts) if len(opts) == need else frozenset()
    removes = frozenset(_edge(x, d) for d in opts if d not in frc) if len(frc) == need else frozenset()
    if all(facts.is_forced(f) for f in forces) and not removes:
        raise Invalid(f"{board.name(x)} has {len(opts)} options and {len(frc)} forced "
                      f"edge{'' if len(frc) == 1 else 's'} for a need of {need}: no contradiction")
    return Outcome(forces=forces, removes=removes, reads=reads)


def _closing(board, facts, step, kind):
    e = board.edge(step.get("edge"))
    a, b = e
    if facts.is_removed(e):
        raise Invalid(f"{board.name(a)}-{board.name(b)} is already removed")
    pa, ra = _piece(board, facts, a, e)
    if kind == "loop":
        if b not in pa:
            raise Invalid(f"no piece of forced line joins {board.name(a)} and {board.name(b)}")
        reads = ra
    else:
        pb, rb = _piece(board, facts, b, e)
        if b in pa or not ((board.head in pa and board.end in pb) or (board.end in pa and board.head in pb)):
            raise Invalid(f"{board.name(a)}-{board.name(b)} does not join the head's piece to the end's")
        if len(pa) + len(pb) >= len(board.nodes):
            raise Invalid("the head's and the end's pieces together hold every cell: they may join")
        reads = ra | rb
    reads = frozenset(reads | {e})
    if facts.is_forced(e):
        return Outcome(dead=True, reads=reads)
    return Outcome(removes=frozenset({e}), reads=reads)


def _loop(board, facts, step):
    return _closing(board, facts, step, "loop")


def _join(board, facts, step):
    return _closing(board, facts, step, "join")


def _hall(board, facts, step):
    xs = board.cells(step.get("cells"))
    if len({board.colour(x) for x in xs}) != 1:
        raise Invalid("a hall set has cells of one colour")
    demand = sum(board.need[x] for x in xs)
    into = {}
    reads = set()
    for x in xs:
        for d in board.adj[x]:
            reads.add(_edge(x, d))
            if not facts.is_removed(_edge(x, d)):
                into[d] = into.get(d, 0) + 1
    supply, forces, removes = 0, set(), set()
    caps = {}
    for y, k in into.items():
        out_forced = [d for d in facts.forced_of(board, y) if d not in xs]
        reads.update(_edge(y, d) for d in out_forced)
        spare = board.need[y] - len(out_forced)
        caps[y] = max(0, min(k, spare))
        supply += caps[y]
    if demand > supply:
        return Outcome(dead=True, reads=frozenset(reads))
    if demand < supply:
        raise Invalid(f"the set needs {demand} line ends and its neighbours can give {supply}: no contradiction")
    for y, cap in caps.items():
        opts = facts.options(board, y)
        if cap == board.need[y] - len([d for d in facts.forced_of(board, y) if d not in xs]):
            removes.update(_edge(y, d) for d in opts if d not in xs and not facts.is_forced(_edge(y, d)))
        if cap == into[y]:
            forces.update(_edge(y, d) for d in opts if d in xs)
        reads.update(_edge(y, d) for d in opts if d not in xs)
    return Outcome(forces=frozenset(forces), removes=frozenset(removes), reads=frozenset(reads))


def _cut(board, facts, step):
    cut = board.cells(step.get("cells", []), "cut cells", empty=True)
    raw = step.get("pieces")
    if not isinstance(raw, (list, tuple)) or not raw:
        raise Invalid("a cut lists the pieces it leaves")
    pieces = [board.cells(p, "piece") for p in raw]
    used = set(cut)
    reads = set()
    for p in pieces:
        if used & p:
            raise Invalid("pieces and cut cells overlap")
        used |= p
        for c in p:
            for d in board.adj[c]:
                if d not in p and d not in cut:
                    reads.add(_edge(c, d))
                    if not facts.is_removed(_edge(c, d)):
                        raise Invalid(f"a piece is not closed: {board.name(c)}-{board.name(d)} leaves it")
    rest = board.nodes - used
    parts = pieces + ([frozenset(rest)] if rest else [])
    h, e = board.head, board.end
    k = len(cut)
    bound = k + 1 - (h in cut) - (e in cut)
    same = k >= 1 and h not in cut and e not in cut and any(h in p and e in p for p in parts)
    required = len(parts) + same
    if required <= bound:
        raise Invalid(f"{len(parts)} parts need {required} stretches of line and a line through {k} cut "
                      f"cell{'' if k == 1 else 's'} has up to {bound}: no contradiction")
    return Outcome(dead=True, reads=frozenset(reads))


def balance_range(board, facts, region):
    """The gates of ``region``, its colour sum and the range the line's crossings allow (see docs/certificates.md).

    Returns ``(gates, gated, lhs, low, high)``: the cells outside joined to it
    by options, whether each of them must carry exactly one crossing edge,
    the sum of colour x need over the region, and the least and greatest sum
    of -colour over the crossing edges' outer ends.
    """
    gates = {}
    for x in region:
        for d in facts.options(board, x):
            if d not in region:
                gates[d] = gates.get(d, 0) + 1
    hin, ein = board.head in region, board.end in region
    gated = (len(gates) == 1 and hin != ein) or (len(gates) == 2 and not hin and not ein)
    lhs = sum(board.colour(x) * board.need[x] for x in region)
    low = high = 0
    for y, into in gates.items():
        if gated:
            lo = hi = 1
        else:
            frc = facts.forced_of(board, y)
            f_in = sum(1 for d in frc if d in region)
            o_out = sum(1 for d in facts.options(board, y) if d not in region)
            lo = max(f_in, board.need[y] - o_out)
            hi = min(into, board.need[y] - (len(frc) - f_in))
            if lo > hi:
                return gates, gated, lhs, 1, 0
        s = -board.colour(y)
        low += min(s * lo, s * hi)
        high += max(s * lo, s * hi)
    return gates, gated, lhs, low, high


def _balance(board, facts, step):
    region = board.cells(step.get("cells"))
    gates, gated, lhs, low, high = balance_range(board, facts, region)
    if low <= lhs <= high:
        raise Invalid(f"the area's colour sum {lhs} lies within what its {len(gates)} gate"
                      f"{'' if len(gates) == 1 else 's'} allow ({low} to {high}): no contradiction")
    reads = {_edge(x, d) for x in region for d in board.adj[x]}
    if not gated:
        reads |= {_edge(y, d) for y in gates for d in board.adj[y]}
    return Outcome(dead=True, reads=frozenset(reads))


#: the most cells an ``area`` step may search, and the most search nodes it may take (past it: not shown)
AREA_CELLS = 40
AREA_NODES = 200_000


def _traversable(adj, cells, starts, finish):
    """True if a path through every one of ``cells`` runs from a cell of ``starts`` to one ``finish`` accepts
    (``finish(first, last)``); None when the search passes :data:`AREA_NODES` nodes."""
    budget = [AREA_NODES]
    total = len(cells)

    def extend(path, seen):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        last = path[-1]
        if len(path) == total:
            return finish(path[0], last)
        for d in adj[last]:
            if d not in seen:
                seen.add(d)
                path.append(d)
                got = extend(path, seen)
                path.pop()
                seen.discard(d)
                if got is not False:
                    return got
        return False

    for s in sorted(starts):
        got = extend([s], {s})
        if got is not False:
            return got
    return False


def _area(board, facts, step):
    region = board.cells(step.get("cells"))
    if len(region) > AREA_CELLS:
        raise Invalid(f"an area step searches at most {AREA_CELLS} cells")
    gates = {}
    for x in region:
        for d in facts.options(board, x):
            if d not in region:
                gates.setdefault(d, set()).add(x)
    h, e = board.head in region, board.end in region
    adj = {x: [d for d in facts.options(board, x) if d in region] for x in region}
    if len(gates) == 1 and h != e:
        (touch,) = gates.values()
        inner = board.head if h else board.end
        found = _traversable(adj, region, {inner}, lambda first, last: last in touch)
    elif len(gates) == 2 and not h and not e:
        (a, ta), (b, tb) = sorted(gates.items())
        found = _traversable(adj, region, ta | tb,
                             lambda first, last: (first in ta and last in tb) or (first in tb and last in ta))
    else:
        raise Invalid("an area step needs one gate with the head or the end inside, or two gates and neither")
    if found is None:
        raise Invalid(f"the area's search passes {AREA_NODES} nodes: not replayed")
    if found:
        raise Invalid("the line can pass through the area between its gates: no contradiction")
    reads = {_edge(x, d) for x in region for d in board.adj[x]}
    return Outcome(dead=True, reads=frozenset(reads))


def _end(board, facts, step):
    if board.head != board.end or board.free == 0:
        raise Invalid("the head is not on the end corner with cells left")
    return Outcome(dead=True)


def _case(board, facts, step, depth=0):
    e = board.edge(step.get("edge"))
    if facts.is_removed(e) or facts.is_forced(e):
        raise Invalid("a case supposes an edge that is still an option")
    inner = facts.copy()
    inner.forced.add(e)
    outcomes = _run(board, step.get("steps"), inner, depth + 1)
    reads = frozenset().union(*(o.reads for o in outcomes)) - {e}
    return Outcome(removes=frozenset({e}), reads=reads)


#: step kind -> its check ``(board, facts, step) -> Outcome``; raises :class:`Invalid` when the step does not hold
KINDS = {"area": _area, "balance": _balance, "case": _case, "cut": _cut, "degree": _degree, "end": _end, "hall": _hall,
         "join": _join, "loop": _loop}


def _claims(board, step):
    out = []
    for key in ("forces", "removes"):
        value = step.get(key, [])
        if not isinstance(value, (list, tuple)):
            raise Invalid(f"{key} must be a list of edges")
        out.append(frozenset(board.edge(v) for v in value))
    return out


def holds(board, facts, step, depth=0):
    """Check one step on ``facts`` and apply what it claims; its :class:`Outcome`, or :class:`Invalid`."""
    if not isinstance(step, dict) or step.get("kind") not in KINDS:
        raise Invalid(f"unknown step kind {step.get('kind') if isinstance(step, dict) else step!r}")
    if step["kind"] == "case":
        got = _case(board, facts, step, depth)
    else:
        got = KINDS[step["kind"]](board, facts, step)
    forces, removes = _claims(board, step)
    if step.get("dead") is True:
        if not got.dead:
            raise Invalid("the step claims a contradiction it does not show")
    elif got.dead:
        raise Invalid("the step shows a contradiction it does not claim")
    else:
        if not forces and not removes:
            raise Invalid("the step claims nothing")
        if not forces <= got.forces or not removes <= got.removes:
            raise Invalid("the step claims an edge it does not derive")
        facts.forced |= forces
        facts.removed |= removes
    return got


def _run(board, steps, facts, depth=0):
    """Replay ``steps`` on ``facts`` (changed in place); the outcomes; :class:`Invalid` at the first bad step."""
    if depth > MAX_DEPTH:
        raise Invalid(f"cases nest deeper than {MAX_DEPTH}")
    if not isinstance(steps, (list, tuple)) or not steps:
        raise Invalid("a certificate is a non-empty list of steps")
    outcomes = []
    for i, step in enumerate(steps, 1):
        try:
            got = holds(board, facts, step, depth)
        except Invalid as err:
            inner = f"{i}.{err.step}" if err.step is not None else i
            raise Invalid(err.reason, inner) from None
        outcomes.append(got)
        if got.dead:
            if i != len(steps):
                raise Invalid("steps follow the contradiction", i + 1)
            return outcomes
    raise Invalid("the steps end without a contradiction")


def replay(board, steps):
    """The outcome of each step of a certificate on ``board``; :class:`Invalid` at the first that fails."""
    return _run(board, steps, Facts())


def check(state, move, certificate):
    """Check a certificate that ``move`` from ``state`` (``"N:MOVES"``) leaves no completion.

    Parameters
    ----------
    state : str
        The state before the move, ``N:MOVES``.
    move : str
        ``U``, ``D``, ``L`` or ``R``.
    certificate : dict
        ``{"steps": [...]}``, as :func:`verify.certificates.certify` writes it.

    Returns
    -------
    Verdict
    """
    try:
        board = Board.after(state, move)
        if board.free == 0:
            raise Invalid("the move completes the line: nothing is dead")
        if not isinstance(certificate, dict):
            raise Invalid("a certificate is an object with a list of steps")
        replay(board, certificate.get("steps"))
    except Invalid as err:
        return Verdict(False, err.step, err.reason)
    except RecursionError:
        return Verdict(False, None, "the certificate nests too deeply")
    return Verdict(True)
