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

from tavrei_lab.core.tavrel import BLACK, COLOR_NAMES, WHITE
from tavrei_lab.errors import TavreiError

HUMAN = "human"


def agent_names() -> list[str]:
    """The computer players on offer: ``tavrei_lab.engine.agents.OFFERED`` (every agent
    and the levels 1-8); any other agent spec may be given to ``Board`` too."""
    from tavrei_lab.engine.agents import OFFERED
    return list(OFFERED)


def player_options(*asked: str) -> list[str]:
    """``"human"``, the offered agents, then any other spec ``asked`` for (checked).

    Raises ``TavreiError`` naming a player that is neither offered nor an agent
    spec the engine reads (``"alphabeta:0.5s"`` is one).
    """
    players = [HUMAN, *agent_names()]
    for who in asked:
        if who not in players:
            from tavrei_lab.engine.agents import make_agent
            try:
                make_agent(who)
            except TavreiError as exc:
                raise TavreiError(f"unknown player {who!r} ({exc}); choose one of "
                                  f"{', '.join(players)} or an agent spec") from None
            players.append(who)
    return players


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
        self._changed = changed
        self._agents: dict[int, tuple[str, Any]] = {}
        self._quiet = False
        self.white_player = widgets.Dropdown(options=players, value=white, description="White")
        self.black_player = widgets.Dropdown(options=players, value=black, description="Black")
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

    def _on_pick(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        color = WHITE if change["owner"] is self.white_player else BLACK
        side = COLOR_NAMES[color].capitalize()
        if change["new"] is None:   # a deselected dropdown (index=None): keep the player
            self._quiet = True
            try:
                change["owner"].value = change["old"]
            finally:
                self._quiet = False
            self._changed(f"{side} is still played by: {change['old']}.", False)
            return
        self._agents.pop(color, None)
        self._changed(f"{side} is played by: {change['new']}.", True)


__all__ = ["HUMAN", "PlayersPanel", "agent_names", "player_options"]
