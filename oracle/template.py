"""TEMPLATE: a new oracle backend, to copy (``cp oracle/template.py oracle/my_backend.py``).

This module is a working backend that the registry does not list; ``tests/test_templates.py`` keeps it
importable and checks its answers against the ``search`` backend. To add your own backend, follow
docs/architecture.md ("Adding things"):

1. copy this file to ``oracle/<your_backend>.py`` and rename the class and its ``name``;
2. write :meth:`PlainSearch._decide`: whether the free cells of ``state`` can be covered by one path from the
   head that ends where the puzzle requires (``state.end``; anywhere; next to the first cell when
   ``state.cycle``). The base class (:class:`oracle.base.Oracle`) answers the trivial states, times the query
   and replays every witness before it leaves: a wrong witness is an :class:`~oracle.base.OracleBug`, never an
   answer. Past ``deadline`` answer None (unknown), never a guess;
3. register it: one line in :data:`oracle.registry.BACKENDS` (``"name": ("oracle.module", "Class")``). Every
   ``--backend`` then takes it and its help lists it; a solver that cannot import only disables this backend;
4. test it: the shared fixture ``backend`` in ``tests/conftest.py`` runs the oracle tests once per installed
   backend, yours included.
"""

from oracle.base import Oracle, expired

__all__ = ["PlainSearch"]


class PlainSearch(Oracle):
    """Depth-first search over the moves, no pruning: exact, and only for tiny boards (a few dozen free cells).

    >>> from labyrinth.engine import State
    >>> PlainSearch().decide(State.from_moves(5, "RRRRDDDD")).feasible  # the end reached with cells left
    False
    >>> PlainSearch().decide(State.from_moves(5, "RRRRD")).status
    'alive'
    """

    #: the backend's name in verdicts (``Verdict.backend``) and in the registry
    name = "plain"

    def _decide(self, state, deadline):
        """``(feasible, witness, work)``: True with the moves of a completion, False, or None past ``deadline``."""
        work = {"nodes": 0}
        sep = state.board.separator

        def visit(s):
            work["nodes"] += 1
            if work["nodes"] % 1024 == 0 and expired(deadline):
                return None
            if s.free_count == 0:
                ends_right = s.head == s.end if s.end is not None else \
                    not s.cycle or s.path[0] in s.board.neighbours[s.head]
                return [] if ends_right else False
            for move in s.open_moves():
                found = visit(s.after(move))
                if found is None:
                    return None
                if found is not False:
                    return [move, *found]
            return False

        found = visit(state)
        if found is None:
            return None, None, work
        return (False, None, work) if found is False else (True, sep.join(found), work)
