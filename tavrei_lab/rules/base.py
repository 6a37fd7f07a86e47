"""The contract every rule module implements, and the pieces they share.

A rule module turns a variant (board size, set-up, options) into the rules
of a game: which moves are legal, what a move does, who is in check and when
the game is over. Everything the package asks of a rule module -- the game,
the notation, the engine, trees, pictures, the command line -- is a member of
``RuleModule`` below, and nothing else is asked: no probing for optional
methods, no private names, no option read by its name outside its module.
So a third-party module (found through the ``tavrei_lab.rules`` entry-point
group, docs/rule-modules.md) knows exactly what it must provide.

``RuleModuleBase`` gives every member that has a sensible answer for most
games a default; a module subclasses it and writes the six rules of its
game (``legal_moves``, ``apply``, ``is_check``, ``is_attacked``,
``outcome``; ``__init__`` sets ``variant``, ``geometry``, ``pieces``,
``options``). The tower-chess family (``rules.stacking``) and the die
(``rules.die``) are built the same way.

Chance is part of the contract (after OpenSpiel): a position is either a
decision node, where the side to move picks a move, or a chance node, where
a die is rolled. Deterministic modules simply never have chance nodes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tavrei_lab.core import cython_shim as cython
else:
    try:   # the compiled build's declarations (docs/compiled.md); nothing without Cython
        import cython
    except ImportError:
        from tavrei_lab.core import cython_shim as cython

from tavrei_lab.core.tavrel import KING, PAWN, Color
from tavrei_lab.errors import IllegalMoveError
from tavrei_lab.i18n import gettext as _

if TYPE_CHECKING:
    from tavrei_lab.core.geometry import Geometry
    from tavrei_lab.core.move import Move
    from tavrei_lab.core.pieces import PieceSet
    from tavrei_lab.core.position import Position
    from tavrei_lab.core.tavrel import Tavrel
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

    @property
    def explained(self) -> str:
        """``description`` in the language in force (a plugin's own words as written)."""
        return _(self.description)

    def check(self, value: Any) -> str | None:
        """Why ``value`` is not acceptable, or None when it is."""
        if self.type is bool and not isinstance(value, bool):
            return _("expected true or false, got {value}").format(value=repr(value))
        if self.type is int and (isinstance(value, bool) or not isinstance(value, int)):
            return _("expected an integer, got {value}").format(value=repr(value))
        if self.type is str and not isinstance(value, str):
            return _("expected a string, got {value}").format(value=repr(value))
        if self.type is float and (isinstance(value, bool)
                                   or not isinstance(value, (int, float))):
            return _("expected a number, got {value}").format(value=repr(value))
        if self.choices and value not in self.choices:
            return _("expected one of {choices}, got {value}").format(
                choices=", ".join(map(repr, self.choices)), value=repr(value))
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
        """"checkmate (white wins)"; in Russian "мат (победа белых)". A termination the
        catalogue does not know (a record's own word) is shown as it was written."""
        who = (_("draw") if self.winner is None
               else _("white wins") if self.winner == 0 else _("black wins"))
        return _("{termination} ({result})").format(termination=_termination(self.termination),
                                                    result=who)


def _termination(termination: str) -> str:
    words = {"checkmate": _("checkmate"), "stalemate": _("stalemate"),
             "threefold-repetition": _("threefold-repetition"),
             "fifty-move-rule": _("fifty-move-rule"), "king-capture": _("king-capture")}
    return words.get(termination, termination)


@dataclass(frozen=True)
class ColourRoll:
    """The result of a colour roll (die games, B3): which player takes white, and every roll.

    ``white`` is 0 when the first player to roll takes white, 1 for the second.
    ``rolls`` lists each pair of faces (first player's, second player's),
    including the ties and skips that were rolled again.
    """

    white: int
    rolls: tuple[tuple[str, str], ...]


class TowerKernel(Protocol):
    """Board-level answers of the tower-chess family's movement rules: what the engine's
    fast paths call instead of the contract's general members (one call on a bare board
    where the contract would build a position or a list). A module offers one only when
    these answers are exactly its own (``FastPaths``)."""

    @property
    def geometry(self) -> Geometry: ...

    @property
    def splits(self) -> bool: ...

    @property
    def prisoners(self) -> bool: ...

    @property
    def pass_over_own(self) -> bool: ...

    @property
    def promotion(self) -> str: ...

    @property
    def promotion_kinds(self) -> tuple[int, ...]: ...

    @property
    def far_rank(self) -> tuple[int, int]: ...

    def attacked_by(self, board: tuple[Any, ...] | list[Any], sq: int, by: int) -> bool:
        """Does a unit of ``by`` attack ``sq`` on ``board``?"""
        ...

    def destinations(self, board: tuple[Any, ...], s: int, top: int, me: int,
                     ep: int | None) -> list[int]:
        """The squares the unit on ``s`` topped by ``top`` may land on (movement rules)."""
        ...

    def attackers(self, position: Position, square: int, by: int) -> list[int]: ...

    def pseudo_moves(self, position: Position) -> list[Move]: ...

    def pseudo_move_count(self, position: Position, color: int | None = None) -> int:
        """``len(pseudo_moves)`` for ``color`` (the side to move by default; the other
        side as if it were its turn, with no en passant square), without the list."""
        ...

    def activity(self, position: Position) -> tuple[int, int, int, int]:
        """(my pseudo moves, theirs, attacked squares around my volkhv, around theirs)."""
        ...

    def attacked_count(self, board: tuple[Any, ...] | list[Any], squares: Any, by: int) -> int:
        """How many of ``squares`` a unit of ``by`` attacks."""
        ...

    def apply(self, position: Position, move: Move) -> Position: ...


class DieKernel(Protocol):
    """The Gavrilov die's structure, for the engine's chance nodes: the moves a face
    allows include those of every lower face, so a search can take the faces from the
    lowest up (``engine.play``). Offered only by a module whose faces follow it."""

    @property
    def faces(self) -> tuple[str, ...]: ...

    @property
    def probabilities(self) -> tuple[float, ...]: ...

    @property
    def no_move_passes(self) -> bool: ...

    def face_rank(self, face: str) -> int:
        """The hierarchy rank a face allows up to (0: the face passes the turn)."""
        ...

    def all_moves(self, position: Position) -> list[Move]:
        """Every move some face allows (the decision's moves for the highest face)."""
        ...


@dataclass(frozen=True)
class FastPaths:
    """What a rule module offers the engine beyond the contract's general members.

    The engine never asks which class a module is: it asks ``fast_paths()`` and
    uses what is there. Each field is a promise that its answers equal the
    module's own, so a subclass that changes a rule those answers reproduce must
    not inherit it (``unchanged_members`` is how the shipped modules decide).

    ``tower``: board-level movement answers (counting moves and attacks,
    incremental evaluation: a move changes only the squares ``apply`` names).
    ``whole_game``: beyond ``tower``, the module's legal moves, check and end of
    the game are the tower family's (a search may generate and test moves on
    ``tower`` alone and ask only "is there a legal move?" for the end).
    ``die``: the nested faces of the Gavrilov die (``DieKernel``).
    """

    tower: TowerKernel | None = None
    whole_game: bool = False
    die: DieKernel | None = None


#: A module that offers nothing beyond the contract: the engine asks its general members.
NO_FAST_PATHS = FastPaths()


_UNCHANGED: dict[tuple[type, type, frozenset[str]], bool] = {}


def unchanged_members(cls: type, shipped: type, names: frozenset[str]) -> bool:
    """Does ``cls`` take every member in ``names`` from ``shipped`` (or from a class
    ``shipped`` itself inherits it from), overriding none of them?

    How a shipped module decides whether a subclass keeps its fast paths: a
    subclass that changes nothing keeps them, one that overrides a member they
    reproduce (its move generation, its end of the game) loses them and is played
    through its own members. Cached per class: classes are not edited after made.
    """
    key = (cls, shipped, names)
    known = _UNCHANGED.get(key)
    if known is None:
        known = issubclass(cls, shipped) and not any(
            name in vars(k) for k in cls.__mro__[:cls.__mro__.index(shipped)]  # cls, mixins
            for name in names)
        _UNCHANGED[key] = known
    return known


def own_methods(shipped: type, exempt: frozenset[str]) -> frozenset[str]:
    """Every method ``shipped`` defines itself, but ``exempt`` (those that only read
    the variant: the fast paths read what they set, not their code)."""
    return frozenset(name for name, value in vars(shipped).items()
                     if name not in exempt and (callable(value) or isinstance(
                         value, (staticmethod, classmethod, property))))


@runtime_checkable
class RuleModule(Protocol):
    """Everything the package asks of a rule module (docs/rule-modules.md).

    A module is constructed from a ``Variant``; it validates the variant's
    options against ``OPTIONS`` (raising ``VariantError``).
    ``RuleModuleBase`` implements every member below that has a default.
    """

    # -- what the module is ------------------------------------------------------
    #: The name variant files use in ``rules = "..."``.
    name: ClassVar[str]
    #: Every option the module understands, with type, default and description.
    OPTIONS: tuple[Option, ...]

    def __init__(self, variant: Variant) -> None:
        """Build the rules of ``variant``; raise ``VariantError`` for options or a set-up
        these rules cannot use."""

    @property
    def variant(self) -> Variant: ...

    @property
    def geometry(self) -> Geometry: ...

    @property
    def pieces(self) -> PieceSet: ...

    @property
    def options(self) -> dict[str, Any]:
        """The resolved option values (read by ``tavrei-lab variants -v`` and saved with
        results); callers ask the capabilities below, never an option by its name."""

    # -- capabilities callers ask about (RuleModuleBase: the defaults) -----------
    @property
    def has_chance(self) -> bool:
        """Positions may be chance nodes (a die is rolled)."""

    @property
    def counts_turns(self) -> bool:
        """Perft and game trees count *turns* (a roll and its move, or a roll that passes) rather
        than moves: the die game, where passes must use up depth."""

    @property
    def king_capture(self) -> bool:
        """A game is won by taking the enemy volkhv prisoner, so a move may leave one's own volkhv
        attacked and a tavrel may stand on a volkhv."""

    @property
    def splits(self) -> bool:
        """A move may take only the top k tavrels of a tower."""

    @property
    def castling(self) -> bool:
        """The volkhv may castle (position editors show castling rights)."""

    @property
    def prisoners(self) -> bool:
        """Captured tavrels stay on the board as prisoners (the number of tavrels is constant)."""

    @property
    def fifty_move_rule(self) -> bool:
        """A game may be drawn on the halfmove clock (fifty moves, A9.3): search keeps positions
        with different clocks apart and scores the clock's draw."""

    @property
    def pass_over_own(self) -> bool:
        """Line pieces pass over own-topped towers: the evaluation's line reach follows it."""

    @property
    def inner(self) -> RuleModule | None:
        """The module this one wraps (a die over a family), or None. Its movement rules are the
        wrapper's without the chance: tools that look past the die ask it."""

    def fast_paths(self) -> FastPaths:
        """The shortcuts this module offers the engine (``FastPaths``); ``NO_FAST_PATHS``
        for a module whose general members are all there is. They change how fast the
        engine searches and which of its techniques apply, never which moves are legal
        or how a position is scored."""
        ...

    # -- the game ------------------------------------------------------------------
    def initial_position(self) -> Position:
        """The variant's set-up."""
        ...

    def validate(self, position: Position) -> None:
        """Raise ``PositionError`` when the set-up cannot stand in these rules."""
        ...

    def legal_moves(self, position: Position) -> list[Move]:
        """Every legal ``Move(from_square, count, to_square, ...)`` here."""
        ...

    def has_legal_move(self, position: Position) -> bool:
        """Whether any legal move exists (may stop at the first one found)."""
        ...

    def legal_moves_from(self, position: Position, square: int,
                         to: int | None = None) -> list[Move]:
        """The legal moves from ``square`` (to ``to`` if given), in ``legal_moves``' order:
        reading a record asks only for the move its text names."""
        ...

    def pseudo_moves(self, position: Position) -> list[Move]:
        """The movement rules alone, before the volkhv-safety test (to explain why
        a move someone tried is illegal)."""
        ...

    def apply(self, position: Position, move: Move) -> Position:
        """The position after ``move``, which must be legal (not checked here)."""
        ...

    def is_check(self, position: Position) -> bool: ...

    def is_attacked(self, position: Position, square: int, by: int) -> bool: ...

    def attackers(self, position: Position, square: int, by: int) -> list[int]:
        """Squares of ``by``'s towers whose top attacks ``square`` (teaching views)."""
        ...

    def live_ep_square(self, position: Position) -> int | None:
        """The en passant square if a capture there is possible, else None: the one
        rule the repetition key (``Position.key``) and the Zobrist hash follow."""
        ...

    def default_destinies(self) -> dict[tuple[int, int], int]:
        """(colour, file) -> destiny kind of the set-up's ratniks: what a six-field FEN,
        which cannot say a ratnik's destiny, gives each ratnik."""
        ...

    def promotions(self, ratnik: Tavrel) -> tuple[int, ...]:
        """The kinds ``ratnik`` may become on its far rank (a board's legend lists only
        the kinds a position holds or can come to hold)."""
        ...

    def outcome(self, position: Position, repetitions: int = 1,
                claim_draw: bool = False) -> Outcome | None:
        """The game's end in this position, given how often it has occurred."""
        ...

    def claimable_draw(self, position: Position, repetitions: int) -> Outcome | None:
        """The draw a player may claim here (fifty moves, repetition), if any."""
        ...

    def perft(self, position: Position, depth: int) -> int:
        """Leaves of the move tree ``depth`` plies deep (turns, when ``counts_turns``)."""
        ...

    # -- chance (die games); deterministic modules: never a chance node -----------
    def is_chance_node(self, position: Position) -> bool: ...

    def chance_outcomes(self, position: Position) -> list[tuple[str, float]]: ...

    def apply_roll(self, position: Position, face: str) -> Position: ...

    def pending_roll(self, position: Position) -> str | None:
        """The face rolled and not yet used, if any."""
        ...

    def is_skip(self, face: str) -> bool:
        """Does this die face pass the turn? (pictures mark it)."""
        ...

    def allows(self, face: str, kind: int) -> bool:
        """May a unit topped by a tavrel acting as ``kind`` move on ``face``?"""
        ...

    def colour_roll(self, rng: random.Random) -> ColourRoll | None:
        """Who takes white, decided by rolling (die games), or None: no colour roll."""
        ...


class RuleModuleBase:
    """The defaults of ``RuleModule``: subclass it and write the rules of your game.

    A subclass's ``__init__(variant)`` sets ``variant``, ``geometry``,
    ``pieces`` and ``options`` (``variant.resolved_options(self.OPTIONS)``) and
    implements ``legal_moves``, ``apply``, ``is_check``, ``is_attacked`` and
    ``outcome``. Every other member answers for a deterministic game without
    towers that split, castling, prisoners or a die; override what differs.
    """

    name: ClassVar[str] = ""
    OPTIONS: tuple[Option, ...] = ()
    variant: Variant
    geometry: Geometry
    pieces: PieceSet
    options: dict[str, Any]

    has_chance: bool = False
    counts_turns: bool = False
    king_capture: bool = False
    splits: bool = False
    castling: bool = False
    prisoners: bool = False
    fifty_move_rule: bool = False
    pass_over_own: bool = False
    inner: RuleModule | None = None
    _destinies: dict[tuple[int, int], int] | None = None

    # -- the rules a subclass writes -----------------------------------------------
    def legal_moves(self, position: Position) -> list[Move]:
        raise NotImplementedError(_("{module} must define {member}").format(
            module=type(self).__name__, member="legal_moves"))

    def apply(self, position: Position, move: Move) -> Position:
        raise NotImplementedError(_("{module} must define {member}").format(
            module=type(self).__name__, member="apply"))

    def is_check(self, position: Position) -> bool:
        raise NotImplementedError(_("{module} must define {member}").format(
            module=type(self).__name__, member="is_check"))

    def is_attacked(self, position: Position, square: int, by: int) -> bool:
        raise NotImplementedError(_("{module} must define {member}").format(
            module=type(self).__name__, member="is_attacked"))

    def outcome(self, position: Position, repetitions: int = 1,
                claim_draw: bool = False) -> Outcome | None:
        raise NotImplementedError(_("{module} must define {member}").format(
            module=type(self).__name__, member="outcome"))

    # -- defaults --------------------------------------------------------------------
    def initial_position(self) -> Position:
        """The set-up string of the variant, read (and validated) in these rules."""
        from tavrei_lab.notation.position_string import read_position
        return read_position(self.variant.setup, self)

    def validate(self, position: Position) -> None:
        """Every position stands (no checks beyond what reading one does)."""

    def has_legal_move(self, position: Position) -> bool:
        return bool(self.legal_moves(position))

    def legal_moves_from(self, position: Position, square: int,
                         to: int | None = None) -> list[Move]:
        """The legal moves from ``square`` (landing on ``to`` if given), in
        ``legal_moves``' order: rules that can generate them alone, as the tower
        rules do, make reading a record faster."""
        return [m for m in self.legal_moves(position) if m.from_square == square
                and (to is None or m.to_square == to)]

    def pseudo_moves(self, position: Position) -> list[Move]:
        """Without a separate safety test, the movement rules are the legal moves."""
        return self.legal_moves(position)

    def attackers(self, position: Position, square: int, by: int) -> list[int]:
        """No teaching arrows unless the module can say which towers attack."""
        return []

    def live_ep_square(self, position: Position) -> int | None:
        """Any en passant square the position records counts."""
        return position.ep_square

    def promotions(self, ratnik: Tavrel) -> tuple[int, ...]:
        """Its destiny if it has one; else, not knowing the module's rule, every kind of
        the piece set but the king and the ratnik (a legend then shows too much, never
        too little)."""
        if ratnik.destiny:
            return (ratnik.destiny,)
        return tuple(kind for kind in self.pieces.by_kind if kind not in (KING, PAWN))

    def default_destinies(self) -> dict[tuple[int, int], int]:
        """Read once from the set-up: each ratnik's destiny by colour and file."""
        cached = self._destinies
        if cached is None:
            from tavrei_lab.notation.position_string import read_position
            start = read_position(self.variant.setup, self, validate=False)
            width = self.geometry.width
            cached = {}
            for s, tower in enumerate(start.board):
                for t in tower:
                    if t.kind == PAWN and t.destiny:
                        cached.setdefault((t.color, s % width), t.destiny)
            self._destinies = cached
        return cached

    def claimable_draw(self, position: Position, repetitions: int) -> Outcome | None:
        return None

    @cython.locals(depth=cython.int)
    def perft(self, position: Position, depth: int) -> int:
        """Move sequences of length ``depth``, every leaf really played (``apply``).

        At a chance node each face is expanded once and its subtrees added: a roll
        is not a ply. A module with its own definition (the die) overrides this.
        """
        if self.is_chance_node(position):
            if self.outcome(position) is not None:
                return 0
            rolled = 0
            for face, _ in self.chance_outcomes(position):
                rolled += self.perft(self.apply_roll(position, face), depth)
            return rolled
        if depth == 0:
            return 1
        moves = self.legal_moves(position)
        apply = self.apply
        if depth == 1:
            for m in moves:  # play every leaf, as the benchmark's contract says
                apply(position, m)
            return len(moves)
        perft = self.perft
        total = 0
        for m in moves:
            total += perft(apply(position, m), depth - 1)
        return total

    def is_chance_node(self, position: Position) -> bool:
        return False

    def chance_outcomes(self, position: Position) -> list[tuple[str, float]]:
        return []

    def apply_roll(self, position: Position, face: str) -> Position:
        raise IllegalMoveError(_("{variant} has no die to roll").format(
            variant=self.variant.id), move_text=face)

    def pending_roll(self, position: Position) -> str | None:
        return position.roll

    def is_skip(self, face: str) -> bool:
        return False

    def allows(self, face: str, kind: int) -> bool:
        return True

    def colour_roll(self, rng: random.Random) -> ColourRoll | None:
        return None

    def fast_paths(self) -> FastPaths:
        """Nothing beyond the contract, unless a module knows better."""
        return NO_FAST_PATHS


#: Every member of the contract, by name (what ``missing_members`` checks).
CONTRACT_MEMBERS: tuple[str, ...] = tuple(sorted(
    {name for name in RuleModule.__annotations__}
    | {name for name, value in vars(RuleModule).items()
       if (callable(value) or isinstance(value, property)) and not name.startswith("_")}))


def missing_members(module: object) -> list[str]:
    """The ``RuleModule`` members ``module`` does not have (empty when it has them all).

    >>> missing_members(object())[:3]
    ['OPTIONS', 'allows', 'apply']
    """
    return [name for name in CONTRACT_MEMBERS if not hasattr(module, name)]


__all__ = ["CONTRACT_MEMBERS", "NO_FAST_PATHS", "ColourRoll", "DieKernel", "FastPaths", "Option",
           "Outcome", "RuleModule", "RuleModuleBase", "TowerKernel", "missing_members",
           "own_methods", "unchanged_members"]
