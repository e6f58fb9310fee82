"""Toggle squares, pictures: golden SVGs and what the pictures claim.

After a deliberate change of the drawing, rewrite the golden files with
``UPDATE_GOLDEN=1 pytest tests/test_toggle_draw.py`` and look at the difference before committing.
"""

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from conftest import check_golden

from labyrinth.errors import ToggleSizeError
from labyrinth.puzzles.toggle import (
    Board,
    parse_board,
    random_solvable,
    render_board,
    render_run,
    run,
    solve,
)

GOLDEN = Path(__file__).resolve().parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"
CORNER_3 = "100\n000\n000\n"


def _pictures():
    state = random_solvable(5, 4)
    sol = solve(state, minimum=True)
    return {
        "toggle_board_5.svg": render_board(state, presses=sol.presses,
                                           caption=[f"{state.count()} cells on", f"{sol.presses.count()} presses"]),
        "toggle_run_3.svg": render_run(run(parse_board(CORNER_3), "two-way")),
        "toggle_run_7.svg": render_run(run(random_solvable(7, 2), "three-k-plus-one")),
    }


@pytest.mark.parametrize("name", ["toggle_board_5.svg", "toggle_run_3.svg", "toggle_run_7.svg"])
def test_svg_matches_its_golden_file(name):
    svg = _pictures()[name]
    assert svg == _pictures()[name]  # deterministic
    check_golden(GOLDEN / name, svg)


def _titles(svg):
    root = ET.fromstring(svg.split("?>", 1)[1])
    return [t.text for t in root.iter(f"{SVG}title")]


def test_board_picture_marks_every_press_and_every_cell_on():
    state = random_solvable(8, 1)
    sol = solve(state, minimum=True)
    titles = _titles(render_board(state, presses=sol.presses))
    presses = sorted(t for t in titles if t.startswith("press ("))
    assert presses == sorted(f"press ({r},{c})" for r, c in sol.presses.positions())
    assert sum(t.startswith("(") and t.endswith(") on") for t in titles) == state.count()


def test_run_picture_has_a_frame_per_press_and_marks_the_failure():
    r = run(parse_board(CORNER_3), "two-way")
    titles = _titles(render_run(r))
    assert sum(t.startswith("press (") for t in titles) == r.clicks == 2
    assert sum(t.startswith("filled cell (") for t in titles) == 2
    assert sum(t.endswith("left on at the end") for t in titles) == r.final.count() == 2


def test_long_run_is_drawn_one_frame_per_row():
    r = run(random_solvable(7, 2), "three-k-plus-one")
    assert r.clicks > 64
    titles = _titles(render_run(r))
    assert sum(t.startswith("press (") for t in titles) == r.clicks
    rows = [t for t in titles if t.startswith("row ") and "is cleared" in t]
    assert 1 < len(rows) < r.clicks


def test_too_large_to_draw_is_a_one_line_error():
    with pytest.raises(ToggleSizeError):
        render_board(Board.from_cells(np.zeros((200, 200), dtype=np.uint8)))
