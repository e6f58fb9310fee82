"""Minimal stuck patterns: the fewest cell facts that alone leave a dead state without completion.

A *fact* says one thing about one cell, relative to the head: ``taken`` (the
line), ``border`` (outside the board: a taken cell beyond the edge), ``visit``
(free, so the path must pass through it) or ``end`` (the path must end there).
A set of facts is *infeasible* when no simple path from the head, avoiding the
blocked cells and passing through every ``visit`` cell (ending on the ``end``
cell if that fact is kept) exists, every other cell being optional: visited
or skipped. A dead state is its full fact set; the minimal pattern is a subset
that is still infeasible and from which no single fact can be dropped.

Soundness comes by construction: any state whose cells agree with the facts
(blocked cells taken or off its board, ``visit`` cells free, the end where
``end`` says) has no completion, because a completion would be such a path.
The search is the SAT backend's facts queries (:meth:`oracle.sat.SatOracle.decide_facts`):
a core of the solver's assumptions, then deletion (MUS by deletion, keeping
the core of every infeasible trial, as CPMpy and Marques-Silva's surveys do)
far facts first, so what stays is close to the head. A query that outruns a
conflict budget goes to the CP-SAT circuit model (:mod:`oracle.cpsat_facts`):
the dead states that need a search (a refutation by parity over a wide area)
are hard for clause learning and easier for the circuit propagator.

The solver works on the board with a margin of optional cells around it (the
border facts live there). Space beyond the margin could only matter to a path
that leaves the facts' bounding box and comes back around it; such excursions
nest, at most one per pair of cells on the box's rim, so a margin of the box's
width plus height is enough for the plane: :func:`verify_pattern` re-checks
infeasibility there, and minimality (each one-fact-smaller set is feasible).
"""

import dataclasses
import json
import time

from labyrinth.engine.board import Board
from labyrinth.engine.frame import board_to_page, heading, page_to_board, turn
from labyrinth.engine.state import State
from labyrinth.errors import LabyrinthError, TimeLimitError
from oracle import cpsat_facts
from oracle.sat_encode import REQUIRED, TAKEN

__all__ = ["LEGEND", "Pattern", "PatternError", "PatternTimeout", "matches", "minimal_pattern", "verify_pattern"]

#: what the symbols of a drawn pattern mean
LEGEND = "(^ head moving up, # taken, B border, . must be visited, E the end, ? either)"

_MARGIN = 2
#: conflicts a facts query may spend in the SAT engine before the CP-SAT circuit model takes it over
#: (a budget, not a time slice, so that the pattern found is the same on every machine)
SAT_CONFLICTS = 20_000
_DRAW = {"taken": "#", "border": "B", "visit": ".", "end": "E"}


class PatternError(LabyrinthError):
    """A pattern cannot be made: the state has a completion, or the solver ran out of time."""


class PatternTimeout(PatternError, TimeLimitError):
    """The SAT solver ran out of time minimising a pattern: unknown, not impossible."""


@dataclasses.dataclass(frozen=True)
class Pattern:
    """A minimal stuck pattern, in the head's frame (heading up the page, x to the right).

    ``facts``: sorted ``(px, py, kind)``, the head at ``(0, 0)`` (always part of
    the pattern) and the line's previous cell at ``(0, 1)``; ``heading``: the
    absolute direction of the source state's last move; ``example``: that
    state in compact notation; ``turn``: that move relative to the one before
    (``left``, ``straight``, ``right``: how a rule made from the pattern is
    drawn); ``seconds``: time spent finding it.
    """

    facts: tuple
    heading: str
    example: str
    turn: str = "straight"
    seconds: float = 0.0

    @property
    def key(self):
        """Canonical form: blocked kinds merged, the smaller of the pattern and its mirror image."""
        return canonical_key(self.facts)

    def draw(self):
        """The study's style: ``#`` taken, ``B`` border, ``.`` must be visited, ``E`` end, ``?`` optional, ``^`` head."""
        cells = {(px, py): _DRAW[k] for px, py, k in self.facts if k != "end"}
        cells[(0, 0)] = "^"
        note = ""
        for px, py, k in self.facts:
            if k != "end":
                continue
            far = max(max(abs(px - x), abs(py - y)) for x, y in cells) if cells else 0
            near = min(max(abs(px - x), abs(py - y)) for x, y in cells)
            if near > 3 and far > 6:
                note = f"\nE (the end) at {px:+d} right, {-py:+d} ahead of ^"
            else:
                cells[(px, py)] = "E"
        xs = [p[0] for p in cells]
        ys = [p[1] for p in cells]
        return "\n".join(" ".join(cells.get((x, y), "?") for x in range(min(xs), max(xs) + 1))
                         for y in range(min(ys), max(ys) + 1)) + note

    def to_json(self):
        return {"key": self.key, "heading": self.heading, "turn": self.turn, "example": self.example,
                "facts": [list(f) for f in self.facts], "drawing": self.draw()}

    @classmethod
    def from_json(cls, obj):
        return cls(tuple(sorted((int(x), int(y), str(k)) for x, y, k in obj["facts"])), obj["heading"],
                   obj["example"], obj.get("turn", "straight"))

    def to_rule(self, name, about="", *, deadline=None):
        """This pattern as a rule of the pattern language: disable the step that enters it.

        The rule is drawn at the state before the step, in that state's frame:
        ``H`` is the pattern's ``(0, 1)``, the step ``x`` goes left, straight
        or right as :attr:`turn` says, and every fact turns with it. Blocked
        facts become ``X`` (taken or border). Raises :class:`PatternError`
        when the pattern reaches beyond the language's 7x7 window.
        """
        from labyrinth.rules.language import RADIUS, parse_rules

        turn, shift = {"straight": (lambda x, y: (x, y), (0, -1)), "left": (lambda x, y: (y, -x), (-1, 0)),
                       "right": (lambda x, y: (-y, x), (1, 0))}[self.turn]
        cells = {(0, 0): "H", shift: "x"}
        for px, py, k in self.facts:
            x, y = turn(px, py)
            at = (x + shift[0], y + shift[1])
            if at in cells:
                continue  # the rule's head (the line's previous cell) and its step are drawn already
            cells[at] = {"taken": "X", "border": "X", "visit": ".", "end": "E"}[k]
        far = max(max(abs(x), abs(y)) for x, y in cells)
        if far > RADIUS:
            raise PatternError(f"pattern reaches {far} cells from the rule's head; the rule language "
                               f"allows {RADIUS}", source=self.example)
        rows = [" ".join(cells.get((x, y), "?") for x in range(-RADIUS, RADIUS + 1))
                for y in range(-RADIUS, RADIUS + 1)]
        rows = _trim(rows)
        about = about or f"minimal stuck pattern of {self.example}"
        text = (f"name: {name}\nabout: {about}\nsizes: all\nmirror: yes\ngrid:\n"
                + "".join(f"  {r}\n" for r in rows))
        parse_rules(text, source=name)  # it must load
        sound, minimal = verify_pattern(self, plane=True, deadline=deadline)
        if not sound:
            raise PatternError("pattern is not infeasible once the space around it is open: no rule",
                               source=self.example)
        return text


def canonical_key(facts):
    """A string naming a fact set up to the mirror that swaps the walker's left and right."""
    def norm(fs):
        return tuple(sorted((px, py, "blocked" if k in ("taken", "border") else k) for px, py, k in fs))

    a = norm(facts)
    b = norm((-px, py, k) for px, py, k in facts)
    return json.dumps(min(a, b), separators=(",", ":"))


def _trim(rows):
    """Drop all-``?`` rows and columns at the edges (keeping the grid rectangular)."""
    grid = [r.split(" ") for r in rows]
    while grid and all(c == "?" for c in grid[0]):
        grid.pop(0)
    while grid and all(c == "?" for c in grid[-1]):
        grid.pop()
    while grid and all(r[0] == "?" for r in grid):
        grid = [r[1:] for r in grid]
    while grid and all(r[-1] == "?" for r in grid):
        grid = [r[:-1] for r in grid]
    return [" ".join(r) for r in grid]


def state_facts(state, margin=_MARGIN):
    """Every fact of ``state`` as ``{(x, y): kind}`` (0-based board coordinates, the margin included)."""
    n = state.n
    facts = {}
    for y in range(-margin, n + margin):
        for x in range(-margin, n + margin):
            if not (0 <= x < n and 0 <= y < n):
                facts[(x, y)] = "border"
                continue
            c = y * n + x
            if c == state.head:
                continue
            facts[(x, y)] = "taken" if state.taken[c] else "visit"
    return facts


class _Domain:
    """A square of ``size`` cells (odd) on which facts at absolute (x, y) sit at an offset."""

    def __init__(self, size, offset_x, offset_y):
        self.size = size
        self.ox, self.oy = offset_x, offset_y

    def cell(self, x, y):
        return (y + self.oy) * self.size + (x + self.ox)

    def query(self, sat, head, facts, end, deadline, core=True):
        """(feasible, kept facts from the core, kept end flag, path) of ``facts`` (+ the ``end`` cell).

        An infeasible query keeps its core's facts; a feasible one returns its
        path (domain cells), a certificate that these facts allow a completion.
        The SAT engine answers first, within :data:`SAT_CONFLICTS`; past them the
        CP-SAT circuit model (:mod:`oracle.cpsat_facts`) does, with a core only
        if ``core`` (otherwise an infeasible answer keeps every fact).
        """
        status = {}
        back = {}
        for xy, kind in facts.items():
            c = self.cell(*xy)
            status[c] = REQUIRED if kind == "visit" else TAKEN
            back[c] = xy
        if deadline is not None and time.perf_counter() >= deadline:
            raise PatternTimeout("the SAT solver ran out of time minimising the pattern")
        limit = None if deadline is None else max(0.01, deadline - time.perf_counter())
        end_cell = None if end is None else self.cell(*end)
        feasible, found, path = sat.decide_facts(self.size, self.cell(*head), end_cell, status, time_limit=limit,
                                                 max_conflicts=SAT_CONFLICTS)
        if feasible is None:
            # past the budget: the circuit model, as exact (refutations by parity over a wide area are
            # hard for clause learning); a core only where asked (assumptions slow CP-SAT's presolve)
            limit = None if deadline is None else deadline - time.perf_counter()
            feasible, found, path = cpsat_facts.decide_facts(self.size, self.cell(*head), end_cell, status,
                                                             time_limit=limit, core=core)
        if feasible is None:
            raise PatternTimeout("the solvers ran out of time minimising the pattern")
        if feasible:
            return True, None, None, path
        kept = {back[c]: facts[back[c]] for c, _ in found.facts if c in back}
        return False, kept, bool(found.last) and end is not None, None

    def certifies(self, path, head, facts, end):
        """Does ``path`` (domain cells) satisfy ``facts`` and the ``end`` cell? Checked without the solver."""
        size = self.size
        if not path or path[0] != self.cell(*head) or len(set(path)) != len(path):
            return False
        for a, b in zip(path, path[1:]):
            if not (0 <= b < size * size and (abs(a - b) == size or (abs(a - b) == 1 and a // size == b // size))):
                return False
        on = set(path)
        for xy, kind in facts.items():
            if (self.cell(*xy) in on) != (kind == "visit"):
                return False
        return end is None or path[-1] == self.cell(*end)


def minimal_pattern(state, *, time_limit=60.0, verify=True, radius=None, centre=None):
    """The minimal stuck pattern of a dead ``state`` (see the module docstring).

    Each call runs a fresh SAT solver, so the pattern is a function of the
    state alone: a solver reused across calls keeps the connectivity cuts it
    learnt, and its cores (hence the pattern found) would then depend on which
    states it saw before, and on which worker of a campaign ran the finding.

    Parameters
    ----------
    state : labyrinth.engine.State
        A state without completion.
    time_limit : float or None
        Seconds for the whole minimisation; past it, :class:`PatternError`.
    verify : bool
        Re-check soundness and minimality with :func:`verify_pattern` (raises if either fails).
    radius : int, optional
        Look only at the facts within this many cells of ``centre`` (a cell; the head by default),
        the end corner too (when it lies farther it is left out and the path may end anywhere): a
        pattern that fits a rule of that reach, or :class:`PatternError` at once when none does.
    centre : int, optional
        The cell ``radius`` is counted from (a rule is drawn round the cell before the head).

    Returns
    -------
    Pattern
    """
    from oracle.sat import SatOracle

    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    sat = SatOracle()
    try:
        n = state.n
        dom = _Domain(n + 2 * _MARGIN, _MARGIN, _MARGIN)
        head = (state.head % n, state.head // n)
        end = (n - 1, n - 1)
        everything = state_facts(state)
        if state.head == state.board.end and state.free_count:
            everything.pop(end, None)
        # locality first: the facts near the head usually suffice
        facts = None
        reach = radius
        mid = head if centre is None else (centre % n, centre // n)
        radii = (2, 3, 5, 8, 2 * n + 2 * _MARGIN) if reach is None else tuple(r for r in (2, 3, reach) if r <= reach)
        if reach is not None and max(abs(end[0] - mid[0]), abs(end[1] - mid[1])) > reach:
            end = None  # the end corner lies beyond the reach: the path may end anywhere
        for r in radii:
            near = {xy: k for xy, k in everything.items()
                    if max(abs(xy[0] - mid[0]), abs(xy[1] - mid[1])) <= r}
            feasible, kept, kept_end, _ = dom.query(sat, head, near, end, deadline)
            if not feasible:
                facts, has_end = kept, kept_end
                break
        if facts is None:
            if reach is not None:
                raise PatternError(f"no stuck pattern within {reach} cells (the rule language's reach)",
                                   source=state.compact())
            raise PatternError("the state has a completion: there is no stuck pattern", source=state.compact())
        facts, has_end, certificates = _delete(dom, sat, head, end, facts, has_end, deadline)
        page = _page_facts(facts, has_end, head, end, heading(state))
        pattern = Pattern(page, heading(state), state.compact(), turn(state))
        if verify:
            sound, minimal = _reverify(dom, sat, head, end, facts, has_end, certificates, deadline)
            if not (sound and minimal):
                raise PatternError(f"pattern failed re-verification (sound={sound}, minimal={minimal})",
                                   source=state.compact())
        return dataclasses.replace(pattern, seconds=time.perf_counter() - t0)
    finally:
        sat.close()


def _delete(dom, sat, head, end, facts, has_end, deadline):
    """Deletion-based MUS: try each fact once, far ones first; an infeasible trial's core is kept.

    Returns the facts, the end flag, and the certificates: for each fact (and
    ``"end"``) whose removal made the query feasible, that query's path. By
    monotonicity (fewer facts, more paths) such a path stays a certificate for
    every smaller set that keeps the other facts.
    """
    certificates = {}
    order = sorted(facts, key=lambda xy: (-(abs(xy[0] - head[0]) + abs(xy[1] - head[1])), xy))
    if has_end:
        feasible, kept, _, path = dom.query(sat, head, facts, None, deadline, core=False)
        if feasible:
            certificates["end"] = path
        else:
            facts, has_end = kept, False
    for xy in order:
        if xy not in facts:
            continue
        trial = {k: v for k, v in facts.items() if k != xy}
        feasible, kept, kept_end, path = dom.query(sat, head, trial, end if has_end else None, deadline, core=False)
        if feasible:
            certificates[xy] = path
        else:
            facts, has_end = kept, kept_end
    return facts, has_end, certificates


def _reverify(dom, sat, head, end, facts, has_end, certificates, deadline):
    """``(sound, minimal)`` of a freshly minimised pattern, on the domain it was found on.

    Sound: the facts are infeasible (asked again). Minimal: for each fact, a
    path satisfying all the others, checked cell by cell without the solver
    (the deletion's certificate, or a new query when there is none).
    """
    sound = not dom.query(sat, head, facts, end if has_end else None, deadline, core=False)[0]
    trials = [(xy, {k: v for k, v in facts.items() if k != xy}, end if has_end else None) for xy in facts]
    if has_end:
        trials.append(("end", facts, None))
    for key, trial, trial_end in trials:
        path = certificates.get(key)
        if path is None or not dom.certifies(path, head, trial, trial_end):
            feasible, _, _, path = dom.query(sat, head, trial, trial_end, deadline, core=False)
            if not feasible or not dom.certifies(path, head, trial, trial_end):
                return sound, False
    return sound, True


def _page_facts(facts, has_end, head, end, heading):
    out = [(*board_to_page(x - head[0], y - head[1], heading), k) for (x, y), k in facts.items()]
    if has_end:
        out.append((*board_to_page(end[0] - head[0], end[1] - head[1], heading), "end"))
    return tuple(sorted(out))


def verify_pattern(pattern, sat=None, *, plane=False, deadline=None):
    """Re-check a pattern: ``(sound, minimal)``.

    *sound*: the facts are infeasible; *minimal*: each set with one fact fewer
    is feasible. By default the check runs where the pattern was found (the
    example's board with its margin of optional cells); with ``plane`` on a
    square of optional cells around the facts wide enough for any excursion
    around them (margin = box width + height), which makes the pattern sound
    on every board: rules exported from patterns are checked this way.
    """
    from oracle.sat import SatOracle

    own = sat is None
    sat = sat or SatOracle()
    try:
        dom, head, facts, end = _layout(pattern, plane)
        infeasible = not dom.query(sat, head, facts, end, deadline, core=False)[0]
        minimal = True
        trials = [({k: v for k, v in facts.items() if k != xy}, end) for xy in facts]
        if end is not None:
            trials.append((facts, None))
        for trial, trial_end in trials:
            if not dom.query(sat, head, trial, trial_end, deadline, core=False)[0]:
                minimal = False
                break
        return infeasible, minimal
    finally:
        if own:
            sat.close()


def _layout(pattern, plane):
    """The domain, head, facts (by domain coordinates) and end cell to check ``pattern`` on."""
    if plane:
        cells = [(px, py) for px, py, _ in pattern.facts] + [(0, 0)]
        x0, x1 = min(c[0] for c in cells), max(c[0] for c in cells)
        y0, y1 = min(c[1] for c in cells), max(c[1] for c in cells)
        w, h = x1 - x0 + 1, y1 - y0 + 1
        margin = w + h
        size = max(w, h) + 2 * margin
        size += 1 - size % 2
        dom = _Domain(size, margin - x0, margin - y0)
        place = {(px, py): (px, py) for px, py, _ in pattern.facts}
        head = (0, 0)
    else:
        n_text, moves = pattern.example.split(":", 1)
        n = int(n_text)
        example = State.from_moves(n, moves)
        dom = _Domain(n + 2 * _MARGIN, _MARGIN, _MARGIN)
        head = (example.head % n, example.head // n)
        place = {}
        for px, py, _ in pattern.facts:
            dx, dy = page_to_board(px, py, pattern.heading)
            place[(px, py)] = (head[0] + dx, head[1] + dy)
    facts = {place[(px, py)]: k for px, py, k in pattern.facts if k != "end"}
    end = next((place[(px, py)] for px, py, k in pattern.facts if k == "end"), None)
    return dom, head, facts, end


def matches(pattern, state):
    """True when ``state`` agrees with every fact of ``pattern`` (or of its mirror image).

    Placed at the state's head in its frame: blocked facts on taken or
    off-board cells, ``visit`` on free cells, ``end`` on the end corner. A
    matching state has no completion (the point of the pattern).
    """
    n = state.n
    move = heading(state)
    hx, hy = state.head % n, state.head // n
    for sign in (1, -1):
        for px, py, k in pattern.facts:
            dx, dy = page_to_board(px * sign, py, move)
            x, y = hx + dx, hy + dy
            inside = 0 <= x < n and 0 <= y < n
            c = int(y * n + x) if inside else -1
            if k in ("taken", "border"):
                ok = not inside or bool(state.taken[c])
            elif k == "visit":
                ok = inside and not state.taken[c]
            else:
                ok = c == state.board.end
            if not ok:
                break
        else:
            return True
    return False


def board_cells(pattern, state):
    """The board cells of ``pattern`` laid on ``state`` (its head, its heading): ``{cell: kind}``.

    Facts off the board are left out (they are border facts); useful for drawing.
    """
    board = state.board if isinstance(state.board, Board) else Board(state.n)
    move = heading(state)
    hx, hy = state.head % board.n, state.head // board.n
    out = {}
    for px, py, k in pattern.facts:
        dx, dy = page_to_board(px, py, move)
        x, y = hx + dx, hy + dy
        if 0 <= x < board.n and 0 <= y < board.n:
            out[int(y * board.n + x)] = k
    return out
