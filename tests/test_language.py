"""The pattern-rule language: parsing, validation with file and line, variants, matching."""

import pytest

from labyrinth.engine import State
from labyrinth.errors import FormatError
from labyrinth.rules import LIBRARY, PatternRule, RuleSet, library_rules, load_rules, parse_rules
from labyrinth.rules.language import variants
from labyrinth.rules.mining import format_rules

DEMO = """
# a comment in the first column
name: demo
about: free cell ahead of a wall ahead: do not go straight
sizes: 5..9
mirror: no
grid:
  ? X ?
  ? x ?
  ? H ?
  ? # ?
"""


def test_parse_a_rule():
    (spec,) = parse_rules(DEMO, source="demo.rule")
    assert spec.name == "demo" and spec.kind == "disable" and spec.marks == ((0, -1),)
    assert (spec.nmin, spec.nmax, spec.sizes) == (5, 9, "5..9")
    assert spec.applies_to(7) and not spec.applies_to(11)
    assert spec.line == 3 and spec.grid[0] == "? X ?"


@pytest.mark.parametrize("text, line, reason", [
    ("name: a\ngrid:\n  x H\n  ? Q\n", 4, "unknown symbol 'Q'"),
    ("name: a\ngrid:\n  x H H\n", 3, "exactly one H"),
    ("name: a\ngrid:\n  x ? H\n", 3, "left, straight ahead or right"),
    ("name: a\ngrid:\n  x H f\n", 3, "mixes x and f"),
    ("name: a\ngrid:\n  ? H ?\n", 3, "marks no move"),
    ("name: a\ngrid:\n  x H\n  ? ? ?\n", 4, "grid row has 3 cells"),
    ("name: a\ncolour: red\n", 2, "expected one of"),
    ("name: a\nsizes: banana\ngrid:\n  x H\n", 2, "sizes must be"),
    ("name: a\nmirror: maybe\ngrid:\n  x H\n", 2, "mirror: must be"),
    ("name: a\ngrid:\n  x H\n  ? .\n", 4, "previous cell"),
    ("name: a\ngrid:\n  x H ? ? ?\n", 3, None),
    ("name: a\ngrid:\n  x H ? ? ? ? ? X\n", 3, "at most 5"),
    ("name: a\ngrid:\n  x H\nname: a\ngrid:\n  x H\n", 4, "defined twice"),
    ("sizes: 7\n", 1, "before the first name"),
])
def test_errors_name_file_line_and_reason(text, line, reason):
    if reason is None:
        parse_rules(text, source="r.rule")
        return
    with pytest.raises(FormatError) as err:
        parse_rules(text, source="r.rule")
    message = str(err.value)
    assert message.startswith(f"r.rule:{line}") and "\n" not in message
    assert __import__("re").search(reason, message), message


def test_load_rules_reports_a_missing_file(tmp_path):
    with pytest.raises(FormatError, match="cannot read"):
        load_rules(tmp_path / "missing.rule")


def test_variants_mirror_and_rotate():
    (spec,) = parse_rules("name: a\nmirror: yes\nrotate: both\ngrid:\n  ? X\n  x H\n  ? #\n")
    vs = variants(spec)
    assert len(vs) == 6  # three turns, each mirrored
    (plain,) = parse_rules("name: a\nmirror: no\ngrid:\n  ? X\n  x H\n  ? #\n")
    assert len(variants(plain)) == 1
    (symmetric,) = parse_rules("name: a\nmirror: yes\ngrid:\n  ? X ?\n  ? x ?\n  ? H ?\n")
    assert len(variants(symmetric)) == 1  # its mirror image is itself


def test_a_pattern_matches_in_the_walkers_frame_for_every_heading():
    # wall two ahead, free cell ahead: 'x' disables going straight, whatever the heading
    (spec,) = parse_rules(DEMO)
    rule = PatternRule(spec)
    rules = RuleSet("demo", [rule])
    cases = {"DDDDD": "D", "RRRRRRDLLLLL": "L", "DDDDDDRRUUUUU": "U", "DDRRRRR": "R"}
    for moves, straight in cases.items():
        state = State.from_moves(7, moves)
        assert state.moves[-1] == straight
        assert [e.move for e in rule.effects(state)] == [straight], moves
        assert straight not in rules.open_moves(state) and rules.open_moves(state)
    # one step earlier the cell two ahead is free: no match
    assert rule.effects(State.from_moves(7, "DDDD")) == []


def test_the_shipped_library_lints_and_round_trips(tmp_path):
    specs = [r.spec for r in library_rules()]
    assert specs and all(s.kind in ("disable", "force") for s in specs)
    for path in LIBRARY.glob("*.rule"):
        load_rules(path)
    again = tmp_path / "again.rule"
    again.write_text(format_rules(specs))
    assert [(s.name, s.cells, s.marks, s.nmin, s.nmax, s.mirror) for s in load_rules(again)] == \
        [(s.name, s.cells, s.marks, s.nmin, s.nmax, s.mirror) for s in specs]


def test_a_rule_reaching_into_the_outer_ring_matches_exactly_there():
    # 'x' straight ahead, and the cell five ahead must be the border: it closes the step exactly when the
    # board's edge lies five cells ahead of the head (the ring beyond the 7x7 core is read for it)
    from labyrinth.engine.walker import random_walk
    from labyrinth.rules import PatternRule, get_rule_set

    spec = parse_rules("name: far\ngrid:\n  B\n  ?\n  ?\n  ?\n  x\n  H\n", source="far.rule")[0]
    rule = PatternRule(spec)
    hits = 0
    for i in range(20):
        walk = random_walk(11, get_rule_set("universal"), 1, index=i)
        for k in range(1, walk.state.steps):
            state = walk.state.prefix(k)
            step = state.moves[-1]
            dx, dy = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}[step]
            x, y = state.board.xy(state.head)
            ahead = (x + dx, y + dy)
            far = (x + 5 * dx, y + 5 * dy)
            expected = (state.board.on_board(*ahead) and not state.taken[state.board.cell(*ahead)]
                        and not state.board.on_board(*far))
            got = step in {e.move for e in rule.effects(state)}
            assert got == expected, state.compact()
            hits += got
    assert hits > 0
