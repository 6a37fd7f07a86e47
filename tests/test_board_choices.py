"""The board's half-made choices (widgets/choices.py) and the board's game traits.

A promotion picker left open while Undo, ArrowLeft, Home, a move-list click or
Computer move runs must close: picking from it then would raise IndexError or
IllegalMoveError. And the read-only traits that follow the game.
"""

from __future__ import annotations

import ast
from pathlib import Path

import ipywidgets
import pytest

from tavrei_lab import Game
from tavrei_lab.errors import IllegalMoveError, TavreiError
from tavrei_lab.widgets import Board
from tavrei_lab.widgets.choices import Choices

PROMOTE = "8/P6k/8/8/8/8/8/K7 w - - 0 1"


def _promotions(game: Game) -> list:
    return [m for m in game.legal_moves() if m.key[0] == game.position.geometry.parse("a7")
            and m.promotion]


# -- the state machine alone, no widget ------------------------------------------------
def test_choices_module_imports_no_widget_library() -> None:
    source = Path(__file__).parent.parent / "tavrei_lab" / "widgets" / "choices.py"
    imported = {alias.name.split(".")[0] for node in ast.walk(ast.parse(source.read_text()))
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(ast.parse(
        source.read_text())) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"ipywidgets", "anywidget", "traitlets", "IPython"}


def test_close_forgets_selection_and_promotion() -> None:
    game = Game("orthodox", PROMOTE)
    choices = Choices()
    choices.select(game.position.geometry.parse("a7"), 1)
    assert choices.is_open
    moves = _promotions(game)
    choices.offer_promotion(moves, game.position)
    assert choices.pending_promotion == moves
    choices.close()
    assert not choices.is_open and choices.selected is None and choices.count is None
    with pytest.raises(IllegalMoveError, match="no promotion is waiting"):
        choices.take_promotion(moves[0], game.position)


def test_a_promotion_taken_after_the_game_moved_is_refused_and_closed() -> None:
    game = Game("orthodox", PROMOTE)
    choices = Choices()
    moves = _promotions(game)
    choices.offer_promotion(moves, game.position)
    game.push(next(m for m in game.legal_moves() if not m.promotion))  # the game moves on
    with pytest.raises(IllegalMoveError, match="another position"):
        choices.take_promotion(moves[0], game.position)
    assert not choices.pending_promotion


def test_a_move_not_offered_is_refused_and_the_offer_kept() -> None:
    game = Game("orthodox", PROMOTE)
    choices = Choices()
    moves = _promotions(game)
    choices.offer_promotion(moves[:2], game.position)
    with pytest.raises(IllegalMoveError, match="not one of the promotions"):
        choices.take_promotion(moves[2], game.position)
    assert choices.pending_promotion == moves[:2]
    assert choices.take_promotion(moves[1], game.position) == moves[1]
    assert not choices.is_open
    with pytest.raises(IllegalMoveError, match="at least two"):
        choices.offer_promotion(moves[:1], game.position)


# -- on the board: every navigation closes the picker ----------------------------------
def _board_with_open_promotion() -> tuple[Board, object]:
    board = Board(Game("orthodox", PROMOTE))
    board.play("a1-b1")
    board.play("h7-g7")
    board.view.simulate_click("a7", None)
    board.view.simulate_click("a8", None)
    assert board.pending_promotion and board.promotion_picker.layout.display == ""
    queen = next(m for label, m in board.promotion_picker.options if label == "queen")
    return board, queen


@pytest.mark.parametrize("navigate", [
    lambda b: b.undo(),
    lambda b: b.step(-1),                       # ArrowLeft
    lambda b: b.go_to(0),                       # Home
    lambda b: setattr(b.move_list, "value", 1),  # a click on the move list
    lambda b: b.computer_move(),
])
def test_navigation_closes_an_open_promotion(navigate) -> None:
    board, queen = _board_with_open_promotion()
    navigate(board)
    assert not board.pending_promotion
    assert board.promotion_picker.layout.display == "none"
    shown = board.game.position.string
    texts = board.game.action_texts()
    board.promotion_picker.value = queen        # a stale pick from the browser: no error
    assert board.game.position.string == shown and board.game.action_texts() == texts


# -- read-only traits that follow the game ----------------------------------------------
def test_game_traits_fire_observe_callbacks_on_a_move() -> None:
    board = Board()
    seen: dict[str, list] = {"ply": [], "side_to_move": [], "position_string": []}
    for name, changes in seen.items():
        board.observe(lambda change, changes=changes: changes.append(change["new"]), name)
    start = board.position_string
    assert start == board.game.position.string and board.ply == 0
    assert board.side_to_move == "white" and board.outcome is None
    board.play("e2-e4")
    assert seen["ply"] == [1] and seen["side_to_move"] == ["black"]
    assert seen["position_string"] == [board.game.position.string] != [start]
    board.undo()
    assert seen["ply"] == [1, 0] and board.position_string == start
    with pytest.raises(Exception, match="read-only"):
        board.position_string = "x"
    with pytest.raises(TavreiError, match="ply 5 is not in this game"):
        board.ply = 5          # past the line: refused, the board stays
    assert board.ply == 0 and board.position_string == start


def test_outcome_trait_and_link() -> None:
    board = Board(Game("orthodox", "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"))
    label = ipywidgets.Label()
    ipywidgets.dlink((board, "ply"), (label, "value"), transform=str)
    board.play("f7-g7")
    assert board.outcome == "1-0" and label.value == "1"


def test_board_takes_ipywidgets_layout_arguments() -> None:
    board = Board(layout=ipywidgets.Layout(width="900px"))
    assert board.layout.width == "900px"
    assert "tavrei-board-app" in board._dom_classes
