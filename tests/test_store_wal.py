"""A store and the files beside it: a ``-wal`` that is not the store's is refused with
the store left byte for byte as it was; a store's own ``-wal`` is always read, a
read-only one without a ``-shm`` too; a path that is no file is one line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tavrei_lab.lab import ResultsStore, ResultsTable
from tavrei_lab.lab.store import StoreError, verification

ROOT = Path(__file__).resolve().parents[1]

#: Plays a small sweep into argv[1] (argv[2] games a cell, seed argv[3]); with argv[4]
#: "kill", the store is never checkpointed and the process dies with it open, so its
#: games stay in its -wal (and -shm), as after a crash.
MAKER = r"""
import os, sys
sys.path.insert(0, sys.argv[5])
from tavrei_lab.lab import sweep
from tavrei_lab.lab.store import ResultsStore
if sys.argv[4] == "kill":
    ResultsStore.checkpoint = lambda self: False
res = sweep("tavreli", {"splits": [True, False]}, games=int(sys.argv[2]), store=sys.argv[1],
            agents="random", seed=int(sys.argv[3]), max_plies=16, progress=False,
            executor="inline")
if sys.argv[4] == "kill":
    res.store.db.execute("PRAGMA wal_autocheckpoint=0")
    os._exit(0)
res.store.close()
"""


def make(tmp: Path, name: str, games: int, seed: int, how: str, script: Path) -> Path:
    path = tmp / name
    subprocess.run([sys.executable, str(script), str(path), str(games), str(seed), how,
                    str(ROOT)], check=True, timeout=300, capture_output=True)
    return path


def files_beside(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir())
            if p.name.startswith(path.name)}


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A good 12-game store, and three stores left with their games in a -wal: one made
    afresh, one with older games checkpointed and newer ones in its -wal, and one of the
    same settings as the good one (its -wal adds to it)."""
    tmp = tmp_path_factory.mktemp("stores")
    script = tmp / "maker.py"
    script.write_text(MAKER)
    good = make(tmp, "a.sqlite", 6, 1, "close", script)
    fresh = make(tmp, "fresh.sqlite", 4, 2, "kill", script)
    later = make(tmp, "later.sqlite", 3, 3, "close", script)
    make(tmp, "later.sqlite", 8, 3, "kill", script)
    grown = tmp / "grown.sqlite"
    shutil.copy(good, grown)
    make(tmp, "grown.sqlite", 9, 1, "kill", script)
    return {"good": good, "fresh": fresh, "later": later, "grown": grown}


def beside_good(stores: dict[str, Path], tmp_path: Path, wal_of: str) -> Path:
    target = tmp_path / "a.sqlite"
    shutil.copy(stores["good"], target)
    shutil.copy(f"{stores[wal_of]}-wal", f"{target}-wal")
    return target


@pytest.mark.parametrize("wal_of", ["fresh", "later"])
@pytest.mark.parametrize("readonly", [False, True])
def test_another_stores_wal_is_refused_and_the_store_left_as_it_was(
        stores: dict[str, Path], tmp_path: Path, wal_of: str, readonly: bool) -> None:
    path = beside_good(stores, tmp_path, wal_of)
    before = files_beside(path)
    with pytest.raises(StoreError, match="move it away") as err:
        ResultsStore(path, readonly=readonly)
    assert f"{path}-wal" in str(err.value) and "\n" not in str(err.value)
    assert files_beside(path) == before            # no -shm made, not a byte written
    os.rename(f"{path}-wal", tmp_path / "moved-wal")
    with ResultsStore(path) as store:                # moved away: every game is there
        assert len(store) == 12


def test_another_stores_wal_on_the_command_line_is_one_line(
        stores: dict[str, Path], tmp_path: Path) -> None:
    path = beside_good(stores, tmp_path, "later")
    before = files_beside(path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "tavrei_lab", "sweep", "--strength-games", "0",
         "--grid", "splits=true,false",
         "--games", "6", "--seed", "1", "--agents", "random", "--max-plies", "16",
         "--executor", "inline", "--no-progress", "--store", str(path)],
        capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "move it away" in lines[0], proc.stderr
    assert files_beside(path) == before


@pytest.mark.parametrize("shm", [True, False])
def test_a_stores_own_wal_is_applied(stores: dict[str, Path], tmp_path: Path,
                                     shm: bool) -> None:
    # killed with the store open: its -wal adds 6 games to the 12 of the file
    for readonly in (True, False):
        folder = tmp_path / f"ro-{readonly}"
        folder.mkdir()
        for suffix in ("", "-wal", *(("-shm",) if shm else ())):
            shutil.copy(f"{stores['grown']}{suffix}", folder / f"g.sqlite{suffix}")
        path = folder / "g.sqlite"
        before = files_beside(path)
        with ResultsStore(path, readonly=readonly) as store:
            assert len(store) == 18
        if readonly and not shm:        # read from a copy: nothing made beside it
            assert files_beside(path) == before


def test_a_read_only_store_without_shm_reads_its_wal(stores: dict[str, Path],
                                                      tmp_path: Path) -> None:
    # a -shm cannot be made in a read-only folder: immutable=1 read the file without
    # its -wal (4,737 of 4,840 games), with no warning
    path = tmp_path / "g.sqlite"
    shutil.copy(stores["grown"], path)
    shutil.copy(f"{stores['grown']}-wal", f"{path}-wal")
    before = files_beside(path)
    assert len(ResultsTable.from_store(path, "games")) == 18
    assert files_beside(path) == before


def test_a_full_disk_says_the_newest_games_are_in_the_wal(stores: dict[str, Path],
                                                          tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    for suffix in ("", "-wal", "-shm"):
        shutil.copy(f"{stores['grown']}{suffix}", f"{path}{suffix}")
    store = ResultsStore(path)
    store.db.execute("PRAGMA wal_autocheckpoint=0")
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count={pages}")      # the disk is full from now on
    game = store.games()[0]
    big = replace(game.result, index=10_000, record=game.record + " " * 200_000)
    signed = verification(store.verify_key, game.cell, game.variant, game.options, big)
    with pytest.raises(StoreError, match="full") as err:
        store.add(game.settings_hash, game.cell, game.variant, game.options, big,
                  game.measures, verified=signed)
    assert "the newest in g.sqlite-wal: keep it beside the store" in str(err.value)
    assert "free some disk space" in str(err.value)
    store.close()


@pytest.mark.parametrize("kind", ["fifo", "folder", "devnull", "empty"])
def test_a_store_path_that_is_no_file_is_one_line_and_changes_nothing(
        tmp_path: Path, kind: str) -> None:
    if kind == "fifo":
        target = str(tmp_path / "pipe")
        os.mkfifo(target)
    elif kind == "folder":
        target = str(tmp_path / "folder.sqlite")
        os.mkdir(target)
    else:
        target = "/dev/null" if kind == "devnull" else ""
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(StoreError) as err:
        ResultsStore(target)
    said = {"fifo": "FIFO", "folder": "a folder", "devnull": "a device", "empty": "empty name"}
    assert said[kind] in str(err.value) and "\n" not in str(err.value)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "tavrei_lab", "sweep", "--strength-games", "0",
         "--grid", "splits=true,false",
         "--games", "1", "--agents", "random", "--max-plies", "8", "--executor", "inline",
         "--no-progress", "--store", target], capture_output=True, text=True, timeout=120,
        env=env, cwd=tmp_path)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and said[kind] in lines[0] and "Traceback" not in proc.stderr
    assert sorted(os.listdir(tmp_path)) == before
    if kind == "devnull":
        assert Path("/dev/null").is_char_device()


def test_a_read_only_store_that_cannot_read_its_wal_says_so(
        stores: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # no room for a private copy, and (as in a read-only folder) no -shm to be made
    import sqlite3

    from tavrei_lab.lab import store as store_module
    from tavrei_lab.lab import store_wal
    path = tmp_path / "g.sqlite"
    shutil.copy(stores["grown"], path)
    shutil.copy(f"{stores['grown']}-wal", f"{path}-wal")
    before = files_beside(path)

    def no_room(p: str) -> object:
        raise OSError(28, "No space left on device")

    real = sqlite3.connect

    def no_shm(target: str, *args: object, **kw: object) -> object:
        if str(target).endswith("?mode=ro"):
            raise sqlite3.OperationalError("unable to open database file")
        return real(target, *args, **kw)                     # type: ignore[arg-type]

    monkeypatch.setattr(store_wal, "snapshot", no_room)
    monkeypatch.setattr(store_module, "snapshot", no_room)
    monkeypatch.setattr(sqlite3, "connect", no_shm)
    with pytest.warns(RuntimeWarning, match="the games in .*g.sqlite-wal are not read"):
        with ResultsStore(path, readonly=True) as store:
            assert len(store) == 12                          # the file's own, said so
    assert files_beside(path) == before
