"""Pattern rules: rules written in :mod:`labyrinth.rules.language`, compiled to arrays and
matched by a numba kernel in the walker's frame.

The study's size-specific rules ship as ``.rule`` files in
``labyrinth/rules/library/``; any file a user writes loads the same way.
"""

import numpy as np
from numba import njit

from labyrinth.rules import language
from labyrinth.rules.base import CompiledRule
from labyrinth.rules.frame import RIGHT, STRAIGHT
from labyrinth.rules.language import ALLOWED, RADIUS

__all__ = ["PatternRule", "PatternTable", "match_pattern", "window_bits"]

PATTERN_BASE = 100  # rule codes from here on index the pattern table
_SIDE = 2 * RADIUS + 1


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
        self.forbid = np.zeros((nvar, 4), dtype=np.uint64)
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
        """The tuple of arrays the kernels take, in order."""
        return (self.cells, self.ncells, self.marks, self.nmarks, self.rule_var, self.force, self.nmin, self.nmax,
                self.forbid)


def _forbidden(cells):
    """Four 64-bit masks of the window bits a variant's conditions exclude."""
    words = [0, 0, 0, 0]
    for px, py, cond in cells:
        k = (py + RADIUS) * _SIDE + (px + RADIUS)
        for code in range(4):
            if code not in ALLOWED[cond]:
                b = 4 * k + code
                words[b >> 6] |= 1 << (b & 63)
    return np.array(words, dtype=np.uint64)


@njit(cache=True, inline="always")
def _board_xy(n, head, heading, px, py):
    """Board ``(x, y)`` (0-based) of page offset ``(px, py)`` from the head (see :mod:`.frame`)."""
    x = head % n + px * RIGHT[heading, 0] - py * STRAIGHT[heading, 0]
    y = head // n + px * RIGHT[heading, 1] - py * STRAIGHT[heading, 1]
    return x, y


@njit(cache=True)
def window_bits(n, end, taken, head, heading, out):
    """The cells within :data:`RADIUS` of the head, in the walker's frame, as one-hot bits.

    Cell ``k = (py + R) * W + (px + R)`` owns bits ``4k .. 4k + 3`` (free, line,
    border, end corner) of the four words of ``out``.
    """
    for i in range(4):
        out[i] = 0
    k = 0
    for py in range(-RADIUS, RADIUS + 1):
        for px in range(-RADIUS, RADIUS + 1):
            x, y = _board_xy(n, head, heading, px, py)
            if x < 0 or y < 0 or x >= n or y >= n:
                code = 2
            elif taken[y * n + x]:
                code = 1
            elif y * n + x == end:
                code = 3
            else:
                code = 0
            b = 4 * k + code
            out[b >> 6] |= np.uint64(1) << np.uint64(b & 63)
            k += 1


@njit(cache=True)
def match_pattern(r, n, head, heading, window, cells, ncells, marks, nmarks, rule_var, force, nmin, nmax,
                  forbid, trig, ntrig):
    """Moves pattern rule ``r`` disables (bits 0-3) or forces (bits 4-7) at the head.

    ``window`` is :func:`window_bits` of the state; a variant matches when the
    window has no bit its ``forbid`` masks exclude. Trigger cells (the matched,
    non-'?' cells on the board) go to ``trig[d]``.
    """
    if n < nmin[r] or n > nmax[r]:
        return 0
    out = 0
    for v in range(rule_var[r], rule_var[r + 1]):
        if ((window[0] & forbid[v, 0]) | (window[1] & forbid[v, 1]) | (window[2] & forbid[v, 2])
                | (window[3] & forbid[v, 3])) != 0:
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
