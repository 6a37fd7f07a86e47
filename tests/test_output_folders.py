"""An output folder (``compare --out``, ``sweep --out``, ``save``) holds only what the
package wrote there, listed in its manifest: anything else under a name the package
writes is refused in one line before a game is played, never replaced nor deleted; a
save killed at any step is finished or cleaned up by the next one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tavrei_lab.core.files import (
    JOURNAL,
    MANIFEST,
    NotOursError,
    check_output_folder,
    recover_output_folder,
    swapped_in,
)

ROOT = Path(__file__).resolve().parents[1]


def contents(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "tavrei_lab", *args], capture_output=True,
                          text=True, timeout=300, env=env, cwd=cwd)


def project_folder(folder: Path) -> Path:
    """A student's project folder: settings, a figure, a game of their own, notes."""
    (folder / "plots").mkdir(parents=True)
    (folder / "records").mkdir()
    (folder / "settings.json").write_text('{"theme": "dark"}\n')
    (folder / "plots" / "figure1.png").write_bytes(b"\x89PNG figure")
    (folder / "records" / "mygame.pgn").write_text("1. e4 e5 *\n")
    (folder / "notes.md").write_text("# my notes\n")
    return folder


def test_compare_into_a_project_folder_refuses_and_deletes_nothing(tmp_path: Path) -> None:
    folder = project_folder(tmp_path / "project")
    before = contents(folder)
    proc = cli("compare", "--agents", "random", "--games", "2", "--max-plies", "30",
               "--executor", "inline", "--no-progress", "--out", ".", cwd=folder)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "mygame.pgn" in lines[0] and "no game was played" in lines[0]
    assert contents(folder) == before


@pytest.mark.parametrize("name", ["settings.json", "games.csv", "plots/figure1.png"])
def test_a_users_file_named_like_an_output_is_named_and_kept(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "project"
    (folder / name).parent.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("mine\n")
    before = contents(folder)
    proc = cli("compare", "--agents", "random", "--games", "2", "--max-plies", "10",
               "--executor", "inline", "--no-progress", "--out", str(folder), cwd=tmp_path)
    assert proc.returncode == 2 and Path(name).name in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert contents(folder) == before


def test_sweep_out_refuses_a_users_table_before_playing(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "cells.csv").write_text("my,own,table\n")
    proc = cli("sweep", "--strength-games", "0",
               "--grid", "splits=true,false", "--games", "2", "--max-plies", "8",
               "--agents", "random", "--executor", "inline", "--no-progress",
               "--out", str(folder), cwd=tmp_path)
    assert proc.returncode == 2 and "cells.csv" in proc.stderr, proc.stderr
    assert "no game was played" in proc.stderr
    assert contents(folder) == {"cells.csv": b"my,own,table\n"}


def small_run(games: int, seed: int) -> object:
    from tavrei_lab.lab import tournament
    return tournament("tavreli", "random", games=games, seed=seed, max_plies=8,
                      executor="inline", progress=False)


def test_a_file_put_into_the_records_folder_is_refused_by_save(tmp_path: Path) -> None:
    out = tmp_path / "run"
    small_run(2, 0).save(out)                                    # type: ignore[attr-defined]
    assert MANIFEST in contents(out)
    (out / "records" / "mine.tvr").write_text("my own game")
    before = contents(out)
    with pytest.raises(NotOursError, match="mine.tvr"):
        small_run(2, 1).save(out)                                # type: ignore[attr-defined]
    assert contents(out) == before


def test_an_output_edited_by_the_user_is_not_replaced(tmp_path: Path) -> None:
    out = tmp_path / "run"
    small_run(2, 0).save(out)                                    # type: ignore[attr-defined]
    with open(out / "games.csv", "a", encoding="utf-8") as f:
        f.write("my remark\n")
    before = contents(out)
    with pytest.raises(NotOursError, match="games.csv"):
        check_output_folder(out, ("records", "games.csv"))
    with pytest.raises(NotOursError, match="games.csv"):
        small_run(2, 1).save(out)                                # type: ignore[attr-defined]
    assert contents(out) == before


def test_a_manifest_that_is_not_ours_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / MANIFEST).write_text('{"files": {}}')
    (out / "table.csv").write_text("mine")
    with pytest.raises(NotOursError, match=MANIFEST):
        with swapped_in(out, ("table.csv",)) as part:
            (part / "table.csv").write_text("new")
    assert contents(out) == {MANIFEST: b'{"files": {}}', "table.csv": b"mine"}


def test_a_save_into_a_folder_it_wrote_replaces_only_its_own(tmp_path: Path) -> None:
    out = tmp_path / "run"
    names = ("records", "extra.svg", "table.csv")
    with swapped_in(out, names) as part:
        (part / "records").mkdir()
        (part / "records" / "1.tvr").write_text("a")
        (part / "extra.svg").write_text("<svg/>")
        (part / "table.csv").write_text("old")
    (out / "mine.txt").write_text("mine")
    with swapped_in(out, names) as part:
        (part / "records").mkdir()
        (part / "records" / "2.tvr").write_text("b")
        (part / "table.csv").write_text("new")
    got = contents(out)
    assert set(got) == {"records/2.tvr", "table.csv", "mine.txt", MANIFEST}
    listed = json.loads(got[MANIFEST])["files"]
    assert set(listed) == {"records/2.tvr", "table.csv"}


# -- a save killed at any step ------------------------------------------------------------

NAMES = ("records", "extra.svg", "table.csv", "settings.json")

KILLER = r"""
import os, signal, sys
from pathlib import Path
sys.path.insert(0, sys.argv[4])
from tavrei_lab.core.files import swapped_in

out, at, tag = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
NAMES = ("records", "extra.svg", "table.csv", "settings.json")
steps = 0


def counted(real):
    def step(*args, **kw):
        global steps
        if steps == at:
            os.kill(os.getpid(), signal.SIGKILL)
        steps += 1
        return real(*args, **kw)
    return step


for name in ("rename", "replace", "unlink", "rmdir", "mkdir"):
    setattr(os, name, counted(getattr(os, name)))
with swapped_in(out, NAMES) as part:
    (part / "records").mkdir()
    for i in range(3 if tag == "old" else 2):
        (part / "records" / f"{tag}-{i}.tvr").write_text(f"{tag} {i}")
    if tag == "old":
        (part / "extra.svg").write_text("<svg/>")
    (part / "table.csv").write_text(tag)
    (part / "settings.json").write_text(tag)
print("steps", steps)
"""


def killed_save(out: Path, at: int, tag: str, script: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(script), str(out), str(at), tag, str(ROOT)],
                          capture_output=True, text=True, timeout=60)


def save(out: Path, tag: str) -> None:
    """The save ``KILLER`` makes, in this process and not killed."""
    with swapped_in(out, NAMES) as part:
        (part / "records").mkdir()
        for i in range(3 if tag == "old" else 2):
            (part / "records" / f"{tag}-{i}.tvr").write_text(f"{tag} {i}")
        if tag == "old":
            (part / "extra.svg").write_text("<svg/>")
        (part / "table.csv").write_text(tag)
        (part / "settings.json").write_text(tag)


def test_a_save_killed_at_any_step_is_finished_or_undone_by_the_next(tmp_path: Path) -> None:
    script = tmp_path / "killer.py"
    script.write_text(KILLER)
    whole = {}
    for tag in ("old", "new"):
        save(tmp_path / f"whole-{tag}", tag)
        whole[tag] = contents(tmp_path / f"whole-{tag}")
    at, finished, journals = 0, False, 0
    while not finished:
        out = tmp_path / f"at-{at}"
        save(out, "old")
        (out / "notes.md").write_text("mine")
        proc = killed_save(out, at, "new", script)
        finished = proc.returncode == 0
        assert finished or proc.returncode == -9, proc.stderr
        if os.path.exists(out / JOURNAL):       # killed inside the swap: finished, and said
            journals += 1
            with pytest.warns(RuntimeWarning, match="cut off; it has been finished"):
                recover_output_folder(out)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # nothing to say: nothing was cut off
                recover_output_folder(out)
        got = contents(out)
        assert got.pop("notes.md") == b"mine", at
        assert got in (whole["old"], whole["new"]), (at, sorted(got))
        assert not [p.name for p in out.iterdir() if p.name.startswith(".")], at
        save(out, "new")                        # the next save works
        assert {k: v for k, v in contents(out).items() if k != "notes.md"} == whole["new"]
        at += 1
    assert at > 10 and journals > 5   # every rename, write and removal was a kill point


def test_a_users_file_that_appears_during_the_run_sends_the_results_elsewhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # the check before play passed; the file came while the games were played
    import shutil

    from tavrei_lab.cli import common, main
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "settings.json").write_text("mine")
    monkeypatch.setattr(common, "check_output_folder", lambda out, entries: None)
    code = main(["compare", "--agents", "random", "--games", "2", "--max-plies", "8",
                 "--executor", "inline", "--no-progress", "--out", str(folder)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "settings.json" in err[0], err
    spare = Path(err[0].rsplit("saved in ", 1)[1].split(" instead")[0])
    try:
        assert len(list((spare / "records").iterdir())) == 2
    finally:
        shutil.rmtree(spare)
    assert contents(folder) == {"settings.json": b"mine"}
