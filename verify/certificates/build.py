"""Build the certificate of a closed move: re-derive why the state after it has no completion, as checker steps.

The builder does not ask the compiled rules why (their kernels keep no
reasons): it runs the same sound arguments again in Python, writing down
each deduction as a step the checker (:mod:`verify.certificates.check`)
can replay, until one of them meets a contradiction:

1. ``end``: the move enters the end corner with cells left;
2. the future lines (``degree``, ``loop``, ``join``) to a fixed point;
3. the area arguments (``cut``, ``balance``: :mod:`verify.certificates._areas`);
4. the two-matching (``hall``: no perfect 2-matching) and its filtering
   (``hall`` on tight sets: options in no perfect 2-matching go, those in
   all of them are forced: :mod:`verify.certificates._hall`);

then 2-4 again on the new facts, until a contradiction or nothing changes;
last, the areas between gates searched exactly (``area``, what the optional
``exact-areas`` decides). These are the arguments of every rule of
``strong`` (the C-shape, the two-matching, the four area rules, the
closure), without its round limit, so every move ``strong`` closes gets a
certificate. Where these find no contradiction comes the probe's argument
(``strong+``, :mod:`labyrinth.rules.probe`): a ``case`` for each way on from
the head, each refuted by the steps above with that edge supposed; a case
they do not refute is split again on the ways on from the cell its edge
reaches (``strong++``, the deep probe ``probe:K``: nested cases).

Where these find none, the same again with the cut rule's argument
(``strong+++``, :mod:`labyrinth.rules.cut`) wherever the others stop: the
bridges and two-edge cuts of the options left (``crossing``: the line
crosses a set's boundary an odd or even number of times, at least once, so
the edges left across it are forced or no count fits:
:mod:`verify.certificates._crossing`), then 2-4 again on what they force;
first on the whole board, then inside the probe's cases. Cuts come last so
that a move the other arguments certify keeps the certificate it had before
they came. Where none is found comes the subtour relaxation
(``--on subtour``, :mod:`labyrinth.rules.subtour`): one ``weights`` step, its
degree equations and region cuts with the numbers that sum to a
contradiction. Where it finds none either the move is *missing* one (None).
The steps are then made minimal (:mod:`verify.certificates._minimize`) and checked
once more.

>>> cert = certificate("9:RRDDDRDR", "D")      # the two-matching's example
>>> [(s["kind"], len(s["cells"])) for s in cert["steps"]]     # 15 black cells need 30 line ends, get 28
[('hall', 15)]
>>> from verify.certificates.check import check
>>> check("9:RRDDDRDR", "D", cert).valid
True
"""

from verify.certificates._areas import area_step, exact_step
from verify.certificates._crossing import crossing_steps
from verify.certificates._derive import Dead, Derivation
from verify.certificates._hall import Matching
from verify.certificates._minimize import minimal
from verify.certificates.board import Facts, edge_key
from verify.certificates.check import MAX_DEPTH, Board

__all__ = ["MAX_CASES", "MAX_ROUNDS", "cells_named", "certificate", "derive", "derive_cases", "weights_steps"]

#: rounds of areas, matching and filtering before the builder gives up (the closure stops at 30)
MAX_ROUNDS = 200
#: derivations a certificate's nested cases may take before the builder gives up (a deep probe's cases)
MAX_CASES = 200


def derive(board, *, suppose=(), removed=(), cuts=True):
    """The steps of a derivation on ``board`` ending in a contradiction, or None when none is found.

    The edges ``suppose`` are taken as forced and the edges ``removed`` as
    gone before the first step, as inside (nested) ``case`` steps whose
    earlier cases removed them: the steps are then the innermost case's.
    With ``cuts`` (default), where the other arguments stop, the bridges and
    two-edge cuts of the options left (``crossing`` steps), and the other
    arguments again on what they force; without, the derivation stops there.
    """
    der = Derivation(board)
    try:
        if board.head == board.end:
            der.record("end", dead=True)
        for a, b in removed:
            der.opt[a].discard(b)
            der.opt[b].discard(a)
        der.start()
        if suppose:
            der.force(list(suppose))
        der.propagate()  # round the head first: most contradictions are there, and cheap
        der.everywhere_next()
        der.propagate()
        matching = Matching(der)
        for _ in range(MAX_ROUNDS):
            step = area_step(der, pockets=False)
            if step is not None:
                der.apply(step, der.test(step))
            step = matching.repair()
            if step is not None:
                got = der.test(step)
                if got is None:
                    return None  # an internal error: the search's set does not show the contradiction
                der.apply(step, got)
            changed = False
            for step in matching.filtering():
                got = der.test(step)
                if got is not None:
                    changed |= der.apply(step, got)
                    changed |= der.propagate()
            if not changed:
                step = area_step(der, pockets=True) or exact_step(der)
                if step is not None:
                    der.apply(step, der.test(step))
                elif not (cuts and _crossings(der)):
                    return None
    except Dead:
        return der.steps
    return None


def _crossings(der):
    """The edges the bridges and two-edge cuts of the options left force (``crossing`` steps), then the future
    lines; True if a fact changed (:class:`Dead` at a contradiction)."""
    changed = False
    for step in crossing_steps(der):
        got = der.test(step)
        if got is not None:
            changed |= der.apply(step, got)
    if changed:
        der.propagate()
    return changed


def _derived(board, cache, cuts, suppose=(), removed=()):
    """:func:`derive` with cuts, kept in ``cache`` by its suppositions, and its answer without them: the run is
    the same up to the first ``crossing`` step, so a derivation without one is also the one without cuts, and
    one with one means that without cuts none is found. ``[steps, minimal steps or None]``, or None."""
    key = (tuple(suppose), tuple(removed))
    if key not in cache:
        steps = derive(board, suppose=suppose, removed=removed, cuts=True)
        cache[key] = None if steps is None else [steps, None]
    got = cache[key]
    if got is None or (not cuts and any(step["kind"] == "crossing" for step in got[0])):
        return None
    return got


def derive_cases(board, depth=MAX_DEPTH, *, cuts=True, cache=None):
    """The probe's derivation (:mod:`labyrinth.rules.probe`): a ``case`` for each way on from the head, each
    refuted by :func:`derive` with that edge supposed, then the head left with none (``degree``); None if a case
    is not refuted.

    A case :func:`derive` does not refute is split again on the ways on from
    the cell its edge reaches, ``depth`` levels deep at most (the deep probe,
    ``probe:K``: the checker replays nested cases), within :data:`MAX_CASES`
    derivations in all. ``cuts``: the cases' derivations look for bridges and
    two-edge cuts too (:func:`derive`). ``cache``: a dict kept between calls
    on one board (the cases' derivations, with and without cuts at once).
    """
    if board.head == board.end:
        return None
    return _cases(board, board.head, [], [], depth, [MAX_CASES], cuts, {} if cache is None else cache)


def _cases(board, x, supposed, removed, depth, budget, cuts, cache):
    """The cases on each way on from ``x`` with the edges ``supposed`` forced and ``removed`` gone, then ``x``
    left with none; None when one stands."""
    steps, removed = [], list(removed)
    for y in sorted(board.adj[x]):
        key = edge_key(x, y)
        if any(edge_key(*e) == key for e in supposed + removed):
            continue  # the edge the line came by, or one an earlier case removed
        budget[0] -= 1
        if budget[0] < 0:
            return None
        suppose = supposed + [(x, y)]
        got, inner = _derived(board, cache, cuts, suppose, removed), None
        if got is not None:
            if got[1] is None:
                start = Facts(forced=[edge_key(*e) for e in suppose], removed=[edge_key(*e) for e in removed])
                got[1] = minimal(board, got[0], start)  # the case's own steps, minimal from what it supposes
            inner = got[1]
        elif depth > 1:
            inner = _cases(board, y, suppose, removed, depth - 1, budget, cuts, cache)
        if inner is None:
            return None
        edge = [list(board.xy(c)) for c in sorted((x, y))]
        steps.append({"kind": "case", "edge": edge, "steps": inner, "removes": [edge]})
        removed.append((x, y))
    steps.append({"kind": "degree", "cell": list(board.xy(x)), "dead": True})
    return steps


def count_first(board):
    """A one-step derivation by counting alone (an area or a Hall set on the bare board), or None."""
    der = Derivation(board)
    for find in (lambda: area_step(der, pockets=False), lambda: Matching(der).repair(),
                 lambda: area_step(der, pockets=True)):
        step = find()
        if step is not None:
            got = der.test(step)
            if got is not None and got.dead:
                return [{**step, "dead": True}]
    return None


def cells_named(steps):
    """The distinct cells the steps name (a step's cell, its sets, its pieces, its edge's ends)."""
    out = set()
    for step in steps:
        named = [step["cell"]] if "cell" in step else []
        named += list(step.get("cells", [])) + [c for p in step.get("pieces", []) for c in p]
        named += list(step.get("edge", []))
        out.update(tuple(c) for c in named)
    return len(out)


def weights_steps(state, move):
    """The subtour relaxation's refutation of ``move`` (:mod:`labyrinth.rules.subtour`) as one ``weights`` step,
    or None (no refutation, or more free cells than it takes). The numbers are the rule's, exactly."""
    from labyrinth.engine import State
    from labyrinth.rules.subtour import refutation_of

    n, _, moves = state.partition(":")
    after = State.from_moves(int(n), moves).after(move)
    found = refutation_of(after)
    if found is None:
        return None

    def xy(c):
        return [c % after.n + 1, c // after.n + 1]

    def number(f):
        return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"

    numbers = [[xy(c), number(v)] for c, v in sorted(found.cells.items()) if v]
    regions = [{"cells": [xy(c) for c in sorted(cells)], "number": number(z)} for cells, z in found.regions if z]
    return [{"kind": "weights", "numbers": numbers, "regions": regions, "dead": True}]


def _size(steps):
    """Steps first, then the cells they name: what "smaller" means between two certificates."""
    return len(steps), cells_named(steps)


def certificate(state, move, *, minimise=True, counting=True):
    """The certificate that ``move`` from ``state`` leaves no completion, or None when the builder finds none.

    Parameters
    ----------
    state : str or labyrinth.engine.State
        The state before the move (``N:MOVES`` or a state).
    move : str
        ``U``, ``D``, ``L`` or ``R``.
    minimise : bool
        Drop the steps the contradiction does not depend on and shrink the
        steps' sets (default); False keeps the derivation as found.
    counting : bool
        When the minimal derivation has more than one step, also try a
        single count on the bare board (an area or a Hall set) and keep the
        smaller certificate (default); False keeps the derivation's.

    Returns
    -------
    dict or None
        ``{"steps": [...]}`` in the checker's format.
    """
    text = state if isinstance(state, str) else state.compact()
    board = Board.after(text, move)
    steps, cache = None, {}
    for cuts in (False, True):  # a certificate without crossing steps where there is one: as before cuts came
        got = _derived(board, cache, cuts)
        steps = got[0] if got is not None else derive_cases(board, cuts=cuts, cache=cache)  # the probe's cases
        if steps is not None:
            break
    if steps is None:
        steps = weights_steps(text, move)  # the subtour relaxation (labyrinth.rules.subtour): one step, or None
        return None if steps is None else {"steps": steps}
    if minimise:
        steps = minimal(board, steps)
        if len(steps) > 1 and counting:
            counted = count_first(board)
            if counted is not None:
                counted = minimal(board, counted)
                if _size(counted) < _size(steps):
                    steps = counted
    return {"steps": steps}
