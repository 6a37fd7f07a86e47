"""What lessons and puzzles use on a board: move hooks, rejection, a teacher's marks.

A lesson judges each move a person plays (``on_move``), takes a wrong one back
with a reason (``reject``: the square flashes, the tower slides home, as
lichess's lessons answer), and draws arrows, circles and tinted squares
(``arrows``, ``highlights``) that go with the position: New game and Set
position clear them.

These functions do the work of ``Board.on_move`` and ``Board.reject`` and check
a teacher's marks (``widgets/board.py``), kept out of the widget's class so they
read on their own; the board's methods, with their docstrings, call them and
stay its public API, unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tavrei_lab.core.move import Move
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.widgets.drawing import draw

if TYPE_CHECKING:
    from tavrei_lab.widgets.board import Board


def on_move(board: Board, callback: Callable[[Board, Move], Any], *,
            remove: bool = False) -> None:
    """``Board.on_move``'s work."""
    if remove:
        board._move_listeners = [c for c in board._move_listeners if c != callback]
    elif not callable(callback):
        raise TavreiError(f"on_move needs a function of (board, move), got {callback!r}")
    else:
        board._move_listeners.append(callback)


def reject(board: Board, move: Move | str | None = None, reason: str = "") -> None:
    """``Board.reject``'s work."""
    game = board.game
    played = [i for i, action in enumerate(game.history) if isinstance(action, Move)]
    if not played:
        raise TavreiError("reject: no move has been played on this board")
    last = game.history[played[-1]]
    assert isinstance(last, Move)  # ``played`` holds the indices of moves
    if move is not None:
        asked = move if isinstance(move, str) else f"{move!r}"
        if isinstance(move, str):
            before = game.copy()  # read the text in the position the move was played from
            while len(before.history) > played[-1]:
                before.pop()
            try:
                move = before.parse_move(move)
            except TavreiError as exc:
                raise TavreiError(f"reject: {exc}") from None
        if move.key != last.key or move.promotion != last.promotion:
            raise TavreiError(f"reject: {game.action_texts()[played[-1]]} is the last move "
                              f"played, not {asked}")
    while len(game.history) > played[-1]:
        game.pop()
    game.clear_redo()
    board._close_choices()
    board._effects.pop("slide", None)   # no slide there: only the slide home
    board._flash(last.to_square, home=last)
    board._after_change([reason or _("That move is taken back.")])


def check_marks(board: Board, arrows: list[Any], highlights: list[Any]) -> None:
    """``Board._check_marks``'s work."""
    draw(board.game, arrows=arrows, highlights=highlights)


__all__ = ["on_move", "reject", "check_marks"]
