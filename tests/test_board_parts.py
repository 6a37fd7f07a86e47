"""The board's parts, each on its own: the drawing, the status
sentences, the move list's texts, the die's line, the players and the inspector's
feed are plain Python over a ``Game``, tested here without building a ``Board``;
and the ``Board`` composes them under the names it always had."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tavrei_lab import Game, TavreiError
from tavrei_lab.widgets import Board
from tavrei_lab.widgets.drawing import PROJECTOR_SCALE, PROJECTOR_SIZE, board_width, draw, has_die
from tavrei_lab.widgets.inspector import Inspector
from tavrei_lab.widgets.line import MoveLine
from tavrei_lab.widgets.move_panel import entry_label, where_text
from tavrei_lab.widgets.players import HUMAN, player_options
from tavrei_lab.widgets.status import (
    count_options,
    face_text,
    not_yours,
    selection_text,
    state_text,
)

WIDGETS = Path(__file__).parent.parent / "tavrei_lab" / "widgets"
PLAIN = ("drawing.py", "status.py", "inspector.py", "choices.py")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names}
    return names | {(node.module or "").split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom)}


@pytest.mark.parametrize("name", PLAIN)
def test_the_plain_parts_import_no_widget_library(name: str) -> None:
    assert not _imports(WIDGETS / name) & {"ipywidgets", "anywidget", "traitlets", "IPython"}


def test_board_py_is_layout_over_a_session() -> None:
    """The widget composes its panels and shows a ``BoardSession``: it never pushes,
    pops or redoes a move of the game itself."""
    text = (WIDGETS / "board.py").read_text(encoding="utf-8")
    assert "from tavrei_lab.session import" in text
    for part in ("inspector", "move_panel", "die_panel", "players"):
        assert f"from tavrei_lab.widgets.{part} import" in text
    assert not [line for line in text.splitlines()
                if any(f"game.{verb}(" in line for verb in ("push", "pop", "redo", "roll"))]
    assert not list(WIDGETS.glob("board_*.py"))


def test_drawing_sizes_and_die_column() -> None:
    game = Game()
    assert board_width(game, None, PROJECTOR_SCALE) == PROJECTOR_SIZE
    assert board_width(game, 400, PROJECTOR_SCALE) == 400
    die = Game("gavrilov-die", seed=3)
    assert has_die(die) and not has_die(game)
    assert 'class="die pending"' in draw(die)          # its column, waiting for a roll
    assert 'class="die ' not in draw(game)
    svg = draw(game, selected=game.position.geometry.parse("e2"),
               destinations=[game.position.geometry.parse("e4")])
    assert 'data-square="e2"' in svg and "selected" in svg


def test_status_sentences_without_a_board() -> None:
    game = Game()
    assert state_text(game) == "White to move."
    pos = game.position
    g = pos.geometry
    assert not_yours(pos, g.parse("e4")) == (
        "There is nothing on e4: click one of white's units.")
    assert not_yours(pos, g.parse("e7")).startswith("The ratnik (ратник) on e7 is black's")
    text = selection_text(pos, g.parse("e2"), 1, ["e3", "e4"], [1])
    assert text == "Selected the ratnik (ратник) on e2: it may go to e3, e4."
    for step in ("e2-e4", "d7-d5", "e4xd5"):
        game.push(step)
    pos = game.position
    tower = g.parse("d5")
    text = selection_text(pos, tower, 1, [], [2])
    assert text.startswith("Selected the top 1 of the 2 tavrels on d5: it cannot move as a "
                           "unit of 1; take 2.") and "Click a layer" in text
    assert [k for _label, k in count_options(pos, tower, [2])] == [2, 1]
    assert count_options(pos, tower, [2])[1][0] == "top 1 - no move"
    assert face_text(pos.pieces, "K") == "K (knyaz)"
    assert face_text(pos.pieces, None) == ""


def test_check_and_mate_sentences() -> None:
    game = Game("orthodox")
    for step in ("f2-f3", "e7-e5", "g2-g4"):
        game.push(step)
    assert state_text(game) == "Black to move."
    game.push("d8-h4")
    assert state_text(game).startswith("Checkmate: black wins (0-1)")


def test_move_list_texts_without_a_board() -> None:
    game = Game()
    for step in ("e2-e4", "d7-d5"):
        game.push(step)
    line = MoveLine()
    line.follow(game)
    assert entry_label(line, 1) == "1. e2-e4" and entry_label(line, 2) == "1... d7-d5"
    assert where_text(line, 0, 0, None, "") == "At the start position."
    assert where_text(line, 2, 2, None, "") == "After 1... d7-d5 (ply 2 of 2)."
    assert where_text(line, 2, 2, 1, "1... e7-e5").endswith(
        "Your side line: the game went 1... e7-e5.")


def test_player_options_check_what_is_asked() -> None:
    assert player_options()[0] == HUMAN
    assert player_options("alphabeta:nodes=50")[-1] == "alphabeta:nodes=50"
    with pytest.raises(TavreiError, match="unknown player 'nobody'"):
        player_options("nobody")


class _View:
    """What ``Inspector`` feeds: the three traits of a ``BoardView``, as plain attributes."""

    inspector = False
    glyphs: dict[str, str] = {}
    legend: list[list[str]] = []


def test_the_inspector_feed_sends_each_part_once() -> None:
    view = _View()
    feed = Inspector(view)
    game = Game()
    assert view.inspector is True
    feed.set_pieces(game.position.pieces)
    pictures = view.glyphs
    assert "Q white" in pictures
    feed.set_pieces(game.position.pieces)
    assert view.glyphs is pictures                         # the same set: not sent again
    towers = feed.towers(game.position)
    assert towers is not None and len(towers) == 32
    assert [row[1] for row in view.legend][:1] == ["volkhv"]
    assert feed.towers(game.position) is None              # the same position: nothing new
    game.push("e2-e4")
    assert feed.towers(game.position) is not None


def test_board_composes_the_panels_under_its_old_names() -> None:
    board = Board(variant="gavrilov-die", seed=3)
    assert board.move_list is board.move_panel.move_list
    assert board.roll_button is board.die_panel.roll_button
    assert board.white_player is board.players.white_player
    assert board.die_box.layout.display == ""
    assert board.die_label.value.startswith("Die: ")
    board.roll()
    assert "Die: <b>" in board.die_label.value


def test_the_projector_board_fits_the_room_and_the_size_control_drives_it() -> None:
    """A projector board grows in the browser (``view.fit``); Board
    size (``size_slider``, per cent) is the view's ``zoom`` on every board."""
    projector = Board(projector=True)
    plain = Board()
    assert projector.view.fit is True and plain.view.fit is False
    side = projector.children[1].children[-1]   # after the evaluation bar and the board
    assert any(projector.size_slider in getattr(part, "children", ()) for part in side.children)
    plain.size_slider.value = 70
    assert plain.view.zoom == 70
    projector.view.zoom = 120                  # and back: the browser may set it too
    assert projector.size_slider.value == 120
    assert "tavrei-controls-row" in projector.children[2].children[0]._dom_classes
