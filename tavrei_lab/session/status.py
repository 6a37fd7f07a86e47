"""What the board's status line says: whose turn, check, the end, and why a click did nothing.

Plain Python over a ``Game`` and its position (no widgets), so every sentence
is tested without a board; ``Board`` joins them into its status line. Each is
a whole sentence of the message catalogue (``tavrei_lab.i18n``), in the
language in force: a board speaks its own (``Board(language="ru")``) by
calling these inside ``speaking``. Sentences about a side come in one
version per colour ("White to move." / "Black to move."), because Russian
words them differently ("Ход белых."), not by slotting a colour into them.
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.core import speech
from tavrei_lab.core.move import Move
from tavrei_lab.core.tavrel import KING, WHITE
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext

#: How each ending is named (the catalogue translates them where they are used).
TERMINATIONS = {
    "checkmate": "Checkmate",
    "stalemate": "Stalemate",
    "king-capture": "The {king} is taken prisoner",   # the variant's name for its king
    "threefold-repetition": "Threefold repetition",
    "fifty-move-rule": "Fifty-move rule",
}


def _termination_names() -> dict[str, str]:
    return {"checkmate": _("Checkmate"), "stalemate": _("Stalemate"),
            "king-capture": _("The {king} is taken prisoner"),
            "threefold-repetition": _("Threefold repetition"),
            "fifty-move-rule": _("Fifty-move rule")}


def capitalised(text: str) -> str:
    """``text`` with its first letter a capital (a Russian name can open a sentence)."""
    return text[:1].upper() + text[1:]


def kind_name(kind: Any) -> str:
    """A role's name as the language in force calls it: ``volkhv`` or ``волхв``."""
    return speech.kind_name(kind)


def face_text(pieces: Any, face: str | None) -> str:
    """A die face as a learner reads it: ``K (knyaz)``, ``K (князь)``; a skip stays as it is."""
    if face is None:
        return ""
    kind = pieces.by_letter.get(face.upper())
    if kind is None:
        return face
    return _("{face} ({piece})").format(face=face, piece=kind_name(kind))


def piece_name(position: Any, tavrel: Any) -> str:
    """``ratnik (ратник)`` in English (the name a tavrel acts as, and its Russian
    name beside it); ``ратник`` in Russian."""
    return speech.kind_glossed(position.pieces.by_kind[tavrel.acting_kind])


def side_word(color: int) -> str:
    """``white's`` / ``black's`` (in Russian the genitive: ``белых`` / ``чёрных``)."""
    return _("white's") if color == WHITE else _("black's")


def side_players(color: int) -> str:
    """``White`` / ``Black``: the side as the subject of a sentence."""
    return _("White") if color == WHITE else _("Black")


def termination_text(game: Game, termination: str) -> str:
    what = _termination_names().get(termination, termination.replace("-", " ").capitalize())
    king = kind_name(game.variant.pieces.by_kind[KING])
    return capitalised(what.format(king=king))


def state_text(game: Game) -> str:
    """Whose turn, check, mate, stalemate, draws: the first half of the status line."""
    pos = game.position
    white = pos.turn == WHITE
    outcome = game.outcome()
    if outcome is not None:
        what = termination_text(game, outcome.termination)
        if outcome.winner is None:
            return _("{what}: the game is drawn (1/2-1/2).").format(what=what)
        won = (_("{what}: white wins ({result}).") if outcome.winner == WHITE
               else _("{what}: black wins ({result})."))
        return won.format(what=what, result=outcome.result())
    claim = game.outcome(claim_draw=True)
    extra = ""
    if claim is not None:
        extra = " " + _("{what}: a draw may be claimed.").format(
            what=termination_text(game, claim.termination))
    if game.is_chance_node():
        return (_("White to roll the die.") if white else _("Black to roll the die.")) + extra
    die = (" " + _("The die shows {face}.").format(face=face_text(pos.pieces, pos.roll))
           if pos.roll is not None else "")
    if game.is_check():
        king = kind_name(pos.pieces.by_kind[KING])
        check = (_("Check! White's {king} is attacked. White to move.") if white
                 else _("Check! Black's {king} is attacked. Black to move."))
        return check.format(king=king) + die + extra
    return (_("White to move.") if white else _("Black to move.")) + die + extra


def move_said(game: Game, move: Move, checks: bool = False) -> str:
    """``12... e4xd5``: a move about to be played, numbered (``checks``: with + or #)."""
    pos = game.position
    dots = "." if pos.turn == WHITE else "..."
    # a played move in the move list's text (no check mark: the state part of the
    # status says "check"); an engine's suggestion, never listed, keeps its + or #
    text = game.san(move) if checks else game.move_text(move)
    return f"{pos.fullmove_number}{dots} {text}"


def not_yours(position: Any, square: int) -> str:
    """The explanation of a click on an empty square or an enemy unit."""
    name = position.geometry.name(square)
    tower = position.board[square]
    turn = side_word(position.turn)
    if not tower:
        return _("There is nothing on {square}: click one of {side} units.").format(
            square=name, side=turn)
    top = tower[-1]
    owner = side_word(top.color)
    if len(tower) == 1:
        text = _("The {piece} on {square} is {owner}; it is {side} move.")
    else:
        text = ngettext("The tower of {count} (top: {piece}) on {square} is {owner}; "
                        "it is {side} move.",
                        "The tower of {count} (top: {piece}) on {square} is {owner}; "
                        "it is {side} move.", len(tower))
    return capitalised(text.format(piece=piece_name(position, top), square=name, owner=owner,
                                   side=turn, count=len(tower)))


def _or(counts: list[int]) -> str:
    words = [str(c) for c in counts]
    if len(words) < 2:
        return "".join(words)
    return _("{counts} or {last}").format(counts=", ".join(words[:-1]), last=words[-1])


def selection_text(position: Any, square: int, count: int, destinations: list[str],
                   counts: list[int]) -> str:
    """What the status line says of a selected tower: what is taken and where it may go.

    ``destinations`` are where ``count`` tavrels of the tower on ``square`` may
    go; ``counts`` the counts that can move at all.
    """
    name = position.geometry.name(square)
    tower = position.board[square]
    height = len(tower)
    fill = {"square": name, "piece": piece_name(position, tower[-1]), "count": height,
            "taken": count, "squares": ", ".join(destinations), "counts": _or(counts)}
    if destinations:
        if height == 1:
            text = _("Selected the {piece} on {square}: it may go to {squares}.")
        elif count == height:
            text = ngettext("Selected the whole tower of {count} on {square}, {piece} on top: "
                            "it may go to {squares}.",
                            "Selected the whole tower of {count} on {square}, {piece} on top: "
                            "it may go to {squares}.", height)
        else:
            text = ngettext("Selected the top {taken} of the {count} tavrels on {square}, "
                            "{piece} on top: it may go to {squares}.",
                            "Selected the top {taken} of the {count} tavrels on {square}, "
                            "{piece} on top: it may go to {squares}.", height)
    elif counts:
        if height == 1:
            text = _("Selected the {piece} on {square}: it cannot move as a unit of {taken}; "
                     "take {counts}.")
        elif count == height:
            text = ngettext("Selected the whole tower of {count} on {square}: it cannot move "
                            "as a unit of {taken}; take {counts}.",
                            "Selected the whole tower of {count} on {square}: it cannot move "
                            "as a unit of {taken}; take {counts}.", height)
        else:
            text = ngettext("Selected the top {taken} of the {count} tavrels on {square}: "
                            "it cannot move as a unit of {taken}; take {counts}.",
                            "Selected the top {taken} of the {count} tavrels on {square}: "
                            "it cannot move as a unit of {taken}; take {counts}.", height)
    elif position.roll is not None:
        text = _("The die shows {face}: the {piece} on {square} may not move.")
        fill["face"] = face_text(position.pieces, position.roll)
    else:
        text = _("The {piece} on {square} has no legal move.")
    text = capitalised(text.format(**fill))
    if height > 1:
        text += " " + _("Click a layer of the tower, or use Take, to choose how many to move.")
    return text


def count_options(position: Any, square: int, counts: list[int]) -> list[tuple[str, int]]:
    """The Take picker's choices for the tower on ``square`` (``counts``: those that move)."""
    tower = position.board[square]
    height = len(tower)
    options = []
    for k in range(height, 0, -1):
        if height == 1:
            label = _("1 (the {piece})").format(
                piece=kind_name(position.pieces.by_kind[tower[-1].acting_kind]))
        elif k == height:
            label = _("{count} (whole tower)").format(count=k)
        else:
            label = _("top {count}").format(count=k)
        if k not in counts:
            label = _("{choice} - no move").format(choice=label)
        options.append((label, k))
    return options


__all__ = ["TERMINATIONS", "capitalised", "count_options", "face_text", "kind_name",
           "move_said", "not_yours", "piece_name", "selection_text", "side_players",
           "side_word", "state_text", "termination_text"]
