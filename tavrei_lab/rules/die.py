"""The Gavrilov chess-die game (docs/rules.md Part B): a die turn rule over any family.

Gavrilov, Elkin, Latypov and Frumin's "Russian chess" is played with towers
and prisoners exactly like the tower-chess family, but each turn starts with
a roll of a *chess die* whose faces show piece types (and, on some dice, a
skip mark). ``DieRules`` wraps a rule module built from the same variant and
adds only what the die changes, so every rule of the family underneath
(splits, prisoners, promotion, demotion, ...) stays one option away.

The family is any registered rule module: ``over`` in the variant's
``[die]`` table names it (default ``"tower-chess"``), resolved through the
registry like ``rules = ...``; the die declares its own options plus the
family's, and asks the family only what ``RuleModule`` names::

    rules = "die"
    [die]
    over = "hard-ground"     # docs/rule-modules.md's example, played with a die

The game alternates two kinds of node (after OpenSpiel):

* a **chance node** -- ``position.roll is None`` and the game is not over: the
  side to move rolls. ``chance_outcomes()`` lists ``(face, probability)``.
* a **decision node** -- ``position.roll`` is a piece face: the side to move
  must move a unit the face allows. After the move, ``roll`` is ``None`` again.

The turn rule (B4, B5.3):

* A **skip face** passes the turn: the other side rolls next. A face is a skip
  when the ``[die]`` table lists it in ``skips`` (a blank or black-circle face)
  or when it shows a piece type absent from the game's set (B2: on the default
  6x6 board the bishop is absent, so the bishop face skips).
* A **piece face** X allows every unit whose **top** tavrel is of type X or
  lower in the hierarchy King > Queen > Rook > Bishop > Knight > Pawn. A
  promoted pawn counts as the piece it became (it moves as one); a helgi
  (amazon), which only a ``promotion = "choice"`` game can produce, counts as
  a queen. Castling is a king move.
* Option ``die`` (default on): off, the die has one face, the king, which allows
  every unit, so the game is the same variant without the die's restriction --
  the control for "what does the die change?" (``--grid die=true,false``).
* A roll that allows no legal move passes the turn (option ``no_move_passes``,
  default on). With it off the die is rolled again: the faces that allow no
  move are left out of ``chance_outcomes()`` (the probabilities of the rest
  are scaled up, which is what "roll until it counts" works out to), and the
  record shows only the roll that counted.
* A pass (a skip or a no-move pass) flips the side to move, clears the en
  passant square (that right lapses with the turn), and counts as a ply for
  the halfmove clock and the move number.

Winning (B6, option ``win``):

* ``"king-capture"`` (default): a move may leave one's own king attacked; the
  side that places a unit on the enemy king wins (``Outcome("king-capture")``).
  A side with no legal move for any face simply passes; if neither side can
  move at all the game is drawn (``"stalemate"``), and with ``no_move_passes``
  off a side with no move for any face is stalemated at once.
* ``"mate"``: orthodox check legality; a checked player whose roll allows no
  move passes; no legal move for any face loses when in check
  (``"checkmate"``) and draws otherwise (``"stalemate"``), as in chess.

"No legal move for any face" is read literally: a die a variant file gives no
king's face never allows the volkhv to move, so a side whose only legal moves
are its volkhv's has none for any face (``moves_for_any_face``), and is treated
as a side with no legal move at all. (Every shipped die has the king's face.)

The colour roll (B3): ``DieRules.colour_roll(rng)`` -- both players roll, the
higher face in the hierarchy takes white; ties and skip faces roll again.

Records (B7). The die face is written as a token ``@F`` before the move it
allowed; a turn that passes (a skip face, or a face that allows no move) is
the lone roll token::

    1. @K d1xd2 @P c5-c4 2. @B @N e6-d4 3. @Q c1xb2 ...

Here white's second turn rolled the absent bishop (a skip), so black rolled
next. ``Game.play`` and ``tavrei-lab replay`` feed each token to
``apply_roll``; whether a face passes follows from the rules, so the record
needs no separate pass mark. The ``Seed`` tag stores the random seed of a
generated game, so ``tavrei-lab play --seed N`` writes the same record byte
for byte. A position string carries a rolled, unused face as a last field
``@F`` (a decision node).

Perft with chance (``DieRules.perft``). The leaves counted are the sequences
of ``depth`` **turns**, a turn being a roll followed by a move, or a roll that
passes. At a chance node each face is expanded **once**, unweighted (the count
is of outcomes, not of probability), and the counts of its subtrees are
summed; a pass counts as a turn. Passes must use up depth: with a skip face
on the die, skip after skip is an endless path, so a tree that counted only
moves would be infinite. Depth 1 from a chance node is therefore
``sum over faces of max(1, moves the face allows)`` with ``no_move_passes``
on. From a decision node (a face already rolled) the first turn is the
choice among that face's moves. A finished game has no subtrees (0 leaves
below it, 1 at depth 0).
"""

from __future__ import annotations

import copy
import math
import random
import re
from dataclasses import replace as _replace_option
from typing import TYPE_CHECKING, Any, ClassVar

from tavrei_lab.core import speech
from tavrei_lab.core.move import Move
from tavrei_lab.core.pieces import ROLE_NAMES
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import (
    BISHOP,
    HELGI,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    Tavrel,
    acting_kind,
)
from tavrei_lab.errors import IllegalMoveError, PositionError, TavreiError, VariantError
from tavrei_lab.i18n import N_
from tavrei_lab.i18n import gettext as _
from tavrei_lab.rules.base import (
    NO_FAST_PATHS,
    ColourRoll,
    FastPaths,
    Option,
    Outcome,
    RuleModule,
    RuleModuleBase,
    own_methods,
    unchanged_members,
)
from tavrei_lab.rules.registry import rule_module
from tavrei_lab.rules.stacking import TowerChessRules

if TYPE_CHECKING:
    from tavrei_lab.variant import Variant

#: The die's hierarchy, highest first (B3, B4.2).
HIERARCHY: tuple[int, ...] = (KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN)
#: Rank of each acting kind in the hierarchy: a face allows units of its rank or lower.
RANK: dict[int, int] = {KING: 6, QUEEN: 5, HELGI: 5, ROOK: 4, BISHOP: 3, KNIGHT: 2, PAWN: 1}
#: The orthodox back rank, from which a 6-file set leaves out the ``absent`` pair (B1).
ORTHODOX_BACK_RANK: tuple[int, ...] = (ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK)
#: What a face may be written as: short, no spaces, nothing movetext reads otherwise.
_FACE = re.compile(r"[A-Za-z0-9_+\-]{1,8}\Z")
_DIE_KEYS = {"faces", "weights", "skips", "over"}
#: The family a die plays over when ``[die]`` does not say.
DEFAULT_FAMILY = "tower-chess"
#: Most faces a die may have (a die is data; keep it small).
MAX_FACES = 64
#: Inner legal-move lists kept (a perft or a long game revisits positions).
_CACHE_SIZE = 20_000

_DIE_OPTIONS: tuple[Option, ...] = (
    Option("absent", str, "bishop",
           N_("Which back-rank type is left out of the 6-file set (B1): its pair is removed from "
              "R N B Q K B N R, and its die face skips. \"none\": use [setup] as written."),
           ("bishop", "knight", "rook", "none")),
    Option("no_move_passes", bool, True,
           N_("A roll that allows no legal move passes the turn (off: the die is rolled again).")),
    Option("die", bool, True,
           N_("The die decides which units may move (off: a one-face die that always shows the "
              "king, which allows every unit; set-up, pieces, win rule and every other option "
              "stay, so --grid die=true,false isolates what the die changes).")),
)
#: Where the die game's defaults differ from Tavreli's (B5.4, B6).
_DIE_DEFAULTS: dict[str, Any] = {"double_step": False, "castling": False,
                                 "win": "king-capture"}


def options_over(family: type[RuleModule]) -> tuple[Option, ...]:
    """The die's options followed by the family's, with the die game's defaults."""
    return _DIE_OPTIONS + tuple(
        _replace_option(o, default=_DIE_DEFAULTS[o.name]) if o.name in _DIE_DEFAULTS else o
        for o in family.OPTIONS)


class DieRules(RuleModuleBase):
    """The die turn rule over a family of rules (docs/rules.md Part B).

    >>> from tavrei_lab import Game
    >>> g = Game("gavrilov-die", seed=1)
    >>> g.is_chance_node(), g.chance_outcomes()[0]
    (True, ('K', 0.16666666666666666))
    >>> g.play("@P b2-b3")
    [Move(from_square=7, count=1, to_square=13, promotion=0, castling=False)]
    >>> g.play("@B"); g.position.turn_name      # the absent bishop: black's turn passes
    []
    'white'
    """

    name: ClassVar[str] = "die"
    #: Over the default family; a die over another family declares ``options_over`` it.
    OPTIONS: tuple[Option, ...] = options_over(TowerChessRules)
    has_chance = True
    counts_turns = True

    def __init__(self, variant: Variant) -> None:
        over = variant.die.get("over", DEFAULT_FAMILY) if isinstance(variant.die, dict) else None
        if not isinstance(over, str) or over == self.name:
            raise VariantError(_("{file}: key 'die.over': expected the name of a rule module for "
                                 "the die to play over (not \"die\"), got {value}").format(
                                   file=variant.source, value=repr(over)),
                               file=variant.source, key="die.over")
        family = rule_module(over, file=variant.source)
        self.OPTIONS = options_over(family)
        self.options = variant.resolved_options(self.OPTIONS)
        o = self.options
        self.no_move_passes: bool = o["no_move_passes"]
        setup = self._setup(variant, o["absent"])
        self.variant = copy.copy(variant)
        self.variant.setup = setup
        family_options = {opt.name for opt in family.OPTIONS}
        inner_variant = copy.copy(self.variant)
        inner_variant.rules = over
        inner_variant.options = {k: o[k] for k in family_options}
        self.inner: RuleModule = family(inner_variant)
        present = self._present_kinds()
        if ({"promotion", "promotion_choices"} <= family_options and o["promotion"] == "choice"
                and "promotion_choices" not in variant.options):
            # B5.4: "choice among the types present" -- Q R B N as far as the set has them
            inner_variant.options["promotion_choices"] = ",".join(
                ROLE_NAMES[k] for k in (QUEEN, ROOK, BISHOP, KNIGHT) if k in present)
            self.inner = family(inner_variant)
            self.options["promotion_choices"] = inner_variant.options["promotion_choices"]
        inner = self.inner
        self.geometry = inner.geometry
        self.pieces = inner.pieces
        self.king_capture = inner.king_capture
        self.splits = inner.splits
        self.castling = inner.castling
        self.prisoners = inner.prisoners
        self.fifty_move_rule = inner.fifty_move_rule
        self.pass_over_own = inner.pass_over_own
        self._cache: dict[tuple, list[Move]] = {}
        self.faces, self.weights, self.skips = self._read_die(variant, present)
        if not o["die"]:
            # the control: one face, the top of the hierarchy, allows every unit every turn
            self.faces, self.weights, self.skips = ((self.pieces.letter(KING),), (1.0,),
                                                    frozenset())
        total = float(sum(self.weights))
        self.probabilities: tuple[float, ...] = tuple(w / total for w in self.weights)
        self._face_rank: dict[str, int] = {
            f: RANK[self.pieces.kind(f)] for f in self.faces if f not in self.skips}
        if not self._face_rank:
            raise VariantError(_("{file}: key 'die.faces': every face is a skip; the die needs "
                                 "at least one piece face").format(file=variant.source),
                               file=variant.source, key="die.faces")
        # The highest piece face: a unit ranked above it never moves. A die without the
        # king's face (a variant file may make one) can leave a side whose only legal
        # moves are the volkhv's with no move for any face: such a side is treated as one
        # with no legal move at all (B4.3, B6), or, with no_move_passes off, its roll would
        # be rolled again for ever (chance_outcomes() empty at a chance node).
        self._top_rank = max(self._face_rank.values())
        self._lenient: RuleModule | None = None
        if not self.king_capture and "win" in family_options:
            # mate rule: a checked player who passed leaves the side to move facing a
            # king in check, which Tavreli's validation would refuse as unreachable
            lenient = copy.copy(inner_variant)
            lenient.options = {**inner_variant.options, "win": "king-capture"}
            self._lenient = family(lenient)

    # -- reading the variant ----------------------------------------------------------
    def _setup(self, variant: Variant, absent: str) -> str:
        """The set-up: [setup] as written, or the 6-file set without the ``absent`` pair."""
        if absent == "none":
            return variant.setup
        if variant.width != 6:
            raise VariantError(
                _("{file}: option 'absent': leaving a pair out applies to a 6-file board, this "
                  "one has {width} files; set absent = \"none\"").format(
                    file=variant.source, width=variant.width),
                file=variant.source, key="options.absent")
        standard = {a: self.standard_setup(variant, a) for a in ("bishop", "knight", "rook")}
        if variant.setup not in standard.values():
            raise VariantError(
                _("{file}: option 'absent' = {absent} rebuilds the standard 6-file set-up, but "
                  "[setup] is not one of the standard ones; set absent = \"none\" to play the "
                  "set-up as written").format(file=variant.source, absent=repr(absent)),
                file=variant.source, key="options.absent")
        return standard[absent]

    @staticmethod
    def standard_setup(variant: Variant, absent: str) -> str:
        """The 6-file set-up without the ``absent`` pair (B1), as a position string.

        Each pawn's destiny is the piece it stands in front of; the pawn in front of
        the king becomes a queen (B5.4). Black mirrors white, kings facing each other.
        """
        from tavrei_lab.core.pieces import ROLE_BY_NAME
        gone = ROLE_BY_NAME[absent]
        kinds = [k for k in ORTHODOX_BACK_RANK if k != gone]
        letter = variant.pieces.letter
        back = "".join(letter(k) for k in kinds)
        pawns = "".join(f"{letter(PAWN)}:{letter(QUEEN if k == KING else k)}" for k in kinds)
        middle = [str(variant.width)] * (variant.height - 4)
        rows = [back.lower(), pawns.lower(), *middle, pawns, back]
        return "/".join(rows) + " w - 0 1"

    def _present_kinds(self) -> set[int]:
        """The piece types of the set-up (a face of any other type skips, B2)."""
        from tavrei_lab.notation.position_string import read_position
        start = read_position(self.variant.setup, self.inner, validate=False)
        return {t.kind for tower in start.board for t in tower}

    def _read_die(self, variant: Variant, present: set[int]
                  ) -> tuple[tuple[str, ...], tuple[float, ...], frozenset[str]]:
        src = variant.source
        die = variant.die
        unknown = set(die) - _DIE_KEYS
        if unknown:
            k = sorted(unknown)[0]
            raise VariantError(_("{file}: unknown key 'die.{key}'; expected one of: {known}")
                               .format(file=src, key=k, known=", ".join(sorted(_DIE_KEYS))),
                               file=src, key=f"die.{k}")
        letters = [self.pieces.letter(k) for k in HIERARCHY]
        faces = die.get("faces", letters)
        if (not isinstance(faces, list) or not faces or len(faces) > MAX_FACES
                or not all(isinstance(f, str) and _FACE.match(f) for f in faces)):
            raise VariantError(_("{file}: key 'die.faces': expected a list of 1..{limit} faces "
                                 "(piece letters or skip marks, letters, digits, - + _), got "
                                 "{value}").format(file=src, limit=MAX_FACES, value=repr(faces)),
                               file=src, key="die.faces")
        if len(set(faces)) != len(faces):
            dup = next(f for f in faces if faces.count(f) > 1)
            raise VariantError(_("{file}: key 'die.faces': face {face} appears twice").format(
                                   file=src, face=repr(dup)),
                               file=src, key="die.faces")
        skips = die.get("skips", [])
        if not isinstance(skips, list) or not all(isinstance(s, str) for s in skips):
            raise VariantError(_("{file}: key 'die.skips': expected a list of faces, got "
                                 "{value}").format(file=src, value=repr(skips)),
                               file=src, key="die.skips")
        for s in skips:
            if s not in faces:
                raise VariantError(_("{file}: key 'die.skips': {face} is not one of the faces "
                                     "{faces}").format(file=src, face=repr(s), faces=faces),
                                   file=src, key="die.skips")
        skip_set = set(skips)
        for f in faces:
            if f in skip_set:
                continue
            if f not in letters:
                raise VariantError(
                    _("{file}: key 'die.faces': {face} is neither a piece letter of this "
                      "variant ({letters}) nor listed in die.skips").format(
                        file=src, face=repr(f), letters=" ".join(letters)),
                    file=src, key="die.faces")
            if self.pieces.kind(f) not in present:
                skip_set.add(f)  # B2: a type absent from the game skips
        weights = die.get("weights", [1] * len(faces))
        if (not isinstance(weights, list) or len(weights) != len(faces)
                or not all(isinstance(w, (int, float)) and not isinstance(w, bool)
                           and w > 0 and w < float("inf") for w in weights)):
            raise VariantError(_("{file}: key 'die.weights': expected {count} positive numbers "
                                 "(one per face), got {value}").format(
                                   file=src, count=len(faces), value=repr(weights)),
                               file=src, key="die.weights")
        if not math.isfinite(sum(float(w) for w in weights)):  # six 1e308s: nan odds
            raise VariantError(_("{file}: key 'die.weights': the weights add up to more than a "
                                 "float can hold; use small numbers such as 1, 2, 3").format(
                                   file=src),
                               file=src, key="die.weights")
        return tuple(faces), tuple(float(w) for w in weights), frozenset(skip_set)

    # -- the die ------------------------------------------------------------------
    def is_skip(self, face: str) -> bool:
        """Does this face pass the turn whatever the position (a skip mark or absent type)?"""
        return face in self.skips

    def face_rank(self, face: str) -> int:
        """The face's place in the hierarchy (King 6 ... Pawn 1); 0 for a skip face."""
        return self._face_rank.get(face, 0)

    def allows(self, face: str, kind: int) -> bool:
        """May a unit topped by a tavrel acting as ``kind`` move on ``face``?"""
        return RANK[kind] <= self.face_rank(face)

    def canonical_face(self, face: str) -> str:
        """``face`` if it is a face of this die, else an ``IllegalMoveError`` listing them.

        Faces are matched exactly (piece faces are upper case), so a record can only
        ever spell a roll one way.
        """
        if face in self._face_rank or face in self.skips:
            return face
        raise IllegalMoveError(_("@{face}: the die has no such face; its faces are "
                                 "{faces}").format(face=face, faces=" ".join(self.faces)),
                               move_text=f"@{face}")

    def sample(self, rng: random.Random) -> str:
        """One roll of the die with ``rng`` (the faces' weights, any position)."""
        return rng.choices(self.faces, self.weights)[0]

    def colour_roll(self, rng: random.Random, max_rounds: int = 10_000) -> ColourRoll:
        """Who takes white (B3): both roll, the higher face wins; ties and skips again."""
        if len(set(self._face_rank.values())) < 2:
            raise TavreiError(_("the colour roll needs two piece faces of different rank"))
        rolls = []
        for _round in range(max_rounds):
            a, b = self.sample(rng), self.sample(rng)
            rolls.append((a, b))
            ra, rb = self.face_rank(a), self.face_rank(b)
            if ra and rb and ra != rb:
                return ColourRoll(0 if ra > rb else 1, tuple(rolls))
        raise TavreiError(_("the colour roll found no winner in {max_rounds} rounds").format(
            max_rounds=max_rounds))

    # -- positions ----------------------------------------------------------------
    def validate(self, position: Position) -> None:
        """The tower rules' checks, plus: a roll shown must be a piece face of this die."""
        if self._lenient is not None:
            self._lenient.validate(position)
            names = self.geometry.names
            kings = {t.color for tower in position.board for t in tower if t.kind == KING}
            for color in (0, 1):
                if color not in kings:   # as in the tower rules: mate needs a king to mate
                    raise PositionError(
                        (_("white has no {king}: a game won by mate needs one on each side")
                         if color == 0 else
                         _("black has no {king}: a game won by mate needs one on each side"))
                        .format(king=speech.kind_name(self.pieces.by_kind[KING])))
            for s, tower in enumerate(position.board):
                if any(t.kind == KING for t in tower[:-1]):
                    raise PositionError(
                        _("a tavrel stands on the {king} on {square}: nothing may be placed on "
                          "it (win = \"mate\")").format(
                            king=speech.kind_name(self.pieces.by_kind[KING]), square=names[s]),
                        where=names[s])
        else:
            self.inner.validate(position)
        roll = position.roll
        if roll is not None and roll not in self._face_rank:
            what = _("a skip face") if roll in self.skips else _("not a face of this die")
            raise PositionError(_("position string: roll @{roll} is {what}; a position can "
                                  "only show an unused piece face ({names})").format(
                                      roll=roll, what=what, names=' '.join(self._face_rank)),
                                where="roll")

    def _wrap(self, p: Position, roll: str | None = None) -> Position:
        return Position(self, p.board, p.turn, p.ep_square, p.halfmove_clock,
                        p.fullmove_number, roll, volkhv_squares=p.known_volkhv_squares)

    def _pass(self, position: Position) -> Position:
        """The turn passes: the other side rolls next; en passant lapses."""
        me = position.turn
        return Position(self, position.board, 1 - me, None,  # type: ignore[arg-type]
                        position.halfmove_clock + 1, position.fullmove_number + me, None,
                        volkhv_squares=position.known_volkhv_squares)

    # -- moves --------------------------------------------------------------------
    def all_moves(self, position: Position) -> list[Move]:
        """Every legal move for any face (the tower rules alone), ignoring the roll."""
        key = (position.board, position.turn, position.ep_square)
        moves = self._cache.get(key)
        if moves is None:
            if len(self._cache) >= _CACHE_SIZE:
                self._cache.clear()
            moves = self._cache[key] = self.inner.legal_moves(position)
        return list(moves)

    def moves_for_any_face(self, position: Position) -> list[Move]:
        """The legal moves some face of the die allows, ignoring the roll: what "no legal
        move for any face" (B6) asks of a side. ``all_moves`` when the die has the
        king's face, as every shipped die does."""
        moves = self.all_moves(position)
        if self._top_rank >= RANK[KING]:
            return moves
        board = position.board
        top = self._top_rank
        return [m for m in moves if RANK[acting_kind(board[m.from_square][-1])] <= top]

    def _filter(self, position: Position, moves: list[Move], face: str) -> list[Move]:
        limit = self.face_rank(face)
        board = position.board
        return [m for m in moves if RANK[acting_kind(board[m.from_square][-1])] <= limit]

    def moves_for_face(self, position: Position, face: str) -> list[Move]:
        """The legal moves a roll of ``face`` would allow here (empty for a skip)."""
        face = self.canonical_face(face)
        if face in self.skips:
            return []
        return self._filter(position, self.all_moves(position), face)

    def legal_moves(self, position: Position) -> list[Move]:
        """At a decision node, the moves the rolled face allows; at a chance node, the
        moves any face could allow (so mobility counts work); none once the game is over."""
        if position.roll is None:
            if self.outcome(position) is not None:
                return []
            return self.all_moves(position)
        if position.roll in self.skips:
            return []
        return self._filter(position, self.all_moves(position), position.roll)

    def pseudo_moves(self, position: Position) -> list[Move]:
        """The movement rules alone (no king-safety test), filtered by the rolled face."""
        moves = self.inner.pseudo_moves(position)
        if position.roll is None:
            return moves
        return self._filter(position, moves, position.roll)

    def apply(self, position: Position, move: Move) -> Position:
        """The position after ``move`` (legal, not checked here); the next side rolls."""
        return self._wrap(self.inner.apply(position, move))

    def is_check(self, position: Position) -> bool:
        return self.inner.is_check(position)

    def promotions(self, ratnik: Tavrel) -> tuple[int, ...]:
        return self.inner.promotions(ratnik)

    def is_attacked(self, position: Position, square: int, by: int) -> bool:
        return self.inner.is_attacked(position, square, by)

    def live_ep_square(self, position: Position) -> int | None:
        return self.inner.live_ep_square(position)

    def attackers(self, position: Position, square: int, by: int) -> list[int]:
        return self.inner.attackers(position, square, by)

    # -- chance -------------------------------------------------------------------
    def is_chance_node(self, position: Position) -> bool:
        """The side to move must roll: no face is showing and the game goes on."""
        return position.roll is None and self.outcome(position) is None

    def pending_roll(self, position: Position) -> str | None:
        """The face rolled and not yet used (what ``replay --json`` reports)."""
        return position.roll

    def chance_outcomes(self, position: Position) -> list[tuple[str, float]]:
        """``[(face, probability)]`` at a chance node (summing to 1); ``[]`` elsewhere."""
        if not self.is_chance_node(position):
            return []
        pairs = list(zip(self.faces, self.probabilities, strict=True))
        if self.no_move_passes:
            return pairs
        moves = self.all_moves(position)
        live = [(f, p) for f, p in pairs
                if f in self.skips or self._filter(position, moves, f)]
        total = sum(p for _, p in live)
        return [(f, p / total) for f, p in live]

    def apply_roll(self, position: Position, face: str) -> Position:
        """The position after rolling ``face``: a decision node, or the next side's
        chance node when the face passes (a skip, or no move with ``no_move_passes``)."""
        if position.roll is not None:
            said = (_("@{face}: the die already shows {roll}; white must move first")
                    if position.turn == 0 else
                    _("@{face}: the die already shows {roll}; black must move first"))
            raise IllegalMoveError(said.format(face=face, roll=position.roll),
                                   move_text=f"@{face}")
        if self.outcome(position) is not None:
            raise IllegalMoveError(_("@{face}: the game is over").format(face=face),
                                   move_text=f"@{face}")
        face = self.canonical_face(face)
        if face in self.skips:
            return self._pass(position)
        if not self._filter(position, self.all_moves(position), face):
            if self.no_move_passes:
                return self._pass(position)
            raise IllegalMoveError(
                _("@{face}: this face allows no move here, and with no_move_passes off the die "
                  "is rolled again (record only the roll that counts)").format(face=face),
                move_text=f"@{face}")
        return position.replace(rules=self, roll=face)

    # -- the end ------------------------------------------------------------------
    def outcome(self, position: Position, repetitions: int = 1,
                claim_draw: bool = False) -> Outcome | None:
        """King taken (king-capture), checkmate or stalemate (see the module notes),
        and with ``claim_draw`` the fifty-move and repetition draws."""
        inner = self.inner
        if self.king_capture and not self.moves_for_any_face(position):
            # no move for any face: the family would call it mate or stalemate, but under
            # king capture the turn passes -- unless a volkhv is already taken, or neither
            # side can move (or a roll must allow a move: no_move_passes off)
            end = inner.outcome(position)
            if end is not None and end.termination == "king-capture":
                return end
            other = position.replace(turn=1 - position.turn, ep_square=None, roll=None)
            if not self.no_move_passes or not self.moves_for_any_face(other):
                return Outcome("stalemate")
            return inner.claimable_draw(position, repetitions) if claim_draw else None
        end = inner.outcome(position, repetitions, claim_draw)
        if (end is None and not self.king_capture and self._top_rank < RANK[KING]
                and not self.moves_for_any_face(position)):
            # legal moves, but none for any face (the die lacks the volkhv's): as in
            # chess when a side has none -- lost in check, drawn otherwise (B6)
            if inner.is_check(position):
                return Outcome("checkmate", 1 - position.turn)  # type: ignore[arg-type]
            return Outcome("stalemate")
        return end

    def claimable_draw(self, position: Position, repetitions: int) -> Outcome | None:
        return self.inner.claimable_draw(position, repetitions)

    # -- perft --------------------------------------------------------------------
    def perft(self, position: Position, depth: int) -> int:
        """Leaves of the turn tree ``depth`` turns deep (definition in the module notes)."""
        if depth == 0:
            return 1
        if position.roll is not None:
            return sum(self.perft(self.apply(position, m), depth - 1)
                       for m in self.legal_moves(position))
        if self.outcome(position) is not None:
            return 0
        moves = self.all_moves(position)
        board = position.board
        ranks = [RANK[acting_kind(board[m.from_square][-1])] for m in moves]
        total = 0
        passed: int | None = None
        for face, _chance in self.chance_outcomes(position):
            limit = self.face_rank(face)
            allowed = ([m for m, r in zip(moves, ranks, strict=True) if r <= limit]
                       if limit else [])
            if not allowed:
                if passed is None:
                    passed = self.perft(self._pass(position), depth - 1)
                total += passed
            elif depth == 1:
                total += len(allowed)   # the last turn: count, as bulk perft does
            else:
                total += sum(self.perft(self.apply(position, m), depth - 1) for m in allowed)
        return total

    # -- what the engine may shortcut ---------------------------------------------
    _fast_paths: FastPaths | None = None

    def fast_paths(self) -> FastPaths:
        """The die itself as the engine's ``DieKernel`` (its faces' moves are nested:
        ``_filter`` by rank), and its family's tower kernel, whose moves and attacks
        these members pass on unchanged -- while this class keeps every member they
        reproduce (``DIE_MEMBERS``). Never ``whole_game``: there is a die to roll."""
        paths = self._fast_paths
        if paths is None:
            if unchanged_members(type(self), DieRules, DIE_MEMBERS):
                paths = FastPaths(tower=self.inner.fast_paths().tower, die=self)
            else:
                paths = NO_FAST_PATHS
            self._fast_paths = paths
        return paths

    def __repr__(self) -> str:
        return f"<DieRules {self.variant.id}: faces {' '.join(self.faces)}>"


#: The die's members its fast paths reproduce: every method but those that only read
#: the variant or that the engine never shortcuts (a subclass may change these).
DIE_MEMBERS = own_methods(DieRules, frozenset({
    "__init__", "_setup", "standard_setup", "_present_kinds", "_read_die", "validate",
    "sample", "colour_roll", "claimable_draw", "canonical_face", "is_skip", "perft",
    "__repr__", "fast_paths"}))
