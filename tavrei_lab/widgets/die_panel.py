"""The die beside the board: what it shows, the Roll button, automatic rolls.

Only die games show it (the board's own die column draws the faces; this
panel says in words what the die shows and whose roll is due). ``die_text``
is plain Python, tested without widgets.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from tavrei_lab.core.tavrel import WHITE
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.widgets.controls import button
from tavrei_lab.widgets.drawing import has_die
from tavrei_lab.widgets.status import face_text


def die_text(game: Game) -> str:
    """The die panel's line (HTML): the face shown, whose roll is due, or nothing yet."""
    position = game.position
    face = position.roll
    if face is not None:
        return _("Die: {face}").format(
            face=f"<b>{html.escape(face_text(position.pieces, face))}</b>")
    if game.is_chance_node():
        return html.escape(_("Die: white to roll") if position.turn == WHITE
                           else _("Die: black to roll"))
    return html.escape(_("Die: -"))


class DiePanel:
    """``box`` holds the die's line, the Roll button and the automatic-roll box."""

    def __init__(self, roll: Callable[[], Any], auto_roll: bool = False) -> None:
        self.die_label = widgets.HTML()
        self.roll_button = button(_("Roll the die"), _("roll the die (die games)"), roll,
                                  "200px")
        self.roll_button.add_class("tavrei-roll")
        # explicit widths: a checkbox is 300 px wide by default, which pushed the
        # whole column under the board
        self.auto_roll = widgets.Checkbox(value=auto_roll, description=_("roll automatically"),
                                          indent=False, layout=widgets.Layout(width="200px"))
        self.box = widgets.VBox([self.die_label, self.roll_button, self.auto_roll],
                                layout=widgets.Layout(width="210px"))

    def show(self, game: Game) -> None:
        """Follow ``game``: shown for die games (or a position with a face), Roll when due."""
        die_game = has_die(game) or game.position.roll is not None
        self.box.layout.display = "" if die_game else "none"
        self.roll_button.disabled = not game.is_chance_node()
        self.die_label.value = die_text(game)


__all__ = ["DiePanel", "die_text"]
