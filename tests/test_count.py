"""Exact counting, walkthrough numbers and uniform sampling (oracle.count, oracle.rank, the CLI).

Every count is checked against something independent: OEIS A001184 for
whole boards, a memoised brute-force count on small boards, the kernel's
own symmetry and sum rules on larger ones, and the keep-left enumerator
(``enumerate_walks``) for walkthrough numbers.
"""

import json
import math
import random
import re
from functools import cache

import numpy as np
import pytest
from brute import reachable_states, state_mask
from conftest import CORPUS

from labyrinth.cli import main
from labyrinth.engine import Board, State
from labyrinth.engine.formats import load_trace
from labyrinth.engine.frame import heading, keep_left_order
from labyrinth.engine.walker import enumerate_walks
from labyrinth.errors import LabyrinthError
from labyrinth.rules import get_rule_set
from oracle import (
    CompletionCounter,
    count_completions,
    count_paths,
    sample_walkthrough,
    walkthrough_rank,
    walkthrough_unrank,
)
from oracle import _count_kernel as kernel
from oracle.count import Snapshots

#: OEIS A001184: Hamiltonian paths from corner to opposite corner of the n x n grid, n odd
A001184 = {
    3: 2,
    5: 104,
    7: 111_712,
    9: 2_688_307_514,
    11: 1_445_778_936_756_068,
    13: 17_337_631_013_706_758_184_626,
}
_FLIP = str.maketrans("UDLR", "LRUD")  # reflection in the main diagonal: x <-> y


# --- references ---------------------------------------------------------------------------------------
@cache
def brute_counter(n):
    """Memoised exhaustive count of completions, ``count(taken mask, head)``."""
    board = Board(n)
    full = (1 << board.size) - 1
    nbrs = [board.neighbours_of(c) for c in range(board.size)]

    @cache
    def count(mask, head):
        if head == board.end:
            return 1 if mask == full else 0
        return sum(count(mask | 1 << w, w) for w in nbrs[head] if not mask >> w & 1)

    return count


def brute_count(state):
    return brute_counter(state.n)(state_mask(state), state.head)


def keep_left_listing(n):
    """Every walkthrough of the n x n board in keep-left order, by plain depth-first search."""
    out = []

    def walk(state):
        if state.is_complete():
            out.append(state)
            return
        for move in keep_left_order(heading(state)):
            if move in state.open_moves():
                walk(state.after(move))

    walk(State.from_moves(n, ""))
    return out


def enumerator_rank(state, rules):
    """Walkthroughs before ``state`` recounted by the enumerator: its earlier siblings' subtrees."""
    node, total = State(state.board), 0
    for move in state.moves:
        for earlier in keep_left_order(heading(node)):
            if earlier == move:
                break
            if earlier in node.open_moves():
                total += enumerate_walks(node.after(earlier), rules).walkthroughs
        node = node.after(move)
    return total


def random_prefix(n, rng, counter):
    """A uniformly random walkthrough cut at a random step (alive by construction)."""
    _, state = sample_walkthrough(n, rng.randrange(1 << 30), counter)
    return state.prefix(rng.randrange(state.steps + 1))


def random_line(n, rng):
    """A random self-avoiding line from the start until it is stuck or at the end (often dead)."""
    state = State.from_moves(n, "")
    for _ in range(rng.randrange(n * n)):
        moves = state.open_moves()
        if not moves:
            break
        state = state.after(rng.choice(moves))
    return state


def transposed(state):
    return State.from_moves(state.n, state.moves.translate(_FLIP))


def brute_grid_paths(kind, width, height):
    """Hamiltonian paths between the two terminals of a small grid, by exhaustive search."""
    cells = [c for c in range(width * height) if kind[c] != kernel.OBSTACLE]
    a, b = [c for c in cells if kind[c] == kernel.TERMINAL]

    def nbrs(c):
        y, x = divmod(c, width)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= x + dx < width and 0 <= y + dy < height and kind[c + dy * width + dx] != kernel.OBSTACLE:
                yield c + dy * width + dx

    def walk(c, seen):
        if c == b:
            return 1 if len(seen) == len(cells) else 0
        return sum(walk(d, seen | {d}) for d in nbrs(c) if d not in seen)

    return walk(a, {a})


def sweep_count(kind, width, height, limbs=2):
    words, overflow, _ = kernel.sweep(width, height, np.asarray(kind, dtype=np.int8), limbs)
    assert not overflow
    return sum(int(w) << (kernel.BITS * i) for i, w in enumerate(words))


# --- counts -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", sorted(A001184))
def test_board_counts_are_oeis_a001184(n):
    assert count_paths(n) == A001184[n]


def test_counts_match_brute_force_on_5x5_states():
    states = reachable_states(5)
    rng = random.Random(5)
    counter = CompletionCounter()  # resumes sweeps from frontiers stored for other states
    for state in rng.sample(states, 1500):
        expected = brute_count(state)
        assert count_completions(state) == expected, state
        assert count_completions(state, prune=False) == expected, state
        assert counter(state) == expected, state
    assert counter.snapshots.hits > 0


def test_counts_match_brute_force_on_7x7_lines():
    rng = random.Random(7)
    counter = CompletionCounter()
    states = [random_prefix(7, rng, counter) for _ in range(60)] + [random_line(7, rng) for _ in range(60)]
    states = [s for s in states if s.free_count <= 30]  # keeps the exhaustive count fast
    assert len(states) >= 40
    assert any(brute_count(s) == 0 for s in states) and any(brute_count(s) > 1 for s in states)
    fresh = CompletionCounter()
    for state in states:
        assert count_completions(state, prune=False) == brute_count(state), state
        assert fresh(state) == brute_count(state), state


def test_kernel_counts_paths_between_any_two_terminals_with_obstacles():
    rng = random.Random(11)
    for _ in range(150):
        width, height = rng.randint(1, 5), rng.randint(1, 5)
        kind = [kernel.OBSTACLE if rng.random() < 0.2 else kernel.ORDINARY for _ in range(width * height)]
        open_cells = [c for c in range(width * height) if kind[c] != kernel.OBSTACLE]
        if len(open_cells) < 2:
            continue
        for c in rng.sample(open_cells, 2):
            kind[c] = kernel.TERMINAL
        expected = brute_grid_paths(kind, width, height)
        assert sweep_count(kind, width, height) == expected, (width, height, kind)


def test_count_is_the_sum_over_moves_and_symmetric_under_transposition():
    rng = random.Random(9)
    counter = CompletionCounter()
    for n, tries in ((9, 8), (11, 3)):
        for _ in range(tries):
            state = random_prefix(n, rng, counter)
            if state.is_complete():
                continue
            total = count_completions(state)
            assert total > 0
            assert total == sum(count_completions(state.after(m)) for m in state.open_moves())
            assert count_completions(transposed(state)) == total


def test_too_narrow_limbs_are_reported_not_wrapped():
    kind = np.full(13 * 13, kernel.ORDINARY, dtype=np.int8)
    kind[0] = kind[-1] = kernel.TERMINAL
    _, overflow, _ = kernel.sweep(13, 13, kind, 1)
    assert overflow and A001184[13] >= 1 << kernel.BITS
    assert sweep_count(kind, 13, 13, limbs=2) == A001184[13]


def test_snapshots_resume_sweeps_and_never_keep_overflowed_frontiers():
    grid = np.full((13, 13), kernel.ORDINARY, dtype=np.int8)
    grid[0, 0] = grid[-1, -1] = kernel.TERMINAL
    store = Snapshots()
    _, overflow, _ = store.sweep(grid, 1)
    assert overflow and store.rows == 0
    counter = CompletionCounter()
    start = State.from_moves(13, "")
    assert counter(start) == A001184[13]
    assert counter(start.after("R")) + counter(start.after("D")) == A001184[13]
    assert counter.snapshots.hits >= 2


def test_complete_and_finished_states():
    done = walkthrough_unrank(5, 17)
    assert count_completions(done) == 1
    early = State.from_moves(5, "DDDDRRRR")  # at the end corner with cells left
    assert count_completions(early) == 0


# --- rank and unrank ----------------------------------------------------------------------------------
def test_unrank_lists_5x5_walkthroughs_in_keep_left_order():
    listing = keep_left_listing(5)
    assert len(listing) == A001184[5]
    counter = CompletionCounter()
    for k, state in enumerate(listing):
        assert walkthrough_unrank(5, k, counter) == state
        assert walkthrough_rank(state, counter) == k


@pytest.mark.parametrize("rules, states", [("none", 25), ("default", 150)])
def test_rank_of_prefixes_agrees_with_the_enumerator_on_5x5(rules, states):
    rule_set = get_rule_set(rules)
    rng = random.Random(3)
    counter = CompletionCounter()
    for state in rng.sample(reachable_states(5), states):
        assert walkthrough_rank(state, counter) == enumerator_rank(state, rule_set), state
        assert counter(state) == enumerate_walks(state, rule_set).walkthroughs, state


def test_rank_unrank_round_trip_on_7x7():
    counter = CompletionCounter()
    rng = random.Random(77)
    numbers = [0, 1, A001184[7] - 1] + [rng.randrange(A001184[7]) for _ in range(150)]
    for k in numbers:
        state = walkthrough_unrank(7, k, counter)
        assert state.is_complete()
        assert walkthrough_rank(state, counter) == k
    # a prefix ranks with the first walkthrough that extends it
    for k in numbers[3:40]:
        state = walkthrough_unrank(7, k, counter)
        prefix = state.prefix(rng.randrange(state.steps))
        first = walkthrough_rank(prefix, counter)
        assert first <= k < first + counter(prefix)
        assert walkthrough_unrank(7, first, counter).prefix(prefix.steps) == prefix


def test_unrank_rejects_numbers_out_of_range():
    for bad in (-1, A001184[5], 10**30, 1.5, True):
        with pytest.raises(LabyrinthError):
            walkthrough_unrank(5, bad)


@pytest.mark.parametrize("path", sorted(CORPUS.glob("7_*.txt")), ids=lambda p: p.name)
def test_rank_of_7x7_corpus_files_agrees_with_the_enumerator(path):
    state = load_trace(path).state
    assert walkthrough_rank(state) == enumerator_rank(state, get_rule_set("default"))


def _numbered(prefix):
    """Corpus files named ``<n>_<walkthrough number>`` (no variant suffix), with that number."""
    out = []
    for path in sorted(CORPUS.glob(f"{prefix}_*.txt")):
        m = re.fullmatch(rf"{prefix}_(\d+)", path.stem)
        if m:
            out.append((path, int(m.group(1))))
    return out


def test_most_9x9_corpus_names_are_walkthrough_ranks():
    counter = CompletionCounter()
    files = _numbered(9)
    assert len(files) >= 50
    matched, differ = 0, []
    for path, number in files:
        state = load_trace(path).state
        rank = walkthrough_rank(state, counter)
        matched += rank == number
        if rank != number:
            differ.append((path.name, rank))
        # the research never counted past the walkthroughs that end below its position
        assert number <= rank + counter(state), path.name
    assert matched >= 0.85 * len(files), differ


def test_small_9x9_corpus_ranks_agree_with_the_enumerator():
    counter = CompletionCounter()
    default = get_rule_set("default")
    checked = 0
    for path in sorted(CORPUS.glob("9_*.txt")):
        state = load_trace(path).state
        rank = walkthrough_rank(state, counter)
        if rank <= 1000:
            assert rank == enumerator_rank(state, default), path.name
            checked += 1
    assert checked >= 3


# --- sampling -----------------------------------------------------------------------------------------
def test_samples_are_uniform_on_5x5():
    counter = CompletionCounter()
    draws = 30 * A001184[5]
    seen = {}
    for seed in range(draws):
        _, state = sample_walkthrough(5, seed, counter)
        assert state.is_complete()
        seen[state.moves] = seen.get(state.moves, 0) + 1
    assert len(seen) == A001184[5]
    expected = draws / A001184[5]
    chi2 = sum((k - expected) ** 2 / expected for k in seen.values())
    dof = A001184[5] - 1
    # far in the upper tail: about 7 standard deviations of the chi-square law
    assert chi2 < dof + 7 * math.sqrt(2 * dof), chi2


def test_sample_is_reproducible_and_ranked():
    counter = CompletionCounter()
    a = sample_walkthrough(9, 42, counter)
    assert a == sample_walkthrough(9, 42, counter)
    number, state = a
    assert state.is_complete() and state.n == 9
    assert walkthrough_rank(state, counter) == number


# --- the command line ---------------------------------------------------------------------------------
def test_cli_count_rank_unrank_sample(capsys, tmp_path):
    assert main(["count", "-n", "7"]) == 0
    assert capsys.readouterr().out.strip() == f"7x7: {A001184[7]} corner-to-corner paths"
    assert main(["count", "-n", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["paths"] == A001184[5]

    state = walkthrough_unrank(7, 1234)
    prefix = state.prefix(20)
    assert main(["count", "--moves", prefix.compact()]) == 0
    assert capsys.readouterr().out.split() == [prefix.compact() + ":", str(count_completions(prefix)), "completions"]
    assert main(["rank", "--moves", state.compact()]) == 0
    assert capsys.readouterr().out.split()[:4] == [state.compact() + ":", "walkthrough", "number", "1234"]
    assert main(["rank", "--moves", prefix.compact(), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["rank"] == walkthrough_rank(prefix) and obj["complete"] is False and obj["file"] is None
    assert main(["unrank", "-n", "7", "1234"]) == 0
    assert capsys.readouterr().out.strip() == state.compact()
    assert main(["sample", "-n", "7", "--seed", "5", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert walkthrough_unrank(7, obj["number"]).compact() == obj["state"]

    path = min(CORPUS.glob("9_*.txt"))
    assert main(["rank", str(path)]) == 0
    assert capsys.readouterr().out.split()[:4] == [str(path) + ":", "walkthrough", "number",
                                                   str(walkthrough_rank(load_trace(path).state))]
    assert main(["rank", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["file"] == str(path)


def test_cli_count_of_one_file_prints_like_a_folder(capsys, tmp_path):
    """``count FILE`` and ``count FOLDER`` print the same ``file  count`` rows (a newcomer's surprise)."""
    folder = tmp_path / "one"
    folder.mkdir()
    path = folder / "9_198.txt"
    path.write_bytes((CORPUS / "9_198.txt").read_bytes())
    assert main(["count", str(path)]) == 0
    single = capsys.readouterr().out
    assert main(["count", str(folder)]) == 0
    assert capsys.readouterr().out == single
    label, value, noun = single.split()  # labelled: a newcomer reads what the number is
    assert label == f"{path}:" and int(value) == count_completions(load_trace(path).state)
    assert noun == ("completion" if int(value) == 1 else "completions")


def test_cli_count_without_arguments_names_n(capsys):
    assert main(["count"]) == 2
    assert "-n N" in capsys.readouterr().err


@pytest.mark.parametrize("args", [
    ["count", "-n", "8"],
    ["count", "-n", "x"],
    ["count", "-n", "21"],
    ["count"],
    ["count", "-n", "5", "--moves", "5:R"],
    ["rank", "--moves", "5:RRRRDDDDL"],
    ["rank", "--moves", "5:RRQ"],
    ["rank", "BROKEN"],
    ["unrank", "-n", "5", "104"],
    ["unrank", "-n", "5", "abc"],
    ["unrank", "-n", "6", "0"],
    ["sample", "-n", "4"],
])
def test_cli_bad_input_is_one_line_and_status_2(args, capsys, tmp_path):
    if "BROKEN" in args:
        bad = tmp_path / "broken.txt"
        bad.write_text("9|1-1,1;0,1-2,7;1\n")
        args = [str(bad) if a == "BROKEN" else a for a in args]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("labyrinth: ") and len(err.strip().splitlines()) == 1, err
