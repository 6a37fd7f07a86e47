"""The engine's evaluation of a board's positions: the bar beside the board and the
graph over the game's plies, as lichess's analysis board shows them.

Every figure is the playing search (``engine.play``) with a node budget and a
fresh table, from the position alone: so the same position always gives the
same figure, whatever was searched before and however the game got there. A
position where the die is due is worth the average over the faces (each face
searched with the budget shared out). Plain Python: the session computes, the
widget draws (``render.evaluation``).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import WHITE
from tavrei_lab.errors import ArgumentError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext

#: The node budget of one figure: about a tenth of a second a position in pure Python.
EVAL_NODES = 1000
#: Values beyond this (in pawns) are mates: the search scores a mate in n plies 10000 - n.
MATE_VALUE = 9000
#: Nested die rolls (a skip passes the turn to a side that rolls again) searched at most.
_MAX_ROLLS = 2


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """One position's figure, from white's side.

    ``pawns``: the value in pawns (positive: white stands better); ``mate``: plies
    to a mate the search sees (positive: white mates, negative: black mates), or
    None; ``result``: the game's result where it is over (``"1-0"``...), else "".
    """

    pawns: float
    mate: int | None = None
    result: str = ""

    def white_share(self) -> float:
        """How much of the bar is white's, 0..1 (lichess's winning chances, pawns
        read as a hundred centipawns: +1 is about 0.59, +5 about 0.86)."""
        if self.result:
            return {"1-0": 1.0, "0-1": 0.0}.get(self.result, 0.5)
        if self.mate is not None:
            return 1.0 if self.mate > 0 else 0.0
        return 1 / (1 + math.exp(-0.00368208 * 100 * self.pawns))

    def text(self) -> str:
        """The figure as the bar's label reads it: ``+0.38``, ``#3``, ``#-3``, ``1-0``."""
        if self.result:
            return self.result
        if self.mate is not None:
            return f"#{self.mate}"
        return f"{self.pawns:+.2f}"

    def said(self) -> str:
        """The figure in a sentence, in the language in force."""
        if self.result:
            return _("Evaluation: the game is over ({result}).").format(result=self.result)
        if self.mate is not None:
            plies = abs(self.mate)
            return (ngettext("Evaluation: white mates in {plies} ply.",
                             "Evaluation: white mates in {plies} plies.", plies)
                    if self.mate > 0 else
                    ngettext("Evaluation: black mates in {plies} ply.",
                             "Evaluation: black mates in {plies} plies.", plies)
                    ).format(plies=plies)
        return _("Evaluation: {value} for white.").format(value=self.text())


def evaluate(game: Game, position: Position, nodes: int = EVAL_NODES) -> Evaluation:
    """``position`` (of ``game``'s variant) as the playing search with ``nodes`` nodes
    sees it from the position alone."""
    if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 10:
        raise ArgumentError(_("an evaluation's node budget is a whole number of at least "
                              "10, not {value}").format(value=repr(nodes)[:40]))
    outcome = game.rules.outcome(position, 1, False)
    if outcome is not None:
        return Evaluation(0.0, None, outcome.result())
    pawns = _value(game, position, nodes, _MAX_ROLLS)
    if abs(pawns) > MATE_VALUE:
        plies = round(10000 - abs(pawns))
        return Evaluation(pawns, plies if pawns > 0 else -plies)
    return Evaluation(round(pawns, 2) + 0.0)   # + 0.0: a tiny loss reads 0.00, not -0.00


def _value(game: Game, position: Position, nodes: int, rolls: int) -> float:
    """White's value of ``position``: searched, or the faces' average where the die is due."""
    rules = game.rules
    if rules.is_chance_node(position):
        faces = rules.chance_outcomes(position)
        if rolls <= 0 or not faces:
            return 0.0
        share = max(10, nodes // len(faces))
        return sum(p * _value(game, rules.apply_roll(position, face), share, rolls - 1)
                   for face, p in faces)
    if rules.outcome(position, 1, False) is not None or not rules.has_legal_move(position):
        outcome = rules.outcome(position, 1, False)
        result = outcome.result() if outcome is not None else ""
        return {"1-0": 10000.0, "0-1": -10000.0}.get(result, 0.0)
    from tavrei_lab.engine.play import PlaySearcher
    from tavrei_lab.engine.search import Limits
    found = PlaySearcher(rules, seed=0).search(position, Limits(nodes=nodes), [])
    return float(found.value if position.turn == WHITE else -found.value)


def line_positions(game: Game) -> list[Position]:
    """The position at each ply of ``game``'s whole line (played and redoable): the
    start, then the position right after each move (before any roll that follows)."""
    positions = [*game.positions, *(pos for _action, pos in game.undone)]
    actions = [*game.history, *(action for action, _pos in game.undone)]
    shown = [positions[0]]
    for i, action in enumerate(actions):
        if isinstance(action, Move):
            shown.append(positions[i + 1])
    return shown


class Evaluations:
    """The figures a session has computed, kept per position (a figure depends on the
    position alone), so stepping through a game searches each position once."""

    def __init__(self, nodes: int = EVAL_NODES) -> None:
        self.nodes = nodes
        self._known: dict[tuple[Any, ...], Evaluation] = {}

    def of(self, game: Game, position: Position) -> Evaluation:
        key = (game.rules.variant.id, position.string, self.nodes)
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = evaluate(game, position, self.nodes)
        return found

    def graph(self, game: Game) -> list[Evaluation]:
        """One figure per ply of ``game``'s whole line, ply 0 (the start) first."""
        return [self.of(game, pos) for pos in line_positions(game)]


__all__ = ["EVAL_NODES", "MATE_VALUE", "Evaluation", "Evaluations", "evaluate",
           "line_positions"]
