"""The position editor, driven by simulated clicks (trait changes) as the browser drives it."""

from __future__ import annotations

import pytest

from tavrei_lab.core.tavrel import BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE
from tavrei_lab.errors import PositionError
from tavrei_lab.widgets import Board, PositionEditor


def put(editor: PositionEditor, color: int, kind: int, square: str,
        promoted: bool = False) -> None:
    editor.tool.value = (color, kind, promoted)
    editor.view.simulate_click(square)


def bare_kings(editor: PositionEditor) -> None:
    editor.clear()
    put(editor, WHITE, KING, "e1")
    put(editor, BLACK, KING, "e8")


def test_palette_has_both_colours_and_the_remove_tool() -> None:
    editor = PositionEditor()
    values = [v for _, v in editor.tool.options]
    for color in (WHITE, BLACK):
        for kind in (KING, QUEEN, ROOK, KNIGHT, PAWN):
            assert (color, kind, False) in values
        assert (color, PAWN, True) in values  # the helgi: a promoted e-file ratnik
    assert "remove" in values
    assert len(editor.tool.tooltips) == len(values)


def test_place_on_top_remove_top_and_clear() -> None:
    editor = PositionEditor()
    bare_kings(editor)
    put(editor, WHITE, ROOK, "d4")
    put(editor, BLACK, KNIGHT, "d4")   # on top of the ratoborets: a tower
    tower = editor.position().tower("d4")
    assert [(t.color, t.kind) for t in tower] == [(WHITE, ROOK), (BLACK, KNIGHT)]
    assert "(R's)" in editor.position_text.value  # no castling right: "moved"
    editor.tool.value = "remove"
    editor.view.simulate_click("d4")
    assert [(t.color, t.kind) for t in editor.position().tower("d4")] == [(WHITE, ROOK)]
    editor.view.simulate_click("d5")
    assert "Nothing to remove on d5" in editor.status.value
    editor.clear()
    assert not any(editor.position().board)
    assert "Board cleared" in editor.status.value


def test_ratniks_get_the_destiny_of_their_file_and_the_double_step_flag() -> None:
    editor = PositionEditor()
    bare_kings(editor)
    put(editor, WHITE, PAWN, "e2")
    put(editor, WHITE, PAWN, "a4")
    pos = editor.position()
    e2, a4 = pos.tower("e2")[0], pos.tower("a4")[0]
    assert e2.destiny == 7 and not e2.moved      # helgi; may double-step
    assert a4.destiny == ROOK and a4.moved


def test_refuses_a_tavrel_on_a_volkhv_with_the_reason() -> None:
    editor = PositionEditor()
    before = editor.position_text.value
    put(editor, BLACK, QUEEN, "e1")
    assert "Refused" in editor.status.value and "volkhv" in editor.status.value
    assert editor.position_text.value == before


def test_refuses_illegal_set_ups_when_playing_with_the_reason() -> None:
    editor = PositionEditor()
    bare_kings(editor)
    put(editor, WHITE, KING, "a1")   # a second white volkhv
    assert "Not playable yet" in editor.status.value and "2 volkhvs" in editor.status.value
    editor.play()
    assert "Refused" in editor.status.value and editor.board is None
    with pytest.raises(PositionError, match="volkhvs"):
        editor.game()
    editor.tool.value = "remove"
    editor.view.simulate_click("a1")
    put(editor, WHITE, ROOK, "e5")   # black's volkhv attacked with white to move
    editor.play()
    assert "in check" in editor.status.value and editor.board is None


def test_side_to_move_and_castling_rights() -> None:
    editor = PositionEditor()
    editor.clear()
    put(editor, WHITE, KING, "e1")
    put(editor, WHITE, ROOK, "h1")
    put(editor, BLACK, KING, "e8")
    editor.turn_picker.value = BLACK
    assert " b " in editor.position_text.value
    assert editor.position().tower("e1")[0].moved  # no right ticked: counts as moved
    editor.turn_picker.value = WHITE
    editor.rights[(WHITE, "0-0")].value = True
    pos = editor.position()
    assert not pos.tower("e1")[0].moved and not pos.tower("h1")[0].moved
    editor.rights[(WHITE, "0-0-0")].value = True   # no ratoborets on a1
    assert "may 0-0-0 only with" in editor.status.value
    editor.rights[(WHITE, "0-0-0")].value = False
    editor.play()
    game = editor.board.game
    assert any(m.castling for m in game.legal_moves())


def test_hands_the_position_to_a_given_board() -> None:
    board = Board()
    board.play("e2-e4")
    editor = PositionEditor(board=board)
    bare_kings(editor)
    put(editor, WHITE, QUEEN, "d1")
    editor.play()
    assert board.game.position.string == editor.position().string
    assert not board.game.history
    assert "editor" in board.status.value


def test_reads_position_strings_and_reports_bad_ones() -> None:
    editor = PositionEditor()
    editor.read_position("4v3/8/8/8/8/8/8/4V3 b - 0 1")
    assert editor.turn_picker.value == BLACK
    assert sum(1 for t in editor.position().board if t) == 2
    before = editor.position_text.value
    editor.position_text.value = "4v3/8/8/8/8/8/8/4X3 b - 0 1"
    editor.read_position()
    assert "Could not read that position" in editor.status.value
    assert editor.position().string == before
    editor.reset()
    assert editor.position() == editor.rules.initial_position()


def test_initial_position_round_trips_through_the_editor() -> None:
    editor = PositionEditor()
    assert editor.position() == editor.rules.initial_position()
    assert all(box.value for box in editor.rights.values())
    editor.play()
    assert editor.board.game.legal_moves()


def test_editor_for_another_variant() -> None:
    editor = PositionEditor("orthodox")
    values = [v for _, v in editor.tool.options]
    assert (WHITE, PAWN, True) not in values  # no helgi in chess
    assert editor.position() == editor.rules.initial_position()
