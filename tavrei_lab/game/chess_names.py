"""python-chess's names on a ``Game``: a chess player's habits answered.

A chess player reaches for ``board.fen()``, ``board.push_san("Nf3")``,
``board.move_stack`` and ``board.is_checkmate()``; a ``Game`` answers them as
python-chess does (``fen``, ``push_san`` and ``parse_san`` in orthodox chess only),
and a name python-chess has that a Tavreli game cannot (``push_uci``, ``set_fen``,
``piece_map``, ...) raises a ``ChessHabitError`` that says how this package says it
(``CHESS_HABITS``), rather than an ``AttributeError`` with no way forward.
"""

from __future__ import annotations

from typing import Any, Protocol

from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position
from tavrei_lab.errors import ArgumentError, ChessHabitError
from tavrei_lab.i18n import N_
from tavrei_lab.i18n import gettext as _
from tavrei_lab.rules.base import Outcome, RuleModule

#: python-chess's names on its Board, and how Tavreli's ``Game`` says each.
CHESS_HABITS: dict[str, str] = {
    "push_uci": N_("Game.push takes the move text: game.push('e2-e4') (squares cut by '-')"),
    "parse_uci": N_("game.parse_move('e2-e4') gives the legal Move that text names"),
    "board_fen": N_("the position string is game.position.string"),
    "epd": N_("the position string is game.position.string"),
    "set_fen": N_("start a new game from a position string: Game(text), or "
                  "Game(variant, position=text)"),
    "set_board_fen": N_("start a new game from a position string: Game(variant, position=text)"),
    "reset": N_("start a new game: Game(variant)"),
    "is_legal": N_("game.find_move(move) returns the legal move or raises IllegalMoveError "
                   "saying why"),
    "variation_san": N_("game.action_texts() gives the text of every action played"),
    "can_claim_draw": N_("game.outcome(claim_draw=True) is not None"),
    "is_insufficient_material": N_("game.outcome() says how a game ended"),
    "piece_map": N_("game.position.towers() maps each occupied square's name to its tower"),
    "generate_legal_moves": N_("game.legal_moves is the list of legal moves"),
    "is_repetition": N_("game.repetitions() counts how often the position has occurred"),
    "can_claim_threefold_repetition": N_("game.repetitions() >= 3, or "
                                         "game.outcome(claim_draw=True)"),
    "is_fivefold_repetition": N_("game.repetitions() counts how often the position has "
                                 "occurred"),
    "mirror": N_("build the mirrored position string and start Game(text)"),
    "unicode": N_("a notebook shows the game as a picture; render.board_svg(game.position) "
                  "gives the SVG"),
    "fullmove_number": N_("the position holds it: game.position.fullmove_number"),
    "halfmove_clock": N_("the position holds it: game.position.halfmove_clock"),
    "ep_square": N_("the position holds it: game.position.ep_square (a square number or None)"),
    "has_legal_en_passant": N_("game.position.ep_square is the square an en passant "
                               "capture may go to (None if none)"),
    "castling_rights": N_("castling rights are in the position string: game.position.string"),
    "has_castling_rights": N_("castling rights are in the position string: "
                              "game.position.string"),
    "is_fifty_moves": N_("game.outcome(claim_draw=True) says whether the fifty-move rule ends "
                         "the game (game.position.halfmove_clock counts toward it)"),
    "is_seventyfive_moves": N_("game.outcome() says whether the game ended, and how"),
    "is_capture": N_("tavrei_lab.tree.filters.is_capture(game.position, move)"),
    "gives_check": N_("tavrei_lab.tree.filters.gives_check(game.position, move)"),
    "checkers": N_("game.is_check() says whether the side to move is in check"),
    "is_attacked_by": N_("bool(game.attackers(color, square)): the squares attacking it"),
    "king": N_("game.position.towers() maps each occupied square's name to its tower (the "
               "king is a Tavrel in one of them)"),
    "root": N_("the position the game started from is game.start_position"),
    "color_at": N_("towers stand on squares: game.position.tower(square) (a tuple of "
                   "Tavrels, bottom first, each with its colour)"),
    "piece_type_at": N_("towers stand on squares: game.position.tower(square) (a tuple of "
                        "Tavrels, bottom first, each with its kind)"),
    "pieces": N_("game.position.towers() maps each occupied square's name to its tower"),
    "set_piece_at": N_("positions are immutable: write the position string and start "
                       "Game(text) (the board widget's Set position edits one by hand)"),
    "remove_piece_at": N_("positions are immutable: write the position string and start "
                          "Game(text)"),
    "clear": N_("positions are immutable: write the position string and start Game(text)"),
    "clear_board": N_("positions are immutable: write the position string and start "
                      "Game(text)"),
    "status": N_("a position is checked when it is read: Game(text) raises PositionError "
                 "naming what is wrong"),
    "is_valid": N_("a position is checked when it is read: Game(text) raises PositionError "
                   "naming what is wrong"),
    "lan": N_("game.san(move) gives the move text (Tavreli has one notation: 'e2-e4', "
              "'d7(3)-g4')"),
    "uci": N_("game.san(move) gives the move text (Tavreli has one notation: 'e2-e4')"),
    "chess960": N_("Tavreli has no Chess960; other set-ups are variants: tavrei_lab.variants()"),
}


class _Surface(Protocol):
    """What the mixed-in names read of a ``Game``: its public surface only."""

    rules: RuleModule

    @property
    def position(self) -> Position: ...
    @property
    def moves(self) -> list[Move]: ...
    @property
    def plays_chess(self) -> bool: ...
    @property
    def variant(self) -> Any: ...
    def outcome(self, claim_draw: bool = False) -> Outcome | None: ...
    def parse_move(self, text: str) -> Move: ...
    def push(self, move: Move | str) -> Move: ...


def require_chess(game: _Surface, name: str, hint: str) -> None:
    """Refuse ``Game.name`` outside orthodox chess, saying how a Tavreli game says it."""
    if not game.plays_chess:
        raise ChessHabitError(_("{variant} is no chess: Game.{name} is for orthodox chess; "
                                "here {hint}").format(variant=game.variant.id, name=name,
                                                      hint=hint), name=name, obj=game)


class ChessNames:
    """The python-chess names ``Game`` has (mixed into it)."""

    @property
    def move_stack(self: _Surface) -> list[Move]:
        """The moves played, first first (python-chess's name for ``moves``)."""
        return self.moves

    def is_checkmate(self: _Surface) -> bool:
        outcome = self.outcome()
        return outcome is not None and outcome.termination == "checkmate"

    def is_stalemate(self: _Surface) -> bool:
        outcome = self.outcome()
        return outcome is not None and outcome.termination == "stalemate"

    def result(self: _Surface, claim_draw: bool = False) -> str:
        """"1-0", "0-1", "1/2-1/2", or "*" while the game goes on (as python-chess)."""
        outcome = self.outcome(claim_draw)
        return "*" if outcome is None else outcome.result()

    def __getattr__(self: _Surface, name: str) -> Any:
        hint = CHESS_HABITS.get(name)
        if hint is None or name.startswith("__"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}",
                                 name=name, obj=self)
        raise ChessHabitError(_("Game has no {name}: {hint}").format(name=name, hint=_(hint)),
                              name=name, obj=self)

    def fen(self: _Surface) -> str:
        """The current position as standard FEN (chess only; ``position.string`` holds
        towers and is every variant's)."""
        require_chess(self, "fen", _("the position string is game.position.string"))
        return self.position.fen()

    def parse_san(self: _Surface, text: str) -> Move:
        """The legal move a SAN text names (chess only; ``parse_move`` reads it too)."""
        require_chess(self, "parse_san", _("game.parse_move('e2-e4') gives the legal Move "
                                        "that text names"))
        return self.parse_move(text)

    def push_san(self: _Surface, text: str) -> Move:
        """Play a move given in SAN (chess only; ``push`` takes SAN too)."""
        require_chess(self, "push_san", _("Game.push takes the move text itself: "
                                       "game.push('e2-e4')"))
        return self.push(text)

    def piece_at(self: _Surface, square: int | str) -> Any:
        """The tavrel on top of the tower on ``square`` (a number or a name such as
        ``"e2"``), or None: in chess the piece there, as python-chess's ``piece_at``;
        the whole tower is ``game.position.tower(square)``."""
        return self.position.piece_at(square)

    def attackers(self: _Surface, color: int, square: int | str) -> list[int]:
        """The squares (numbers, as python-chess gives them) of ``color``'s towers whose
        top attacks ``square`` (a number or a name), as ``board.attackers(color, square)``;
        ``game.rules.geometry.name(s)`` names each."""
        if isinstance(color, bool):   # python-chess's WHITE is True, BLACK False
            color = 0 if color else 1
        if color not in (0, 1):
            raise ArgumentError(_("color must be WHITE (0) or BLACK (1), got {color!r}").format(
                color=color))
        sq = self.position.geometry.parse(square.lower()) if isinstance(square, str) else square
        if not (type(sq) is int and 0 <= sq < self.position.geometry.size):
            raise ArgumentError(_("{square!r} is not a square of this board").format(square=square))
        return sorted(self.rules.attackers(self.position, sq, color))


__all__ = ["CHESS_HABITS", "ChessNames", "require_chess"]
