"""SVG pictures of toggle-squares boards, in the style of :mod:`labyrinth.view.svg` (drawn with ``drawsvg``).

A board: cells on in amber, off in white, on a grey grid with a black frame. The presses of a
solution: a black dot in each pressed cell. An algorithm's run, step by step: a sheet of small
boards, each the board before a press, with the filled cell it answers (blue ring), the press
(dot) and the 3x3 block it toggles (dashed blue), and the board at the end (cells left on
outlined in red); a long run is drawn one frame per row cleared instead. Every mark carries a ``<title>`` tooltip. Output is deterministic
(fixed element order, rounded coordinates), so golden files pin it.

>>> from labyrinth.puzzles.toggle.board import parse_board
>>> text = render_board(parse_board("10\\n01\\n"), title="two cells")
>>> text.startswith("<?xml") and "<title>two cells</title>" in text
True
"""

import drawsvg as dw

from labyrinth.errors import ToggleSizeError

__all__ = ["COLOURS", "DRAW_LIMIT", "render_board", "render_run"]

#: the palette, by role
COLOURS = {
    "grid": "#b8b8b8", "off": "#ffffff", "on": "#f2b632", "press": "#111111", "frame": "#111111",
    "trigger": "#2f6fd6", "block": "#2f6fd6", "left": "#d62728", "text": "#222222",
}
#: boards larger than this are not drawn (an SVG of n^2 cells)
DRAW_LIMIT = 128
#: a run with more presses than this is drawn one frame per row cleared
MAX_PRESS_FRAMES = 64


def _r(v):
    """Round a coordinate for stable output (ints stay ints)."""
    v = round(float(v), 2)
    return int(v) if v == int(v) else v


def _cells(k):
    return f"{k} cell" + ("" if k == 1 else "s")


def _presses(k):
    return f"{k} press" + ("" if k == 1 else "es")


def _check(n):
    if n > DRAW_LIMIT:
        raise ToggleSizeError(f"boards are drawn up to {DRAW_LIMIT}x{DRAW_LIMIT}", source=f"{n}x{n}")


def _grid(d, cells, left, top, cell, *, presses=None, left_on=False):
    """One board's cells, frame and press dots at (``left``, ``top``)."""
    n = cells.shape[0]
    g = dw.Group(stroke=COLOURS["grid"], stroke_width=1)
    for i in range(n):
        for j in range(n):
            on = bool(cells[i, j])
            r = dw.Rectangle(_r(left + j * cell), _r(top + i * cell), cell, cell,
                             fill=COLOURS["on"] if on else COLOURS["off"])
            if on:
                r.append_title(f"({i + 1},{j + 1}) on" + (": left on at the end" if left_on else ""))
            g.append(r)
    d.append(g)
    d.append(dw.Rectangle(left, top, n * cell, n * cell, fill="none", stroke=COLOURS["frame"], stroke_width=2))
    if left_on:
        bad = dw.Group(fill="none", stroke=COLOURS["left"], stroke_width=_r(max(1.5, cell * 0.1)))
        for i in range(n):
            for j in range(n):
                if cells[i, j]:
                    inset = _r(cell * 0.1)
                    bad.append(dw.Rectangle(_r(left + j * cell + inset), _r(top + i * cell + inset),
                                            _r(cell - 2 * inset), _r(cell - 2 * inset)))
        d.append(bad)
    if presses is not None:
        dots = dw.Group(fill=COLOURS["press"])
        for i in range(n):
            for j in range(n):
                if presses[i, j]:
                    c = dw.Circle(_r(left + (j + 0.5) * cell), _r(top + (i + 0.5) * cell), _r(cell * 0.18))
                    c.append_title(f"press ({i + 1},{j + 1})")
                    dots.append(c)
        d.append(dots)


def _font(cell):
    return max(11, min(16, _r(cell * 0.42)))


def render_board(board, *, presses=None, cell=24, title=None, caption=()):
    """The SVG document (text) of a board, with the presses of a solution as dots if given.

    Parameters
    ----------
    board : Board
    presses : Board or None
    cell : int
        Size of a cell in pixels.
    title : str or None
        The picture's ``<title>``.
    caption : sequence of str
        Lines written under the board.
    """
    n = board.n
    _check(n)
    margin = _r(cell * 0.5)
    font = _font(cell)
    lines = list(caption)
    foot = int(font * (1.45 * len(lines) + 0.6) + 0.999) if lines else 0
    size = _r(2 * margin + n * cell)
    width = max([size] + [int(0.62 * font * len(t) + 2 * margin) for t in lines])
    d = dw.Drawing(width, size + foot, font_family="DejaVu Sans, Arial, sans-serif", id_prefix="tog")
    d.append_title(title or f"{n}x{n} toggle board, {_cells(board.count())} on")
    d.append(dw.Rectangle(0, 0, width, size + foot, fill="#ffffff"))
    _grid(d, board.cells(), margin, margin, cell, presses=None if presses is None else presses.cells())
    for i, text in enumerate(lines):
        d.append(dw.Text(text, font, margin, _r(size + font * (1.45 * i + 0.9)), fill=COLOURS["text"]))
    return d.as_svg()


def _frames(run, max_frames):
    """``(board before, presses, label lines, grouped)`` per frame: one per press, or one per row cleared if many.

    The last frame is the board at the end.
    """
    boards = run.boards()
    steps = run.press_positions()
    out = []
    if len(steps) <= max_frames:
        for t, (pr, pc, tr, tc, phase) in enumerate(steps):
            out.append((boards[t], [steps[t]], [f"{t + 1}. press ({pr},{pc})", f"for ({tr},{tc}), {phase}"], False))
    else:
        first = 0
        for t, s in enumerate(steps):
            if t + 1 == len(steps) or (steps[t + 1][2], steps[t + 1][4]) != (s[2], s[4]):
                group = steps[first:t + 1]
                out.append((boards[first], group, [f"row {s[2]}, {s[4]}:", _presses(len(group))], True))
                first = t + 1
    end = "cleared" if run.cleared else f"{_cells(run.final.count())} left on"
    out.append((run.final, [], ["end:", end], False))
    return out


def render_run(run, *, cell=16, columns=6, max_frames=MAX_PRESS_FRAMES, minimum=None):
    """An algorithm's run step by step, as one SVG sheet of small boards.

    Each frame is the board before a press: the filled cell answered (blue ring), the press (black
    dot) and the block it toggles (dashed); past ``max_frames`` presses, one frame per row
    cleared, with that row outlined and its presses as dots. The last frame is the end.

    Parameters
    ----------
    run : labyrinth.puzzles.toggle.algorithms.Run
    cell : int
        Size of a cell in pixels.
    columns : int
        Frames per row of the sheet.
    max_frames : int
        Past this many presses, one frame per row cleared.
    minimum : int or None
        The proven fewest presses, for the caption.
    """
    n = run.state.n
    _check(n)
    frames = _frames(run, max_frames)
    font = _font(cell)
    small = max(10, min(13, _r(cell * 0.7)))
    gap = _r(max(cell, 14))
    board_px = n * cell
    label_h = _r(small * 2.9)
    frame_w = max(board_px, int(0.6 * small * 17))
    frame_h = board_px + label_h
    count = len(frames)
    cols = max(1, min(columns, count))
    grid_rows = (count + cols - 1) // cols
    reading = f", reading {run.reading}" if run.algorithm == "two-way" else ""
    verdict = (f"cleared in {_presses(run.clicks)}" if run.cleared
               else f"not cleared: {_cells(run.final.count())} left on after {_presses(run.clicks)}")
    if minimum is not None and run.cleared:
        verdict += f" (proven minimum {minimum})"
    lines = [f"{run.algorithm}{reading} on {n}x{n}: {verdict}"]
    width = _r(gap + cols * (frame_w + gap))
    sheet_h = _r(gap + grid_rows * (frame_h + gap))
    foot = int(font * (1.45 * len(lines) + 0.6) + 0.999)
    width = max(width, int(0.62 * font * len(lines[0]) + 2 * gap))
    d = dw.Drawing(width, sheet_h + foot, font_family="DejaVu Sans, Arial, sans-serif", id_prefix="run")
    d.append_title(lines[0])
    d.append(dw.Rectangle(0, 0, width, sheet_h + foot, fill="#ffffff"))
    for t, (board, presses, label, grouped) in enumerate(frames):
        left = _r(gap + (t % cols) * (frame_w + gap))
        top = _r(gap + (t // cols) * (frame_h + gap))
        final = t == len(frames) - 1
        _grid(d, board.cells(), left, top, cell, left_on=final and not run.cleared)
        marks = dw.Group()
        if grouped:
            row = presses[0][2]
            outline = dw.Rectangle(left, _r(top + (row - 1) * cell), board_px, cell, fill="none",
                                   stroke=COLOURS["trigger"], stroke_width=2)
            outline.append_title(f"row {row} is cleared ({presses[0][4]} pass)")
            marks.append(outline)
        for pr, pc, tr, tc, phase in presses:
            if not grouped:
                block = dw.Rectangle(_r(left + (max(pc - 1, 1) - 1) * cell), _r(top + (max(pr - 1, 1) - 1) * cell),
                                     _r((min(pc + 1, n) - max(pc - 1, 1) + 1) * cell),
                                     _r((min(pr + 1, n) - max(pr - 1, 1) + 1) * cell), fill="none",
                                     stroke=COLOURS["block"], stroke_width=1.5, stroke_dasharray="3 2")
                block.append_title(f"toggled by the press at ({pr},{pc})")
                marks.append(block)
                ring = dw.Circle(_r(left + (tc - 0.5) * cell), _r(top + (tr - 0.5) * cell), _r(cell * 0.38),
                                 fill="none", stroke=COLOURS["trigger"], stroke_width=_r(max(1.5, cell * 0.1)))
                ring.append_title(f"filled cell ({tr},{tc}), answered in the {phase} pass")
                marks.append(ring)
            dot = dw.Circle(_r(left + (pc - 0.5) * cell), _r(top + (pr - 0.5) * cell), _r(cell * 0.2),
                            fill=COLOURS["press"])
            dot.append_title(f"press ({pr},{pc}) for filled ({tr},{tc})")
            marks.append(dot)
        d.append(marks)
        for i, text in enumerate(label):
            d.append(dw.Text(text, small, left, _r(top + board_px + small * (1.25 + 1.2 * i)), fill=COLOURS["text"]))
    for i, text in enumerate(lines):
        d.append(dw.Text(text, font, gap, _r(sheet_h + font * (1.45 * i + 0.6)), fill=COLOURS["text"]))
    return d.as_svg()
