"""Certificates drawn: one panel per step, on the board after the move, with the step's cells and counts.

Each panel shows the line after the move (black), the facts of the steps
before it (forced edges blue, unusable edges crossed out in red), and what the
step reads, drawn by its kind's function in :data:`DRAWINGS`:

* ``degree``: the cell ringed, the edges it forces (green) or drops (red);
* ``loop`` / ``join``: the edge that would close the loop or join too early;
* ``hall``: the set shaded, each cell's need written in it, each neighbour
  ringed with what it can give;
* ``cut``: the cut cells crossed, the parts they leave shaded;
* ``crossing``: the set shaded, the edges left across its boundary dashed;
* ``balance``: the area shaded as a checkerboard (black cells darker), its
  gates ringed;
* ``area``: the area searched shaded, its gates ringed;
* ``end``: the end corner ringed; ``case``: the supposed edge dashed.

Below each panel, the step in words (:mod:`verify.certificates.words`).

>>> from labyrinth.engine import State
>>> from verify.certificates import certificate
>>> cert = certificate("7:RRDDDL", "D")
>>> svg = render_certificate(State.from_moves(7, "RRDDDL"), "D", cert)
>>> svg.startswith("<?xml") and "hangs off" in svg
True
"""

import textwrap

import drawsvg as dw

from labyrinth.view.coords import rounded as _r
from labyrinth.view.svg import COLOURS
from verify.certificates.check import Board, Facts, balance_range, holds
from verify.certificates.words import WORDS

__all__ = ["DRAWINGS", "render_certificate", "render_certificates", "render_entries"]

_SHADE = {"set": "#f6c88f", "part": "#f4b6b6", "black": "#e8d36b", "white": "#fbf3c4", "gate": "#7b3fb5",
          "neighbour": "#2a8c8c", "force": "#1f9d3a", "remove": "#d62728", "mark": "#e08a00"}


class _Panel:
    """Board cell -> panel coordinates."""

    def __init__(self, board, cell, left, top):
        self.board, self.cell, self.left, self.top = board, cell, left, top

    def corner(self, c):
        x, y = self.board.xy(c)
        return _r(self.left + (x - 1) * self.cell), _r(self.top + (y - 1) * self.cell)

    def centre(self, c):
        x, y = self.board.xy(c)
        return _r(self.left + (x - 0.5) * self.cell), _r(self.top + (y - 0.5) * self.cell)

    def fill(self, g, c, colour, title=None, opacity=None):
        r = dw.Rectangle(*self.corner(c), self.cell, self.cell, fill=colour, stroke=COLOURS["grid"], stroke_width=1,
                         fill_opacity=opacity)
        if title:
            r.append_title(title)
        g.append(r)

    def ring(self, g, c, colour, title=None, width=0.1):
        r = dw.Circle(*self.centre(c), _r(self.cell * 0.38), fill="none", stroke=colour,
                      stroke_width=_r(self.cell * width))
        if title:
            r.append_title(title)
        g.append(r)

    def edge(self, g, a, b, colour, width=0.16, dash=None):
        g.append(dw.Line(*self.centre(a), *self.centre(b), stroke=colour, stroke_width=_r(self.cell * width),
                         stroke_linecap="round", stroke_dasharray=dash))

    def cross(self, g, a, b, colour):
        (ax, ay), (bx, by) = self.centre(a), self.centre(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        s = self.cell * 0.16
        g.append(dw.Line(_r(mx - s), _r(my - s), _r(mx + s), _r(my + s), stroke=colour,
                         stroke_width=_r(self.cell * 0.08)))
        g.append(dw.Line(_r(mx - s), _r(my + s), _r(mx + s), _r(my - s), stroke=colour,
                         stroke_width=_r(self.cell * 0.08)))

    def text(self, g, c, text, colour="#222222"):
        cx, cy = self.centre(c)
        g.append(dw.Text(str(text), _r(self.cell * 0.45), cx, _r(cy + self.cell * 0.16), fill=colour,
                         text_anchor="middle", font_weight="bold"))


def _claims(p, g, board, step):
    for a, b in (board.edge(v) for v in step.get("forces", [])):
        p.edge(g, a, b, _SHADE["force"], width=0.2)
    for a, b in (board.edge(v) for v in step.get("removes", [])):
        p.cross(g, a, b, _SHADE["remove"])


def _degree(p, g, board, facts, step):
    p.ring(g, board.cell(step["cell"]), _SHADE["mark"], "the cell whose ways are counted")


def _closing(p, g, board, facts, step):
    a, b = board.edge(step["edge"])
    p.edge(g, a, b, _SHADE["remove"], width=0.1, dash=f"{_r(p.cell * 0.15)} {_r(p.cell * 0.1)}")


def _hall(p, g, board, facts, step):
    xs = board.cells(step["cells"])
    into = {}
    for x in xs:
        p.fill(g, x, _SHADE["set"], f"in the set: needs {board.need[x]}", opacity=0.8)
        for d in facts.options(board, x):
            into[d] = into.get(d, 0) + 1
    for x in xs:
        p.text(g, x, board.need[x])
    for y, k in into.items():
        cap = max(0, min(k, board.need[y] - len([d for d in facts.forced_of(board, y) if d not in xs])))
        p.ring(g, y, _SHADE["neighbour"], f"a neighbour: can give {cap}", width=0.07)
        p.text(g, y, cap, _SHADE["neighbour"])


def _cut(p, g, board, facts, step):
    for piece in step["pieces"]:
        for c in board.cells(piece):
            p.fill(g, c, _SHADE["part"], "a part the cut cells leave", opacity=0.8)
    for c in board.cells(step.get("cells", []), empty=True):
        cx, cy = p.centre(c)
        s = p.cell * 0.3
        g.append(dw.Line(_r(cx - s), _r(cy - s), _r(cx + s), _r(cy + s), stroke=_SHADE["gate"],
                         stroke_width=_r(p.cell * 0.12)))
        g.append(dw.Line(_r(cx - s), _r(cy + s), _r(cx + s), _r(cy - s), stroke=_SHADE["gate"],
                         stroke_width=_r(p.cell * 0.12)))


def _crossing(p, g, board, facts, step):
    xs = board.cells(step["cells"])
    for c in xs:
        p.fill(g, c, _SHADE["part"], "in the set whose boundary the line crosses", opacity=0.8)
    for x in xs:
        for d in facts.options(board, x):
            if d not in xs:
                p.edge(g, x, d, _SHADE["gate"], width=0.12, dash=f"{_r(p.cell * 0.15)} {_r(p.cell * 0.1)}")


def _balance(p, g, board, facts, step):
    region = board.cells(step["cells"])
    gates = balance_range(board, facts, region)[0]
    for c in region:
        p.fill(g, c, _SHADE["black" if board.colour(c) == 1 else "white"],
               "in the area: " + ("black" if board.colour(c) == 1 else "white"), opacity=0.8)
    for c in gates:
        p.ring(g, c, _SHADE["gate"], "a gate of the area")


def _area(p, g, board, facts, step):
    region = board.cells(step["cells"])
    for c in region:
        p.fill(g, c, _SHADE["set"], "in the area searched", opacity=0.8)
    for c in balance_range(board, facts, region)[0]:
        p.ring(g, c, _SHADE["gate"], "a gate of the area")


def _end(p, g, board, facts, step):
    p.ring(g, board.end, _SHADE["mark"], "the end corner, reached too early")


def _case(p, g, board, facts, step):
    a, b = board.edge(step["edge"])
    p.edge(g, a, b, _SHADE["force"], width=0.1, dash=f"{_r(p.cell * 0.15)} {_r(p.cell * 0.1)}")


def _weights(p, g, board, facts, step):
    for item in step.get("regions", []):
        for c in board.cells(item["cells"]):
            p.fill(g, c, _SHADE["part"], f"in a region (number {item['number']}): left at least twice", opacity=0.8)


#: step kind -> ``(panel, group, board, facts, step)``: draws what the step reads
DRAWINGS = {"area": _area, "balance": _balance, "case": _case, "crossing": _crossing, "cut": _cut, "degree": _degree,
            "end": _end, "hall": _hall, "join": _closing, "loop": _closing, "weights": _weights}


def _board_layer(p, board):
    g = dw.Group()
    n = board.n
    for c in range(n * n):
        fill = COLOURS["free"] if c in board.nodes else "#eeeeee"
        p.fill(g, c, fill)
    g.append(dw.Rectangle(p.left, p.top, n * p.cell, n * p.cell, fill="none", stroke=COLOURS["line"],
                          stroke_width=2))
    return g


def _line_layer(p, after):
    g = dw.Group()
    pts = [v for c in after.path for v in p.centre(c)]
    if len(pts) > 2:
        g.append(dw.Lines(*pts, close=False, fill="none", stroke=COLOURS["line"], stroke_width=_r(p.cell * 0.22),
                          stroke_linecap="round", stroke_linejoin="round"))
    g.append(dw.Circle(*p.centre(after.head), _r(p.cell * 0.3), fill=COLOURS["line"]))
    ex, ey = p.corner(after.board.end)
    inset = _r(p.cell * 0.18)
    g.append(dw.Rectangle(_r(ex + inset), _r(ey + inset), _r(p.cell - 2 * inset), _r(p.cell - 2 * inset),
                          fill="none", stroke=COLOURS["end"], stroke_width=_r(p.cell * 0.07)))
    return g


def _facts_layer(p, facts):
    g = dw.Group(opacity=0.85)
    for a, b in sorted(facts.forced):
        p.edge(g, a, b, COLOURS["future"], width=0.14)
    for a, b in sorted(facts.removed):
        p.cross(g, a, b, "#c08080")
    return g


def _panels(board, certificate, wanted, chars):
    """(step number, step, facts before it, its words wrapped) for the steps ``wanted``."""
    out = []
    facts = Facts()
    for i, step in enumerate(certificate["steps"], 1):
        if wanted is None or i in wanted:
            words = f"{i}. " + WORDS[step["kind"]](board, facts, step)
            out.append((i, step, facts.copy(), textwrap.wrap(words, chars)))
        holds(board, facts, step)
    return out


def render_certificate(state, move, certificate, *, steps=None, cell=None, columns=3, title=None):
    """SVG text: a panel per step of ``certificate`` (that ``move`` from ``state`` is dead), words below each.

    Parameters
    ----------
    state : labyrinth.engine.State
        The state before the move.
    move : str
    certificate : dict
        A certificate the checker accepts.
    steps : iterable of int, optional
        The steps to draw (1-based); all by default.
    cell : int, optional
        Cell size in pixels (by default the board is about 300 pixels wide).
    columns : int
        Panels per row.
    title : str, optional
        A heading above the panels.
    """
    return render_certificates(state, [(move, certificate)], steps=steps, cell=cell, columns=columns,
                               titles=None if title is None else [title])


def render_certificates(state, items, *, steps=None, last=False, cell=None, columns=3, titles=None):
    """SVG text: the certificates ``items`` (``(move, certificate or None)``) of one state, one block each.

    A block has a heading (``titles``, by default "STATE then M: dead,
    because") and a panel per step (only ``steps``, 1-based, if given; only
    the last, the contradiction with every fact before it, if ``last``); a
    missing certificate (None) is a heading that says so.
    """
    return render_entries([(state, m, c) for m, c in items], steps=steps, last=last, cell=cell, columns=columns,
                          titles=titles)


def render_entries(entries, *, steps=None, last=False, cell=None, columns=3, titles=None):
    """SVG text: certificates of any states, ``(state, move, certificate or None)`` each, one block each
    (see :func:`render_certificates`)."""
    font, pad, line = 11, 10, 14
    blocks = []
    for k, (state, move, cert) in enumerate(entries):
        size = cell or max(8, min(28, 300 // state.n))
        width = state.n * size
        chars = max(24, int(width / (0.56 * font)))
        text = state.compact() if len(state.compact()) <= 32 else state.compact()[:14] + "…" + state.compact()[-14:]
        title = titles[k] if titles else (f"{text} then {move}: dead, because" if cert is not None
                                          else f"{text} then {move}: no certificate found")
        board = Board.after(state.compact(), move)
        wanted = ({len(cert["steps"])} if cert is not None and last else None if steps is None else set(steps))
        panels = _panels(board, cert, wanted, chars) if cert is not None else []
        rows = [panels[j:j + columns] for j in range(0, len(panels), columns)]
        heights = [width + line + line * max(len(p[3]) for p in row) for row in rows]
        blocks.append((state, move, board, title, rows, heights, size, width))
    total_w = max([pad + min(columns, max(1, sum(len(r) for r in b[4]))) * (b[7] + pad) for b in blocks]
                  + [int(0.7 * 14 * len(b[3])) + 2 * pad for b in blocks] + [100])
    total_h = pad + sum(22 + sum(h + pad for h in b[5]) + pad for b in blocks)
    d = dw.Drawing(total_w, total_h, font_family="DejaVu Sans, Arial, sans-serif", id_prefix="cert")
    d.append_title("certificates: " + "; ".join(f"{s.compact()} then {m}" for s, m, _ in entries))
    d.append(dw.Rectangle(0, 0, total_w, total_h, fill="#ffffff"))
    top = pad
    for state, move, board, title, rows, heights, size, width in blocks:
        after = state.after(move)
        d.append(dw.Text(title, 14, pad, top + 16, fill=COLOURS["text"], font_weight="bold"))
        top += 22
        for row, height in zip(rows, heights):
            for k, (i, step, before, lines) in enumerate(row):
                left = pad + k * (width + pad)
                p = _Panel(board, size, left, top)
                d.append(_board_layer(p, board))
                d.append(_facts_layer(p, before))
                d.append(_line_layer(p, after))
                g = dw.Group()
                DRAWINGS[step["kind"]](p, g, board, before, step)
                d.append(g)
                g = dw.Group()
                _claims(p, g, board, step)
                d.append(g)
                for j, text in enumerate(lines):
                    d.append(dw.Text(text, font, left, _r(top + width + line * (j + 1)), fill=COLOURS["text"]))
            top += height + pad
        top += pad
    return d.as_svg()
