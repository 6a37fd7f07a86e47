"""Is the ``-wal`` file beside a results store the store's own? Asked before opening it.

A store in WAL mode keeps its newest commits in ``FILE-wal`` until they are
checkpointed into ``FILE``; opening the store applies that file, and the last
connection to close copies it into the store. SQLite cannot tell a ``-wal`` that
belongs to another database: one copied beside a good 12-game store (73,728 bytes)
was applied, the store reported "malformed", and the failed open's close
checkpointed the foreign pages into the file (57,344 bytes, unreadable after); a
``-wal`` of a store made afresh replaced the 12 games silently with its own 8.

So before a store with a ``-wal`` is opened for writing, the file and its ``-wal``
are read together, without writing either:

* with a ``-shm`` beside them (a process has the store open, or was killed with it
  open), by a read-only connection (SQLite's own locks keep it consistent with a
  writer);
* without one (nobody has it open), on a private copy of the two, as the store's
  files are not touched at all, nor a ``-shm`` made beside them.

They must pass ``quick_check``, hold the package's tables, and hold every game and
setting the file alone holds (the package never deletes a row, so a ``-wal`` of the
store only adds): a ``-wal`` of another store takes rows away, or mixes pages into
damage. A read-only store without a ``-shm`` (its folder may not be written) is read
from such a copy too: ``immutable`` would read the file without its ``-wal``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext

#: A ``-wal`` file holds frames to apply only past its 32-byte header.
WAL_HEADER_BYTES = 32


def wal_path(path: str) -> str:
    return path + "-wal"


def has_wal_frames(path: str) -> bool:
    """Does a ``-wal`` beside ``path`` hold anything that opening the store would apply?"""
    try:
        return os.path.getsize(wal_path(path)) > WAL_HEADER_BYTES
    except OSError:
        return False


def has_shm(path: str) -> bool:
    return os.path.lexists(path + "-shm")


def uri(path: str) -> str:
    return "file:" + quote(os.path.abspath(path))


def snapshot(path: str) -> tempfile.TemporaryDirectory[str]:
    """A private folder holding a copy of the store and its ``-wal`` (``store.sqlite``
    and ``store.sqlite-wal``); ``OSError`` when there is no room for it."""
    folder = tempfile.TemporaryDirectory(prefix="tavrei-store-")
    try:
        target = os.path.join(folder.name, "store.sqlite")
        shutil.copyfile(path, target)
        if os.path.exists(wal_path(path)):
            shutil.copyfile(wal_path(path), wal_path(target))
    except BaseException:
        folder.cleanup()
        raise
    return folder


def _keys(db: Any) -> set[tuple[str, Any, Any]]:
    games = {("game", h, i) for h, i in db.execute(
        "SELECT settings_hash, game_index FROM games")}
    return games | {("setting", h, None) for (h,) in db.execute("SELECT hash FROM settings")}


def _alone_keys(sqlite3: Any, path: str) -> set[tuple[str, Any, Any]] | None:
    """The rows of the store file read without its ``-wal`` (``immutable``: nothing is
    opened but the file, nothing written); None when it cannot be read so (a store made
    in WAL mode whose tables are all still in the ``-wal``, a checkpoint halfway)."""
    try:
        db = sqlite3.connect(uri(path) + "?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return None
    try:
        tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"games", "settings"} <= tables:
            return set() if not tables else None
        return _keys(db)
    except sqlite3.Error:
        return None
    finally:
        db.close()


def wal_problem(sqlite3: Any, path: str, timeout: float, is_ours: Callable[[Any], bool], *,
                keep: bool = False) -> tuple[str | None, tempfile.TemporaryDirectory[str] | None]:
    """Why the store at ``path`` and its ``-wal`` do not read together as one store
    (``is_ours`` judges a connection's schema), or None when they do; with ``keep``,
    the private copy they were read from (when one was made), for the caller to read,
    and an ``OSError`` when there is no room for that copy. Nothing of the store's is
    written, nor a file left beside it."""
    alone = _alone_keys(sqlite3, path)
    copy, made_shm = None, False
    try:
        if not has_shm(path):
            try:
                copy = snapshot(path)
            except OSError:      # no room for a copy: read the files in place
                if keep:         # (the caller reads without writing: it says what it can)
                    raise
                made_shm = True
        if copy is not None:
            db = sqlite3.connect(os.path.join(copy.name, "store.sqlite"), timeout=timeout)
        else:
            db = sqlite3.connect(uri(path) + "?mode=ro", uri=True, timeout=timeout)
        try:
            rows = [r[0] for r in db.execute("PRAGMA quick_check(5)")]
            if rows != ["ok"]:
                return "; ".join(str(r) for r in rows)[:200], None
            if not is_ours(db):
                return _("it does not hold the tables of a results store"), None
            together = _keys(db)
        finally:
            db.close()
        if alone is not None and not alone <= together:
            lost = len(alone - together)
            return ngettext("with it, {lost} of the {count} rows of the file is gone",
                            "with it, {lost} of the {count} rows of the file are gone",
                            lost).format(lost=lost, count=len(alone)), None
        if keep and copy is not None:
            copy, kept = None, copy
            return None, kept
        return None, None
    except sqlite3.Error as exc:
        return " ".join(str(exc).split())[:200], None
    finally:
        if copy is not None:
            copy.cleanup()
        if made_shm and has_shm(path):
            try:                 # the read-only connection made it: leave none behind
                os.unlink(path + "-shm")
            except OSError:
                pass
