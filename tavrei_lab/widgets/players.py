"""Who plays each side: a person, or one of the engine's agents.

``player_options`` (plain Python) checks the players asked for and lists what
the dropdowns offer; ``PlayersPanel`` holds the two dropdowns and the agents,
each made once per choice and seeded from the game, so a seeded game replays
the same computer moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from tavrei_lab.core.tavrel import BLACK, WHITE
from tavrei_lab.i18n import get_language
from tavrei_lab.i18n import gettext as _
from tavrei_lab.session.players import HUMAN, agent_names, player_label, player_options
from tavrei_lab.widgets.controls import in_own_language


def _dropdown_options(players: list[str]) -> list[Any]:
    """Each player labelled in words in the language in force (``level 3``,
    ``alpha-beta search``), its id (as typed in ``Board(black="greedy")``) kept as
    the value."""
    return [(player_label(p), p) for p in players]


class PlayersPanel:
    """The White and Black dropdowns and the agents behind them.

    ``changed(text, go_on)`` is called when a person picks another player,
    with the sentence the status line says and whether the game may go on (the
    new player may be the computer, to move now); a dropdown emptied (index
    None) keeps its player and says so.
    """

    def __init__(self, white: str, black: str,
                 changed: Callable[[str, bool], Any]) -> None:
        players = player_options(white, black)
        #: the language the panel speaks (its handlers run in it)
        self.language = get_language()
        self._changed = changed
        self._agents: dict[int, tuple[str, Any]] = {}
        self._quiet = False
        options = _dropdown_options(players)
        self.white_player = widgets.Dropdown(options=options, value=white,
                                             description=_("White"))
        self.black_player = widgets.Dropdown(options=options, value=black,
                                             description=_("Black"))
        self.white_player.observe(self._on_pick, "value")
        self.black_player.observe(self._on_pick, "value")
        self.box = widgets.HBox([self.white_player, self.black_player])

    def player(self, color: int) -> str:
        """The player of ``color``: ``"human"`` or an agent spec."""
        return (self.white_player if color == WHITE else self.black_player).value

    def has_human(self) -> bool:
        return HUMAN in (self.white_player.value, self.black_player.value)

    def agent(self, color: int, seed: int | None) -> Any:
        """The agent playing ``color`` (made once per player choice, seeded ``seed + color``)."""
        from tavrei_lab.engine.agents import make_agent
        spec = self.player(color)
        cached = self._agents.get(color)
        if cached is None or cached[0] != spec:
            cached = (spec, make_agent(spec, seed=None if seed is None else seed + color))
            self._agents[color] = cached
        return cached[1]

    def reset(self) -> None:
        """Forget the agents (a new game: they are made again with its seed)."""
        self._agents = {}

    @in_own_language
    def _on_pick(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        color = WHITE if change["owner"] is self.white_player else BLACK
        if change["new"] is None:   # a deselected dropdown (index=None): keep the player
            self._quiet = True
            try:
                change["owner"].value = change["old"]
            finally:
                self._quiet = False
            kept = (_("White is still played by: {player}.") if color == WHITE
                    else _("Black is still played by: {player}."))
            self._changed(kept.format(player=player_label(change["old"])), False)
            return
        self._agents.pop(color, None)
        now = (_("White is played by: {player}.") if color == WHITE
               else _("Black is played by: {player}."))
        self._changed(now.format(player=player_label(change["new"])), True)


__all__ = ["HUMAN", "PlayersPanel", "agent_names", "player_label", "player_options"]
