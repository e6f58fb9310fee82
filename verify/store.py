"""The findings store: one SQLite file (default ``./labyrinth.db``) of campaigns, findings and patterns.

A campaign is split into *units* (a walk, a keep-left subtree); a unit's
findings, their patterns and the unit's "done" mark are written in one
transaction, and a finding is reported only after that commit. So a campaign
killed at any moment (SIGKILL included) loses at most the unit in flight,
which ``--resume`` redoes; nothing it already reported. The file runs in WAL
mode with a busy timeout, so several processes can write at once.

Tables: ``campaigns`` (kind, parameters, seed, rule-set fingerprint, code
version, totals), ``units`` (totals, the run that recorded it, how many times
it ran), ``findings`` (class, state, move, blamed rules and cells, witness,
pattern, stuck step, confirming backend, explanation: the class of a
missed-dead finding, :mod:`verify.explain`), ``patterns`` (canonical key,
drawing, facts, count, first seen, example) and ``claims`` (the units runs
are working on, so that concurrent runs share a campaign: :mod:`labyrinth.jobs.claims`).

Every store is opened through :class:`Store`, which checks it before any
work: an existing file is opened only if it is a regular file (its side
files too) and a findings store of a schema version this code reads (or an
empty file, or an SQLite file without tables) that passes ``PRAGMA
quick_check``; opened for writing, it must take a write. Anything else is
refused in one line and left untouched. A store of an older version gains
the new tables and columns.
"""

import contextlib
import functools
import json
import sqlite3
import time

from labyrinth.errors import CampaignExists, LabyrinthError
from labyrinth.files import readable_store, writable_store
from labyrinth.jobs.claims import CLAIM_TIMEOUT, owner_alive

__all__ = ["SCHEMA_VERSION", "Store", "StoreError"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS campaigns (
    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, params TEXT NOT NULL, seed INTEGER, rules TEXT,
    fingerprint TEXT, code_version TEXT, started REAL, finished REAL, totals TEXT, elapsed REAL);
CREATE TABLE IF NOT EXISTS units (
    campaign INTEGER NOT NULL REFERENCES campaigns(id), unit TEXT NOT NULL, totals TEXT, done REAL, owner TEXT,
    runs INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (campaign, unit));
CREATE TABLE IF NOT EXISTS patterns (
    id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, drawing TEXT, facts TEXT, count INTEGER NOT NULL DEFAULT 0,
    first_seen REAL, example TEXT, heading TEXT, turn TEXT);
CREATE TABLE IF NOT EXISTS findings (
    id INTEGER PRIMARY KEY, campaign INTEGER NOT NULL REFERENCES campaigns(id), unit TEXT, kind TEXT NOT NULL,
    n INTEGER, state TEXT NOT NULL, move TEXT NOT NULL, rules TEXT, cells TEXT, witness TEXT,
    pattern INTEGER REFERENCES patterns(id), stuck_step INTEGER, checked_by TEXT, created REAL,
    UNIQUE (campaign, kind, state, move));
CREATE INDEX IF NOT EXISTS findings_kind ON findings (kind);
CREATE TABLE IF NOT EXISTS claims (
    campaign INTEGER NOT NULL, unit TEXT NOT NULL, owner TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
    start INTEGER, claimed REAL NOT NULL, heartbeat REAL NOT NULL, PRIMARY KEY (campaign, unit));
CREATE INDEX IF NOT EXISTS claims_owner ON claims (owner);
"""
#: the tables that make a file a findings store (``claims`` came later: an older store gains it)
_TABLES = {"campaigns", "units", "patterns", "findings"}
#: columns added since the first stores: an older store gains them when opened
_COLUMNS = {"campaigns": (("elapsed", "REAL"),), "units": (("owner", "TEXT"), ("runs", "INTEGER NOT NULL DEFAULT 1")),
            "findings": (("explanation", "TEXT"),)}
_MAGIC = b"SQLite format 3\x00"
#: the schema version (``PRAGMA user_version``) this code writes; 0 is a store from before versions were kept
SCHEMA_VERSION = 1
#: the files SQLite keeps beside a store
_SIDE_FILES = ("-wal", "-shm", "-journal")


class StoreError(LabyrinthError):
    """The store file cannot be opened or is not a findings store."""


class Store:
    """A findings store; a context manager. ``path`` ``":memory:"`` keeps it in memory.

    Every store is opened here, and checked before any work: the file (and
    its side files ``-wal``, ``-shm``, ``-journal``) must be a regular file,
    an SQLite file whose tables are a findings store's, of a schema version
    this code reads, that passes ``PRAGMA quick_check`` (a damaged file is
    refused, never written into nor read as if whole). Opened for writing
    (``write``, the default when ``create``), the store must also take a
    write (the schema version is stamped: a read-only or immutable file is
    refused before a campaign runs). Every refusal is a :class:`StoreError`,
    and so is an SQLite error met later (a store damaged while being read, a
    lock held past the busy timeout).
    """

    def __init__(self, path="labyrinth.db", *, create=True, write=None, check=True):
        """Open (``create``: or make) the store at ``path``, for writing if ``write`` (default: ``create``).

        ``check``: run ``PRAGMA quick_check`` on an existing store (always when
        writing; a reader that opens the store again and again, the viewer, checks it once).
        """
        self.path = str(path)
        self.db = None
        write = create if write is None else write
        if self.path != ":memory:":
            _check_file(self.path, create, write)
        try:
            self.db = sqlite3.connect(self.path, timeout=60.0, isolation_level=None)
            self.db.execute("PRAGMA busy_timeout = 60000")
            tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                      if not r[0].startswith("sqlite_")}
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as err:  # nothing was written: the file is not a database
            self.close()
            raise StoreError(f"not a labyrinth findings store ({err}); left untouched", source=self.path) from None
        try:
            if tables and not _TABLES <= tables:
                raise StoreError("not a labyrinth findings store (an SQLite file with other tables); "
                                 "left untouched", source=self.path)
            if not tables and not create:
                raise StoreError("no findings store here, the file is empty (run labyrinth audit first)",
                                 source=self.path)
            if version > SCHEMA_VERSION:
                raise StoreError(f"a findings store of schema version {version}, made by a newer labyrinth (this "
                                 f"one reads versions up to {SCHEMA_VERSION}); left untouched", source=self.path)
            if tables and (write or check):
                _quick_check(self.db, self.path)
            current = self._current(tables)
            if self.path != ":memory:" and (write or not current):
                self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            if write or not current:  # a reader upgrades an older store only when it lacks tables or columns
                self._schema()  # a write: a store that cannot take one is refused here
        except sqlite3.DatabaseError as err:
            self.close()
            raise StoreError(_failed(err, write), source=self.path) from None
        except BaseException:
            self.close()
            raise
        self.db.row_factory = sqlite3.Row

    def _current(self, tables):
        """Whether the store has every table and column of this version (then reading it writes nothing)."""
        if not _TABLES | {"claims"} <= tables:
            return False
        for table, columns in _COLUMNS.items():
            have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
            if any(name not in have for name, _ in columns):
                return False
        return True

    @contextlib.contextmanager
    def _transaction(self):
        """One write transaction (``BEGIN IMMEDIATE``): committed at the end, rolled back on any exception."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _schema(self):
        """Create the tables, or add those and the columns an older store lacks, and stamp the schema version.

        One transaction; on a current store it changes nothing but is still a
        write, so a store that cannot be written fails here, before any work.
        """
        with self._transaction():
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            for table, columns in _COLUMNS.items():
                have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
                for name, decl in columns:
                    if name not in have:
                        self.db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {decl}")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.db is not None:
            self.db.close()
            self.db = None

    # --- campaigns ------------------------------------------------------------------
    def start_campaign(self, kind, params, *, seed=None, rules=None, fingerprint=None, also=(), code_version=None,
                       resume=False, refuse_same=False):
        """A campaign id: the last one with the same parameters when ``resume``, else a new one.

        With ``refuse_same`` (and no ``resume``), a campaign with the same parameters
        already stored is a :class:`~labyrinth.errors.CampaignExists` instead of a second copy.
        A stored campaign matches with ``fingerprint`` or any of ``also`` (the
        older fingerprints of the same rule set); a new one gets ``fingerprint``.
        """
        text = json.dumps(params, sort_keys=True)
        with self._transaction():  # two resumes started at once find (or make) the same campaign
            row = None
            if resume or refuse_same:
                for fp in (fingerprint, *also):
                    row = self.db.execute(
                        "SELECT id, finished FROM campaigns WHERE kind = ? AND params = ? AND fingerprint IS ? "
                        "ORDER BY id DESC LIMIT 1", (kind, text, fp)).fetchone()
                    if row is not None:
                        break
            if row is not None and not resume:
                stored = self.db.execute("SELECT COUNT(*) FROM units WHERE campaign = ?", (row["id"],)).fetchone()[0]
                raise CampaignExists(f"campaign {row['id']} has these settings "
                                     f"({'finished' if row['finished'] else f'unfinished, {stored} units stored'})",
                                     source=self.path, campaign=row["id"], finished=bool(row["finished"]),
                                     stored=stored)
            if row is None:
                campaign = self.db.execute(
                    "INSERT INTO campaigns (kind, params, seed, rules, fingerprint, code_version, started) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (kind, text, seed, rules, fingerprint, code_version, time.time())).lastrowid
            else:
                campaign = row["id"]
        return campaign

    def finish_campaign(self, campaign, totals):
        self.db.execute("UPDATE campaigns SET finished = ?, totals = ? WHERE id = ?",
                        (time.time(), json.dumps(totals), campaign))

    def elapsed(self, campaign):
        """Wall seconds the campaign's runs took so far (None for a campaign of an older store)."""
        row = self.db.execute("SELECT elapsed FROM campaigns WHERE id = ?", (campaign,)).fetchone()
        return None if row is None else row[0]

    def set_elapsed(self, campaign, seconds):
        """Keep the larger of the stored and the given wall time (concurrent runs of a campaign overlap)."""
        self.db.execute("UPDATE campaigns SET elapsed = MAX(COALESCE(elapsed, 0), ?) WHERE id = ?", (seconds, campaign))

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

    def claim(self, campaign, unit, owner, *, timeout=CLAIM_TIMEOUT):
        """Claim a unit for ``owner`` (a :class:`labyrinth.jobs.claims.Owner`) before running it: one transaction.

        Returns ``("mine", None)`` (not recorded, and unclaimed, ours, or
        held by a dead owner: taken over), ``("done", totals)`` when it is
        recorded, or ``("busy", other owner)`` when a live run holds it.
        """
        now = time.time()
        with self._transaction():
            row = self.db.execute("SELECT totals FROM units WHERE campaign = ? AND unit = ?",
                                  (campaign, unit)).fetchone()
            held = None if row is not None else self.db.execute(
                "SELECT owner, host, pid, start, heartbeat FROM claims WHERE campaign = ? AND unit = ?",
                (campaign, unit)).fetchone()
            if row is not None:
                out = ("done", json.loads(row[0] or "{}"))
            elif held is not None and held[0] != owner.key and owner_alive(*held[1:], now, timeout):
                out = ("busy", held[0])
            else:
                self.db.execute("INSERT OR REPLACE INTO claims (campaign, unit, owner, host, pid, start, claimed, "
                                "heartbeat) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                (campaign, unit, owner.key, owner.host, owner.pid, owner.start, now, now))
                out = ("mine", None)
        return out

    def release_claims(self, owner):
        """Drop the claims ``owner`` still holds (units it did not record), so no other run waits on them."""
        self.db.execute("DELETE FROM claims WHERE owner = ?", (owner.key,))

    def claims(self, campaign):
        """The claims held on ``campaign``'s units: ``{unit: owner}``."""
        return {r[0]: r[1] for r in self.db.execute("SELECT unit, owner FROM claims WHERE campaign = ?", (campaign,))}

    def record_unit(self, campaign, unit, findings, totals, *, elapsed=None, owner=None):
        """Write a unit's findings, their patterns and its done mark in one transaction; release its claim.

        ``elapsed``: the campaign's wall seconds so far, stored with the unit
        (so a killed run keeps the time it spent). ``owner``: the run that
        recorded it (a unit recorded again counts one more run). Returns the
        ids of the findings that were new (a redone unit repeats none).
        """
        now = time.time()
        new = []
        with self._transaction():
            for f in findings:
                n = _board_size(f.state)
                cur = self.db.execute(
                    "INSERT OR IGNORE INTO findings (campaign, unit, kind, n, state, move, rules, cells, witness, "
                    "stuck_step, checked_by, created, explanation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (campaign, unit, f.kind, n, f.state, f.move, json.dumps(list(f.rules)),
                     json.dumps([list(c) for c in f.cells]), f.witness, f.stuck_step, f.checked_by, now,
                     _explanation_text(getattr(f, "explanation", None))))
                if not cur.rowcount:
                    continue
                fid = cur.lastrowid
                new.append(fid)
                if f.pattern is not None:
                    pattern_id = self._add_pattern(f.pattern, now)
                    self.db.execute("UPDATE findings SET pattern = ? WHERE id = ?", (pattern_id, fid))
            self.db.execute("INSERT INTO units (campaign, unit, totals, done, owner, runs) VALUES (?, ?, ?, ?, ?, 1) "
                            "ON CONFLICT (campaign, unit) DO UPDATE SET totals = excluded.totals, "
                            "done = excluded.done, owner = excluded.owner, runs = runs + 1",
                            (campaign, unit, json.dumps(totals), now, None if owner is None else owner.key))
            self.db.execute("DELETE FROM claims WHERE campaign = ? AND unit = ?", (campaign, unit))
            if elapsed is not None:
                self.set_elapsed(campaign, elapsed)
        return new

    def record_copies(self, campaign, units):
        """Record ``units`` (``{unit: totals}``, found by another campaign) as done in ``campaign``: one transaction.

        For units whose result another campaign of the same search already
        holds; units ``campaign`` has already recorded are left as they are.
        Returns how many were recorded.
        """
        now = time.time()
        with self._transaction():
            count = 0
            for unit, totals in units.items():
                cur = self.db.execute("INSERT OR IGNORE INTO units (campaign, unit, totals, done, owner, runs) "
                                      "VALUES (?, ?, ?, ?, NULL, 0)", (campaign, unit, json.dumps(totals), now))
                count += cur.rowcount
        return count

    def set_pattern(self, finding, pattern):
        """Attach a minimal pattern to a stored finding that has none (``minimize --finding`` fills it in)."""
        now = time.time()
        with self._transaction():
            pattern_id = self._add_pattern(pattern, now)
            self.db.execute("UPDATE findings SET pattern = ? WHERE id = ? AND pattern IS NULL", (pattern_id, finding))
        return pattern_id

    def set_explanation(self, finding, explanation):
        """Keep the class of a stored finding (an :class:`verify.explain.Explanation`; old rows get it lazily)."""
        self.db.execute("UPDATE findings SET explanation = ? WHERE id = ?", (_explanation_text(explanation), finding))

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


def _guarded(method):
    """``method`` with SQLite's errors as one-line :class:`StoreError` s naming the store (bugs stay tracebacks)."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError):
            raise
        except sqlite3.DatabaseError as err:
            raise StoreError(_failed(err, None), source=self.path) from None

    return run


for _name, _method in list(vars(Store).items()):  # every public method: reading, writing, claiming
    if callable(_method) and not _name.startswith("_") and _name != "close":
        setattr(Store, _name, _guarded(_method))
del _name, _method


def _check_file(path, create, write):
    """Refuse, before SQLite touches it, a path that is missing (unless ``create``), not a regular file (nor its
    side files), not writable (when ``write``), or not an SQLite file."""
    missing = "no findings store here (run labyrinth audit first)"
    try:
        if write:
            status = writable_store(path, what="a labyrinth findings store", side=_SIDE_FILES)
        else:
            status = readable_store(path, what="a labyrinth findings store", side=_SIDE_FILES, missing=missing)
    except LabyrinthError as err:
        raise StoreError(err.reason, source=err.source, token=err.token) from None
    if status is None and not create:
        raise StoreError(missing, source=path)
    if status is None:
        return
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(_MAGIC))
    except OSError as err:
        raise StoreError(f"cannot read: {err.strerror or err}", source=path) from None
    if head and head != _MAGIC:
        raise StoreError("not a labyrinth findings store (not an SQLite file); left untouched", source=path)


def _quick_check(db, path):
    """Refuse a damaged store (``PRAGMA quick_check``) before anything is written into it."""
    problems = [r[0] for r in db.execute("PRAGMA quick_check(3)")]
    if problems != ["ok"]:
        first = " ".join(problems[0].split())
        raise StoreError(f"a damaged findings store (PRAGMA quick_check: {first[:160]}); left untouched: "
                         "recover it with 'sqlite3 FILE .recover', or give another --db", source=path)


def _failed(err, write):
    """The one-line reason SQLite refused to open or write a store."""
    text = str(err)
    if "readonly" in text or "read-only" in text:
        return "cannot write: the store is read-only (give another --db, or make it writable)"
    if "malformed" in text or "not a database" in text:
        return f"a damaged findings store ({text}); left untouched"
    verb = {True: "write", False: "read", None: "use"}[write]
    return f"cannot {verb} the findings store ({text})"


def _finding_row(row):
    out = dict(row)
    out["rules"] = json.loads(out["rules"] or "[]")
    out["cells"] = [tuple(c) for c in json.loads(out["cells"] or "[]")]
    text = out.get("explanation")
    out["explanation"] = None if text is None else json.loads(text)
    return out


def _explanation_text(explanation):
    return None if explanation is None else json.dumps(explanation.to_json())


def _board_size(state_text):
    """The board size written in a state's notation: ``N:MOVES`` or ``PUZZLE:N@X,Y:MOVES``."""
    first, rest = state_text.split(":", 1)
    return int(first) if first.isdigit() else int(rest.split("@", 1)[0])
