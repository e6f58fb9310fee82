"""Find stuck patterns automatically: size-specific pattern rules from an exhaustive run.

The researcher found each gap by running walks until one got stuck, then drew
a rule by hand. Here the keep-left enumeration under a base rule set is
walked once; every edge of its tree is *alive* (a walkthrough lies below it)
or *dead*. The topmost dead edges are the moves the base rules wrongly left
open. For each, the window of radius ``r`` around the head (in the walker's
frame) becomes a pattern that disables that move; the pattern is then
generalised cell by cell, farthest from the head first (a cell becomes
``?``, or a line/border cell becomes ``X``), for as long as it matches no
alive edge's window in either mirror image. That makes every mined rule sound
on every state the base walker reaches on that board size: a rule set with
the mined rules keeps every walkthrough, and
:func:`labyrinth.engine.walker.enumerate_walks` re-checks it.

The result is written in the pattern language (:func:`format_rules`), for a
person to read, name and keep in ``labyrinth/rules/library``.
"""

import numpy as np
from numba import njit

from labyrinth.engine.board import Board
from labyrinth.engine.graph import descend
from labyrinth.rules.frame import LEFT_DIR, RIGHT, STRAIGHT, Tables
from labyrinth.rules.walks import heading_at, keep_left_moves

__all__ = ["Mined", "format_rules", "mine"]

FREE, LINE, BORDER, END = 0, 1, 2, 3
_SYMBOL = {FREE: "o", LINE: "#", BORDER: "B", END: "E"}


@njit(cache=True)
def _window(n, end, taken, head, heading, radius, out):
    hx = head % n
    hy = head // n
    k = 0
    for py in range(-radius, radius + 1):
        for px in range(-radius, radius + 1):
            x = hx + px * RIGHT[heading, 0] - py * STRAIGHT[heading, 0]
            y = hy + px * RIGHT[heading, 1] - py * STRAIGHT[heading, 1]
            if x < 0 or y < 0 or x >= n or y >= n:
                out[k] = BORDER
            elif taken[y * n + x]:
                out[k] = LINE
            elif y * n + x == end:
                out[k] = END
            else:
                out[k] = FREE
            k += 1


@njit(cache=True)
def _edges(order, nb, colour, n, end, pat,
           radius, alive, dead, counts, scratch, area, window, trig, ntrig):
    """Keep-left DFS from the empty line, recording alive edges and topmost dead edges.

    A record is the window (``(2r+1)^2`` codes) then the move's frame index
    (0 left, 1 straight, 2 right). Returns False if a buffer filled up.
    """
    size = n * n
    width = (2 * radius + 1) ** 2
    taken = np.zeros(size, dtype=np.uint8)
    path = np.zeros(size, dtype=np.int32)
    cand = np.zeros((size, 3), dtype=np.int8)
    ncand = np.zeros(size, dtype=np.int8)
    idx = np.zeros(size, dtype=np.int8)
    good = np.zeros(size, dtype=np.uint8)  # a walkthrough below this node
    mark = np.zeros(size, dtype=np.int64)  # dead records made below this node start here
    taken[0] = 1
    depth = 0
    na = 0
    nd = 0
    # expand the root
    ncand[0] = keep_left_moves(order, nb, colour, n, end, pat, taken, path, 0, cand, scratch, area, window, trig, ntrig)
    while True:
        if idx[depth] < ncand[depth]:
            depth = descend(nb, cand, idx, path, taken, depth)
            w = path[depth]
            good[depth] = 0
            idx[depth] = 0
            mark[depth] = nd
            if w == end:
                ncand[depth] = 0
                if depth == size - 1:
                    good[depth] = 1
            else:
                ncand[depth] = keep_left_moves(order, nb, colour, n, end, pat, taken, path, depth, cand, scratch, area,
                                               window, trig, ntrig)
        else:
            if depth == 0:
                break
            child_good = good[depth]
            if not child_good:
                nd = mark[depth]  # only the topmost dead edge of a dead subtree is kept
            w = path[depth]
            taken[w] = 0
            depth -= 1
            head = path[depth]
            heading = heading_at(nb, path, depth)
            d = cand[depth, idx[depth] - 1]
            which = 0 if d == LEFT_DIR[heading] else 1 if d == heading else 2
            if child_good:
                good[depth] = 1
                if na >= alive.shape[0]:
                    return False
                _window(n, end, taken, head, heading, radius, alive[na])
                alive[na, width] = which
                na += 1
            else:
                if nd >= dead.shape[0]:
                    return False
                _window(n, end, taken, head, heading, radius, dead[nd])
                dead[nd, width] = which
                nd += 1
    counts[0] = na
    counts[1] = nd
    return True


class Mined:
    """The outcome of :func:`mine`: the rules, and what they cover."""

    def __init__(self, specs, dead, covered, inseparable, alive):
        self.specs = specs
        self.dead = dead  # topmost dead edges found
        self.covered = covered  # of those, matched by a mined rule
        self.inseparable = inseparable  # window equals an alive edge's (or the move enters the end early)
        self.alive = alive  # distinct alive edges the rules were checked against


def _records(rules, board, radius):
    p = rules.program()
    t = Tables.of(board)
    width = (2 * radius + 1) ** 2 + 1
    cap = 1 << min(22, 2 * board.n + 8)  # 7x7 under universal keeps about 2 million alive edges
    while True:
        alive = np.zeros((cap, width), dtype=np.uint8)
        dead = np.zeros((cap // 4, width), dtype=np.uint8)
        counts = np.zeros(2, dtype=np.int64)
        ok = _edges(p.order, t.nb, t.colour, t.n, t.end, p.patterns.arrays(), radius, alive, dead, counts,
                    t.scratch(), p.area, p.window, p.trig, p.ntrig)
        if ok:
            return alive[: counts[0]], dead[: counts[1]]
        cap *= 4


def _mirror(rows, radius):
    side = 2 * radius + 1
    grid = rows[:, :-1].reshape(-1, side, side)[:, :, ::-1].reshape(len(rows), -1)
    move = 2 - rows[:, -1:]
    return np.hstack([grid, move])


# generalisation steps for a cell holding code c: weaker conditions, tried in order
_WEAKER = {FREE: ("?", "."), END: ("?", "."), LINE: ("?", "X"), BORDER: ("?", "X")}
_ALLOWS = {"o": (FREE,), ".": (FREE, END), "E": (END,), "#": (LINE,), "B": (BORDER,), "X": (LINE, BORDER), "?": (FREE, LINE, BORDER, END)}


def _generalise(window, move, alive, radius):
    """The most general pattern (per cell symbol) over ``window`` matching no alive row."""
    side = 2 * radius + 1
    same = alive[alive[:, -1] == move][:, :-1]
    symbols = [_SYMBOL[int(c)] for c in window]
    mism = same != window[None, :]  # mismatches with the exact window (its symbols allow one code each)
    count = mism.sum(axis=1)
    if not (count > 0).all():
        return None
    centre = radius * side + radius
    mark = {0: centre - 1, 1: centre - side, 2: centre + 1}[move]
    # the marked cell is an 'x': free or the end corner, whatever the window says
    symbols[mark] = "."
    mism[:, mark] = ~np.isin(same[:, mark], _ALLOWS["."])
    count = mism.sum(axis=1)
    if not (count > 0).all():
        return None
    order = sorted(range(len(window)), key=lambda i: -((i // side - radius) ** 2 + (i % side - radius) ** 2))
    for i in order:
        if i == centre or i == mark:
            continue
        for weaker in _WEAKER[int(window[i])]:
            allowed = np.isin(same[:, i], _ALLOWS[weaker])
            # rows that mismatch only here would start to match
            newly = mism[:, i] & allowed
            if ((count - newly) == 0).any():
                continue
            count -= newly
            mism[:, i] &= ~allowed
            symbols[i] = weaker
            break
    return symbols


def _matches(symbols, rows):
    ok = np.ones(len(rows), dtype=bool)
    for i, s in enumerate(symbols):
        if s != "?":
            ok &= np.isin(rows[:, i], _ALLOWS[s])
    return ok


def mine(n, rules, radius=3, prefix="mined", progress=None):
    """Mine pattern rules for an ``n x n`` board on top of the compiled rule set ``rules``.

    Parameters
    ----------
    n : int
        Board size; the enumeration is exhaustive, so keep it small (5, 7).
    rules : RuleSet
        The base rules (compiled); mined rules disable what they leave open.
    radius : int
        Window radius around the head; a window of a dead edge that equals an
        alive edge's window is counted as inseparable.
    prefix : str
        Mined rules are named ``{prefix}-{n}-{k}``.
    progress : callable, optional
        ``progress(done, total)``: called with ``(0, None)`` before the
        enumeration, then with the dead moves generalised so far and their number.
    """
    board = Board(n)
    if progress is not None:
        progress(0, None)
    alive, dead = _records(rules, board, radius)
    both = np.unique(np.vstack([alive, _mirror(alive, radius)]), axis=0)
    dead = np.unique(dead, axis=0)
    side = 2 * radius + 1
    centre = radius * side + radius
    covered = np.zeros(len(dead), dtype=bool)
    specs = []
    inseparable = 0
    for k in range(len(dead)):
        if covered[k]:
            continue
        window, move = dead[k, :-1], int(dead[k, -1])
        if window[{0: centre - 1, 1: centre - side, 2: centre + 1}[move]] == END:
            inseparable += 1  # a step onto the end corner too early: 'x' cannot say "the end corner"
            continue
        symbols = _generalise(window, move, both, radius)
        if progress is not None:
            progress(k + 1, len(dead))
        if symbols is None:
            inseparable += 1
            continue
        symbols[centre] = "H"
        mark = {0: centre - 1, 1: centre - side, 2: centre + 1}[move]
        symbols[mark] = "x"
        spec = _spec(symbols, side, f"{prefix}-{n}-{len(specs) + 1}", n)
        specs.append(spec)
        for flip_rows in (dead, _mirror(dead, radius)):
            hit = _matches([("." if s == "x" else "?" if s == "H" else s) for s in symbols], flip_rows[:, :-1])
            covered |= hit & (flip_rows[:, -1] == move)
    if progress is not None:
        progress(len(dead), len(dead))
    return Mined(specs, len(dead), int(covered.sum()), inseparable, len(both))


def _spec(symbols, side, name, n):
    from labyrinth.rules.language import parse_rules

    rows = [symbols[r * side:(r + 1) * side] for r in range(side)]
    # trim rows and columns that are all '?'
    while rows and all(s == "?" for s in rows[0]):
        rows.pop(0)
    while rows and all(s == "?" for s in rows[-1]):
        rows.pop()
    while all(r[0] == "?" for r in rows):
        rows = [r[1:] for r in rows]
    while all(r[-1] == "?" for r in rows):
        rows = [r[:-1] for r in rows]
    text = f"name: {name}\nsizes: {n}\nmirror: yes\ngrid:\n" + "".join("  " + " ".join(r) + "\n" for r in rows)
    return parse_rules(text, source=name)[0]


def format_rules(specs, header=""):
    """Rule-file text for ``specs`` (the inverse of :func:`labyrinth.rules.language.parse_rules`)."""
    out = [header.rstrip() + "\n"] if header else []
    for s in specs:
        out.append(f"name: {s.name}\n")
        if s.about:
            out.append(f"about: {s.about}\n")
        out.append(f"sizes: {s.sizes}\nmirror: {'yes' if s.mirror else 'no'}\n")
        rot = {(): "no", ("left",): "left", ("right",): "right", ("left", "right"): "both"}[s.rotate]
        out.append(f"rotate: {rot}\ngrid:\n")
        out.extend(f"  {row}\n" for row in s.grid)
        out.append("\n")
    return "".join(out)
