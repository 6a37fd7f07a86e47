"""The board's picture: what ``Board`` hands its view to draw, and how large.

Plain Python (no ipywidgets): the one place the widgets call
``tavrei_lab.render.board_svg``, the sizes of the default and projector
boards, and whether a game shows a die column. ``BoardView`` (``view.py``)
puts the drawing in the page; this module decides what the drawing is, so it
is tested without a browser or a widget.
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.core.move import Move, Roll
from tavrei_lab.game import Game

#: Pixels per drawing unit in projector mode (a square is 45 units): an 8x8
#: board is 476 px square, its strip letters 14 px, so with the status line above
#: and the first row of buttons under it, it fits JupyterLab's notebook at
#: 1280x720 (599 px shown between the toolbar and the status bar: 515 px left the
#: Undo row under the status bar). It is the board's smallest projector size: the
#: board grows from it to the room it has (``board.css``, ``Board.fit``). No
#: smaller: below 1.21 a tower's letters (14 px) no longer fit two to a strip.
PROJECTOR_SCALE = 1.22
#: The width of an 8x8 board without a die in projector mode, in pixels.
PROJECTOR_SIZE = round((8 * 45 + 2 * 15) * PROJECTOR_SCALE)
#: The smallest strip letter in CSS pixels: projector mode, and the default board.
PROJECTOR_LETTER_PX = 14
DEFAULT_LETTER_PX = 12


def has_die(game: Game) -> bool:
    """Whether the game's variant rolls a die (it has chance nodes somewhere)."""
    return game.rules.has_chance


def other_roll(game: Game) -> tuple[int, str] | None:
    """(colour, face) of the last roll by the side not to move (shown faded on the die column)."""
    mover = game.position.turn
    for action, before in zip(reversed(game.history), reversed(game.positions[:-1]),
                              strict=True):
        if isinstance(action, Roll) and before.turn != mover:
            return before.turn, action.face
    return None


def draw(game: Game, *, flipped: bool = False, selected: int | None = None,
         destinations: list[int] | None = None, split_count: int | None = None,
         size: int | None = None, arrows: list[Any] | tuple[Any, ...] = (),
         highlights: list[Any] | tuple[Any, ...] = (), letter_px: float | None = None,
         language: str | None = None) -> str:
    """The SVG of ``game``'s current position with the board's highlights.

    ``arrows`` and ``highlights`` are the teacher's marks (see ``Board.arrows``);
    ``letter_px`` the smallest strip letter; ``language`` the strip letters' and
    tooltips' (None: the language in force). A die game keeps its die column
    (the board never changes width) and shows both sides' last rolls.
    """
    from tavrei_lab.render import board_svg
    position = game.position
    history = game.history
    last = history[-1] if history else None
    if isinstance(last, Roll):  # a roll follows the move it should not hide
        last = next((a for a in reversed(history) if isinstance(a, Move)), None)
    chance = game.is_chance_node()
    die = has_die(game)
    return board_svg(position, flipped=flipped, lastmove=last, selected=selected,
                     destinations=destinations, split_count=split_count,
                     check=(not chance and game.is_check()), die_face=position.roll,
                     size=size, arrows=arrows, highlights=highlights, letter_px=letter_px,
                     die_panel=die, other_roll=other_roll(game) if die else None,
                     language=language)


def board_width(game: Game, size: int | None, scale: float) -> int:
    """``size`` if given, else the width in pixels of ``game``'s board at ``scale`` px per unit."""
    from tavrei_lab.render.board import board_extent
    if size is not None:
        return size
    return round(board_extent(game.position.geometry, True, has_die(game))[0] * scale)


__all__ = ["DEFAULT_LETTER_PX", "PROJECTOR_LETTER_PX", "PROJECTOR_SCALE", "PROJECTOR_SIZE",
           "board_width", "draw", "has_die", "other_roll"]
