"""The checker's step kinds: for each, what it derives from the board and the facts before it, or why it fails.

Part of the checker (:mod:`verify.certificates.check`): the standard library only. Each check is
``(board, facts, step) -> Outcome``: the edges it forces and removes, or ``dead``, with the edges
whose facts it read; it raises :class:`~verify.certificates.board.Invalid` when the step does not
hold. Why each is sound: docs/certificates.md. Adding a kind: a check here, listed in
:data:`KINDS`, words (:data:`verify.certificates.words.WORDS`) and a drawing
(:data:`labyrinth.view.certificate.DRAWINGS`).
"""

import fractions

from verify.certificates.board import Invalid, Outcome
from verify.certificates.board import edge_key as _edge

__all__ = ["AREA_CELLS", "AREA_NODES", "KINDS", "balance_range", "weights_sum"]


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


def _crossing(board, facts, step):
    """The line crosses the boundary of a set of nodes (with nodes outside it) at least once, an odd number of
    times exactly when the set holds one of the head and the end corner, each time by an edge left (forced ones
    always): no count fits, or one only (the edges left all forced, or all unusable)."""
    xs = board.cells(step.get("cells"))
    if len(xs) >= len(board.nodes):
        raise Invalid("a crossing set leaves no node outside it")
    odd = (board.head in xs) != (board.end in xs)
    reads, forced, free = set(), [], []
    for x in xs:
        for d in board.adj[x]:
            if d not in xs:
                e = _edge(x, d)
                reads.add(e)
                if facts.is_forced(e):
                    forced.append(e)
                elif not facts.is_removed(e):
                    free.append(e)
    f, k = len(forced), len(free)
    counts = [c for c in range(max(f, 1), f + k + 1) if c % 2 == odd]
    reads = frozenset(reads)
    if not counts:
        return Outcome(dead=True, reads=reads)
    if k and counts == [f]:
        return Outcome(removes=frozenset(free), reads=reads)
    if k and counts == [f + k]:
        return Outcome(forces=frozenset(free), reads=reads)
    raise Invalid(f"the line may cross the set's boundary {' or '.join(map(str, counts))} times "
                  f"({f} forced and {k} other edges): no contradiction")


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


def _case(board, facts, step, run=None):
    """``run(steps, facts)``: the driver's replay of the inner steps (it counts how deeply cases nest)."""
    e = board.edge(step.get("edge"))
    if facts.is_removed(e) or facts.is_forced(e):
        raise Invalid("a case supposes an edge that is still an option")
    if run is None:
        raise Invalid("a case is checked by the driver, which replays its steps")
    inner = facts.copy()
    inner.forced.add(e)
    outcomes = run(step.get("steps"), inner)
    reads = frozenset().union(*(o.reads for o in outcomes)) - {e}
    return Outcome(removes=frozenset({e}), reads=reads)


#: step kind -> its check ``(board, facts, step) -> Outcome``; raises :class:`Invalid` when the step does not hold
def _number(value, what):
    """An exact number: an int, or a string such as ``"-3/8"`` (never a float: the sum must be exact)."""
    try:
        if type(value) is int or (isinstance(value, str) and len(value) <= 80):
            return fractions.Fraction(value)
    except (ValueError, ZeroDivisionError):
        pass
    raise Invalid(f"{what} {value!r} is not an integer or \"p/q\"")


def weights_sum(board, facts, step):
    """``(right-hand side, most, regions, reads)`` of a ``weights`` step: the sum of its degree equations and cuts.

    Each cell's degree equation (its line edges number its need) times the
    cell's number, each region's cut (at least two line edges leave it)
    times the region's number (>= 0), added up: the right-hand side, and
    the most the left-hand side can reach with each edge used or not
    (a forced edge used, a removed one not, any other as suits the sum).
    """
    numbers = step.get("numbers")
    if not isinstance(numbers, (list, tuple)):
        raise Invalid("a weights step lists its numbers as [[x, y], \"p/q\"]")
    y = {}
    for item in numbers:
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise Invalid(f"a number {item!r} is not [[x, y], \"p/q\"]")
        c = board.cell(item[0], "a numbered cell")
        if c in y:
            raise Invalid(f"{board.name(c)} is numbered twice")
        y[c] = _number(item[1], f"the number of {board.name(c)}")
    raw = step.get("regions", [])
    if not isinstance(raw, (list, tuple)):
        raise Invalid("a weights step lists its regions as {\"cells\": [...], \"number\": \"p/q\"}")
    regions = []
    for item in raw:
        if not isinstance(item, dict):
            raise Invalid("a region is {\"cells\": [[x, y], ...], \"number\": \"p/q\"}")
        cells = board.cells(item.get("cells"), "region")
        if board.head in cells or board.end in cells:
            raise Invalid("a region holds neither the head nor the end corner")
        z = _number(item.get("number"), "a region's number")
        if z < 0:
            raise Invalid(f"a region's number is at least 0, not {z}")
        regions.append((cells, z))
    rhs = sum(v * board.need[c] for c, v in y.items()) + 2 * sum(z for _, z in regions)
    most, reads = fractions.Fraction(0), set()
    for a in board.nodes:
        for b in board.adj[a]:
            if b < a:
                continue
            w = y.get(a, 0) + y.get(b, 0) + sum(z for cells, z in regions if (a in cells) != (b in cells))
            e = _edge(a, b)
            if facts.is_removed(e):  # unused: it gives nothing (the fact matters where w > 0)
                if w > 0:
                    reads.add(e)
            elif facts.is_forced(e):  # used: it gives w (the fact matters where w < 0)
                most += w
                if w < 0:
                    reads.add(e)
            else:
                most += max(w, 0)
    return rhs, most, regions, frozenset(reads)


def _weights(board, facts, step):
    rhs, most, _, reads = weights_sum(board, facts, step)
    if rhs > most:
        return Outcome(dead=True, reads=reads)
    raise Invalid(f"the equations and cuts add up to {float(rhs):.6g} on the right and the edges can give "
                  f"{float(most):.6g}: no contradiction")


KINDS = {"area": _area, "balance": _balance, "case": _case, "crossing": _crossing, "cut": _cut, "degree": _degree,
         "end": _end, "hall": _hall, "join": _join, "loop": _loop, "weights": _weights}
