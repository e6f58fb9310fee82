"""The browser viewer's work, apart from HTTP: load a line, describe a step, list and open findings.

Every answer is JSON-ready data; bad input raises :class:`~labyrinth.errors.LabyrinthError`
with a one-line message that the page shows (the server never turns it into a
server error). A threading server shares one :class:`Viewer`: each request
borrows one of a few oracles (with its own rule sets), patterns are searched
outside any lock, and the caches have their own short lock, so one slow
request never holds up the others.

>>> v = Viewer(time_limit=5)
>>> v.load("5:RRDD", "universal")["line"]
'5:RRDD'
>>> v.view("5:RRDD", "universal")["status"]
'alive'
>>> v.view("5:RRLL", "universal")
Traceback (most recent call last):
...
labyrinth.errors.PathError: 5:RRLL at 'L': step 3: move L from (3, 1) revisits (2, 1)
>>> v.close()
"""

import collections
import contextlib
import dataclasses
import os
import re
import threading

from labyrinth.engine import parse_compact
from labyrinth.engine.formats import parse_trace
from labyrinth.errors import BoardSizeError, LabyrinthError
from labyrinth.view.model import describe, place_pattern, stuck_pattern
from labyrinth.view.svg import inline, render

__all__ = ["MAX_ID_DIGITS", "MAX_N", "MAX_TEXT", "ORACLES", "SIZES", "Viewer"]

#: the largest board the viewer draws (the oracle's time limit still applies)
MAX_N = 49
#: the longest text accepted as a line
MAX_TEXT = 200_000
#: the most digits of a finding id (any 18-digit number fits SQLite's 64-bit integers)
MAX_ID_DIGITS = 18
#: oracles the viewer runs at once: a slow request holds one, the others keep answering
ORACLES = 4
#: views and patterns remembered (least recently used dropped first)
_VIEWS_KEPT = 512
_PATTERNS_KEPT = 4096
#: ASCII digits only: int() would also read "+7", "1_1" and other scripts' digits such as "٧"
_DIGITS = re.compile(r"[0-9]+")
#: board sizes offered by the size selector
SIZES = tuple(range(3, 27, 2))


class Viewer:
    """The viewer's state: an oracle, a SAT solver for patterns, rule sets and caches; ``db`` a findings store.

    Parameters
    ----------
    db : str, optional
        A findings store to list and open findings from.
    rule_sets : sequence of str, optional
        The rule-set names offered (default: every named set).
    backend : str
        The oracle backend.
    time_limit : float
        Seconds per oracle query and per pattern search.
    oracles : int
        Oracles run at once (requests beyond that wait for one to be free).
    """

    def __init__(self, db=None, rule_sets=None, *, backend="auto", time_limit=5.0, oracles=ORACLES):
        from labyrinth.rules import RULE_SETS

        if isinstance(oracles, bool) or not isinstance(oracles, int) or oracles < 1:
            raise LabyrinthError("the number of oracles must be a whole number >= 1", token=str(oracles))
        self.db = None if db is None else str(db)
        self.rule_sets = tuple(rule_sets or RULE_SETS)
        self.time_limit = time_limit
        self.backend = backend
        self._idle = [_Worker(backend, time_limit)]  # the first one now: a bad backend fails at start
        self._made = 1
        self._max_workers = oracles
        self._pool = threading.Condition()
        self._closed = False
        self._cache = threading.Lock()  # guards the caches below only, never held during work
        self._patterns = collections.OrderedDict()
        self._pattern_locks = {}
        self._views = collections.OrderedDict()

    def close(self):
        """Close the idle oracles now and the busy ones as their requests finish."""
        with self._pool:
            self._closed = True
            idle, self._idle = self._idle, []
            self._pool.notify_all()
        for worker in idle:
            worker.oracle.close()

    # --- the API ---------------------------------------------------------------------------------------------
    def meta(self):
        """What the page offers: sizes, rule sets, and whether a store is open."""
        count = None
        if self.db is not None:
            with self._store() as store:
                count = sum(_labyrinth(f["state"]) for f in store.findings())
        return {"sizes": list(SIZES), "rule_sets": list(self.rule_sets), "default_rules": self.rule_sets[0],
                "store": None if self.db is None else os.path.basename(self.db), "findings": count, "max_n": MAX_N}

    def load(self, text, rules=None):
        """A line from the load box: compact ``N:MOVES`` or a research file's text.

        Returns the line (compact), its moves, the research program's allowed
        moves per step when the text is a research file, notes made while
        loading, and the line's oracle status and first dead step.
        """
        state, options, notes = self._parse(text)
        self._rule_name(rules)  # a bad name fails here, before any work
        from oracle import first_dead_step

        if state.is_complete():
            status, dead = "complete", None
        else:
            with self._worker() as worker:
                final = worker.oracle.decide(state)
                status = final.status
                dead = first_dead_step(state, worker.oracle, final)[0] if final.feasible is False else None
        return {"line": state.compact(), "n": state.n, "moves": state.moves, "steps": state.steps,
                "options": options, "notes": notes, "status": status, "first_dead_step": dead}

    def view(self, state_text, rules=None):
        """One step: the :class:`~labyrinth.view.model.StateView` as JSON, with its SVG under ``svg``."""
        state, _, _ = self._parse(state_text, compact_only=True)
        name = self._rule_name(rules)
        key = (state, name)
        with self._cache:
            if key in self._views:
                self._views.move_to_end(key)
                return self._views[key]
        with self._worker() as worker:
            v = describe(state, worker.rule_set(name), worker.oracle, pattern=False)
        if v.first_dead_step is not None:
            dead = state.prefix(v.first_dead_step)
            found = self._pattern(dead)
            if found is not None:
                v = dataclasses.replace(v, pattern=place_pattern(found, dead))
        out = v.to_json()
        out["svg"] = inline(render(v, cell=max(14, min(48, 520 // state.n))))
        out.update(_certificates(state, sorted(v.disabled)))
        with self._cache:
            self._views[key] = out
            while len(self._views) > _VIEWS_KEPT:
                self._views.popitem(last=False)
        return out

    def findings(self, limit=500):
        """The store's findings of the labyrinth (what the viewer opens), newest last (at most ``limit``)."""
        if self.db is None:
            return []
        with self._store() as store:
            rows = [f for f in store.findings() if _labyrinth(f["state"])]
        return [{"id": f["id"], "campaign": f["campaign"], "kind": f["kind"], "state": f["state"], "move": f["move"],
                 "rules": f["rules"], "pattern": f["pattern"]} for f in rows[-limit:]]

    def finding(self, fid):
        """One finding, ready to open: the line (its state plus the move), the step of its state, and the rule
        set to see it under (``rule_set``: its campaign's, when the viewer offers it; else ``None``)."""
        if self.db is None:
            raise LabyrinthError("no findings store open (start with labyrinth serve --db FILE)")
        fid = _finding_id(fid)
        with self._store() as store:
            f = store.finding(fid)
            campaign_rules = store.campaign(f["campaign"])["rules"]
        if not _labyrinth(f["state"]):
            raise LabyrinthError(f"a finding of the {f['state'].split(':', 1)[0]} puzzle: the viewer steps through "
                                 f"labyrinth walks ('labyrinth findings show {fid}' draws it)", source=f"finding {fid}")
        state = parse_compact(f["state"], source=f"finding {fid}")
        line = state.after(f["move"])
        return {"id": fid, "kind": f["kind"], "move": f["move"], "rules": f["rules"], "witness": f["witness"],
                "line": line.compact(), "step": state.steps, "campaign": f["campaign"],
                "campaign_rules": campaign_rules,
                "rule_set": campaign_rules if campaign_rules in self.rule_sets else None,
                "pattern": None if f["pattern"] is None else f["pattern"]["id"]}

    # --- helpers ---------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _store(self):
        """The findings store, read; its refusals name the file only (a 400 is no place for the server's folders)."""
        from verify.store import Store

        try:
            with Store(self.db, create=False, check=False) as store:  # (checked whole when the server started)
                yield store
        except LabyrinthError as err:
            if err.source != self.db:
                raise
            raise LabyrinthError(err.reason, source=os.path.basename(self.db), token=err.token) from None

    @contextlib.contextmanager
    def _worker(self):
        """Borrow an idle worker (an oracle and its rule sets), making one while fewer than ``oracles`` exist."""
        with self._pool:
            while not self._closed and not self._idle and self._made >= self._max_workers:
                self._pool.wait()
            if self._closed:
                raise LabyrinthError("the viewer is shutting down")
            worker = self._idle.pop() if self._idle else None
            if worker is None:
                self._made += 1
        if worker is None:
            try:
                worker = _Worker(self.backend, self.time_limit)
            except BaseException:
                with self._pool:
                    self._made -= 1
                    self._pool.notify()
                raise
        try:
            yield worker
        finally:
            with self._pool:
                closed = self._closed
                if not closed:
                    self._idle.append(worker)  # last in, first out: its memo of the line just asked is warm
                    self._pool.notify()
            if closed:
                worker.oracle.close()

    def _pattern(self, dead):
        """The minimal stuck pattern of ``dead``, searched once: askers of the same state wait, others do not."""
        with self._cache:
            if dead in self._patterns:
                self._patterns.move_to_end(dead)
                return self._patterns[dead]
            lock = self._pattern_locks.setdefault(dead, threading.Lock())
        with lock:
            with self._cache:
                if dead in self._patterns:
                    return self._patterns[dead]
            try:
                found = stuck_pattern(dead, time_limit=self.time_limit)
                with self._cache:
                    self._patterns[dead] = found
                    while len(self._patterns) > _PATTERNS_KEPT:
                        self._patterns.popitem(last=False)
            finally:
                with self._cache:
                    self._pattern_locks.pop(dead, None)
        return found

    def _parse(self, text, compact_only=False):
        """A line from user text, its size checked strictly (ASCII digits, at most MAX_N) before any parsing."""
        if not isinstance(text, str) or not text.strip():
            raise LabyrinthError("nothing to load: give N:MOVES or a research file's text")
        if len(text) > MAX_TEXT:
            raise LabyrinthError(f"the text is too long ({len(text)} characters, at most {MAX_TEXT})")
        text = text.strip().lstrip("\ufeff")
        sep = "|" if "|" in text else ":" if ":" in text else None
        size = text.split(sep, 1)[0].strip() if sep else text
        if sep or _DIGITS.fullmatch(size):
            _check_size(size)
        if sep == "|" and not compact_only:
            trace = parse_trace(text, source="loaded file")
            options = [None if o is None else "".join(o) for o in trace.options]
            return trace.state, options, list(trace.notes)
        if sep is None and _DIGITS.fullmatch(size):
            text += ":"  # a bare size: the empty line
        return parse_compact(text), None, []

    def _rule_name(self, name):
        """The rule set's name, checked against the offered ones (the default for none)."""
        if name in (None, ""):
            return self.rule_sets[0]
        if not isinstance(name, str) or name not in self.rule_sets:
            raise LabyrinthError(f"unknown rule set (choose from {', '.join(self.rule_sets)})",
                                 token=_clip(name) if isinstance(name, str) else type(name).__name__)
        return name


class _Worker:
    """One oracle and the rule sets asked with it, used by one request at a time (neither is thread-safe)."""

    def __init__(self, backend, time_limit):
        from oracle import get_oracle

        self.oracle = get_oracle(backend, time_limit=time_limit)
        self.rules = {}

    def rule_set(self, name):
        """The rule set ``name`` (built once per worker; ``oracle`` asks this worker's oracle)."""
        if name not in self.rules:
            if name == "oracle":
                from labyrinth.rules import OracleRules

                self.rules[name] = OracleRules(self.oracle)
            else:
                from labyrinth.rules import get_rule_set

                self.rules[name] = get_rule_set(name)
        return self.rules[name]


def _certificates(state, closed):
    """Why each closed move is dead: ``certificates`` (move -> its steps in words, or None when the builder
    finds none) and ``certificate_svg`` (each certificate's last step drawn, with every fact before it)."""
    from labyrinth.view.certificate import render_certificates
    from verify.certificates import closed_certificates, sentences

    found = closed_certificates(state, None, closed) if closed and not state.is_complete() else {}
    words = {m: None if c is None else sentences(state, m, c) for m, c in found.items()}
    svg = None
    if found:
        svg = inline(render_certificates(state, list(found.items()), last=True, columns=1,
                                         cell=max(8, min(20, 260 // state.n))))
    return {"certificates": words, "certificate_svg": svg}


def _clip(text, limit=24):
    """``text`` cut to ``limit`` characters for an error message (a hostile input can be long)."""
    return text if len(text) <= limit else text[:limit] + "…"


def _check_size(size):
    """Reject a board size that is not ASCII digits or is above MAX_N, before any board is built."""
    if not _DIGITS.fullmatch(size):
        raise BoardSizeError(f"a board size is written with the digits 0-9 only (an odd number 3 to {MAX_N})",
                             token=_clip(size))
    if len(size.lstrip("0")) > 2 or int(size) > MAX_N:
        raise BoardSizeError(f"the viewer draws boards up to {MAX_N}x{MAX_N}", token=_clip(size))


def _labyrinth(state_text):
    """Whether a stored finding's state is the labyrinth's (``N:MOVES``), not another puzzle's (``knight:5@...``)."""
    return state_text.split(":", 1)[0].isdigit()


def _finding_id(text):
    """A finding id from user text: ASCII digits, at most MAX_ID_DIGITS of them (SQLite's integers are 64-bit)."""
    if text is None:
        raise LabyrinthError("give a finding id: /api/finding?id=K")
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        raise LabyrinthError("a finding id is a number (the digits 0-9)",
                             token=_clip(text) if isinstance(text, str) else type(text).__name__)
    if len(text) > MAX_ID_DIGITS:
        raise LabyrinthError(f"a finding id is a number of at most {MAX_ID_DIGITS} digits", token=_clip(text))
    return int(text)
