"""The results store's file: what kind of file it is, its tables and version, made,
checked and migrated.

A store is someone's work: a file that is not exactly this package's store (a
table, trigger or view not ours, another version, another program's mark) is
refused with one line and left untouched, and a new store's tables are made in
one transaction, so another process sees no store or a whole one.
"""

from __future__ import annotations

import os
import stat
import time
from typing import Any

from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _

#: The file's layout: bumped when a table is added or changed. Version 1 had no
#: ``fits`` table; a writable version-1 store is migrated on opening (the table added
#: and the version set, in one transaction), a read-only one is read as it is.
STORE_VERSION = 2

SCHEMA_V1 = """
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
FITS = """
CREATE TABLE IF NOT EXISTS fits (
    key TEXT PRIMARY KEY,
    variant_hash TEXT NOT NULL,
    cell TEXT NOT NULL,
    json TEXT NOT NULL
);
"""
SCHEMA = SCHEMA_V1 + FITS


class StoreError(TavreiError):
    """The store file failed under us (full disk, I/O error, damage, a foreign schema).

    One line naming the file and what to do; every game committed before stays.
    """


def advice(exc: Exception) -> str:
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


def one_line(exc: BaseException) -> str:
    """An exception's message on one line, at most 200 characters."""
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def check_kind(given: str, path: str) -> None:
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


def objects_in(db: Any) -> list[tuple[str, str, str]]:
    """The (type, name, sql) of every object of a database (whitespace folded)."""
    return sorted((t, n, " ".join((sql or "").split())) for t, n, sql in db.execute(
        "SELECT type, name, sql FROM sqlite_master"))


def objects_of(schema: str) -> list[tuple[str, str, str]]:
    """The (type, name, sql) of every object a schema script makes, as ``objects_in``
    lists them (whitespace folded)."""
    import sqlite3
    ref = sqlite3.connect(":memory:")
    try:
        ref.executescript(schema)
        return objects_in(ref)
    finally:
        ref.close()


def holds_a_store(db: Any) -> bool:
    """Whether a database holds the tables of a results store (of either layout): a
    ``-wal`` that adds something more is still this store's, and the layout check
    names what it added."""
    held = set(objects_in(db))
    return any(set(objects_of(schema)) <= held for schema in (SCHEMA, SCHEMA_V1))


def is_version_1(db: Any) -> bool:
    """Whether the file is a store of the first layout (no ``fits`` table)."""
    return objects_in(db) == objects_of(SCHEMA_V1) and version_of(db) == "1"


def check_file(db: Any, path: str) -> None:
    """Refuse a file whose pages SQLite's ``quick_check`` finds damaged."""
    rows = [r[0] for r in db.execute("PRAGMA quick_check(5)")]
    if rows != ["ok"]:
        raise StoreError(_("{path}: the store is damaged (SQLite's quick_check: {value}); "
                           "use a new --store (copy what it still holds with `sqlite3 FILE "
                           ".recover`)")
                             .format(path=path, value='; '.join(str(r) for r in rows)[:300]))


def unfinished(db: Any, path: str) -> bool:
    """Is the file new, or a store whose making was cut off?

    An empty file is a new store. A tavrei_lab that made its tables one transaction
    each, after setting WAL mode, could be killed (or a second process could look
    in) with WAL mode set and only some of the tables, every one of them exactly
    ours and empty: nobody's data, finished rather than refused, or its "resume with
    --store" advice could never work. Anything else -- a table not ours, a row,
    another program's mark (``user_version``, ``application_id``), an empty database
    in another journal mode -- is someone's file: left untouched.
    """
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return True       # (SQLite counts a page once a write began: the size tells)
    have = objects_in(db)
    if not set(have) <= set(objects_of(SCHEMA)):
        return False
    if db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal" or \
            db.execute("PRAGMA user_version").fetchone()[0] != 0 or \
            db.execute("PRAGMA application_id").fetchone()[0] != 0:
        return False
    tables = [n for t, n, _sql in have if t == "table"]
    return not any(db.execute(f'SELECT 1 FROM "{n}" LIMIT 1').fetchall() for n in tables)


def make(db: Any, path: str, timeout: float) -> None:
    """Make the tables and the version row in one transaction, so another process
    sees no store or a whole one, and a kill leaves the file as it was.

    ``executescript`` would commit each table on its own; the statements are run
    one by one inside ``BEGIN IMMEDIATE``, and the file is looked at again once the
    lock is held: another process may have made the store in the meantime.

    An empty file is set to WAL mode first: it holds nothing to change, and
    switching a file that other processes have open, once it has tables, needs a
    lock SQLite does not wait for (six processes making one store met "database
    is locked"). A kill just after leaves an empty WAL file, which ``unfinished``
    takes for what it is.

    Several processes opening one new file at once still meet "database is locked"
    now and then, SQLite not waiting while another one sets the file up (seen with
    six); nothing was written, so it is tried again for up to ``timeout`` seconds,
    the connection's own.
    """
    import sqlite3
    deadline = time.monotonic() + timeout
    while True:
        try:
            if not os.path.exists(path) or os.path.getsize(path) == 0:
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
            continue
        break
    try:
        if unfinished(db, path):
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)",
                       (str(STORE_VERSION),))
        db.commit()
    except BaseException:
        db.rollback()
        raise


def version_of(db: Any) -> Any:
    """The version row of the file's ``meta`` table, or None."""
    try:
        rows = db.execute("SELECT value FROM meta WHERE key='version'").fetchall()
    except Exception:       # no meta table, or not one this package wrote
        return None
    return rows[0][0] if len(rows) == 1 else None


def migrate_from_1(db: Any) -> None:
    """Version 1 -> 2: add the fits table; the game rows and their hashes stay."""
    with db:
        db.execute(FITS.strip().rstrip(";"))
        db.execute("UPDATE meta SET value=? WHERE key='version'", (str(STORE_VERSION),))


def check_schema(db: Any, path: str) -> None:
    """Refuse a file whose tables are not exactly this package's (no trigger, view or
    extra table may rewrite what is stored)."""
    want = objects_of(SCHEMA)
    have = objects_in(db)
    if have != want:
        extra = [f"{t} {n}" for t, n, _sql in have
                 if (t, n) not in {(a, b) for a, b, _sql in want}]
        missing = [f"{t} {n}" for t, n, _sql in want
                   if (t, n) not in {(a, b) for a, b, _sql in have}]
        what = (_("it has {names}").format(names=", ".join(extra)) if extra else
                _("it lacks {names}").format(names=", ".join(missing)) if missing else
                _("its tables are defined differently"))
        raise StoreError(_("{path}: not a results store of this tavrei_lab ({value}); use a "
                           "new --store").format(path=path, value=what[:300]))


def check_version(db: Any, path: str) -> None:
    """Refuse a file whose version row is missing, not a number, or another version."""
    rows = db.execute("SELECT value FROM meta WHERE key='version'").fetchall()
    version = rows[0][0] if rows else None
    if not (isinstance(version, str) and version.isdecimal() and len(version) <= 9):
        shown = repr(version)[:40]
        raise StoreError(_("{path}: not a results store (its version is {shown}); use a new "
                           "--store").format(path=path, shown=shown))
    if int(version) != STORE_VERSION:
        raise StoreError(_("{path}: store version {version}; this tavrei_lab reads version "
                           "{store_version}: use a new --store")
                             .format(path=path, version=version, store_version=STORE_VERSION))


__all__ = ["FITS", "SCHEMA", "SCHEMA_V1", "STORE_VERSION", "StoreError", "advice",
           "check_file", "check_kind", "check_schema", "check_version", "holds_a_store",
           "is_version_1", "make", "migrate_from_1", "objects_in", "objects_of", "one_line",
           "unfinished", "version_of"]
