"""What the board's status line says: whose turn, check, the end, and why a click did nothing.

Plain Python over a ``Game`` and its position (no widgets), so every sentence
is tested without a board; ``Board`` joins them into its status line. Each is
a whole sentence, as the message catalogue wants it.
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.tavrel import COLOR_NAMES, KING, WHITE
from tavrei_lab.game import Game

TERMINATIONS = {
    "checkmate": "Checkmate",
    "stalemate": "Stalemate",
    "king-capture": "The {king} is taken prisoner",   # the variant's name for its king
    "threefold-repetition": "Threefold repetition",
    "fifty-move-rule": "Fifty-move rule",
}


def face_text(pieces: Any, face: str | None) -> str:
    """A die face as a learner reads it: ``Q (knyaz)``; a skip face stays as it is."""
    if face is None:
        return ""
    kind = pieces.by_letter.get(face.upper())
    return f"{face} ({kind.name})" if kind is not None else face


def piece_name(position: Any, tavrel: Any) -> str:
    """``knyaz (князь)``: the name a tavrel acts as, with its Russian name."""
    kind = position.pieces.by_kind[tavrel.acting_kind]
    return f"{kind.name} ({kind.russian})"


def termination_text(game: Game, termination: str) -> str:
    what = TERMINATIONS.get(termination, termination.replace("-", " ").capitalize())
    return what.format(king=game.variant.pieces.by_kind[KING].name)


def state_text(game: Game) -> str:
    """Whose turn, check, mate, stalemate, draws: the first half of the status line."""
    pos = game.position
    turn = pos.turn_name.capitalize()
    outcome = game.outcome()
    if outcome is not None:
        what = termination_text(game, outcome.termination)
        if outcome.winner is None:
            return f"{what}: the game is drawn (1/2-1/2)."
        return f"{what}: {COLOR_NAMES[outcome.winner]} wins ({outcome.result()})."
    claim = game.outcome(claim_draw=True)
    extra = ""
    if claim is not None:
        extra = f" {termination_text(game, claim.termination)}: a draw may be claimed."
    if game.is_chance_node():
        return f"{turn} to roll the die.{extra}"
    die = (f" The die shows {face_text(pos.pieces, pos.roll)}."
           if pos.roll is not None else "")
    if game.is_check():
        king = pos.pieces.by_kind[KING].name
        return f"Check! {turn}'s {king} is attacked. {turn} to move.{die}{extra}"
    return f"{turn} to move.{die}{extra}"


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
    if not tower:
        return f"There is nothing on {name}: click one of {position.turn_name}'s units."
    unit = (f"The {piece_name(position, tower[-1])}" if len(tower) == 1
            else f"The tower of {len(tower)} (top: {piece_name(position, tower[-1])})")
    return (f"{unit} on {name} is {COLOR_NAMES[tower[-1].color]}'s; "
            f"it is {position.turn_name}'s move.")


def selection_text(position: Any, square: int, count: int, destinations: list[str],
                   counts: list[int]) -> str:
    """What the status line says of a selected tower: what is taken and where it may go.

    ``destinations`` are where ``count`` tavrels of the tower on ``square`` may
    go; ``counts`` the counts that can move at all.
    """
    name = position.geometry.name(square)
    tower = position.board[square]
    if len(tower) == 1:
        what = f"the {piece_name(position, tower[-1])} on {name}"
    elif count == len(tower):
        what = f"the whole tower of {len(tower)} on {name}"
    else:
        what = f"the top {count} of the {len(tower)} tavrels on {name}"
    if destinations:
        top = "" if len(tower) == 1 else f", {piece_name(position, tower[-1])} on top"
        text = f"Selected {what}{top}: it may go to {', '.join(destinations)}."
    elif counts:
        text = (f"Selected {what}: it cannot move as a unit of {count}; "
                f"take {' or '.join(map(str, counts))}.")
    elif position.roll is not None:
        text = (f"The die shows {face_text(position.pieces, position.roll)}: the "
                f"{piece_name(position, tower[-1])} on {name} may not move.")
    else:
        text = f"The {piece_name(position, tower[-1])} on {name} has no legal move."
    if len(tower) > 1:
        text += " Click a layer of the tower, or use Take, to choose how many to move."
    return text


def count_options(position: Any, square: int, counts: list[int]) -> list[tuple[str, int]]:
    """The Take picker's choices for the tower on ``square`` (``counts``: those that move)."""
    tower = position.board[square]
    height = len(tower)
    options = []
    for k in range(height, 0, -1):
        if height == 1:
            label = f"1 (the {position.pieces.by_kind[tower[-1].acting_kind].name})"
        else:
            label = f"{k} (whole tower)" if k == height else f"top {k}"
        if k not in counts:
            label += " - no move"
        options.append((label, k))
    return options


__all__ = ["TERMINATIONS", "count_options", "face_text", "move_said", "not_yours", "piece_name",
           "selection_text", "state_text", "termination_text"]
