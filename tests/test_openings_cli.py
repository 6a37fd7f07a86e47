"""``tavrei-lab openings``: build, show and export agree with the library; bad input
is one line and exit 2; a user's file is never overwritten."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavrei_lab.cli import main
from tavrei_lab.openings import OpeningIndex, build_index


def test_build_show_and_export_agree_with_the_library(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "index.json"
    assert main(["openings", "build", "--tournament", "--depth", "3", "--eval-nodes", "0",
                 "--out", str(out)]) == 0
    built = OpeningIndex.from_json(json.loads(out.read_text()))
    direct = build_index(tournament=True, depth=3)
    assert built.to_json() == direct.to_json()
    capsys.readouterr()
    assert main(["openings", "show", "--index", str(out), "--moves", "c1xd2", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    entry = direct.entry_after("c1xd2")
    assert entry is not None
    assert shown["games"] == entry.tally.games == 5
    assert [r["move"] for r in shown["moves"]] == [r["move"] for r in entry.move_rows()]
    assert main(["openings", "show", "--index", str(out), "--moves", "c1xd2"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].startswith("5 games, white scores 50%")
    table = tmp_path / "table.json"
    assert main(["openings", "export", "--index", str(out), "--out", str(table)]) == 0
    exported = json.loads(table.read_text())
    assert len(exported["positions"]) == len(direct)
    assert main(["openings", "export", "--index", str(out), "--out", str(table)]) == 0


@pytest.mark.parametrize("argv, words", [
    (["openings", "show"], "no games"),
    (["openings", "show", "--tournament", "--depth", "0"], "--depth must be 1..40"),
    (["openings", "show", "--tournament", "--moves", "zz"], "'zz' is not a move"),
    (["openings", "show", "--tournament", "--eval-nodes", "3"], "--eval-nodes must be 0"),
    (["openings", "show", "--store", "/nonexistent.sqlite"], "no such file"),
    (["openings", "show", "--index", "/nonexistent.json"], "No such file"),
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], words: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["build", "export"])
def test_a_users_file_is_never_overwritten(tmp_path: Path, command: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "notes.json"
    mine.write_text('{"my": "notes"}')
    assert main(["openings", command, "--tournament", "--depth", "1", "--eval-nodes", "0",
                 "--out", str(mine)]) == 2
    assert "did not write" in capsys.readouterr().err
    assert mine.read_text() == '{"my": "notes"}'


def test_a_damaged_index_is_refused_in_one_line(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "index.json"
    bad.write_text('{"format": "tavrei-lab openings", "version": 1, "depth": 2}')
    assert main(["openings", "show", "--index", str(bad)]) == 2
    assert "damaged openings index" in capsys.readouterr().err


def test_book_builds_what_the_library_builds_and_keeps_a_users_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tavrei_lab.openings.book import Book, BookSettings, build_book
    out = tmp_path / "book.json"
    argv = ["openings", "book", "--games", "3", "--seed", "4", "--player",
            "play:nodes=20,noise=10", "--max-plies", "20", "--keep-plies", "6",
            "--executor", "inline", "--no-progress", "--note", "a test book"]
    assert main([*argv, "--out", str(out)]) == 0
    built = Book.read(out)
    assert built.provenance["note"] == "a test book"
    assert built.provenance["command"].startswith("tavrei-lab openings book --games 3")
    direct = build_book(BookSettings(games=3, seed=4, player="play:nodes=20,noise=10",
                                     max_plies=20, keep_plies=6), tmp_path / "lib.json",
                        executor="inline")
    assert built.same_games(direct)
    capsys.readouterr()
    mine = tmp_path / "mine.json"
    mine.write_text("my notes")
    assert main([*argv, "--out", str(mine)]) == 2
    assert "did not write" in capsys.readouterr().err and mine.read_text() == "my notes"
    assert main(["openings", "show", "--book", str(out), "--depth", "2",
                 "--eval-nodes", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3
    assert main([*argv[:2], "--games", "0", "--out", str(tmp_path / "x.json")]) == 2
    assert "a book holds 1..100000 games, not 0" in capsys.readouterr().err
