"""The findings store: one SQLite file (default ``./labyrinth.db``) of campaigns, findings and patterns.

A campaign is split into *units* (a walk, a keep-left subtree); a unit's
findings, their patterns and the unit's "done" mark are written in one
transaction, and a finding is reported only after that commit. So a campaign
killed at any moment (SIGKILL included) loses at most the unit in flight,
which ``--resume`` redoes; nothing it already reported. The file runs in WAL
mode with a busy timeout, so several processes can write at once.

Tables: ``campaigns`` (kind, parameters, seed, rule-set fingerprint, code
version, totals), ``units``, ``findings`` (class, state, move, blamed rules
and cells, witness, pattern, stuck step, confirming backend) and
``patterns`` (canonical key, drawing, facts, count, first seen, example).
"""

import json
import sqlite3
import time

from labyrinth.errors import LabyrinthError

__all__ = ["Store", "StoreError"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS campaigns (
    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, params TEXT NOT NULL, seed INTEGER, rules TEXT,
    fingerprint TEXT, code_version TEXT, started REAL, finished REAL, totals TEXT, elapsed REAL);
CREATE TABLE IF NOT EXISTS units (
    campaign INTEGER NOT NULL REFERENCES campaigns(id), unit TEXT NOT NULL, totals TEXT, done REAL,
    PRIMARY KEY (campaign, unit));
CREATE TABLE IF NOT EXISTS patterns (
    id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, drawing TEXT, facts TEXT, count INTEGER NOT NULL DEFAULT 0,
    first_seen REAL, example TEXT, heading TEXT, turn TEXT);
CREATE TABLE IF NOT EXISTS findings (
    id INTEGER PRIMARY KEY, campaign INTEGER NOT NULL REFERENCES campaigns(id), unit TEXT, kind TEXT NOT NULL,
    n INTEGER, state TEXT NOT NULL, move TEXT NOT NULL, rules TEXT, cells TEXT, witness TEXT,
    pattern INTEGER REFERENCES patterns(id), stuck_step INTEGER, checked_by TEXT, created REAL,
    UNIQUE (campaign, kind, state, move));
CREATE INDEX IF NOT EXISTS findings_kind ON findings (kind);
"""


class StoreError(LabyrinthError):
    """The store file cannot be opened or is not a findings store."""


class Store:
    """A findings store; a context manager. ``path`` ``":memory:"`` keeps it in memory."""

    def __init__(self, path="labyrinth.db"):
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, timeout=60.0, isolation_level=None)
            self.db.execute("PRAGMA busy_timeout = 60000")
            if self.path != ":memory:":
                self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.executescript(_SCHEMA)
            columns = {r[1] for r in self.db.execute("PRAGMA table_info(campaigns)")}
            if "elapsed" not in columns:  # a store written before campaigns kept their wall time
                self.db.execute("ALTER TABLE campaigns ADD COLUMN elapsed REAL")
        except sqlite3.DatabaseError as err:
            raise StoreError(f"not a findings store ({err})", source=self.path) from None
        self.db.row_factory = sqlite3.Row

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.db is not None:
            self.db.close()
            self.db = None

    # --- campaigns ------------------------------------------------------------------
    def start_campaign(self, kind, params, *, seed=None, rules=None, fingerprint=None, code_version=None,
                       resume=False):
        """A campaign id: the last unfinished one with the same parameters when ``resume``, else a new one."""
        text = json.dumps(params, sort_keys=True)
        if resume:
            row = self.db.execute(
                "SELECT id FROM campaigns WHERE kind = ? AND params = ? AND fingerprint IS ? "
                "ORDER BY id DESC LIMIT 1", (kind, text, fingerprint)).fetchone()
            if row is not None:
                return row["id"]
        cur = self.db.execute(
            "INSERT INTO campaigns (kind, params, seed, rules, fingerprint, code_version, started) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", (kind, text, seed, rules, fingerprint, code_version, time.time()))
        return cur.lastrowid

    def finish_campaign(self, campaign, totals):
        self.db.execute("UPDATE campaigns SET finished = ?, totals = ? WHERE id = ?",
                        (time.time(), json.dumps(totals), campaign))

    def elapsed(self, campaign):
        """Wall seconds the campaign's runs took so far (None for a campaign of an older store)."""
        row = self.db.execute("SELECT elapsed FROM campaigns WHERE id = ?", (campaign,)).fetchone()
        return None if row is None else row[0]

    def set_elapsed(self, campaign, seconds):
        self.db.execute("UPDATE campaigns SET elapsed = ? WHERE id = ?", (seconds, campaign))

    def campaigns(self):
        return [dict(r) for r in self.db.execute("SELECT * FROM campaigns ORDER BY id")]

    def campaign(self, campaign):
        row = self.db.execute("SELECT * FROM campaigns WHERE id = ?", (campaign,)).fetchone()
        if row is None:
            raise StoreError("no such campaign", source=self.path, token=str(campaign))
        return dict(row)

    # --- units ----------------------------------------------------------------------
    def done_units(self, campaign):
        """``{unit: totals}`` of the units already recorded for ``campaign``."""
        rows = self.db.execute("SELECT unit, totals FROM units WHERE campaign = ?", (campaign,))
        return {r["unit"]: json.loads(r["totals"] or "{}") for r in rows}

    def record_unit(self, campaign, unit, findings, totals, *, elapsed=None):
        """Write a unit's findings, their patterns and its done mark in one transaction.

        ``elapsed``: the campaign's wall seconds so far, stored with the unit
        (so a killed run keeps the time it spent). Returns the ids of the
        findings that were new (a redone unit repeats none).
        """
        now = time.time()
        new = []
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for f in findings:
                n = int(f.state.split(":")[0])
                cur = self.db.execute(
                    "INSERT OR IGNORE INTO findings (campaign, unit, kind, n, state, move, rules, cells, witness, "
                    "stuck_step, checked_by, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (campaign, unit, f.kind, n, f.state, f.move, json.dumps(list(f.rules)),
                     json.dumps([list(c) for c in f.cells]), f.witness, f.stuck_step, f.checked_by, now))
                if not cur.rowcount:
                    continue
                fid = cur.lastrowid
                new.append(fid)
                if f.pattern is not None:
                    pattern_id = self._add_pattern(f.pattern, now)
                    self.db.execute("UPDATE findings SET pattern = ? WHERE id = ?", (pattern_id, fid))
            self.db.execute("INSERT OR REPLACE INTO units (campaign, unit, totals, done) VALUES (?, ?, ?, ?)",
                            (campaign, unit, json.dumps(totals), now))
            if elapsed is not None:
                self.db.execute("UPDATE campaigns SET elapsed = ? WHERE id = ?", (elapsed, campaign))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return new

    def set_pattern(self, finding, pattern):
        """Attach a minimal pattern to a stored finding that has none (``minimize --finding`` fills it in)."""
        now = time.time()
        self.db.execute("BEGIN IMMEDIATE")
        try:
            pattern_id = self._add_pattern(pattern, now)
            self.db.execute("UPDATE findings SET pattern = ? WHERE id = ? AND pattern IS NULL", (pattern_id, finding))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return pattern_id

    def _add_pattern(self, p, now):
        """Insert a pattern (or count one more sighting of it); its id. Inside a transaction."""
        self.db.execute(
            "INSERT INTO patterns (key, drawing, facts, count, first_seen, example, heading, turn) "
            "VALUES (?, ?, ?, 0, ?, ?, ?, ?) ON CONFLICT(key) DO NOTHING",
            (p.key, p.draw(), json.dumps([list(x) for x in p.facts]), now, p.example, p.heading, p.turn))
        self.db.execute("UPDATE patterns SET count = count + 1 WHERE key = ?", (p.key,))
        return self.db.execute("SELECT id FROM patterns WHERE key = ?", (p.key,)).fetchone()[0]

    # --- reading --------------------------------------------------------------------
    def findings(self, campaign=None, kind=None):
        sql, args = "SELECT * FROM findings WHERE 1", []
        if campaign is not None:
            sql += " AND campaign = ?"
            args.append(campaign)
        if kind is not None:
            sql += " AND kind = ?"
            args.append(kind)
        return [_finding_row(r) for r in self.db.execute(sql + " ORDER BY id", args)]

    def finding(self, fid):
        if isinstance(fid, int) and not -2**63 <= fid < 2**63:  # SQLite would raise OverflowError
            raise StoreError("no such finding", source=self.path, token=str(fid))
        row = self.db.execute("SELECT * FROM findings WHERE id = ?", (fid,)).fetchone()
        if row is None:
            raise StoreError("no such finding", source=self.path, token=str(fid))
        out = _finding_row(row)
        if out["pattern"] is not None:
            out["pattern"] = self.pattern(out["pattern"])
        return out

    def pattern(self, pid):
        row = self.db.execute("SELECT * FROM patterns WHERE id = ?", (pid,)).fetchone()
        if row is None:
            raise StoreError("no such pattern", source=self.path, token=str(pid))
        out = dict(row)
        out["facts"] = json.loads(out["facts"])
        return out

    def patterns(self):
        rows = self.db.execute("SELECT * FROM patterns ORDER BY count DESC, id")
        return [dict(r, facts=json.loads(r["facts"])) for r in rows]


def _finding_row(row):
    out = dict(row)
    out["rules"] = json.loads(out["rules"] or "[]")
    out["cells"] = [tuple(c) for c in json.loads(out["cells"] or "[]")]
    return out
