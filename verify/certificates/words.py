"""A certificate in words: one sentence per step, with the counts the checker compares.

:data:`WORDS` maps each step kind of :data:`verify.certificates.check.KINDS`
to a function ``(board, facts, step) -> str`` that reads the facts before the
step; :func:`sentences` replays a certificate and words every step.

>>> from verify.certificates import certificate
>>> for line in sentences("9:RRDDDRDR", "D", certificate("9:RRDDDRDR", "D")):
...     print(line)
1. these 15 black cells need 30 line ends; their 16 white neighbours can give 29: dead
"""

from verify.certificates.board import edge_key
from verify.certificates.check import Board, Facts, Invalid, balance_range, holds
from verify.certificates.kinds import weights_sum

__all__ = ["WORDS", "sentences"]

_COLOUR = {1: "black", -1: "white"}
#: how many cells a sentence names before it says "and N more"
_LIST = 6


def _cells(board, cells):
    cells = sorted(cells, key=lambda c: (c // board.n, c % board.n))
    names = " ".join(board.name(c) for c in cells[:_LIST])
    return names + (f" and {len(cells) - _LIST} more" if len(cells) > _LIST else "")


def _edges(board, values):
    return ", ".join(f"{board.name(board.cell(a))}-{board.name(board.cell(b))}" for a, b in values)


def _what(board, c):
    if c == board.head:
        return f"the head {board.name(c)}"
    if c == board.end:
        return f"the end corner {board.name(c)}"
    return board.name(c)


def _plural(k, word):
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def _tail(board, step):
    """What the step concludes, in words."""
    if step.get("dead"):
        return ": dead"
    out = []
    if step.get("forces"):
        out.append(f"forced: {_edges(board, step['forces'])}")
    if step.get("removes"):
        out.append(f"unusable: {_edges(board, step['removes'])}")
    return ": " + "; ".join(out)


def _degree(board, facts, step):
    x = board.cell(step["cell"])
    opts, frc, need = facts.options(board, x), facts.forced_of(board, x), board.need[x]
    who = _what(board, x)
    ends = _plural(need, "line edge")
    if step.get("dead"):
        if len(frc) > need:
            return f"{who} needs {ends} and {len(frc)} are forced: dead"
        return f"{who} needs {ends} and has {_plural(len(opts), 'way')} left: dead"
    if step.get("forces"):
        return f"{who} needs {ends} and has exactly {_plural(len(opts), 'way')} left{_tail(board, step)}"
    return f"{who} has the {ends} it needs forced; its other ways go{_tail(board, step)}"


def _closing(board, facts, step, kind):
    a, b = board.edge(step["edge"])
    edge = f"{board.name(a)}-{board.name(b)}"
    if kind == "loop":
        if step.get("dead"):
            return f"the forced edges close a loop at {edge}: dead"
        return f"{edge} would close a piece of forced line into a loop{_tail(board, step)}"
    if step.get("dead"):
        return f"the forced edges join the head to the end corner at {edge} with cells left out: dead"
    return f"{edge} would join the head's piece of line to the end corner's with cells left out{_tail(board, step)}"


def _loop(board, facts, step):
    return _closing(board, facts, step, "loop")


def _join(board, facts, step):
    return _closing(board, facts, step, "join")


def _hall(board, facts, step):
    xs = board.cells(step["cells"])
    colour = _COLOUR[board.colour(next(iter(xs)))]
    other = _COLOUR[-board.colour(next(iter(xs)))]
    demand = sum(board.need[x] for x in xs)
    into = {}
    for x in xs:
        for d in facts.options(board, x):
            into[d] = into.get(d, 0) + 1
    supply = sum(max(0, min(k, board.need[y] - len([d for d in facts.forced_of(board, y) if d not in xs])))
                 for y, k in into.items())
    these = "this" if len(xs) == 1 else "these"
    head = (f"{these} {_plural(len(xs), colour + ' cell')} need{'s' if len(xs) == 1 else ''} "
            f"{_plural(demand, 'line end')}; their {_plural(len(into), other + ' neighbour')} can give ")
    if step.get("dead"):
        return head + f"{supply}: dead"
    return head + f"exactly that: each gives all it can{_tail(board, step)}"


def _cut(board, facts, step):
    cut = board.cells(step.get("cells", []), empty=True)
    pieces = [board.cells(p) for p in step["pieces"]]
    h, e = board.head, board.end
    sizes = ", ".join(str(len(p)) for p in pieces)
    if not cut:
        return f"{_plural(sum(map(len, pieces)), 'cell')} ({_cells(board, set().union(*pieces))}) " \
               f"cannot be reached from the head: dead"
    if cut == {h} and len(pieces) == 1:
        return (f"the head stands between two areas and can enter only one; the other holds "
                f"{_plural(len(pieces[0]), 'cell')} ({_cells(board, pieces[0])}): dead")
    listed = set().union(*pieces)
    if len(cut) == 1 and len(pieces) == 1 and h not in listed and e not in listed:
        return (f"the area of {_plural(len(pieces[0]), 'cell')} ({_cells(board, pieces[0])}) hangs off "
                f"{_what(board, next(iter(cut)))} alone: the line could enter it but never leave it: dead")
    k = len(cut)
    bound = k + 1 - (h in cut) - (e in cut)
    return (f"without {_cells(board, cut)} the cells fall into {len(pieces)} closed "
            f"part{'' if len(pieces) == 1 else 's'} ({sizes} cells) and the rest; a line passing "
            f"{_plural(k, 'cut cell')} once each runs in at most {bound} "
            f"stretch{'' if bound == 1 else 'es'} besides them, too few to visit every part: dead")


def _crossing(board, facts, step):
    xs = board.cells(step["cells"])
    h, e = board.head in xs, board.end in xs
    left = [edge_key(x, d) for x in xs for d in board.adj[x] if d not in xs and not facts.is_removed(edge_key(x, d))]
    forced = sum(1 for f in left if facts.is_forced(f))
    inside = " and ".join(w for c, w in ((h, "the head"), (e, "the end corner")) if c)
    times = "an odd number of times" if h != e else "an even number of times, so at least twice"
    words = (f"the set of {_plural(len(xs), 'cell')} ({_cells(board, xs)}) holds {inside or 'neither end of the line'}"
             f"{' but not the other' if h != e else ''}: the line crosses its boundary {times}; "
             f"{_plural(len(left), 'edge')} across it {'is' if len(left) == 1 else 'are'} left"
             f"{f' ({forced} forced)' if forced else ''}"
             f"{f' ({_edges(board, [[board.xy(a), board.xy(b)] for a, b in sorted(left)])})' if 0 < len(left) <= _LIST else ''}")
    if step.get("dead"):
        return words + ": dead"
    if step.get("removes"):
        return words + ", and the forced ones make the count" + _tail(board, step)
    return words + ", and the line needs them all" + _tail(board, step)

def _balance(board, facts, step):
    region = board.cells(step["cells"])
    gates, gated, lhs, low, high = balance_range(board, facts, region)
    black = sum(board.need[x] for x in region if board.colour(x) == 1)
    white = sum(board.need[x] for x in region if board.colour(x) == -1)
    nb = sum(1 for x in region if board.colour(x) == 1)
    area = (f"the area of {_plural(len(region), 'cell')} ({nb} black, {len(region) - nb} white"
            f"{', the head' if board.head in region else ''}{', the end corner' if board.end in region else ''})")
    ends = (f"its black cells need {black} line ends and its white cells {white}; an edge inside it gives "
            f"one to each colour, so the difference {lhs} must come from edges to the cells round it")
    if gated:
        names = " and ".join(f"{board.name(g)} ({_COLOUR[board.colour(g)]})" for g in sorted(gates))
        one = "its only gate" if len(gates) == 1 else "its two gates"
        return (f"{area}: {ends}; {one} {names} each pass exactly one edge into it, which makes {low}: dead")
    return f"{area}: {ends}, which can make {low} to {high}: dead"


def _area(board, facts, step):
    region = board.cells(step["cells"])
    gates = sorted(balance_range(board, facts, region)[0])
    inside = [w for c, w in ((board.head, "the head"), (board.end, "the end corner")) if c in region]
    between = (f"from {inside[0]} to a cell beside its gate {board.name(gates[0])}" if inside
               else f"between its gates {' and '.join(board.name(g) for g in gates)}")
    return (f"the area of {_plural(len(region), 'cell')} ({_cells(board, region)}) is crossed once, {between}; "
            f"a search finds no path through all its cells that does it: dead")


def _end(board, facts, step):
    return f"the move enters the end corner with {_plural(board.free, 'cell')} still to visit: dead"


def _case(board, facts, step):
    a, b = board.edge(step["edge"])
    inner = facts.copy()
    inner.forced.add((a, b))
    words = []
    for sub in step["steps"]:
        words.append(WORDS[sub["kind"]](board, inner, sub))
        holds(board, inner, sub)
    return (f"suppose {board.name(a)}-{board.name(b)} is used: " + "; ".join(words)
            + f"; so {board.name(a)}-{board.name(b)} is unusable")


def _weights(board, facts, step):
    rhs, most, regions, _ = weights_sum(board, facts, step)
    sizes = ", ".join(str(len(cells)) for cells, _ in sorted(regions, key=lambda r: -len(r[0])))
    cuts = f"the cuts of {_plural(len(regions), 'region')} ({sizes} cells)" if regions else "no cut"
    return (f"the degree equations of {_plural(len(step['numbers']), 'cell')} and {cuts}, each times its number, "
            f"add up to {float(rhs):.4g} on the right, and the edges, each used or not, reach at most "
            f"{float(most):.4g}: dead")


#: step kind -> ``(board, facts, step) -> str``, read with the facts before the step
WORDS = {"area": _area, "balance": _balance, "case": _case, "crossing": _crossing, "cut": _cut, "degree": _degree,
         "end": _end, "hall": _hall, "join": _join, "loop": _loop, "weights": _weights}


def sentences(state, move, certificate):
    """One numbered sentence per step of a certificate the checker accepts (:class:`Invalid` otherwise)."""
    text = state if isinstance(state, str) else state.compact()
    board = Board.after(text, move)
    facts = Facts()
    out = []
    for i, step in enumerate(certificate["steps"], 1):
        if not isinstance(step, dict) or step.get("kind") not in WORDS:
            raise Invalid("unknown step kind", i)
        out.append(f"{i}. {WORDS[step['kind']](board, facts, step)}")
        holds(board, facts, step)
    return out
