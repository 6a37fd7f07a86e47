"""A move: take the top ``count`` tavrels of the tower on ``from_square`` to ``to_square``.

Castling is flagged, because its volkhv step of two squares is not a
tower move; en passant is not, because the position says when a diagonal
ratnik step onto the crossed square is one. A ``Roll`` is the other kind of
step a game can take: a die face at a chance node.
"""

from __future__ import annotations

from typing import NamedTuple, NoReturn

from tavrei_lab.core.pictures import picture
from tavrei_lab.errors import ChessHabitError
from tavrei_lab.i18n import N_
from tavrei_lab.i18n import gettext as _


class _Habit:
    """A python-chess name on ``Move`` that this package spells otherwise: reading it, on
    the class (``Move.null()``) or on a move (``move.mirror()``), is a ``ChessHabitError``
    naming the spelling here, as ``Game``'s habits are; a plain AttributeError named
    nothing. (A descriptor, because ``Move.null`` is read on the class, where no
    ``__getattr__`` of the instances is asked.)"""

    def __init__(self, name: str, hint: str) -> None:   # NamedTuple calls no __set_name__
        self.name = name
        self.hint = hint

    def __get__(self, instance: object, owner: type | None = None) -> NoReturn:
        raise ChessHabitError(_("Move has no {name}(): {hint}").format(
                                  name=self.name, hint=_(self.hint)), name=self.name,
                              obj=instance)


class Move(NamedTuple):
    """(from, count, to) plus a promotion choice or the castling flag.

    ``count`` is how many tavrels are taken from the top (``count`` equal to
    the tower's height moves the whole tower). ``promotion`` is a kind
    (see ``tavrel.KINDS``) only in variants where promotion is a choice.

    >>> Move(12, 1, 28)
    Move(from_square=12, count=1, to_square=28, promotion=0, castling=False)
    """

    from_square: int
    count: int  # type: ignore[assignment]  # the field, not tuple.count: the domain word
    to_square: int
    promotion: int = 0
    castling: bool = False

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """python-chess's habit, pointed at this package's spelling: squares are
        numbers of the variant's board, so only a game can read move text."""
        raise ChessHabitError(
            _("Move.from_uci({text!r}): a move is read in its game, which knows the board: "
              "game.parse_move({text!r}) gives the legal Move (text like 'e2-e4')").format(
                  text=text), name="from_uci")

    def uci(self) -> str:
        """python-chess's habit, pointed at this package's spelling."""
        raise ChessHabitError(
            _("Move has no uci(): a move's text needs its position, so the game writes it: "
              "game.san(move), or str(move) for a move from game.legal_moves ('e2-e4')"),
            name="uci")

    @property
    def key(self) -> tuple[int, int, int]:
        """The (from, count, to) triple that perft counts once."""
        return (self.from_square, self.count, self.to_square)


# Set on the class after it is made: names in a NamedTuple's body would be its fields.
for _name, _hint in {
        "null": N_("Tavreli has no null move: the side to move must move (in a die game a skip "
                   "face passes the turn); to look at the position with the other side to move, "
                   "start Game(text) from its position string with the side field changed"),
        "mirror": N_("a move is squares of its own board: mirror the position instead (build the "
                     "mirrored position string and start Game(text)) and take the move from its "
                     "game.legal_moves")}.items():
    setattr(Move, _name, _Habit(_name, _hint))


class Roll(NamedTuple):
    """A die face that came up at a chance node (die games only)."""

    face: str

    def _repr_svg_(self) -> str | None:
        """Notebooks show a roll as the die face itself."""
        return picture("roll", self)
