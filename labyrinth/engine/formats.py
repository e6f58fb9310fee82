"""Path notations: the compact ``N:MOVES`` string and the research program's saved-path files.

The research file grammar is documented in ``data/corpus/FORMAT.md``::

    FILE    := SIZE "|" FIRST ( ";" STEP )* [ ";" TRAIL ] [ ":" EXITS ]
    STEP    := OPTIONS "-" X "," Y

with direction codes 0 = down, 1 = right, 2 = up, 3 = left. Old files may list
bare ``x,y`` cells; some 2023 files end with an ``:EXITS`` annotation, which is
dropped on loading (the :class:`Trace` says so in ``notes``).
"""

import dataclasses
import re
import stat
from pathlib import Path

from labyrinth.engine.board import Board
from labyrinth.engine.state import State
from labyrinth.errors import FormatError, LabyrinthError

__all__ = [
    "MAX_FILE_BYTES",
    "RESEARCH_DIRECTIONS",
    "Trace",
    "bounded_lines",
    "format_compact",
    "format_trace",
    "load_state",
    "load_trace",
    "parse_compact",
    "parse_state",
    "parse_trace",
]

#: Research direction code -> move letter (0 = down, 1 = right, 2 = up, 3 = left).
RESEARCH_DIRECTIONS = "DRUL"

_COMPACT = re.compile(r"^\s*([^:\s]+)\s*:\s*([A-Za-z]*)\s*$")
_CELL = re.compile(r"^([0-9]+),([0-9]+)$")  # ASCII digits: \d would match other scripts' digits too
#: the most digits of a cell coordinate (no board is that wide; int() of a long text is slow)
_MAX_COORD_DIGITS = 9


def parse_compact(text, *, source=None):
    """Read ``N:MOVES`` into a :class:`State`.

    >>> parse_compact("7:RRD").cells_xy()
    [(1, 1), (2, 1), (3, 1), (3, 2)]
    """
    src = source or text.strip()
    m = _COMPACT.match(text)
    if not m:
        token = text.strip() or "(empty)"
        if ":" not in text:
            reason = "expected N:MOVES (a board size, a colon, then U/D/L/R letters)"
        else:
            bad = re.search(r"[^UDLRudlr\s]", text.split(":", 1)[1])
            token = bad.group(0) if bad else token
            reason = "moves must be the letters U, D, L, R"
        raise FormatError(reason, source=src, token=token)
    try:
        board = Board(m.group(1))
    except LabyrinthError as err:
        raise err.located(src) from None
    return State.from_moves(board, m.group(2), source=src)


def format_compact(state):
    return state.compact()


@dataclasses.dataclass(frozen=True)
class Trace:
    """A research program's saved path: the state plus the options it allowed at each cell.

    ``options[i]`` is the tuple of move letters the program allowed while standing
    on cell ``i`` of the path (``None`` where the file records nothing, e.g. the
    last cell of a stuck line). ``notes`` lists what loading changed.
    """

    state: State
    options: tuple
    first: str = "1"
    legacy: bool = False
    notes: tuple = ()

    @property
    def n(self):
        return self.state.n


def _parse_options(text, where, source):
    if text == "":
        return ()
    out = []
    for tok in text.split(","):
        if tok not in ("0", "1", "2", "3"):
            raise FormatError(f"{where}: option {tok!r} is not a direction code 0-3", source=source, token=text)
        out.append(RESEARCH_DIRECTIONS[int(tok)])
    return tuple(out)


def parse_trace(text, *, source="<text>"):
    """Parse the research program's saved-path text into a :class:`Trace`."""
    notes = []
    body = text.strip()
    if body.startswith("\ufeff"):
        body = body[1:]
    if not body:
        raise FormatError("empty file", source=source)
    if "|" not in body:
        raise FormatError("missing 'SIZE|' prefix", source=source, token=body[:20])
    size_text, rest = body.split("|", 1)
    try:
        board = Board(size_text)
    except LabyrinthError as err:
        raise err.located(source) from None
    if ":" in rest:
        rest, exits = rest.split(":", 1)
        notes.append(f"dropped the area-exit annotation ':{exits}'")
    tokens = rest.split(";")
    if "-" not in rest:
        return _parse_legacy(board, tokens, source, notes)
    cells = []
    options = []
    first = None
    for i, tok in enumerate(tokens):
        where = f"token {i + 1}"
        if "-" in tok:
            opts, _, xy = tok.rpartition("-")
            m = _CELL.match(xy)
            if not m:
                raise FormatError(f"{where}: expected X,Y after '-'", source=source, token=tok)
            if i == 0:
                first = opts
            else:
                options.append(_parse_options(opts, where, source))
            cells.append(_cell(m, where, source, tok))
        elif i == len(tokens) - 1 and i > 0:
            options.append(_parse_options(tok, where, source))  # the trail
        else:
            raise FormatError(f"{where}: expected OPTIONS-X,Y", source=source, token=tok)
    if cells[0] != (1, 1):
        raise FormatError("the first cell must be 1,1", source=source, token=tokens[0])
    if len(options) < len(cells):
        options.append(None)
    state = State.from_cells(board, cells, source=source)
    return Trace(state, tuple(options), first=first, notes=tuple(notes))


def _cell(match, where, source, token):
    """The (x, y) of a matched ``X,Y``; a coordinate too long for any board is a one-line error."""
    if max(len(match.group(1)), len(match.group(2))) > _MAX_COORD_DIGITS:
        raise FormatError(f"{where}: coordinate too large (at most {_MAX_COORD_DIGITS} digits)", source=source,
                          token=token[:24])
    return int(match.group(1)), int(match.group(2))


def _parse_legacy(board, tokens, source, notes):
    cells = []
    for i, tok in enumerate(tokens):
        m = _CELL.match(tok)
        if not m:
            raise FormatError(f"token {i + 1}: expected X,Y", source=source, token=tok)
        cells.append(_cell(m, f"token {i + 1}", source, tok))
    if cells[0] != (1, 1):
        raise FormatError("the first cell must be 1,1", source=source, token=tokens[0])
    state = State.from_cells(board, cells, source=source)
    return Trace(state, (None,) * len(cells), legacy=True, notes=tuple(notes))


def format_trace(trace):
    """Write a :class:`Trace` back in the research program's notation."""
    cells = trace.state.cells_xy()
    if trace.legacy:
        return f"{trace.n}|" + ";".join(f"{x},{y}" for x, y in cells)
    parts = [f"{trace.first}-1,1"]
    for (x, y), opts in zip(cells[1:], trace.options):
        parts.append(f"{_format_options(opts)}-{x},{y}")
    trail = trace.options[len(cells) - 1]
    if trail:
        parts.append(_format_options(trail))
    return f"{trace.n}|" + ";".join(parts)


def _format_options(opts):
    return ",".join(str(RESEARCH_DIRECTIONS.index(m)) for m in opts or ())


#: The largest file read as a position (a 1001x1001 line with its options is about 10 MB).
MAX_FILE_BYTES = 64 * 2 ** 20


def load_trace(path):
    """Read a research file from disk; errors name the file.

    Only regular files up to :data:`MAX_FILE_BYTES` are read (not a device,
    a pipe or a folder, which could be endless).
    """
    p = Path(path)
    try:
        info = p.stat()
        if not stat.S_ISREG(info.st_mode):
            raise FormatError("not a regular file (a device, pipe or folder is not a position)", source=str(p))
        if info.st_size > MAX_FILE_BYTES:
            raise FormatError(f"file of {info.st_size} bytes is larger than a position can be "
                              f"({MAX_FILE_BYTES // 2 ** 20} MB)", source=str(p))
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise FormatError(f"cannot read: {getattr(err, 'strerror', None) or err}", source=str(p)) from None
    return parse_trace(text, source=str(p))


def bounded_lines(stream, *, source, limit=MAX_FILE_BYTES):
    """The lines of ``stream`` one by one, each at most ``limit`` bytes, as files are bounded (stdin may be endless).

    A longer line (``/dev/zero`` is one endless line) stops the reading with
    a :class:`~labyrinth.errors.FormatError` naming ``source`` and the line
    number; bytes that are not UTF-8 become U+FFFD, so the line is refused by
    whoever reads it, not the stream.
    """
    raw = getattr(stream, "buffer", stream)
    number = 0
    while True:
        line = raw.readline(limit + 1)
        if not line:
            return
        number += 1
        end = b"\n" if isinstance(line, bytes) else "\n"
        if len(line) > limit and not line.endswith(end):
            size = f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit} bytes"
            raise FormatError(f"a line longer than {size} without a line end (an endless input?)",
                              source=f"{source}:{number}")
        yield line.decode("utf-8", "replace") if isinstance(line, bytes) else line


def parse_state(text, *, source=None):
    """A :class:`State` from either notation, told apart by ``|`` (research) or ``:`` (compact)."""
    stripped = text.strip()
    if "|" in stripped:
        return parse_trace(stripped, source=source or "<input>").state
    return parse_compact(stripped, source=source)


def load_state(path):
    return load_trace(path).state
