"""The walker's witness: one completion of the current state, carried from step to step and repaired locally.

A *witness* is a line from the head through every free cell to the end
corner (a completion), kept as a perfect 2-matching of the free cells (a
4-bit mask of the line's directions per cell) with labels increasing along
it (:mod:`labyrinth.rules._repair`). It proves moves *live* without asking
any other rule:

* the witness's own first step is live (the rest of the witness completes it);
* another move breaks two of its edges; augmenting paths mend the degrees
  and the cycles left are patched over unit squares (:func:`_trial.repair`),
  or the line is re-routed exactly in a small window round the cell entered
  (:mod:`labyrinth.rules._reroute`, asked by :func:`query_reroute` after
  the cheap rules);
* a move after which no augmenting path mends the degrees has no perfect
  2-matching, so no completion: it is *dead* (the two-matching rule).

Every change during a trial is logged and undone
(:mod:`labyrinth.rules._twomatch`), so asking about a move costs the
repair's local work, not a copy of the board. The state the witness
belongs to is kept as a snapshot of ``taken`` (``TK``); :func:`sync`
compares it with the state it is given: the same state; one step on (the
walker took a move: the witness advances, or the move's repair is replayed
and only the cells it moved are labelled again); or anything else (rebuilt:
a 2-matching from scratch, patched over the whole board, cycles left taken
in by re-routing round them, :func:`mend`). A line is checked cell by cell
whenever it is read whole, so a verdict never rests on a stale structure.
"""

import numpy as np
from numba import njit

from labyrinth.rules import _repair, _trial
from labyrinth.rules._repair import (
    BUF,
    CTRL,
    DEAD,
    FAILS,
    KDIR,
    KVER,
    LAB,
    LASTF,
    LIVE,
    MATCHING,
    MATE,
    MODE,
    NONE,
    ONL,
    OSTAMP,
    PATH,
    REROUTED,
    ROWS,
    TK,
    UNKNOWN,
    VER,
    WFREE,
    WHEAD,
    read,
    retrace,
    successor,
)
from labyrinth.rules._reroute import absorb, splice
from labyrinth.rules._twomatch import OTHER, SEEN, as_path, augment, build, fresh_mark, is_line, log_start, need, undo
from labyrinth.rules._twomatch import stamp as _seen_stamp

__all__ = ["BUF", "CTRL", "DEAD", "LIVE", "MATCHING", "MATE", "MODE", "NONE", "PATH", "ROWS", "UNKNOWN", "as_path",
           "augment", "build", "install", "is_line", "mend", "move_witness", "query", "query_reroute", "recover_due", "recovered", "sync"]

#: the bands (cells round a cycle) and search nodes :func:`mend` takes a cycle into the line with
#: (a pocket the line's pieces cannot fill in a narrow band often fills in a wider one: wider bands cost little
#: more, as the search is pruned by degrees)
_BANDS = ((1, 500), (2, 2000), (3, 4000), (5, 6000), (7, 10000))
#: a cycle :func:`mend` cannot absorb whole is spliced into the line through windows on it, (radius, search nodes)
#: in turn, at most ``_SPLICE_TRIES`` windows each (:func:`labyrinth.rules._reroute.splice`)
_SPLICES = ((3, 20000), (4, 20000))
_SPLICE_TRIES = 8
#: at most this many steps between two attempts to turn a 2-matching into a line (:func:`recover_due`)
_MAX_WAIT = 256


@njit(cache=True)
def install(nb, end, taken, head, free_left, m, w):
    """Make the line ``m`` (checked with :func:`is_line`) the witness of the state :func:`sync` last kept; True if it is one."""
    if not is_line(nb, end, taken, head, free_left, m, w):
        return False
    w[MATE, :] = m
    read(nb, end, head, free_left, w)
    w[CTRL, MODE] = PATH
    return True


@njit(cache=True, inline="always")
def _onl_stamp(w):
    return fresh_mark(w, ONL, CTRL, OSTAMP)


@njit(cache=True)
def _line_piece(nb, head, w, mark):
    """Label the line piece of ``MATE`` from the head (0, 1, 2, ...) and mark its cells ``mark`` in ``ONL``; how
    many cells follow the head."""
    m = w[MATE]
    lab = w[LAB]
    onl = w[ONL]
    d = -1
    for e in range(4):
        if (m[head] >> e) & 1:
            d = e
    cur = head
    j = 0
    lab[head] = 0
    onl[head] = mark
    limit = m.shape[0]
    while d >= 0 and j < limit:
        cur = nb[cur, d]
        j += 1
        lab[cur] = j
        onl[cur] = mark
        d = OTHER[4 * m[cur] + (d ^ 1)]
    return j


@njit(cache=True)
def mend(nb, end, taken, head, free_left, w):
    """Make the perfect 2-matching in ``MATE`` one line (a witness): unit squares, then cycles taken up locally.

    First Karp's patching over the whole board (:func:`as_path`); then each
    cycle left is taken into the line by an exact re-routing of the line's
    pieces in a band round it (:func:`labyrinth.rules._reroute.absorb`).
    True if ``MATE`` is then a line (labelled: the mode is PATH).
    """
    m = w[MATE]
    if as_path(nb, end, taken, head, free_left, m, w) and read(nb, end, head, free_left, w):
        return True
    size = taken.shape[0]
    mark = _onl_stamp(w)
    last = _line_piece(nb, head, w, mark)
    progress = True
    while progress and last < free_left:
        progress = False
        tried = _seen_stamp(w)
        for a in range(size):
            if last == free_left:
                break
            if need(taken, end, head, a) != 2 or w[ONL, a] == mark or w[SEEN, a] == tried:
                continue
            # ``a`` lies on a cycle: try to take it into the line, in wider and wider bands, then through a window
            done = False
            for band, budget in _BANDS:
                if absorb(nb, end, head, free_left, m, w[LAB], taken, w[ONL], mark, a, band, w,
                          _trial.window_stamp(w), budget, w[BUF]):
                    done = True
                    break
            if done or _splice_cycle(nb, end, taken, head, free_left, m, w, mark, a):
                m[:] = w[BUF]
                mark = _onl_stamp(w)
                last = _line_piece(nb, head, w, mark)
                progress = True
            else:
                _mark_cycle(nb, m, a, w, tried)
    return last == free_left and read(nb, end, head, free_left, w)


@njit(cache=True)
def _splice_cycle(nb, end, taken, head, free_left, m, w, mark, a):
    """Take the cycle of ``m`` through ``a`` into the line (cells ``mark`` in ``ONL``) through a window on it
    (:func:`labyrinth.rules._reroute.splice`): windows of each radius of ``_SPLICES`` at up to ``_SPLICE_TRIES``
    cells of the cycle beside the line, spaced along it; True if one worked (the new 2-matching in ``BUF``)."""
    size = m.shape[0]
    n = int(np.sqrt(size) + 0.5)
    onl = w[ONL]
    first = -1
    for e in range(4):
        if (m[a] >> e) & 1:
            first = e
            break
    for radius, budget in _SPLICES:
        d = first
        cur = a
        tries = 0
        wait = 0
        steps = 0
        while d >= 0 and tries < _SPLICE_TRIES and steps <= size:
            if wait > 0:
                wait -= 1
            else:
                for e in range(4):
                    y = nb[cur, e]
                    if y >= 0 and onl[y] == mark and y != head:
                        tries += 1
                        wait = radius
                        if splice(nb, n, end, head, free_left, m, w[LAB], taken, onl, mark, cur, radius, w,
                                  _trial.window_stamp(w), budget, w[BUF]):
                            return True
                        break
            cur = nb[cur, d]
            d = OTHER[4 * m[cur] + (d ^ 1)]
            steps += 1
            if cur == a:
                break
    return False


@njit(cache=True)
def _mark_cycle(nb, m, a, w, mark):
    """Mark the cells of the cycle of ``m`` through ``a`` in ``SEEN`` (a cycle tried once a pass)."""
    d = -1
    for e in range(4):
        if (m[a] >> e) & 1:
            d = e
            break
    cur = a
    while d >= 0 and w[SEEN, cur] != mark:
        w[SEEN, cur] = mark
        cur = nb[cur, d]
        d = OTHER[4 * m[cur] + (d ^ 1)]


@njit(cache=True)
def _settle(nb, end, taken, head, free_left, w, ok_matching):
    """After ``MATE`` changed for the state (``taken``, ``head``): the mode it is in, labelled if a line."""
    if not ok_matching:
        w[CTRL, MODE] = NONE
        return NONE
    if read(nb, end, head, free_left, w) or (recover_due(w, free_left) and mend(nb, end, taken, head, free_left, w)):
        w[CTRL, MODE] = PATH
        return PATH
    w[CTRL, MODE] = MATCHING
    return MATCHING


@njit(cache=True, inline="always")
def recover_due(w, free_count):
    """Is it time to try again to make the 2-matching a line? Failed attempts back off exponentially (1, 2, 4, ...
    steps, at most ``_MAX_WAIT``): a walk that keeps a 2-matching for many steps pays for few global patchings."""
    fails = w[CTRL, FAILS]
    last = w[CTRL, LASTF]
    if fails <= 0 or free_count > last:  # none failed, or a new walk
        return True
    return last - free_count >= min(1 << fails, _MAX_WAIT)


@njit(cache=True, inline="always")
def recovered(w, ok, free_count):
    """Record an attempt's outcome for :func:`recover_due`."""
    if ok:
        w[CTRL, FAILS] = 0
    else:
        fails = w[CTRL, FAILS]
        w[CTRL, FAILS] = 1 if (fails <= 0 or free_count > w[CTRL, LASTF]) else min(fails + 1, 16)
        w[CTRL, LASTF] = free_count


@njit(cache=True)
def _keep_state(taken, head, free_count, w):
    tk = w[TK]
    for i in range(taken.shape[0]):
        tk[i] = taken[i]
    w[CTRL, WHEAD] = head
    w[CTRL, WFREE] = free_count


@njit(cache=True)
def _start_line(taken, w):
    """The empty board's witness in ``MATE``: row by row, each the other way, joined at alternate ends (n is
    odd, so the last row, run left to right, ends in the end corner)."""
    m = w[MATE]
    size = taken.shape[0]
    n = int(np.sqrt(size) + 0.5)
    for c in range(size):
        m[c] = 0
    for y in range(n):
        for x in range(n - 1):
            a = y * n + x
            m[a] |= 8  # right
            m[a + 1] |= 4  # left
        if y < n - 1:
            a = y * n + (n - 1 if y % 2 == 0 else 0)
            m[a] |= 2  # down
            m[a + n] |= 1  # up


@njit(cache=True)
def _rebuild(nb, colour, end, taken, head, free_count, w):
    size = taken.shape[0]
    if head == 0 and free_count == size - 1:
        _start_line(taken, w)
        _keep_state(taken, head, free_count, w)
        return _settle(nb, end, taken, head, free_count, w, True)
    ok = build(nb, colour, end, taken, head, free_count, w[MATE], w)
    _keep_state(taken, head, free_count, w)
    return _settle(nb, end, taken, head, free_count, w, ok)


# --- the state: kept in step with the walker ----------------------------------------------------------------
@njit(cache=True)
def sync(nb, colour, end, taken, head, free_count, w):
    """Make the witness belong to the state (``taken`` with the head, ``free_count`` free cells); its mode.

    The same state costs one comparison of ``taken`` with the snapshot; one
    step on along the witness a constant more; one step on elsewhere the
    line the closure proved the move live by (left in ``BUF``, checked whole)
    or the move's repair (replayed where :func:`query` kept it) and new
    labels for the cells it moved; anything else a rebuild.
    """
    size = taken.shape[0]
    mode = w[CTRL, MODE]
    if mode != NONE or w[CTRL, WFREE] > 0:
        tk = w[TK]
        diff = 0
        for i in range(size):
            diff += taken[i] ^ tk[i]
        wh = w[CTRL, WHEAD]
        if diff == 0 and head == wh and w[CTRL, WFREE] == free_count:
            return mode
        version = w[CTRL, VER]
        w[CTRL, VER] += 1  # repairs kept for the moves of this witness are not replayed on another
        if diff == 1 and tk[head] == 0 and w[CTRL, WFREE] == free_count + 1 and mode != NONE:
            d = -1
            for e in range(4):
                if nb[wh, e] == head:
                    d = e
            if d >= 0:
                tk[head] = 1
                w[CTRL, WHEAD] = head
                w[CTRL, WFREE] = free_count
                m = w[MATE]
                if mode == PATH and successor(nb, w, wh) == head:
                    m[wh] = 0
                    m[head] &= ~(1 << (d ^ 1))
                    return PATH
                if (w[CTRL, KVER] == version and w[CTRL, KDIR] == d
                        and install(nb, end, taken, head, free_count, w[BUF], w)):
                    # the closure proved this move live by a line (left in BUF, checked whole here)
                    return PATH
                # the repair reads the state before the step (old head ``wh``) with the cell entered taken
                if mode == PATH:
                    if _trial.replay_repair(nb, w, d, version):
                        if retrace(nb, end, head, free_count, w) or read(nb, end, head, free_count, w):
                            return PATH
                        undo(w, m)
                    verdict = _trial.trial(nb, end, taken, wh, free_count + 1, d, w)
                    if verdict == REROUTED:
                        _trial.take_logged(w)
                        verdict = LIVE
                    if verdict == LIVE and (retrace(nb, end, head, free_count, w)
                                            or read(nb, end, head, free_count, w)):
                        return PATH
                    ok = verdict != DEAD
                else:
                    log_start(w)
                    ok = _repair.degrees(nb, end, taken, wh, free_count + 1, d, w, False)
                return _settle(nb, end, taken, head, free_count, w, ok)
    return _rebuild(nb, colour, end, taken, head, free_count, w)


@njit(cache=True)
def query(nb, colour, end, taken, head, free_count, d, w):
    """Is the move ``d`` DEAD (no perfect 2-matching after it), LIVE (a completion found) or UNKNOWN?

    The cheap repairs only (the witness's own step, augmenting paths and
    squares); :func:`query_reroute` tries the costlier re-routing, which a
    rule set asks after its cheap rules. :func:`sync` must have run for this
    state. The cell entered must be free and not the end corner.
    """
    mode = w[CTRL, MODE]
    if mode == NONE:
        return DEAD
    c = nb[head, d]
    m = w[MATE]
    if mode == PATH:
        if successor(nb, w, head) == c:
            return LIVE
        taken[c] = 1
        verdict = _trial.repair(nb, end, taken, head, free_count, d, w)
        taken[c] = 0
        if verdict == LIVE:
            _trial.keep_repair(w, d)
        undo(w, m)
        return verdict
    # a 2-matching but no line: repair it, patch it over the whole board, put it back
    buf = w[BUF]
    buf[:] = m
    taken[c] = 1
    log_start(w)
    ok = _repair.degrees(nb, end, taken, head, free_count, d, w, False)
    verdict = DEAD
    if ok:
        verdict = LIVE if as_path(nb, end, taken, c, free_count - 1, m, w) else UNKNOWN
    taken[c] = 0
    m[:] = buf
    return verdict


@njit(cache=True)
def query_reroute(nb, end, taken, head, free_count, d, w):
    """LIVE if re-routing the witness in a window round the cell the move ``d`` enters mends it, else UNKNOWN.

    Only where the witness is a line of this very state (the rule set keeps it
    in step: :func:`sync`); a rule set without one gets UNKNOWN.
    """
    if w[CTRL, MODE] != PATH or w[CTRL, WHEAD] != head or w[CTRL, WFREE] != free_count:
        return UNKNOWN
    c = nb[head, d]
    taken[c] = 1
    verdict = _trial.reroute_move(nb, end, taken, head, free_count, d, w)
    taken[c] = 0
    return LIVE if verdict == REROUTED else UNKNOWN


@njit(cache=True)
def move_witness(nb, colour, end, taken, head, free_count, d, w, out):
    """The completion a LIVE verdict of :func:`query` found for move ``d``, as direction masks in ``out``; False if none.

    For tests and explanations: the witness itself is left as it was.
    """
    mode = sync(nb, colour, end, taken, head, free_count, w)
    if mode == NONE:
        return False
    c = nb[head, d]
    m = w[MATE]
    saved = m.copy()
    taken[c] = 1
    if mode == PATH:
        verdict = _trial.trial(nb, end, taken, head, free_count, d, w)
        if verdict == REROUTED:
            m[:] = w[BUF]
            verdict = LIVE
    else:
        log_start(w)
        verdict = UNKNOWN if _repair.degrees(nb, end, taken, head, free_count, d, w, False) else DEAD
    if verdict == UNKNOWN and as_path(nb, end, taken, c, free_count - 1, m, w):
        verdict = LIVE
    taken[c] = 0
    out[:] = m
    m[:] = saved
    log_start(w)
    return verdict == LIVE
