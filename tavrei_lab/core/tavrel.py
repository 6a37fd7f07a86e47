"""A tavrel (a piece) packed into one small int.

A tavrel never leaves the board, so a game moves the same 32 tavrels around
for hundreds of plies; packing each into an ``int`` subclass keeps towers as
plain tuples of ints (cheap to copy, hash and compare) while still giving
readable properties.

Bit layout: colour (1 bit) | kind (3) | destiny (3) | promoted (1) | moved (1).
This module is the one place that knows it: every other module reads a packed
tavrel through the names below (``COLOR_BIT``, ``KIND_BITS`` and ``KIND_SHIFT``,
``ACTING``, ``KIND_OF``...), and the compiled modules copy them into C constants.
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

#: The colour bit: ``t & COLOR_BIT`` is the colour (0 white, 1 black).
COLOR_BIT = 1
#: The kind's bits and where they start: ``(t & KIND_BITS) >> KIND_SHIFT`` is the kind.
KIND_SHIFT = 1
KIND_BITS = 0b111 << KIND_SHIFT
#: The destiny's bits (a ratnik's kind-to-be; 0 for none).
DESTINY_SHIFT = 4
DESTINY_BITS = 0b111 << DESTINY_SHIFT
PROMOTED = 1 << 7
MOVED = 1 << 8
#: How many packed values there are (the size of the tables below).
TAVREL_VALUES = 1 << 9
_COLOR, _KIND_SHIFT, _KIND_MASK = COLOR_BIT, KIND_SHIFT, KIND_BITS
_DESTINY_SHIFT, _DESTINY_MASK = DESTINY_SHIFT, DESTINY_BITS

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


def color_of(t: int) -> int:
    """The colour of a packed tavrel (0 white, 1 black)."""
    return t & _COLOR


def kind_of(t: int) -> int:
    """The kind a packed tavrel was set up as (promoted or not)."""
    return (t & _KIND_MASK) >> _KIND_SHIFT


def acting_kind(t: int) -> int:
    """Fast path for move generation: the kind a packed tavrel moves as."""
    if t & PROMOTED:
        return (t & _DESTINY_MASK) >> _DESTINY_SHIFT
    return (t & _KIND_MASK) >> _KIND_SHIFT


#: Every possible packed tavrel, so hot paths index a list instead of
#: constructing ``Tavrel`` objects (``TAVRELS[value]``).
TAVRELS: tuple[Tavrel, ...] = tuple(Tavrel(v) for v in range(TAVREL_VALUES))
#: ``WITH_MOVED[t]``: ``t`` with its moved flag set where the flag matters.
WITH_MOVED: tuple[Tavrel, ...] = tuple(
    TAVRELS[v | MOVED] if ((v & _KIND_MASK) >> _KIND_SHIFT) in MOVED_MATTERS else TAVRELS[v]
    for v in range(TAVREL_VALUES))
#: ``ACTING[t]``: the kind a packed tavrel moves as (its destiny while promoted).
ACTING: tuple[int, ...] = tuple(
    ((v & _DESTINY_MASK) >> _DESTINY_SHIFT) if v & PROMOTED else ((v & _KIND_MASK) >> _KIND_SHIFT)
    for v in range(TAVREL_VALUES))
#: ``KIND_OF[t]``: the kind a packed tavrel was set up as (``kind_of``), for tables
#: indexed by kind where the tavrel is not the top of its tower.
KIND_OF: tuple[int, ...] = tuple((v & _KIND_MASK) >> _KIND_SHIFT for v in range(TAVREL_VALUES))
