"""An immutable position: every tower, whose turn, en passant, clocks.

Positions are values. A move makes a new one (the board is a tuple of
towers, each a tuple of tavrels bottom to top), so handing a position to a
widget, a tree or another thread can never corrupt a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tavrei_lab.core.fen import write_fen
from tavrei_lab.core.pictures import picture
from tavrei_lab.core.tavrel import (
    BLACK,
    COLOR_BIT,
    COLOR_NAMES,
    KIND_BITS,
    KIND_SHIFT,
    KING,
    PROMOTED,
    WHITE,
    Color,
    Tavrel,
)
from tavrei_lab.core.text import position_text, repetition_key, write_position
from tavrei_lab.i18n import gettext as _

if TYPE_CHECKING:
    from tavrei_lab.core.geometry import Geometry
    from tavrei_lab.core.pieces import PieceSet
    from tavrei_lab.rules.base import RuleModule

Tower = tuple[Tavrel, ...]

#: Most tavrels one position may hold. Nothing leaves the board, so no tower
#: can grow in play beyond the number of tavrels: the tower limit is the same.
MAX_TAVRELS = 512
MAX_TOWER_HEIGHT = MAX_TAVRELS
#: Largest halfmove clock and fullmove number (a record holds at most 20,000 moves).
MAX_CLOCK = 1_000_000


def check_limits(position: Position) -> None:
    """Raise ``LimitError`` when ``position`` holds more than the readers accept.

    Every reader (position strings, records, the editor) refuses past these limits, so
    a position built any other way -- in Python, in the editor -- must be refused too:
    otherwise it plays, and then its own saved record or position string will not load.
    """
    from tavrei_lab.errors import LimitError
    total = sum(len(t) for t in position.board)
    if total > MAX_TAVRELS:
        raise LimitError(_("the position holds {total} tavrels; the limit is {limit}").format(
            total=total, limit=MAX_TAVRELS))
    if not 0 <= position.halfmove_clock <= MAX_CLOCK:
        raise LimitError(_("the halfmove clock {value} is outside 0..{limit}").format(
            value=position.halfmove_clock, limit=MAX_CLOCK))
    if not 0 <= position.fullmove_number <= MAX_CLOCK:
        raise LimitError(_("the fullmove number {value} is outside 0..{limit}").format(
            value=position.fullmove_number, limit=MAX_CLOCK))


class Position:
    """A snapshot of the board and the state the rules need.

    ``board[square]`` is the tower on that square, bottom to top (``()`` when
    empty). ``ep_square`` is the square a ratnik just crossed with its double
    step, ``roll`` the die face a die game has rolled and not yet used.
    """

    __slots__ = ("rules", "board", "turn", "ep_square", "halfmove_clock",
                 "fullmove_number", "roll", "_kings", "_key")

    def __init__(self, rules: RuleModule, board: tuple[Tower, ...], turn: Color = WHITE,
                 ep_square: int | None = None, halfmove_clock: int = 0,
                 fullmove_number: int = 1, roll: str | None = None, *,
                 volkhv_squares: tuple[int | None, int | None] | None = None) -> None:
        self.rules = rules
        self.board = board
        self.turn = turn
        self.ep_square = ep_square
        self.halfmove_clock = halfmove_clock
        self.fullmove_number = fullmove_number
        self.roll = roll
        # Where each side's volkhv stands, once known: a rule module that applies a
        # move hands its record on (``volkhv_squares``), so a search does not scan
        # the board for the volkhvs at every node.
        self._kings: tuple[int | None, int | None] | None = volkhv_squares
        self._key: str | None = None

    # -- reading --------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        return self.rules.geometry

    @property
    def pieces(self) -> PieceSet:
        return self.rules.pieces

    def tower(self, square: int | str) -> Tower:
        """The tower on a square (by index or name), bottom to top."""
        if isinstance(square, str):
            square = self.geometry.parse(square.lower())
        return self.board[square]

    def towers(self) -> dict[str, Tower]:
        """Every occupied square by name, in square order (a1, b1, ...)."""
        names = self.geometry.names
        return {names[s]: t for s, t in enumerate(self.board) if t}

    def top(self, square: int | str) -> Tavrel | None:
        """The top tavrel of the tower on a square (by index or name), or None if empty."""
        t = self.tower(square)
        return t[-1] if t else None

    def piece_at(self, square: int | str) -> Tavrel | None:
        """What stands on a square (by index or name) as python-chess's ``piece_at``
        says it: the top tavrel, the one that moves the tower, or None. A tower's
        other tavrels are in ``tower(square)``."""
        return self.top(square)

    def fen(self) -> str:
        """The position as standard FEN, in a variant played as chess (no towers, no
        die: orthodox chess); other variants raise ``PositionError`` naming
        ``position.string``, the text that holds towers."""
        return write_fen(self)

    def king_square(self, color: int) -> int | None:
        """Where ``color``'s volkhv stands (it is always on top), or None."""
        if self._kings is None:
            kings: list[int | None] = [None, None]
            for s, t in enumerate(self.board):
                if t and t[-1] & KIND_BITS == KING << KIND_SHIFT and not t[-1] & PROMOTED:
                    kings[t[-1] & COLOR_BIT] = s
            self._kings = (kings[0], kings[1])
        return self._kings[color]

    @property
    def known_volkhv_squares(self) -> tuple[int | None, int | None] | None:
        """(white's, black's) volkhv squares if already found, else None -- without a scan.

        For a rule module's ``apply``, which hands the record on to the next
        position (``Position(..., volkhv_squares=...)``) and updates it when a
        volkhv moves; ``king_square`` is the reader for everyone else.
        """
        return self._kings

    def count(self, color: Color) -> int:
        """How many tavrels of ``color`` stand on the board (prisoners included)."""
        return sum(1 for t in self.board for x in t if x & COLOR_BIT == color)

    @property
    def string(self) -> str:
        """The position string (``core.text``; the format: ``notation.position_string``)."""
        return write_position(self)

    def key(self) -> str:
        """What threefold repetition compares: everything but the clocks."""
        if self._key is None:
            self._key = repetition_key(self)
        return self._key

    def replace(self, **changes: Any) -> Position:
        """A copy with some fields changed (a changed board must be a new tuple)."""
        fields = {name: getattr(self, name) for name in
                  ("rules", "board", "turn", "ep_square", "halfmove_clock",
                   "fullmove_number", "roll")}
        fields.update(changes)
        if "board" not in changes:              # the same board: the volkhvs stand still
            fields["volkhv_squares"] = self._kings
        return Position(**fields)

    # -- comparing and showing -------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and self.board == other.board
                and self.turn == other.turn and self.ep_square == other.ep_square
                and self.halfmove_clock == other.halfmove_clock
                and self.fullmove_number == other.fullmove_number
                and self.roll == other.roll)

    def __hash__(self) -> int:
        return hash((self.board, self.turn, self.ep_square, self.roll))

    def __str__(self) -> str:
        return self.string

    def __repr__(self) -> str:
        return f"Position({self.string!r})"

    def text(self) -> str:
        """A readable multi-line listing: the board, then every tower (two or more
        tavrels) bottom to top, then the tavrels that stand alone."""
        return position_text(self)

    def _repr_svg_(self) -> str | None:
        return picture("position", self)

    @property
    def turn_name(self) -> str:
        return COLOR_NAMES[self.turn]


__all__ = ["BLACK", "WHITE", "Position", "Tower"]
