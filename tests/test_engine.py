"""Board, state and move model: sizes, coordinates, replay and its errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from labyrinth.engine import Board, State, parse_compact
from labyrinth.errors import BoardSizeError, FormatError, PathError


@pytest.mark.parametrize("n", [1, 2, 4, 10, 0, -3, "x", "7.5"])
def test_bad_board_sizes_are_rejected(n):
    with pytest.raises(BoardSizeError):
        Board(n)


@pytest.mark.parametrize("n", [3, 5, 21, 25])
def test_board_geometry(n):
    b = Board(n)
    assert b.xy(b.start) == (1, 1) and b.xy(b.end) == (n, n)
    assert all(b.cell(*b.xy(c)) == c for c in range(b.size))
    degrees = sorted(len(b.neighbours_of(c)) for c in range(b.size))
    assert degrees.count(2) == 4 and degrees.count(3) == 4 * (n - 2)
    # the corners share a colour on odd boards: that is why a corner-to-corner path exists
    assert b.colour[b.start] == b.colour[b.end]


def test_moves_replay_to_cells():
    s = State.from_moves(5, "RRDDL")
    assert s.cells_xy() == [(1, 1), (2, 1), (3, 1), (3, 2), (3, 3), (2, 3)]
    assert s.head == s.board.cell(2, 3) and s.steps == 5 and s.free_count == 19
    assert s.open_moves() == "UDL"


@pytest.mark.parametrize("moves, reason", [
    ("L", "leaves the board"),
    ("RL", "revisits"),
    ("RX", "not a move"),
    ("DDDDD", "leaves the board"),
])
def test_impossible_paths_name_step_and_token(moves, reason):
    with pytest.raises(PathError) as err:
        State.from_moves(5, moves, source=f"5:{moves}")
    message = str(err.value)
    assert reason in message and f"5:{moves}" in message and "\n" not in message


def test_line_may_not_leave_the_end_corner():
    with pytest.raises(PathError, match="already ended"):
        State.from_moves(3, "RRDDL")
    assert State.from_moves(3, "RRDLLDRR").is_complete()


@pytest.mark.parametrize("text", ["", "7", "7:RRQ", ":RR", "8:R", "x:R", "7 RR"])
def test_malformed_compact_is_a_one_line_error(text):
    with pytest.raises((FormatError, BoardSizeError, PathError)) as err:
        parse_compact(text)
    assert "\n" not in str(err.value)


@given(st.sampled_from([3, 5, 7, 9]), st.text(alphabet="UDLR", max_size=40))
def test_compact_round_trip_or_path_error(n, moves):
    try:
        state = State.from_moves(n, moves)
    except PathError:
        return
    assert parse_compact(state.compact()) == state
    assert state.moves == moves
    assert len(set(state.path)) == len(state.path)
