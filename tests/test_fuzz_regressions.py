"""Regression tests for the bugs the fuzzers found, one per bug.

Each test names the input that broke a reader and what went wrong before the
fix; it fails again if the fix is undone.
"""

from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.cli import main
from tavrei_lab.core.move import Move
from tavrei_lab.errors import (
    IllegalMoveError,
    LimitError,
    NotationError,
    PositionError,
    RecordError,
    VariantError,
)
from tavrei_lab.game import read_record
from tavrei_lab.notation.movetext import tokenize
from tavrei_lab.notation.position_string import read_position
from tavrei_lab.variant import check_variant_file, load_variant

START = "rslkvlsr/p:Rp:Sp:Lp:Kp:Hp:Lp:Sp:R/8/8/8/8/P:RP:SP:LP:KP:HP:LP:SP:R/RSLKVLSR w - 0 1"


# -- move text and movetext ----------------------------------------------------------------

def test_a_long_gap_after_a_square_is_refused_at_once() -> None:
    """``e2`` + 3,000 spaces took 40 s (the move pattern backtracked cubically)."""
    t0 = time.perf_counter()
    with pytest.raises(NotationError, match="not a move"):
        tokenize("e2" + " " * 200_000 + "!")
    assert time.perf_counter() - t0 < 2.0


def test_the_tolerant_reader_still_reads_spaces_around_counts_and_separators() -> None:
    game = Game()
    game.play("e2 - e4  e7  e5  g1 x f3")  # the rewritten pattern reads what the old one did
    assert game.action_texts() == ["e2-e4", "e7-e5", "g1-f3"]


def test_folding_that_changes_lengths_keeps_moves_and_comments_intact() -> None:
    """``ﬁ`` folds to two letters and ``e`` + combining acute to one: the offsets of the
    folded text cut the original in the wrong places (a valid move became ``"e2-e"``)."""
    game = Game()
    game.play("{e\u0301} e2-e4 {ﬁ} e7-e5")
    assert game.action_texts() == ["e2-e4", "e7-e5"]
    assert game.comments == {0: "e\u0301", 1: "ﬁ"}


def test_comments_keep_their_case_when_a_character_folds_longer() -> None:
    """One ``İ`` (lower-cases to two characters) must not lower-case every comment."""
    game = Game()
    game.play("e2-e4 {İstanbul} e7-e5 {Nice}")
    assert game.comments == {1: "İstanbul", 2: "Nice"}
    again = Game.from_record(game.record())
    assert again.comments == game.comments


def test_the_unicode_half_result_is_read() -> None:
    """``½-½`` was listed as a result but NFKC turns it into ``1⁄2-1⁄2`` first."""
    assert Game().play("e2-e4 ½-½")


def test_a_refused_play_takes_its_comments_back() -> None:
    """A refused ``play`` undid its moves but left its comments (and overwrote old ones)."""
    game = Game()
    game.comments[0] = "start"
    with pytest.raises(IllegalMoveError):
        game.play("{over} e2-e4 {Great} e7-e5 e1-e8")
    assert game.comments == {0: "start"} and game.history == []


@pytest.mark.parametrize("movetext", [None, 5, b"e2-e4", ["e2-e4", 3]])
def test_play_of_something_that_is_not_text_is_a_notation_error(movetext: object) -> None:
    """``play(None)`` raised TypeError from ``" ".join``."""
    with pytest.raises(NotationError, match="must be text"):
        Game().play(movetext)  # type: ignore[arg-type]


def test_a_move_with_square_names_instead_of_numbers_is_refused() -> None:
    """``Move("e2", 1, "e4")`` raised TypeError comparing str with int."""
    with pytest.raises(IllegalMoveError, match="not a move"):
        Game().push(Move("e2", 1, "e4"))  # type: ignore[arg-type]


# -- position strings ------------------------------------------------------------------------

@pytest.mark.parametrize("digit", ["²", "①", "٣", "８"])
def test_non_ascii_digits_are_not_empty_squares(digit: str) -> None:
    """``²`` passed ``isdigit()`` but not ``\\d`` (AssertionError); ``٣`` was read as 3."""
    rules = load_variant("tavreli")
    with pytest.raises(PositionError, match="unexpected"):
        read_position(START.replace("/8/8/8/8/", f"/8/8/8/{digit}/"), rules)


def test_a_5000_digit_run_of_empty_squares_is_a_position_error() -> None:
    """``int()`` of more than 4,300 digits raised ValueError."""
    rules = load_variant("tavreli")
    with pytest.raises(PositionError, match="bad count of empty squares"):
        read_position(START.replace("/8/8/8/8/", "/8/8/8/" + "0" * 5000 + "8/"), rules)


@pytest.mark.parametrize("clock", ["1" * 5000, "9" * 8])
def test_a_huge_clock_is_a_limit_error(clock: str) -> None:
    rules = load_variant("tavreli")
    with pytest.raises(LimitError, match="over the limit"):
        read_position(START[:-1] + clock, rules)


def test_leading_zeros_in_a_clock_are_still_read() -> None:
    rules = load_variant("tavreli")
    assert read_position(START[:-1] + "0" * 5000 + "7", rules).fullmove_number == 7


# -- variant files ---------------------------------------------------------------------------

def test_a_variant_name_too_long_for_the_file_system_is_a_variant_error() -> None:
    """``Game("a" * 300)`` raised OSError (file name too long) from ``Path.exists``."""
    with pytest.raises(VariantError, match="unknown variant"):
        Game("a" * 300)
    with pytest.raises(RecordError, match="is not a shipped variant"):
        read_record(f'[Variant "{"x" * 300}"]\n\n*')


@pytest.mark.parametrize("path", ["/", "/dev/null", "/dev/zero"])
def test_a_variant_path_that_is_not_a_regular_file_is_refused(path: str) -> None:
    """``/`` raised IsADirectoryError; ``/dev/zero`` was read until memory ran out."""
    if not os.path.exists(path):
        pytest.skip(f"{path} does not exist here")
    t0 = time.perf_counter()
    with pytest.raises(VariantError, match="not a regular file"):
        load_variant(path)
    with pytest.raises(VariantError, match="not a regular file"):
        check_variant_file(path)
    assert time.perf_counter() - t0 < 2.0


def test_arrays_nested_deeper_than_python_recurses_are_a_variant_error(tmp_path: Path) -> None:
    """tomllib raised RecursionError on ``a = [[[[...]]]]``."""
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 50_000 + "]" * 50_000)
    with pytest.raises(VariantError, match="nested too deep"):
        check_variant_file(path)
    path.write_text('extends = "tavreli"\n[die]\nx = ' + "{a=" * 5000 + "1" + "}" * 5000)
    with pytest.raises(VariantError, match="nested too deep"):
        check_variant_file(path)


def test_a_very_long_dotted_key_is_refused_before_toml_reads_it(tmp_path: Path) -> None:
    """``x.x.x....`` (60,000 parts) made tomllib use gigabytes (quadratic in the parts)."""
    path = tmp_path / "dots.toml"
    path.write_text('extends = "tavreli"\n[options]\nx' + ".x" * 60_000 + " = 1\n")
    t0 = time.perf_counter()
    with pytest.raises(VariantError, match="line 3 has more than"):
        check_variant_file(path)
    assert time.perf_counter() - t0 < 2.0


def test_a_piece_set_base_that_is_a_list_is_a_variant_error(tmp_path: Path) -> None:
    """``[pieces] base = ["x"]`` raised TypeError (unhashable list)."""
    path = tmp_path / "p.toml"
    path.write_text('extends = "tavreli"\n[pieces]\nbase = ["x"]\n')
    with pytest.raises(VariantError, match="pieces.base"):
        check_variant_file(path)


# -- the command line ------------------------------------------------------------------------

def test_replay_of_a_file_that_is_not_utf8_exits_2(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """UnicodeDecodeError escaped ``main`` as a traceback."""
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"1. e2-e4 {caf\xe9}")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "not UTF-8" in err and len(err.strip().splitlines()) == 1


def test_replay_reads_no_more_of_stdin_than_the_record_limit(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``replay -`` read all of standard input, however much there was."""

    class Endless(io.TextIOBase):
        def __init__(self) -> None:
            self.asked: list[int] = []

        def read(self, size: int | None = -1) -> str:
            self.asked.append(-1 if size is None else size)
            assert size is not None and size >= 0, "read everything from an endless stream"
            return " " * size

    stream = Endless()
    monkeypatch.setattr(sys, "stdin", stream)
    assert main(["replay", "-"]) == 2
    assert "limit" in capsys.readouterr().err


# -- game records ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Bob\r", "Anna\u2028Smith", "x\x85y", "tab\x0bbed"])
def test_a_tag_value_with_a_line_break_still_gives_a_readable_record(name: str) -> None:
    """Only "\\n" was escaped: a "\\r" or U+2028 in a player's name cut the tag line in two,
    and the record written could not be read back (RecordError: malformed tag)."""
    game = Game()
    game.play("e2-e4")
    text = game.record(White=name)
    again = Game.from_record(text)
    assert again.history == game.history
    assert again.tags["White"] == "".join(" " if c in "\r\u2028\x85\x0b" else c for c in name)


def test_a_die_face_in_the_position_string_of_a_game_without_a_die_is_refused() -> None:
    """``... w - 0 1 @Q`` was accepted for Tavreli, and the face rode along in every
    later position string and record of the game."""
    with pytest.raises(PositionError, match="only to die games"):
        Game("tavreli", START + " @Q")
    assert Game("gavrilov-die", "k5/6/6/6/6/5K w - 0 1 @K").position.roll == "K"


def test_die_weights_too_big_to_add_up_are_a_variant_error(tmp_path: Path) -> None:
    """Six weights of 1e308 add up to inf: every probability was nan and the first roll
    raised ValueError from random.choices."""
    path = tmp_path / "w.toml"
    path.write_text('extends = "gavrilov-die"\n[die]\nweights = [1e308, 1e308, 1e308, 1e308, '
                    '1e308, 1e308]\n')
    with pytest.raises(VariantError, match="die.weights"):
        check_variant_file(path)


@pytest.mark.parametrize("name", [None, 123, 4.5, ["tavreli"]])
def test_a_variant_name_that_is_not_text_is_a_variant_error(name: object) -> None:
    """``Game(variant=None)`` raised TypeError from ``os.fspath``."""
    with pytest.raises(VariantError, match="non-empty string"):
        Game(variant=name)
    with pytest.raises(VariantError, match="non-empty string"):
        load_variant(name)  # type: ignore[arg-type]
    with pytest.raises(VariantError):
        check_variant_file(name)  # type: ignore[arg-type]


def test_a_result_tag_that_is_not_a_result_still_writes_a_readable_record() -> None:
    """A record read with ``[Result "-0"]`` wrote "-0" as the last movetext token, so the
    record it wrote could not be read back (found by the long hypothesis run)."""
    game = Game.from_record('[Result "-0"]\n\n1. e2-e4 e7-e5 1-0')
    text = game.record()
    again = Game.from_record(text)
    assert again.history == game.history
    assert again.tags["Result"] == "-0" and text.rstrip().endswith("*")
