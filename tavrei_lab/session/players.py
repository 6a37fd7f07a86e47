"""Who plays each side: ``"human"``, or an agent spec of the engine (``"greedy"``,
``"level:3"``, ``"alphabeta:0.5s"``), checked and named in the language in force.

Plain Python: the board session keeps its players by these names, and the
widgets' dropdowns offer them.
"""

from __future__ import annotations

from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _

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
                raise TavreiError(_("unknown player {who!r} ({reason}); choose one of {names} "
                                    "or an agent spec").format(
                                        who=who, reason=exc, names=', '.join(players))) from None
            players.append(who)
    return players


def player_label(spec: str) -> str:
    """A player as a person reads it in the language in force: ``human``, ``level 3``
    (in Russian ``человек``, ``уровень 3``, the agents by what they do)."""
    words = {HUMAN: _("human"), "random": _("random moves"), "greedy": _("greedy"),
             "alphabeta": _("alpha-beta search"), "expectimax": _("expectimax search"),
             "play": _("engine (play)")}
    if spec in words:
        return words[spec]
    if spec.startswith("level:") and spec[6:].isdigit():
        return _("level {level}").format(level=spec[6:])
    return spec


__all__ = ["HUMAN", "agent_names", "player_label", "player_options"]
