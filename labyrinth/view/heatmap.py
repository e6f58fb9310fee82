"""Counts per start cell as a heat map of the board (the number puzzle's author wanted solutions per start; any count fits).

Each cell is coloured by its count on a sequential scale (pale yellow for
the fewest, dark red for the most; white for none), with the count written
in the cell when it fits, and a legend under the board: the scale from the
smallest to the largest count. Every cell carries a ``<title>`` tooltip with
its coordinates and count. Drawn with ``drawsvg`` in the style of
:mod:`labyrinth.view.svg`; the output is deterministic (fixed element order,
rounded coordinates), so golden files pin it.

>>> text = render_heatmap([[2, 1], [1, 0]], title="a small board")
>>> text.startswith("<?xml") and "<title>a small board</title>" in text
True
"""

import drawsvg as dw

from labyrinth.errors import LabyrinthError
from labyrinth.view.coords import rounded as _r

__all__ = ["COLOURS", "PALETTE", "colour_of", "render_heatmap"]

#: the palette, by role
COLOURS = {"grid": "#b8b8b8", "frame": "#111111", "none": "#ffffff", "text": "#222222", "light_text": "#ffffff"}
#: the colour scale, fewest to most (ColorBrewer's YlOrRd)
PALETTE = ("#ffffcc", "#ffeda0", "#fed976", "#feb24c", "#fd8d3c", "#fc4e2a", "#e31a1c", "#bd0026", "#800026")
#: boards larger than this are not drawn
DRAW_LIMIT = 64
#: steps of the legend's colour bar
LEGEND_STEPS = 48


def _rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def _mix(t):
    """The palette's colour at ``t`` in [0, 1] (linear between its stops)."""
    t = min(1.0, max(0.0, t))
    x = t * (len(PALETTE) - 1)
    i = min(int(x), len(PALETTE) - 2)
    a, b = _rgb(PALETTE[i]), _rgb(PALETTE[i + 1])
    f = x - i
    return "#" + "".join(f"{round(p + (q - p) * f):02x}" for p, q in zip(a, b))


def colour_of(value, low, high):
    """The fill of a cell with ``value`` solutions on the scale from ``low`` to ``high`` (white for none)."""
    if value <= 0:
        return COLOURS["none"]
    if high <= low:
        return _mix(1.0)
    return _mix((value - low) / (high - low))


def _dark(hex_colour):
    r, g, b = _rgb(hex_colour)
    return 0.299 * r + 0.587 * g + 0.114 * b < 140


def _number(v):
    return f"{v:,}"


def _fit(text, cell, biggest):
    """The font size that writes ``text`` inside a cell (None: it does not fit legibly)."""
    size = min(biggest, (cell * 0.9) / (0.62 * max(1, len(text))))
    return _r(size) if size >= 7 else None


def render_heatmap(counts, *, title=None, caption=(), cell=None, what="solutions"):
    """The SVG document (text) of per-cell counts on the board.

    Parameters
    ----------
    counts : sequence of sequences of int
        The counts, row by row from the top (row 1), column 1 first.
    title : str or None
        The picture's ``<title>``.
    caption : sequence of str
        Lines written under the legend.
    cell : int or None
        Size of a cell in pixels (default: by board size, 64 down to 24).
    what : str
        What is counted, for the tooltips and the legend ("solutions").
    """
    rows = [[int(v) for v in row] for row in counts]
    n = len(rows)
    if n == 0 or any(len(row) != len(rows[0]) for row in rows):
        raise LabyrinthError("a heat map needs a rectangular grid of counts")
    width_cells = len(rows[0])
    if max(n, width_cells) > DRAW_LIMIT:
        raise LabyrinthError(f"heat maps are drawn up to {DRAW_LIMIT}x{DRAW_LIMIT}", source=f"{width_cells}x{n}")
    if cell is None:
        cell = max(24, min(64, 480 // max(n, width_cells)))
    values = [v for row in rows for v in row if v > 0]
    low, high = (min(values), max(values)) if values else (0, 0)
    margin = _r(cell * 0.5)
    font = max(11, min(16, _r(cell * 0.3)))
    board_w, board_h = width_cells * cell, n * cell
    bar_w = max(board_w, 240)
    legend_top = _r(margin + board_h + font * 1.2)
    bar_h = _r(font * 1.1)
    legend_h = _r(bar_h + font * 3.0)
    lines = list(caption)
    foot = int(font * (1.45 * len(lines) + 0.6) + 0.999) if lines else 0
    width = max([_r(2 * margin + max(board_w, bar_w))] + [int(0.56 * font * len(t) + 2 * margin) for t in lines])
    height = _r(legend_top + legend_h + foot + margin * 0.5)
    d = dw.Drawing(width, height, font_family="DejaVu Sans, Arial, sans-serif", id_prefix="heat")
    d.append_title(title or f"{width_cells}x{n} board: {what} per start cell")
    d.append(dw.Rectangle(0, 0, width, height, fill="#ffffff"))

    cells = dw.Group(stroke=COLOURS["grid"], stroke_width=1)
    labels = dw.Group(text_anchor="middle")
    for y, row in enumerate(rows):
        for x, v in enumerate(row):
            fill = colour_of(v, low, high)
            left, top = _r(margin + x * cell), _r(margin + y * cell)
            r = dw.Rectangle(left, top, cell, cell, fill=fill)
            r.append_title(f"({x + 1},{y + 1}): {_number(v)} {what} start here")
            cells.append(r)
            text = _number(v)
            size = _fit(text, cell, _r(cell * 0.32))
            if size is not None:
                labels.append(dw.Text(text, size, _r(left + cell / 2), _r(top + cell / 2 + size * 0.35),
                                      fill=COLOURS["light_text"] if _dark(fill) else COLOURS["text"]))
    d.append(cells)
    d.append(dw.Rectangle(margin, margin, board_w, board_h, fill="none", stroke=COLOURS["frame"], stroke_width=2))
    d.append(labels)

    # the legend: the colour bar from the fewest to the most, labelled at both ends and the middle
    legend = dw.Group()
    step = bar_w / LEGEND_STEPS
    for i in range(LEGEND_STEPS):
        legend.append(dw.Rectangle(_r(margin + i * step), legend_top, _r(step + 0.5), bar_h,
                                   fill=_mix((i + 0.5) / LEGEND_STEPS) if values else COLOURS["none"]))
    legend.append(dw.Rectangle(margin, legend_top, _r(bar_w), bar_h, fill="none", stroke=COLOURS["frame"],
                               stroke_width=1))
    below = _r(legend_top + bar_h + font * 1.1)
    if values:
        mid = (low + high) / 2
        marks = [(low, "start"), (round(mid), "middle"), (high, "end")] if high > low else [(high, "middle")]
        for value, anchor in marks:
            x = {"start": margin, "middle": _r(margin + bar_w / 2), "end": _r(margin + bar_w)}[anchor]
            legend.append(dw.Text(_number(value), font * 0.85, x, below, fill=COLOURS["text"], text_anchor=anchor))
        legend.append(dw.Text(f"{what} per start cell (white: none)", font * 0.85, _r(margin + bar_w / 2),
                              _r(below + font * 1.2), fill=COLOURS["text"], text_anchor="middle"))
    else:
        legend.append(dw.Text(f"no {what} from any cell", font * 0.85, _r(margin + bar_w / 2), below,
                              fill=COLOURS["text"], text_anchor="middle"))
    d.append(legend)
    top_caption = _r(legend_top + legend_h)
    for i, text in enumerate(lines):
        d.append(dw.Text(text, font, margin, _r(top_caption + font * (1.45 * i + 0.9)), fill=COLOURS["text"]))
    return d.as_svg()
