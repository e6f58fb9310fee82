"""The pattern-rule language: small grids drawn around the head, in the walker's frame.

A rule file holds one or more rules. Each starts with ``name:`` and has a few
``key: value`` lines and a grid drawn with the head moving *up the page*
(straight ahead is up, the line's previous cell is below ``H``)::

    # comments start in the first column; grid rows are indented
    name: future-l
    about: one line shown by `labyrinth rules list`
    sizes: 7..            # all | 7 | 7,9 | 7..11 | ..11
    mirror: yes           # also match left-right mirrored
    rotate: no            # no | left | right | both: also match turned a quarter
    grid:
      ? X X ?
      . . x X
      ? H . X
      ? # ? ?

Symbols (one per cell, separated by spaces):

====  ===========================================================
``H``  the head (exactly one)
``.``  free
``o``  free, and not the end corner
``E``  the end corner, still free
``#``  taken by the line
``X``  taken or border (a wall)
``B``  border (outside the board)
``?``  any
``x``  a move the rule disables: a free cell beside the head
``f``  the move the rule forces: a free cell beside the head
====  ===========================================================

Every cell must lie within 5 cells of ``H`` (an 11x11 window; the 7x7 core is read
for every rule, the outer ring only when a rule reaches into it). A rule fires
when every cell matches; then its ``x`` moves are disabled, or
its ``f`` move is forced. Loading checks everything and raises
:class:`~labyrinth.errors.FormatError` naming the file, line and reason.

>>> rules = parse_rules('''
... name: demo
... grid:
...   x H
...   ? #
... ''', source="demo.rule")
>>> rules[0].name, rules[0].marks, rules[0].kind
('demo', ((-1, 0),), 'disable')
"""

import dataclasses

from labyrinth.errors import FormatError

__all__ = ["LEGEND", "SYMBOLS", "PatternSpec", "load_rules", "parse_rules", "variants"]

#: what the symbols of a drawn rule mean (printed under drawings)
LEGEND = ("(H the head, the line arriving from below; . free, o free and not the end corner, E the end corner, "
          "# the line, X the line or the border, B the border, ? any; x a move the rule disables, f the move it "
          "forces)")
#: symbol -> condition code used by the matching kernel
SYMBOLS = {"?": 0, ".": 1, "#": 2, "X": 3, "B": 4, "E": 5, "o": 6, "x": 1, "f": 1}
ANY, FREE, TAKEN, WALL, BORDER, END, NOT_END = range(7)
#: the window codes (0 free, 1 line, 2 border, 3 end corner) each condition allows
ALLOWED = {ANY: (0, 1, 2, 3), FREE: (0, 3), TAKEN: (1,), WALL: (1, 2), BORDER: (2,), END: (3,), NOT_END: (0,)}
#: how far from the head a pattern may reach (its cells lie in a (2R+1) x (2R+1) window)
RADIUS = 5
#: the inner window every pattern rule set reads; cells beyond it are read only when a rule has some
INNER_RADIUS = 3
_KEYS = ("name", "about", "sizes", "mirror", "rotate", "grid")
_ROTATE = {"no": (), "left": ("left",), "right": ("right",), "both": ("left", "right")}
_YES = {"yes": True, "no": False, "true": True, "false": False}
#: page offsets of the three moves a pattern may mark: left, straight, right
_MOVE_CELLS = {(-1, 0): "left", (0, -1): "straight", (1, 0): "right"}


@dataclasses.dataclass(frozen=True)
class PatternSpec:
    """One parsed rule: conditions and marks as page offsets from the head."""

    name: str
    about: str
    cells: tuple  # ((px, py, condition), ...) for every cell that is not '?'
    marks: tuple  # ((px, py), ...) the marked moves
    kind: str  # "disable" or "force"
    nmin: int
    nmax: int
    mirror: bool
    rotate: tuple
    grid: tuple  # the drawn rows, for `rules show`
    source: str = ""
    line: int = 0

    def applies_to(self, n):
        """True if the rule is active on an ``n x n`` board."""
        return self.nmin <= n <= self.nmax

    @property
    def sizes(self):
        """The size range as written by ``sizes:``."""
        if self.nmin <= 3 and self.nmax >= 999:
            return "all"
        if self.nmin == self.nmax:
            return str(self.nmin)
        return f"{self.nmin if self.nmin > 3 else ''}..{self.nmax if self.nmax < 999 else ''}"


def variants(spec):
    """The page-frame variants a rule is matched in: itself, turned and mirrored, deduplicated.

    Each variant is ``(cells, marks)`` with the same layout as the spec's.
    """
    turns = [lambda x, y: (x, y)]
    if "left" in spec.rotate:
        turns.append(lambda x, y: (y, -x))
    if "right" in spec.rotate:
        turns.append(lambda x, y: (-y, x))
    flips = [1, -1] if spec.mirror else [1]
    out, seen = [], set()
    for turn in turns:
        for flip in flips:
            # nearest cells first: the matcher stops at the first cell that fails
            cells = tuple(sorted(((*turn(flip * x, y), c) for x, y, c in spec.cells),
                                 key=lambda t: (abs(t[0]) + abs(t[1]), t)))
            marks = tuple(sorted(turn(flip * x, y) for x, y in spec.marks))
            if (cells, marks) not in seen:
                seen.add((cells, marks))
                out.append((cells, marks))
    return out


def _sizes(text, err):
    text = text.replace(" ", "")
    if text == "all":
        return 3, 999
    try:
        if ".." in text:
            lo, hi = text.split("..", 1)
            lo = int(lo) if lo else 3
            hi = int(hi) if hi else 999
        elif "," in text:
            values = [int(v) for v in text.split(",")]
            lo, hi = min(values), max(values)
            if sorted(values) != list(range(lo, hi + 1, 2)):
                raise err("a size list must be consecutive odd sizes (write a range: 7..11)")
        else:
            lo = hi = int(text)
    except ValueError:
        raise err(f"sizes must be all, N, N,M or N..M, not {text!r}") from None
    if lo > hi or lo < 3:
        raise err(f"empty or impossible size range {text!r}")
    even = [v for v in (lo, hi) if v % 2 == 0 and v != 999]
    if even:
        raise err(f"sizes are odd (boards are n x n with n odd): {even[0]} in {text!r} would never apply")
    return lo, hi


def _grid(rows, name, err_at):
    """Parse the grid rows ``[(line_no, text), ...]`` into cells and marks."""
    table = [(no, text.split()) for no, text in rows]
    width = len(table[0][1])
    heads = []
    for no, cells in table:
        if len(cells) != width:
            raise err_at(no, f"grid row has {len(cells)} cells, the first row has {width}")
        for x, sym in enumerate(cells):
            if sym != "H" and sym not in SYMBOLS:
                raise err_at(no, f"unknown symbol {sym!r} (use one of H {' '.join(SYMBOLS)})")
    for y, (no, cells) in enumerate(table):
        heads += [(x, y, no) for x, s in enumerate(cells) if s == "H"]
    if len(heads) != 1:
        raise err_at(table[0][0], f"rule {name!r} needs exactly one H in its grid, found {len(heads)}")
    hx, hy, _ = heads[0]
    cells, marks, kinds = [], [], set()
    for y, (no, row) in enumerate(table):
        for x, sym in enumerate(row):
            px, py = x - hx, y - hy
            if sym in ("H", "?"):
                continue
            if sym in "xf":
                if (px, py) not in _MOVE_CELLS:
                    raise err_at(no, f"move mark {sym!r} must be left, straight ahead or right of H")
                marks.append((px, py))
                kinds.add(sym)
            if max(abs(px), abs(py)) > RADIUS:
                raise err_at(no, f"cell {sym!r} lies {max(abs(px), abs(py))} cells from H; at most {RADIUS}")
            cells.append((px, py, SYMBOLS[sym]))
            if (px, py) == (0, 1) and SYMBOLS[sym] in (FREE, END, NOT_END):
                raise err_at(no, "the cell below H is the line's previous cell: it cannot be free")
    if not marks:
        raise err_at(table[0][0], f"rule {name!r} marks no move (x disables, f forces)")
    if len(kinds) > 1:
        raise err_at(table[0][0], f"rule {name!r} mixes x and f: a rule either disables or forces")
    if kinds == {"f"} and len(marks) > 1:
        raise err_at(table[0][0], f"rule {name!r} forces more than one move")
    rows = tuple(" ".join(r) for _, r in table)
    return tuple(cells), tuple(marks), "force" if kinds == {"f"} else "disable", rows


def parse_rules(text, source="<text>"):
    """Parse every rule in ``text``; ``source`` names the file in errors."""

    def err_at(no, reason):
        return FormatError(reason, source=f"{source}:{no}")

    blocks, current = [], None
    for no, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        in_grid = current is not None and current.get("_in_grid")
        if not stripped:
            if in_grid:
                current["_in_grid"] = False
            continue
        if in_grid and raw[:1].isspace():
            current["grid"].append((no, stripped))
            continue
        if raw.startswith("#"):
            continue  # a comment: '#' in the first column (grid rows are indented)
        if raw[:1].isspace():
            what = "grid rows follow 'grid:' with no blank line between" if current is not None and \
                current.get("_grid_line") else "only grid rows are indented"
            raise err_at(no, f"{stripped.split()[0]!r}: keys start in the first column ({what})")
        stripped = stripped.split(" #", 1)[0].strip()
        key, sep, value = stripped.partition(":")
        key = key.strip()
        if not sep or key not in _KEYS:
            raise err_at(no, f"expected one of {', '.join(k + ':' for k in _KEYS)}, got {stripped!r}")
        value = value.strip()
        if key == "name":
            current = {"name": value, "_line": no, "grid": [], "_seen": set()}
            blocks.append(current)
            if not value or any(ch.isspace() for ch in value):
                raise err_at(no, f"rule name must be one word, got {value!r}")
            continue
        if current is None:
            raise err_at(no, f"{key}: before the first name:")
        if key in current["_seen"]:
            raise err_at(no, f"{key}: given twice for rule {current['name']!r}")
        current["_seen"].add(key)
        if key == "grid":
            if value:
                raise err_at(no, "grid: takes its rows on the following indented lines")
            current["_in_grid"] = True
            current["_grid_line"] = no
        else:
            current[key] = (no, value)
    if not blocks:
        raise FormatError("no rules (a rule starts with name:)", source=source)
    out, names = [], set()
    for b in blocks:
        name = b["name"]
        if name in names:
            raise err_at(b["_line"], f"rule {name!r} defined twice")
        names.add(name)
        if not b["grid"]:
            raise err_at(b["_line"], f"rule {name!r} has no grid")

        def opt(key, default, b=b):
            return b.get(key, (b["_line"], default))

        no, sizes = opt("sizes", "all")
        nmin, nmax = _sizes(sizes, lambda reason, no=no: err_at(no, reason))
        no, mirror = opt("mirror", "yes")
        if mirror.lower() not in _YES:
            raise err_at(no, f"mirror: must be yes or no, not {mirror!r}")
        no, rotate = opt("rotate", "no")
        if rotate.lower() not in _ROTATE:
            raise err_at(no, f"rotate: must be one of {', '.join(_ROTATE)}, not {rotate!r}")
        cells, marks, kind, rows = _grid(b["grid"], name, err_at)
        out.append(PatternSpec(name, opt("about", "")[1], cells, marks, kind, nmin, nmax,
                               _YES[mirror.lower()], _ROTATE[rotate.lower()], rows, source, b["_line"]))
    return out


#: The largest rule file read (the shipped library is a few kilobytes).
MAX_RULE_FILE_BYTES = 4 * 2 ** 20


def load_rules(path):
    """Parse a rule file; errors name the file and line. Only regular files up to 4 MB are read."""
    import os
    import stat

    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise FormatError("not a regular file (a device, pipe or folder is not a rule file)", source=str(path))
        if info.st_size > MAX_RULE_FILE_BYTES:
            raise FormatError(f"file of {info.st_size} bytes is larger than a rule file can be", source=str(path))
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror}", source=str(path)) from None
    except UnicodeDecodeError:
        raise FormatError("not a UTF-8 text file", source=str(path)) from None
    return parse_rules(text, source=str(path))
