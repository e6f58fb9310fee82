"""The builder's working state: the facts derived so far and the steps that derived them, with degree propagation.

:class:`Derivation` holds, for the state after a move, every node's options
and forced edges, the pieces of forced line (each piece's two ends and its
size), and the log of steps in the checker's format. Its propagation is the
future lines of :mod:`labyrinth.rules.future` run from a work list, with
every deduction written down as the step that justifies it: ``degree``
(a cell with as many options as it needs, or all the forced edges it needs),
``loop`` and ``join`` (an option that would close a piece into a loop or
join the head to the end too early). A contradiction ends the derivation
(:class:`Dead`).
"""

from verify.certificates.board import edge_key
from verify.certificates.check import KINDS, Invalid

__all__ = ["Dead", "Derivation"]


class Dead(Exception):
    """The derivation met a contradiction: its last step shows it."""


class _Lazy(dict):
    """A dict whose missing entries ``make(key)`` builds when first asked."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value


class Derivation:
    """Facts about the line's edges after a move, and the steps that derived them.

    Parameters
    ----------
    board : verify.certificates.check.Board
        The state after the move, as the checker sees it.
    """

    def __init__(self, board):
        self.board = board
        self.nodes = board.nodes
        self.need = board.need
        self.opt = _Lazy(lambda c: set(board.adj[c]))  # each node's options, made when first asked
        self.frc = _Lazy(lambda c: set())
        self.other = _Lazy(lambda c: c)  # a piece end -> its other end
        self.size = _Lazy(lambda c: 1)  # a piece end -> the piece's cell count
        self.steps = []
        self.searched = {}  # an area's cells and their options -> no path crosses it (the exact search's verdicts)
        near = self._near(board.head, 2)
        self.queue = sorted(near)
        self.queued = set(near)
        self.everywhere = False

    def _near(self, c, radius):
        """The nodes within ``radius`` steps of ``c`` over the board's edges."""
        out, ring = {c}, [c]
        for _ in range(radius):
            ring = [d for x in ring for d in self.board.adj[x] if d not in out]
            out.update(ring)
        return out

    def everywhere_next(self):
        """Queue every node: after the cells round the head, the propagation looks at the whole board."""
        if not self.everywhere:
            self.everywhere = True
            for c in self.nodes:
                self._push(c)

    # --- the facts as the checker reads them (its step checks run on a derivation unchanged) -----
    def options(self, board, c):
        return list(self.opt[c])

    def forced_of(self, board, c):
        return list(self.frc[c])

    def is_forced(self, e):
        return e[1] in self.frc[e[0]]

    def is_removed(self, e):
        return e[1] not in self.opt[e[0]]

    def test(self, step):
        """What the checker derives from ``step`` on the facts so far (None: the step does not hold)."""
        try:
            return KINDS[step["kind"]](self.board, self, step)
        except Invalid:
            return None

    def apply(self, step, outcome):
        """Record ``step`` with everything ``outcome`` derives that is new, and apply it; :class:`Dead` if dead."""
        if outcome.dead:
            self.record(step.pop("kind"), dead=True, **step)
        forces = [e for e in outcome.forces if not self.is_forced(e)]
        removes = [e for e in outcome.removes if not self.is_removed(e)]
        if not forces and not removes:
            return False
        self.record(step.pop("kind"), forces=forces, removes=removes, **step)
        for a, b in removes:
            self.remove(a, b)
        if forces:
            self.force(forces)
        return True

    # --- the log ------------------------------------------------------------------------------
    def xy(self, c):
        return list(self.board.xy(c))

    def edge(self, a, b):
        return [self.xy(a), self.xy(b)] if a < b else [self.xy(b), self.xy(a)]

    def record(self, kind, dead=False, forces=(), removes=(), **fields):
        """Write a step down (cells as ``[x, y]``); a contradiction raises :class:`Dead`."""
        step = {"kind": kind, **fields}
        if dead:
            step["dead"] = True
        else:
            if forces:
                step["forces"] = [self.edge(a, b) for a, b in sorted(forces)]
            if removes:
                step["removes"] = [self.edge(a, b) for a, b in sorted(removes)]
        self.steps.append(step)
        if dead:
            raise Dead(kind)
        return step

    # --- facts ----------------------------------------------------------------------------------
    def _push(self, c):
        if c not in self.queued:
            self.queued.add(c)
            self.queue.append(c)

    def remove(self, a, b):
        """Drop the option a-b (the caller has recorded why)."""
        self.opt[a].discard(b)
        self.opt[b].discard(a)
        self._push(a)
        self._push(b)

    def force(self, pairs):
        """Force the edges ``pairs`` at once (the caller has recorded why), then the loop and early-join rules.

        All are forced before the pieces are joined, as the checker applies a
        step's claims at once: an edge of the step that closes a loop or
        joins the head to the end too early is then a contradiction.
        """
        for a, b in pairs:
            self.frc[a].add(b)
            self.frc[b].add(a)
            self._push(a)
            self._push(b)
        for a, b in pairs:
            for c in (a, b):
                if len(self.frc[c]) > self.need[c]:
                    self.record("degree", dead=True, cell=self.xy(c))
        ends = []
        for a, b in pairs:
            ea, eb = self.other[a], self.other[b]
            if ea == b:
                self.record("loop", dead=True, edge=self.edge(a, b))
            size = self.size[a] + self.size[b]
            if {ea, eb} == {self.board.head, self.board.end} and size < len(self.nodes):
                self.record("join", dead=True, edge=self.edge(a, b))
            self.other[ea], self.other[eb] = eb, ea
            self.size[ea] = self.size[eb] = size
            ends.append(ea)
        for ea in ends:
            if len(self.frc[ea]) >= 2:
                continue  # no longer an end of its piece
            eb = self.other[ea]
            if eb in self.opt[ea] and eb not in self.frc[ea]:
                self.record("loop", removes=[edge_key(ea, eb)], edge=self.edge(ea, eb))
                self.remove(ea, eb)
        self._early_join()

    def _early_join(self):
        h, e = self.board.head, self.board.end
        a, b = self.other[h], self.other[e]
        if a == e:
            return
        if b in self.opt[a] and b not in self.frc[a] and self.size[a] + self.size[b] < len(self.nodes):
            self.record("join", removes=[edge_key(a, b)], edge=self.edge(a, b))
            self.remove(a, b)

    def start(self):
        """The early-join rule before any edge is forced (the head and the end as one-cell pieces)."""
        self._early_join()

    # --- degree propagation -------------------------------------------------------------------
    def propagate(self):
        """Future lines to a fixed point from the work list; True if any fact changed."""
        changed = False
        queue, queued = self.queue, self.queued
        while queue:
            c = queue.pop()
            queued.discard(c)
            opt, frc, need = self.opt[c], self.frc[c], self.need[c]
            if len(opt) < need or len(frc) > need:
                self.record("degree", dead=True, cell=self.xy(c))
            if len(opt) == need and len(frc) < need:
                new = [d for d in opt if d not in frc]
                self.record("degree", forces=[edge_key(c, d) for d in new], cell=self.xy(c))
                self.force([(c, d) for d in new])
                changed = True
            elif len(frc) == need and len(opt) > need:
                gone = [d for d in opt if d not in frc]
                self.record("degree", removes=[edge_key(c, d) for d in gone], cell=self.xy(c))
                for d in gone:
                    self.remove(c, d)
                changed = True
        return changed
