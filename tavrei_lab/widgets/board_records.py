"""A board's game records and position strings: load, save, upload, set, copy.

A record (``Game.record``, the text a person pastes or opens as a file) replays
a whole game; a position string starts a new game from one position. A bad one
is explained in the status line and the game on the board stays exactly as it
was; a malformed upload (a forged widget message) is refused the same way.

These functions do the work of ``Board``'s Load record, Save record, Open file,
Set position and Copy position (``widgets/board.py``), kept out of the widget's
class so they read on their own; the board's methods, with their docstrings,
call them and stay its public API, unchanged.
"""

from __future__ import annotations

import base64
import html
from typing import TYPE_CHECKING, Any

from tavrei_lab.errors import TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext

if TYPE_CHECKING:
    from tavrei_lab.widgets.board import Board


def load_record(board: Board, text: str | None = None) -> None:
    """``Board.load_record``'s work."""
    text = board.record_text.value if text is None else text
    if not text.strip():
        board._after_change([_("Paste a game record first.")])
        return
    try:
        game = Game.from_record(text)
    except TavreiError as exc:
        board._after_change([_("Could not load the record: {error}. The game on the board "
                               "is unchanged.").format(error=exc)])
        return
    board.set_game(game, ngettext("Record loaded: {variant}, {plies} ply (half-move) played.",
                                  "Record loaded: {variant}, {plies} plies (half-moves) "
                                  "played.", game.ply).format(variant=_(game.variant.name),
                                                              plies=game.ply))


def save_record(board: Board) -> None:
    """``Board.save_record``'s work."""
    text = board.game.record()
    board.record_text.value = text
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    board.download_link.value = (
        f'<a download="{html.escape(board.game.variant.id)}-game.txt" '
        f'href="data:text/plain;charset=utf-8;base64,{data}">'
        f'{html.escape(_("Download the record"))}</a>')
    board._after_change([_("Record written below (and ready to download).")])


def on_upload(board: Board, change: dict[str, Any]) -> None:
    """``Board._on_upload``'s work."""
    files = change["new"]
    if not files:
        return
    if isinstance(files, dict):        # ipywidgets 7 sent {name: file}
        files = list(files.values())
    item = files[0] if isinstance(files, (list, tuple)) else None
    if not isinstance(item, dict):
        item = {}
    content = item.get("content")
    if not isinstance(content, (bytes, bytearray, memoryview)):
        # a forged or malformed upload message: say so, change nothing
        board._after_change([_("Could not read the upload: it holds no file content. "
                               "The game on the board is unchanged.")])
        return
    try:
        text = bytes(content).decode("utf-8")
    except UnicodeDecodeError as exc:
        name = str(item.get("name", _("the file")))[:80]
        board._after_change([_("Could not read {name}: not UTF-8 text ({reason} at byte "
                               "{byte}). The game on the board is unchanged.").format(
                                  name=name, reason=exc.reason, byte=exc.start)])
        return
    board.record_text.value = text
    board.load_record(text)


def set_position(board: Board, text: str | None = None) -> None:
    """``Board.set_position``'s work."""
    text = board.position_text.value if text is None else text
    try:
        game = Game(board.game.rules, text.strip())
    except TavreiError as exc:
        board._after_change([_("Could not use that position: {error}. The game on the board "
                               "is unchanged.").format(error=exc)])
        return
    game.seed = board.game.seed
    board.set_game(game, _("New game from the position."))


def copy_position(board: Board) -> None:
    """``Board.copy_position``'s work."""
    text = board.game.position.string
    board.view.copy_to_clipboard(text)
    board._after_change([_("Copied the position string: {position}").format(position=text)])


__all__ = ["load_record", "save_record", "on_upload", "set_position", "copy_position"]
