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

from typing import Any

from tavrei_lab.core.move import Move, Roll
from tavrei_lab.core.tavrel import WHITE
from tavrei_lab.errors import ArgumentError, IllegalMoveError, TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext, speaking
from tavrei_lab.session.choices import CHOOSE_PROMOTION, PROMOTION_FIRST
from tavrei_lab.session.drawing import has_die
from tavrei_lab.session.engine_words import best_move_text
from tavrei_lab.session.evaluation import Evaluation
from tavrei_lab.session.line import entry_label
from tavrei_lab.session.players import HUMAN, player_label, player_options
from tavrei_lab.session.state import MoveListener, SessionState, Update
from tavrei_lab.session.status import face_text, move_said, not_yours, selection_text

#: How many moves the computer may play in a row from one trigger (both sides
#: played by the computer): a guard so a notebook cell always returns.
MAX_COMPUTER_PLIES = 300

class BoardSession(SessionState):
    """A board's game and everything half-done on it, driven by actions.

    ``BoardSession(game, white="human", black="greedy", auto_roll=False,
    language=None)``. Every action returns an ``Update``; the state is read
    from public attributes (``game``, ``selected``, ``count``, ``arrows``,
    ``highlights``, ``flipped``, ``message``) and methods (``legal_moves``,
    ``destinations``, ``moves_by_tower``, ``svg``).
    """

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
                    raise TavreiError(_("best_move needs an agent that searches (play:1s, "
                                        "alphabeta:3, level:5 ...), not {agent!r}")
                                      .format(agent=agent))
                self._searchers[agent] = searcher
            move = searcher.choose(game)
            pos = game.position
            names = pos.geometry.names
            self.hint = (pos, (names[move.from_square], names[move.to_square], "blue"))
            return self._done([best_move_text(game, move, searcher.name, searcher.last)])

    def type_move(self, text: str) -> Update:
        """A move typed in the board's text box, read as ``Game.play`` reads movetext (a
        move number, ``x`` or ``-``, any case); anything but one move is refused in one line."""
        with speaking(self.language):
            from tavrei_lab.notation.movetext import tokenize
            if not isinstance(text, str):
                raise ArgumentError(_("a typed move is text, not {value}").format(
                    value=repr(text)[:40]))
            try:
                moves = [t for t in tokenize(text) if t.kind == "move"]
            except TavreiError as exc:
                return self._done([_("Not a move: {error}.").format(error=exc)])
            if len(moves) != 1:
                return self._done([_("Type one move, such as e2-e4 (not {text}).").format(
                    text=repr(text.strip()[:40]) if moves else _("an empty box"))])
            refusal = self._refusal()
            if refusal:
                return self._done([refusal])
            return self.play(moves[0].text)

    # -- the engine's figures: the evaluation bar and graph -----------------------------
    def evaluate(self, on: bool = True) -> Update:
        """Show (``on``) or hide the engine's evaluation beside the board, and say it.

        The figure is node-limited (``evaluations.nodes``), so a position always
        gets the same one; ``evaluation()`` and ``evaluation_graph()`` read them."""
        with speaking(self.language):
            self.show_evaluation = bool(on)
            if not on:
                return self._done([_("Evaluation hidden.")])
            return self._done([self.evaluation().said()])

    def evaluation(self) -> Evaluation:
        """The engine's figure for the shown position (from white's side)."""
        with speaking(self.language):
            return self.evaluations.of(self.game, self.game.position)

    def evaluation_graph(self) -> list[Evaluation]:
        """One figure per ply of the line (ply 0, the start, first): the graph's points;
        ``go_to_ply(i)`` shows the position of point ``i``."""
        with speaking(self.language):
            return self.evaluations.graph(self.game)

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

    # -- lessons ------------------------------------------------------------------
    def on_move(self, callback: MoveListener, *, remove: bool = False) -> None:
        """Call ``callback(owner, move)`` after each move a person plays (click, drop,
        ``play``); a callback may ``reject`` the move or return a sentence to say."""
        if remove:
            self.listeners = [c for c in self.listeners if c != callback]
        elif not callable(callback):
            raise TavreiError(_("on_move needs a function of (board, move), got {callback!r}")
                              .format(callback=callback))
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
                raise TavreiError(_("reject: no move has been played on this board"))
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
                        raise TavreiError(_("reject: {reason}").format(reason=exc)) from None
                if move.key != last.key or move.promotion != last.promotion:
                    raise TavreiError(_("reject: {last} is the last move played, not {asked}")
                                      .format(last=game.action_texts()[played[-1]],
                                              asked=asked))
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

    # == the game going on: rolls and the computer =================================
    def go_on(self) -> list[str]:
        """After a move: automatic rolls and the computer's replies, announced.

        Where the line goes on (a person played its next move), the computer's
        side plays the line's own reply, and rolls come as they were rolled.
        Every other action is one ``play_step`` of the package's one game loop
        (``engine.selfplay``), so the board ends a game where self-play would:
        a person's side is nobody's there (None), and a person to move is not
        made to take a claimable draw.
        """
        from tavrei_lab.engine.selfplay import GameLimits, adjudicate, play_step

        limits = GameLimits()
        messages: list[str] = []
        for _round in range(MAX_COMPUTER_PLIES):
            game = self.game
            human = self.is_human_turn()
            if adjudicate(game, limits, claim_draw=not human) is not None:
                break
            if game.can_redo() and (not human or (game.is_chance_node() and self.auto_roll)):
                text = self.line().texts[game.action_count]
                action = game.redo()
                if isinstance(action, Move):
                    self._slide(action)
                messages.append(_("{move} played, as in the game.").format(move=text))
                continue
            if human and not (game.is_chance_node() and self.auto_roll):
                break
            if game.is_chance_node():
                self._along_the_line(None)       # a roll's own bookkeeping, as a person's
            game = self.game
            turn = game.position.turn
            players: list[_Announced | None] = [None, None]
            if not human:
                players[turn] = _Announced(self, self.agent(turn))
            step = play_step(game, players, limits, claim_draw=not human)
            if isinstance(step, Roll):
                messages.append(self._rolled_text(turn, step.face))
            elif isinstance(step, Move):
                announced = players[turn]
                assert announced is not None   # a move is chosen only by the computer
                messages.append(announced.text)
                self._slide(step)
            else:                              # the player ended the game itself
                break
        return messages

    # == inside ====================================================================
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
        return self._rolled_text(before, game.roll())

    def _rolled_text(self, before: int, face: str) -> str:
        """What a roll by ``before`` (the side that rolled) that showed ``face`` did."""
        game = self.game
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


class _Announced:
    """The computer's player as ``play_step`` asks it, keeping what the status line
    says of its move: the move is named from the position it is played in."""

    def __init__(self, session: BoardSession, agent: Any) -> None:
        self.session, self.agent, self.text = session, agent, ""

    def choose(self, game: Game) -> Any:
        choice = self.agent.choose(game)
        if isinstance(choice, Move):
            self.text = self.session._computer_text(choice, self.agent)
        return choice


__all__ = ["MAX_COMPUTER_PLIES", "BoardSession", "MoveListener", "Update"]
