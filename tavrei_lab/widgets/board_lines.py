"""The board's line of play: stepping through it, takebacks and side lines.

As on lichess's analysis board: the arrow keys, a click on the move list and
``go_to`` step through the game (``Game.pop``/``Game.redo``: the line is kept);
Undo takes the last move back to a human's turn, and a move played after it
replaces what was undone (a takeback, as a teacher expects); a move played
where the line goes on without an Undo first starts a side line on a copy of
the game, and ``back_to_game`` returns to the game's own moves.

These functions do the work of ``Board``'s stepping, takebacks and side lines
(``widgets/board.py``), kept out of the widget's class so they read on their own; the board's
methods, with their docstrings, call them and stay its public API, unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavrei_lab.core.move import Move
from tavrei_lab.i18n import gettext as _
from tavrei_lab.widgets.move_panel import entry_label, where_text
from tavrei_lab.widgets.players import HUMAN

if TYPE_CHECKING:
    from tavrei_lab.widgets.board import Board


def along_the_line(board: Board, move: Move | None) -> bool:
    """``Board._along_the_line``'s work."""
    game = board.game
    took_back, board._took_back = board._took_back, False
    if not game.can_redo():
        return False
    if move is not None:
        if game.redo() == move:
            return True
        game.pop()
    if took_back:
        # Undo then another move is a takeback, as a teacher expects: the
        # undone moves are dropped, not kept as "the game" (issue 25 item 5)
        game.clear_redo()
        return False
    if board._main_game is None:
        board._main_game = game
        board._branch_text = entry_label(board.line(), game.action_count + 1)
    board._branch = game.action_count
    board.game = game.copy()
    board.game.clear_redo()
    return False


def back_to_game(board: Board) -> None:
    """``Board.back_to_game``'s work."""
    if board._main_game is None:
        board._after_change([_("There is no side line: the board shows the game.")])
        return
    board.game, board._main_game, board._branch = board._main_game, None, None
    board._close_choices()
    board._legal_for = None
    board._after_change([_("Back to the game: it went on with {move}.").format(
        move=board._branch_text)])


def go_to(board: Board, index: int) -> None:
    """``Board.go_to``'s work."""
    game = board.game
    index = max(0, min(index, len(board.line())))
    while game.action_count > index:
        game.pop()
    while game.action_count < index and game.can_redo():
        game.redo()
    board._took_back = False
    board._close_choices()
    board._after_change([where_shown(board)])


def where_shown(board: Board) -> str:
    """``Board._where_text``'s work."""
    game = board.game
    return where_text(board.line(), game.action_count, game.ply, board._branch,
                      board._branch_text)


def step(board: Board, delta: int) -> None:
    """``Board.step``'s work."""
    game = board.game
    if delta < 0 and not game.action_count:
        board._after_change([_("Already at the start.")])
        return
    if delta > 0 and not game.can_redo():
        board._after_change([_("Already at the last move.")])
        return
    board.go_to(game.action_count + delta)


def undo(board: Board) -> None:
    """``Board.undo``'s work."""
    game = board.game
    if not game.ply:
        board._after_change([_("Nothing to undo.")])
        return
    humans = HUMAN in (board.white_player.value, board.black_player.value)
    undone: list[str] = []
    while game.action_count:
        text = board.line().texts[game.action_count - 1]
        action = game.pop()
        if isinstance(action, Move):
            undone.append(text)
            board._effects["slide"] = []
            board._slide(action, back=True)  # the last one taken back slides home
            if not game.is_chance_node() and (board.is_human_turn() or not humans):
                break
    board._close_choices()
    board._took_back = True
    board._after_change([_("Took back {moves}.").format(moves=", ".join(reversed(undone)))])


def redo(board: Board) -> None:
    """``Board.redo``'s work."""
    game = board.game
    if not game.can_redo():
        board._after_change([_("Nothing to redo.")])
        return
    while game.can_redo():
        action = game.redo()
        if isinstance(action, Move):
            board._slide(action)
            break
    board._took_back = False          # redone: the line is the game's again
    board._close_choices()
    board._after_change([_("Redone.")])


__all__ = ["along_the_line", "back_to_game", "go_to", "where_shown", "step", "undo", "redo"]
