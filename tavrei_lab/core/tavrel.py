"""A tavrel (a piece) packed into one small int.

A tavrel never leaves the board, so a game moves the same 32 tavrels around
for hundreds of plies; packing each into an ``int`` subclass keeps towers as
plain tuples of ints (cheap to copy, hash and compare) while still giving
readable properties.

Bit layout: colour (1 bit) | kind (3) | destiny (3) | promoted (1) | moved (1).
"""

from __future__ import annotations

from typing import Literal

Color = Literal[0, 1]
WHITE: Color = 0
BLACK: Color = 1
COLOR_NAMES = ("white", "black")

# Piece kinds are roles shared by every variant; each variant names them.
KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN, HELGI = 1, 2, 3, 4, 5, 6, 7
KINDS = (KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN, HELGI)

_COLOR = 1
_KIND_SHIFT, _KIND_MASK = 1, 0b111 << 1
_DESTINY_SHIFT, _DESTINY_MASK = 4, 0b111 << 4
PROMOTED = 1 << 7
MOVED = 1 << 8

#: Kinds whose "has moved" flag changes the rules (double step, castling).
MOVED_MATTERS = (KING, ROOK, PAWN)


class Tavrel(int):
    """One tavrel; immutable, hashable, and as cheap as an int.

    >>> t = Tavrel.make(WHITE, PAWN, destiny=HELGI)
    >>> t.kind == PAWN, t.destiny == HELGI, t.promoted
    (True, True, False)
    >>> t.promote().acting_kind == HELGI
    True
    """

    __slots__ = ()

    @classmethod
    def make(cls, color: int, kind: int, destiny: int = 0, promoted: bool = False,
             moved: bool = False) -> Tavrel:
        value = color | (kind << _KIND_SHIFT) | (destiny << _DESTINY_SHIFT)
        if promoted:
            value |= PROMOTED
        if moved and kind in MOVED_MATTERS:
            value |= MOVED
        return cls(value)

    @property
    def color(self) -> Color:
        return self & _COLOR  # type: ignore[return-value]

    @property
    def kind(self) -> int:
        return (self & _KIND_MASK) >> _KIND_SHIFT

    @property
    def destiny(self) -> int:
        return (self & _DESTINY_MASK) >> _DESTINY_SHIFT

    @property
    def promoted(self) -> bool:
        return bool(self & PROMOTED)

    @property
    def moved(self) -> bool:
        return bool(self & MOVED)

    @property
    def acting_kind(self) -> int:
        """The kind it moves as: its destiny while promoted."""
        return self.destiny if self & PROMOTED else self.kind

    def promote(self) -> Tavrel:
        return Tavrel(self | PROMOTED)

    def demote(self) -> Tavrel:
        return Tavrel(self & ~PROMOTED)

    def with_moved(self) -> Tavrel:
        return Tavrel(self | MOVED) if self.kind in MOVED_MATTERS else self

    def __repr__(self) -> str:
        flags = ("*" if self.promoted else "") + ("'" if self.moved else "")
        return (f"Tavrel({COLOR_NAMES[self.color]} kind={self.kind} "
                f"destiny={self.destiny}{flags})")


def acting_kind(t: int) -> int:
    """Fast path for move generation: the kind a packed tavrel moves as."""
    if t & PROMOTED:
        return (t & _DESTINY_MASK) >> _DESTINY_SHIFT
    return (t & _KIND_MASK) >> _KIND_SHIFT


#: Every possible packed tavrel, so hot paths index a list instead of
#: constructing ``Tavrel`` objects (``TAVRELS[value]``).
TAVRELS: tuple[Tavrel, ...] = tuple(Tavrel(v) for v in range(512))
#: ``WITH_MOVED[t]``: ``t`` with its moved flag set where the flag matters.
WITH_MOVED: tuple[Tavrel, ...] = tuple(
    TAVRELS[v | MOVED] if ((v & _KIND_MASK) >> _KIND_SHIFT) in MOVED_MATTERS else TAVRELS[v]
    for v in range(512))
#: ``ACTING[t]``: the kind a packed tavrel moves as (its destiny while promoted).
ACTING: tuple[int, ...] = tuple(
    ((v & _DESTINY_MASK) >> _DESTINY_SHIFT) if v & PROMOTED else ((v & _KIND_MASK) >> _KIND_SHIFT)
    for v in range(512))
