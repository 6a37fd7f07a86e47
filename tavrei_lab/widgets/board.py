"""``Board``: the interactive board for notebooks, with its controls.

The division of labour follows lichess's chessground. The board's state and
every action on it are a ``BoardSession`` (``tavrei_lab.session``, no widget
library): the game, the line and side lines, the selection and count, the
marks, the hint and the players. This widget is layout plus "show this":
each click, drop, button or key calls one action of the session and shows the
``Update`` it returns -- the status sentence, the drawing with its effects,
the move list, the pickers. The browser (``BoardView``) draws the SVG it is
given, owns the pointer, and reports clicks and drops; with each drawing it
gets every tower's legal destinations per count, so a drag shows where it may
go without asking the kernel. Tests drive the widget by setting the same
traits the browser sets, and drive the session with no widget at all.
"""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as widgets
import traitlets

from tavrei_lab.core.move import Move
from tavrei_lab.core.tavrel import BLACK, WHITE
from tavrei_lab.errors import ArgumentError, NotationError, TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import speaking
from tavrei_lab.session import MAX_COMPUTER_PLIES, BoardSession, Update
from tavrei_lab.session.drawing import (
    DEFAULT_LETTER_PX,
    PROJECTOR_LETTER_PX,
    PROJECTOR_SCALE,
    PROJECTOR_SIZE,
    board_width,
    draw,
)
from tavrei_lab.session.players import HUMAN, agent_names, player_label
from tavrei_lab.session.status import count_options, kind_name
from tavrei_lab.widgets.controls import button as _button
from tavrei_lab.widgets.controls import in_own_language, no_null_tooltips
from tavrei_lab.widgets.die_panel import DiePanel
from tavrei_lab.widgets.evaluation import EvaluationPanel
from tavrei_lab.widgets.game_panel import GamePanel
from tavrei_lab.widgets.inspector import Inspector, glyph_pictures, legend_rows, tower_rows
from tavrei_lab.widgets.line import MoveLine
from tavrei_lab.widgets.move_panel import MovePanel
from tavrei_lab.widgets.players import PlayersPanel
from tavrei_lab.widgets.record_panel import RecordPanel, download_html, upload_text
from tavrei_lab.widgets.view import BoardView, with_svg

_B = TypeVar("_B")


def _speaks_its_language(cls: type[_B]) -> type[_B]:
    """Run every method of the board in the board's own language: a click comes long
    after the cell that made a Russian board, outside any ``speaking`` block, and one
    Russian board may sit beside English ones in the same notebook."""
    for name, value in list(vars(cls).items()):
        if inspect.isfunction(value) and not name.startswith("__"):
            setattr(cls, name, in_own_language(value))
    return cls


def _orientation(flipped: bool, orientation: Any, flip: Any) -> bool:
    """``flipped``, or python-chess's spellings of it: ``orientation="black"``, ``flip=True``."""
    if flip is not None:
        if not isinstance(flip, bool):
            raise ArgumentError(_("flip= is True or False (the same as flipped=), not "
                                  "{value}").format(value=repr(flip)[:40]))
        flipped = flip
    if orientation is not None:
        if orientation not in ("white", "black"):
            raise ArgumentError(_('orientation= is "white" or "black" (the side at the '
                                  'bottom; flipped=True is "black"), not {value}').format(
                                      value=repr(orientation)[:40]))
        flipped = orientation == "black"
    return bool(flipped)


@_speaks_its_language
class Board(widgets.VBox):
    """The board you click or drag on, with its controls::

        Board()                                          # Tavreli, two humans
        Board(variant="gavrilov-die", seed=3, black="random")
        Board(game, projector=True)                      # sized for a classroom projector

    ``game`` (a ``Game``) or ``variant``/``position``/``seed`` choose what is
    on the board; ``white``/``black`` are ``"human"`` or an agent name from
    ``AGENTS``; ``auto_roll`` rolls the die for human players too;
    ``flipped=True`` puts black at the bottom (python-chess's
    ``orientation="black"`` and ``flip=True`` say the same).
    ``language`` ("en" or "ru"; default ``tavrei_lab.get_language()``, which
    follows ``TAVREI_LANG`` and the locale) is the language of every word the
    board shows: status, buttons, inspector, legend, die, move list, pickers.
    ``projector=True`` draws the board, its status line and the die large
    enough to read from the back of a room (strip letters at least 14 CSS px),
    and the board grows from there to the room it has -- the width beside its
    columns and the height of the screen -- with the tower inspector kept beside
    it where there is room; ``size`` (pixels) overrides the smallest width. The
    ``size_slider`` (Board size, per cent) draws any board larger or smaller.
    The game on the board is ``board.game``; ``board.status.value`` is the
    status line; ``board.session`` is the board without its widgets
    (``tavrei_lab.session.BoardSession``).

    For lessons and puzzles built on a board:

    - ``board.on_move(callback)``: ``callback(board, move)`` runs after every
      move a person plays (click, drag, ``board.play``);
    - ``board.reject(move, reason)``: take that move back on the board (the
      square flashes, the tower slides home) and show ``reason``;
    - ``board.arrows`` / ``board.highlights``: a teacher's arrows, circles
      and tinted squares (a hint), drawn live and in the static SVG.

    As on lichess's analysis board: the arrow keys, a click on the move list
    and ``go_to`` step through the game; a move played where the game goes on
    starts a side line on a copy (``board.game``) and ``back_to_game()``
    returns to the game's own moves; ``best_move()`` shows the engine's move.

    Traits, for ``board.observe(f, name)``, ``interact``, ``ipywidgets.link``
    and ``dlink``:

    - ``ply`` (plies played to the shown position): set it to show that ply of
      the line (``link((board, "ply"), (slider, "value"))`` steps with a
      slider); a ply past the line raises ``TavreiError``;
    - ``flipped``: black at the bottom; set it to turn the board round;
    - ``arrows``, ``highlights``: the teacher's marks (assign a new list);
    - read-only, following the game: ``position_string`` (the position's
      text), ``side_to_move`` (``"white"``/``"black"``) and ``outcome``
      (``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or None while the game goes on).

    ``ply`` and ``flipped`` are synced with the browser, so ``jslink`` links
    them to another widget's trait in the page too. Layout keywords of
    ipywidgets (``layout=...``) are passed on to the box.
    """

    position_string = traitlets.Unicode("", read_only=True,
                                        help="the shown position's text (as Set position reads it)")
    ply = traitlets.Int(0, help="plies played to the shown position; set it to show "
                                "that ply").tag(sync=True)
    flipped = traitlets.Bool(False, help="black at the bottom").tag(sync=True)
    arrows: traitlets.List[Any] = traitlets.List(
        help="the teacher's arrows: (from, to) or (from, to, colour)")
    highlights = traitlets.Union([traitlets.List(), traitlets.Unicode()],
                                 default_value=[],
                                 help="tinted squares: a name or (name, colour)")
    side_to_move = traitlets.Unicode("white", read_only=True, help='"white" or "black"')
    outcome = traitlets.Unicode(None, allow_none=True, read_only=True,
                                help='"1-0", "0-1", "1/2-1/2", or None while the game goes on')

    def __init__(self, game: Game | None = None, *, variant: str = "tavreli",
                 position: str | None = None, seed: int | None = None,
                 flipped: bool = False, white: str = HUMAN, black: str = HUMAN,
                 auto_roll: bool = False, size: int | None = None,
                 projector: bool = False, language: str | None = None,
                 orientation: str | None = None, flip: bool | None = None,
                 **box: Any) -> None:
        with speaking(language) as chosen:   # checks it: an unknown one raises TavreiError
            if game is not None and not isinstance(game, Game):
                said = (_("Board's first argument is a Game, not {value}: for a new game of "
                          "a variant write Board(variant={value})") if isinstance(game, str)
                        else _("Board's first argument is a Game, not {value}"))
                raise ArgumentError(said.format(value=repr(game)[:60]))
            flipped = _orientation(flipped, orientation, flip)
            #: "en" or "ru": the language of every word on the board
            self.language = chosen
            self._syncing = True          # traits follow the session until it is built
            self.session = BoardSession(
                game if game is not None else Game(variant, position, seed=seed),
                white=white, black=black, auto_roll=auto_roll, flipped=flipped,
                language=chosen)
            self.session.owner = self
            self._build(size, projector, white, black, auto_roll, box)
            self._syncing = False
            self.set_trait("flipped", flipped)
            self._show(self.session.say(_("New game.") if game is None else _("Game loaded."),
                                        go_on=True))

    def _build(self, size: int | None, projector: bool, white: str, black: str,
               auto_roll: bool, box: dict[str, Any]) -> None:
        self.projector = projector
        self._size_asked = size
        self.size = board_width(self.game, size, PROJECTOR_SCALE) if projector else size
        self.letter_px = PROJECTOR_LETTER_PX if projector else DEFAULT_LETTER_PX
        self._updating = False
        self.view = BoardView()
        self.view.observe(self._on_click, "click")
        self.view.observe(self._on_key, "key")
        self.view.observe(self._on_drop, "drop")
        self.inspector = Inspector(self.view)   # the tower inspector's feed (inspector.py)
        self.inspector.set_pieces(self.game.position.pieces)
        self.status = widgets.HTML()
        self.status.add_class("tavrei-status")
        # the status line always takes three lines' room (board.css sets their
        # height: ipywidgets' HTML line of 28 px clips a second line), so the longest
        # message fits and never pushes the board down (the board holds still)
        self.status.layout = widgets.Layout(height="4.3em", overflow="hidden auto")

        side = self._side_column(projector, auto_roll)
        controls = self._controls(white, black)
        # Narrow room (a projector with JupyterLab's file browser open): the tower
        # inspector goes under the board first, so the move list and the die stay
        # beside it; only where the board and that column do not fit side by side
        # does the column go under the board. (The view's flex basis is the board
        # alone; it grows to hold the inspector beside the board where there is room.)
        self._fit_view()
        main = widgets.HBox([self.evaluation_panel.bar, self.view, side],
                            layout=widgets.Layout(flex_flow="row wrap"))
        super().__init__([self.status, main, controls], **box)
        self.add_class("tavrei-board-app")
        if projector:
            self.add_class("tavrei-projector")
            self.view.add_class("tavrei-projector")
        no_null_tooltips(self)

    def _side_column(self, projector: bool, auto_roll: bool) -> widgets.VBox:
        """Beside the board: the die, the count, the promotion, the move list, the size."""
        # -- beside the board: the count, the promotion, the move list -----------
        self.count_picker = widgets.Dropdown(description=_("Take"), options=[], disabled=True,
                                             layout=widgets.Layout(width="210px"))
        self.count_picker.observe(self._on_count_picked, "value")
        self.promotion_picker = widgets.ToggleButtons(options=[], description=_("Promote"),
                                                      layout=widgets.Layout(display="none"))
        self.promotion_picker.observe(self._on_promotion_picked, "value")
        # the panels beside and under the board, each in its own module; their parts
        # keep the names they always had on the board
        self.move_panel = MovePanel(go_to=self.go_to, step=self.step,
                                    last=lambda: self.go_to(len(self.line())),
                                    back_to_game=self.back_to_game,
                                    rows=8 if projector else 14)
        self.move_list = self.move_panel.move_list
        self.first_button = self.move_panel.first_button
        self.prev_button = self.move_panel.prev_button
        self.next_button = self.move_panel.next_button
        self.last_button = self.move_panel.last_button
        self.game_button = self.move_panel.game_button
        self.die_panel = DiePanel(self.roll, auto_roll)
        self.die_label = self.die_panel.die_label
        self.roll_button = self.die_panel.roll_button
        self.auto_roll = self.die_panel.auto_roll
        self.auto_roll.observe(self._on_auto_roll, "value")
        self.die_box = self.die_panel.box
        # the size control: a share of the room the board has (a projector board fills
        # it), or of its own size on a notebook board
        self.size_slider = widgets.IntSlider(
            value=100, min=40, max=160, step=5,
            tooltip=_("how large the board is drawn, in per cent of the room it has"),
            readout_format="d", continuous_update=False, layout=widgets.Layout(width="205px"))
        self.size_slider.add_class("tavrei-size")
        size_box = widgets.VBox([widgets.HTML(html.escape(_("Board size")) + ", %"),
                                 self.size_slider], layout=widgets.Layout(width="210px"))
        widgets.link((self.size_slider, "value"), (self.view, "zoom"))
        self.view.fit = projector          # the projector board grows to the room it has
        # the engine's figures on demand, and a box to type a move into
        self.evaluation_panel = EvaluationPanel(self._on_evaluation, self._on_graph_click)
        self.move_text = widgets.Text(placeholder=_("type a move: e2-e4"),
                                      continuous_update=False,
                                      tooltip=_("type a move and press Enter"),
                                      layout=widgets.Layout(width="210px"))
        self.move_text.observe(self._on_move_typed, "value")
        # beside the board, not in the row of buttons under it: that row keeps its room
        # for the buttons' words
        self.animate_toggle = widgets.Checkbox(value=True, description=_("animate moves"),
                                               indent=False, layout=widgets.Layout(width="auto"))
        widgets.link((self.animate_toggle, "value"), (self.view, "animations"))
        # the die first: in a die game the Roll button sits by the board's top, in sight
        return widgets.VBox([self.die_box, self.count_picker, self.promotion_picker,
                             self.move_list, self.move_panel.nav, self.move_text,
                             self.evaluation_panel.toggle, self.evaluation_panel.graph,
                             size_box, self.animate_toggle],
                            layout=widgets.Layout(width="215px", flex="none"))

    def _controls(self, white: str, black: str) -> widgets.VBox:
        """Under the board: the game's buttons, new games, players, records."""
        # -- under the board: game controls ---------------------------------------
        self.undo_button = _button(_("Undo"), _("take back the last move"), self.undo)
        self.redo_button = _button(_("Redo"), _("play the undone move again"), self.redo)
        self.flip_button = _button(_("Flip"), _("turn the board round (f)"), self.flip)
        self.computer_button = _button(_("Computer move"), _("let the computer play this move"),
                                       self.computer_move)
        self.best_button = _button(_("Best move"), _("ask the engine (1 s): an arrow shows its "
                                                     "move, the status line its value and line"),
                                   lambda: self.best_move())
        self.game_panel = GamePanel(self.game, self.new_game)
        self.variant_picker = self.game_panel.variant_picker
        self.seed_text = self.game_panel.seed_text
        self.new_button = self.game_panel.new_button
        self.players = PlayersPanel(white, black, self._on_players)
        self.white_player = self.players.white_player
        self.black_player = self.players.black_player

        self.records = RecordPanel(load=self.load_record, save=self.save_record,
                                   upload=self._on_upload, set_position=self.set_position,
                                   copy_position=self.copy_position)
        self.record_text = self.records.record_text
        self.record_upload = self.records.record_upload
        self.download_link = self.records.download_link
        self.position_text = self.records.position_text
        self.movable_toggle = widgets.ToggleButton(
            value=False, description=_("Show movable"),
            tooltip=_("tint every tower that can move now"))
        self.movable_toggle.observe(self._on_movable, "value")
        # the row wraps rather than cut a button's words (Russian's are longer), each
        # button as wide as its words
        row = [self.undo_button, self.redo_button, self.flip_button, self.computer_button,
               self.best_button, self.movable_toggle]
        for part in row:
            part.layout.flex = "0 0 auto"
        first_row = widgets.HBox(row, layout=widgets.Layout(flex_flow="row wrap"))
        first_row.add_class("tavrei-controls-row")   # the room the fitted board leaves it
        return widgets.VBox([
            first_row,
            self.game_panel.box,
            self.players.box,
            self.records.box,
        ])

    # == the state, read from the session =========================================
    @property
    def game(self) -> Game:
        """The game on the board (a copy of it while a side line is explored)."""
        return self.session.game

    @game.setter
    def game(self, game: Game) -> None:
        self.session.game = game

    @property
    def choices(self) -> Any:
        return self.session.choices

    @property
    def selected(self) -> int | None:
        return self.session.selected

    @selected.setter
    def selected(self, square: int | None) -> None:
        self.session.choices.selected = square

    @property
    def count(self) -> int | None:
        return self.session.count

    @count.setter
    def count(self, count: int | None) -> None:
        self.session.choices.count = count

    @property
    def pending_promotion(self) -> list[Move]:
        return self.session.pending_promotion

    @property
    def message(self) -> str:
        """What the status line says after its first half (whose turn)."""
        return self.session.message

    @property
    def position(self) -> Any:
        return self.game.position

    def legal_moves(self) -> list[Move]:
        """The legal moves now (cached per position: a click asks several times)."""
        return self.session.legal_moves()

    def destinations(self) -> list[int]:
        """Squares the selected unit (``selected``, ``count``) may move to."""
        return self.session.destinations()

    def square_names(self, squares: list[int]) -> list[str]:
        return [self.game.position.geometry.name(s) for s in squares]

    def greyed(self) -> list[str]:
        """Own towers that may not move now because of the die face (die games only)."""
        return self.session.greyed()

    def player(self, color: int) -> str:
        return self.session.player(color)

    def is_human_turn(self) -> bool:
        return self.session.is_human_turn()

    def line(self) -> MoveLine:
        """The whole line -- what was played plus what can be redone -- with its texts."""
        return self.session.line()

    def moves_by_tower(self) -> dict[str, dict[str, list[str]]]:
        """Where each tower may go now, per count: ``{"e2": {"1": ["e3", "e4"]}}``."""
        return self.session.moves_by_tower()

    def state_text(self) -> str:
        """Whose turn, check, mate, stalemate, draws: the first half of the status line."""
        return self.session.state_text()

    # == showing ==================================================================
    def svg(self) -> str:
        """The board as drawn now (also the static fallback)."""
        return self.session.svg(size=self.size, letter_px=self.letter_px)

    def redraw(self, effects: dict[str, Any] | None = None) -> None:
        """Send a new drawing to the browser (in place: the widget stays)."""
        towers = self.inspector.towers(self.game.position)
        self.view.show(self.svg(), self.greyed(), moves=self.moves_by_tower(),
                       effects=effects or {}, towers=towers)

    def _show(self, update: Update) -> None:
        """Show what an action of the session changed: the board and its status line
        first (the answer to the click or drop), then the move list and the controls."""
        if update.new_game:
            self._new_game_shown()
        self.status.value = self._status_html()
        self._show_promotion(update.promotion)
        self.redraw(update.effects)
        self._updating = True
        try:
            session = self.session
            self.move_panel.show(self.line(), self.game.action_count, session.branch,
                                 session.main_game is not None)
            self._update_count_picker()
            self.die_panel.show(self.game)
            self.position_text.value = self.game.position.string
            self._set_game_traits()
            self.undo_button.disabled = not self.game.action_count
            self.redo_button.disabled = not self.game.can_redo()
            self.evaluation_panel.show(session, session.flipped)
        finally:
            self._updating = False

    def _new_game_shown(self) -> None:
        """What belongs to the old game goes: the browser's own arrows, the size, the
        pieces' pictures, the variant and seed in the controls."""
        game = self.game
        self.view.drawn = []
        if self.projector:                # the new game may have another board or a die
            self.size = board_width(game, self._size_asked, PROJECTOR_SCALE)
        self._fit_view()
        self.players.reset()
        self.inspector.set_pieces(game.position.pieces)
        self._updating = True
        try:
            self.game_panel.show(game)
        finally:
            self._updating = False

    def _show_promotion(self, moves: list[Move]) -> None:
        if not moves:
            self.promotion_picker.layout.display = "none"
            return
        pos = self.game.position
        options = [(kind_name(pos.pieces.by_kind[m.promotion]), m) for m in moves]
        if list(self.promotion_picker.options) != options:
            self._updating = True
            try:
                self.promotion_picker.options = options
                self.promotion_picker.value = None
            finally:
                self._updating = False
        self.promotion_picker.layout.display = ""

    def _set_game_traits(self) -> None:
        """Bring the traits in line with the session (each fires ``observe`` only when
        it changes; the board's own handlers ignore what it sets here)."""
        session = self.session
        self._syncing = True
        try:
            with self.hold_trait_notifications():
                for name, value in session.game_traits().items():
                    self.set_trait(name, value)
                self.set_trait("flipped", session.flipped)
                if list(self.arrows) != session.arrows:
                    self.arrows = list(session.arrows)
                if list(self.highlights) != session.highlights:
                    self.highlights = list(session.highlights)
        finally:
            self._syncing = False

    def _status_html(self) -> str:
        # whose turn first: a long message may run past the two reserved lines
        # (they scroll), but the state of the game is always in sight
        return (f'<b class="tavrei-state">{html.escape(self.state_text())}</b> '
                f'<span class="tavrei-message">{html.escape(self.message)}</span>')

    def _fit_view(self) -> None:
        """Let the view shrink to the board's width (the inspector then wraps under it)."""
        from tavrei_lab.render.board import DEFAULT_SCALE
        width = board_width(self.game, self.size, DEFAULT_SCALE)
        self.view.layout.flex = "1 1 0px"
        self.view.layout.min_width = f"{width}px"
        self.view.layout.max_width = "max-content"

    def _update_count_picker(self) -> None:
        pos = self.game.position
        selected = self.selected
        if selected is None:
            self.count_picker.options = []
            self.count_picker.disabled = True
            return
        self.count_picker.options = count_options(pos, selected,
                                                  self.session.counts_from(selected))
        self.count_picker.value = self.count
        self.count_picker.disabled = len(pos.board[selected]) == 1

    # == the traits a person or a link sets ========================================
    @traitlets.validate("ply")
    def _check_ply(self, proposal: Any) -> int:
        value = proposal["value"]
        if self._syncing:
            return value              # the game's Ply: a number that may also be called
        plies = self.session.line().plies
        if not 0 <= value <= plies:
            with speaking(self.language):
                raise ArgumentError(_("ply {ply} is not in this game: its line has the "
                                      "plies 0-{plies}").format(ply=value, plies=plies))
        return value

    @traitlets.observe("ply")
    def _on_ply(self, change: Any) -> None:
        if not self._syncing:
            self._show(self.session.go_to_ply(change["new"]))

    @traitlets.observe("flipped")
    def _on_flipped(self, change: Any) -> None:
        if not self._syncing and self.session.flipped != change["new"]:
            self.session.flipped = bool(change["new"])
            self.redraw()

    @traitlets.validate("arrows")
    def _check_arrows(self, proposal: Any) -> list[Any]:
        value = [tuple(a) if isinstance(a, list) else a for a in proposal["value"]]
        if not self._syncing:
            with speaking(self.language):
                self.session.check_marks(value, self.session.highlights)
        return value

    @traitlets.validate("highlights")
    def _check_highlights(self, proposal: Any) -> list[Any]:
        value = proposal["value"]
        value = [tuple(h) if isinstance(h, list) else h for h in
                 ([value] if isinstance(value, str) else value)]
        if not self._syncing:
            with speaking(self.language):
                self.session.check_marks(self.session.arrows, value)
        return value

    @traitlets.observe("arrows", "highlights")
    def _on_marks(self, change: Any) -> None:
        if not self._syncing:
            setattr(self.session, change["name"], list(change["new"]))
            self.redraw()

    # == clicks, drops and keys from the browser ==================================
    def _on_click(self, change: dict[str, Any]) -> None:
        click = change["new"] or {}
        name = str(click.get("square", ""))
        layer = click.get("layer")
        try:
            square = self.game.position.geometry.parse(name)
        except NotationError as exc:
            self._show(self.session.say(_("Click ignored: {error}.").format(error=exc)))
            return
        self.click_square(square, layer if isinstance(layer, int) else None)

    def _on_drop(self, change: dict[str, Any]) -> None:
        drop = change["new"] or {}
        g = self.game.position.geometry
        try:
            fr, to = g.parse(str(drop.get("from", ""))), g.parse(str(drop.get("to", "")))
        except NotationError as exc:
            self._show(self.session.say(_("Drop ignored: {error}.").format(error=exc)))
            return
        count = drop.get("count")
        self.drop_tower(fr, to, count if isinstance(count, int) else None)

    def _on_key(self, change: dict[str, Any]) -> None:
        key = (change["new"] or {}).get("key")
        if key == "ArrowLeft":
            self.step(-1)
        elif key == "ArrowRight":
            self.step(1)
        elif key in ("Home", "ArrowUp"):
            self.go_to(0)
        elif key in ("End", "ArrowDown"):
            self.go_to(len(self.line()))
        elif key == "f":
            self.flip()

    def _on_count_picked(self, change: dict[str, Any]) -> None:
        if self._updating or change["new"] is None:
            return
        self._show(self.session.choose_count(int(change["new"])))

    def _on_promotion_picked(self, change: dict[str, Any]) -> None:
        if self._updating or change["new"] is None or not self.pending_promotion:
            return
        self._show(self.session.choose_promotion(change["new"]))

    def _on_players(self, text: str, go_on: bool) -> None:
        for color in (WHITE, BLACK):
            self.session.players[color] = self.players.player(color)
        self._show(self.session.say(text, go_on=go_on))

    def _on_auto_roll(self, change: dict[str, Any]) -> None:
        self.session.auto_roll = bool(change["new"])

    def _on_evaluation(self, on: bool) -> None:
        if not self._updating:
            self._show(self.session.evaluate(on))

    def _on_graph_click(self, ply: int) -> None:
        if 0 <= ply <= self.session.line().plies:
            self._show(self.session.go_to_ply(ply))

    def _on_move_typed(self, change: dict[str, Any]) -> None:
        text = str(change["new"] or "")
        if self._updating or not text.strip():
            return
        self.type_move(text)

    def _on_movable(self, change: dict[str, Any]) -> None:
        self.session.show_movable = bool(change["new"])
        self.redraw()

    # == the actions: each one the session's, shown ===============================
    def click_square(self, square: int | str, layer: int | None = None) -> None:
        """What a click on ``square`` (an index or a name such as ``"e2"``; layer ``layer``
        of its strip) does: see ``tavrei_lab.session``. A square off the board raises
        ``TavreiError``."""
        self._show(self.session.click(square, layer))

    def drop_tower(self, from_square: int | str, to_square: int | str,
                   count: int | None = None) -> None:
        """What dropping the top ``count`` of the tower on ``from_square`` onto ``to_square``
        does (squares by index or name).

        A legal drop plays the move (asking for the promotion if there is a
        choice); anything else flashes the square, leaves the tower where it
        was and says why. ``count`` None means the whole tower (or, if the
        whole tower cannot move, the largest part that can).
        """
        self._show(self.session.drop(from_square, to_square, count))

    def play(self, move: Move | str) -> None:
        """Play a move from Python (``Move`` or move text) as if it had been clicked.

        An illegal move is explained in the status line and changes nothing.
        """
        self._show(self.session.play(move))

    def type_move(self, text: str) -> None:
        """Play a move typed in the board's box (read as ``Game.play`` reads movetext);
        a refusal is said in the status line and the text stays in the box to correct."""
        played = self.game.action_count
        update = self.session.type_move(text)
        if self.game.action_count != played:
            # emptied before the status says the move was played: one who types the
            # next move on reading it would otherwise see it wiped
            self._updating = True
            try:
                self.move_text.value = ""
            finally:
                self._updating = False
        self._show(update)

    def evaluate(self, on: bool = True) -> None:
        """Show (or hide) the engine's evaluation bar and graph (the Evaluation toggle)."""
        self._updating = True
        try:
            self.evaluation_panel.toggle.value = bool(on)
        finally:
            self._updating = False
        self._show(self.session.evaluate(on))

    def roll(self) -> None:
        """Roll the die (Roll button); skips and passes are announced."""
        self._show(self.session.roll())

    def flip(self) -> None:
        """Turn the board round (the ``flipped`` trait follows)."""
        self._show(self.session.flip())

    def computer_move(self) -> None:
        """Let the computer play the side to move (its agent, or ``random`` for a human side)."""
        self._show(self.session.computer_move())

    def best_move(self, agent: str = "play:1s") -> None:
        """Ask the engine for the best move here (the Best move button), as lichess's
        analysis board shows it: a blue arrow on the board while the position stays,
        and in the status line the move, its value for white and the line it expects.

        ``agent`` is any agent spec that searches (``"play:1s"``, ``"alphabeta:3"``).
        Nothing is played; a position with nothing to search says why.
        """
        self._show(self.session.best_move(agent))

    def go_to(self, index: int) -> None:
        """Show the game after its first ``index`` actions (moves and rolls)."""
        self._show(self.session.go_to(index))

    def step(self, delta: int) -> None:
        """One action back (``-1``) or forward (``+1``): the arrow keys."""
        self._show(self.session.step(delta))

    def undo(self) -> None:
        """Take back the last move -- and the computer's reply -- back to a human's turn.

        A die roll that preceded the move taken back stays: the same face is
        used again (undo cannot re-roll the die).
        """
        self._show(self.session.undo())

    def redo(self) -> None:
        """Play again the move undone last (with the roll before it)."""
        self._show(self.session.redo())

    def back_to_game(self) -> None:
        """Leave the side line and return to the game's own moves where it branched off."""
        self._show(self.session.back_to_game())

    # == new games, records, positions ===========================================
    def set_game(self, game: Game, message: str | None = None) -> None:
        """Put ``game`` on the board (the widget stays; only its contents change);
        ``message`` is what the status line says (default "New game.")."""
        if not isinstance(game, Game):
            raise ArgumentError(_("set_game needs a Game, not {value}").format(
                value=repr(game)[:60]))
        self._show(self.session.set_game(game, message))

    def new_game(self) -> None:
        """Start a new game of the variant (and seed) chosen in the controls."""
        try:
            seed = self.game_panel.seed()
        except TavreiError as exc:
            self._show(self.session.say(_("Cannot start a new game: {error}.").format(error=exc)))
            return
        self._show(self.session.new_game(self.variant_picker.value, seed))

    def load_record(self, text: str | None = None) -> None:
        """Replay a record (the text area's by default); a bad one changes nothing."""
        self._show(self.session.load_record(self.record_text.value if text is None else text))

    def save_record(self) -> None:
        """Write the record into the text area and offer it as a download."""
        text = self.game.record()
        self.record_text.value = text
        self.download_link.value = download_html(text, self.game.variant.id)
        self._show(self.session.say(_("Record written below (and ready to download).")))

    def _on_upload(self, change: dict[str, Any]) -> None:
        if not change["new"]:
            return
        text, why = upload_text(change["new"])
        if text is None:               # a forged or malformed upload: say so, change nothing
            self._show(self.session.say(why))
            return
        self.record_text.value = text
        self.load_record(text)

    def set_position(self, text: str | None = None) -> None:
        """Start a new game from a position string; a bad one is explained, nothing changes.
        Anything but text raises ``TavreiError``."""
        self._show(self.session.set_position(self.position_text.value if text is None
                                             else text))

    def copy_position(self) -> None:
        """Copy the position string to the clipboard (the browser does the copying)."""
        text = self.game.position.string
        self.view.copy_to_clipboard(text)
        self._show(self.session.say(_("Copied the position string: {position}").format(
            position=text)))

    # == lessons and puzzles ======================================================
    def on_move(self, callback: Callable[[Board, Move], Any], *,
                remove: bool = False) -> None:
        """Call ``callback(board, move)`` after each move a person plays on this board.

        "A person" means a click, a drag, or ``board.play(...)``: the computer's
        replies, rolls, undo/redo and loading games do not call it. The
        callback runs after the move is on the board and before the computer
        answers, so a puzzle can judge the move and, if it is wrong, call
        ``board.reject(move, reason)`` -- the computer then does not reply. A
        callback that returns a sentence has it said in the status line after
        the move ("1. d4(2)-d6 played. Right! ...").
        ``remove=True`` unregisters a callback given before.
        """
        self.session.on_move(callback, remove=remove)

    def reject(self, move: Move | str | None = None, reason: str = "") -> None:
        """Take ``move`` (default: the last move) back on the board, and say why.

        The way lichess's lessons answer a wrong move: the destination square
        flashes, the tower slides home, and ``reason`` is shown in the status
        line. ``move`` must be the last move played (rolls after it are taken
        back with it); otherwise a ``TavreiError`` says so and nothing changes.
        The rejected move is not kept for Redo.
        """
        update = self.session.reject(move, reason)
        if not self.session.busy:       # inside on_move the move's own update shows it
            self._show(update)

    # == the board's words =======================================================
    @staticmethod
    def _player_label(spec: str) -> str:
        """A player as the dropdowns name it (``level:3`` is "level 3" / "уровень 3")."""
        return player_label(spec)

    # == without a widget front end ==============================================
    def _repr_svg_(self) -> str:
        return self.view.svg

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, plus the board's SVG for static exports (nbviewer, GitHub, HTML)."""
        return with_svg(super()._repr_mimebundle_(**kwargs), self.view.svg)


__all__ = ["DEFAULT_LETTER_PX", "HUMAN", "MAX_COMPUTER_PLIES", "PROJECTOR_LETTER_PX",
           "PROJECTOR_SCALE", "PROJECTOR_SIZE", "Board", "agent_names", "board_width", "draw",
           "glyph_pictures", "legend_rows", "tower_rows"]
