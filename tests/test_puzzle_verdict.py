"""A puzzle's verdict where the class looks: over the board, large,
green for right and red for not yet, in the puzzle's language; said in the status
line after a right move too (not only "1. d4(2)-d6 played.")."""

from __future__ import annotations

import pytest

from tavrei_lab.errors import TavreiError
from tavrei_lab.exercises import EXERCISES
from tavrei_lab.widgets.view import BoardView


def test_a_right_move_shows_a_green_banner_and_says_so_in_the_status() -> None:
    puzzle = EXERCISES["free-the-luchnik"].widget()
    board = puzzle.board
    assert board is not None and puzzle.view.banner == {}
    board.view.simulate_click("d4", 1)
    board.view.simulate_click("d6")
    banner = puzzle.view.banner
    assert banner["kind"] == "right" and banner["text"] == "\u2714 Right!"
    assert banner["detail"]                           # the checker's first sentence
    assert "d4(2)-d6 played. Right!" in board.status.value


def test_a_wrong_move_shows_a_red_banner_and_try_again_clears_it() -> None:
    puzzle = EXERCISES["free-the-luchnik"].widget()
    board = puzzle.board
    assert board is not None
    board.view.simulate_click("d4", 2)
    board.view.simulate_click("d6")
    first = puzzle.view.banner
    assert first["kind"] == "wrong" and first["text"] == "\u2718 Not yet."
    assert "enemy prisoner" in first["detail"]
    board.view.simulate_click("d4", 2)               # the same wrong move again:
    board.view.simulate_click("d6")
    assert puzzle.view.banner["seq"] > first["seq"]  # shown afresh, not left as it was
    puzzle.reset()
    assert puzzle.view.banner == {}


def test_a_squares_puzzle_shows_its_verdict_on_its_board() -> None:
    puzzle = EXERCISES["vsadnik-squares"].widget()
    puzzle.submit("a1")
    assert puzzle.view.banner["kind"] == "wrong"
    puzzle.submit(" ".join(EXERCISES["vsadnik-squares"].solutions()[0].split()))
    assert puzzle.view.banner["kind"] == "right"


def test_the_banner_speaks_the_puzzle_s_language() -> None:
    from tavrei_lab.widgets.puzzle import PuzzleWidget
    puzzle = PuzzleWidget(EXERCISES["free-the-luchnik"], language="ru")
    board = puzzle.board
    assert board is not None and board.language == "ru"
    board.view.simulate_click("d4", 2)
    board.view.simulate_click("d6")
    assert puzzle.view.banner["text"] == "\u2718 Пока нет."
    assert "Ход d4(1)-d6 взят назад" in board.status.value
    board.view.simulate_click("d4", 1)
    board.view.simulate_click("d6")
    assert puzzle.view.banner["text"] == "\u2714 Верно!"


def test_a_banner_kind_is_checked() -> None:
    view = BoardView()
    with pytest.raises(TavreiError, match="banner kind"):
        view.show_banner("x", "maybe")
    assert view.banner == {}


def test_a_static_puzzle_board_has_the_inspector_beside_it() -> None:
    """Every layer of a tower named on every board a learner sees."""
    puzzle = EXERCISES["vsadnik-squares"].widget()
    assert puzzle.view.inspector is True
    towers = puzzle.view.towers
    assert towers and all(rows for rows in towers.values())
    assert "Q white" in puzzle.view.glyphs
