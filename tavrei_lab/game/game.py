"""The ``Game``: a start position, the moves (and die rolls) played on it, undo and
redo, outcomes, move text read and written, and records written (read in
``game.records``). The package's docstring says what a ``Game`` promises.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

from tavrei_lab.core.move import Move, Roll
from tavrei_lab.core.pictures import picture
from tavrei_lab.core.position import Position, check_limits
from tavrei_lab.errors import (
    IllegalMoveError,
    LimitError,
    NotationError,
    PositionError,
    RecordError,
    TavreiError,
    quote,
)
from tavrei_lab.game.arguments import (
    DEFAULT_REPLAY_SECONDS,
    LONG_MOVETEXT,
    check_seed,
    looks_like_position,
    position_variant,
    replay_deadline,
    rules_for,
)
from tavrei_lab.game.chess_names import ChessNames, require_chess
from tavrei_lab.game.finding import match, resolve
from tavrei_lab.game.played import Action, LegalMoves, PlayedMove, Ply, Turn, repetition_key
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.moves import MoveSpec, parse_move_spec, write_move
from tavrei_lab.notation.movetext import Token, tokenize
from tavrei_lab.notation.pgn import tokenize_chess, tokenize_pgn
from tavrei_lab.notation.position_string import read_position
from tavrei_lab.notation.record import (
    MAX_RECORD_TOKENS,
    parse_record,
    record_variant,
    start_tag,
    write_pgn,
    write_record,
)
from tavrei_lab.notation.san import parse_san, plays_chess, read_san, write_san
from tavrei_lab.rules.base import Outcome
from tavrei_lab.variant import (
    MAX_VARIANT_DATA_CHARS,
    is_shipped,
    variant_data,
    variant_from_data,
    variants,
)

#: The record tag that carries a whole variant definition (JSON), see ``Game.record``.
VARIANT_DATA_TAG = "VariantData"


class Game(ChessNames):
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
            variant, position = position_variant(variant), variant
        self.rules = rules_for(variant, options)
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

    def peek(self) -> Action:
        """The last action played (a move, or a die roll); raises at the start."""
        if not self._actions:
            raise IllegalMoveError(_("nothing played yet: the game is at its start"))
        return self._actions[-1]

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
                keys[repetition_key(positions[i])] += 1
        self._counted = len(positions)
        return keys[repetition_key(self.position)]

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
                key = repetition_key(self.position)
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
                return resolve(self.position, self.rules, spec, self._ply + 1)
            san = parse_san(text)
            if san is None:   # move text the SAN grammar does not read (E2-E4, e2 (1)-e4)
                return resolve(self.position, self.rules, parse_move_spec(text), self._ply + 1)
            if san.castle or (san.from_file and san.from_rank and not san.piece):
                # both squares named (e2-e4, e1g1) or castling: move text says the same,
                # and explains more when it is illegal
                return resolve(self.position, self.rules, MoveSpec(
                    text=text, from_square=san.from_file + san.from_rank,
                    to_square=san.to_square, promotion=san.promotion.lower(),
                    castle=san.castle), self._ply + 1)
            return read_san(self._positions[-1], text, san)
        return resolve(self.position, self.rules,
                       spec if spec is not None else parse_move_spec(text), self._ply + 1)

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
        return match(self.position, self.rules, move, self._ply + 1)

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

    @classmethod
    def from_fen(cls, fen: str, variant: Any = "orthodox") -> Game:
        """A game of orthodox chess (or of ``variant``) from a FEN or position string,
        as ``chess.Board(fen)``."""
        return cls(variant, fen)

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
        require_chess(self, "pgn", _("game.record() writes the record"))
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
