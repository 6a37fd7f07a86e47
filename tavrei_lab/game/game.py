"""A game: a start position, the moves (and die rolls) played, and undo.

``Game`` is the small public surface most users need (after python-chess's
``Board``): ``legal_moves()``, ``push``/``pop``, ``play("e2-e4 e7-e5")``,
``position``, ``outcome()``. Every failed operation raises a ``TavreiError``
and leaves the game exactly as it was.

Every per-move step costs the same however long the game already is (the ply
count is kept, not recounted), so replaying a 20,000-move record takes time in
proportion to its length (``python -m benchmarks replay`` prints plies/s).
"""

from __future__ import annotations

import io
import json
import math
import os
import random
import re
import time
import warnings
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import IO, Any

from tavrei_lab.core import speech
from tavrei_lab.core.move import Move, Roll
from tavrei_lab.core.pictures import picture
from tavrei_lab.core.position import Position, check_limits
from tavrei_lab.core.reading import open_regular
from tavrei_lab.core.tavrel import KING
from tavrei_lab.errors import (
    ArgumentError,
    ChessHabitError,
    ChessHabitWarning,
    IllegalMoveError,
    LimitError,
    NotationError,
    PositionError,
    RecordError,
    TavreiError,
    quote,
)
from tavrei_lab.i18n import N_, ngettext
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.moves import MoveSpec, parse_move_spec, write_move
from tavrei_lab.notation.movetext import Token, tokenize
from tavrei_lab.notation.pgn import tokenize_chess, tokenize_pgn
from tavrei_lab.notation.position_string import read_position
from tavrei_lab.notation.record import (
    MAX_RECORD_BYTES,
    MAX_RECORD_TOKENS,
    parse_record,
    record_variant,
    start_tag,
    write_pgn,
    write_record,
)
from tavrei_lab.notation.san import parse_san, plays_chess, read_san, write_san
from tavrei_lab.rules.base import Outcome, RuleModule, missing_members
from tavrei_lab.variant import (
    MAX_VARIANT_DATA_CHARS,
    is_shipped,
    load_variant,
    variant_data,
    variant_from_data,
    variants,
)

Action = Move | Roll


def _repetition_key(position: Position) -> tuple[Any, ...]:
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

#: Largest die seed a game accepts (in absolute value): it is written into the record's
#: ``Seed`` tag, which must read back, and 2**64 covers every seed anyone types.
MAX_SEED = 2**64


def check_seed(seed: Any) -> int | None:
    """``seed`` if it can be stored in a record and read back (None or a whole number
    within +-``MAX_SEED``); otherwise an ``ArgumentError`` saying what a seed is."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentError(_("seed must be a whole number (or None), got {type}").format(
            type=type(seed).__name__))
    if not -MAX_SEED <= seed <= MAX_SEED:
        raise ArgumentError(_("seed is out of range: at most {limit} in absolute value").format(
            limit=MAX_SEED))
    return int(seed)


#: A board field of a position string: ranks of letters, digits and tower brackets, cut by "/".
_BOARD_FIELD = re.compile(r"[A-Za-z0-9()\[\]{}.:+*-]+(/[A-Za-z0-9()\[\]{}.:+*-]+){3,}")


def looks_like_position(text: Any) -> bool:
    """Whether ``Game(text)`` was given a position string, as ``chess.Board(fen)`` is:
    several fields, the first ranks cut by "/" -- no variant name or file reads so."""
    if not isinstance(text, str):
        return False
    fields = text.split()
    return len(fields) >= 2 and _BOARD_FIELD.fullmatch(fields[0]) is not None


def _position_variant(text: str) -> str:
    """The variant ``Game(text)`` plays when ``text`` is a position string
    (``chess.Board(fen)``'s habit): Tavreli's if it reads so, else orthodox chess's (a
    python-chess FEN); neither raises the Tavreli reading's error, naming ``position=``."""
    try:
        read_position(text, load_variant("tavreli"))
        return "tavreli"
    except PositionError as tavreli_error:
        try:
            read_position(text, load_variant("orthodox"))
            return "orthodox"
        except PositionError:
            raise PositionError(
                _("{value} -- Game(text) reads a position of Tavreli (or of orthodox chess); "
                  "for another variant write Game(variant, position=text)").format(
                      value=tavreli_error.args[0])) from None


def _rules_for(variant: Any, options: dict[str, Any]) -> RuleModule:
    """A variant name or file, loaded with ``options``; or a rule module, used as it is."""
    if isinstance(variant, RuleModule):
        if options:
            raise TypeError(_("options can only be given with a variant name"))
        return variant
    missing = missing_members(variant)
    if "legal_moves" not in missing:  # meant as a rule module: say what it lacks
        raise ArgumentError(_("{type} is not a whole rule module: it lacks {names} "
                              "(docs/rule-modules.md; subclassing RuleModuleBase gives the "
                              "defaults)").format(
                                  type=type(variant).__name__, names=', '.join(missing)))
    return load_variant(variant, **options)


class Game:
    """A game of any variant, with history and undo.

    A ``Game`` is not thread-safe: it changes in place on every ``push``,
    ``pop`` or roll, so two threads playing on one game can interleave halfway
    through a step. Give each thread its own (``game.copy()`` or
    ``copy.copy(game)`` is cheap and independent); positions are immutable and
    can be shared freely.

    >>> g = Game()                      # Tavreli
    >>> played = g.play("e2-e4 e7-e5 f1-c4")
    >>> len(g.legal_moves())
    43
    >>> g.move_text(g.pop(), g.positions[-1])
    'f1-c4'
    >>> g.position.turn_name
    'white'
    """

    def __init__(self, variant: Any = "tavreli", position: str | Position | None = None,
                 *, seed: int | None = None, **options: Any) -> None:
        seed = check_seed(seed)
        if position is None and not options and looks_like_position(variant):
            variant, position = _position_variant(variant), variant
        self.rules = _rules_for(variant, options)
        self._chess = plays_chess(self.rules)   # (asked at every move a text names)
        if position is None:
            start = self.rules.initial_position()
        elif isinstance(position, Position):
            if position.rules is not self.rules:   # a position of other rules: re-read it
                g = self.rules.geometry
                if len(position.board) != g.size:
                    raise PositionError(
                        _("the position is for a board of {count} squares; {variant} plays on "
                          "{width}x{height}").format(
                              count=len(position.board), variant=self.rules.variant.id,
                              width=g.width, height=g.height))
                position = position.replace(rules=self.rules)
            check_limits(position)    # whatever the rule module checks, the readers' limits
            self.rules.validate(position)
            start = position
        else:
            start = read_position(position, self.rules)
        self._positions: list[Position] = [start]
        self._actions: list[Action] = []
        self._redo: list[tuple[Action, Position]] = []   # undone: (action, position after)
        self._ply = 0                    # moves in _actions, kept so ``ply`` is O(1)
        self._line_version = 0           # see ``line_version``
        # The repetition keys of the positions moves brought about (and the start),
        # counted lazily: ``_counted`` positions are in ``_keys``, the rest are counted
        # when ``repetitions`` is asked (as python-chess looks back only when asked), so
        # a replay does not write a key for every ply.
        self._keys: Counter[tuple[Any, ...]] = Counter()
        self._counted = 0
        # each comment under the number of actions played where it stands (0: before the
        # first); an undone action's waits for ``redo`` and goes when its line is dropped
        self.comments: dict[int, str] = {}
        #: numeric annotation glyphs (``$1``, ``!``) of a chess record, keyed as comments
        self.nags: dict[int, list[int]] = {}
        #: a chess record's variations: each the movetext of an alternative to the move
        #: that brought the game to that number of actions (keyed as comments)
        self.variations: dict[int, list[str]] = {}
        self.tags: dict[str, str] = {}
        self.seed = seed
        self.rng = random.Random(seed)

    # -- state -----------------------------------------------------------------
    @property
    def variant(self) -> Any:
        return self.rules.variant

    @property
    def position(self) -> Position:
        """The current position (immutable; safe to keep)."""
        return self._positions[-1]

    @property
    def start_position(self) -> Position:
        return self._positions[0]

    @property
    def history(self) -> list[Action]:
        """Everything played, in order: moves and (in die games) rolls."""
        return list(self._actions)

    @property
    def action_count(self) -> int:
        """``len(game.history)`` without copying the history (moves and rolls played)."""
        return len(self._actions)

    @property
    def moves(self) -> list[Move]:
        return [a for a in self._actions if isinstance(a, Move)]

    @property
    def positions(self) -> list[Position]:
        """The start position and the position after each action."""
        return list(self._positions)

    @property
    def undone(self) -> list[tuple[Action, Position]]:
        """What ``redo`` would play again, next first: each action with the position it leads to."""
        return self._redo[::-1]

    @property
    def line_version(self) -> int:
        """A number that changes whenever the line changes -- the actions played plus
        those ``redo`` would replay -- except by stepping along it with ``pop`` and
        ``redo``. A view of the whole line (the board's move list) keeps its texts and
        rebuilds them only when this changes, so stepping costs the same in any game."""
        return self._line_version

    @property
    def ply(self) -> Ply:
        """How many moves have been played (rolls are not plies); ``game.ply()``, as
        python-chess calls it, gives the same number."""
        return Ply(self._ply)

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves here, each printing as its move text (``str(move)``).

        ``game.legal_moves()`` and python-chess's ``board.legal_moves`` (no call) both
        give the list.

        At a chance node (a die game before the roll) it is empty: the action
        due is a roll, whose faces ``chance_outcomes()`` lists (as OpenSpiel's
        ``legal_actions`` lists a chance node's outcomes). Listing every face's
        moves there would offer moves ``push`` must refuse. The rules' own
        ``rules.legal_moves(position)`` is unchanged (the search uses it); empty
        with no chance outcome means the game is over."""
        position = self.position
        if self.rules.is_chance_node(position):
            return LegalMoves(())
        return LegalMoves(PlayedMove.at(m, position) for m in self.rules.legal_moves(position))

    @property
    def turn(self) -> Turn:
        """The side to move, ``WHITE`` (0) or ``BLACK`` (1), as python-chess's
        ``board.turn`` -- whose WHITE is True: testing it for truth, or comparing it with
        True or False, warns (``ChessHabitWarning``); compare it with ``WHITE``."""
        return Turn(self.position.turn)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played, first first (python-chess's name for ``moves``)."""
        return self.moves

    def peek(self) -> Action:
        """The last action played (a move, or a die roll); raises at the start."""
        if not self._actions:
            raise IllegalMoveError(_("nothing played yet: the game is at its start"))
        return self._actions[-1]

    def is_checkmate(self) -> bool:
        outcome = self.outcome()
        return outcome is not None and outcome.termination == "checkmate"

    def is_stalemate(self) -> bool:
        outcome = self.outcome()
        return outcome is not None and outcome.termination == "stalemate"

    def result(self, claim_draw: bool = False) -> str:
        """"1-0", "0-1", "1/2-1/2", or "*" while the game goes on (as python-chess)."""
        outcome = self.outcome(claim_draw)
        return "*" if outcome is None else outcome.result()

    def __getattr__(self, name: str) -> Any:
        hint = CHESS_HABITS.get(name)
        if hint is None or name.startswith("__"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}",
                                 name=name, obj=self)
        raise ChessHabitError(_("Game has no {name}: {hint}").format(name=name, hint=_(hint)),
                              name=name, obj=self)

    def is_check(self) -> bool:
        return self.rules.is_check(self.position)

    def repetitions(self) -> int:
        """How often the current position has occurred (A9.2).

        Only positions brought about by moves count (and the start): in die
        games a skipped turn brings a position back without anyone moving,
        and four skips are not a threefold repetition. A position reached by
        a roll (a pass, or a face waiting for its move) is a first occurrence.
        """
        if self._actions and not isinstance(self._actions[-1], Move):
            return 1
        positions, actions, keys = self._positions, self._actions, self._keys
        for i in range(self._counted, len(positions)):
            if i == 0 or isinstance(actions[i - 1], Move):
                keys[_repetition_key(positions[i])] += 1
        self._counted = len(positions)
        return keys[_repetition_key(self.position)]

    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        """The end of the game, or None. ``claim_draw`` also reports the
        claimable draws (threefold repetition, fifty moves), which engines and
        self-play treat as automatic (A9.4)."""
        return self.rules.outcome(self.position, self.repetitions(), claim_draw)

    def is_game_over(self, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw) is not None

    # -- chance ----------------------------------------------------------------
    def is_chance_node(self) -> bool:
        return self.rules.is_chance_node(self.position)

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return self.rules.chance_outcomes(self.position)

    def apply_roll(self, face: str) -> None:
        """Record a die face at a chance node (raises if this is not one)."""
        if not self.is_chance_node():
            raise IllegalMoveError((_("@{face}: no die roll is due now (white must move)")
                                    if self.position.turn == 0 else
                                    _("@{face}: no die roll is due now (black must move)")
                                    ).format(face=face),
                                   move_text=f"@{face}", ply=self._ply + 1)
        new = self.rules.apply_roll(self.position, face)
        self._append(Roll(face), new)

    def roll(self, rng: random.Random | None = None) -> str:
        """Sample a face with ``rng`` (default: the game's seeded generator) and apply it."""
        rng = rng or self.rng
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalMoveError(_("no die roll is due now"), ply=self._ply + 1)
        faces = [f for f, _ in outcomes]
        weights = [p for _, p in outcomes]
        face = rng.choices(faces, weights)[0]
        self.apply_roll(face)
        return face

    # -- moves -----------------------------------------------------------------
    def _append(self, action: Action, position: Position, redoing: bool = False) -> Any:
        """Play ``action`` (into ``position``); a move is kept as a ``PlayedMove``,
        which prints as its text, and returned."""
        if isinstance(action, Move) and not isinstance(action, PlayedMove):
            action = PlayedMove.at(action, self.position)
        if not redoing:  # a new action starts a new line: what was undone cannot come back
            self._drop_redo()
            self._line_version += 1
        self._actions.append(action)
        self._positions.append(position)
        if isinstance(action, Move):
            self._ply += 1
        return action

    def _drop_redo(self) -> None:
        """Forget the undone line, its comments too.

        Comments are kept by action number, so an undone move's comment waits there
        for ``redo``; once the line is gone, the next action played would take that
        number, and the comment with it. Only the undone actions' numbers are
        visited: a replay of a long commented record stays linear."""
        played = len(self._actions)
        for number in range(played + 1, played + len(self._redo) + 1):
            self.comments.pop(number, None)
            self.nags.pop(number, None)
            self.variations.pop(number, None)
        self._redo.clear()

    def push(self, move: Move | str) -> Move:
        """Play a legal move (a ``Move`` or move text); returns the move played."""
        move = self.find_move(move)
        new = self.rules.apply(self.position, move)
        return self._append(move, new)

    def pop(self) -> Action:
        """Undo the last action (a move, or a die roll); raises at the start."""
        if not self._actions:
            raise IllegalMoveError(_("nothing to undo: the game is at its start"))
        if isinstance(self._actions[-1], Move):
            if self._counted == len(self._positions):
                key = _repetition_key(self.position)
                self._keys[key] -= 1
                if not self._keys[key]:
                    del self._keys[key]
            self._ply -= 1
        if self._counted == len(self._positions):
            self._counted -= 1
        after = self._positions.pop()
        action = self._actions.pop()
        self._redo.append((action, after))
        return action

    def redo(self) -> Action:
        """Play again the last action undone by ``pop``."""
        if not self._redo:
            raise IllegalMoveError(_("nothing to redo"))
        # ``pop`` put it there from this very position, with the position it led to:
        # replaying it needs no move generation (stepping through a long game stays linear)
        action, after = self._redo.pop()
        self._append(action, after, redoing=True)
        return action

    def can_redo(self) -> bool:
        return bool(self._redo)

    def clear_redo(self) -> None:
        """Forget the actions undone by ``pop`` and their comments (a move taken back as
        wrong is not redone)."""
        if self._redo:
            self._drop_redo()
            self._line_version += 1

    def play(self, movetext: str | Iterable[str], *,
             time_limit: float | None = None, progress: bool | str = True) -> list[Move]:
        """Play movetext (``"e2-e4 e7-e5"``, with numbers, comments, rolls).

        All or nothing: on the first bad move the game is restored and an
        ``IllegalMoveError`` or ``NotationError`` names the ply and the text.
        ``time_limit`` (seconds): past it the game is restored too and a
        ``LimitError`` says how far it got (a record of 20,000 plies in a variant
        with a 512-tavrel tower costs a tenth of a second a ply). ``progress``: a
        ``tqdm.auto`` bar of the tokens played for movetext of ``LONG_MOVETEXT`` tokens
        or more, shown once the replay lasts a second (True; a mode, or False).
        """
        deadline = replay_deadline(time_limit)
        if not isinstance(movetext, str):
            words: list[Any]
            try:
                words = list(movetext)
            except TypeError:
                words = [movetext]
            bad = [w for w in words if not isinstance(w, str)]
            if bad:
                raise NotationError(_("movetext must be text, got {type}").format(
                    type=type(bad[0]).__name__),
                                    text=repr(bad[0])[:40])
            movetext = " ".join(words)
        tokens = tokenize_chess(movetext) if self.plays_chess else tokenize(movetext)
        return self._play_tokens(tokens, deadline, time_limit, progress)

    def _play_tokens(self, tokens: list[Token], deadline: float | None,
                     time_limit: float | None, progress: bool | str = True) -> list[Move]:
        """``play`` of movetext already tokenized (``read_record`` counts the moves first)."""
        mark = len(self._actions)
        redo = list(self._redo)
        # a refused play must not leave its comments, glyphs or variations behind
        notes = (dict(self.comments), {k: list(v) for k, v in self.nags.items()},
                 {k: list(v) for k, v in self.variations.items()})
        chess = self.plays_chess
        played: list[Move] = []
        bar = None
        if progress is not False and len(tokens) >= LONG_MOVETEXT:   # short: no bar at all
            from tavrei_lab.core.progress import progress_bar
            bar = progress_bar(len(tokens), "replay", mode=None if progress is True
                               else str(progress), unit="token", delay=1.0)
        try:
            for n, tok in enumerate(tokens, 1):
                if bar is not None and not n % 256:
                    bar.update(256)
                if deadline is not None and time.monotonic() > deadline:
                    raise LimitError(_("replay stopped at ply {value}: it took more than "
                                       "{time_limit:g} s").format(
                                           value=self._ply + 1, time_limit=time_limit))
                if tok.kind == "move":
                    played.append(self._push_text(tok.text, tok.spec))
                elif tok.kind == "roll":
                    self._roll_text(tok.text)
                elif tok.kind == "comment" and tok.text:
                    here = len(self._actions)
                    before = self.comments.get(here) if chess else None
                    self.comments[here] = f"{before} {tok.text}" if before else tok.text
                elif tok.kind == "nag":
                    self.nags.setdefault(len(self._actions), []).append(int(tok.text))
                elif tok.kind == "variation":
                    self._add_variation(tok)
        except TavreiError:
            while len(self._actions) > mark:
                self.pop()
            self._redo = redo
            self._line_version += 1
            self.comments, self.nags, self.variations = notes
            raise
        else:
            if bar is not None:
                bar.update(len(tokens) - bar.n)
        finally:
            if bar is not None:
                bar.close()
        return played

    def _add_variation(self, token: Token) -> None:
        """Keep a chess record's variation, once it is seen to replay: an alternative
        to the last move, played from the position before it (its own variations
        from the positions in it)."""
        if not self._actions or not isinstance(self._actions[-1], Move):
            raise NotationError(_("a variation at character {at} follows no move it could "
                                  "replace").format(at=token.offset + 1), token.text[:40],
                                where=f"character {token.offset + 1}")
        line = self.copy()     # (cheaper than a new game: the position is not checked again)
        line.pop()
        line.clear_redo()
        try:
            line._play_tokens(tokenize_pgn(token.text), None, None, False)
        except TavreiError as exc:
            raise NotationError(_("variation after ply {ply}: {reason}").format(
                ply=self._ply, reason=exc.args[0]), token.text[:40],
                where=f"character {token.offset + 1}") from None
        if token.text:
            self.variations.setdefault(len(self._actions), []).append(token.text)

    @property
    def plays_chess(self) -> bool:
        """Whether this game is chess as chess notation writes it (no towers, no die:
        orthodox chess): then moves are read and written in SAN (``Nf3``, ``exd5``,
        ``O-O``) as well as in move text, and ``fen()`` gives standard FEN."""
        return self._chess

    def _read_text(self, text: str, spec: MoveSpec | None = None) -> Move:
        """The legal move a text names: SAN or move text in chess, move text otherwise."""
        if self._chess:
            if spec is not None:   # read as move text already (``tokenize_chess``)
                return self._resolve(spec)
            san = parse_san(text)
            if san is None:   # move text the SAN grammar does not read (E2-E4, e2 (1)-e4)
                return self._resolve(parse_move_spec(text))
            if san.castle or (san.from_file and san.from_rank and not san.piece):
                # both squares named (e2-e4, e1g1) or castling: move text says the same,
                # and explains more when it is illegal
                return self._resolve(MoveSpec(
                    text=text, from_square=san.from_file + san.from_rank,
                    to_square=san.to_square, promotion=san.promotion.lower(),
                    castle=san.castle))
            return read_san(self._positions[-1], text, san)
        return self._resolve(spec if spec is not None else parse_move_spec(text))

    def _push_text(self, text: str, spec: MoveSpec | None = None) -> Move:
        ply = self._ply + 1
        try:
            # the tokenizer has read the move already (``Token.spec``): do not read it again
            move = self._read_text(text, spec)
        except IllegalMoveError as exc:
            raise IllegalMoveError(_("ply {ply}: {reason}").format(ply=ply, reason=exc.args[0]),
                                   move_text=text, ply=ply,
                                   position=self.position.string) from None
        except NotationError as exc:
            raise NotationError(_("ply {ply}: {reason}").format(ply=ply, reason=exc.args[0]),
                                text=text,
                                where=f"ply {ply}") from None
        # parse_move returned one of the legal moves: no need to generate them again
        return self._append(move, self.rules.apply(self.position, move))

    def _roll_text(self, face: str) -> None:
        try:
            self.apply_roll(face)
        except IllegalMoveError as exc:
            raise IllegalMoveError(_("ply {ply}: roll @{face}: {reason}").format(
                                       ply=self._ply + 1, face=face, reason=exc.args[0]),
                                   move_text=f"@{face}", ply=self._ply + 1) from None

    def find_move(self, move: Move | str) -> Move:
        """The legal move here that ``move`` (a ``Move`` or move text) names.

        What ``push`` plays, found without playing it: a checker of answers
        can hold an answer against the legal moves first. A ``Move`` built by
        hand may leave out what the rules fill in (castling given as a plain
        volkhv move, e1-g1, is the castling move). None found raises
        ``IllegalMoveError`` saying why, or ``NotationError`` for bad text.

        >>> game = Game("orthodox")
        >>> game.move_text(game.find_move("e2-e4"))
        'e2-e4'
        """
        if isinstance(move, str):
            return self.parse_move(move)
        if not isinstance(move, Move) or not all(
                isinstance(x, int) for x in (move.from_square, move.count, move.to_square,
                                             move.promotion)):
            raise IllegalMoveError(_("not a move: {move}").format(move=repr(move)[:190]),
                                   ply=self._ply + 1)
        return self._match(move)

    def parse_move(self, text: str) -> Move:
        """The legal move that ``text`` names here (in chess also SAN: ``Nf3``);
        explains why if there is none."""
        if not isinstance(text, str):
            raise NotationError(_("a move must be text, got {type}").format(
                type=type(text).__name__), str(text))
        return self._read_text(text)

    def move_text(self, move: Move, position: Position | None = None) -> str:
        """Canonical text of ``move`` in ``position`` (default: the current one)."""
        return write_move(position or self.position, move)

    def san(self, move: Move) -> str:
        """The move's SAN in chess (``Nf3``, ``exd5``, ``O-O``, ``e8=Q+``); in a variant
        with towers, its canonical move text plus ``+`` or ``#`` -- what records write."""
        if self.plays_chess:
            return write_san(self.position, self.find_move(move))
        text = self.move_text(move)
        after = self.rules.apply(self.position, move)
        if self.rules.is_check(after):
            text += "#" if not self.rules.legal_moves(after) else "+"
        return text

    # -- chess notation and python-chess's names -----------------------------------
    def _chess_only(self, name: str, hint: str) -> None:
        if not self.plays_chess:
            raise ChessHabitError(_("{variant} is no chess: Game.{name} is for orthodox chess; "
                                    "here {hint}").format(variant=self.variant.id, name=name,
                                                          hint=hint), name=name, obj=self)

    def fen(self) -> str:
        """The current position as standard FEN (chess only; ``position.string`` holds
        towers and is every variant's)."""
        self._chess_only("fen", _("the position string is game.position.string"))
        return self.position.fen()

    def parse_san(self, text: str) -> Move:
        """The legal move a SAN text names (chess only; ``parse_move`` reads it too)."""
        self._chess_only("parse_san", _("game.parse_move('e2-e4') gives the legal Move "
                                        "that text names"))
        return self.parse_move(text)

    def push_san(self, text: str) -> Move:
        """Play a move given in SAN (chess only; ``push`` takes SAN too)."""
        self._chess_only("push_san", _("Game.push takes the move text itself: "
                                       "game.push('e2-e4')"))
        return self.push(text)

    @classmethod
    def from_fen(cls, fen: str, variant: Any = "orthodox") -> Game:
        """A game of orthodox chess (or of ``variant``) from a FEN or position string,
        as ``chess.Board(fen)``."""
        return cls(variant, fen)

    def piece_at(self, square: int | str) -> Any:
        """The tavrel on top of the tower on ``square`` (a number or a name such as
        ``"e2"``), or None: in chess the piece there, as python-chess's ``piece_at``;
        the whole tower is ``game.position.tower(square)``."""
        return self.position.piece_at(square)

    def attackers(self, color: int, square: int | str) -> list[int]:
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

    # -- resolving text to a legal move ------------------------------------------
    def _match(self, move: Move) -> Move:
        if self.rules.is_chance_node(self.position):
            raise IllegalMoveError(_("{move}: roll the die first (no move is playable before "
                                     "the roll)").format(move=self._safe_text(move)),
                                   move_text=self._safe_text(move), ply=self.ply + 1,
                                   position=self.position.string)
        # only the moves between the move's squares can be it (a castling too)
        legal = self.rules.legal_moves_from(self.position, move.from_square, move.to_square)
        if move in legal:
            return move
        for m in legal:  # castling given as a plain volkhv move, e.g. e1-g1
            if m.key == move.key and m.promotion == move.promotion:
                return m
        raise IllegalMoveError(self._why_illegal(move.from_square, move.count,
                                                 move.to_square, legal),
                               move_text=self._safe_text(move), ply=self._ply + 1,
                               position=self.position.string)

    def _safe_text(self, move: Move) -> str:
        try:
            return self.move_text(move)
        except (IndexError, KeyError, NotationError):
            return repr(move)[:120]

    def _resolve(self, spec: MoveSpec) -> Move:
        pos = self._positions[-1]
        rules = self.rules
        if rules.is_chance_node(pos):
            raise IllegalMoveError(_("{move}: roll the die first").format(move=repr(spec.text)),
                                   move_text=spec.text, ply=self.ply + 1)
        g = pos.geometry
        if spec.castle:
            for m in self.rules.legal_moves(pos):
                if m.castling and (m.to_square > m.from_square) == (spec.castle == "short"):
                    return m
            said = (_("short (0-0) castling is not legal here") if spec.castle == "short"
                    else _("long (0-0-0) castling is not legal here"))
            raise IllegalMoveError(said, move_text=spec.text, ply=self.ply + 1)
        index = g.index_of   # (``g.parse``'s dictionary; it says what is wrong on a miss)
        fr = index.get(spec.from_square)
        to = index.get(spec.to_square)
        if fr is None or to is None:
            try:
                fr = g.parse(spec.from_square)
                to = g.parse(spec.to_square)
            except NotationError as exc:
                raise NotationError(_("{text!r}: {reason}").format(text=spec.text,
                                                                     reason=exc.args[0]),
                                    text=spec.text) from None
        count = spec.count if spec.count is not None else len(pos.board[fr])
        promo = 0
        if spec.promotion:
            letter = spec.promotion.upper()
            if letter not in pos.pieces.by_letter:
                raise NotationError(_("{text!r}: {promotion!r} is not a piece letter").format(
                    text=spec.text, promotion=spec.promotion),
                                    text=spec.text)
            promo = pos.pieces.kind(letter)
        # the text names its squares: only the moves between them can match
        legal = rules.legal_moves_from(pos, fr, to)
        if len(legal) == 1 and not promo:   # the common case: one move between the squares
            m = legal[0]
            if m.count == count and m.from_square == fr and m.to_square == to:
                return m
        found = [m for m in legal if m.key == (fr, count, to)]
        if promo:
            found = [m for m in found if m.promotion == promo]
        if len(found) == 1 or (found and not promo and all(m.castling for m in found)):
            return found[0]
        if len(found) > 1:
            letters = ", ".join(pos.pieces.letter(m.promotion) for m in found)
            raise IllegalMoveError(_("{move}: name the promotion (={letters})").format(
                move=repr(spec.text), letters=letters), move_text=spec.text, ply=self.ply + 1)
        raise IllegalMoveError(_("{move}: {reason}").format(
                                   move=repr(spec.text),
                                   reason=self._why_illegal(fr, count, to, legal)),
                               move_text=spec.text, ply=self.ply + 1,
                               position=pos.string)

    def _why_illegal(self, fr: int, count: int, to: int, legal: list[Move]) -> str:
        """A reason a learner can act on, in the language in force (a whole sentence per
        case, so a translation can put the words in its own order)."""
        pos = self.position
        g = pos.geometry
        names = pos.pieces
        def named(kind: int) -> str:
            return speech.kind_name(names.by_kind[kind])

        if not (0 <= fr < g.size and 0 <= to < g.size):
            return _("a square is off the board")
        a, b = g.name(fr), g.name(to)
        tower = pos.board[fr]
        if not tower:
            return _("there is no tower on {square}").format(square=a)
        top = tower[-1]
        if top.color != pos.turn:
            said = (_("the tower on {square} is white's; it is black's move") if top.color == 0
                    else _("the tower on {square} is black's; it is white's move"))
            return said.format(square=a)
        if not 1 <= count <= len(tower):
            return ngettext("the tower on {square} has {height} tavrel(s); cannot take {count}",
                            "the tower on {square} has {height} tavrel(s); cannot take {count}",
                            len(tower)).format(square=a, height=len(tower), count=count)
        if count < len(tower) and not self.rules.splits:
            return _("towers may not be split in this variant")
        dest = pos.board[to]
        if dest and dest[-1].kind == KING and not self.rules.king_capture:
            return _("nothing may be placed on a {king} ({square})").format(
                king=named(KING), square=b)
        if any(m.key == (fr, count, to) for m in self.rules.pseudo_moves(pos)):
            return _("it would leave the {king} attacked").format(king=named(KING))
        if pos.roll is not None:
            return _("the die shows {face}: the {piece} on {square} may not move, or cannot "
                     "reach {to}").format(face=pos.roll, piece=named(top.acting_kind),
                                          square=a, to=b)
        return _("the {piece} on {square} cannot move to {to}").format(
            piece=named(top.acting_kind), square=a, to=b)

    # -- copies, records, pictures -------------------------------------------------
    def copy(self) -> Game:
        """An independent game at the same point: playing on either never changes the other
        (positions are immutable and shared; every list, the comments and the tags are new)."""
        other = Game.__new__(Game)
        other.rules = self.rules
        other._chess = self._chess
        other._positions = list(self._positions)
        other._actions = list(self._actions)
        other._redo = list(self._redo)
        other._ply = self._ply
        other._line_version = self._line_version
        other._keys = Counter(self._keys)
        other._counted = self._counted
        other.comments = dict(self.comments)
        other.nags = {k: list(v) for k, v in self.nags.items()}
        other.variations = {k: list(v) for k, v in self.variations.items()}
        other.tags = dict(self.tags)
        other.seed = self.seed
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()   # the rules are shared on purpose; everything else is new

    def action_texts(self) -> list[str]:
        """Each action as text in the position where it was played."""
        out = []
        for pos, action in zip(self._positions, self._actions):
            out.append(f"@{action.face}" if isinstance(action, Roll)
                       else write_move(pos, action))
        return out

    def record(self, **tags: str) -> str:
        """The game as a record (tag pairs, then movetext); ``pgn()`` writes a game of
        chess as chess programs read it.

        A shipped variant is named by its id (``[Variant "tavreli"]``). Any other --
        a variant file, options changed -- also writes its whole definition in a
        ``VariantData`` tag, so the record replays under exactly these rules anywhere,
        without the file (whose name may be taken, or mean something else, there)."""
        return write_record(self, **self._variant_tags(tags))

    def _variant_tags(self, tags: dict[str, str]) -> dict[str, str]:
        """``tags`` with the definition of a variant that is not shipped (see ``record``)."""
        if is_shipped(self.rules):
            self.tags.pop(VARIANT_DATA_TAG, None)
        else:
            tags.setdefault(VARIANT_DATA_TAG, json.dumps(
                variant_data(self.rules), ensure_ascii=False, separators=(",", ":")))
        return tags

    def pgn(self, **tags: str) -> str:
        """The game as standard PGN (chess only), as ``str(chess.pgn.Game)`` gives it:
        the seven tags' defaults, ``[Variant "Standard"]``, a set start as ``[SetUp
        "1"]`` and ``[FEN]``, the moves in SAN with their comments, NAGs and variations.
        Keyword tags override ``game.tags``."""
        self._chess_only("pgn", _("game.record() writes the record"))
        return write_pgn(self, **self._variant_tags(tags))

    @classmethod
    def from_record(cls, text: str, variant: Any = None, *,
                    allow_files: bool = False) -> Game:
        """The game a record tells (``read_record``)."""
        return read_record(text, variant=variant, allow_files=allow_files)

    def __repr__(self) -> str:
        return (f"<Game {self.variant.id} ply {self.ply} {self.position.turn_name} to move: "
                f"{self.position.string!r}>")

    def _repr_svg_(self) -> str | None:
        """The board with the last move and any check marked (drawn by ``render``)."""
        return picture("game", self)


#: Movetext of this many tokens or more replays with a progress bar (shown after a second).
LONG_MOVETEXT = 1000

#: How long ``read_record`` replays by default, in seconds: every legal record of the
#: shipped variants replays in well under a second; a hostile one may not run for hours.
DEFAULT_REPLAY_SECONDS = 60.0


def replay_deadline(time_limit: float | None) -> float | None:
    """The ``time.monotonic()`` past which a replay stops, for ``time_limit`` seconds (a
    finite number 0 or more; None: no limit). ``nan`` compares false with every time, so
    taken as given it would silently mean no limit: it is refused, as is any other
    number that is not a time."""
    if time_limit is None:
        return None
    try:
        seconds = float(time_limit)
    except (TypeError, ValueError, OverflowError):
        seconds = math.nan
    if isinstance(time_limit, (bool, str)) or not 0 <= seconds < math.inf:
        raise ArgumentError(_("time_limit must be a finite number of seconds, 0 or more (None "
                              "for no limit), not {value}").format(value=quote(time_limit)))
    return time.monotonic() + seconds


def read_record(text: str, variant: Any = None, *, allow_files: bool = False,
                time_limit: float | None = DEFAULT_REPLAY_SECONDS,
                progress: bool | str = True) -> Game:
    """A ``Game`` replayed from a record (the text: ``notation.record``). Bad records
    raise ``RecordError`` saying what and where.

    The rules: ``variant`` if given (an id, a file, or rules); else the record's
    ``VariantData`` tag (a whole definition, see ``Game.record``); else its ``Variant``
    tag, which must name a shipped variant. A record read from outside -- an upload
    in a Voila server -- never makes the package open a path it names: the error is the
    same whatever is (or is not) at that path. ``allow_files=True`` lets the tag name a
    variant file, for records you wrote yourself. Replaying stops with a ``LimitError``
    after ``time_limit`` seconds (None: no limit). ``progress``: as ``Game.play`` (a
    ``tqdm.auto`` bar for a long record once it has taken a second).
    """
    tags, movetext = parse_record(text)
    chosen = variant if variant is not None else _record_rules(tags, allow_files)
    start = start_tag(tags)
    guessed = variant is None and "Variant" not in tags and VARIANT_DATA_TAG not in tags
    seed = None
    if "Seed" in tags:
        try:
            seed = int(tags["Seed"])
        except ValueError:
            raise RecordError(_("tag Seed: expected an integer, got {value}").format(
                value=repr(tags["Seed"]))) from None
    try:
        game = Game(chosen, start, seed=seed)
    except TavreiError as exc:
        if guessed and start is not None and _reads_as_chess(start, movetext):
            raise RecordError(_chess_hint(_("its FEN tag is a chess position"))) from exc
        raise RecordError(_("record header: {reason}").format(reason=exc)) from exc
    game.tags = dict(tags)
    try:
        tokens = tokenize_chess(movetext) if game.plays_chess else tokenize(movetext)
        if sum(1 for t in tokens if t.kind in ("move", "roll")) > MAX_RECORD_TOKENS:
            raise RecordError(_("record has more than {limit} moves and rolls").format(
                limit=MAX_RECORD_TOKENS))
        deadline = replay_deadline(time_limit)
        game._play_tokens(tokens, deadline, time_limit, progress)
    except (NotationError, IllegalMoveError) as exc:
        if guessed and _reads_as_chess(start, movetext):
            raise RecordError(_chess_hint(_("this looks like chess SAN"))
                              + " (" + exc.args[0] + ")") from exc
        raise
    return game


def _chess_hint(what: str) -> str:
    """What a record with no Variant tag that reads as chess is told (``what``: why)."""
    return _('{what}: add [Variant "orthodox"] to the record, or read it with '
             'variant="orthodox" (a record without a Variant tag is Tavreli)').format(what=what)


def _reads_as_chess(start: str | None, movetext: str) -> bool:
    """Whether a record that did not read as Tavreli is chess: from its start position
    (if any), its first moves play in orthodox chess, and one of them at least is SAN
    that no Tavreli record holds (``e4``, ``Nf3``: move text such as ``e2-e4`` reads
    in both, so it tells nothing)."""
    try:
        game = Game("orthodox", start)
        tokens = [t for t in tokenize_pgn(movetext) if t.kind == "move"][:40]
    except TavreiError:
        return False
    seen_san = False
    for token in tokens:
        try:
            game._push_text(token.text)
        except TavreiError:
            break
        san = parse_san(token.text)
        seen_san = seen_san or (san is not None and not san.castle
                                and not (san.from_file and san.from_rank and not san.piece))
    return seen_san


def read_games(source: str | os.PathLike[str] | IO[str], variant: Any = None, *,
               allow_files: bool = False,
               time_limit: float | None = DEFAULT_REPLAY_SECONDS) -> Iterator[Game]:
    """Each game of a file of many records, in turn (as ``chess.pgn.read_game`` is
    called until it gives None): ``source`` is an open text file, a path, or the text.

    A record begins at its first tag line after the movetext of the one before (a
    file of bare movetext is one game). Each is replayed as ``read_record`` does; one
    that does not read raises ``RecordError`` naming the game's number and first
    line, after the games before it were given.

    >>> text = '[Variant "orthodox"]\\n\\n1. e2-e4 *\\n\\n[Variant "tavreli"]\\n\\n1. d2-d4 *\\n'
    >>> [g.move_text(g.moves[0], g.positions[0]) for g in read_games(text)]
    ['e2-e4', 'd2-d4']
    """
    replay_deadline(time_limit)   # a bad limit is said before anything is read
    if isinstance(source, str) and _is_record_text(source):
        lines: Iterable[str] = io.StringIO(source)
    elif isinstance(source, (str, os.PathLike)):
        lines = _record_file_lines(source)
    else:
        lines = source
    number, first, in_moves, in_comment = 0, 1, False, False
    chunk: list[str] = []
    for line_no, line in enumerate(lines, 1):
        if line_no == 1:
            line = line.removeprefix("\ufeff")   # a byte order mark starts no game
        stripped = line.strip()
        if in_comment:   # a comment's next line may start with "[" (a wrapped [%clk])
            in_comment = _ends_in_comment(line, True)
        elif stripped.startswith("[") and in_moves:
            number += 1
            yield _one_of_many("".join(chunk), number, first, variant, allow_files, time_limit)
            chunk, in_moves, first = [], False, line_no
        elif stripped and not stripped.startswith("["):
            in_moves = True
            in_comment = _ends_in_comment(line, False)
        chunk.append(line if line.endswith("\n") else line + "\n")
    if any(c.strip() for c in chunk):
        yield _one_of_many("".join(chunk), number + 1, first, variant, allow_files, time_limit)


def _ends_in_comment(line: str, inside: bool) -> bool:
    """Whether a line of movetext ends inside a ``{...}`` comment (``inside``: it
    starts inside one); a ``;`` comment ends with its line."""
    pos = 0
    while True:
        if inside:
            end = line.find("}", pos)
            if end < 0:
                return True
            inside, pos = False, end + 1
        else:
            opened = line.find("{", pos)
            semi = line.find(";", pos)
            if opened < 0 or 0 <= semi < opened:
                return False
            inside, pos = True, opened + 1


def _is_record_text(source: str) -> bool:
    """Is ``source`` a record's text rather than a file's name? Text with a line break or
    a tag is; so is one line of movetext ("1. e2-e4 e7-e5 *": a move number, or words
    with spaces), unless a file of that name exists."""
    if "\n" in source or source.lstrip().startswith("["):
        return True
    if not source.strip() or os.path.lexists(source):
        return False
    return bool(re.match(r"\s*\d+\s*\.", source)) or " " in source.strip()


def _record_file_lines(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of a file of records, refused in one line (a ``RecordError`` naming the
    file) when it is not a regular file -- a FIFO is not waited on, a folder or a device
    not read -- or not UTF-8 text (naming the line)."""
    name = os.fspath(path)

    def refused(reason: str) -> RecordError:
        return RecordError(_("{path}: cannot read the records: {reason}").format(
            path=name, reason=reason))
    fd = open_regular(name, refused)
    longest = 4 * MAX_RECORD_BYTES   # UTF-8 takes at most 4 bytes a character
    with open(fd, "rb") as handle:
        for number, raw in enumerate(iter(lambda: handle.readline(longest + 1), b""), 1):
            if len(raw) > longest:   # no record holds such a line: not read to its end
                raise RecordError(_("{path}: line {line} is longer than a record may be "
                                    "({limit} characters)").format(
                                        path=name, line=number, limit=MAX_RECORD_BYTES))
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(_("{path}: line {line} is not UTF-8 text ({reason} at byte "
                                    "{start} of the line)").format(
                                        path=name, line=number, reason=exc.reason,
                                        start=exc.start)) from None


def _one_of_many(text: str, number: int, line: int, variant: Any, allow_files: bool,
                 time_limit: float | None) -> Game:
    try:
        return read_record(text, variant, allow_files=allow_files, time_limit=time_limit)
    except TavreiError as exc:   # a bad tag, an illegal move: the game's number says which
        raise RecordError(_("game {number} (from line {line}): {reason}").format(
            number=number, line=line, reason=exc.args[0])) from exc


#: The record tag that carries a whole variant definition (JSON), see ``Game.record``.
VARIANT_DATA_TAG = "VariantData"


def _record_rules(tags: dict[str, str], allow_files: bool) -> Any:
    """The rules a record's tags name (see ``read_record``)."""
    data = tags.get(VARIANT_DATA_TAG)
    if data is not None:
        if len(data) > MAX_VARIANT_DATA_CHARS:
            raise RecordError(_("tag {tag} is {count} characters; the limit is "
                                "{limit}").format(
                                    tag=VARIANT_DATA_TAG, count=len(data),
                                    limit=MAX_VARIANT_DATA_CHARS))
        try:
            parsed = json.loads(data)
        except (ValueError, RecursionError):
            raise RecordError(_("tag {tag}: not a variant definition (expected "
                                "JSON as Game.record writes it)").format(
                                    tag=VARIANT_DATA_TAG)) from None
        try:
            return variant_from_data(parsed, where=f"tag {VARIANT_DATA_TAG}")
        except TavreiError as exc:
            raise RecordError(_("record header: {reason}").format(reason=exc)) from exc
    name = record_variant(tags.get("Variant", "tavreli"))
    if allow_files or name in variants():
        return name
    raise RecordError(_("record header: Variant {value} is not a shipped variant (`tavrei-lab "
                        "variants` lists them); to replay it under a variant file's rules, "
                        "pass that file as the variant").format(value=quote(name)))
