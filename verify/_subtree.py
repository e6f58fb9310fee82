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
"""

from labyrinth.engine.walker import heading, keep_left_order
from verify.audit import count_fired

__all__ = ["python_subtree"]


def _decisions(rules, states):
    if hasattr(rules, "decide_many"):
        return rules.decide_many(states)
    if hasattr(rules, "decide"):
        return [rules.decide(s) for s in states]
    return [None] * len(states)


def python_subtree(start, rules, asker, fired=None):
    """Audit the keep-left subtree below ``start``; returns ``(nodes to audit, walkthroughs, stuck, tree nodes)``.

    ``asker`` decides states (:class:`verify.audit._Asker`: it counts the
    queries); ``fired`` (a Counter), if given, counts each rule's closures.
    The root is treated as alive (the caller decides a root without
    walkthroughs, as it does for the kernel).
    """
    states = [start]
    parent = [-1]
    opened = []  # per node: the open moves' letters ("" at a leaf)
    walkthroughs = stuck = 0
    level = [0]
    while level:
        asked = [i for i in level if not states[i].at_end()]
        decisions = dict(zip(asked, _decisions(rules, [states[i] for i in asked])))
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
    audit = []
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
    return audit, walkthroughs, stuck, len(states)
