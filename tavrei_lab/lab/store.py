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

Each row holds one game, its record and its measures, with a checksum of its
fields; a worker that played a game replays it and hands back a verification, so
the store replays only what arrived unverified. What a row is, how it is checked
when read and where the replay runs: ``store_rows``. The file's tables and version,
and how a file that is not a store is refused: ``store_file``. A row that fails
its check is set aside: named in ``set_aside`` and in a warning, never counted,
and a sweep plays that game again. ``verify()`` replays every record whatever its
checksum says.

The ``fits`` table keeps the weights ``sweep(tune=...)`` fit to each cell, keyed
by the cell's variant hash and the tune's settings, so a rerun does not tune again.
"""

from __future__ import annotations

import csv
import hmac
import io
import json
import os
import sys
import warnings
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tavrei_lab.core.files import write_atomically
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.lab.results import GameResult
from tavrei_lab.lab.store_file import (
    STORE_VERSION,
    StoreError,
    advice,
    check_file,
    check_kind,
    check_schema,
    check_version,
    holds_a_store,
    is_version_1,
    make,
    migrate_from_1,
    one_line,
    unfinished,
)
from tavrei_lab.lab.store_rows import (
    COLUMNS,
    ROWS_VERSION,
    StoredGame,
    checked_row,
    json_object,
    row_of,
    settings_hash,
    text_field,
    verification,
)
from tavrei_lab.lab.store_wal import (
    has_shm,
    has_wal_frames,
    snapshot,
    wal_path,
    wal_problem,
)
from tavrei_lab.lab.store_wal import uri as store_uri

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
        #: "Where the replay runs" in ``store_rows``): random, made anew for every store object.
        self.verify_key = os.urandom(32)
        #: Games ``add`` replayed itself, stored or refused (no verification, or one
        #: that did not match).
        self.replayed = 0
        #: A private copy of the store and its ``-wal`` that a read-only store is read
        #: from (``store_wal``), removed on closing.
        self._snapshot: Any = None
        if self.path != ":memory:":
            check_kind(str(path), self.path)
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
            check_file(self.db, self.path)
            if not self.readonly:
                if unfinished(self.db, self.path):
                    make(self.db, self.path, _TIMEOUT)
                elif is_version_1(self.db):
                    migrate_from_1(self.db)
            #: what the file holds: a read-only version-1 store has no fits table
            self.version = STORE_VERSION
            if self.readonly and is_version_1(self.db):
                self.version = 1
            else:
                check_schema(self.db, self.path)
                check_version(self.db, self.path)
            if not self.readonly:     # only now: a foreign file is refused as it was
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: commits survive
        except sqlite3.Error as exc:
            self._abandon(shared)
            raise StoreError(_("{path}: not a results store ({value}); {value2}")
                                 .format(path=self.path, value=one_line(exc),
                                         value2=advice(exc))) from None
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
                holds_a_store,
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
                              .format(path=self.path, doing=doing, value=one_line(exc), kept=kept,
                                      value2=advice(exc)))

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
            doc = json_object(rows[0][0])
            if not isinstance(doc.get("weights"), dict):
                raise ValueError(_("no weights in it"))
        except (ValueError, TypeError) as exc:
            self._set_aside(_("fit {key}: {why}").format(key=key[:24], why=one_line(exc)[:120]))
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
                out[text_field(key)] = {"cell": text_field(cell), "variant_hash": text_field(vh),
                                   "doc": json_object(j)}
            except (ValueError, TypeError) as exc:
                self._set_aside(_("fit {key}: {why}").format(key=str(key)[:24],
                                                              why=one_line(exc)[:120]))
        self._warn()
        return out

    def add(self, h: str, cell: str, variant: str, options: dict[str, Any],
            result: GameResult, measures: dict[str, Any], *,
            verified: str | None = None) -> None:
        """Write one finished game, in its own transaction.

        The record must replay to the result (``store_rows``: "What is read is checked"): a game
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
                    value=one_line(exc)[:160])) from None
        row = row_of(h, cell, variant, options, result, measures)
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
                                 .format(path=self.path, value=one_line(exc),
                                         value2=advice(exc))) from None

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
                data = json.loads(text_field(j))
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
                    why=_("its record does not replay ({value})").format(
                        value=one_line(exc)[:120])))
        self._warn()
        return list(self.set_aside)

    def _rows(self, h: str | None, limit: int | None) -> list[Any]:
        query = f"SELECT {', '.join(COLUMNS)} FROM games"
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
                out.append(checked_row(row))
            except (ValueError, TypeError, KeyError, TavreiError) as exc:
                self._set_aside(_("{key} game {index}: {why}").format(
                    key=str(sh)[:24], index=index, why=one_line(exc)[:120]))
        return out

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


__all__ = ["ROWS_VERSION", "STORE_VERSION", "ResultsStore", "StoreError", "StoredGame",
           "open_store", "settings_hash", "verification"]
