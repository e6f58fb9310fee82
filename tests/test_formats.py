"""The research program's saved-path files: the whole corpus loads and writes back byte for byte."""

import pytest

from labyrinth.engine import format_trace, load_trace, parse_trace
from labyrinth.errors import FormatError, LabyrinthError


def test_every_corpus_file_loads_and_round_trips(corpus_files):
    dropped = 0
    for path in corpus_files:
        trace = load_trace(path)
        original = path.read_text(encoding="utf-8-sig").strip()
        written = format_trace(trace)
        if trace.notes:
            dropped += 1
            assert original.startswith(written + ":"), path
            assert "area-exit" in trace.notes[0]
        else:
            assert written == original, path
        assert len(trace.options) == len(trace.state.path)
    assert dropped == 6  # the 2023 files with ':EXITS'


def test_format_example_from_the_grammar():
    trace = parse_trace("5|1-1,1;0,1-2,1;1,0-2,2;3")
    assert trace.state.cells_xy() == [(1, 1), (2, 1), (2, 2)]
    assert trace.options == (("D", "R"), ("R", "D"), ("L",))
    assert trace.state.compact() == "5:RD"


def test_legacy_cell_list_and_missing_trail():
    legacy = parse_trace("5|1,1;2,1;2,2")
    assert legacy.legacy and legacy.state.moves == "RD"
    assert format_trace(legacy) == "5|1,1;2,1;2,2"
    stuck = parse_trace("5|1-1,1;0,1-2,1;1,0-2,2")
    assert stuck.options[-1] is None and format_trace(stuck) == "5|1-1,1;0,1-2,1;1,0-2,2"


def test_empty_options_in_hand_made_files():
    trace = parse_trace("5|1-1,1;-2,1;-3,1;0")
    assert trace.options == ((), (), ("D",))
    assert format_trace(trace) == "5|1-1,1;-2,1;-3,1;0"


@pytest.mark.parametrize("text, token", [
    ("", None),
    ("5", "5"),
    ("6|1-1,1", "6"),
    ("5|1-1,1;0,1-3,1", "3,1"),      # not adjacent
    ("5|1-1,1;0,1-2,1;0-1,1", "1,1"),  # revisits
    ("5|1-1,1;0,7-2,1", "0,7"),      # bad direction code
    ("5|1-1,1;0,1-2", "0,1-2"),      # bad cell
    ("5|1-2,1", "1-2,1"),            # does not start at 1,1
    ("5|1-1,1;0-1,2;0-1,3;0-1,4;0-1,5;1-2,5;1-3,5;1-4,5;1-5,5;2-5,4", "5,4"),  # leaves the end
    ("5|1-1,1;0-1,6", "1,6"),        # off the board
])
def test_malformed_files_name_source_token_reason(text, token):
    with pytest.raises(LabyrinthError) as err:
        parse_trace(text, source="case.txt")
    message = str(err.value)
    assert message.startswith("case.txt") and "\n" not in message
    if token is not None:
        assert repr(token) in message


def test_unreadable_file_is_a_format_error(tmp_path):
    missing = tmp_path / "nope.txt"
    with pytest.raises(FormatError, match="nope.txt"):
        load_trace(missing)
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(FormatError, match="bin.txt"):
        load_trace(binary)
