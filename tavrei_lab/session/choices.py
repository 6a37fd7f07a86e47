"""What a person has half-chosen on the board: the selected tower, how many of
its tavrels to move, and the promotion still to pick.

Plain Python (no ipywidgets), so the rules of a half-made choice are tested
without a browser or a widget. The board session holds one ``Choices`` and
asks it; the widget only draws what it says.

Why a separate object: a promotion picker left open while the game moves
under it (Undo, the arrow keys, Home, a move-list click, Computer move) must
not play its stale move into another position. Every navigation goes through
``close()``, and ``take_promotion`` refuses a move that is no longer on offer
in the position it was offered for.
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.errors import IllegalMoveError
from tavrei_lab.i18n import gettext as _

#: Status text asking for the promotion (one place, for the message catalogue).
CHOOSE_PROMOTION = "Choose the piece the ratnik becomes."
#: Status text when something else is tried while the promotion is open.
PROMOTION_FIRST = "Choose the promotion first."


class Choices:
    """The board's half-made choice: ``selected`` square, ``count``, ``pending_promotion``."""

    def __init__(self) -> None:
        self.selected: int | None = None
        self.count: int | None = None
        self.pending_promotion: list[Move] = []
        self._offered_in: Any = None      # the position the promotion was offered in

    @property
    def is_open(self) -> bool:
        """True while anything is half-chosen (a selection or a promotion)."""
        return self.selected is not None or bool(self.pending_promotion)

    def select(self, square: int, count: int) -> None:
        """Select ``count`` tavrels of the tower on ``square`` (drops an open promotion)."""
        self.pending_promotion = []
        self._offered_in = None
        self.selected = square
        self.count = count

    def deselect(self) -> None:
        self.selected = None
        self.count = None

    def offer_promotion(self, moves: list[Move], position: Any) -> None:
        """Ask which of ``moves`` (same move, different promotions) to play in ``position``."""
        if len({m.promotion for m in moves}) < 2:
            raise IllegalMoveError(_("a promotion choice needs at least two promotions, got "
                                     "{count} move(s)").format(count=len(moves)))
        self.pending_promotion = list(moves)
        self._offered_in = position

    def take_promotion(self, move: Move, position: Any) -> Move:
        """The promotion picked, checked against what was offered and where.

        Raises ``IllegalMoveError`` (and keeps the offer) if ``move`` was not
        offered, or if the game has moved on since the offer (then the offer
        is closed: it belongs to a position no longer on the board).
        """
        if not self.pending_promotion:
            raise IllegalMoveError(_("no promotion is waiting to be chosen"))
        if position is not self._offered_in:
            self.close()
            raise IllegalMoveError(_("the promotion was offered in another position; it is "
                                     "closed"))
        if move not in self.pending_promotion:
            raise IllegalMoveError(_("{move} is not one of the promotions offered").format(
                move=move))
        self.close()
        return move

    def close(self) -> None:
        """Forget every half-made choice: every navigation and every new game calls this."""
        self.selected = None
        self.count = None
        self.pending_promotion = []
        self._offered_in = None
