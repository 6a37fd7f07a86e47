"""The small types a ``Game`` hands out: a played move that prints as move text, the
legal moves as a callable list, the ply and the side to move as numbers that also
answer python-chess's spelling, and what threefold repetition compares.
"""

from __future__ import annotations

import warnings
from typing import Any

from tavrei_lab.core.move import Move, Roll
from tavrei_lab.core.position import Position
from tavrei_lab.errors import ChessHabitWarning
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.moves import write_move

#: What a game's history holds: a move, or a die roll.
Action = Move | Roll


def repetition_key(position: Position) -> tuple[Any, ...]:
    """What threefold repetition compares, as ``Position.key()`` says it -- the board,
    the side to move, the en passant square only when a capture there is possible
    (``live_ep_square``) and the roll -- as the values themselves, not written out: the
    key's text writes every bit of every tavrel (colour, kind, destiny, promoted,
    moved; a piece set's letters are distinct), so two positions have equal texts
    exactly when these are equal. Writing each position's board as text would be a lab
    game's largest cost outside the compiled search."""
    return (position.board, position.turn, position.rules.live_ep_square(position),
            position.roll or "")


class PlayedMove(Move):
    """A ``Move`` that knows the position it is played from, so ``str(move)`` is its
    move text (``e2-e4``), as python-chess prints a move; otherwise the same tuple
    (equal to, and hashing as, the plain ``Move``)."""

    @classmethod
    def at(cls, move: Move, position: Position) -> PlayedMove:
        played = tuple.__new__(cls, move)   # (Move's own __new__ takes the fields one by one)
        played.__dict__["position"] = position
        return played

    def __str__(self) -> str:
        position = self.__dict__.get("position")
        return write_move(position, self) if position is not None else repr(self)

    def __repr__(self) -> str:
        return repr(Move(*self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move, tuple(self))   # pickles (to worker processes) as the plain move


class LegalMoves(list[Move]):
    """The legal moves, a list that may also be called: ``game.legal_moves()`` as
    this package has it, ``game.legal_moves`` as python-chess has it."""

    def __call__(self) -> LegalMoves:
        return self

    def count(self, *value: Any) -> int:
        """``legal_moves.count()`` is how many (python-chess's generator has it);
        ``count(move)``, as any list, how often ``move`` is in it."""
        if not value:
            return len(self)
        return super().count(*value)


class Ply(int):
    """The number of plies, a number that may also be called: ``game.ply`` as this
    package has it, ``game.ply()`` as python-chess's ``board.ply()`` has it (a plain
    ``int`` there was "'int' object is not callable", no hint at all). Arithmetic
    gives plain ints."""

    __slots__ = ()

    def __call__(self) -> int:
        return int(self)


class Turn(int):
    """The side to move: 0 (``WHITE``) or 1 (``BLACK``), a plain int in arithmetic and
    indexing. python-chess's ``board.turn`` is True for white, so ``if game.turn:`` or
    ``game.turn == chess.WHITE`` reads the opposite side here: both warn."""

    __slots__ = ()

    def __bool__(self) -> bool:
        warnings.warn(ChessHabitWarning(_(
            "game.turn is 0 for white and 1 for black, so it is false when white is to "
            "move (python-chess's turn is True for white): compare it with WHITE or BLACK")),
            stacklevel=2)
        return int(self) != 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, bool):
            warnings.warn(ChessHabitWarning(_(
                "game.turn is compared with {value}: here WHITE is 0 and BLACK is 1 "
                "(python-chess: True and False); compare it with tavrei_lab.WHITE or "
                "BLACK").format(value=other)), stacklevel=2)
        return int(self) == other

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = int.__hash__


__all__ = ["Action", "LegalMoves", "PlayedMove", "Ply", "Turn", "repetition_key"]
