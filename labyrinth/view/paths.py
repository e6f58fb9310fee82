"""SVG pictures of paths on any move graph (number puzzle, knight's tour), in the labyrinth's style (drawn with ``drawsvg``).

A path is drawn as a numbered grid: each visited cell holds its number, each
jump is a thin black line from cell to cell, the cell holding 1 has a black
ring. With ``margins`` the sums of the numbers in each row (right), each
column (below) and the two diagonals (at the corner where each ends) are
written around the board, green where they equal the magic sum
``n (n^2 + 1) / 2``: the test of a magic tour. A stuck walk also shows its *first fatal
move* (the jump after which no completion exists) in red, the numbers after it
in red, the cells it left free white, and the moves that were still feasible
there as green rings. Every mark carries a ``<title>`` tooltip; output is
deterministic, so golden files pin it.

>>> from labyrinth.core import PathState
>>> from labyrinth.puzzles.numbers import numbers_puzzle
>>> text = render_path(PathState.from_moves(numbers_puzzle(5), (1, 1), "E,S"))
>>> text.startswith("<?xml") and "<title>3 at (4,4)</title>" in text
True
"""

import drawsvg as dw

from labyrinth.errors import BoardSizeError
from labyrinth.view.coords import rounded as _r
from labyrinth.view.svg import COLOURS

__all__ = ["DRAW_LIMIT", "check_drawable", "line_sums", "magic_sum", "render_path"]

#: boards larger than this are not drawn (n^2 numbered cells)
DRAW_LIMIT = 100


def magic_sum(n):
    """The sum of every row, column and diagonal of an n x n magic square of 1..n*n.

    >>> magic_sum(8)
    260
    """
    return n * (n * n + 1) // 2


def line_sums(state):
    """The sums of the numbers the path wrote, by line: ``{"rows": [...], "columns": [...], "diagonals": (main, anti)}``.

    Rows and columns from 1; the main diagonal runs from (1,1) down to (n,n), the
    anti-diagonal from (1,n) up to (n,1); a free cell adds nothing.

    >>> from labyrinth.core import PathState
    >>> from labyrinth.puzzles.knight import knight_puzzle
    >>> line_sums(PathState.from_moves(knight_puzzle(3), (1, 1), "ESE"))
    {'rows': [1, 2, 0], 'columns': [1, 0, 2], 'diagonals': (1, 0)}
    """
    board = state.board
    w, h = board.width, board.height
    rows, columns = [0] * h, [0] * w
    main = anti = 0
    for k, c in enumerate(state.path, 1):
        x, y = c % w, c // w
        rows[y] += k
        columns[x] += k
        main += k if x == y else 0
        anti += k if x + y == w - 1 else 0
    return {"rows": rows, "columns": columns, "diagonals": (main, anti)}


def check_drawable(n, *, source=None):
    """Refuse a board larger than :data:`DRAW_LIMIT` (a caller checks it before the search that finds the path).

    >>> check_drawable(101, source="--svg x.svg")
    Traceback (most recent call last):
    labyrinth.errors.BoardSizeError: --svg x.svg: paths are drawn up to 100x100, not 101x101
    """
    if n > DRAW_LIMIT:
        raise BoardSizeError(f"paths are drawn up to {DRAW_LIMIT}x{DRAW_LIMIT}, not {n}x{n}",
                             source=source or f"{n}x{n}")


def render_path(state, *, fatal_step=None, feasible_moves=(), caption=None, cell=None, margins=False):
    """The SVG document (text) of ``state``'s path, numbered.

    Parameters
    ----------
    state : PathState
    fatal_step : int or None
        Mark the ``fatal_step``-th jump as the first fatal move (the state after it has no completion).
    feasible_moves : sequence of str
        Moves that were still feasible before the fatal move (green rings).
    caption : list of str or None
        Lines under the board (default: the path's notation and how far it got).
    cell : int or None
        Pixels per cell (default: 40 on small boards, down to 14 on large ones).
    margins : bool
        Write the row, column and diagonal sums around the board (see the module's docstring).
    """
    board = state.board
    n = board.n
    check_drawable(n)
    cell = cell or max(14, min(40, 640 // max(n, 1)))
    margin = _r(cell * 0.5)
    lines = list(caption) if caption is not None else _caption(state, fatal_step)
    if margins and caption is None:
        lines.append(f"sums of rows (right), columns (below), diagonals (corners); green: the magic sum "
                     f"{magic_sum(n)}")
    font = max(11, min(16, _r(cell * 0.42)))
    foot = int(font * (1.45 * len(lines) + 0.6) + 0.999) if lines else 0
    sums = line_sums(state) if margins else None
    sum_font = _r(cell * 0.32)
    # with margins: a column of row sums on the right, a row of column sums below, a band above for the anti-diagonal
    band = _r(max(cell, 0.62 * sum_font * len(str(magic_sum(n))) + cell * 0.4)) if margins else 0
    top = _r(margin + (sum_font * 1.4 if margins else 0))
    side = _r(top + margin + n * cell + band)
    width = max([_r(2 * margin + n * cell + band)] + [int(0.62 * font * len(t) + cell * 0.6) for t in lines])
    d = dw.Drawing(width, side + foot, font_family="DejaVu Sans, Arial, sans-serif", id_prefix="num")
    d.append_title(state.compact())
    d.append(dw.Rectangle(0, 0, width, side + foot, fill="#ffffff"))

    def corner(c):
        x, y = board.xy(c)
        return _r(margin + (x - 1) * cell), _r(top + (y - 1) * cell)

    def centre(c):
        x, y = board.xy(c)
        return _r(margin + (x - 0.5) * cell), _r(top + (y - 0.5) * cell)

    path = state.path
    dead_from = fatal_step if fatal_step is not None else len(path)  # index in path of the first dead cell
    grid = dw.Group(stroke=COLOURS["grid"], stroke_width=1)
    for c in range(board.size):
        grid.append(dw.Rectangle(*corner(c), cell, cell, fill=COLOURS["free"]))
    d.append(grid)
    d.append(dw.Rectangle(margin, top, n * cell, n * cell, fill="none", stroke=COLOURS["line"], stroke_width=2))

    jumps = dw.Group(stroke=COLOURS["line"], stroke_width=_r(max(1, cell * 0.05)), stroke_opacity=0.45)
    for k in range(1, len(path)):
        if k == fatal_step:
            continue
        (x0, y0), (x1, y1) = centre(path[k - 1]), centre(path[k])
        jumps.append(dw.Line(x0, y0, x1, y1, stroke=COLOURS["disabled"] if k > dead_from else None))
    d.append(jumps)
    if fatal_step is not None and 0 < fatal_step < len(path):
        (x0, y0), (x1, y1) = centre(path[fatal_step - 1]), centre(path[fatal_step])
        fatal = dw.Line(x0, y0, x1, y1, stroke=COLOURS["disabled"], stroke_width=_r(max(2, cell * 0.12)))
        move = board.move_between(path[fatal_step - 1], path[fatal_step])
        fatal.append_title(f"first fatal move: {move} from {fatal_step} to {fatal_step + 1}: "
                           "no completion exists after it")
        d.append(fatal)
        before = path[fatal_step - 1]
        for m in feasible_moves:
            w = board.targets[m][before]
            ring = dw.Circle(*centre(w), _r(cell * 0.36), fill="none", stroke=COLOURS["feasible"],
                             stroke_width=_r(max(1.5, cell * 0.08)))
            ring.append_title(f"{m} from {fatal_step} was still feasible")
            d.append(ring)

    first = dw.Circle(*centre(path[0]), _r(cell * 0.4), fill="none", stroke=COLOURS["line"],
                      stroke_width=_r(max(1, cell * 0.06)))
    first.append_title(f"1 at ({board.xy(path[0])[0]},{board.xy(path[0])[1]}): the start")
    d.append(first)
    numbers = dw.Group(font_size=_r(cell * (0.42 if len(str(len(path))) < 3 else 0.32)), text_anchor="middle",
                       dominant_baseline="central")
    for k, c in enumerate(path, 1):
        x, y = board.xy(c)
        colour = COLOURS["disabled"] if k - 1 >= dead_from else COLOURS["text"]
        t = dw.Text(str(k), None, *centre(c), fill=colour)
        t.append_title(f"{k} at ({x},{y})")
        numbers.append(t)
    d.append(numbers)
    if sums is not None:
        d.append(_margins(sums, magic_sum(n), n, cell, margin, top, band, sum_font))
    for i, text in enumerate(lines):
        d.append(dw.Text(text, font, _r(cell * 0.3), _r(side + font * (1.45 * i + 1.1)), fill=COLOURS["text"]))
    return d.as_svg()


def _margins(sums, magic, n, cell, left, top, band, font):
    """The sums around the board: rows on the right, columns below, each diagonal at the corner where it ends."""
    group = dw.Group(font_size=font, text_anchor="middle", dominant_baseline="central")
    right = _r(left + n * cell + band / 2)
    bottom = _r(top + n * cell + cell * 0.5)

    def mark(value, x, y, what):
        t = dw.Text(str(value), None, x, y, fill=COLOURS["feasible"] if value == magic else COLOURS["text"])
        t.append_title(f"{what}: sum {value}" + (" (the magic sum)" if value == magic else f" (magic sum {magic})"))
        group.append(t)

    for i, value in enumerate(sums["rows"]):
        mark(value, right, _r(top + (i + 0.5) * cell), f"row {i + 1}")
    for i, value in enumerate(sums["columns"]):
        mark(value, _r(left + (i + 0.5) * cell), bottom, f"column {i + 1}")
    main, anti = sums["diagonals"]
    mark(main, right, bottom, "diagonal (1,1)-(n,n)")
    mark(anti, right, _r(top - font * 0.75), "diagonal (1,n)-(n,1)")
    return group


def _caption(state, fatal_step):
    out = [state.compact() if len(state.compact()) <= 90 else state.compact()[:87] + "..."]
    size = state.board.size
    if state.is_complete():
        out.append(f"a solution: all {size} numbers" + (", closed" if state.cycle else ""))
    else:
        out.append(f"{len(state.path)} of {size} numbers")
    if fatal_step is not None:
        out.append(f"first fatal move: jump {fatal_step} (from {fatal_step} to {fatal_step + 1}), in red")
    return out
