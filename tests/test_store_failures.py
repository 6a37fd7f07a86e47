"""The results store when the file fails under it.

Every failure after the store opens is one line naming the file and what to do,
the games committed before stay, damaged rows are set aside and named, a store
whose schema is not the package's is refused, a read-only store can be read, and a
stored variant is data (never a path to open).
"""

from __future__ import annotations

import multiprocessing
import os
import re
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from tavrei_lab.errors import TavreiError
from tavrei_lab.lab import ResultsStore, ResultsTable, sweep
from tavrei_lab.lab.store import StoreError, open_store

SMALL = dict(agents="greedy", seed=5, max_plies=12, progress=False, executor="inline")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small store (2 cells x 3 games), copied by each test that damages it."""
    path = tmp_path_factory.mktemp("store") / "lab.sqlite"
    sweep("tavreli", {"splits": [True, False]}, games=3, store=path, **SMALL).store.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path


def _copy(stored: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy.sqlite"
    shutil.copy(stored, target)
    return target


def _cli(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "tavrei_lab", *args], capture_output=True,
                          text=True, timeout=300, env=env, **kw)  # type: ignore[call-overload]


def _one_line_error(proc: subprocess.CompletedProcess[str], path: Path) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert str(path) in lines[0]
    return lines[0]


def test_disk_full_mid_sweep_is_one_line_and_keeps_the_games(stored, tmp_path):
    path = _copy(stored, tmp_path)
    store = ResultsStore(path)
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count={pages}")   # the disk is full from now on
    with pytest.raises(StoreError, match="database or disk is full") as err:
        sweep("tavreli", {"splits": [True, False]}, games=40, store=store, **SMALL)
    assert str(path) in str(err.value) and "free some disk space" in str(err.value)
    kept = re.search(r"\((\d+) games stored are kept\)", str(err.value))
    assert kept and int(kept.group(1)) >= 6
    store.close()
    assert len(ResultsTable.from_store(path, "games")) == int(kept.group(1))


def test_file_size_limit_is_one_line_on_the_command_line(stored, tmp_path):
    path = _copy(stored, tmp_path)
    size = path.stat().st_size

    def limit() -> None:      # Python ignores SIGXFSZ: the write fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 4096, size + 4096))

    proc = _cli("sweep", "--strength-games", "0",
                "--grid", "splits=true,false", "--agents", "greedy", "--games",
                "200", "--seed", "5", "--max-plies", "12", "--executor", "inline",
                "--no-progress", "--store", str(path), preexec_fn=limit)
    line = _one_line_error(proc, path)
    assert "disk I/O error" in line or "full" in line, line
    assert "run the same command again" in line
    assert len(ResultsTable.from_store(path, "games")) >= 6


@pytest.mark.parametrize("damage, message", [
    ("CREATE TABLE g2 AS SELECT * FROM games; DROP TABLE games; "
     "ALTER TABLE g2 DROP COLUMN game_index; ALTER TABLE g2 RENAME TO games",
     "not a results store"),
    ("DROP TABLE settings; CREATE TABLE settings (hash TEXT)", "not a results store"),
    ("UPDATE meta SET value='abc'", "its version is 'abc'"),
    ("CREATE TABLE m2 AS SELECT * FROM meta; DROP TABLE meta; "
     "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
     "INSERT INTO meta VALUES ('version', NULL)", "not a results store"),
    ("UPDATE meta SET value='" + "9" * 5000 + "'", "its version is"),
    ("UPDATE meta SET value='5'", "store version 5"),
    ("CREATE TRIGGER t AFTER INSERT ON games BEGIN "
     "UPDATE games SET result='1-0' WHERE rowid=new.rowid; END", "has trigger t"),
    ("CREATE VIEW v AS SELECT * FROM games", "has view v"),
    ("CREATE TABLE extra (x)", "has table extra"),
])
def test_a_foreign_schema_is_refused_in_one_line(stored, tmp_path, damage, message):
    path = _copy(stored, tmp_path)
    db = sqlite3.connect(path)
    db.executescript(damage)
    db.commit()
    db.close()
    with pytest.raises(StoreError, match=message):
        ResultsStore(path)
    with pytest.raises(StoreError, match=message):
        ResultsTable.from_store(path)
    proc = _cli("sweep", "--strength-games", "0",
                "--agents", "greedy", "--games", "2", "--max-plies", "12",
                "--executor", "inline", "--no-progress", "--store", str(path))
    _one_line_error(proc, path)


def _contents(store: ResultsStore) -> dict[tuple[str, int], object]:
    return {(g.settings_hash, g.index): (g.cell, g.variant, g.options, g.measures,
                                         g.result.comparable(), g.result.seconds)
            for g in store.games()}


def test_damaged_pages_are_one_line_or_set_aside_never_a_traceback(stored, tmp_path):
    """Item 7: a damaged page is refused, or every row read is exactly as stored and the
    rest are set aside and named -- never a table from damaged rows (34 of 86 damaged
    page bodies printed one before)."""
    clean_store = ResultsStore(stored, readonly=True)
    clean = _contents(clean_store)
    clean_store.close()
    raw = stored.read_bytes()
    page = 4096 if len(raw) % 4096 == 0 else 1024
    outcomes = set()
    for n in range(1, len(raw) // page):
        for where in (0, 1, page // 2, page - 40, page // 4, 3 * page // 4):
            path = tmp_path / f"d{n}-{where}.sqlite"
            data = bytearray(raw)
            for k in range(16):
                data[n * page + where + k] ^= 0x5A
            path.write_bytes(bytes(data))
            try:
                with warnings.catch_warnings(record=True) as seen:
                    warnings.simplefilter("always")
                    table = ResultsTable.from_store(path, "games")
                    store = ResultsStore(path, readonly=True)
                    read = _contents(store)
                    aside = list(store.set_aside)
                    store.close()
                outcomes.add("read")
                for key, value in read.items():
                    assert clean.get(key) == value, (path, key)   # never a damaged row
                if seen:
                    assert "set aside" in str(seen[0].message)
                    outcomes.add("set aside")
                assert len(table) <= len(read)
                assert len(read) + len(aside) >= len(clean)    # each row read or named
            except TavreiError as exc:
                assert str(path) in str(exc)
                outcomes.add("refused")
    assert {"refused", "set aside"} <= outcomes, outcomes


def _without_checksums(path: Path) -> None:
    """Make the rows look written by a tavrei_lab before checksums (or by hand)."""
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET summary=json_remove(summary, '$.checksum')")
    db.commit()
    db.close()


def test_every_record_is_checked_when_read(stored, tmp_path):
    """Item 7: a record edited inside a row (a move dropped, a result changed) is set
    aside and named, whether the row carries the package's checksum or not (then its
    record is replayed)."""
    for legacy in (False, True):
        path = tmp_path / f"edited-{legacy}.sqlite"
        shutil.copy(stored, path)
        if legacy:
            _without_checksums(path)
        db = sqlite3.connect(path)
        # game 0: its last move dropped from the record; game 1: a draw said to be a win
        for rowid, record in db.execute(
                "SELECT rowid, record FROM games WHERE game_index=0").fetchall():
            body, result = record.rstrip().rsplit(" ", 1)
            db.execute("UPDATE games SET record=? WHERE rowid=?",
                       (body.rsplit(" ", 1)[0] + " " + result + "\n", rowid))
        db.execute("UPDATE games SET result='1-0', winner='white', "
                   "summary=json_set(summary, '$.result', '1-0', '$.winner', 'white') "
                   "WHERE game_index=1")
        db.commit()
        db.close()
        store = ResultsStore(path, readonly=True)
        with pytest.warns(RuntimeWarning, match="4 damaged rows set aside"):
            games = store.games()
        assert sorted(g.index for g in games) == [2, 2]
        named = " | ".join(store.set_aside)
        assert sorted(a.split(":")[0].split()[-1] for a in store.set_aside) == list("0011")
        assert ("does not replay" if legacy else "checksum") in named, named
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert "game 0" not in store.export_csv().replace("game_index", "")
            assert len(store.export_csv().splitlines()) == 3
        store.close()


def test_a_row_without_a_checksum_is_replayed_once(stored, tmp_path, monkeypatch):
    """Rows of an older store are replayed when first read, then cached by their
    checksum: a notebook rereading its table does not pay 25 ms a game again."""
    path = _copy(stored, tmp_path)
    _without_checksums(path)
    from tavrei_lab.lab import store_rows
    monkeypatch.setattr(store_rows, "REPLAYED", set())
    calls: list[int] = []
    real = store_rows.StoredGame.replay

    def counted(self: store_rows.StoredGame) -> object:
        calls.append(self.index)
        return real(self)

    monkeypatch.setattr(store_rows.StoredGame, "replay", counted)
    assert len(ResultsTable.from_store(path, "games")) == 6
    assert len(calls) == 6
    assert len(ResultsTable.from_store(path, "games")) == 6
    assert len(calls) == 6                       # cached
    store = ResultsStore(path, readonly=True)
    assert store.verify() == [] and len(calls) == 12   # verify replays whatever is cached
    store.close()
    # a row with the package's checksum is not replayed on read at all
    calls.clear()
    assert len(ResultsTable.from_store(stored, "games")) == 6 and calls == []


def test_a_sweep_plays_a_set_aside_game_again(stored, tmp_path):
    path = _copy(stored, tmp_path)
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET seconds=seconds+1 WHERE game_index=2")
    db.commit()
    db.close()
    with pytest.warns(RuntimeWarning, match="set aside"):
        res = sweep("tavreli", {"splits": [True, False]}, games=3, store=path, **SMALL)
    assert res.played == 2
    res.store.close()
    store = ResultsStore(path, readonly=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(store.games()) == 6 and store.set_aside == []
    store.close()


def test_a_record_that_does_not_replay_is_not_stored(stored, tmp_path):
    path = _copy(stored, tmp_path)
    store = ResultsStore(path)
    game = store.games()[0]
    from dataclasses import replace
    bad = replace(game.result, index=7, plies=game.result.plies + 1)
    with pytest.raises(StoreError, match="game 7 of .* is not stored: its record does not"):
        store.add(game.settings_hash, game.cell, game.variant, game.options, bad,
                  game.measures)
    assert len(store) == 6
    store.close()


def test_rows_that_do_not_decode_are_set_aside_and_named(stored, tmp_path):
    path = _copy(stored, tmp_path)
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET summary=CAST(x'7b22ff' AS TEXT) WHERE game_index=0")
    db.execute("UPDATE games SET measures='{not json' WHERE game_index=1")
    db.commit()
    db.close()
    with pytest.warns(RuntimeWarning, match=r"4 damaged rows set aside.* game 0: .* game 1"):
        table = ResultsTable.from_store(path, "games")
    assert len(table) == 2
    store = ResultsStore(path, readonly=True)
    with pytest.warns(RuntimeWarning):
        assert len(store.games()) == 2
    assert len(store.set_aside) == 4
    store.close()


def test_a_read_only_store_is_read_without_writing(stored, tmp_path, monkeypatch):
    path = _copy(stored, tmp_path)
    before = path.read_bytes()
    store = ResultsStore(path, readonly=True)
    assert len(store) == 6
    with pytest.raises(StoreError, match="readonly"):
        store.add("x", "c", "tavreli", {}, store.games()[0].result, {})
    store.close()
    opened: list[bool] = []
    real = ResultsStore.__init__

    def spy(self: ResultsStore, p: object = ":memory:", *, readonly: bool = False) -> None:
        opened.append(readonly)
        real(self, p, readonly=readonly)  # type: ignore[arg-type]

    monkeypatch.setattr(ResultsStore, "__init__", spy)
    ResultsTable.from_store(path)
    from tavrei_lab.lab.plots import store_plots
    store_plots(path)
    assert opened and all(opened)
    # a sweep whose every game is stored, on a file it may not write, only reads
    monkeypatch.setattr("tavrei_lab.lab.store._writable", lambda p: False)
    res = sweep("tavreli", {"splits": [True, False]}, games=3, store=path, **SMALL)
    assert res.played == 0 and res.store.readonly
    res.store.close()
    assert path.read_bytes() == before
    with pytest.raises(StoreError, match="readonly"):
        sweep("tavreli", {"splits": [True, False]}, games=4, store=path, **SMALL)


def test_a_stored_variant_is_data_never_a_path(stored, tmp_path):
    trap = tmp_path / "trap.toml"
    trap.mkdir()      # opening it as a variant file would fail
    for legacy in (True, False):
        path = tmp_path / f"variant-{legacy}.sqlite"
        shutil.copy(stored, path)
        if legacy:    # no checksum: the record is replayed on read, with its own rules
            _without_checksums(path)
        db = sqlite3.connect(path)
        db.execute("UPDATE games SET variant=?", (str(trap),))
        db.commit()
        db.close()
        store = ResultsStore(path)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            games = store.games()
        assert len(games) == (6 if legacy else 0)     # a changed row is set aside
        assert bool(seen) != legacy
        for g in games:
            assert g.replay().ply == g.result.plies
            assert g.rules().options["splits"] in (True, False)
        store.close()


def test_set_aside_rows_are_one_warning_line_on_the_command_line(stored, tmp_path):
    path = _copy(stored, tmp_path)
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET result='1-0' WHERE game_index=1")
    db.commit()
    db.close()
    proc = _cli("sweep", "--strength-games", "0",
                "--grid", "splits=true,false", "--agents", "greedy", "--games", "3",
                "--seed", "5", "--max-plies", "12", "--executor", "inline", "--no-progress",
                "--store", str(path))
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert lines and all(line.startswith("tavrei-lab sweep: warning: ") for line in lines), lines
    assert "set aside" in lines[0] and "game 1: its result column disagrees" in lines[0]
    assert "2 played now" in proc.stdout                      # the two set aside, played again


# -- the replay runs in the worker, not in the store's process ---------------------------

def _verified_game(store: ResultsStore, seed: int = 9):  # type: ignore[no-untyped-def]
    """One greedy game played as a sweep's worker plays it, keyed to ``store``."""
    from tavrei_lab.lab import build_cells
    from tavrei_lab.lab.runner import GameSpec
    from tavrei_lab.lab.sweep import LabTask, play_lab_game
    cell = build_cells("tavreli", {"splits": [True]})[0]
    spec = GameSpec(cell.name, "greedy", "greedy", seed=seed, index=0, max_plies=12)
    return cell, play_lab_game(LabTask(spec, cell.parcel(), verify_key=store.verify_key,
                                       variant="tavreli", options=cell.option_dict))


def test_a_sweeps_games_are_replayed_by_their_workers_not_by_the_store(tmp_path):
    store = ResultsStore(tmp_path / "s.sqlite")
    for executor in ("inline", "processes"):
        res = sweep("tavreli", {"splits": [True, False]}, games=2, store=store,
                    **{**SMALL, "executor": executor, "seed": 11 if executor == "inline" else 12})
        assert res.played == 4
    assert store.replayed == 0                     # every game came verified
    assert len(store.games()) == 8 and store.set_aside == []
    assert store.verify() == []                    # and every record does replay
    store.close()


def test_a_game_changed_after_its_workers_replay_is_replayed_and_refused(tmp_path):
    from dataclasses import replace
    store = ResultsStore(tmp_path / "s.sqlite")
    cell, played = _verified_game(store)
    result, measures = played                      # unpacks as it always did
    assert played.verified is not None
    bad = replace(result, plies=result.plies + 1)  # what arrives is not what was replayed
    with pytest.raises(StoreError, match="is not stored: its record does not replay"):
        store.add("h", cell.name, "tavreli", cell.option_dict, bad, measures,
                  verified=played.verified)
    assert len(store) == 0 and store.replayed == 1
    store.add("h", cell.name, "tavreli", cell.option_dict, result, measures,
              verified=played.verified)
    assert len(store) == 1 and store.replayed == 1  # the intact one: not replayed
    store.close()


def test_a_verification_under_another_stores_key_is_not_trusted(tmp_path):
    import pickle
    one, other = ResultsStore(), ResultsStore(tmp_path / "s.sqlite")
    assert one.verify_key != other.verify_key
    cell, played = _verified_game(one)
    back = pickle.loads(pickle.dumps(played))      # as it comes back from a worker
    assert tuple(back) == tuple(played) and back.verified == played.verified
    other.add("h", cell.name, "tavreli", cell.option_dict, *back, verified=back.verified)
    assert other.replayed == 1 and len(other) == 1  # replayed itself, then stored
    one.close()
    other.close()


def test_a_worker_whose_record_does_not_replay_hands_back_no_verification(monkeypatch):
    from tavrei_lab.lab import store as store_module
    store = ResultsStore()

    def broken(self):  # type: ignore[no-untyped-def]
        raise TavreiError("the record ends elsewhere")

    monkeypatch.setattr(store_module.StoredGame, "replay", broken)
    cell, played = _verified_game(store)
    assert played.verified is None
    with pytest.raises(StoreError, match="the record ends elsewhere"):
        store.add("h", cell.name, "tavreli", cell.option_dict, *played)
    assert len(store) == 0
    store.close()


# -- making a store: one transaction, and a foreign file left as it was -----------------------

def _statements(schema: str) -> list[str]:
    return [s.strip() for s in schema.split(";") if s.strip()]


def _slow_creator(path: str, started: Any, out: Any) -> None:
    """Opens a new store and stalls between two of its tables (a slow disk, a busy
    machine): the moment another process saw a half-made store before."""
    real = sqlite3.connect

    def connect(*a: Any, **k: Any) -> sqlite3.Connection:
        db = real(*a, **k)

        def trace(sql: str) -> None:
            if "CREATE TABLE IF NOT EXISTS games" in sql:
                started.set()
                time.sleep(1.0)
        db.set_trace_callback(trace)
        return db

    sqlite3.connect = connect  # type: ignore[assignment]
    _opener(path, out)


def _opener(path: str, out: Any) -> None:
    try:
        ResultsStore(path).close()
        out.put("ok")
    except Exception as exc:
        out.put(f"{type(exc).__name__}: {exc}")


def test_a_store_opened_while_another_process_makes_it_is_whole(tmp_path):
    mp = multiprocessing.get_context("fork")
    path = str(tmp_path / "new.sqlite")
    started, out = mp.Event(), mp.Queue()
    creator = mp.Process(target=_slow_creator, args=(path, started, out))
    creator.start()
    assert started.wait(60), "the creator never reached its schema"
    other = mp.Process(target=_opener, args=(path, out))
    other.start()
    for p in (creator, other):
        p.join(90)
    said = sorted(out.get(timeout=5) for _ in range(2))
    assert said == ["ok", "ok"], said
    with ResultsStore(path) as store:
        assert len(store) == 0 and store.version == 2


def test_six_processes_making_one_store_at_once_all_open_it(tmp_path):
    mp = multiprocessing.get_context("fork")
    for trial in range(4):
        path = str(tmp_path / f"race_{trial}.sqlite")
        out = mp.Queue()
        ps = [mp.Process(target=_opener, args=(path, out)) for _ in range(6)]
        for p in ps:
            p.start()
        for p in ps:
            p.join(90)
        said = [out.get(timeout=5) for _ in ps]
        assert said == ["ok"] * 6, said


def _left_by_an_older_tavrei_lab(path: Path, tables: int, version: bool = False) -> None:
    """What a tavrei_lab that made its tables one transaction at a time left when it was
    killed: WAL mode set first, then the first ``tables`` statements of its schema."""
    from tavrei_lab.lab.store_file import SCHEMA, STORE_VERSION
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    for statement in _statements(SCHEMA)[:tables]:
        db.execute(statement)
    if version:
        db.execute("INSERT INTO meta VALUES ('version', ?)", (str(STORE_VERSION),))
    db.commit()
    db.close()


@pytest.mark.parametrize("tables", [0, 1, 2, 3, 4])
def test_a_store_whose_making_was_cut_off_is_finished(tmp_path, tables):
    path = tmp_path / "killed.sqlite"
    _left_by_an_older_tavrei_lab(path, tables)
    with ResultsStore(path) as store:
        assert store.version == 2 and len(store) == 0
    res = sweep("tavreli", {"splits": [True]}, games=2, store=path, **SMALL)
    assert res.played == 2
    res.store.close()


def test_a_process_killed_while_it_makes_the_store_leaves_one_that_opens(tmp_path):
    path = tmp_path / "killed.sqlite"
    kill = ("import os, sqlite3\n"
            "real = sqlite3.connect\n"
            "def connect(*a, **k):\n"
            "    db = real(*a, **k)\n"
            "    def trace(sql):\n"
            "        if 'CREATE TABLE IF NOT EXISTS games' in sql:\n"
            "            os._exit(137)\n"
            "    db.set_trace_callback(trace)\n"
            "    return db\n"
            "sqlite3.connect = connect\n"
            "from tavrei_lab.lab.store import ResultsStore\n"
            f"ResultsStore({str(path)!r})\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", kill], env=env, timeout=120)
    assert proc.returncode == 137
    proc = _cli("sweep", "--strength-games", "0",
                "--grid", "splits=true", "--agents", "greedy", "--games", "2",
                "--seed", "5", "--max-plies", "12", "--executor", "inline", "--no-progress",
                "--store", str(path))
    assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.parametrize("fill", [
    "INSERT INTO settings VALUES ('h', 'c', '{}')",
    "INSERT INTO meta VALUES ('owner', 'someone else')",
])
def test_a_half_made_store_holding_rows_is_still_refused(tmp_path, fill):
    path = tmp_path / "half.sqlite"
    _left_by_an_older_tavrei_lab(path, 2)
    with sqlite3.connect(path) as db:
        db.execute(fill)
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="it lacks .*table fits, table games"):
        ResultsStore(path)
    assert path.read_bytes() == before


def _foreign(path: Path, script: str) -> bytes:
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")
    db.executescript(script)
    db.close()
    data = path.read_bytes()
    assert data[18:20] == b"\x01\x01"       # a rollback-journal database
    return data


@pytest.mark.parametrize("script, message", [
    ("CREATE TABLE grades (student TEXT, mark INTEGER); INSERT INTO grades VALUES ('a', 5)",
     "it has table grades"),
    ("PRAGMA user_version=7; CREATE TABLE t (x); DROP TABLE t", "it lacks .*table fits"),
])
def test_a_foreign_database_is_refused_unchanged(tmp_path, script, message):
    path = tmp_path / "foreign.db"
    before = _foreign(path, script)
    with pytest.raises(StoreError, match=message):
        ResultsStore(path)
    with pytest.raises(StoreError, match=message):
        open_store(path)
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()


def test_an_empty_file_becomes_a_store(tmp_path):
    path = tmp_path / "empty.sqlite"
    path.touch()
    with ResultsStore(path) as store:
        assert store.version == 2
    assert path.read_bytes()[18:20] == b"\x02\x02"          # WAL: readers never block


# -- one file a student can copy --------------------------------------------------------------

def test_a_finished_sweeps_store_file_alone_holds_every_game(tmp_path):
    path = tmp_path / "lab.sqlite"
    res = sweep("tavreli", {"splits": [True, False]}, games=3, store=path, **SMALL)
    copied = tmp_path / "copied"
    copied.mkdir()
    shutil.copy(path, copied / "lab.sqlite")           # the -wal file left behind
    with ResultsStore(copied / "lab.sqlite", readonly=True) as copy:
        assert len(copy) == 6
    res.store.close()


def test_an_interrupted_sweeps_store_file_alone_holds_every_kept_game(tmp_path, monkeypatch):
    path = tmp_path / "lab.sqlite"
    ResultsStore(path).close()
    reader = sqlite3.connect(path)       # a notebook reading the store as the sweep runs
    reader.execute("SELECT COUNT(*) FROM games").fetchall()
    real = ResultsStore.add
    added: list[int] = []

    def add(self: ResultsStore, *a: Any, **k: Any) -> None:
        if len(added) == 4:
            raise KeyboardInterrupt
        real(self, *a, **k)
        added.append(1)

    monkeypatch.setattr(ResultsStore, "add", add)
    with pytest.raises(KeyboardInterrupt) as err:
        sweep("tavreli", {"splits": [True, False]}, games=3, store=path, **SMALL)
    assert err.value.games_kept == 4  # type: ignore[attr-defined]
    copied = tmp_path / "copied"
    copied.mkdir()
    shutil.copy(path, copied / "lab.sqlite")
    with ResultsStore(copied / "lab.sqlite", readonly=True) as copy:
        assert len(copy) == 4
    reader.close()


def test_a_closed_store_still_has_a_repr(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # repr() of a closed store raised "reading the store failed ... the file is damaged"
    from tavrei_lab.lab.store import ResultsStore
    store = ResultsStore(tmp_path / "s.sqlite")
    assert repr(store).endswith(": 0 games>")
    store.close()
    assert repr(store).endswith(": closed>")
    store.close()                      # closing twice is harmless, as for a file
