"""A rule set compiled to arrays and decided in numba: the walker's fast path.

:func:`rule_masks` is the single place where a rule code (:mod:`labyrinth.rules.codes`)
meets its kernel; the compiled :func:`decide` and :func:`choose`, :func:`attribute`
and the per-rule explanations (:func:`rule_effects`, used by :meth:`RuleSet.decide`)
all go through it, so the fast walker and the explanations cannot disagree. The one
shortcut: :func:`decide` matches a run of pattern rules against one window
(:func:`_pattern_run`, the same verdicts as :func:`rule_masks` rule by rule).
"""

import numpy as np
from numba import njit

from labyrinth.engine.graph import CULPRIT
from labyrinth.engine.board import MOVES
from labyrinth.rules import _recover, _repair, _witness, areas, codes
from labyrinth.rules._lines import lines_masks
from labyrinth.rules._random import GOLDEN as _GOLDEN, mix as _mix
from labyrinth.rules.areas import area_verdict
from labyrinth.rules.base import FORCE, CompiledRule, Effect
from labyrinth.rules.closure import closure_masks
from labyrinth.rules.cshape import cshape
from labyrinth.rules.cut import cut_masks
from labyrinth.rules.exact_areas import areas_masks
from labyrinth.rules.frame import Tables
from labyrinth.rules.matching import matching_masks
from labyrinth.rules.patterns import (
    INNER_DONE,
    OUTER_DONE,
    WINDOW_LEN,
    PatternTable,
    match_pattern,
    variant_matches,
    window_bits,
)
from labyrinth.rules.probe import probe_masks
from labyrinth.rules import window as windows
from labyrinth.rules.window import window_masks

__all__ = ["Program", "attribute", "choose", "decide", "rule_effects", "rule_masks"]

_UNKNOWN = -100
#: the bit of :func:`_ask`'s answer that says a rule forced the move (the state has no other way on)
_FORCED = 1 << 16
MAX_TRIGGERS = 64


@njit(cache=True, inline="always")
def rule_masks(code, nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window, trig, ntrig,
               moves):
    """What rule ``code`` says about the moves ``moves`` (bits 0-3): the one dispatch from a code to its kernel.

    Returns the moves it disables (bits 0-3), forces (bits 4-7) and, for a
    certifying rule (:data:`codes.MATCHING_CERTIFY`, :data:`codes.CLOSURE`),
    proves live (bits 8-11); trigger cells go to ``trig``. ``pat`` is the
    pattern table's :class:`~labyrinth.rules.patterns.PatternArrays`.
    ``area`` caches the area analysis per direction (status, two bounding cells)
    so that the four area rules share one analysis per step (``area[4, 0]`` is
    the analysis' reach, LOCAL or GLOBAL; ``area[4, 1:3]`` the walker kernels'
    bookkeeping of cut cells, see :func:`labyrinth.rules.areas.track_init`); ``window[INNER_DONE]``
    is nonzero once ``window[:4]`` holds the pattern window of this state (:mod:`labyrinth.rules.patterns`).
    ``ntrig[d]`` is written for each move ``d`` the rule disables or forces
    (the callers that read triggers start from zeros: :func:`rule_effects`).
    """
    if code >= codes.PATTERN_BASE:
        if window[INNER_DONE] == 0:
            window_bits(n, end, taken, head, heading, window)
        return match_pattern(code - codes.PATTERN_BASE, n, end, taken, head, heading, window, pat, trig, ntrig)
    if code == codes.CSHAPE:
        return cshape(nb, end, taken, head, trig, ntrig) << 4
    if code == codes.LINES:
        return lines_masks(nb, end, taken, head, free_count, moves, scratch, trig, ntrig)
    if code == codes.MATCHING or code == codes.MATCHING_CERTIFY:
        return matching_masks(nb, colour, end, taken, head, free_count, moves, scratch, trig, ntrig,
                              code == codes.MATCHING_CERTIFY)
    if code == codes.CLOSURE:
        return closure_masks(nb, colour, end, taken, head, free_count, moves, scratch, trig, ntrig)
    if codes.PROBE <= code < codes.PROBE + codes.PROBE_MAX_DEPTH:
        return probe_masks(nb, colour, end, taken, head, free_count, moves, scratch, trig, ntrig,
                           code - codes.PROBE + 1, False)
    if codes.PROBE_CUT <= code < codes.PROBE_CUT + codes.PROBE_MAX_DEPTH:
        return probe_masks(nb, colour, end, taken, head, free_count, moves, scratch, trig, ntrig,
                           code - codes.PROBE_CUT + 1, True)
    if code == codes.CUT:
        return cut_masks(nb, colour, end, taken, head, free_count, moves, scratch, trig, ntrig)
    if codes.WINDOW_BASE < code <= codes.WINDOW_BASE + codes.WINDOW_MAX_RADIUS:
        return window_masks(nb, n, end, taken, head, code - codes.WINDOW_BASE, moves, window, trig, ntrig)
    if code == codes.EXACT_AREAS:
        return areas_masks(nb, n, end, taken, head, free_count, moves, scratch, window, trig, ntrig)
    # an area rule: one analysis per state shared by the four, then this rule's verdicts
    _area_verdicts(nb, colour, n, end, taken, head, free_count, scratch, area, moves)
    out = 0
    for d in range(4):
        c = nb[head, d]
        if c < 0 or taken[c]:
            continue
        if _closes(code, area[d, 0]):
            out |= 1 << d
            trig[d, 0] = c
            k = 1
            for j in range(1, 3):
                if area[d, j] >= 0 and area[d, j] != c:
                    trig[d, k] = area[d, j]
                    k += 1
            ntrig[d] = k
    return out


@njit(cache=True, inline="always")
def _area_verdicts(nb, colour, n, end, taken, head, free_count, scratch, area, moves):
    """Analyse the areas of the moves ``moves`` not analysed yet at this state, into ``area[d, 0:3]``.

    The four area rules share one analysis per step; its order (directions 0
    to 3) is the same whichever area rule asks first. A move left out keeps
    the verdict PASS.
    """
    for d in range(4):
        c = nb[head, d]
        if c < 0 or taken[c] or area[d, 0] != _UNKNOWN:
            continue
        if not (moves >> d) & 1:
            area[d, 0] = areas.PASS_
            continue
        scratch[CULPRIT, 0] = -1
        scratch[CULPRIT, 1] = -1
        area[d, 0] = area_verdict(nb, colour, n, end, taken, head, d, free_count, scratch, area)
        area[d, 1] = scratch[CULPRIT, 0]
        area[d, 2] = scratch[CULPRIT, 1]


@njit(inline="always")
def _closes(code, status):
    """True if the area rule ``code`` disables a move whose area analysis says ``status``."""
    return ((code == areas.NEAR_BORDER and status == areas.SEALED)
            or (code == areas.OLDER_LINE and status == areas.SEALED_BY_LINE)
            or (code == areas.COUNT_AREA and status == areas.PARITY)
            or (code == areas.COLOUR_IMBALANCE and status == areas.COLOUR))


@njit(inline="always")
def _start(nb, taken, head, area, window):
    """The free moves' bit mask at ``head``; forgets the previous state's area and window results."""
    free = 0
    for d in range(4):
        c = nb[head, d]
        if c >= 0 and not taken[c]:
            free |= 1 << d
        area[d, 0] = _UNKNOWN
    window[INNER_DONE] = 0
    window[OUTER_DONE] = 0
    return free


@njit(cache=True, inline="always")
def _sound(order):
    """True for the compiled form of a rule set whose rules are all sound (its two-matching certifies)."""
    for k in range(order.shape[0]):
        if order[k] == codes.MATCHING_CERTIFY:
            return True
    return False


@njit(cache=True, inline="always")
def _prepare(order, nb, colour, end, taken, head, free_count, scratch, area, window):
    """The free moves' mask; forgets the last state's caches and keeps a sound set's witness in step."""
    free = _start(nb, taken, head, area, window)
    if _sound(order):
        # the witness follows every step, forced ones too (a step it missed costs a rebuild); where the
        # walker took a move no repair proved, the closure's fixed point is patched into one
        # (attempts that fail back off: :func:`labyrinth.rules._witness.recover_due`)
        mode = _witness.sync(nb, colour, end, taken, head, free_count, scratch)
        if mode == _witness.PATH:
            _witness.recovered(scratch, True, free_count)
        elif mode == _witness.MATCHING and _witness.recover_due(scratch, free_count):
            _witness.recovered(scratch, _recover.closure_witness(nb, colour, end, taken, head, free_count, scratch),
                               free_count)
    return free


@njit(cache=True, inline="always")
def decide(order, nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window, trig, ntrig):
    """Bit mask of the open moves: rules asked in ``order``; a force ends the asking.

    Same semantics as :meth:`labyrinth.rules.base.RuleSet.decide`.
    """
    free = _prepare(order, nb, colour, end, taken, head, free_count, scratch, area, window)
    return _ask(order, nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window, trig, ntrig,
                free, 0) & 15


@njit(cache=True, inline="always")
def _nth(mask, k):
    """The direction of the ``k``-th set bit of ``mask`` (U, D, L, R order)."""
    for d in range(4):
        if (mask >> d) & 1:
            if k == 0:
                return d
            k -= 1
    return -1


@njit(cache=True, inline="always")
def _count(mask):
    k = 0
    for d in range(4):
        k += (mask >> d) & 1
    return k


@njit(cache=True)
def choose(order, nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window, trig, ntrig,
           rng):
    """The move a random walk takes here, uniformly among the open ones (-1: stuck), and the random state after.

    A set with unsound rules decides every move (:func:`decide`) and draws
    one of the open moves. A sound set draws its free moves in a random
    order and takes the first open one, asking about one move at a time:
    the same uniform choice among the open moves (each order of the
    candidates is equally likely, so each open move is first among the open
    ones equally often), with the moves after it never asked about.
    :func:`labyrinth.engine.walker.random_walk` draws the same way for a
    sound set decided in Python, so a set that gives the same answers walks
    the same walk.
    """
    if not _sound(order):
        mask = decide(order, nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window, trig,
                      ntrig)
        if mask == 0:
            return -1, rng
        rng += _GOLDEN
        return _nth(mask, int(_mix(rng) % np.uint64(_count(mask)))), rng
    free = _prepare(order, nb, colour, end, taken, head, free_count, scratch, area, window)
    entry = rng
    # a pausing walk: moves checked outside at this state (closed, or left open), and whether to stop at the others
    ctrl = _repair.CTRL
    outside = scratch[ctrl, _repair.ASK] != 0
    known = scratch[ctrl, _repair.OUT_CLOSED] if outside else 0  # moves whose verdict is known
    opened = 0
    live = scratch[ctrl, _repair.OUT_OPEN] if outside else 0  # moves no outside check has to see
    asked = 0  # the rules asked already: the C-shape's force is known for the whole state
    if order[0] == codes.CSHAPE:
        asked = 1
        forced = cshape(nb, end, taken, head, trig, ntrig) & free
        if forced:
            # the study's C-shape: one forced move is the only open one, two leave none
            known = free
            opened = forced if forced & (forced - 1) == 0 else 0
            live = opened  # forced: as after a rule's force, no outside check
    cand = free
    while cand:
        rng += _GOLDEN
        d = _nth(cand, int(_mix(rng) % np.uint64(_count(cand))))
        bit = 1 << d
        if not known & bit:
            known |= bit
            got = _ask(order, nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window,
                       trig, ntrig, bit, asked)
            opened |= got & 15
            live |= (got >> 8) & 15
            if got & _FORCED:
                live |= got & 15  # a forced move needs no outside check: dead, it leaves the state as dead as it was
        if opened & bit:
            if outside and not live & bit:
                # open, not forced, and no rule proved it live: the walker stops here to have it checked outside,
                # and draws again from the same random state once the verdict is in (the same walk)
                scratch[ctrl, _repair.PENDING] = d
                return -2, entry
            return d, rng
        cand &= ~bit
    return -1, rng


@njit(cache=True)
def _ask(order, nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window, trig, ntrig, free,
         first):
    """The rules ``order[first:]`` asked about the moves ``free`` at a prepared state: the open ones' mask (bits 0-3),
    those of them a certifying rule proved live (bits 8-11), and :data:`_FORCED` when a rule forced the move.

    A rule is asked only about the moves still open and not proven live (a
    certifying rule found a completion: no other rule is asked about them);
    once none is left, no rule is asked at all. The rules before ``first``
    were asked by the caller, about the whole state (the C-shape in :func:`choose`).
    """
    disabled = 0
    forced = 0
    live = 0
    i = first
    count = order.shape[0]
    while i < count:
        if free & ~disabled & ~live == 0:
            break  # every move asked about is closed or proven live: a later rule has nothing to say
        code = order[i]
        if code >= codes.PATTERN_BASE:
            # a run of pattern rules is matched in one call, against one window
            j = i
            while j < count and order[j] >= codes.PATTERN_BASE:
                j += 1
            if window[INNER_DONE] == 0:
                window_bits(n, end, taken, head, heading, window)
            m = _pattern_run(order, i, j, free, n, end, taken, head, heading, window, pat, trig, ntrig)
            i = j
        else:
            m = rule_masks(code, nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window,
                           trig, ntrig, free & ~disabled & ~live)
            live |= (m >> 8) & 15
            m &= 255
            i += 1
        disabled |= m & free
        f = (m >> 4) & free
        if f:
            forced = f
            break
    open_ = free & ~disabled
    if forced:
        if forced & (forced - 1):
            return 0
        return (open_ & forced) | ((live & open_ & forced) << 8) | _FORCED
    return open_ | ((live & open_) << 8)


@njit(cache=True)
def attribute(order, nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window, trig, ntrig,
              fired):
    """Add to ``fired[i]`` one per free move that rule ``order[i]`` closes here, as :meth:`RuleSet.decide` blames.

    A disable blames its rule for that move; a force blames the forcing rule
    for every other move it excludes. Rules are asked one by one in order,
    up to and with the first force (as :func:`decide` asks them).
    """
    free = _start(nb, taken, head, area, window)
    disabled = 0
    for i in range(order.shape[0]):
        m = rule_masks(order[i], nb, colour, n, end, taken, head, heading, free_count, scratch, area, pat, window,
                       trig, ntrig, 15) & 255
        hit = m & free & 15
        disabled |= hit
        for d in range(4):
            if (hit >> d) & 1:
                fired[i] += 1
        forced = (m >> 4) & free
        if forced:
            several = forced & (forced - 1)
            for d in range(4):
                if (free >> d) & 1 and not (disabled >> d) & 1 and (several or not (forced >> d) & 1):
                    fired[i] += 1
            return


@njit(cache=True)
def _pattern_run(order, i, j, free, n, end, taken, head, heading, window, pat, trig, ntrig):
    """Pattern rules ``order[i:j]`` in order: their disables, up to and with the first force.

    The window test is inlined here (a call per rule costs more than the test);
    only a rule with a matching variant goes through :func:`match_pattern`.
    """
    nmin, nmax, rule_var, forbid = pat.nmin, pat.nmax, pat.rule_var, pat.forbid
    out = 0
    w0 = window[0]
    w1 = window[1]
    w2 = window[2]
    w3 = window[3]
    for k in range(i, j):
        r = order[k] - codes.PATTERN_BASE
        if n < nmin[r] or n > nmax[r]:
            continue
        hit = False
        for v in range(rule_var[r], rule_var[r + 1]):
            if ((w0 & forbid[v, 0]) | (w1 & forbid[v, 1]) | (w2 & forbid[v, 2]) | (w3 & forbid[v, 3])) == 0:
                if variant_matches(v, n, end, taken, head, heading, window, forbid):
                    hit = True
                    break
        if not hit:
            continue
        m = match_pattern(r, n, end, taken, head, heading, window, pat, trig, ntrig)
        out |= m & 15
        if (m >> 4) & free:
            return out | (m & 0xF0)
    return out


def _reach(rules):
    """The area analysis' reach for these rules (one per rule set)."""
    reaches = {r.reach for r in rules if hasattr(r, "reach")}
    if len(reaches) > 1:
        raise ValueError("area rules of one rule set must share one reach")
    return areas.LOCAL if reaches == {"local"} else areas.GLOBAL


def _heading(state):
    return MOVES.index(state.moves[-1]) if state.steps else 1


class Program:
    """A rule set's compiled form: rule codes in order plus the pattern table.

    ``incremental=False`` switches off the walker kernels' bookkeeping that
    lets a GLOBAL area analysis skip the whole-board search where local work
    proves it would pass (the reference the tests compare against).
    ``certify=True`` (a rule set of sound rules only, such as ``strong``)
    lets the two-matching rule prove moves live by a completion, so the
    rules after it are not asked about them: no sound rule closes a live
    move, so the open moves are the same, found faster.

    >>> from labyrinth.engine import State
    >>> from labyrinth.rules import get_rule_set
    >>> get_rule_set("default").program().open_moves(State.from_moves(5, "RRRRDLLL"))
    'L'
    """

    def __init__(self, rules, incremental=True, certify=False):
        specs, order = [], []
        for rule in rules:
            if rule.code >= codes.PATTERN_BASE:
                order.append(codes.PATTERN_BASE + len(specs))
                specs.append(rule.spec)
            elif certify and rule.code == codes.MATCHING:
                order.append(codes.MATCHING_CERTIFY)
            else:
                order.append(rule.code)
        self.order = np.array(order, dtype=np.int32)
        self.patterns = PatternTable(specs)
        self.trig = np.zeros((4, MAX_TRIGGERS), dtype=np.int32)
        self.ntrig = np.zeros(4, dtype=np.int32)
        self.area = np.zeros((5, 3), dtype=np.int32)
        self.area[4, 0] = _reach(rules)
        if not incremental or certify:
            # the reference: every GLOBAL step runs the full analysis. A sound set asks its area rules only about
            # the few moves its witness neither proves live nor its two-matching refutes, so the bookkeeping that
            # makes every step's analysis cheap would cost more than it saves
            self.area[4, 1] = areas.TRACK_OFF
        # the pattern window (words 0-4), then the window rules' memo of verdicts if the set has one
        has_window = any(codes.WINDOW_BASE < c <= codes.WINDOW_BASE + codes.WINDOW_MAX_RADIUS or c == codes.EXACT_AREAS
                         for c in order)
        self.window = np.zeros(windows.memo_words() if has_window else WINDOW_LEN, dtype=np.uint64)

    def open_moves(self, state):
        """Letters of the open moves at ``state`` (U, D, L, R order)."""
        if state.at_end():
            return ""
        t = Tables.of(state.board)
        taken = np.array(state.taken, dtype=np.uint8)
        mask = decide(self.order, t.nb, t.colour, t.n, t.end, taken, state.head, _heading(state),
                      state.free_count, t.scratch(), self.area, self.patterns.arrays(), self.window, self.trig,
                      self.ntrig)
        return "".join(m for d, m in enumerate(MOVES) if mask >> d & 1)


def rule_effects(rule, state):
    """The :class:`Effect` s of one compiled rule at ``state``, with trigger cells."""
    if state.at_end():
        return []
    t = Tables.of(state.board)
    table = rule.table() if rule.code >= codes.PATTERN_BASE else _EMPTY_TABLE
    trig = np.zeros((4, MAX_TRIGGERS), dtype=np.int32)
    ntrig = np.zeros(4, dtype=np.int32)
    area = np.full((5, 3), _UNKNOWN, dtype=np.int32)
    area[4, 0] = _reach([rule])
    window = np.zeros(WINDOW_LEN, dtype=np.uint64)
    taken = np.array(state.taken, dtype=np.uint8)
    m = rule_masks(rule.code, t.nb, t.colour, t.n, t.end, taken, state.head, _heading(state), state.free_count,
                   t.scratch(), area, table.arrays(), window, trig, ntrig, 15)
    out = []
    for d, move in enumerate(MOVES):
        for kind, bit in (("disable", 1 << d), (FORCE, 1 << (d + 4))):
            if m & bit:
                cells = tuple(int(c) for c in trig[d, : ntrig[d]])
                out.append(Effect(rule.name, kind, move, cells))
    return out


_EMPTY_TABLE = PatternTable([])


# the rules' own effects() run here, where every kernel is (registered, not imported: base is below program)
CompiledRule.evaluate = staticmethod(rule_effects)
