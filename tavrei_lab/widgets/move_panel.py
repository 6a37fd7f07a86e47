"""The move list beside the board, with the buttons that step through the game.

As on lichess's analysis board: one line per move, each die roll inline
before the move it allowed, the current move selected; a click on a line
goes there, ``|<`` ``<`` ``>`` ``>|`` step, and while a side line is explored a button goes
back to the game's own moves. The texts come from ``MoveLine`` (``line.py``);
``entry_label`` and ``where_text`` (``tavrei_lab.session.line``) are plain Python,
tested without widgets, and importable from here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from tavrei_lab.i18n import gettext as _
from tavrei_lab.session.line import MoveLine, entry_label, where_text
from tavrei_lab.widgets.controls import button
from tavrei_lab.widgets.line import MoveListSelect


class MovePanel:
    """The move list and its buttons; ``box`` is what the board places beside it.

    The board gives the actions: ``go_to(index)`` (a click on a line, ``|<`` and ``>|``),
    ``step(delta)`` (``<`` and ``>``), ``back_to_game()``; the panel only shows the line.
    """

    def __init__(self, *, go_to: Callable[[int], Any], step: Callable[[int], Any],
                 last: Callable[[], Any], back_to_game: Callable[[], Any],
                 rows: int = 14) -> None:
        self._go_to = go_to
        self.updating = False            # set while the board writes into the list
        self._shown: tuple[int, int | None] | None = None   # what the list holds
        self.move_list = MoveListSelect(options=[(_("start"), 0)], value=0, rows=rows,
                                        layout=widgets.Layout(width="210px"))
        self.move_list.observe(self._on_pick, "value")
        self.move_list.add_class("tavrei-moves")
        self._start = _("start")
        self.first_button = button("|<", _("first: the start position (up arrow, Home)"),
                                   lambda: go_to(0), "48px")
        self.prev_button = button("<", _("previous (left arrow)"), lambda: step(-1), "48px")
        self.next_button = button(">", _("next (right arrow)"), lambda: step(1), "48px")
        self.last_button = button(">|", _("last (down arrow, End)"), last, "48px")
        self.game_button = button(_("Back to the game"), _("leave your side line and return "
                                                           "to the game's own moves where you "
                                                           "left them"),
                                  back_to_game, "200px")
        self.game_button.layout.display = "none"
        self.nav = widgets.VBox([widgets.HBox([self.first_button, self.prev_button,
                                               self.next_button, self.last_button]),
                                 self.game_button])

    def _on_pick(self, change: dict[str, Any]) -> None:
        if self.updating or change["new"] is None:
            return
        self._go_to(int(change["new"]))

    def show(self, line: MoveLine, played: int, branch: int | None, side_line: bool) -> None:
        """Show ``line`` with the entry holding action ``played`` selected.

        Past ``branch`` actions the entries are a side line's (marked ↳);
        ``side_line`` shows the button back to the game. The options are
        rebuilt only when the line changed, not on a mere step.
        """
        self.updating = True
        try:
            shown = (line.version, branch)
            if self._shown != shown:
                self._shown = shown
                self.move_list.options = [
                    (self._start if not value else
                     label if branch is None or value <= branch else f"\u21b3 {label}", value)
                    for label, value in line.entries]
            self.move_list.value = line.entry_at(played)
            self.game_button.layout.display = "" if side_line else "none"
        finally:
            self.updating = False


__all__ = ["MovePanel", "entry_label", "where_text"]
