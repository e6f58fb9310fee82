"""Is a pattern rule sound on every board? A SAT check of its window in the open plane.

A pattern rule (:mod:`labyrinth.rules.language`) disables a move, or forces
one, whenever its grid matches around the head. It is *sound* when every
move it closes leads to a state without completion. Whatever lies outside
the window is unknown, so the check relaxes everything it does not see: after
the closed move, the head is the marked cell; the old head, the line's
previous cell (below ``H``) and the ``#``/``X``/``B`` cells are blocked; the
free cells of the grid (``.``, ``o``, ``E``, the other marks) must be visited;
every other cell of a wide square around the window is optional (visited or
not), and the path may end anywhere but on an ``o`` cell (on ``E`` when the
grid has one). If
no such path exists, no real state matching the grid, on any board, has a
completion after that move: the rule is sound everywhere. If one exists, the
rule is not proved sound: it may still be sound on its sizes only (the mined
7x7 rules are sound by an exhaustive run, not by their window), or it is
wrong, which ``labyrinth audit --rules FILE`` shows with a witness.

The square is as wide as :func:`verify.minimize.verify_pattern` uses for
patterns (a margin of the window's width plus height), so detours around the
window are all available.
"""

import dataclasses

from labyrinth.rules.language import BORDER, END, FREE, NOT_END, TAKEN, WALL
from oracle.sat_encode import REQUIRED
from oracle.sat_encode import TAKEN as BLOCKED

__all__ = ["Soundness", "rule_soundness"]

_FRAME = {(-1, 0): "left", (0, -1): "straight", (1, 0): "right"}


@dataclasses.dataclass(frozen=True)
class Soundness:
    """The verdict on one move a rule closes.

    ``move`` is ``left``, ``straight`` or ``right`` in the rule's frame;
    ``sound`` True (proved: no way on, on any board), False (a way on exists
    in the open plane: not proved) or None (the solver ran out of time);
    ``path`` the way on, as page offsets from ``H``, when not proved.
    """

    move: str
    sound: object
    path: tuple = ()


def rule_soundness(spec, sat=None, *, time_limit=30.0):
    """Check every move ``spec`` closes (see the module docstring); a list of :class:`Soundness`.

    A disabling rule closes its marks; a forcing rule closes the head's other
    neighbours that its grid leaves possibly free.

    >>> from labyrinth.rules import parse_rules
    >>> wrong = parse_rules("name: w\\ngrid:\\n  ? X ?\\n  ? x ?\\n  ? H ?\\n", source="w.rule")[0]
    >>> [(v.move, v.sound) for v in rule_soundness(wrong)]
    [('straight', False)]
    >>> pocket = parse_rules("name: p\\ngrid:\\n  x ? ?\\n  H o X\\n  # X ?\\n", source="p.rule")[0]
    >>> [(v.move, v.sound) for v in rule_soundness(pocket)]
    [('straight', True)]
    """
    from oracle.sat import SatOracle

    own = sat is None
    sat = sat or SatOracle()
    try:
        conditions = {(x, y): c for x, y, c in spec.cells}
        if spec.kind == "disable":
            closed = list(spec.marks)
        else:
            forced = set(spec.marks)
            closed = [xy for xy in _FRAME if xy not in forced and conditions.get(xy) not in (TAKEN, WALL, BORDER)]
        return [_check(sat, conditions, spec.marks, xy, time_limit) for xy in closed]
    finally:
        if own:
            sat.close()


def _check(sat, conditions, marks, move, time_limit):
    from verify.minimize import _Domain

    blocked = {(0, 0), (0, 1)}  # the old head and the line's previous cell
    required, end, not_end = set(), None, set()
    for xy, c in conditions.items():
        if c in (TAKEN, WALL, BORDER):
            blocked.add(xy)
        elif c in (FREE, NOT_END, END):
            required.add(xy)
            if c == END:
                end = xy
            elif c == NOT_END:
                not_end.add(xy)
    required |= set(marks)
    required.discard(move)
    cells = list(conditions) + list(marks) + [(0, 0), (0, 1)]
    x0, x1 = min(x for x, _ in cells), max(x for x, _ in cells)
    y0, y1 = min(y for _, y in cells), max(y for _, y in cells)
    w, h = x1 - x0 + 1, y1 - y0 + 1
    margin = w + h
    size = max(w, h) + 2 * margin
    size += 1 - size % 2
    dom = _Domain(size, margin - x0, margin - y0)
    status = {dom.cell(*xy): BLOCKED for xy in blocked}
    status.update({dom.cell(*xy): REQUIRED for xy in required})
    feasible, _, path = sat.decide_facts(size, dom.cell(*move), None if end is None else dom.cell(*end), status,
                                         time_limit=time_limit, never_last=[dom.cell(*xy) for xy in not_end])
    label = _FRAME.get(move, f"{move}")
    if feasible is None:
        return Soundness(label, None)
    if not feasible:
        return Soundness(label, True)
    offsets = tuple((c % size - dom.ox, c // size - dom.oy) for c in path)
    return Soundness(label, False, offsets)
