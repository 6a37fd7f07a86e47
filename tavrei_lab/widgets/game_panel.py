"""The new-game controls under the board: the variant, the seed and New game.

``GamePanel`` holds them and follows the game on the board (``show``); the
board gives the action. The variant picker names each variant by its id in
English (as it is typed) and by its name in Russian.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from tavrei_lab.core import speech
from tavrei_lab.errors import NotationError, TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.widgets.controls import button


def variant_options(ids: Any) -> list[Any]:
    """The variant picker's choices: the ids in English (as they are typed), each
    variant's name in Russian (an id such as gavrilov-die is English words)."""
    from tavrei_lab.variant import load_variant
    plain = [option[1] if isinstance(option, tuple) else option for option in ids]

    def name(variant_id: str) -> str:
        try:
            return _(load_variant(variant_id).variant.name)
        except TavreiError:
            return variant_id

    return speech.labelled(plain, name)


class GamePanel:
    """The variant picker, the seed box and the New game button; ``box`` holds them."""

    def __init__(self, game: Game, new_game: Callable[[], Any]) -> None:
        from tavrei_lab.variant import variants
        names = variants()
        current = game.variant.id
        self.variant_picker = widgets.Dropdown(
            options=variant_options(names if current in names else [*names, current]),
            value=current, description=_("Variant"))
        self.seed_text = widgets.Text(value="" if game.seed is None else str(game.seed),
                                      description=_("Seed"), placeholder=_("no seed"),
                                      layout=widgets.Layout(width="180px"))
        self.new_button = button(_("New game"), _("start a new game of the chosen variant"),
                                 new_game)
        self.box = widgets.HBox([self.variant_picker, self.seed_text, self.new_button])

    def seed(self) -> int | None:
        """The seed typed (None: none); anything but a whole number raises ``NotationError``."""
        text = self.seed_text.value.strip()
        if not text:
            return None
        try:
            return int(text)
        except ValueError:
            raise NotationError(_("seed must be a whole number, got {text}").format(
                                    text=repr(text)), text=text) from None

    def show(self, game: Game) -> None:
        """Follow the game on the board: its variant (added if not offered) and seed."""
        if game.variant.id not in self.variant_picker.options:
            self.variant_picker.options = variant_options(
                [*self.variant_picker.options, game.variant.id])
        self.variant_picker.value = game.variant.id
        self.seed_text.value = "" if game.seed is None else str(game.seed)


__all__ = ["GamePanel", "variant_options"]
