"""What the board says about the engine's best move: the move, its value for white
(or the mate it sees) and the line it expects, as lichess's analysis board shows it.

Plain Python over a ``Game``, the move and the search's result, in the language
in force.
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.tavrel import WHITE
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.session.status import move_said


def best_move_text(game: Game, move: Move, agent: str, result: Any) -> str:
    """The status line's sentence for the engine ``agent``'s ``move`` (``result``: its
    search result with ``value``, ``depth`` and ``pv``, or None)."""
    pos = game.position
    fill: dict[str, Any] = {"agent": agent, "move": move_said(game, move, checks=True)}
    if result is None:
        return _("Engine ({agent}): {move} is best.").format(**fill)
    value = result.value if pos.turn == WHITE else -result.value
    fill["depth"] = result.depth
    if abs(value) > 9000:
        plies = round(10000 - abs(value))
        fill["plies"] = plies
        if value > 0:
            text = ngettext("Engine ({agent}): {move} is best; white mates in {plies} "
                            "ply (depth {depth}).",
                            "Engine ({agent}): {move} is best; white mates in {plies} "
                            "plies (depth {depth}).", plies).format(**fill)
        else:
            text = ngettext("Engine ({agent}): {move} is best; black mates in {plies} "
                            "ply (depth {depth}).",
                            "Engine ({agent}): {move} is best; black mates in {plies} "
                            "plies (depth {depth}).", plies).format(**fill)
    else:
        fill["value"] = f"{value:+.2f}"
        text = _("Engine ({agent}): {move} is best; {value} for white "
                 "(depth {depth}).").format(**fill)
    line, after = [], pos
    for step in result.pv[:6]:
        line.append(game.move_text(step, after))
        after = game.rules.apply(after, step)
    if len(line) > 1:
        text += " " + _("Line: {moves}.").format(moves=" ".join(line))
    return text


__all__ = ["best_move_text"]
