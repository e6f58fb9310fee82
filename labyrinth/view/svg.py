"""SVG pictures of states in the study's style, drawn with ``drawsvg``.

The study draws the line in black, the fields available for the next step
in grey and the future lines ("blue fragments") in blue. A picture of a
:class:`~labyrinth.view.model.StateView` adds what the tools know:

* moves the rules disabled: a red cross, the rule's name in a ``<title>`` tooltip;
* the oracle's feasible moves: a green ring; a witness completion: a dashed green line;
* the minimal stuck pattern of a dead line: its cells outlined in amber, the
  optional cells of its box pale yellow, border facts outlined off the board.

Output is deterministic (fixed element order, rounded coordinates, no ids
drawn at random), so golden files can pin it.

>>> from labyrinth.engine import State
>>> from labyrinth.view.model import describe
>>> text = render(describe(State.from_moves(3, "RD"), rules="none"))
>>> text.startswith("<?xml") and "<title>3:RD" in text
True
"""

import math
import re

import drawsvg as dw

from labyrinth.engine.board import DELTAS, MOVES
from labyrinth.view.coords import rounded as _r

__all__ = ["COLOURS", "MAX_PNG_PIXELS", "inline", "png_scale", "render", "render_pattern", "to_png"]

#: the palette, by role
COLOURS = {
    "grid": "#b8b8b8", "free": "#ffffff", "open": "#c9c9c9", "line": "#111111", "future": "#2f6fd6",
    "disabled": "#d62728", "feasible": "#1f9d3a", "witness": "#1f9d3a", "end": "#111111",
    "pattern": "#e08a00", "optional": "#fdf1c0", "taken": "#3a3a3a", "text": "#222222",
}
#: the most pixels a PNG has (its drawing surface takes 4 bytes a pixel: 128 MiB)
MAX_PNG_PIXELS = 32 * 2 ** 20
_KIND_NAMES = {"taken": "taken (the line)", "border": "border (outside the board)",
               "visit": "free: the path must visit it", "end": "the end corner: the path must end here"}


class _Frame:
    """Board cell (x, y), 1-based, to SVG coordinates: the board's top left corner at (``left``, ``top``)."""

    def __init__(self, n, cell, left, top):
        self.n, self.cell, self.left, self.top = n, cell, left, top

    def corner(self, x, y):
        return _r(self.left + (x - 1) * self.cell), _r(self.top + (y - 1) * self.cell)

    def centre(self, x, y):
        return _r(self.left + (x - 0.5) * self.cell), _r(self.top + (y - 0.5) * self.cell)


def render(view, *, cell=32, caption=True):
    """The SVG document (text) picturing a :class:`~labyrinth.view.model.StateView`.

    Parameters
    ----------
    view : labyrinth.view.model.StateView
    cell : int
        Size of a cell in pixels.
    caption : bool
        Write the state, rule set and verdict under the board.
    """
    state = view.state
    n, board = state.n, state.board
    out = [0, 0, 0, 0]  # how far border facts reach outside the board: left, top, right, bottom
    if view.pattern is not None:
        for x, y, _ in view.pattern.facts:
            out = [max(out[0], 1 - x), max(out[1], 1 - y), max(out[2], x - n), max(out[3], y - n)]
    pad = [_r(cell * (0.5 + k)) for k in out]
    margin, top = pad[0], pad[1]
    f = _Frame(n, cell, margin, top)
    size = _r(pad[1] + n * cell + pad[3])  # the height of the board's part
    lines = _caption(view) if caption else []
    font = max(11, min(16, _r(cell * 0.42)))
    foot = int(font * (1.45 * len(lines) + 0.6) + 0.999) if lines else 0
    width = max([_r(pad[0] + n * cell + pad[2])] + [int(0.68 * font * len(t) + cell * 0.6) for t in lines])
    d = dw.Drawing(width, size + foot, font_family="DejaVu Sans, Arial, sans-serif", id_prefix="lab")
    d.append_title(_summary(view))
    d.append(dw.Rectangle(0, 0, width, size + foot, fill="#ffffff"))

    # cells: free white, pattern's optional cells pale, open moves grey
    taken = state.taken
    optional = set(view.pattern.optional) if view.pattern is not None else set()
    reach = {}
    for m in view.free:
        reach[board.xy(board.step(state.head, m))] = m
    open_cells = {c for c, m in reach.items() if view.open is None or m in view.open}
    # the board white, the cells of another colour filled, then the grid as one path: a 1001x1001 board is a
    # million cells, and an element each would cost a picture (and cairosvg's PNG) gigabytes
    d.append(dw.Rectangle(margin, top, n * cell, n * cell, fill=COLOURS["free"]))
    coloured = {(x, y): COLOURS["optional"] for x, y in optional
                if 1 <= x <= n and 1 <= y <= n and not taken[board.cell(x, y)]}
    coloured.update((c, COLOURS["open"]) for c in open_cells)
    for x, y in sorted(coloured, key=lambda c: (c[1], c[0])):
        d.append(dw.Rectangle(*f.corner(x, y), cell, cell, fill=coloured[(x, y)]))
    d.append(_grid(f))
    d.append(dw.Rectangle(margin, top, n * cell, n * cell, fill="none", stroke=COLOURS["line"], stroke_width=2))

    if view.pattern is not None:
        d.append(_pattern_layer(view.pattern, f))
    if view.future:
        d.append(_future_layer(view.future, f, cell))
    d.append(_end_marker(board, f, cell))
    d.append(_line_layer(state, f, cell))
    if view.witness:
        d.append(_witness_layer(state, view.witness, f, cell))
    d.append(_head_marker(state, f, cell))
    for m in view.free:
        x, y = board.xy(board.step(state.head, m))
        if m in view.disabled:
            d.append(_disabled_mark(m, view.disabled[m], f.centre(x, y), cell))
        if view.feasible and m in view.feasible:
            c = dw.Circle(*f.centre(x, y), _r(cell * 0.3), fill="none", stroke=COLOURS["feasible"],
                          stroke_width=_r(cell * 0.08))
            c.append_title(f"{m}: feasible (the oracle finds a completion after it)")
            d.append(c)
    for i, text in enumerate(lines):
        d.append(dw.Text(text, font, _r(cell * 0.3), _r(size + font * (1.45 * i + 1.1)), fill=COLOURS["text"]))
    return d.as_svg()


def _grid(f):
    """The lines between the cells of frame ``f``: one path, ``2 (n + 1)`` strokes."""
    n, cell = f.n, f.cell
    right, bottom = _r(f.left + n * cell), _r(f.top + n * cell)
    rows = [f"M{f.left},{_r(f.top + k * cell)} H{right}" for k in range(n + 1)]
    columns = [f"M{_r(f.left + k * cell)},{f.top} V{bottom}" for k in range(n + 1)]
    return dw.Path(" ".join(rows + columns), fill="none", stroke=COLOURS["grid"], stroke_width=1)


def inline(svg):
    """The SVG text without its XML declaration, to embed in HTML."""
    return svg.split("?>", 1)[1].lstrip() if svg.startswith("<?xml") else svg


def png_scale(svg, scale=2.0):
    """The scale :func:`to_png` draws ``svg`` at: ``scale``, or less so the PNG has at most :data:`MAX_PNG_PIXELS`.

    The PNG is drawn in memory (4 bytes a pixel) before it is compressed:
    the bound keeps any picture under about 1 GB however large its board.

    >>> png_scale('<svg width="100" height="50">'), round(png_scale('<svg width="16016" height="16100">'), 3)
    (2.0, 0.361)
    """
    head = svg[:2000]
    size = [re.search(rf'\b{key}="([0-9.]+)"', head) for key in ("width", "height")]
    if None in size:
        return scale
    pixels = float(size[0].group(1)) * float(size[1].group(1)) * scale * scale
    return scale if pixels <= MAX_PNG_PIXELS else scale * math.sqrt(MAX_PNG_PIXELS / pixels)


def to_png(svg, *, scale=2.0):
    """PNG bytes of an SVG document (``cairosvg``; needs the cairo library), at :func:`png_scale`."""
    try:
        import cairosvg
    except (ImportError, OSError) as err:
        from labyrinth.errors import LabyrinthError

        raise LabyrinthError(f"--png needs cairosvg and the cairo library ({err})") from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=png_scale(svg, scale))


def _summary(view):
    s = view.state
    parts = [s.compact()]
    if view.rules:
        parts.append(f"rules {view.rules}: open {view.open or '-'}")
    if view.status:
        parts.append(f"oracle: {view.status}")
    if view.first_dead_step is not None:
        parts.append(f"first dead step {view.first_dead_step}")
    return "; ".join(parts)


def _caption(view):
    """Caption lines: the state, the rules' verdict, the oracle's."""
    s = view.state
    moves = s.moves if len(s.moves) <= 32 else "…" + s.moves[-31:]
    lines = [f"{s.n}:{moves} (step {s.steps})"]
    if view.rules:
        lines.append(f"rules {view.rules}: open {view.open or '-'}"
                     + (f", disabled {''.join(sorted(view.disabled))}" if view.disabled else ""))
    if view.status:
        text = f"oracle: {view.status}"
        if view.status == "alive":
            text += f", feasible {view.feasible or '-'}"
        if view.undecided_moves:
            text += f", undecided {view.undecided_moves} (out of time)"
        if view.first_dead_step is not None:
            text += f", dead since step {view.first_dead_step}"
        lines.append(text)
    return lines


def _pattern_layer(pattern, f):
    g = dw.Group(fill="none", stroke=COLOURS["pattern"], stroke_width=_r(f.cell * 0.09))
    g.append_title(f"minimal stuck pattern of {pattern.dead_state}\n{pattern.drawing}")
    inset = _r(f.cell * 0.08)
    for x, y, kind in pattern.facts:
        cx, cy = f.corner(x, y)
        r = dw.Rectangle(_r(cx + inset), _r(cy + inset), _r(f.cell - 2 * inset), _r(f.cell - 2 * inset),
                         stroke_dasharray="4 3" if kind == "border" else None)
        r.append_title(f"pattern: ({x},{y}) {_KIND_NAMES[kind]}")
        g.append(r)
    return g


def _future_layer(pieces, f, cell):
    g = dw.Group(fill="none", stroke=COLOURS["future"], stroke_width=_r(cell * 0.14), stroke_linecap="round",
                 stroke_linejoin="round", opacity=0.75)
    g.append_title("future lines: pieces every completion must draw")
    for piece in pieces:
        if len(piece) < 2:
            continue
        g.append(_polyline([f.centre(*c) for c in piece]))
    return g


def _polyline(points, **kwargs):
    """A path through ``points`` ((x, y) pairs), written as ``drawsvg.Lines`` writes it, in linear time.

    (``Lines`` adds each point to its text one at a time: a million-step line would take hours.)
    """
    d = " ".join(f"{'L' if i else 'M'}{x},{y}" for i, (x, y) in enumerate(points))
    return dw.Path(d=d, **kwargs)


def _line_layer(state, f, cell):
    g = dw.Group()
    pts = [f.centre(*c) for c in state.cells_xy()]
    if len(pts) > 1:
        g.append(_polyline(pts, fill="none", stroke=COLOURS["line"], stroke_width=_r(cell * 0.22),
                          stroke_linecap="round", stroke_linejoin="round"))
    start = dw.Circle(*f.centre(1, 1), _r(cell * 0.16), fill=COLOURS["line"])
    start.append_title("start (1,1)")
    g.append(start)
    return g


def _witness_layer(state, witness, f, cell):
    board = state.board
    c = state.head
    pts = [f.centre(*board.xy(c))]
    for m in witness:
        c = board.step(c, m)
        pts.append(f.centre(*board.xy(c)))
    line = _polyline(pts, fill="none", stroke=COLOURS["witness"], stroke_width=_r(cell * 0.07),
                    stroke_dasharray=f"{_r(cell * 0.2)} {_r(cell * 0.14)}", stroke_linecap="round",
                    stroke_linejoin="round")
    line.append_title(f"witness completion: {witness}")
    return line


def _head_marker(state, f, cell):
    x, y = state.board.xy(state.head)
    cx, cy = f.centre(x, y)
    g = dw.Group()
    g.append_title(f"head ({x},{y})")
    g.append(dw.Circle(cx, cy, _r(cell * 0.3), fill=COLOURS["line"]))
    last = state.moves[-1:]
    if last:  # a white arrowhead pointing the way the line moves
        dx, dy = DELTAS[MOVES.index(last)]
        a, b = cell * 0.17, cell * 0.12
        tip = (cx + dx * a, cy + dy * a)
        back = (cx - dx * b, cy - dy * b)
        side = (-dy * a * 0.75, dx * a * 0.75)
        g.append(dw.Lines(_r(tip[0]), _r(tip[1]), _r(back[0] + side[0]), _r(back[1] + side[1]),
                          _r(back[0] - side[0]), _r(back[1] - side[1]), close=True, fill="#ffffff"))
    return g


def _end_marker(board, f, cell):
    x, y = board.xy(board.end)
    cx, cy = f.corner(x, y)
    inset = _r(cell * 0.18)
    g = dw.Group()
    g.append_title(f"end corner ({x},{y})")
    g.append(dw.Rectangle(_r(cx + inset), _r(cy + inset), _r(cell - 2 * inset), _r(cell - 2 * inset), fill="none",
                          stroke=COLOURS["end"], stroke_width=_r(cell * 0.07)))
    return g


def _disabled_mark(move, blames, centre, cell):
    cx, cy = centre
    a = _r(cell * 0.24)
    g = dw.Group(stroke=COLOURS["disabled"], stroke_width=_r(cell * 0.09), stroke_linecap="round",
                 class_="disabled", data_move=move)
    g.append_title("\n".join(b.describe(move) for b in blames))
    g.append(dw.Rectangle(_r(cx - cell / 2), _r(cy - cell / 2), cell, cell, fill="#ffffff", fill_opacity=0,
                          stroke="none"))  # the whole cell carries the tooltip
    g.append(dw.Line(_r(cx - a), _r(cy - a), _r(cx + a), _r(cy + a)))
    g.append(dw.Line(_r(cx - a), _r(cy + a), _r(cx + a), _r(cy - a)))
    return g


def render_pattern(facts, *, cell=16, title=None, id_prefix="pat"):
    """A minimal stuck pattern in its own frame (head at the centre, heading up), as SVG text.

    ``facts``: ``(px, py, kind)`` as stored; ``#`` taken cells dark, border
    cells hatched, must-visit cells white, the end marked, optional cells pale.
    """
    cells = {(px, py): k for px, py, k in facts if k != "end"}
    cells[(0, 0)] = "head"
    for px, py, k in facts:  # a far end corner is left out, as in the text drawing
        if k == "end":
            far = max(max(abs(px - x), abs(py - y)) for x, y in cells)
            near = min(max(abs(px - x), abs(py - y)) for x, y in cells)
            if near <= 3 or far <= 6:
                cells[(px, py)] = "end"
    xs = [p[0] for p in cells]
    ys = [p[1] for p in cells]
    x0, y0 = min(xs), min(ys)
    w, h = max(xs) - x0 + 1, max(ys) - y0 + 1
    pad = 2
    d = dw.Drawing(w * cell + 2 * pad, h * cell + 2 * pad, id_prefix=id_prefix)
    if title:
        d.append_title(title)
    hatch = dw.Pattern(6, 6, patternUnits="userSpaceOnUse")
    hatch.append(dw.Rectangle(0, 0, 6, 6, fill="#8a8a8a"))
    hatch.append(dw.Line(0, 6, 6, 0, stroke="#333333", stroke_width=1.2))
    fills = {"taken": COLOURS["taken"], "border": hatch, "visit": "#ffffff", "end": "#ffffff",
             "head": "#ffffff", None: COLOURS["optional"]}
    for py in range(y0, y0 + h):
        for px in range(x0, x0 + w):
            k = cells.get((px, py))
            x, y = pad + (px - x0) * cell, pad + (py - y0) * cell
            r = dw.Rectangle(x, y, cell, cell, fill=fills[k], stroke=COLOURS["grid"], stroke_width=1)
            r.append_title({None: "optional: either", "head": "head (moving up)"}.get(k) or _KIND_NAMES[k])
            d.append(r)
            if k == "end":
                i = _r(cell * 0.2)
                d.append(dw.Rectangle(x + i, y + i, _r(cell - 2 * i), _r(cell - 2 * i), fill="none",
                                      stroke=COLOURS["end"], stroke_width=1.5))
            if k == "head":
                c = cell / 2
                d.append(dw.Lines(_r(x + c), _r(y + cell * 0.15), _r(x + cell * 0.82), _r(y + cell * 0.8),
                                  _r(x + cell * 0.18), _r(y + cell * 0.8), close=True, fill=COLOURS["line"]))
    return d.as_svg(header="")
