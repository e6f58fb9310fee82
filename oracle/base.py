"""The one oracle interface: ``decide(state) -> Verdict`` for every backend.

A backend answers the Hamiltonian-completion question: can the free cells be
covered by a path from the head that ends where the puzzle requires (the end
corner of the labyrinth; anywhere, or next to the first cell, on other move graphs)? ``feasible`` is
True, False, or None when the time limit ran out (``unknown``: never a guess).
Every witness a backend reports is replayed and checked here before it leaves.
"""

import abc
import dataclasses
import time

__all__ = ["Oracle", "OracleBug", "Verdict", "check_witness", "expired"]


class OracleBug(RuntimeError):
    """A backend produced an answer that does not check out (an invalid witness)."""


@dataclasses.dataclass(frozen=True)
class Verdict:
    """An oracle's answer about one state.

    Attributes
    ----------
    feasible : bool or None
        True if a completion exists, False if none does, None if undecided in time.
    witness : str or None
        A completion as U/D/L/R moves from the head (checked), when feasible.
    backend : str
        The backend that decided (for ``auto``, ``auto:<member>``, the member that settled it).
    work : dict
        Counters: search nodes, SAT calls, cuts, conflicts...
    seconds : float
        Wall time of the query.
    """

    feasible: object
    witness: object = None
    backend: str = ""
    work: dict = dataclasses.field(default_factory=dict)
    seconds: float = 0.0

    @property
    def status(self):
        return {True: "alive", False: "dead", None: "unknown"}[self.feasible]


def check_witness(state, witness):
    """True when ``witness`` (moves from the head) completes ``state``, on any puzzle.

    The witness must visit every free cell once and end where the puzzle
    requires: on the fixed end cell, anywhere, or one move from the first cell (a cycle).
    """
    if witness is None:
        return False
    board = state.board
    moves = witness if board.separator == "" else board.split(witness)  # one letter a move: the string itself
    if len(moves) != state.free_count:
        return False
    taken, targets = state.taken, board.targets
    seen = set()
    here = state.head
    for name in moves:  # one pass: every move known, on the board, onto a free cell not yet visited
        cells = targets.get(name)
        if cells is None:
            return False
        here = cells[here]
        if here < 0 or taken[here] or here in seen:
            return False
        seen.add(here)
    end = state.end
    if end is not None:
        return here == end
    if state.cycle:
        return len(state.path) + len(moves) > 2 and state.path[0] in board.neighbours[here]
    return True


class Oracle(abc.ABC):
    """Base class: trivial states, timing and witness checking around a backend's ``_decide``.

    Subclasses implement ``_decide(state, deadline) -> (feasible, witness, work)``
    where ``deadline`` is a ``time.perf_counter()`` value or None. Oracles are
    context managers; ``close()`` frees solver memory.
    """

    name = "base"

    def __init__(self, time_limit=None):
        self.time_limit = time_limit

    def decide(self, state, *, time_limit=None):
        """Decide whether ``state`` has a completion; see :class:`Verdict`."""
        t0 = time.perf_counter()
        limit = self.time_limit if time_limit is None else time_limit
        deadline = None if limit is None else t0 + limit
        trivial = _trivial(state)
        if trivial is not None:
            feasible, witness, work = trivial, ("" if trivial else None), {}
        elif state.cycle and len(state.path) == 1:
            feasible, witness, work = self._first_step(state, deadline)
        else:
            feasible, witness, work = self._decide(state, deadline)
        if feasible:
            if not check_witness(state, witness):
                raise OracleBug(f"{self.name}: invalid witness {witness!r} for {state.compact()}")
        else:
            witness = None
        work = dict(work)
        backend = work.pop("backend", self.name)
        return Verdict(feasible, witness, backend, work, time.perf_counter() - t0)

    def _first_step(self, state, deadline):
        """A closed tour from its first cell alone: some first move must lead to an open-ended state."""
        work, undecided = {}, False
        for move in state.open_moves():
            after = state.after(move)
            trivial = _trivial(after)
            if trivial is None:
                feasible, witness, more = self._decide(after, deadline)
            else:
                feasible, witness, more = trivial, "" if trivial else None, {}
            for key, value in more.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    work[key] = work.get(key, 0) + value
                elif key == "backend":
                    work[key] = value
            if feasible:
                sep = state.board.separator
                return True, move + (sep + witness if witness else ""), work
            undecided |= feasible is None
        return (None if undecided else False), None, work

    @abc.abstractmethod
    def _decide(self, state, deadline):
        """Return ``(feasible, witness_moves, work_counters)`` for a non-trivial state."""

    def close(self):
        """Release solver resources; the oracle must not be used afterwards."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _trivial(state):
    """True/False for states decided without search, else None."""
    if state.at_end():
        return state.free_count == 0
    if state.free_count == 0:
        if state.cycle:
            return len(state.path) > 2 and state.path[0] in state.board.neighbours[state.head]
        return state.end is None  # a fixed end not yet reached: dead
    return None


class BuildExpired(Exception):  # noqa: N818 - internal control flow, never shown to a user
    """The deadline passed while a backend was still building its model: the query is undecided."""


def check_deadline(deadline):
    """Raise :class:`BuildExpired` once ``deadline`` has passed (for long model builds)."""
    if deadline is not None and time.perf_counter() >= deadline:
        raise BuildExpired


def expired(deadline):
    """True once ``deadline`` (a ``time.perf_counter()`` value, or None for none) has passed."""
    return deadline is not None and time.perf_counter() >= deadline
