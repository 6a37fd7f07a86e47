"""A game and a tower in words, for the tutorials: ``commentary(game, ply)`` says what a
move did (captures, prisoners freed, checks) and ``describe_tower(position, square)``
lists a tower bottom to top, in the language in force."""

from __future__ import annotations

from typing import Any

from tavrei_lab.core import speech
from tavrei_lab.core.move import Move
from tavrei_lab.core.tavrel import Tavrel
from tavrei_lab.errors import TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.notation.moves import write_move


def commentary(game: Game, ply: int) -> str:
    """One line of commentary on move ``ply`` (1 = the first move) of ``game``.

    Written from the rules, for replaying games in class: which tavrel moved,
    whether it split or carried a tower, whom it took prisoner (and how many
    enemy tavrels came with the tower), whom a split freed, promotions --
    including a ratnik promoted because a split uncovered it on its far rank --
    and check or mate. Die rolls in the game are skipped over.

    >>> g = Game(); _ = g.play("e2-e4 d7-d5 e4xd5")
    >>> commentary(g, 3)
    '2. e4xd5: the white ratnik takes the black ratnik on d5 prisoner'
    """
    moves = game.moves
    if not 1 <= ply <= len(moves):
        raise TavreiError(_("ply {ply} is outside the game (1..{count})").format(
            ply=ply, count=len(moves)))
    move = moves[ply - 1]
    index = [i for i, a in enumerate(game.history) if isinstance(a, Move)][ply - 1]
    before, after = game.positions[index], game.positions[index + 1]
    me = before.turn
    g = before.geometry
    frm, to = g.name(move.from_square), g.name(move.to_square)

    def name(position: Any, t: Tavrel) -> str:
        return speech.tavrel_name(t.color, position.pieces.by_kind[t.acting_kind])

    def kind_name(position: Any, t: Tavrel) -> str:
        return speech.kind_name(position.pieces.by_kind[t.acting_kind])

    if move.castling:
        short = move.to_square > move.from_square
        line = ((_("white castles short") if short else _("white castles long")) if me == 0
                else (_("black castles short") if short else _("black castles long")))
    else:
        tower, target = before.board[move.from_square], before.board[move.to_square]
        if not target:
            action = _("goes to {to}").format(to=to)
        elif target[-1].color == me:
            action = _("lands on its own {own} on {to}").format(
                own=kind_name(before, target[-1]), to=to)
        elif len(target) == 1:
            action = _("takes the {victim} on {to} prisoner").format(
                victim=name(before, target[-1]), to=to)
        else:
            enemy = sum(1 for t in target if t.color != me)
            action = ngettext("takes the tower of {height} on {to} prisoner ({count} enemy "
                              "tavrel in it)",
                              "takes the tower of {height} on {to} prisoner ({count} enemy "
                              "tavrels in it)", enemy).format(height=len(target), to=to,
                                                              count=enemy)
        mover = name(before, tower[-1])
        if move.count < len(tower):
            line = _("the {tavrel} splits the tower on {square} (takes {count} of {height}) "
                     "and {action}").format(tavrel=mover, square=frm, count=move.count,
                                            height=len(tower), action=action)
        elif len(tower) > 1:
            line = _("the {tavrel} carries its tower of {height} from {square} and "
                     "{action}").format(tavrel=mover, height=len(tower), square=frm,
                                        action=action)
        else:
            line = _("the {tavrel} {action}").format(tavrel=mover, action=action)
        landed = after.board[move.to_square][-1]
        if landed.promoted and not tower[-1].promoted:
            line += _(", and is promoted to its destiny: a {tavrel}!").format(
                tavrel=name(after, landed))
        if move.count < len(tower):
            left = after.board[move.from_square][-1]
            if left.color != me:
                line += _("; this frees the {tavrel} left on {square}").format(
                    tavrel=name(after, left), square=frm)
            elif left.promoted and not tower[len(tower) - move.count - 1].promoted:
                line += _("; the ratnik left on {square} is uncovered on its far rank and "
                          "becomes a {tavrel}").format(square=frm, tavrel=name(after, left))
    if game.rules.is_check(after) and not game.rules.is_chance_node(after):
        line += _(" -- mate!") if not game.rules.legal_moves(after) else _(" -- check")
    number = before.fullmove_number
    return f"{number}{'.' if me == 0 else '...'} {write_move(before, move)}: {line}"


# -- die games -----------------------------------------------------------------------------


def describe_tower(position: Any, square: str) -> str:
    """The tower on ``square`` in words, bottom to top, with its owner::

        d5: black ratnik  /  white ratnik  /  black knyaz    (bottom -> top; black's tower)

    A single tavrel is not a tower, and is described as one. In Russian the names
    stay in the nominative: "d5: ратник чёрных  /  ратник белых  /  князь чёрных".
    """
    tower = position.tower(square)
    if not tower:
        return _("{square}: empty").format(square=square)
    names = position.pieces.by_kind
    layers = [speech.tavrel_name(t.color, names[t.acting_kind]) for t in tower]
    if len(tower) == 1:
        return _("{square}: {tavrel} (a single tavrel, not a tower)").format(
            square=square, tavrel=layers[0])
    owner = (_("bottom -> top; white's tower") if tower[-1].color == 0
             else _("bottom -> top; black's tower"))
    return f"{square}: " + "  /  ".join(layers) + f"    ({owner})"


__all__ = ["commentary", "describe_tower"]
