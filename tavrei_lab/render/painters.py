"""The pictures notebooks show for model objects, registered with ``core.pictures``.

``Position``, ``Roll``, ``Game`` and a tree tactic each have a
``_repr_svg_`` that asks ``core.pictures`` for a picture of their kind; this
module is where those kinds get their painters. The model never imports
``render`` (it sits below it, docs/architecture.md); importing ``render``
(which ``import tavrei_lab`` does) registers them.
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.core.pictures import register_painter
from tavrei_lab.render.board import board_svg
from tavrei_lab.render.die import DieFace


def position_picture(position: Any) -> str:
    return board_svg(position)


def roll_picture(roll: Any) -> str:
    """A roll is shown as the die face itself."""
    return DieFace(roll.face)._repr_svg_()


def game_picture(game: Any) -> str:
    """The board with the last move, and check when the side to move is in it."""
    last = game.moves[-1] if game.moves else None
    return board_svg(game.position, lastmove=last,
                     check=game.is_check() if not game.is_chance_node() else False)


def tree_picture(tree: Any) -> str:
    """A game tree (networkx); the drawing module loads networkx only when asked."""
    from tavrei_lab.render.tree import draw_svg
    return draw_svg(tree)


def register() -> None:
    register_painter("position", position_picture)
    register_painter("roll", roll_picture)
    register_painter("game", game_picture)
    register_painter("tree", tree_picture)


__all__ = ["register"]
