"""``tavrei-lab lessons`` writes every lesson it can and touches nothing the user made: a
pipe, a link, a folder or a file named like a lesson (or like the ``ru`` folder) is
left alone and named, never waited on, and the rest are still written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tavrei_lab.cli import lessons as L
from tavrei_lab.cli import main

SHIPPED = L.lesson_files()
RUSSIAN = sorted(n for n in SHIPPED if n.startswith("ru/"))


def test_every_tutorial_has_its_russian_lesson_as_the_help_says() -> None:
    english = {n for n in SHIPPED if "/" not in n}
    assert {f"ru/{n}" for n in english} <= set(SHIPPED)
    run = subprocess.run([sys.executable, "-m", "tavrei_lab", "lessons", "--help"],
                         capture_output=True, text=True, timeout=60)
    assert "where translated" not in run.stdout and "in Russian in ru/" in run.stdout


def test_a_pipe_a_link_and_a_folder_named_like_lessons_are_kept_and_the_rest_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(tmp_path / "00_quick_start.ipynb")                    # it hung the command
    (tmp_path / "01_meet_the_tavrels.ipynb").symlink_to(tmp_path / "gone")   # dangling
    (tmp_path / "02_towers_and_prisoners.ipynb").mkdir()            # was "your changes"
    assert main(["lessons", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    for name in ("00_quick_start", "01_meet_the_tavrels", "02_towers_and_prisoners"):
        assert f"kept {tmp_path / name}.ipynb: not a lesson file" in err
    assert (tmp_path / "01_meet_the_tavrels.ipynb").is_symlink()
    assert not (tmp_path / "gone").exists()
    assert (tmp_path / "03_splitting_towers.ipynb").read_bytes() == \
        SHIPPED["03_splitting_towers.ipynb"]
    assert all((tmp_path / n).read_bytes() == SHIPPED[n] for n in RUSSIAN)


@pytest.mark.parametrize("make_ru", [lambda p: p.write_text("mine"),
                                     lambda p: p.symlink_to(p.parent / "nowhere")])
def test_a_file_where_the_russian_folder_goes_stops_only_those_lessons(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make_ru) -> None:  # type: ignore[no-untyped-def]
    make_ru(tmp_path / "ru")
    assert main(["lessons", str(tmp_path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (f"tavrei-lab lessons: {tmp_path}/ru is not a folder: not written: "
                      f"ru/00_quick_start.ipynb, ru/01_meet_the_tavrels.ipynb and "
                      f"{len(RUSSIAN) - 2} more")
    assert err[1] == (f"tavrei-lab lessons: error: {len(RUSSIAN)} lesson files not written "
                      f"to {tmp_path}; each is named above")
    assert len(err) == 2
    english = [n for n in SHIPPED if "/" not in n]
    assert all((tmp_path / n).read_bytes() == SHIPPED[n] for n in english)   # "File exists"
    assert os.path.lexists(tmp_path / "ru") and not (tmp_path / "ru").is_dir()


def test_a_lesson_that_cannot_be_read_is_named_and_the_others_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As root every file is readable: the unreadable one is a read that fails."""
    name = "04_the_volkhv.ipynb"
    (tmp_path / name).write_bytes(SHIPPED[name])
    real = L.read_regular

    def failing(path, limit, refused):  # type: ignore[no-untyped-def]
        if Path(path).name == name:
            raise refused("Permission denied")
        return real(path, limit, refused)
    monkeypatch.setattr(L, "read_regular", failing)
    assert main(["lessons", str(tmp_path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["tavrei-lab lessons: the file there cannot be read (Permission denied): "
                   f"not written: {name}",
                   f"tavrei-lab lessons: error: 1 lesson file not written to {tmp_path}; each "
                   "is named above"]
    assert (tmp_path / "05_chess_die_game.ipynb").is_file()


def test_an_empty_folder_name_writes_nothing(tmp_path: Path) -> None:
    """It wrote the lessons into the current folder."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    run = subprocess.run([sys.executable, "-m", "tavrei_lab", "lessons", ""], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr == ("tavrei-lab lessons: error: an empty folder name; name the folder "
                          "to write into (default: tavrei-lessons)\n")
    assert list(tmp_path.iterdir()) == []
