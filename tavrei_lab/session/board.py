"""``BoardSession``: everything a board knows and does, with no page and no widget.

chessground's split, on the Python side: the session is the board's state (the
game, the line and side lines, the half-made choice, a teacher's marks, the
engine's hint, who plays each side) and its actions, each a method that
changes that state and returns an ``Update``: the sentence the status line
says, the effects the next drawing plays (a slide, a flash, a rolled die) and
the promotion to ask for. The widget (``tavrei_lab.widgets.Board``) is layout
plus "show this": it calls an action and draws what the session then holds.
So a whole game -- clicks, drops, undo, a side line, the computer, the die --
plays here with no widget library installed.

A click walks through a small state machine:

1. no tower selected: a click on an own-topped tower selects it (a click on a
   layer of its strip also chooses how many tavrels to take: layer ``i`` of a
   tower of height ``h`` means the top ``h - i``);
2. a tower selected: a click on a lit destination plays the move; a click on
   the selected tower's layer changes the count, on the tower itself clears
   the selection; a click on another own tower selects that one; anything
   else is explained (the game says why it is illegal).

A drop plays the move if it is legal; otherwise the square flashes and the
status says why. Either way a refused move changes nothing.

Stepping, takebacks and side lines follow lichess's analysis board: ``step``
and ``go_to`` walk the line (``Game.pop``/``Game.redo``: the line is kept);
``undo`` takes the last move back to a person's turn, and a move played after
it replaces what was undone (a takeback); a move played where the line goes
on without an undo first starts a side line on a copy of the game, and
``back_to_game`` returns to the game's own moves.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.tavrel import BLACK, COLOR_NAMES, WHITE
from tavrei_lab.errors import ArgumentError, IllegalMoveError, TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext, speaking
from tavrei_lab.session.choices import CHOOSE_PROMOTION, PROMOTION_FIRST, Choices
from tavrei_lab.session.drawing import draw, has_die
from tavrei_lab.session.engine_words import best_move_text
from tavrei_lab.session.line import MoveLine, entry_label, where_text
from tavrei_lab.session.players import HUMAN, player_label, player_options
from tavrei_lab.session.squares import square_index
from tavrei_lab.session.status import face_text, move_said, not_yours, selection_text, state_text

#: How many moves the computer may play in a row from one trigger (both sides
#: played by the computer): a guard so a notebook cell always returns.
MAX_COMPUTER_PLIES = 300

#: A lesson's hook: ``callback(owner, move)``, the owner being the widget (or the session).
MoveListener = Callable[[Any, Move], Any]


@dataclasses.dataclass
class Update:
    """What the view must show after an action.

    ``message``: the status line's sentence(s); ``effects``: what the next
    drawing plays (``{"slide": [[from, to], ...], "flash": [square, ...],
    "roll": True}``); ``promotion``: the moves to choose between (one per
    promotion; empty when no choice is open); ``new_game``: a different game
    is on the board (the view resets what belongs to the old one).
    """

    message: str = ""
    effects: dict[str, Any] = dataclasses.field(default_factory=dict)
    promotion: list[Move] = dataclasses.field(default_factory=list)
    new_game: bool = False


class BoardSession:
    """A board's game and everything half-done on it, driven by actions.

    ``BoardSession(game, white="human", black="greedy", auto_roll=False,
    language=None)``. Every action returns an ``Update``; the state is read
    from public attributes (``game``, ``selected``, ``count``, ``arrows``,
    ``highlights``, ``flipped``, ``message``) and methods (``legal_moves``,
    ``destinations``, ``moves_by_tower``, ``svg``).
    """

    def __init__(self, game: Game | None = None, *, white: str = HUMAN, black: str = HUMAN,
                 auto_roll: bool = False, flipped: bool = False,
                 language: str | None = None) -> None:
        with speaking(language) as chosen:
            #: the language every sentence of the session is said in
            self.language = chosen
            player_options(white, black)       # an unknown player raises TavreiError
        self.game: Game = game if game is not None else Game()
        self.players: dict[int, str] = {WHITE: white, BLACK: black}
        self.auto_roll = auto_roll
        self.flipped = flipped
        self.show_movable = False
        self.choices = Choices()
        self.arrows: list[tuple[Any, ...]] = []
        self.highlights: list[Any] = []
        #: the engine's arrow and the position it belongs to (Best move)
        self.hint: tuple[Any, tuple[str, str, str]] | None = None
        self.message = ""
        #: the game itself while a side line is explored on a copy (``game``)
        self.main_game: Game | None = None
        #: actions before the side line's first move, and the game's own move there
        self.branch: int | None = None
        self.branch_text = ""
        self.took_back = False            # undo ran last: the next move replaces
        self.listeners: list[MoveListener] = []
        #: what listeners receive as their first argument (the widget sets itself)
        self.owner: Any = self
        self.busy = False                 # True while listeners judge a move
        self._effects: dict[str, Any] = {}
        self._rejected: Update | None = None
        self._dropping = False
        self._line = MoveLine()
        self._legal_for: tuple[Any, list[Move]] | None = None
        self._agents: dict[int, tuple[str, Any]] = {}
        self._searchers: dict[str, Any] = {}

    # == reading the state =========================================================
    @property
    def selected(self) -> int | None:
        return self.choices.selected

    @property
    def count(self) -> int | None:
        return self.choices.count

    @property
    def pending_promotion(self) -> list[Move]:
        return self.choices.pending_promotion

    def legal_moves(self) -> list[Move]:
        """The legal moves now (cached per position: a click asks several times)."""
        pos = self.game.position
        if self._legal_for is None or self._legal_for[0] is not pos:
            moves = [] if self.game.is_chance_node() else list(self.game.legal_moves())
            self._legal_for = (pos, moves)
        return self._legal_for[1]

    def destinations(self) -> list[int]:
        """Squares the selected unit (``selected``, ``count``) may move to."""
        if self.selected is None:
            return []
        return sorted({m.to_square for m in self.legal_moves()
                       if m.from_square == self.selected and m.count == self.count})

    def counts_from(self, square: int) -> list[int]:
        """How many tavrels of the tower on ``square`` may move now."""
        return sorted({m.count for m in self.legal_moves() if m.from_square == square})

    def greyed(self) -> list[str]:
        """Own towers that may not move now because of the die face (die games only)."""
        pos = self.game.position
        if pos.roll is None or self.game.is_chance_node():
            return []
        movable = {m.from_square for m in self.legal_moves()}
        return [pos.geometry.name(s) for s, tower in enumerate(pos.board)
                if tower and tower[-1].color == pos.turn and s not in movable]

    def moves_by_tower(self) -> dict[str, dict[str, list[str]]]:
        """Where each tower may go now, per count: ``{"e2": {"1": ["e3", "e4"]}}``.

        The view gets it with every drawing, so a drag shows its destinations
        without asking Python. Empty when no person may move.
        """
        if self.pending_promotion or not self.is_human_turn() or self.game.outcome():
            return {}
        names = self.game.position.geometry.names
        out: dict[str, dict[str, list[str]]] = {}
        for m in self.legal_moves():
            dests = out.setdefault(names[m.from_square], {}).setdefault(str(m.count), [])
            if names[m.to_square] not in dests:
                dests.append(names[m.to_square])
        return out

    def player(self, color: int) -> str:
        return self.players[color]

    def is_human_turn(self) -> bool:
        return self.players[self.game.position.turn] == HUMAN

    def line(self) -> MoveLine:
        """The whole line -- what was played plus what can be redone -- with its texts."""
        self._line.follow(self.game)
        return self._line

    def state_text(self) -> str:
        """Whose turn, check, mate, stalemate, draws: the first half of the status line."""
        with speaking(self.language):
            return state_text(self.game)

    def where_text(self) -> str:
        """Which position is shown while stepping: "After 2... @B b7-b6 (ply 4 of 9)."."""
        with speaking(self.language):
            return where_text(self.line(), self.game.action_count, self.game.ply,
                              self.branch, self.branch_text)

    def game_traits(self) -> dict[str, Any]:
        """The shown position in plain values: its text, ply, side to move and result."""
        game = self.game
        outcome = game.outcome()
        return {"position_string": game.position.string, "ply": game.ply,
                "side_to_move": COLOR_NAMES[game.position.turn],
                "outcome": None if outcome is None else outcome.result()}

    def movable_marks(self) -> list[tuple[str, str]]:
        """With "show movable" on: every tower that can move, tinted green."""
        if not self.show_movable:
            return []
        return [(name, "green") for name in self.moves_by_tower()]

    def svg(self, *, size: int | None = None, letter_px: float | None = None) -> str:
        """The board as the session shows it: selection, destinations, marks, hint."""
        split = self.count if self.selected is not None else None
        hint = self.hint
        engine = [hint[1]] if hint is not None and hint[0] is self.game.position else []
        return draw(self.game, flipped=self.flipped, selected=self.selected,
                    destinations=self.destinations() or None, split_count=split,
                    size=size, arrows=self.arrows + engine,
                    highlights=self.highlights + self.movable_marks(), letter_px=letter_px)

    def square(self, square: int | str) -> int:
        """A square of this board by index or name (``"e2"``); a bad one raises ``TavreiError``."""
        return square_index(self.game.position.geometry, square)

    # == the actions ===============================================================
    def click(self, square: int | str, layer: int | None = None) -> Update:
        """A click on ``square`` (layer ``layer`` of its strip); see the module."""
        with speaking(self.language):
            square = self.square(square)
            refusal = self._refusal()
            if refusal:
                self._flash(square)
                return self._done([refusal])
            pos = self.game.position
            if self.selected is not None:
                found = [m for m in self.legal_moves()
                         if m.key == (self.selected, self.count, square)]
                if found:
                    return self._play(found)
                if square == self.selected:
                    if layer is not None:
                        return self._choose(len(pos.board[square]) - layer)
                    self.choices.deselect()
                    return self._done([_("Selection cleared.")])
            tower = pos.board[square]
            if tower and tower[-1].color == pos.turn:
                return self._select(square, layer)
            self._flash(square)
            if self.selected is None:
                return self._done([not_yours(pos, square)])
            return self._done([self._why_not(Move(self.selected, self.count or 1, square))])

    def drop(self, from_square: int | str, to_square: int | str,
             count: int | None = None) -> Update:
        """Dropping the top ``count`` of the tower on ``from_square`` onto ``to_square``.

        ``count`` None means the whole tower (or, if the whole tower cannot
        move, the largest part that can).
        """
        with speaking(self.language):
            from_square, to_square = self.square(from_square), self.square(to_square)
            pos = self.game.position
            refusal = self._refusal()
            if refusal:
                self._flash(from_square)
                return self._done([refusal])
            tower = pos.board[from_square]
            if not tower or tower[-1].color != pos.turn:
                self._flash(from_square)
                return self._done([not_yours(pos, from_square)])
            if count is None:
                count = self.default_count(from_square)
            self.close_choices()
            found = [m for m in self.legal_moves() if m.key == (from_square, count, to_square)]
            if found:
                self._dropping = True   # the tower already stands there: no slide
                try:
                    return self._play(found)
                finally:
                    self._dropping = False
            self._flash(to_square)
            return self._done([self._why_not(Move(from_square, count, to_square))])

    def choose_count(self, count: int) -> Update:
        """Take ``count`` tavrels of the selected tower."""
        with speaking(self.language):
            return self._choose(count)

    def choose_promotion(self, move: Move) -> Update:
        """Play the promotion picked among those offered."""
        with speaking(self.language):
            try:
                move = self.choices.take_promotion(move, self.game.position)
            except IllegalMoveError as exc:   # offered in a position no longer shown
                return self._done([str(exc)])
            return self._push(move)

    def play(self, move: Move | str) -> Update:
        """Play a move (``Move`` or move text) as if it had been clicked."""
        with speaking(self.language):
            if isinstance(move, str):
                try:
                    move = self.game.parse_move(move)
                except TavreiError as exc:
                    return self._done([_("Illegal: {reason}.").format(reason=exc)])
            found = [m for m in self.legal_moves() if m == move or
                     (m.key == move.key and m.promotion == move.promotion)]
            if not found:
                return self._done([self._why_not(move)])
            return self._push(found[0])

    def roll(self) -> Update:
        """Roll the die; skips and passes are announced."""
        with speaking(self.language):
            game = self.game
            if not game.is_chance_node():
                if not has_die(game):
                    why = _("No roll is due: this game has no die.")
                elif game.position.turn == WHITE:
                    why = _("No roll is due: white must move first.")
                else:
                    why = _("No roll is due: black must move first.")
                return self._done([why])
            self.close_choices()
            messages = [self._roll_once()]
            return self._done(messages + self.go_on())

    def flip(self) -> Update:
        with speaking(self.language):
            self.flipped = not self.flipped
            return self._done([_("Board flipped.")])

    def computer_move(self) -> Update:
        """Let the computer play the side to move (its agent, or ``random`` for a person's side)."""
        with speaking(self.language):
            game = self.game
            if game.outcome() is not None:
                return self._done([_("The game is over.")])
            messages = []
            if game.is_chance_node():
                messages.append(self._roll_once())
                if game.is_chance_node() or game.outcome() is not None:
                    return self._done(messages)
            if self.player(game.position.turn) != HUMAN:
                agent = self.agent(game.position.turn)
            else:
                from tavrei_lab.engine.agents import make_agent
                agent = make_agent("random", game.seed)
            move = agent.choose(game)
            messages.append(self._computer_text(move, agent))
            if not self._along_the_line(move):
                self.game.push(move)
            self._slide(move)
            self.close_choices()
            return self._done(messages + self.go_on())

    def best_move(self, agent: str = "play:1s") -> Update:
        """The engine's best move here, shown as an arrow (``hint``) and described; nothing
        is played. ``agent`` is an agent spec that searches (``"alphabeta:3"``)."""
        with speaking(self.language):
            game = self.game
            if game.outcome() is not None:
                return self._done([_("The game is over: there is no move to look for.")])
            if game.is_chance_node():
                return self._done([_("Roll the die first: the best move depends on the face.")])
            from tavrei_lab.engine.agents import SearchAgent, make_agent
            searcher = self._searchers.get(agent)
            if searcher is None:
                searcher = make_agent(agent, seed=0)
                if not isinstance(searcher, SearchAgent):
                    raise TavreiError(f"best_move needs an agent that searches (play:1s, "
                                      f"alphabeta:3, level:5 ...), not {agent!r}")
                self._searchers[agent] = searcher
            move = searcher.choose(game)
            pos = game.position
            names = pos.geometry.names
            self.hint = (pos, (names[move.from_square], names[move.to_square], "blue"))
            return self._done([best_move_text(game, move, searcher.name, searcher.last)])

    # -- stepping, takebacks, side lines -------------------------------------------
    def go_to(self, index: int) -> Update:
        """Show the game after its first ``index`` actions (moves and rolls)."""
        with speaking(self.language):
            game = self.game
            index = max(0, min(int(index), len(self.line())))
            while game.action_count > index:
                game.pop()
            while game.action_count < index and game.can_redo():
                game.redo()
            self.took_back = False
            self.close_choices()
            return self._done([self.where_text()])

    def go_to_ply(self, ply: int) -> Update:
        """Show the position after ``ply`` moves of the line (``0``: the start).
        A ply past the line raises ``TavreiError``."""
        with speaking(self.language):
            line = self.line()
            if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= line.plies:
                raise ArgumentError(_("ply {ply} is not in this game: its line has the "
                                      "plies 0-{plies}").format(ply=repr(ply)[:40],
                                                                plies=line.plies))
            index, moves = 0, 0
            for i, text in enumerate(line.texts):
                if moves == ply:
                    break
                if not text.startswith("@"):
                    moves += 1
                    index = i + 1
            return self.go_to(index)

    def step(self, delta: int) -> Update:
        """One action back (``-1``) or forward (``+1``): the arrow keys."""
        with speaking(self.language):
            game = self.game
            if delta < 0 and not game.action_count:
                return self._done([_("Already at the start.")])
            if delta > 0 and not game.can_redo():
                return self._done([_("Already at the last move.")])
            return self.go_to(game.action_count + delta)

    def undo(self) -> Update:
        """Take back the last move -- and the computer's reply -- back to a person's turn.

        A die roll that preceded the move taken back stays: the same face is
        used again (undo cannot re-roll the die).
        """
        with speaking(self.language):
            game = self.game
            if not game.ply:
                return self._done([_("Nothing to undo.")])
            humans = HUMAN in self.players.values()
            undone: list[str] = []
            while game.action_count:
                text = self.line().texts[game.action_count - 1]
                action = game.pop()
                if isinstance(action, Move):
                    undone.append(text)
                    self._effects["slide"] = []
                    self._slide(action, back=True)  # the last one taken back slides home
                    if not game.is_chance_node() and (self.is_human_turn() or not humans):
                        break
            self.close_choices()
            self.took_back = True
            return self._done([_("Took back {moves}.").format(
                moves=", ".join(reversed(undone)))])

    def redo(self) -> Update:
        """Play again the move undone last (with the roll before it)."""
        with speaking(self.language):
            game = self.game
            if not game.can_redo():
                return self._done([_("Nothing to redo.")])
            while game.can_redo():
                action = game.redo()
                if isinstance(action, Move):
                    self._slide(action)
                    break
            self.took_back = False          # redone: the line is the game's again
            self.close_choices()
            return self._done([_("Redone.")])

    def back_to_game(self) -> Update:
        """Leave the side line and return to the game's own moves where it branched off."""
        with speaking(self.language):
            if self.main_game is None:
                return self._done([_("There is no side line: the board shows the game.")])
            self.game, self.main_game, self.branch = self.main_game, None, None
            self.close_choices()
            return self._done([_("Back to the game: it went on with {move}.").format(
                move=self.branch_text)])

    # -- games, records, positions, players ----------------------------------------
    def set_game(self, game: Game, message: str | None = None) -> Update:
        """Put ``game`` on the board; ``message`` is said (default "New game.").
        A teacher's marks and the engine's hint belong to the old position: they go."""
        with speaking(self.language):
            self.game = game
            self.main_game = self.branch = None
            self.took_back = False
            self.close_choices()
            self.arrows, self.highlights, self.hint = [], [], None
            self._agents = {}
            update = self._done([_("New game.") if message is None else message,
                                 *self.go_on()])
            update.new_game = True
            return update

    def new_game(self, variant: str, seed: int | None = None) -> Update:
        """A new game of ``variant`` (with ``seed``); a bad one is said and changes nothing."""
        with speaking(self.language):
            try:
                game = Game(variant, seed=seed)
            except TavreiError as exc:
                return self._done([_("Cannot start a new game: {error}.").format(error=exc)])
            return self.set_game(game, _("New game of {variant}.").format(
                variant=_(game.variant.name)))

    def load_record(self, text: str) -> Update:
        """Replay a record (``Game.record``'s text); a bad one changes nothing."""
        with speaking(self.language):
            if not text.strip():
                return self._done([_("Paste a game record first.")])
            try:
                game = Game.from_record(text)
            except TavreiError as exc:
                return self._done([_("Could not load the record: {error}. The game on the "
                                     "board is unchanged.").format(error=exc)])
            return self.set_game(game, ngettext(
                "Record loaded: {variant}, {plies} ply (half-move) played.",
                "Record loaded: {variant}, {plies} plies (half-moves) played.",
                game.ply).format(variant=_(game.variant.name), plies=game.ply))

    def set_position(self, text: str) -> Update:
        """A new game from a position string; a bad one is explained, nothing changes."""
        with speaking(self.language):
            if not isinstance(text, str):
                raise ArgumentError(_("a position string is text, not {value}").format(
                    value=repr(text)[:40]))
            try:
                game = Game(self.game.rules, text.strip())
            except TavreiError as exc:
                return self._done([_("Could not use that position: {error}. The game on the "
                                     "board is unchanged.").format(error=exc)])
            game.seed = self.game.seed
            return self.set_game(game, _("New game from the position."))

    def set_player(self, color: int, spec: str, *, go_on: bool = True) -> Update:
        """``"human"`` or an agent spec plays ``color``; the computer moves if it is due."""
        with speaking(self.language):
            player_options(spec)
            self.players[color] = spec
            self._agents.pop(color, None)
            now = (_("White is played by: {player}.") if color == WHITE
                   else _("Black is played by: {player}."))
            return self.say(now.format(player=player_label(spec)), go_on=go_on)

    def say(self, text: str, *, go_on: bool = False) -> Update:
        """An Update saying ``text`` (after which the computer moves, with ``go_on``)."""
        with speaking(self.language):
            return self._done([text, *(self.go_on() if go_on else [])])

    def agent(self, color: int) -> Any:
        """The agent playing ``color`` (made once per player, seeded ``seed + color``)."""
        from tavrei_lab.engine.agents import make_agent
        spec = self.players[color]
        cached = self._agents.get(color)
        if cached is None or cached[0] != spec:
            seed = self.game.seed
            cached = (spec, make_agent(spec, seed=None if seed is None else seed + color))
            self._agents[color] = cached
        return cached[1]

    # -- lessons ------------------------------------------------------------------
    def on_move(self, callback: MoveListener, *, remove: bool = False) -> None:
        """Call ``callback(owner, move)`` after each move a person plays (click, drop,
        ``play``); a callback may ``reject`` the move or return a sentence to say."""
        if remove:
            self.listeners = [c for c in self.listeners if c != callback]
        elif not callable(callback):
            raise TavreiError(f"on_move needs a function of (board, move), got {callback!r}")
        else:
            self.listeners.append(callback)

    def reject(self, move: Move | str | None = None, reason: str = "") -> Update:
        """Take ``move`` (default: the last move) back, with a flash and ``reason``.

        ``move`` must be the last move played; otherwise ``TavreiError`` says so
        and nothing changes. The rejected move is not kept for redo.
        """
        with speaking(self.language):
            game = self.game
            played = [i for i, action in enumerate(game.history) if isinstance(action, Move)]
            if not played:
                raise TavreiError("reject: no move has been played on this board")
            last = game.history[played[-1]]
            assert isinstance(last, Move)  # ``played`` holds the indices of moves
            if move is not None:
                asked = move if isinstance(move, str) else f"{move!r}"
                if isinstance(move, str):
                    before = game.copy()  # read the text where the move was played from
                    while len(before.history) > played[-1]:
                        before.pop()
                    try:
                        move = before.parse_move(move)
                    except TavreiError as exc:
                        raise TavreiError(f"reject: {exc}") from None
                if move.key != last.key or move.promotion != last.promotion:
                    raise TavreiError(f"reject: {game.action_texts()[played[-1]]} is the "
                                      f"last move played, not {asked}")
            while len(game.history) > played[-1]:
                game.pop()
            game.clear_redo()
            self.close_choices()
            self._effects.pop("slide", None)   # no slide there: only the slide home
            self._flash(last.to_square, home=last)
            update = self._done([reason or _("That move is taken back.")])
            if self.busy:
                self._rejected = update
            return update

    def check_marks(self, arrows: list[Any], highlights: list[Any]) -> None:
        """Draw once with these marks, so a bad one raises before anything changes."""
        draw(self.game, arrows=arrows, highlights=highlights)

    # == the game going on: rolls and the computer =================================
    def go_on(self) -> list[str]:
        """After a move: automatic rolls and the computer's replies, announced.

        Where the line goes on (a person played its next move), the computer's
        side plays the line's own reply, and rolls come as they were rolled.
        """
        messages: list[str] = []
        for _round in range(MAX_COMPUTER_PLIES):
            game = self.game
            if game.outcome(claim_draw=not self.is_human_turn()) is not None:
                break
            if game.can_redo() and (not self.is_human_turn() or (
                    game.is_chance_node() and self.auto_roll)):
                text = self.line().texts[game.action_count]
                action = game.redo()
                if isinstance(action, Move):
                    self._slide(action)
                messages.append(_("{move} played, as in the game.").format(move=text))
                continue
            if game.is_chance_node():
                if self.is_human_turn() and not self.auto_roll:
                    break
                messages.append(self._roll_once())
                continue
            if self.is_human_turn():
                break
            agent = self.agent(game.position.turn)
            move = agent.choose(game)
            messages.append(self._computer_text(move, agent))
            game.push(move)
            self._slide(move)
        return messages

    # == inside ====================================================================
    def close_choices(self) -> None:
        """Every navigation closes the selection and an open promotion."""
        self.choices.close()

    def default_count(self, square: int) -> int:
        """The count a tower is picked up with: whole, or the largest part that can move."""
        height = len(self.game.position.board[square])
        counts = self.counts_from(square)
        return height if (height in counts or not counts) else counts[-1]

    def _done(self, messages: list[str]) -> Update:
        self.message = " ".join(m for m in messages if m)
        effects, self._effects = self._effects, {}
        return Update(self.message, effects, list(self.pending_promotion))

    def _refusal(self) -> str:
        """Why no person may move now ("" when one may)."""
        game = self.game
        pos = game.position
        if game.outcome() is not None:
            return _("The game is over; start a new game or undo.")
        white = pos.turn == WHITE
        if game.is_chance_node():
            return (_("White must roll the die first (press Roll the die).") if white
                    else _("Black must roll the die first (press Roll the die)."))
        if not self.is_human_turn():
            played = (_("White is played by the computer ({agent}): press Computer move.")
                      if white else
                      _("Black is played by the computer ({agent}): press Computer move."))
            return played.format(agent=player_label(self.player(pos.turn)))
        if self.pending_promotion:
            return _(PROMOTION_FIRST)
        return ""

    def _why_not(self, move: Move) -> str:
        """The game's own explanation of an illegal move, found without playing it."""
        try:
            self.game.find_move(move)
        except IllegalMoveError as exc:
            return _("Illegal: {reason}.").format(reason=exc)
        return _("That move is legal.")

    def _select(self, square: int, layer: int | None) -> Update:
        height = len(self.game.position.board[square])
        if layer is not None and 0 <= layer < height:
            count = height - layer
        else:
            count = self.default_count(square)
        self.choices.select(square, count)
        return self._done([self._selection_text()])

    def _choose(self, count: int) -> Update:
        selected = self.selected
        height = len(self.game.position.board[selected]) if selected is not None else 0
        if selected is None or not 1 <= count <= height:
            return self._done([_("Cannot take {count}: select a tower of at least {count}.")
                               .format(count=count)])
        self.choices.count = count
        return self._done([self._selection_text()])

    def _selection_text(self) -> str:
        assert self.selected is not None and self.count is not None
        names = self.game.position.geometry.names
        return selection_text(self.game.position, self.selected, self.count,
                              [names[s] for s in self.destinations()],
                              self.counts_from(self.selected))

    def _play(self, moves: list[Move]) -> Update:
        if len({m.promotion for m in moves}) > 1:
            self.choices.offer_promotion(moves, self.game.position)
            return self._done([_(CHOOSE_PROMOTION)])
        return self._push(moves[0])

    def _push(self, move: Move) -> Update:
        """Play a person's move, tell the listeners, then let the game go on."""
        messages = [_("{move} played.").format(move=move_said(self.game, move))]
        game = self.game
        if not self._along_the_line(move):
            self.game.push(move)
            if self.game is not game:
                messages.append(_("A side line: the game's own {move} is kept "
                                  "(Back to the game returns to it).").format(
                                      move=self.branch_text))
        if not self._dropping:      # a click-click move glides there, as a drop did by hand
            self._slide(move)
        self.choices.deselect()
        ply = len(self.game.history)
        for listener in list(self.listeners):
            said = None
            self.busy, self._rejected = True, None
            try:
                said = listener(self.owner, move)
            except Exception as exc:  # a lesson's bug must not freeze the board
                messages.append(_("(An on_move callback failed: {error})").format(
                    error=f"{type(exc).__name__}: {exc}"))
            finally:
                self.busy = False
            if len(self.game.history) != ply or self.game.history[-1] != move:
                # a listener took the move back (``reject``) and said why
                return self._rejected or self._done([self.message])
            if isinstance(said, str) and said:   # a lesson's word on the move: "Right!"
                messages.append(said)
        messages += self.go_on()
        return self._done(messages)

    def _along_the_line(self, move: Move | None) -> bool:
        """Where the line goes on, a person's move either is its next move -- then the
        game steps to it -- or starts a side line on a copy of the game (``game``
        becomes the copy). True when the move was the line's own. ``move`` None
        stands for a new roll of the die, which always starts a side line."""
        game = self.game
        took_back, self.took_back = self.took_back, False
        if not game.can_redo():
            return False
        if move is not None:
            if game.redo() == move:
                return True
            game.pop()
        if took_back:
            # undo then another move is a takeback: the undone moves are dropped
            game.clear_redo()
            return False
        if self.main_game is None:
            self.main_game = game
            self.branch_text = entry_label(self.line(), game.action_count + 1)
        self.branch = game.action_count
        self.game = game.copy()
        self.game.clear_redo()
        return False

    def _roll_once(self) -> str:
        self._along_the_line(None)          # a new roll where the line goes on: a side line
        game = self.game
        before = game.position.turn
        face = game.roll()
        self._effects["roll"] = True
        rolled = _("White rolled {face}.") if before == WHITE else _("Black rolled {face}.")
        text = rolled.format(face=face_text(game.position.pieces, face))
        after = game.position
        if game.is_chance_node() or after.turn != before:
            text += " " + (_("No move: the turn passes to white.") if after.turn == WHITE
                           else _("No move: the turn passes to black."))
        elif not game.legal_moves():
            text += " " + _("No unit may move.")
        return text

    def _computer_text(self, move: Move, agent: Any) -> str:
        return _("{move} played by the computer ({agent}).").format(
            move=move_said(self.game, move), agent=player_label(agent.name))

    def _slide(self, move: Move, back: bool = False) -> None:
        """Animate ``move`` with the next drawing (``back``: as it is taken back)."""
        names = self.game.position.geometry.names
        fr, to = names[move.from_square], names[move.to_square]
        self._effects.setdefault("slide", []).append([to, fr] if back else [fr, to])

    def _flash(self, *squares: int, home: Move | None = None) -> None:
        """With the next drawing: flash ``squares``; slide ``home``'s tower back to its start."""
        names = self.game.position.geometry.names
        self._effects.setdefault("flash", []).extend(names[s] for s in squares)
        if home is not None:
            self._effects.setdefault("slide", []).append(
                [names[home.to_square], names[home.from_square]])


__all__ = ["MAX_COMPUTER_PLIES", "BoardSession", "MoveListener", "Update"]
