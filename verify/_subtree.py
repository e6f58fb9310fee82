"""The exhaustive audit of one keep-left subtree in Python, for rule sets without a numba kernel.

The same audit as :mod:`verify._exhaustive` (which runs compiled rule sets
in numba), for any rule set with ``open_moves`` (and ``decide``, for the
reasons; ``decide_many`` to ask many states at once, as an external engine
does): the subtree below a prefix is expanded level by level, each level's
states asked in batches; walkthroughs are marked bottom-up; then, top-down
from the root, every alive node's closed moves are decided by the oracle
(feasible: the node holds an over-pruned finding) and every open move with
no walkthrough below is decided (dead: the node holds a missed-dead finding,
and the dead subtree is not entered). The nodes returned are then audited
move by move by :func:`verify.audit.audit_state`, as the kernel's records are.

The tree's states can be asked in either order (``order``): breadth-first,
a whole level per request (fewest requests), or depth-first, one state per
request in keep-left preorder, so that each request extends the one before
by a move or goes back up its line and extends an earlier state: the order
for an engine that computes by stepping, which then steps once per state
instead of replaying each from the start. The tree, its audit and the
findings are the same in both orders (the answers are kept and the audit
reads them); only the requests differ.
"""

from labyrinth.engine.frame import heading, keep_left_order
from labyrinth.rules.base import DEPTH_FIRST, RuleSetBase
from verify.audit import count_fired

__all__ = ["Answered", "python_subtree"]


def _decisions(rules, states):
    if rules.explains:
        return rules.decide_many(states)
    return [None] * len(states)


def _depth_first(start, rules):
    """The decisions about every state of the subtree below ``start`` (by its cells), asked one state per
    request in keep-left preorder: each state right after its parent, or after its previous sibling's subtree."""
    known = {}
    stack = [start]
    while stack:
        s = stack.pop()
        if s.at_end():
            continue
        d = _decisions(rules, [s])[0]
        known[s.path] = d
        allowed = d.open if d is not None else rules.open_moves(s)
        stack.extend(reversed([s.after(m) for m in keep_left_order(heading(s)) if m in allowed]))
    return known


class Answered(RuleSetBase):
    """``rules`` with its answers about some states known already: asked about them again (the audit of
    the tree's nodes), it answers from those, so an engine is not asked twice (a stepping engine would
    replay such a state from the start)."""

    def __init__(self, rules, known):
        self.asked = rules
        self.known = known
        self.name = rules.name
        self.explains = rules.explains

    def decide(self, state):
        d = self.known.get(state.path)
        return d if d is not None else self.asked.decide(state)

    def open_moves(self, state):
        d = self.known.get(state.path)
        return d.open if d is not None else self.asked.open_moves(state)


def python_subtree(start, rules, asker, fired=None, order=None):
    """Audit the keep-left subtree below ``start``.

    Returns ``(nodes to audit, walkthroughs, stuck, tree nodes, answers)``:
    ``answers`` maps the cells of each node to audit to the rules' decision
    there (see :class:`Answered`). ``asker`` decides states
    (:class:`verify.audit._Asker`: it counts the queries); ``fired`` (a
    Counter), if given, counts each rule's closures; ``order`` is
    ``"depth-first"`` or breadth-first (the default). The root is treated as
    alive (the caller decides a root without walkthroughs, as it does for
    the kernel).
    """
    known = _depth_first(start, rules) if order == DEPTH_FIRST else None
    states = [start]
    parent = [-1]
    opened = []  # per node: the open moves' letters ("" at a leaf)
    decided = {}  # node -> the rules' decision there
    walkthroughs = stuck = 0
    level = [0]
    while level:
        asked = [i for i in level if not states[i].at_end()]
        if known is None:
            decisions = dict(zip(asked, _decisions(rules, [states[i] for i in asked])))
        else:
            decisions = {i: known[states[i].path] for i in asked}
        decided.update(decisions)
        nxt = []
        for i in level:
            s = states[i]
            opened.append("")
            if s.at_end():
                if s.is_complete():
                    walkthroughs += 1
                else:
                    stuck += 1
                continue
            d = decisions[i]
            allowed = d.open if d is not None else rules.open_moves(s)
            if fired is not None and d is not None and allowed != s.open_moves():
                count_fired(d, fired)
            if not allowed:
                stuck += 1
                continue
            opened[i] = allowed
            for m in keep_left_order(heading(s)):
                if m in allowed:
                    states.append(s.after(m))
                    parent.append(i)
                    nxt.append(len(states) - 1)
        level = nxt
    good = [s.is_complete() for s in states]
    for i in range(len(states) - 1, 0, -1):
        if good[i]:
            good[parent[i]] = True
    children = [[] for _ in states]
    for i in range(1, len(states)):
        children[parent[i]].append(i)
    audit, answers = [], {}
    alive = [False] * len(states)
    alive[0] = True
    for i, s in enumerate(states):  # parents come before their children
        if not alive[i] or s.at_end():
            continue
        keep = False
        for m in s.open_moves():
            if m not in opened[i]:
                ok, _ = asker.decide(s.after(m))
                keep |= ok is not False  # feasible (over-pruned) or undecided (unknown)
        for c in children[i]:
            if good[c]:
                alive[c] = True
                continue
            ok, _ = asker.decide(states[c])
            if ok:
                alive[c] = True
            else:
                keep = True  # dead (the topmost of its branch: its subtree is skipped) or undecided
        if keep:
            audit.append(s)
            if decided.get(i) is not None:
                answers[s.path] = decided[i]
    return audit, walkthroughs, stuck, len(states), answers
