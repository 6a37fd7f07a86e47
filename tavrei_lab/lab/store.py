"""The results store: every game of every sweep in one SQLite file, nothing lost.

Why SQLite? It is in Python's standard library, needs no server, is one
file a student can copy, and it is a real database: a transaction that was
committed survives the process being killed. One file once the run is over: WAL
mode commits into a ``-wal`` file beside the store, so a sweep's end and ``close``
checkpoint it into the store file (``checkpoint``); after a crash the ``-wal`` file
holds the last games until the store is next opened. The store follows three rules:

1. **One transaction per finished game.** A game is written the moment its
   result comes back from a worker; a run that is interrupted (Ctrl-C, a
   killed worker, a crash) keeps every game that finished.
2. **WAL mode** (write-ahead log), so a notebook can read the tables while a
   sweep is still writing, and neither blocks the other.
3. **A settings hash on every row.** Everything that decides how a game is
   played -- the cell (base variant and options, with the variant's
   fingerprint, so an edited variant file is a new setting), the agents, the
   sweep seed, the ply limit, what is measured -- is hashed; the settings are
   kept once in the ``settings`` table and every game row carries the hash.
   Games are identified by (hash, game number), so running the same sweep
   again plays only the games that are missing, and games played under
   other settings are never counted with them.

In the browser (JupyterLite's Pyodide, ``sys.platform == "emscripten"``) the
notebook's folder is a file system that loses SQLite's shared-memory WAL index
and its file locks ("disk I/O error", "malformed"); tried there, a connection in
**exclusive locking mode** (WAL index in its own memory, no lock traffic) wrote
and reread thousands of rows intact. Such a connection keeps the file to
itself, so in the browser every store object of one file shares one
connection (``_BrowserConnections``), closed when the last of them closes.

Each row holds the game's settings hash, cell, seed, agents, result, how it
ended, its measures (JSON) and its full record (``Game.from_record`` replays
it, ``StoredGame.replay`` checks that it replays to the stored result).

**What is read is checked, row by row.** Damage inside a page (a flipped byte
in a record, a result or a measure) passes SQLite's own checks and would be
counted as if it had been played. Replaying every record on every read would
catch the records, but it costs about 25 ms a game (measured: a store of 300
random-agent games, 80,000 plies, replays in 7.5 s where its table is read in
0.16 s), 45 times the read, on every table a notebook shows. So each record is
replayed *once*, before it is written, and ``add`` writes a checksum of every
field of the row with it (in the row's ``summary``, so the schema is unchanged).

**Where the replay runs.** Replayed in ``add``, it ran in the one process that
writes the store, after the game, and cost 5.3 % of a greedy game there
(``python -m benchmarks lab``), serialised behind every worker. So the worker that
played the game replays it (``sweep.play_lab_game``, the same ``StoredGame.replay``)
and hands back a *verification*: a keyed BLAKE2b digest (``verification``) of
everything the replay checked -- cell, variant, options, record and every field of
the result -- under the store's ``verify_key``, a random key each store object makes
and a sweep sends with its tasks. ``add(..., verified=...)`` recomputes the digest
over what it received, microseconds a row, and replays only when there is no
verification or it does not match (a game changed between the worker and the
store, a key of another store, a game played without a key). So a game whose
record does not lead to its result is still refused, whoever calls ``add``. Reading recomputes the
checksum -- microseconds a row -- and a row whose fields no longer match it
(any field: the record, the result, a measure, the time) is set aside. A row
without a checksum (written by a tavrei_lab before this one, or by another
program) has its record replayed to its result when it is first read, once per
row content in a process (cached by the row's checksum), and is set aside if it
does not replay. Set-aside rows are named in ``set_aside`` and in a warning,
never counted, and a sweep plays those games again. ``verify()`` replays every
record whatever its checksum says.

The ``fits`` table keeps the weights ``sweep(tune=...)`` fit to each cell, keyed
by the cell's variant hash and the tune's settings, so a rerun does not tune again.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import os
import stat
import sys
import time
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from tavrei_lab.compare.results import GameResult
from tavrei_lab.core.files import write_atomically
from tavrei_lab.errors import TavreiError
from tavrei_lab.game import Game, read_record
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.lab.store_wal import (
    has_shm,
    has_wal_frames,
    snapshot,
    wal_path,
    wal_problem,
)
from tavrei_lab.lab.store_wal import uri as store_uri
from tavrei_lab.rules.base import RuleModule
from tavrei_lab.variant import load_variant, variants

#: The file's layout: bumped when a table is added or changed. Version 1 had no
#: ``fits`` table; a writable version-1 store is migrated on opening (the table added
#: and the version set, in one transaction), a read-only one is read as it is.
STORE_VERSION = 2
#: Bumped when what a game row means changes (new measures, new meaning of a field):
#: it is part of every settings hash, so old rows are then never counted as new ones.
#: Kept apart from the layout, so adding a table does not orphan the stored games.
ROWS_VERSION = 1

_SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (
    hash TEXT PRIMARY KEY,
    cell TEXT NOT NULL,
    json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    settings_hash TEXT NOT NULL REFERENCES settings(hash),
    game_index INTEGER NOT NULL,
    cell TEXT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    agent_a TEXT NOT NULL,
    agent_b TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    seed INTEGER NOT NULL,
    result TEXT NOT NULL,
    winner TEXT,
    termination TEXT NOT NULL,
    plies INTEGER NOT NULL,
    summary TEXT NOT NULL,
    measures TEXT NOT NULL,
    record TEXT NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (settings_hash, game_index)
);
"""
#: Version 2 adds the weights fit to each cell by ``sweep(tune=...)``, keyed by the
#: hash of the cell's variant and the tune's settings: a rerun finds them and does not
#: tune again.
_FITS = """
CREATE TABLE IF NOT EXISTS fits (
    key TEXT PRIMARY KEY,
    variant_hash TEXT NOT NULL,
    cell TEXT NOT NULL,
    json TEXT NOT NULL
);
"""
_SCHEMA = _SCHEMA_V1 + _FITS

_RESULT_FIELDS = [f.name for f in fields(GameResult)]

#: The games table's columns, in order: what ``add`` writes and the checksum covers.
_COLUMNS = ("settings_hash", "game_index", "cell", "variant", "options", "agent_a",
            "agent_b", "white", "black", "seed", "result", "winner", "termination", "plies",
            "summary", "measures", "record", "seconds")
_SUMMARY = _COLUMNS.index("summary")
#: Columns that repeat a field of the summary (for SQL and CSV): they must agree with it.
_REPEATED = ("agent_a", "agent_b", "white", "black", "seed", "result", "winner",
             "termination", "plies", "seconds")


def _checksum(row: Sequence[Any]) -> str:
    """The checksum of a row's fields (the summary without its checksum, as sorted JSON).

    Text from a damaged page carries surrogates (``surrogateescape``); ``json.dumps``
    escapes them, so damage changes the checksum instead of failing.
    """
    text = json.dumps(list(row), allow_nan=True)
    return hashlib.blake2b(text.encode("ascii"), digest_size=16).hexdigest()


def verification(key: bytes, cell: str, variant: str, options: dict[str, Any],
                 result: GameResult) -> str:
    """The digest a worker that replayed a game hands back with it: keyed by ``key``
    (the store's ``verify_key``), over everything ``StoredGame.replay`` checked."""
    text = json.dumps([cell, variant, options, asdict(result)], sort_keys=True,
                      allow_nan=True, default=str)
    return hashlib.blake2b(text.encode("utf-8", "surrogateescape"), key=key,
                           digest_size=16).hexdigest()


#: Checksums of rows without a stored checksum whose records replayed in this process.
_REPLAYED: set[str] = set()
_MAX_REPLAYED = 1_000_000      # about 100 MB of checksums; past it the cache starts over


def settings_hash(settings: dict[str, Any]) -> str:
    """The hash a row carries: of the settings as canonical JSON.

    >>> settings_hash({"b": 1, "a": 2}) == settings_hash({"a": 2, "b": 1})
    True
    """
    text = json.dumps({**settings, "store_version": ROWS_VERSION}, sort_keys=True,
                      default=str)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=10).hexdigest()


@dataclass
class StoredGame:
    """One game as the store holds it."""

    settings_hash: str
    cell: str
    variant: str                 # the variant id or file the cell's base names
    options: dict[str, Any]      # the options the cell sets on it
    result: GameResult
    measures: dict[str, Any]

    @property
    def index(self) -> int:
        return self.result.index

    @property
    def record(self) -> str:
        return self.result.record

    def rules(self) -> RuleModule:
        """The rule module the game was played with.

        A stored row is data: a shipped variant's id is loaded by id, anything else
        (a variant file's path) is never opened -- the record carries the cell's whole
        definition, so the rules come from the record, as ``read_record`` builds them.
        """
        if self.variant in variants():
            return load_variant(self.variant, **self.options)
        return Game.from_record(self.record).rules

    def replay(self) -> Any:
        """The game replayed from its record; raises ``TavreiError`` if the record
        does not lead to the stored result (``Game.from_record`` checks each move)."""
        if self.variant in variants():
            game = read_record(self.record, variant=self.rules(), progress=False)
        else:
            game = read_record(self.record, progress=False)    # a store's reads: no bars
        outcome = game.outcome(claim_draw=True)
        r = self.result
        for tag, stored in (("Result", r.result), ("White", r.white), ("Black", r.black),
                            ("Seed", str(r.seed))):
            if tag in game.tags and game.tags[tag] != stored:   # an adjudicated result too
                raise TavreiError(_("{cell} game {index}: the record's {tag} is {value!r}, the "
                                    "store says {value2!r}")
                                      .format(cell=self.cell, index=r.index, tag=tag,
                                              value=game.tags[tag][:40], value2=stored[:40]))
        if game.ply != r.plies:
            raise TavreiError(_("{cell} game {index}: the record has {ply} plies, the store "
                                "says {plies}")
                                  .format(cell=self.cell, index=r.index, ply=game.ply,
                                          plies=r.plies))
        if r.adjudicated:
            ok = outcome is None
        else:
            ok = (outcome is not None and outcome.result() == r.result
                  and outcome.termination == r.termination)
        if not ok:
            raise TavreiError(_("{cell} game {index}: the record ends in {outcome}, the store "
                                "says {result} by {termination}")
                                  .format(cell=self.cell, index=r.index, outcome=outcome,
                                          result=r.result, termination=r.termination))
        return game


#: Pyodide in a browser (JupyterLite): see "In the browser" above.
_IN_BROWSER = sys.platform == "emscripten"

#: How long (seconds) a store waits for another process that holds the file.
_TIMEOUT = 30


class _BrowserConnections:
    """One exclusive-mode connection per store file, shared by the store objects
    that have it open (counted), for the browser's file system."""

    def __init__(self) -> None:
        self.open_files: dict[str, tuple[Any, int]] = {}

    def open(self, path: str) -> Any:
        import sqlite3
        key = os.path.abspath(path)
        if key in self.open_files:
            db, users = self.open_files[key]
        else:
            db, users = sqlite3.connect(path, timeout=_TIMEOUT), 0
            db.execute("PRAGMA locking_mode=EXCLUSIVE")   # before WAL: no shared memory
        self.open_files[key] = (db, users + 1)
        return db

    def release(self, path: str) -> None:
        key = os.path.abspath(path)
        if key not in self.open_files:
            return                                       # closed twice
        db, users = self.open_files[key]
        if users > 1:
            self.open_files[key] = (db, users - 1)
        else:
            del self.open_files[key]
            db.close()


_BROWSER = _BrowserConnections()


def _advice(exc: Exception) -> str:
    """What to do about an SQLite failure, in words a student can act on."""
    text = str(exc).lower()
    if "full" in text:
        return _("free some disk space and run the same command again")
    if "i/o" in text:
        return _("check the disk (free space, the file-size limit `ulimit -f`) and run the "
                 "same command again")
    if "readonly" in text or "read-only" in text:
        return _("make the file writable, or only read it")
    if "locked" in text or "busy" in text:
        return _("another process holds the store: wait for it, or use another --store")
    return _("the file is damaged or not this package's store: use a new --store (copy "
             "what it still holds with `sqlite3 FILE .recover`)")


class StoreError(TavreiError):
    """The store file failed under us (full disk, I/O error, damage, a foreign schema).

    One line naming the file and what to do; every game committed before stays.
    """


class ResultsStore:
    """An SQLite results store (a file, or ``":memory:"`` for a throw-away one).

    ``readonly``: open the file for reading only (SQLite's ``mode=ro``), so a store on a
    read-only disk, or one a user may not write, can still be read; writing raises.

    Opening checks what will be read: ``PRAGMA quick_check`` (damaged pages), a schema
    that is exactly the package's (no trigger, view or extra table may rewrite what is
    stored) and the store version. Rows whose fields do not decode are set aside,
    listed in ``set_aside`` and warned about, never counted.

    >>> store = ResultsStore(":memory:")
    >>> h = store.register({"cell": "tavreli", "seed": 1})
    >>> store.done(h)
    set()
    >>> store.close()
    """

    def __init__(self, path: str | os.PathLike[str] = ":memory:", *,
                 readonly: bool = False) -> None:
        self.path = str(path) if str(path) == ":memory:" else str(Path(path))
        self.readonly = readonly and self.path != ":memory:"
        #: "settings-hash game N: why" for each row that could not be read.
        self.set_aside: list[str] = []
        #: The key of the verifications ``add`` accepts instead of replaying (see
        #: "Where the replay runs"): random, made anew for every store object.
        self.verify_key = os.urandom(32)
        #: Games ``add`` replayed itself, stored or refused (no verification, or one
        #: that did not match).
        self.replayed = 0
        #: A private copy of the store and its ``-wal`` that a read-only store is read
        #: from (``store_wal``), removed on closing.
        self._snapshot: Any = None
        if self.path != ":memory:":
            _check_kind(str(path), self.path)
            parent = Path(self.path).parent
            if not parent.is_dir():
                raise TavreiError(_("{path}: cannot create the store: no folder {parent}")
                                      .format(path=self.path, parent=parent))
            if self.readonly and not Path(self.path).is_file():
                raise TavreiError(_("{path}: no such results store").format(path=self.path))
        try:
            import sqlite3
        except ImportError:  # some Pyodide releases ship sqlite3 as a separate package
            raise TavreiError(_("the results store needs Python's sqlite3 module, which this "
                                "Python does not have: run the variant lab in a local "
                                "install")) from None
        # in the browser even a reader goes through the file's one exclusive connection
        shared = self._shared = _IN_BROWSER and self.path != ":memory:"
        if not shared and self.path != ":memory:" and has_wal_frames(self.path):
            self._check_wal(sqlite3)
        try:
            if shared:
                self.db = _BROWSER.open(self.path)
            elif self.readonly:
                self.db = self._open_readonly(sqlite3)
            else:
                self.db = sqlite3.connect(self.path, timeout=_TIMEOUT)
            # text that is not UTF-8 (a damaged page) must not abort a whole query
            self.db.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
            self._check_file()
            if not self.readonly:
                if self._unfinished():
                    self._make()
                elif self._objects() == _objects_of(_SCHEMA_V1) and self._version() == "1":
                    self._migrate_from_1()
            #: what the file holds: a read-only version-1 store has no fits table
            self.version = STORE_VERSION
            if self.readonly and self._objects() == _objects_of(_SCHEMA_V1) \
                    and self._version() == "1":
                self.version = 1
            else:
                self._check_schema()
                self._check_version()
            if not self.readonly:     # only now: a foreign file is refused as it was
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: commits survive
        except sqlite3.Error as exc:
            self._abandon(shared)
            raise StoreError(_("{path}: not a results store ({value}); {value2}")
                                 .format(path=self.path, value=_one(exc),
                                         value2=_advice(exc))) from None
        except TavreiError:
            self._abandon(shared)
            raise

    def _check_wal(self, sqlite3: Any) -> None:
        """Refuse, writing nothing, a store whose ``-wal`` is not its own (``store_wal``);
        a read-only store without a ``-shm`` keeps the copy it was checked on, to read."""
        keep = self.readonly and not has_shm(self.path)
        try:
            why, self._snapshot = wal_problem(
                sqlite3, self.path, _TIMEOUT,
                _holds_a_store,
                keep=keep)
        except OSError:           # read-only, no room for a copy: ``_open_readonly`` says so
            return
        if why is not None:
            raise StoreError(_("{wal}: not this store's -wal file, or damaged; nothing was "
                               "changed: move it away and run again ({why})").format(
                wal=wal_path(self.path), why=" ".join(why.split())[:100]))

    def _open_readonly(self, sqlite3: Any) -> Any:
        """``mode=ro``; a store whose ``-wal`` was read from a private copy is read from
        that copy (``_check_wal``): in a folder it may not write, ``mode=ro`` has no
        ``-shm`` to make, and ``immutable=1`` would read the file without its ``-wal``."""
        if self._snapshot is not None:
            return sqlite3.connect(os.path.join(self._snapshot.name, "store.sqlite"),
                                   timeout=_TIMEOUT)
        uri = store_uri(self.path)
        db = None
        try:
            db = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=_TIMEOUT)
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError:
            if db is not None:
                db.close()
        if has_wal_frames(self.path):
            try:
                self._snapshot = snapshot(self.path)
            except OSError:
                warnings.warn(_("{path}: read without the -wal file beside it: the games "
                                "in {wal} are not read (no room to copy them); open it "
                                "where its folder can be written").format(
                    path=self.path, wal=wal_path(self.path)), RuntimeWarning, stacklevel=4)
            else:
                return sqlite3.connect(os.path.join(self._snapshot.name, "store.sqlite"),
                                       timeout=_TIMEOUT)
        return sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True, timeout=_TIMEOUT)

    def _abandon(self, shared: bool) -> None:
        if shared:
            _BROWSER.release(self.path)
        elif hasattr(self, "db"):
            self.db.close()
        self._drop_snapshot()

    def _drop_snapshot(self) -> None:
        if self._snapshot is not None:
            self._snapshot.cleanup()
            self._snapshot = None

    def _objects(self) -> list[tuple[str, str, str]]:
        return _objects_in(self.db)

    def _check_file(self) -> None:
        rows = [r[0] for r in self.db.execute("PRAGMA quick_check(5)")]
        if rows != ["ok"]:
            raise StoreError(_("{path}: the store is damaged (SQLite's quick_check: {value}); "
                               "use a new --store (copy what it still holds with `sqlite3 FILE "
                               ".recover`)")
                                 .format(path=self.path,
                                         value='; '.join(str(r) for r in rows)[:300]))

    def _unfinished(self) -> bool:
        """Is the file new, or a store whose making was cut off?

        An empty file is a new store. A tavrei_lab before this one set WAL mode and
        then made its tables one transaction each, so a kill (or a second process
        looking in) could find WAL mode and only some of the tables, every one of them
        exactly ours and empty: nobody's data, finished rather than refused, or its
        "resume with --store" advice could never work. Anything else -- a table not
        ours, a row, another program's mark (``user_version``, ``application_id``), an
        empty database in another journal mode -- is someone's file: left untouched.
        """
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            return True       # (SQLite counts a page once a write began: the size tells)
        have = self._objects()
        ours = _objects_of(_SCHEMA)
        if not set(have) <= set(ours):
            return False
        if self.db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal" or \
                self.db.execute("PRAGMA user_version").fetchone()[0] != 0 or \
                self.db.execute("PRAGMA application_id").fetchone()[0] != 0:
            return False
        tables = [n for t, n, _ in have if t == "table"]
        return not any(self.db.execute(f'SELECT 1 FROM "{n}" LIMIT 1').fetchall()
                       for n in tables)

    def _make(self) -> None:
        """Make the tables and the version row in one transaction, so another process
        sees no store or a whole one, and a kill leaves the file as it was.

        ``executescript`` would commit each table on its own; the statements are run
        one by one inside ``BEGIN IMMEDIATE``, and the file is looked at again once the
        lock is held: another process may have made the store in the meantime.

        An empty file is set to WAL mode first: it holds nothing to change, and
        switching a file that other processes have open, once it has tables, needs a
        lock SQLite does not wait for (six processes making one store met "database
        is locked"). A kill just after leaves an empty WAL file, which
        ``_unfinished`` takes for what it is.

        Several processes opening one new file at once still meet "database is
        locked" now and then, SQLite not waiting while another one sets the file up
        (seen with six, before this change too); nothing was written, so it is tried
        again for as long as the connection's own timeout.
        """
        import sqlite3
        deadline = time.monotonic() + _TIMEOUT
        while True:
            try:
                if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
                    self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
                continue
            break
        try:
            if self._unfinished():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)",
                                (str(STORE_VERSION),))
            self.db.commit()
        except BaseException:
            self.db.rollback()
            raise

    def _version(self) -> Any:
        try:
            rows = self.db.execute("SELECT value FROM meta WHERE key='version'").fetchall()
        except Exception:       # no meta table, or not one this package wrote
            return None
        return rows[0][0] if len(rows) == 1 else None

    def _migrate_from_1(self) -> None:
        """Version 1 -> 2: add the fits table; the game rows and their hashes stay."""
        with self.db:
            self.db.execute(_FITS.strip().rstrip(";"))
            self.db.execute("UPDATE meta SET value=? WHERE key='version'",
                            (str(STORE_VERSION),))

    def _check_schema(self) -> None:
        want = _objects_of(_SCHEMA)
        have = self._objects()
        if have != want:
            extra = [f"{t} {n}" for t, n, _ in have if (t, n) not in {(a, b) for a, b, _ in want}]
            missing = [f"{t} {n}" for t, n, _ in want
                       if (t, n) not in {(a, b) for a, b, _ in have}]
            what = (_("it has {names}").format(names=", ".join(extra)) if extra else
                    _("it lacks {names}").format(names=", ".join(missing)) if missing else
                    _("its tables are defined differently"))
            raise StoreError(_("{path}: not a results store of this tavrei_lab ({value}); use a "
                               "new --store").format(path=self.path, value=what[:300]))

    def _check_version(self) -> None:
        rows = self.db.execute("SELECT value FROM meta WHERE key='version'").fetchall()
        version = rows[0][0] if rows else None
        if not (isinstance(version, str) and version.isdecimal() and len(version) <= 9):
            shown = repr(version)[:40]
            raise StoreError(_("{path}: not a results store (its version is {shown}); use a new "
                               "--store").format(path=self.path, shown=shown))
        if int(version) != STORE_VERSION:
            raise StoreError(_("{path}: store version {version}; this tavrei_lab reads version "
                               "{store_version}: use a new --store")
                                 .format(path=self.path, version=version,
                                         store_version=STORE_VERSION))

    def _fail(self, exc: Exception, doing: str) -> StoreError:
        kept = ""
        try:
            count = len(self)
            kept = ngettext(" ({count} game stored is kept)", " ({count} games stored are kept)",
                            count).format(count=count)
        except TavreiError:
            pass
        if "full" in str(exc).lower() and self.path != ":memory:" and \
                has_wal_frames(self.path):
            # the newest games are in the -wal until a checkpoint: a student clearing
            # space, or copying the store away, must not leave that file behind
            kept += _(" (the newest in {wal}: keep it beside the store)").format(
                wal=os.path.basename(wal_path(self.path)))
        return StoreError(_("{path}: {doing} failed: {value}{kept}; {value2}")
                              .format(path=self.path, doing=doing, value=_one(exc), kept=kept,
                                      value2=_advice(exc)))

    # -- writing ------------------------------------------------------------------
    def register(self, settings: dict[str, Any]) -> str:
        """Record a setting (once) and return its hash."""
        import sqlite3
        h = settings_hash(settings)
        try:
            with self.db:
                self.db.execute("INSERT OR IGNORE INTO settings VALUES (?, ?, ?)",
                                (h, str(settings.get("cell", "")),
                                 json.dumps(settings, sort_keys=True, default=str)))
        except sqlite3.Error as exc:
            if self.readonly and self.registered(h):
                return h                 # read-only, and the setting is there already
            raise self._fail(exc, _("registering a setting")) from None
        return h

    def registered(self, h: str) -> bool:
        """Is the setting of this hash in the store?"""
        return bool(self._query("SELECT 1 FROM settings WHERE hash=?", (h,)))

    def fit(self, key: str) -> dict[str, Any] | None:
        """The tune document stored under ``key`` (``add_fit``), or None.

        A row that does not decode is set aside (warned about) and reads as missing, so
        the cell is tuned again rather than played with half-read weights.
        """
        if self.version < 2:
            return None
        rows = self._query("SELECT json FROM fits WHERE key=?", (key,))
        if not rows:
            return None
        try:
            doc = _json_object(rows[0][0])
            if not isinstance(doc.get("weights"), dict):
                raise ValueError(_("no weights in it"))
        except (ValueError, TypeError) as exc:
            self._set_aside(_("fit {key}: {why}").format(key=key[:24], why=_one(exc)[:120]))
            self._warn()
            return None
        return doc

    def add_fit(self, key: str, variant_hash: str, cell: str, doc: dict[str, Any]) -> None:
        """Keep the weights a tune fit for a cell (one transaction)."""
        import sqlite3
        if self.version < 2:
            raise StoreError(_("{path}: a read-only store of version 1 cannot keep a tune's "
                               "weights; open it writable once (it is migrated) or use another "
                               "--store").format(path=self.path))
        try:
            with self.db:
                self.db.execute("INSERT OR REPLACE INTO fits VALUES (?, ?, ?, ?)",
                                (key, variant_hash, cell,
                                 json.dumps(doc, sort_keys=True, default=str)))
        except sqlite3.Error as exc:
            raise self._fail(exc, _("storing the tuned weights of {cell}").format(cell=cell)) \
                from None

    def fits(self) -> dict[str, dict[str, Any]]:
        """Every stored tune by key: ``{"cell", "variant_hash", "doc"}`` (damaged rows
        set aside)."""
        if self.version < 2:
            return {}
        out = {}
        for key, vh, cell, j in self._query(
                "SELECT key, variant_hash, cell, json FROM fits ORDER BY rowid"):
            try:
                out[_text(key)] = {"cell": _text(cell), "variant_hash": _text(vh),
                                   "doc": _json_object(j)}
            except (ValueError, TypeError) as exc:
                self._set_aside(_("fit {key}: {why}").format(key=str(key)[:24],
                                                              why=_one(exc)[:120]))
        self._warn()
        return out

    def add(self, h: str, cell: str, variant: str, options: dict[str, Any],
            result: GameResult, measures: dict[str, Any], *,
            verified: str | None = None) -> None:
        """Write one finished game, in its own transaction.

        The record must replay to the result (see "What is read is checked"): a game
        whose record does not lead to its result is refused, not stored. ``verified``
        is the ``verification`` of the worker that replayed it under this store's
        ``verify_key``; when it matches what arrived, the game is not replayed again.
        """
        import sqlite3
        expected = verification(self.verify_key, cell, variant, options, result)
        if verified is None or not hmac.compare_digest(str(verified), expected):
            stored = StoredGame(h, cell, variant, options, result, measures)
            self.replayed += 1
            try:
                stored.replay()
            except TavreiError as exc:
                raise StoreError(_("{path}: game {index} of {cell} is not stored: its record "
                                   "does not replay ({value})").format(
                    path=self.path, index=result.index, cell=cell,
                    value=_one(exc)[:160])) from None
        summary = {k: v for k, v in asdict(result).items() if k != "record"}
        summary["seconds"] = float(result.seconds)
        row: list[Any] = [
            h, int(result.index), cell, variant, json.dumps(options, sort_keys=True),
            result.agent_a, result.agent_b, result.white, result.black, int(result.seed),
            result.result, result.winner, result.termination, int(result.plies),
            json.dumps(summary, sort_keys=True), json.dumps(measures), result.record,
            float(result.seconds)]
        row[_SUMMARY] = json.dumps({**summary, "checksum": _checksum(row)}, sort_keys=True)
        try:
            with self.db:
                self.db.execute(
                    "INSERT OR REPLACE INTO games VALUES "
                    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        except sqlite3.Error as exc:
            raise self._fail(exc, _("storing game {index} of {cell}").format(
                index=result.index, cell=cell)) from None

    # -- reading ------------------------------------------------------------------
    def _query(self, query: str, args: Any = ()) -> list[Any]:
        import sqlite3
        try:
            return self.db.execute(query, args).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(_("{path}: reading the store failed: {value}; {value2}")
                                 .format(path=self.path, value=_one(exc),
                                         value2=_advice(exc))) from None

    def done(self, h: str) -> set[int]:
        """The game numbers stored under a settings hash that read back (a set-aside
        row is not done: a sweep plays that game again and replaces the row)."""
        done = {g.index for g in self._read(h, None)}
        self._warn()
        return done

    def settings(self) -> dict[str, dict[str, Any]]:
        """Every setting in the store, by hash, in the order first registered."""
        out = {}
        for h, j in self._query("SELECT hash, json FROM settings ORDER BY rowid"):
            try:
                data = json.loads(_text(j))
                if not isinstance(data, dict):
                    raise ValueError(_("not an object"))
            except (ValueError, TypeError) as exc:
                self._set_aside(_("setting {key}: {why}").format(key=str(h)[:24], why=exc))
                continue
            out[str(h)] = data
        self._warn()
        return out

    def games(self, h: str | None = None, limit: int | None = None) -> list[StoredGame]:
        """The stored games (of one setting, and only the first ``limit`` numbers).

        A row that does not decode, whose fields do not match their checksum, or
        (without a checksum) whose record does not replay to its result, is set aside
        -- listed in ``set_aside`` and warned about -- and left out, never half read.
        """
        out = self._read(h, limit)
        self._warn()
        return out

    def verify(self) -> list[str]:
        """Replay every stored record to its result, whatever its checksum says; the
        rows that do not are set aside (and warned about). Returns ``set_aside``."""
        for g in self._read(None, None):
            try:
                g.replay()
            except TavreiError as exc:
                self._set_aside(_("{key} game {index}: {why}").format(
                    key=g.settings_hash[:24], index=g.index,
                    why=_("its record does not replay ({value})").format(value=_one(exc)[:120])))
        self._warn()
        return list(self.set_aside)

    def _rows(self, h: str | None, limit: int | None) -> list[Any]:
        query = f"SELECT {', '.join(_COLUMNS)} FROM games"
        args: list[Any] = []
        if h is not None:
            query += " WHERE settings_hash=?"
            args.append(h)
            if limit is not None:
                query += " AND game_index < ?"
                args.append(limit)
        query += " ORDER BY settings_hash, game_index"
        return self._query(query, args)

    def _read(self, h: str | None, limit: int | None) -> list[StoredGame]:
        out = []
        for row in self._rows(h, limit):
            sh, index = row[0], row[1]
            try:
                out.append(self._checked(row))
            except (ValueError, TypeError, KeyError, TavreiError) as exc:
                self._set_aside(_("{key} game {index}: {why}").format(
                    key=str(sh)[:24], index=index, why=_one(exc)[:120]))
        return out

    def _checked(self, row: Sequence[Any]) -> StoredGame:
        """One row as a ``StoredGame``, or an exception saying why it is set aside."""
        values = dict(zip(_COLUMNS, row))
        summary = _json_object(values["summary"])
        checksum = summary.pop("checksum", None)
        game = _stored_game(values["settings_hash"], values["game_index"], values["cell"],
                            values["variant"], values["options"], summary,
                            values["measures"], values["record"])
        for name in _REPEATED:
            if summary.get(name) != values[name]:
                raise ValueError(_("its {name} column disagrees with its summary (damaged)")
                                     .format(name=name))
        plain = list(row)
        plain[_SUMMARY] = json.dumps(summary, sort_keys=True)
        digest = _checksum(plain)
        if checksum is not None:
            if checksum != digest:
                raise ValueError(_("its fields do not match the checksum written with them "
                                   "(damaged)"))
            return game
        if digest not in _REPLAYED:
            try:
                game.replay()
            except TavreiError as exc:
                raise ValueError(_("its record does not replay ({value})")
                                     .format(value=_one(exc)[:100])) from None
            if len(_REPLAYED) >= _MAX_REPLAYED:
                _REPLAYED.clear()
            _REPLAYED.add(digest)
        return game

    def _set_aside(self, what: str) -> None:
        if what not in self.set_aside:
            self.set_aside.append(what)
            self._unwarned = True

    def _warn(self) -> None:
        if getattr(self, "_unwarned", False):
            self._unwarned = False
            shown = "; ".join(self.set_aside[:5])
            more = (_(" and {count} more").format(count=len(self.set_aside) - 5)
                    if len(self.set_aside) > 5 else "")
            warnings.warn(_("{path}: {count} damaged rows set aside, not counted: {shown}{more}")
                              .format(path=self.path, count=len(self.set_aside), shown=shown,
                                      more=more), RuntimeWarning, stacklevel=3)

    def __iter__(self) -> Iterator[StoredGame]:
        return iter(self.games())

    def __len__(self) -> int:
        return int(self._query("SELECT COUNT(*) FROM games")[0][0])

    # -- export -------------------------------------------------------------------
    _EXPORT = ("settings_hash", "game_index", "cell", "variant", "options", "agent_a",
               "agent_b", "white", "black", "seed", "result", "winner", "termination",
               "plies", "seconds")

    def export_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """One line per game (no records, no measures): for a spreadsheet."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(self._EXPORT)
        for g in self.games():            # set-aside rows are not exported
            r = g.result
            writer.writerow([g.settings_hash, g.index, g.cell, g.variant,
                             json.dumps(g.options, sort_keys=True), r.agent_a, r.agent_b,
                             r.white, r.black, r.seed, r.result, r.winner, r.termination,
                             r.plies, r.seconds])
        text = buf.getvalue()
        if path is not None:
            write_atomically(path, text)
        return text

    def export_json(self, path: str | os.PathLike[str] | None = None) -> str:
        """Everything: the settings and every game with its measures and record."""
        games = []
        for g in self.games():
            games.append({"settings_hash": g.settings_hash, "cell": g.cell,
                          "variant": g.variant, "options": g.options,
                          **asdict(g.result), "measures": g.measures})
        text = json.dumps({"store_version": STORE_VERSION, "settings": self.settings(),
                           "fits": self.fits(), "games": games}, indent=1,
                          ensure_ascii=False)
        if path is not None:
            write_atomically(path, text)
        return text

    def checkpoint(self) -> bool:
        """Move the committed games from the ``-wal`` file into the store file itself;
        True when it is all there.

        In WAL mode a commit lands in the ``-wal`` file beside the store, and SQLite
        copies it over only now and then (every 1000 pages) or when the last
        connection closes. A student who copies the ``.sqlite`` alone, after a run or
        while a notebook still has it open, would miss the last games (a sweep killed
        after 5 s: 957 of its 995 games in the file). A reader in the middle of a read
        keeps it from finishing; it waits a second, not the store's 30 s, since the
        games are safe in the ``-wal`` file either way and moved when the store is
        next opened or checkpointed.
        """
        import sqlite3
        if self.readonly or self.path == ":memory:":
            return False
        try:
            self.db.execute("PRAGMA busy_timeout=1000")
            try:
                busy, _log, _moved = self.db.execute(
                    "PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            finally:
                self.db.execute(f"PRAGMA busy_timeout={_TIMEOUT * 1000}")
        except sqlite3.Error:
            return False
        return busy == 0

    def close(self) -> None:
        """Close the store, its games checkpointed into the file (``checkpoint``)."""
        self.checkpoint()
        if self._shared:
            _BROWSER.release(self.path)
        else:
            self.db.close()
        self._drop_snapshot()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        # (a repr never fails: a closed store, or one whose opening failed, is shown so)
        try:
            return f"<ResultsStore {self.path}: {len(self)} games>"
        except (StoreError, AttributeError):
            return f"<ResultsStore {getattr(self, 'path', '?')}: closed>"


def _objects_in(db: Any) -> list[tuple[str, str, str]]:
    """The (type, name, sql) of every object of a database (whitespace folded)."""
    return sorted((t, n, " ".join((sql or "").split())) for t, n, sql in db.execute(
        "SELECT type, name, sql FROM sqlite_master"))


def _holds_a_store(db: Any) -> bool:
    """Whether a database holds the tables of a results store (of either layout): a
    ``-wal`` that adds something more is still this store's, and the layout check
    names what it added."""
    held = set(_objects_in(db))
    return any(set(_objects_of(schema)) <= held for schema in (_SCHEMA, _SCHEMA_V1))


def _check_kind(given: str, path: str) -> None:
    """Refuse a store path that names no file to keep games in: an empty name, a
    folder, a FIFO or a device (SQLite said "disk I/O error" or "damaged" of them, and
    an empty name made a temporary database that kept nothing)."""
    if not given.strip():
        raise StoreError(_("--store {path}: an empty name; give the store a file name "
                           "(e.g. lab.sqlite)").format(path=repr(given)))
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return                # a new store, or one SQLite's own open will name the failure of
    if stat.S_ISREG(mode):
        return
    kind = (_("a folder") if stat.S_ISDIR(mode) else _("a pipe (FIFO)") if stat.S_ISFIFO(mode)
            else _("a device") if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else _("a socket"))
    raise StoreError(_("{path}: is {kind}, not a results store file; give --store a file "
                       "name (a new name makes a new store)").format(path=path, kind=kind))


def _objects_of(schema: str) -> list[tuple[str, str, str]]:
    """The (type, name, sql) of every object a schema script makes, as ``_objects`` lists
    them (whitespace folded)."""
    import sqlite3
    ref = sqlite3.connect(":memory:")
    try:
        ref.executescript(schema)
        return sorted((t, n, " ".join((sql or "").split())) for t, n, sql in ref.execute(
            "SELECT type, name, sql FROM sqlite_master"))
    finally:
        ref.close()


def open_store(path: str | os.PathLike[str]) -> ResultsStore:
    """The store for a sweep: writable when the file can be written, else read-only
    (a sweep whose every game is stored only reads; one that must write then says so)."""
    p = str(path)
    if p != ":memory:" and os.path.isfile(p) and not _writable(p):
        return ResultsStore(p, readonly=True)
    try:
        return ResultsStore(p)
    except StoreError as exc:
        if p != ":memory:" and os.path.isfile(p) and "readonly" in str(exc):
            return ResultsStore(p, readonly=True)
        raise


def _writable(path: str) -> bool:
    folder = os.path.dirname(os.path.abspath(path))
    return os.access(path, os.W_OK) and os.access(folder, os.W_OK)


def _one(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def _text(value: Any) -> str:
    """A stored text field, refused when it is not text or not UTF-8 (damage)."""
    if not isinstance(value, str):
        raise TypeError(_("a text field holds {name}").format(name=type(value).__name__))
    try:
        value.encode("utf-8")         # surrogates from undecodable bytes raise here
    except UnicodeEncodeError:
        raise ValueError(_("a text field is not UTF-8 (damaged)")) from None
    return value


def _json_object(value: Any) -> dict[str, Any]:
    data = json.loads(_text(value))
    if not isinstance(data, dict):
        raise ValueError(_("a JSON field is not an object"))
    return data


def _stored_game(sh: Any, index: Any, cell: Any, variant: Any, options: Any,
                 data: dict[str, Any], measures: Any, record: Any) -> StoredGame:
    """One row as a ``StoredGame``; ValueError/TypeError/KeyError when it does not decode."""
    result = GameResult(**{k: data[k] for k in _RESULT_FIELDS if k in data},
                        record=_text(record))
    if not (isinstance(index, int) and result.index == index):
        raise ValueError(_("the game number {index!r} disagrees with its summary")
                             .format(index=index))
    if not isinstance(result.plies, int) or result.result not in ("1-0", "0-1", "1/2-1/2"):
        raise ValueError(_("the summary's result or plies are not a game's"))
    return StoredGame(_text(sh), _text(cell), _text(variant), _json_object(options), result,
                      _json_object(measures))


__all__ = ["ROWS_VERSION", "STORE_VERSION", "ResultsStore", "StoreError", "StoredGame",
           "open_store", "settings_hash", "verification"]
