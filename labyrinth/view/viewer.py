"""The browser viewer's work, apart from HTTP: load a line, describe a step, list and open findings.

Every answer is JSON-ready data; bad input raises :class:`~labyrinth.errors.LabyrinthError`
with a one-line message that the page shows (the server never turns it into a
server error). One :class:`Viewer` owns one oracle and one SAT solver for
patterns, used under a lock, so a threading server can share it.

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
import dataclasses
import threading

from labyrinth.engine import parse_compact
from labyrinth.engine.formats import parse_trace
from labyrinth.errors import LabyrinthError
from labyrinth.view.model import describe, place_pattern, stuck_pattern
from labyrinth.view.svg import inline, render

__all__ = ["MAX_N", "MAX_TEXT", "SIZES", "Viewer"]

#: the largest board the viewer draws (the oracle's time limit still applies)
MAX_N = 49
#: the longest text accepted as a line
MAX_TEXT = 200_000
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
    """

    def __init__(self, db=None, rule_sets=None, *, backend="auto", time_limit=5.0):
        from labyrinth.rules import RULE_SETS
        from oracle import get_oracle

        self.db = None if db is None else str(db)
        self.rule_sets = tuple(rule_sets or RULE_SETS)
        self.time_limit = time_limit
        self.oracle = get_oracle(backend, time_limit=time_limit)
        self._rules = {}
        self._patterns = {}
        self._views = collections.OrderedDict()
        self._lock = threading.Lock()

    def close(self):
        with self._lock:
            self.oracle.close()

    # --- the API ---------------------------------------------------------------------------------------------
    def meta(self):
        """What the page offers: sizes, rule sets, and whether a store is open."""
        count = None
        if self.db is not None:
            with self._store() as store:
                count = len(store.findings())
        return {"sizes": list(SIZES), "rule_sets": list(self.rule_sets), "default_rules": self.rule_sets[0],
                "store": self.db, "findings": count, "max_n": MAX_N}

    def load(self, text, rules=None):
        """A line from the load box: compact ``N:MOVES`` or a research file's text.

        Returns the line (compact), its moves, the research program's allowed
        moves per step when the text is a research file, notes made while
        loading, and the line's oracle status and first dead step.
        """
        state, options, notes = self._parse(text)
        self._rule_set(rules)  # a bad name fails here, before any work
        from oracle import first_dead_step

        with self._lock:
            final = self.oracle.decide(state) if not state.is_complete() else None
            if final is None:
                status, dead = "complete", None
            else:
                status = final.status
                dead = first_dead_step(state, self.oracle, final)[0] if final.feasible is False else None
        return {"line": state.compact(), "n": state.n, "moves": state.moves, "steps": state.steps,
                "options": options, "notes": notes, "status": status, "first_dead_step": dead}

    def view(self, state_text, rules=None):
        """One step: the :class:`~labyrinth.view.model.StateView` as JSON, with its SVG under ``svg``."""
        state, _, _ = self._parse(state_text, compact_only=True)
        rule_set = self._rule_set(rules)
        key = (state, rule_set.name if rule_set else None)
        with self._lock:
            if key in self._views:
                self._views.move_to_end(key)
                return self._views[key]
            v = describe(state, rule_set, self.oracle, pattern=False)
            if v.first_dead_step is not None:
                dead = state.prefix(v.first_dead_step)
                if dead not in self._patterns:
                    self._patterns[dead] = stuck_pattern(dead, time_limit=self.time_limit)
                if self._patterns[dead] is not None:
                    v = dataclasses.replace(v, pattern=place_pattern(self._patterns[dead], dead))
            out = v.to_json()
            out["svg"] = inline(render(v, cell=max(14, min(48, 520 // state.n))))
            self._views[key] = out
            if len(self._views) > 512:
                self._views.popitem(last=False)
        return out

    def findings(self, limit=500):
        """The store's findings, newest last (at most ``limit``)."""
        if self.db is None:
            return []
        with self._store() as store:
            rows = store.findings()
        return [{"id": f["id"], "campaign": f["campaign"], "kind": f["kind"], "state": f["state"], "move": f["move"],
                 "rules": f["rules"], "pattern": f["pattern"]} for f in rows[-limit:]]

    def finding(self, fid):
        """One finding, ready to open: the line (its state plus the move) and the step of its state."""
        if self.db is None:
            raise LabyrinthError("no findings store open (start with labyrinth serve --db FILE)")
        try:
            fid = int(fid)
        except (TypeError, ValueError):
            raise LabyrinthError("a finding id is a number", token=str(fid)) from None
        with self._store() as store:
            f = store.finding(fid)
        state = parse_compact(f["state"], source=f"finding {fid}")
        line = state.after(f["move"])
        return {"id": fid, "kind": f["kind"], "move": f["move"], "rules": f["rules"], "witness": f["witness"],
                "line": line.compact(), "step": state.steps, "campaign": f["campaign"],
                "pattern": None if f["pattern"] is None else f["pattern"]["id"]}

    # --- helpers ---------------------------------------------------------------------------------------------
    def _store(self):
        from verify.store import Store

        return Store(self.db, create=False)

    def _parse(self, text, compact_only=False):
        if not isinstance(text, str) or not text.strip():
            raise LabyrinthError("nothing to load: give N:MOVES or a research file's text")
        if len(text) > MAX_TEXT:
            raise LabyrinthError(f"the text is too long ({len(text)} characters, at most {MAX_TEXT})")
        text = text.strip()
        size = text.split("|" if "|" in text else ":", 1)[0].strip()
        if size.isdigit() and int(size) > MAX_N:
            raise LabyrinthError(f"the viewer draws boards up to {MAX_N}x{MAX_N}", token=size)
        if "|" in text and not compact_only:
            trace = parse_trace(text, source="loaded file")
            options = [None if o is None else "".join(o) for o in trace.options]
            return trace.state, options, list(trace.notes)
        if ":" not in text and size.isdigit():
            text += ":"  # a bare size: the empty line
        return parse_compact(text), None, []

    def _rule_set(self, name):
        if name in (None, ""):
            name = self.rule_sets[0]
        if name not in self.rule_sets:
            raise LabyrinthError(f"unknown rule set (choose from {', '.join(self.rule_sets)})", token=str(name))
        if name not in self._rules:
            if name == "oracle":
                from labyrinth.rules import OracleRules

                self._rules[name] = OracleRules(self.oracle)
            else:
                from labyrinth.rules import get_rule_set

                self._rules[name] = get_rule_set(name)
        return self._rules[name]
