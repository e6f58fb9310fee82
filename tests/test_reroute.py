"""The witness's local re-routing: a cycle too large to absorb whole is spliced into the line through a window."""

import numpy as np
import pytest

from labyrinth.engine import Board
from labyrinth.rules import _reroute

N = 7


def _cell(row, col):
    return row * N + col


def _link(mate, nb, a, b):
    for e in range(4):
        if nb[a, e] == b:
            mate[a] |= 1 << e
            mate[b] |= 1 << (e ^ 1)
            return
    raise ValueError((a, b))


def _chain(mate, nb, cells):
    for a, b in zip(cells, cells[1:]):
        _link(mate, nb, a, b)


def _line_and_cycle():
    """7x7, head at the corner: the line runs along the top row and down the right column to the end; the 6x6
    block left over is one cycle (down the left column, then a serpentine back up): a 2-matching, not a line."""
    nb = np.ascontiguousarray(Board(N).neighbours, dtype=np.int32)
    size = N * N
    mate = np.zeros(size, dtype=np.int32)
    line = [_cell(0, c) for c in range(N)] + [_cell(r, N - 1) for r in range(1, N)]
    _chain(mate, nb, line)
    cycle = [_cell(r, 0) for r in range(1, N)]
    for i, r in enumerate(range(N - 1, 0, -1)):
        cols = range(1, N - 1) if i % 2 == 0 else range(N - 2, 0, -1)
        cycle += [_cell(r, c) for c in cols]
    _chain(mate, nb, cycle + cycle[:1])
    lab = np.full(size, -1, dtype=np.int32)
    onl = np.zeros(size, dtype=np.int32)
    for i, x in enumerate(line):
        lab[x] = i
        onl[x] = 1
    taken = np.zeros(size, dtype=np.int8)
    taken[0] = 1
    return nb, mate, lab, onl, taken, len(cycle)


def _cells_of_the_line(nb, masks, head, end):
    """The cells from ``head`` along ``masks`` to ``end``; raises if the masks are not one line between them."""
    for x in range(masks.shape[0]):
        for e in range(4):
            if (masks[x] >> e) & 1:
                assert nb[x, e] >= 0 and (masks[nb[x, e]] >> (e ^ 1)) & 1, "masks disagree"
    seen = [head]
    prev, cur = -1, head
    while cur != end:
        nxt = [nb[cur, e] for e in range(4) if (masks[cur] >> e) & 1 and nb[cur, e] != prev]
        assert len(nxt) == 1, f"the line forks or stops at {cur}"
        prev, cur = cur, nxt[0]
        seen.append(cur)
    return seen


@pytest.mark.parametrize("contact", [_cell(1, 5), _cell(2, 5), _cell(5, 5), _cell(6, 5)])
def test_a_cycle_is_spliced_into_the_line_through_a_window_on_it(contact):
    nb, mate, lab, onl, taken, cycle_cells = _line_and_cycle()
    assert cycle_cells == 36
    w = np.zeros((_reroute.ROWS, N * N), dtype=np.int32)
    out = np.zeros(N * N, dtype=np.int32)
    end = N * N - 1
    assert _reroute.splice(nb, N, end, 0, N * N - 1, mate, lab, taken, onl, 1, contact, 2, w, 1, 2000, out)
    cells = _cells_of_the_line(nb, out, 0, end)
    assert sorted(cells) == list(range(N * N))  # one line from the head to the end through every cell
    # only the window round the contact changed
    cx, cy = contact % N, contact // N
    for x in np.flatnonzero(out != mate):
        assert abs(x % N - cx) <= 2 and abs(x // N - cy) <= 2


def test_a_cycle_inside_the_window_is_left_to_absorb():
    nb, mate, lab, onl, taken, _ = _line_and_cycle()
    w = np.zeros((_reroute.ROWS, N * N), dtype=np.int32)
    out = np.zeros(N * N, dtype=np.int32)
    assert not _reroute.splice(nb, N, N * N - 1, 0, N * N - 1, mate, lab, taken, onl, 1, _cell(3, 3), 3, w, 1, 2000,
                               out)
