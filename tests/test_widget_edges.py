"""The widgets' edges: values a front end (or a forged
message) may send that no user meant -- a deselected dropdown, a malformed upload, an
editor picker set to None -- and the editor's tavrel limit. Each is a reproduction of
what was seen, kept: the widget says what happened and nothing changes.
"""

from __future__ import annotations

import pytest

from tavrei_lab.core.position import MAX_TAVRELS
from tavrei_lab.widgets import Board, PositionEditor


def snapshot(board: Board) -> tuple:
    return ([p.string for p in board.game.positions], board.white_player.value,
            board.black_player.value)


@pytest.mark.parametrize("which", ["white_player", "black_player"])
def test_a_player_dropdown_sent_index_none_keeps_the_player(which: str) -> None:
    # index=None raised TavreiError out of the observer
    board = Board()
    before = snapshot(board)
    getattr(board, which).index = None
    assert snapshot(board) == before
    assert "is still played by" in board.status.value


@pytest.mark.parametrize("value", [
    [{"name": "x"}], [{}], ["junk"], [None], [{"name": 1, "content": 5}], {"a": 5},
    5, "abc", [{"name": "n" * 10_000, "content": memoryview(b"\xff\xfe")}]])
def test_a_malformed_upload_changes_nothing_and_says_so(value: object) -> None:
    # malformed upload values raised KeyError / TypeError in widgets/board.py
    board = Board()
    board.game.play("e2-e4")
    board.go_to(1)
    before = snapshot(board)
    board._on_upload({"new": value, "old": (), "owner": board.record_upload,
                      "name": "value", "type": "change"})
    assert snapshot(board) == before
    assert "Could not read" in board.status.value
    assert "n" * 100 not in board.status.value          # a long file name is cut


def test_a_well_formed_upload_still_loads() -> None:
    board = Board()
    board._on_upload({"new": [{"name": "g.txt", "content": memoryview(b"e2-e4 e7-e5")}],
                      "old": (), "owner": board.record_upload})
    assert board.game.ply == 2


def test_editor_tool_sent_none_is_put_back() -> None:
    # the editor's tool picker sent None raised TypeError on the next click
    editor = PositionEditor()
    tool = editor.tool.value
    editor.tool.value = None
    assert editor.tool.value == tool
    editor.click_square(27)
    assert "Put a" in editor.status.value


def test_editor_side_picker_sent_none_is_put_back() -> None:
    editor = PositionEditor()
    editor.turn_picker.value = 1
    editor.turn_picker.value = None
    assert editor.turn_picker.value == 1
    assert editor.position().turn == 1


def test_editor_refuses_more_tavrels_than_the_readers_accept() -> None:
    # the editor built 540 tavrels; Save -> Load and Copy -> Set position then failed
    editor = PositionEditor()
    editor.clear()
    editor.tool.value = next(v for _, v in editor.tool.options if v != "remove"
                             and isinstance(v, tuple) and v[1] == 6 and v[0] == 0)
    square = 0
    placed = 0
    for _ in range(MAX_TAVRELS + 30):
        before = sum(len(t) for t in editor.position().board)
        editor.click_square(8 + square % 48)
        square += 1
        placed = sum(len(t) for t in editor.position().board)
        if placed == before:
            break
    assert placed <= MAX_TAVRELS
    assert "at most 512 tavrels" in editor.status.value
