"""The results store: every game of every sweep in one SQLite file, nothing lost.

Why SQLite? It is in Python's standard library, needs no server, is one
file a student can copy, and it is a real database: a transaction that was
committed survives the process being killed. The store follows three rules:

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
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from tavrei_lab.compare.results import GameResult
from tavrei_lab.errors import TavreiError
from tavrei_lab.game import Game
from tavrei_lab.rules.base import RuleModule
from tavrei_lab.variant import load_variant

#: Bumped when what a game row means changes (new measures, new meaning of a field).
STORE_VERSION = 1

_SCHEMA = """
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

_RESULT_FIELDS = [f.name for f in fields(GameResult)]


def settings_hash(settings: dict[str, Any]) -> str:
    """The hash a row carries: of the settings as canonical JSON.

    >>> settings_hash({"b": 1, "a": 2}) == settings_hash({"a": 2, "b": 1})
    True
    """
    text = json.dumps({**settings, "store_version": STORE_VERSION}, sort_keys=True,
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
        """The rule module the game was played with."""
        return load_variant(self.variant, **self.options)

    def replay(self) -> Any:
        """The game replayed from its record; raises ``TavreiError`` if the record
        does not lead to the stored result (``Game.from_record`` checks each move)."""
        game = Game.from_record(self.record, variant=self.rules())
        outcome = game.outcome(claim_draw=True)
        r = self.result
        if game.ply != r.plies:
            raise TavreiError(f"{self.cell} game {r.index}: the record has {game.ply} "
                              f"plies, the store says {r.plies}")
        if r.adjudicated:
            ok = outcome is None
        else:
            ok = (outcome is not None and outcome.result() == r.result
                  and outcome.termination == r.termination)
        if not ok:
            raise TavreiError(f"{self.cell} game {r.index}: the record ends in {outcome}, "
                              f"the store says {r.result} by {r.termination}")
        return game


#: Pyodide in a browser (JupyterLite): see "In the browser" above.
_IN_BROWSER = sys.platform == "emscripten"


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
            db, users = sqlite3.connect(path, timeout=30), 0
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

    >>> store = ResultsStore(":memory:")
    >>> h = store.register({"cell": "tavreli", "seed": 1})
    >>> store.done(h)
    set()
    >>> store.close()
    """

    def __init__(self, path: str | os.PathLike[str] = ":memory:") -> None:
        self.path = str(path) if str(path) == ":memory:" else str(Path(path))
        if self.path != ":memory:":
            parent = Path(self.path).parent
            if not parent.is_dir():
                raise TavreiError(f"{self.path}: cannot create the store: no folder {parent}")
        try:
            import sqlite3
        except ImportError:  # some Pyodide releases ship sqlite3 as a separate package
            raise TavreiError("the results store needs Python's sqlite3 module, which this "
                              "Python does not have: run the variant lab in a local "
                              "install") from None
        try:
            if _IN_BROWSER and self.path != ":memory:":
                self.db = _BROWSER.open(self.path)
            else:
                self.db = sqlite3.connect(self.path, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")   # WAL + NORMAL: commits survive
            self.db.executescript(_SCHEMA)                  # a killed process
            with self.db:
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)",
                                (str(STORE_VERSION),))
        except sqlite3.DatabaseError as exc:
            if _IN_BROWSER and self.path != ":memory:":
                _BROWSER.release(self.path)
            raise TavreiError(f"{self.path}: not a results store ({exc})") from exc
        version = self.db.execute("SELECT value FROM meta WHERE key='version'").fetchone()[0]
        if int(version) != STORE_VERSION:
            raise TavreiError(f"{self.path}: store version {version}; this tavrei_lab "
                              f"reads version {STORE_VERSION}")

    # -- writing ------------------------------------------------------------------
    def register(self, settings: dict[str, Any]) -> str:
        """Record a setting (once) and return its hash."""
        h = settings_hash(settings)
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO settings VALUES (?, ?, ?)",
                            (h, str(settings.get("cell", "")),
                             json.dumps(settings, sort_keys=True, default=str)))
        return h

    def add(self, h: str, cell: str, variant: str, options: dict[str, Any],
            result: GameResult, measures: dict[str, Any]) -> None:
        """Write one finished game, in its own transaction."""
        summary = {k: v for k, v in asdict(result).items() if k != "record"}
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO games VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (h, result.index, cell, variant, json.dumps(options, sort_keys=True),
                 result.agent_a, result.agent_b, result.white, result.black, result.seed,
                 result.result, result.winner, result.termination, result.plies,
                 json.dumps(summary), json.dumps(measures), result.record, result.seconds))

    # -- reading ------------------------------------------------------------------
    def done(self, h: str) -> set[int]:
        """The game numbers already stored under a settings hash."""
        return {i for (i,) in self.db.execute(
            "SELECT game_index FROM games WHERE settings_hash=?", (h,))}

    def settings(self) -> dict[str, dict[str, Any]]:
        """Every setting in the store, by hash, in the order first registered."""
        return {h: json.loads(j) for h, j in self.db.execute(
            "SELECT hash, json FROM settings ORDER BY rowid")}

    def games(self, h: str | None = None, limit: int | None = None) -> list[StoredGame]:
        """The stored games (of one setting, and only the first ``limit`` numbers)."""
        query = ("SELECT settings_hash, cell, variant, options, summary, measures, record "
                 "FROM games")
        args: list[Any] = []
        if h is not None:
            query += " WHERE settings_hash=?"
            args.append(h)
            if limit is not None:
                query += " AND game_index < ?"
                args.append(limit)
        query += " ORDER BY settings_hash, game_index"
        out = []
        for sh, cell, variant, options, summary, measures, record in self.db.execute(
                query, args):
            data = json.loads(summary)
            result = GameResult(**{k: data[k] for k in _RESULT_FIELDS if k in data},
                                record=record)
            out.append(StoredGame(sh, cell, variant, json.loads(options), result,
                                  json.loads(measures)))
        return out

    def __iter__(self) -> Iterator[StoredGame]:
        return iter(self.games())

    def __len__(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    # -- export -------------------------------------------------------------------
    _EXPORT = ("settings_hash", "game_index", "cell", "variant", "options", "agent_a",
               "agent_b", "white", "black", "seed", "result", "winner", "termination",
               "plies", "seconds")

    def export_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """One line per game (no records, no measures): for a spreadsheet."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(self._EXPORT)
        writer.writerows(self.db.execute(
            f"SELECT {', '.join(self._EXPORT)} FROM games ORDER BY settings_hash, game_index"))
        text = buf.getvalue()
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def export_json(self, path: str | os.PathLike[str] | None = None) -> str:
        """Everything: the settings and every game with its measures and record."""
        games = []
        for g in self.games():
            games.append({"settings_hash": g.settings_hash, "cell": g.cell,
                          "variant": g.variant, "options": g.options,
                          **asdict(g.result), "measures": g.measures})
        text = json.dumps({"store_version": STORE_VERSION, "settings": self.settings(),
                           "games": games}, indent=1, ensure_ascii=False)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def close(self) -> None:
        if _IN_BROWSER and self.path != ":memory:":
            _BROWSER.release(self.path)
        else:
            self.db.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ResultsStore {self.path}: {len(self)} games>"


__all__ = ["STORE_VERSION", "ResultsStore", "StoredGame", "settings_hash"]
