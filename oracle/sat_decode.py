"""Reading the SAT encoding's answers back through its readable pool: models into paths and subtours, cores into facts.

A model becomes a :class:`Decoded` (the path from the head, the subtours and
the regions to cut), a core of assumption literals a :class:`FactsCore` over
the facts statuses :data:`TAKEN` / :data:`REQUIRED` / :data:`OPTIONAL`. The
methods are :class:`oracle.sat_encode.Encoding`'s (through :class:`_Decoding`),
kept apart from the clauses that the variables come from.
"""

import dataclasses
from typing import NamedTuple

from oracle.base import BuildExpired, expired

__all__ = ["Decoded", "FactsCore", "OPTIONAL", "REQUIRED", "TAKEN"]

#: Cell status in a facts query: the cell must not be visited.
TAKEN = "taken"
#: Cell status in a facts query: the cell must be visited.
REQUIRED = "required"
#: Cell status in a facts query: no assumption, the cell may be visited or skipped.
OPTIONAL = "optional"

#: Cells (or literals) handled between two looks at the deadline while building.
_BLOCK = 4096


class FactsCore(NamedTuple):
    """An infeasible subset of a facts query's assumptions, read back as facts.

    Attributes
    ----------
    facts : tuple of (int, str)
        Sorted ``(cell, "taken" | "required")`` pairs whose assumptions are in the core.
    head : bool
        True if an assumption about where the path starts (``head`` literals) is in the core.
    last : bool
        True if an assumption about where the path ends (``last`` literals) is in the core.
    """

    facts: tuple
    head: bool
    last: bool


@dataclasses.dataclass(frozen=True)
class Decoded:
    """A model read back through the pool: arcs, visited cells, the path and the subtours.

    Attributes
    ----------
    succ : dict
        ``succ[a] = b`` for every true ``("arc", a, b)``.
    visited : frozenset
        Cells whose ``visit`` variable is true.
    heads, lasts : tuple of int
        Cells whose ``head`` / ``last`` variable is true.
    path : tuple of int
        The cells reached by following ``succ`` from the (first) head, in order.
    cycles : tuple of frozenset
        Connected groups of visited cells not on ``path`` (subtours to cut).
    regions : tuple of frozenset
        The visited cells not on ``path`` grouped by graph adjacency (cells
        one move apart): unions of touching subtours, the part of the board
        the path failed to reach.
        Each is a valid cut set too, and cutting it at once spares the solver
        from finding every way to tile an unreachable region with subtours.
    """

    succ: dict
    visited: frozenset
    heads: tuple
    lasts: tuple
    path: tuple
    cycles: tuple
    regions: tuple = ()

    @property
    def is_single_path(self):
        """True when the path from the head covers every visited cell (no subtour)."""
        return not self.cycles and len(self.path) == len(self.visited)


class _Decoding:
    """The reading-back methods of :class:`~oracle.sat_encode.Encoding` (they use its ``pool``, ``board`` and ``key``)."""

    def decode(self, model, deadline=None):
        """Read a model into a :class:`Decoded` through the pool's reverse lookup.

        Parameters
        ----------
        model : iterable of int
            A model as returned by ``solver.get_model()``.
        deadline : float or None
            Past it (looked at every :data:`_BLOCK` literals: a million cells
            have ten million) :class:`~oracle.base.BuildExpired` is raised.
        """
        succ, visited, heads, lasts = {}, set(), [], []
        obj = self.pool.obj
        for i, lit in enumerate(model):
            if not i % _BLOCK and expired(deadline):
                raise BuildExpired
            if lit <= 0:
                continue
            key = obj(lit)
            if key is None:
                continue
            kind = key[0]
            if kind == "arc":
                succ[key[1]] = key[2]
            elif kind == "visit":
                visited.add(key[1])
            elif kind == "head":
                heads.append(key[1])
            elif kind == "last":
                lasts.append(key[1])
        path = []
        if heads:
            c, seen = min(heads), set()
            while c is not None and c not in seen:
                seen.add(c)
                path.append(c)
                c = succ.get(c)
        on_path = set(path)
        off_path = visited - on_path
        cycles = _components({a: d for a, d in succ.items() if a not in on_path}, off_path)
        if len(cycles) > 1:
            nb = self.board.neighbours
            regions = _components(_pairs(off_path, nb), off_path)
        else:
            regions = cycles
        return Decoded(succ, frozenset(visited), tuple(sorted(heads)), tuple(sorted(lasts)),
                       tuple(path), cycles, regions)

    def core_facts(self, core):
        """Express a core (assumption literals) as a :class:`FactsCore`."""
        facts, head, last = set(), False, False
        for lit in core or ():
            key = self.key(lit)
            if key is None:
                raise KeyError(f"core literal {lit} is not a known variable")
            kind = key[0]
            if kind == "visit":
                facts.add((key[1], REQUIRED if lit > 0 else TAKEN))
            elif kind == "head":
                head = True
            elif kind == "last":
                last = True
            else:
                raise KeyError(f"core literal {lit} ({key}) is not an assumption")
        return FactsCore(tuple(sorted(facts)), head, last)


def _pairs(cells, nb):
    """Pairs within ``cells`` one move apart on the graph (each once), as an edge list."""
    return [(c, int(d)) for c in cells for d in nb[c] if d > c and d in cells]


def _components(links, cells):
    """Connected groups of ``cells`` through ``links`` (a mapping a -> b or a list of pairs, either way)."""
    parent = {c: c for c in cells}
    pairs = list(links.items()) if hasattr(links, "items") else links
    for a, d in pairs:
        parent.setdefault(a, a)
        parent.setdefault(d, d)

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, d in pairs:
        ra, rd = find(a), find(d)
        if ra != rd:
            parent[ra] = rd
    groups = {}
    for c in parent:
        groups.setdefault(find(c), set()).add(c)
    return tuple(sorted((frozenset(g) for g in groups.values()), key=min))
