"""The contract every rule module implements, and the pieces they share.

A rule module turns a variant (board size, set-up, options) into the rules
of a game: which moves are legal, what a move does, who is in check and when
the game is over. ``Game`` talks only to this protocol, so a third-party
module (found through the ``tavrei_lab.rules`` entry-point group) plugs in
without touching the package.

Chance is part of the contract (after OpenSpiel): a position is either a
decision node, where the side to move picks a move, or a chance node, where
a die is rolled. Deterministic modules simply never have chance nodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from tavrei_lab.core.tavrel import COLOR_NAMES, Color

if TYPE_CHECKING:
    from tavrei_lab.core.geometry import Geometry
    from tavrei_lab.core.move import Move
    from tavrei_lab.core.pieces import PieceSet
    from tavrei_lab.core.position import Position
    from tavrei_lab.variant import Variant


@dataclass(frozen=True)
class Option:
    """A named rule option: the unit of "change one rule and compare".

    ``choices`` restricts string options to a fixed set of values.
    """

    name: str
    type: type
    default: Any
    description: str
    choices: tuple[Any, ...] = ()

    def check(self, value: Any) -> str | None:
        """Why ``value`` is not acceptable, or None when it is."""
        if self.type is bool and not isinstance(value, bool):
            return f"expected true or false, got {value!r}"
        if self.type is int and (isinstance(value, bool) or not isinstance(value, int)):
            return f"expected an integer, got {value!r}"
        if self.type is str and not isinstance(value, str):
            return f"expected a string, got {value!r}"
        if self.type is float and (isinstance(value, bool)
                                   or not isinstance(value, (int, float))):
            return f"expected a number, got {value!r}"
        if self.choices and value not in self.choices:
            return f"expected one of {', '.join(map(repr, self.choices))}, got {value!r}"
        return None


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winner`` is None for a draw."""

    termination: str               # "checkmate", "stalemate", "threefold-repetition", ...
    winner: Color | None = None
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    def result(self) -> str:
        """"1-0", "0-1" or "1/2-1/2"."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"

    def __str__(self) -> str:
        who = "draw" if self.winner is None else f"{COLOR_NAMES[self.winner]} wins"
        return f"{self.termination} ({who})"


@runtime_checkable
class RuleModule(Protocol):
    """What a rule module provides. See ``rules.stacking.TowerChessRules``.

    A module is constructed from a ``Variant``; it validates the variant's
    options against ``OPTIONS`` (raising ``VariantError``).
    """

    #: The name variant files use in ``rules = "..."``.
    name: ClassVar[str]
    #: Every option the module understands, with type, default and description.
    OPTIONS: ClassVar[Sequence[Option]]

    variant: Variant
    geometry: Geometry
    pieces: PieceSet
    options: dict[str, Any]

    def initial_position(self) -> Position: ...

    def legal_moves(self, position: Position) -> list[Move]: ...

    def apply(self, position: Position, move: Move) -> Position:
        """The position after ``move``, which must be legal (not checked here)."""
        ...

    def is_check(self, position: Position) -> bool: ...

    def is_attacked(self, position: Position, square: int, by: Color) -> bool: ...

    def outcome(self, position: Position, repetitions: int = 1,
                claim_draw: bool = False) -> Outcome | None:
        """The game's end in this position, given how often it has occurred."""
        ...

    def validate(self, position: Position) -> None:
        """Raise ``PositionError`` when the set-up cannot stand in these rules."""
        ...

    # -- chance (die games); deterministic modules: never a chance node -------
    def is_chance_node(self, position: Position) -> bool: ...

    def chance_outcomes(self, position: Position) -> list[tuple[str, float]]: ...

    def apply_roll(self, position: Position, face: str) -> Position: ...
