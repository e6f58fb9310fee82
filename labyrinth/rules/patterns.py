"""Pattern rules: rules written in :mod:`labyrinth.rules.language`, compiled to arrays and
matched by a numba kernel in the walker's frame.

The study's size-specific rules ship as ``.rule`` files in
``labyrinth/rules/library/``; any file a user writes loads the same way.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from labyrinth.rules import codes, language
from labyrinth.rules.base import CompiledRule
from labyrinth.rules.frame import RIGHT, STRAIGHT
from labyrinth.rules.language import ALLOWED, INNER_RADIUS, RADIUS

__all__ = ["PatternArrays", "PatternRule", "PatternTable", "match_pattern", "ring_bits", "variant_matches", "window_bits"]

PATTERN_BASE = codes.PATTERN_BASE  # rule codes from here on index the pattern table
_SIDE = 2 * INNER_RADIUS + 1
#: the pattern window's words: 0-3 the inner 7x7 cells, 4-8 the ring out to RADIUS; then two "computed" flags
INNER_WORDS = 4
WORDS = 9
INNER_DONE = 9
OUTER_DONE = 10
#: length of a program's window array without a window rule's memo
WINDOW_LEN = 11
#: page offsets of the ring cells (INNER_RADIUS < Chebyshev distance <= RADIUS), in bit order
_RING = np.array([(px, py) for py in range(-RADIUS, RADIUS + 1) for px in range(-RADIUS, RADIUS + 1)
                  if max(abs(px), abs(py)) > INNER_RADIUS], dtype=np.int64)
_RING_INDEX = {(int(px), int(py)): k for k, (px, py) in enumerate(_RING)}

#: a pattern table's arrays, one argument of the kernels (see :class:`PatternTable`)
PatternArrays = namedtuple("PatternArrays", ["cells", "ncells", "marks", "nmarks", "rule_var", "force", "nmin", "nmax",
                                             "forbid"])


class PatternRule(CompiledRule):
    """A rule drawn in the pattern language (see :mod:`labyrinth.rules.language`)."""

    def __init__(self, spec):
        self.spec = spec
        self.name = spec.name
        self.kind = spec.kind
        self.summary = spec.about
        self.code = PATTERN_BASE
        self._table = None

    def table(self):
        """This rule alone, compiled (for explaining its effects)."""
        if self._table is None:
            self._table = PatternTable([self.spec])
        return self._table

    def __repr__(self):
        return f"PatternRule({self.name!r}, sizes={self.spec.sizes}, {self.spec.source}:{self.spec.line})"


class PatternTable:
    """Every variant of a list of pattern specs as flat arrays for :func:`match_pattern`.

    ``rule_var[r]`` .. ``rule_var[r + 1]`` are rule ``r``'s variants; a variant's
    cells are rows ``(px, py, condition)`` of ``cells[v]`` and its marked moves
    are page offsets in ``marks[v]``.
    """

    def __init__(self, specs):
        specs = list(specs)
        rows = [language.variants(s) for s in specs]
        nvar = max(1, sum(len(r) for r in rows))
        width = max([len(c) for r in rows for c, _ in r] + [1])
        self.cells = np.zeros((nvar, width, 3), dtype=np.int32)
        self.ncells = np.zeros(nvar, dtype=np.int32)
        self.marks = np.zeros((nvar, 3, 2), dtype=np.int32)
        self.nmarks = np.zeros(nvar, dtype=np.int32)
        self.rule_var = np.zeros(len(specs) + 1, dtype=np.int32)
        self.force = np.array([s.kind == "force" for s in specs] + [False], dtype=np.uint8)
        self.nmin = np.array([s.nmin for s in specs] + [0], dtype=np.int32)
        self.nmax = np.array([s.nmax for s in specs] + [0], dtype=np.int32)
        self.forbid = np.zeros((nvar, WORDS), dtype=np.uint64)
        v = 0
        for r, vs in enumerate(rows):
            self.rule_var[r] = v
            for cells, marks in vs:
                self.cells[v, : len(cells)] = cells
                self.ncells[v] = len(cells)
                self.marks[v, : len(marks)] = marks
                self.nmarks[v] = len(marks)
                self.forbid[v] = _forbidden(cells)
                v += 1
        self.rule_var[len(specs)] = v

    def arrays(self):
        """The :data:`PatternArrays` the kernels take."""
        return PatternArrays(self.cells, self.ncells, self.marks, self.nmarks, self.rule_var, self.force, self.nmin,
                             self.nmax, self.forbid)


def _forbidden(cells):
    """The 64-bit masks (:data:`WORDS` of them) of the window bits a variant's conditions exclude."""
    words = [0] * WORDS
    for px, py, cond in cells:
        if max(abs(px), abs(py)) <= INNER_RADIUS:
            base = 4 * ((py + INNER_RADIUS) * _SIDE + (px + INNER_RADIUS))
        else:
            base = 64 * INNER_WORDS + 4 * _RING_INDEX[(px, py)]
        for code in range(4):
            if code not in ALLOWED[cond]:
                b = base + code
                words[b >> 6] |= 1 << (b & 63)
    return np.array(words, dtype=np.uint64)


@njit(cache=True, inline="always")
def _board_xy(n, head, heading, px, py):
    """Board ``(x, y)`` (0-based) of page offset ``(px, py)`` from the head (see :mod:`.frame`)."""
    x = head % n + px * RIGHT[heading, 0] - py * STRAIGHT[heading, 0]
    y = head // n + px * RIGHT[heading, 1] - py * STRAIGHT[heading, 1]
    return x, y


@njit(cache=True, inline="always")
def _code(n, end, taken, x, y):
    if x < 0 or y < 0 or x >= n or y >= n:
        return 2
    if taken[y * n + x] != 0:
        return 1
    if y * n + x == end:
        return 3
    return 0


@njit(cache=True)
def window_bits(n, end, taken, head, heading, out):
    """The cells within :data:`INNER_RADIUS` of the head, in the walker's frame, as one-hot bits.

    Cell ``k = (py + R) * W + (px + R)`` owns bits ``4k .. 4k + 3`` (free, line,
    border, end corner) of the words 0-3 of ``out``; ``out[INNER_DONE]`` is set.
    """
    for i in range(INNER_WORDS):
        out[i] = 0
    k = 0
    for py in range(-INNER_RADIUS, INNER_RADIUS + 1):
        for px in range(-INNER_RADIUS, INNER_RADIUS + 1):
            x, y = _board_xy(n, head, heading, px, py)
            b = 4 * k + _code(n, end, taken, x, y)
            out[b >> 6] |= np.uint64(1) << np.uint64(b & 63)
            k += 1
    out[INNER_DONE] = 1


@njit(cache=True)
def ring_bits(n, end, taken, head, heading, out):
    """The ring of cells beyond the inner window, out to :data:`RADIUS`, into words 4-8 (``out[OUTER_DONE]`` set)."""
    for i in range(INNER_WORDS, WORDS):
        out[i] = 0
    for k in range(_RING.shape[0]):
        x, y = _board_xy(n, head, heading, _RING[k, 0], _RING[k, 1])
        b = 64 * INNER_WORDS + 4 * k + _code(n, end, taken, x, y)
        out[b >> 6] |= np.uint64(1) << np.uint64(b & 63)
    out[OUTER_DONE] = 1


@njit(cache=True, inline="always")
def variant_matches(v, n, end, taken, head, heading, window, forbid):
    """True if variant ``v``'s conditions hold in the window (the ring read first if it needs it)."""
    if ((window[0] & forbid[v, 0]) | (window[1] & forbid[v, 1]) | (window[2] & forbid[v, 2])
            | (window[3] & forbid[v, 3])) != 0:
        return False
    outer = forbid[v, 4] | forbid[v, 5] | forbid[v, 6] | forbid[v, 7] | forbid[v, 8]
    if outer == 0:
        return True
    if window[OUTER_DONE] == 0:
        ring_bits(n, end, taken, head, heading, window)
    return ((window[4] & forbid[v, 4]) | (window[5] & forbid[v, 5]) | (window[6] & forbid[v, 6])
            | (window[7] & forbid[v, 7]) | (window[8] & forbid[v, 8])) == 0


@njit(cache=True)
def match_pattern(r, n, end, taken, head, heading, window, pat, trig, ntrig):
    """Moves pattern rule ``r`` disables (bits 0-3) or forces (bits 4-7) at the head.

    ``window`` holds :func:`window_bits` of the state (and :func:`ring_bits`,
    read here when a variant needs it); ``pat`` is the table's :data:`PatternArrays`;
    a variant matches when the window has no bit its ``forbid`` masks exclude. Trigger cells (the matched,
    non-'?' cells on the board) go to ``trig[d]``.
    """
    cells, ncells, marks, nmarks, rule_var, force, nmin, nmax, forbid = pat
    if n < nmin[r] or n > nmax[r]:
        return 0
    out = 0
    for v in range(rule_var[r], rule_var[r + 1]):
        if not variant_matches(v, n, end, taken, head, heading, window, forbid):
            continue
        for k in range(nmarks[v]):
            x, y = _board_xy(n, head, heading, marks[v, k, 0], marks[v, k, 1])
            dx = x - head % n
            dy = y - head // n
            d = 0 if dy < 0 else 1 if dy > 0 else 2 if dx < 0 else 3
            bit = 1 << d
            if (out | (out >> 4)) & bit:
                continue
            out |= bit << 4 if force[r] else bit
            t = 0
            for i in range(ncells[v]):
                x, y = _board_xy(n, head, heading, cells[v, i, 0], cells[v, i, 1])
                if 0 <= x < n and 0 <= y < n and t < trig.shape[1]:
                    trig[d, t] = y * n + x
                    t += 1
            ntrig[d] = t
    return out
