"""``Board``: the interactive board for notebooks, with its controls.

The division of labour follows lichess's chessground: Python (this module)
owns the game and computes every legal move; the browser (``BoardView``)
draws the SVG it is given, owns the pointer, and reports clicks and drops.
With each drawing Python sends every tower's legal destinations per count,
so a drag shows where it may go without asking the kernel; only the drop
comes back. So the whole behaviour of the board -- selecting a tower,
choosing how many tavrels to take, playing, undo, the die, the computer
opponent -- is ordinary Python that the tests drive by setting the same
traits the browser sets.

A click walks through a small state machine:

1. no tower selected: a click on an own-topped tower selects it (a click on a
   layer of its strip also chooses how many tavrels to take: layer ``i`` of a
   tower of height ``h`` means the top ``h - i``);
2. a tower selected: a click on a lit destination plays the move; a click on
   the selected tower's layer changes the count, on the tower itself clears
   the selection; a click on another own tower selects that one; anything
   else is explained in the status line (the game says why it is illegal).

A drop (``drop_tower``) plays the move if it is legal; otherwise the square
flashes and the status line says why. Either way a refused move changes
nothing, and the tower is back where it was.
"""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as widgets
import traitlets

from tavrei_lab.core.move import Move
from tavrei_lab.core.tavrel import COLOR_NAMES, WHITE
from tavrei_lab.errors import IllegalMoveError, NotationError, TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import get_language, speaking
from tavrei_lab.i18n import gettext as _
from tavrei_lab.widgets import board_engine, board_lessons, board_lines, board_records
from tavrei_lab.widgets.choices import CHOOSE_PROMOTION, PROMOTION_FIRST, Choices
from tavrei_lab.widgets.controls import button as _button
from tavrei_lab.widgets.controls import in_own_language
from tavrei_lab.widgets.die_panel import DiePanel
from tavrei_lab.widgets.drawing import (
    DEFAULT_LETTER_PX,
    PROJECTOR_LETTER_PX,
    PROJECTOR_SCALE,
    PROJECTOR_SIZE,
    board_width,
    draw,
    has_die,
)
from tavrei_lab.widgets.inspector import Inspector, glyph_pictures, legend_rows, tower_rows
from tavrei_lab.widgets.line import MoveLine
from tavrei_lab.widgets.move_panel import MovePanel
from tavrei_lab.widgets.players import HUMAN, PlayersPanel, agent_names, player_label
from tavrei_lab.widgets.status import (
    count_options,
    face_text,
    kind_name,
    move_said,
    not_yours,
    selection_text,
    state_text,
)
from tavrei_lab.widgets.view import BoardView, with_svg

#: How many moves the computer may play in a row from one trigger (both sides
#: played by the computer): a guard so a notebook cell always returns.
MAX_COMPUTER_PLIES = 300

def _speaks_its_language(cls: type[_B]) -> type[_B]:
    """Run every method of the board in the board's own language: a click comes long
    after the cell that made a Russian board, outside any ``speaking`` block, and one
    Russian board may sit beside English ones in the same notebook."""
    for name, value in list(vars(cls).items()):
        if inspect.isfunction(value) and not name.startswith("__"):
            setattr(cls, name, in_own_language(value))
    return cls


_B = TypeVar("_B")


@_speaks_its_language
class Board(widgets.VBox):
    """The board you click or drag on, with its controls::

        Board()                                          # Tavreli, two humans
        Board(variant="gavrilov-die", seed=3, black="random")
        Board(game, projector=True)                      # sized for a classroom projector

    ``game`` (a ``Game``) or ``variant``/``position``/``seed`` choose what is
    on the board; ``white``/``black`` are ``"human"`` or an agent name from
    ``AGENTS``; ``auto_roll`` rolls the die for human players too.
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
    status line.

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

    Read-only traits follow the game, so ``board.observe(f, "ply")``,
    ``ipywidgets.link`` / ``dlink`` and ``interact`` work on them:
    ``position_string`` (the position's text), ``ply``, ``side_to_move``
    (``"white"``/``"black"``) and ``outcome`` (``"1-0"``, ``"0-1"``,
    ``"1/2-1/2"`` or None while the game goes on). Layout keywords of
    ipywidgets (``layout=...``) are passed on to the box.
    """

    position_string = traitlets.Unicode("", read_only=True,
                                        help="the shown position's text (as Set position reads it)")
    ply = traitlets.Int(0, read_only=True, help="plies played to the shown position")
    side_to_move = traitlets.Unicode("white", read_only=True, help='"white" or "black"')
    outcome = traitlets.Unicode(None, allow_none=True, read_only=True,
                                help='"1-0", "0-1", "1/2-1/2", or None while the game goes on')

    def __init__(self, game: Game | None = None, *, variant: str = "tavreli",
                 position: str | None = None, seed: int | None = None,
                 flipped: bool = False, white: str = HUMAN, black: str = HUMAN,
                 auto_roll: bool = False, size: int | None = None,
                 projector: bool = False, language: str | None = None, **box: Any) -> None:
        with speaking(language) as chosen:   # checks it: an unknown one raises TavreiError
            #: "en" or "ru": the language of every word on the board
            self.language = chosen
            self._build(game, variant, position, seed, flipped, white, black, auto_roll, size,
                        projector, box)

    def _build(self, game: Game | None, variant: str, position: str | None, seed: int | None,
               flipped: bool, white: str, black: str, auto_roll: bool, size: int | None,
               projector: bool, box: dict[str, Any]) -> None:
        self.game: Game = game if game is not None else Game(variant, position, seed=seed)
        self.flipped = flipped
        self.projector = projector
        self._size_asked = size
        self.size = board_width(self.game, size, PROJECTOR_SCALE) if projector else size
        self.letter_px = PROJECTOR_LETTER_PX if projector else DEFAULT_LETTER_PX
        self._move_listeners: list[Callable[[Board, Move], Any]] = []
        self._arrows: list[tuple[Any, ...]] = []
        self._highlights: list[Any] = []
        self._effects: dict[str, Any] = {}
        self._dropping = False        # set while a dropped move is played
        self.choices = Choices()      # the half-made choice (plain Python, widgets/choices.py)
        self._took_back = False       # Undo ran last: the next move replaces, not branches
        self.message = ""
        self._updating = False
        self._legal_for: tuple[Any, list[Move]] | None = None
        self._line = MoveLine()
        self._main_game: Game | None = None   # the game, while a side line is explored
        self._branch: int | None = None       # actions before the side line's first move
        self._branch_text = ""                # the game's own move where the side line left it
        self._hint: tuple[Any, tuple[str, str, str]] | None = None  # (position, engine arrow)
        self._hint_agents: dict[str, Any] = {}  # the engine, kept (its table) per spec

        self.view = BoardView()
        self.view.observe(self._on_click, "click")
        self.view.observe(self._on_key, "key")
        self.view.observe(self._on_drop, "drop")
        self.inspector = Inspector(self.view)   # the tower inspector's feed (inspector.py)
        self.inspector.set_pieces(self.game.position.pieces)
        self.status = widgets.HTML()
        self.status.add_class("tavrei-status")
        # the status line always takes three lines' room (board.css sets their
        # height: ipywidgets' HTML line is 28 px, which clipped the second line,
        # issue 25 item 2), so the longest message fits and never pushes the board
        # down (the board holds still)
        self.status.layout = widgets.Layout(height="4.3em", overflow="hidden auto")

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
        self.die_box = self.die_panel.box
        # the size control: a share of the room the board has (a projector board fills
        # it, issue 25 item 3), or of its own size on a notebook board
        self.size_slider = widgets.IntSlider(
            value=100, min=40, max=160, step=5,
            tooltip=_("how large the board is drawn, in per cent of the room it has"),
            readout_format="d", continuous_update=False, layout=widgets.Layout(width="205px"))
        self.size_slider.add_class("tavrei-size")
        size_box = widgets.VBox([widgets.HTML(html.escape(_("Board size")) + ", %"),
                                 self.size_slider], layout=widgets.Layout(width="210px"))
        widgets.link((self.size_slider, "value"), (self.view, "zoom"))
        self.view.fit = projector          # the projector board grows to the room it has
        # the die first: in a die game the Roll button sits by the board's top, in sight
        side = widgets.VBox([self.die_box, self.count_picker, self.promotion_picker,
                             self.move_list, self.move_panel.nav, size_box],
                            layout=widgets.Layout(width="215px", flex="none"))

        # -- under the board: game controls ---------------------------------------
        self.undo_button = _button(_("Undo"), _("take back the last move"), self.undo)
        self.redo_button = _button(_("Redo"), _("play the undone move again"), self.redo)
        self.flip_button = _button(_("Flip"), _("turn the board round (f)"), self.flip)
        self.computer_button = _button(_("Computer move"), _("let the computer play this move"),
                                       self.computer_move)
        self.best_button = _button(_("Best move"), _("ask the engine (1 s): an arrow shows its "
                                                     "move, the status line its value and line"),
                                   lambda: self.best_move())
        from tavrei_lab.variant import variants
        names = variants()
        current = self.game.variant.id
        self.variant_picker = widgets.Dropdown(
            options=self._variant_options(names if current in names else [*names, current]),
            value=current, description=_("Variant"))
        self.seed_text = widgets.Text(value="" if self.game.seed is None else str(self.game.seed),
                                      description=_("Seed"), placeholder=_("no seed"),
                                      layout=widgets.Layout(width="180px"))
        self.new_button = _button(_("New game"), _("start a new game of the chosen variant"),
                                  self.new_game)
        self.players = PlayersPanel(white, black, self._on_players)
        self.white_player = self.players.white_player
        self.black_player = self.players.black_player

        self.record_text = widgets.Textarea(placeholder=_("paste a game record here"),
                                            layout=widgets.Layout(width="100%", height="8em"))
        self.record_upload = widgets.FileUpload(accept=".txt,.pgn,.tvr", multiple=False,
                                                description=_("Open file"))
        self.record_upload.observe(self._on_upload, "value")
        self.download_link = widgets.HTML()
        self.position_text = widgets.Text(description=_("Position"),
                                          layout=widgets.Layout(width="100%"))
        record_box = widgets.VBox([
            self.record_text,
            widgets.HBox([_button(_("Load record"), _("replay the record above"),
                                  self.load_record),
                          _button(_("Save record"), _("write this game's record above"),
                                  self.save_record),
                          self.record_upload, self.download_link]),
            self.position_text,
            widgets.HBox([_button(_("Set position"),
                                  _("start a new game from the position string"),
                                  self.set_position),
                          _button(_("Copy position"), _("copy the position string"),
                                  self.copy_position)]),
        ])
        self.movable_toggle = widgets.ToggleButton(
            value=False, description=_("Show movable"),
            tooltip=_("tint every tower that can move now"))
        self.movable_toggle.observe(lambda _c: self.redraw(), "value")
        self.animate_toggle = widgets.Checkbox(value=True, description=_("animate moves"),
                                               indent=False, layout=widgets.Layout(width="auto"))
        widgets.link((self.animate_toggle, "value"), (self.view, "animations"))
        first_row = widgets.HBox([self.undo_button, self.redo_button, self.flip_button,
                                  self.computer_button, self.best_button, self.movable_toggle,
                                  self.animate_toggle])
        first_row.add_class("tavrei-controls-row")   # the room the fitted board leaves it
        controls = widgets.VBox([
            first_row,
            widgets.HBox([self.variant_picker, self.seed_text, self.new_button]),
            self.players.box,
            record_box,
        ])
        # Narrow room (a projector with JupyterLab's file browser open): the tower
        # inspector goes under the board first, so the move list and the die stay
        # beside it; only where the board and that column do not fit side by side
        # does the column go under the board. (The view's flex basis is the board
        # alone; it grows to hold the inspector beside the board where there is room.)
        self._fit_view()
        main = widgets.HBox([self.view, side], layout=widgets.Layout(flex_flow="row wrap"))
        super().__init__([self.status, main, controls], **box)
        self.add_class("tavrei-board-app")
        if projector:
            self.add_class("tavrei-projector")
            self.view.add_class("tavrei-projector")
        self._after_change([_("New game.") if game is None else _("Game loaded."),
                            *self._continue()])

    # the half-made choice lives in self.choices; these names stay the Board's API
    @property
    def selected(self) -> int | None:
        return self.choices.selected

    @selected.setter
    def selected(self, square: int | None) -> None:
        self.choices.selected = square

    @property
    def count(self) -> int | None:
        return self.choices.count

    @count.setter
    def count(self, count: int | None) -> None:
        self.choices.count = count

    @property
    def pending_promotion(self) -> list[Move]:
        return self.choices.pending_promotion

    def _close_choices(self) -> None:
        """Every navigation closes the selection and an open promotion picker."""
        self.choices.close()
        self.promotion_picker.layout.display = "none"

    def _fit_view(self) -> None:
        """Let the view shrink to the board's width (the inspector then wraps under it)."""
        from tavrei_lab.render.board import DEFAULT_SCALE
        width = board_width(self.game, self.size, DEFAULT_SCALE)
        self.view.layout.flex = "1 1 0px"
        self.view.layout.min_width = f"{width}px"
        self.view.layout.max_width = "max-content"


    # == reading the state ========================================================
    @property
    def position(self) -> Any:
        return self.game.position

    def legal_moves(self) -> list[Move]:
        """The legal moves now (cached per position: a click asks several times)."""
        pos = self.game.position
        if self._legal_for is None or self._legal_for[0] is not pos:
            moves = [] if self.game.is_chance_node() else self.game.legal_moves()
            self._legal_for = (pos, moves)
        return self._legal_for[1]

    def destinations(self) -> list[int]:
        """Squares the selected unit (``selected``, ``count``) may move to."""
        if self.selected is None:
            return []
        return sorted({m.to_square for m in self.legal_moves()
                       if m.from_square == self.selected and m.count == self.count})

    def square_names(self, squares: list[int]) -> list[str]:
        return [self.game.position.geometry.name(s) for s in squares]

    def greyed(self) -> list[str]:
        """Own towers that may not move now because of the die face (die games only)."""
        pos = self.game.position
        if pos.roll is None or self.game.is_chance_node():
            return []
        movable = {m.from_square for m in self.legal_moves()}
        return [pos.geometry.name(s) for s, tower in enumerate(pos.board)
                if tower and tower[-1].color == pos.turn and s not in movable]

    def player(self, color: int) -> str:
        return (self.white_player if color == WHITE else self.black_player).value

    def is_human_turn(self) -> bool:
        return self.player(self.game.position.turn) == HUMAN

    def line(self) -> MoveLine:
        """The whole line -- what was played plus what can be redone -- with its texts
        (kept between steps: stepping through a long game costs no more than a short one)."""
        self._line.follow(self.game)
        return self._line

    # == drawing ==================================================================
    def svg(self) -> str:
        """The board as drawn now (also the static fallback)."""
        split = self.count if self.selected is not None else None
        hint = self._hint
        engine = [hint[1]] if hint is not None and hint[0] is self.game.position else []
        return draw(self.game, flipped=self.flipped, selected=self.selected,
                    destinations=self.destinations() or None, split_count=split,
                    size=self.size, arrows=self._arrows + engine,
                    highlights=self._highlights + self._movable_marks(),
                    letter_px=self.letter_px)

    def redraw(self) -> None:
        """Send a new drawing to the browser (in place: the widget stays)."""
        effects, self._effects = self._effects, {}
        pos = self.game.position
        towers = self.inspector.towers(pos)
        self.view.show(self.svg(), self.greyed(), moves=self.moves_by_tower(),
                       effects=effects, towers=towers)


    def _movable_marks(self) -> list[tuple[str, str]]:
        """With "Show movable" on: every tower that can move, tinted green."""
        if not self.movable_toggle.value:
            return []
        return [(name, "green") for name in self.moves_by_tower()]

    def _slide(self, move: Move, back: bool = False) -> None:
        """Animate ``move`` with the next drawing (``back``: as it is taken back)."""
        names = self.game.position.geometry.names
        fr, to = names[move.from_square], names[move.to_square]
        self._effects.setdefault("slide", []).append([to, fr] if back else [fr, to])

    def moves_by_tower(self) -> dict[str, dict[str, list[str]]]:
        """Where each tower may go now, per count: ``{"e2": {"1": ["e3", "e4"]}}``.

        Sent to the browser with every drawing, so a drag shows its
        destinations at once (also in JupyterLite, whose kernel is slow) and
        the kernel hears only of the drop. Empty when no person may move.
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

    def _flash(self, *squares: int, home: Move | None = None) -> None:
        """With the next drawing: flash ``squares``; slide ``home``'s tower back to its start."""
        names = self.game.position.geometry.names
        flash = self._effects.setdefault("flash", [])
        flash.extend(names[s] for s in squares)
        if home is not None:
            self._effects.setdefault("slide", []).append(
                [names[home.to_square], names[home.from_square]])

    def _after_change(self, messages: list[str]) -> None:
        """Redraw everything that depends on the game, and say what happened.

        The board and its status line go to the browser first: they are the
        answer to the click or drop; the move list and the other controls follow.
        """
        self.message = " ".join(m for m in messages if m)
        self.status.value = self._status_html()
        self.redraw()
        self._updating = True
        try:
            self.move_panel.show(self.line(), self.game.action_count, self._branch,
                                 self._main_game is not None)
            self._update_count_picker()
            self.die_panel.show(self.game)
            self.position_text.value = self.game.position.string
            self._set_game_traits()
            self.undo_button.disabled = not self.game.action_count
            self.redo_button.disabled = not self.game.can_redo()
        finally:
            self._updating = False

    def _set_game_traits(self) -> None:
        """Update the read-only traits (each fires ``observe`` only when it changes)."""
        game = self.game
        pos = game.position
        outcome = game.outcome()
        with self.hold_trait_notifications():
            self.set_trait("position_string", pos.string)
            self.set_trait("ply", game.ply)
            self.set_trait("side_to_move", COLOR_NAMES[pos.turn])
            self.set_trait("outcome", None if outcome is None else outcome.result())

    def _status_html(self) -> str:
        # whose turn first: a long message may run past the two reserved lines
        # (they scroll), but the state of the game is always in sight
        return (f'<b class="tavrei-state">{html.escape(self.state_text())}</b> '
                f'<span class="tavrei-message">{html.escape(self.message)}</span>')

    def state_text(self) -> str:
        """Whose turn, check, mate, stalemate, draws: the first half of the status line."""
        return state_text(self.game)

    def _face_text(self, face: str | None) -> str:
        return face_text(self.game.position.pieces, face)


    def _update_count_picker(self) -> None:
        pos = self.game.position
        if self.selected is None:
            self.count_picker.options = []
            self.count_picker.disabled = True
            return
        height = len(pos.board[self.selected])
        counts = sorted({m.count for m in self.legal_moves() if m.from_square == self.selected})
        self.count_picker.options = count_options(pos, self.selected, counts)
        self.count_picker.value = self.count
        self.count_picker.disabled = height == 1


    # == clicks and keys ==========================================================
    def _on_click(self, change: dict[str, Any]) -> None:
        click = change["new"] or {}
        name = str(click.get("square", ""))
        layer = click.get("layer")
        try:
            square = self.game.position.geometry.parse(name)
        except NotationError as exc:
            self._after_change([_("Click ignored: {error}.").format(error=exc)])
            return
        self.click_square(square, layer if isinstance(layer, int) else None)

    def _on_drop(self, change: dict[str, Any]) -> None:
        drop = change["new"] or {}
        g = self.game.position.geometry
        try:
            fr, to = g.parse(str(drop.get("from", ""))), g.parse(str(drop.get("to", "")))
        except NotationError as exc:
            self._after_change([_("Drop ignored: {error}.").format(error=exc)])
            return
        count = drop.get("count")
        self.drop_tower(fr, to, count if isinstance(count, int) else None)

    def drop_tower(self, from_square: int, to_square: int, count: int | None = None) -> None:
        """What dropping the top ``count`` of the tower on ``from_square`` onto ``to_square`` does.

        A legal drop plays the move (asking for the promotion if there is a
        choice); anything else flashes the square, leaves the tower where it
        was and says why. ``count`` None means the whole tower (or, if the
        whole tower cannot move, the largest part that can).
        """
        game = self.game
        pos = game.position
        refusal = self._refusal()
        if refusal:
            self._flash(from_square)
            self._after_change([refusal])
            return
        tower = pos.board[from_square]
        if not tower or tower[-1].color != pos.turn:
            self._flash(from_square)
            self._after_change([self._not_yours(from_square)])
            return
        if count is None:
            count = self._default_count(from_square)
        self._close_choices()
        found = [m for m in self.legal_moves() if m.key == (from_square, count, to_square)]
        if found:
            self._dropping = True   # the tower already stands there: no slide
            try:
                self._play(found)
            finally:
                self._dropping = False
            return
        self._flash(to_square)
        self._after_change([self._why_not(Move(from_square, count, to_square))])

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
            return played.format(agent=self._player_label(self.player(pos.turn)))
        if self.pending_promotion:
            return _(PROMOTION_FIRST)
        return ""

    def _not_yours(self, square: int) -> str:
        """The explanation of a click on an empty square or an enemy unit."""
        return not_yours(self.game.position, square)

    def _default_count(self, square: int) -> int:
        """The count a tower is picked up with: whole, or the largest part that can move."""
        height = len(self.game.position.board[square])
        counts = sorted({m.count for m in self.legal_moves() if m.from_square == square})
        return height if (height in counts or not counts) else counts[-1]

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

    def click_square(self, square: int, layer: int | None = None) -> None:
        """What a click on ``square`` (layer ``layer`` of its strip) does; see the module."""
        game = self.game
        pos = game.position
        refusal = self._refusal()
        if refusal:
            self._flash(square)
            self._after_change([refusal])
            return
        if self.selected is not None:
            found = [m for m in self.legal_moves()
                     if m.key == (self.selected, self.count, square)]
            if found:
                self._play(found)
                return
            if square == self.selected:
                if layer is not None:
                    self._choose_count(len(pos.board[square]) - layer)
                else:
                    self._deselect(_("Selection cleared."))
                return
        tower = pos.board[square]
        if tower and tower[-1].color == pos.turn:
            self._select(square, layer)
            return
        if self.selected is None:
            self._flash(square)
            self._after_change([self._not_yours(square)])
            return
        self._flash(square)
        self._after_change([self._why_not(Move(self.selected, self.count or 1, square))])

    def _why_not(self, move: Move) -> str:
        """The game's own explanation of an illegal move (the game is not changed)."""
        game = self.game
        before = len(game.history)
        try:
            game.push(move)
        except IllegalMoveError as exc:
            return _("Illegal: {reason}.").format(reason=exc)
        game.pop()  # unreachable for a move not in legal_moves(); undone to be safe
        assert len(game.history) == before
        return _("That move is legal.")

    def _select(self, square: int, layer: int | None) -> None:
        pos = self.game.position
        tower = pos.board[square]
        height = len(tower)
        if layer is not None and 0 <= layer < height:
            count = height - layer
        else:
            count = self._default_count(square)
        self.selected = square
        self.count = count
        self._after_change([self._selection_text()])

    def _choose_count(self, count: int) -> None:
        height = len(self.game.position.board[self.selected]) if self.selected is not None else 0
        if self.selected is None or not 1 <= count <= height:
            self._after_change([_("Cannot take {count}: select a tower of at least {count}.")
                                .format(count=count)])
            return
        self.count = count
        self._after_change([self._selection_text()])

    def _selection_text(self) -> str:
        assert self.selected is not None and self.count is not None
        counts = sorted({m.count for m in self.legal_moves() if m.from_square == self.selected})
        return selection_text(self.game.position, self.selected, self.count,
                              self.square_names(self.destinations()), counts)

    def _deselect(self, message: str = "") -> None:
        self.selected = None
        self.count = None
        self._after_change([message])

    def _on_count_picked(self, change: dict[str, Any]) -> None:
        if self._updating or change["new"] is None:
            return
        self._choose_count(int(change["new"]))

    def _on_promotion_picked(self, change: dict[str, Any]) -> None:
        if self._updating or change["new"] is None or not self.pending_promotion:
            return
        try:
            move = self.choices.take_promotion(change["new"], self.game.position)
        except IllegalMoveError as exc:   # offered in a position no longer shown
            self.promotion_picker.layout.display = "none"
            self._after_change([str(exc)])
            return
        self.promotion_picker.layout.display = "none"
        self._push(move)

    # == playing ==================================================================
    def _play(self, moves: list[Move]) -> None:
        if len({m.promotion for m in moves}) > 1:
            pos = self.game.position
            self.choices.offer_promotion(moves, pos)
            self._updating = True
            try:
                self.promotion_picker.options = [
                    (kind_name(pos.pieces.by_kind[m.promotion]), m) for m in moves]
                self.promotion_picker.value = None
            finally:
                self._updating = False
            self.promotion_picker.layout.display = ""
            self._after_change([_(CHOOSE_PROMOTION)])
            return
        self._push(moves[0])

    def _push(self, move: Move) -> None:
        """Play a person's move, tell the ``on_move`` listeners, then let the game go on."""
        messages = [self._played_text(move)]
        game = self.game
        if not self._along_the_line(move):
            self.game.push(move)
            if self.game is not game:
                messages.append(_("A side line: the game's own {move} is kept "
                                  "(Back to the game returns to it).").format(
                                      move=self._branch_text))
        if not self._dropping:      # a click-click move glides there, as a drop did by hand
            self._slide(move)
        self.selected = None
        self.count = None
        ply = len(self.game.history)
        for listener in list(self._move_listeners):
            said = None
            try:
                said = listener(self, move)
            except Exception as exc:  # a lesson's bug must not freeze the board
                messages.append(_("(An on_move callback failed: {error})").format(
                    error=f"{type(exc).__name__}: {exc}"))
            if len(self.game.history) != ply or self.game.history[-1] != move:
                return  # a listener took the move back (``reject``) and said why
            if isinstance(said, str) and said:   # a lesson's word on the move: "Right!"
                messages.append(said)
        messages += self._continue()
        self._after_change(messages)

    # == lessons and puzzles =====================================================
    def _played_text(self, move: Move, checks: bool = False) -> str:
        return _("{move} played.").format(move=move_said(self.game, move, checks))

    def play(self, move: Move | str) -> None:
        """Play a move from Python (``Move`` or move text) as if it had been clicked.

        An illegal move is explained in the status line and changes nothing.
        """
        if isinstance(move, str):
            try:
                move = self.game.parse_move(move)
            except TavreiError as exc:
                self._after_change([_("Illegal: {reason}.").format(reason=exc)])
                return
        found = [m for m in self.legal_moves() if m == move or
                 (m.key == move.key and m.promotion == move.promotion)]
        if not found:
            self._after_change([self._why_not(move)])
            return
        self._push(found[0])

    def _continue(self) -> list[str]:
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
                    game.is_chance_node() and self.auto_roll.value)):
                text = self.line().texts[game.action_count]
                action = game.redo()
                if isinstance(action, Move):
                    self._slide(action)
                messages.append(_("{move} played, as in the game.").format(move=text))
                continue
            if game.is_chance_node():
                if self.is_human_turn() and not self.auto_roll.value:
                    break
                messages.append(self._roll_once())
                continue
            if self.is_human_turn():
                break
            agent = self._agent(game.position.turn)
            move = agent.choose(game)
            messages.append(self._computer_text(move, agent))
            game.push(move)
            self._slide(move)
        return messages

    def _on_players(self, text: str, go_on: bool) -> None:
        self._after_change([text, *(self._continue() if go_on else [])])

    # == the die ==================================================================
    def roll(self) -> None:
        """Roll the die (Roll button); skips and passes are announced."""
        game = self.game
        if not game.is_chance_node():
            if not has_die(game):
                why = _("No roll is due: this game has no die.")
            elif game.position.turn == WHITE:
                why = _("No roll is due: white must move first.")
            else:
                why = _("No roll is due: black must move first.")
            self._after_change([why])
            return
        self._close_choices()
        messages = [self._roll_once()]
        self._after_change(messages + self._continue())

    def _roll_once(self) -> str:
        self._along_the_line(None)          # a new roll where the line goes on: a side line
        game = self.game
        before = game.position.turn
        face = game.roll()
        self._effects["roll"] = True
        rolled = _("White rolled {face}.") if before == WHITE else _("Black rolled {face}.")
        text = rolled.format(face=self._face_text(face))
        after = game.position
        if game.is_chance_node() or after.turn != before:
            text += " " + (_("No move: the turn passes to white.") if after.turn == WHITE
                           else _("No move: the turn passes to black."))
        elif not game.legal_moves():
            text += " " + _("No unit may move.")
        return text

    # == stepping through the game ===============================================

    def flip(self) -> None:
        self.flipped = not self.flipped
        self._after_change([_("Board flipped.")])

    # == new games, records, positions ===========================================
    def set_game(self, game: Game, message: str | None = None) -> None:
        """Put ``game`` on the board (the widget stays; only its contents change);
        ``message`` is what the status line says (default "New game.")."""
        if message is None:
            message = _("New game.")
        self.game = game
        self._main_game = self._branch = None
        self._took_back = False
        self._close_choices()
        # a teacher's arrows and circles belong to the old position (issue 25 item 5)
        self._arrows = []
        self._highlights = []
        self._hint = None
        self.view.drawn = []             # the arrows and circles drawn in the browser too
        self._legal_for = None
        if self.projector:                # the new game may have another board or a die
            self.size = board_width(game, self._size_asked, PROJECTOR_SCALE)
        self._fit_view()
        self.players.reset()
        self.inspector.set_pieces(game.position.pieces)
        self._updating = True
        try:
            if game.variant.id not in self.variant_picker.options:
                self.variant_picker.options = self._variant_options(
                    [*self.variant_picker.options, game.variant.id])
            self.variant_picker.value = game.variant.id
            self.seed_text.value = "" if game.seed is None else str(game.seed)
        finally:
            self._updating = False
        self._after_change([message, *self._continue()])

    def _seed(self) -> int | None:
        text = self.seed_text.value.strip()
        if not text:
            return None
        try:
            return int(text)
        except ValueError:
            raise NotationError(_("seed must be a whole number, got {text}").format(
                                    text=repr(text)),
                                text=text) from None

    def new_game(self) -> None:
        """Start a new game of the variant (and seed) chosen in the controls."""
        try:
            game = Game(self.variant_picker.value, seed=self._seed())
        except TavreiError as exc:
            self._after_change([_("Cannot start a new game: {error}.").format(error=exc)])
            return
        self.set_game(game, _("New game of {variant}.").format(variant=_(game.variant.name)))

    def load_record(self, text: str | None = None) -> None:
        """Replay a record (the text area's by default); a bad one changes nothing."""
        board_records.load_record(self, text)

    def save_record(self) -> None:
        """Write the record into the text area and offer it as a download."""
        board_records.save_record(self)

    def _on_upload(self, change: dict[str, Any]) -> None:
        board_records.on_upload(self, change)

    def set_position(self, text: str | None = None) -> None:
        """Start a new game from a position string; a bad one is explained, nothing changes."""
        board_records.set_position(self, text)

    def copy_position(self) -> None:
        """Copy the position string to the clipboard (the browser does the copying)."""
        board_records.copy_position(self)

    # == stepping, takebacks, side lines (board_lines.py) ====================
    def _along_the_line(self, move: Move | None) -> bool:
        """Where the line goes on, the move a person plays either is its next move --
        then the board steps to it, keeping the line -- or starts a side line.

        A side line is played on a copy of the game (``board.game`` becomes the
        copy): the game itself keeps its own moves, and "Back to the game" returns
        to them where the side line left them, as on lichess's analysis board.
        Returns True when the move was the line's own (already played by stepping).
        ``move`` None stands for a new roll of the die, which always starts a side line.
        """
        return board_lines.along_the_line(self, move)

    def back_to_game(self) -> None:
        """Leave the side line and return to the game's own moves where it branched off."""
        board_lines.back_to_game(self)

    def go_to(self, index: int) -> None:
        """Show the game after its first ``index`` actions (moves and rolls)."""
        board_lines.go_to(self, index)

    def _where_text(self) -> str:
        """Which position the board shows while stepping: "After 2... @B b7-b6 (ply 4 of 9)."."""
        return board_lines.where_shown(self)

    def step(self, delta: int) -> None:
        """One action back (``-1``) or forward (``+1``): the arrow keys."""
        board_lines.step(self, delta)

    def undo(self) -> None:
        """Take back the last move -- and the computer's reply -- back to a human's turn.

        A die roll that preceded the move taken back stays: the same face is
        used again (undo cannot re-roll the die).
        """
        board_lines.undo(self)

    def redo(self) -> None:
        """Play again the move undone last (with the roll before it)."""
        board_lines.redo(self)

    # == lessons and puzzles (board_lessons.py) ===============================
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
        board_lessons.on_move(self, callback, remove=remove)

    def reject(self, move: Move | str | None = None, reason: str = "") -> None:
        """Take ``move`` (default: the last move) back on the board, and say why.

        The way lichess's lessons answer a wrong move: the destination square
        flashes, the tower slides home, and ``reason`` is shown in the status
        line. ``move`` must be the last move played (rolls after it are taken
        back with it); otherwise a ``TavreiError`` says so and nothing changes.
        The rejected move is not kept for Redo.
        """
        board_lessons.reject(self, move, reason)

    @property
    def arrows(self) -> list[tuple[Any, ...]]:
        """The teacher's arrows: ``[("e2", "e4"), ("g1", "f3", "red"), ("d5", "d5")]``.

        Each is (from, to) or (from, to, colour); a colour is ``green`` (the
        default), ``red``, ``blue``, ``yellow`` or any SVG colour; an arrow from
        a square to itself circles it. Assign a new list to change them (they
        are drawn live and in the static SVG); a bad entry raises
        ``TavreiError`` naming it and the old arrows stay.
        """
        return list(self._arrows)

    @arrows.setter
    def arrows(self, value: Any) -> None:
        value = [tuple(a) if isinstance(a, list) else a for a in value]
        self._check_marks(arrows=value, highlights=self._highlights)
        self._arrows = value
        self.redraw()

    @property
    def highlights(self) -> list[Any]:
        """Squares tinted on the board: ``["e4", ("d5", "red")]`` (a hint, "look here").

        Each is a square name or a (square, colour) pair (default yellow).
        Assign a new list to change them; ``[]`` clears them. A bad entry
        raises ``TavreiError`` naming it and the old highlights stay.
        """
        return list(self._highlights)

    @highlights.setter
    def highlights(self, value: Any) -> None:
        value = [tuple(h) if isinstance(h, list) else h for h in
                 ([value] if isinstance(value, str) else value)]
        self._check_marks(arrows=self._arrows, highlights=value)
        self._highlights = value
        self.redraw()

    def _check_marks(self, arrows: list[Any], highlights: list[Any]) -> None:
        """Draw once with the new marks, so a bad one fails before anything changes."""
        board_lessons.check_marks(self, arrows, highlights)

    # == the computer (board_engine.py) =======================================
    def _agent(self, color: int) -> Any:
        """The agent playing ``color`` (made once per player choice, seeded from the game)."""
        return board_engine.agent(self, color)

    def computer_move(self) -> None:
        """Let the computer play the side to move (its agent, or ``random`` for a human side)."""
        board_engine.computer_move(self)

    def best_move(self, agent: str = "play:1s") -> None:
        """Ask the engine for the best move here (the Best move button), as lichess's
        analysis board shows it: a blue arrow on the board while the position stays,
        and in the status line the move, its value for white and the line it expects.

        ``agent`` is any agent spec that searches (``"play:1s"``, ``"alphabeta:3"``).
        Nothing is played; a position with nothing to search says why.
        """
        board_engine.best_move(self, agent)

    # == the board's words =======================================================
    def _computer_text(self, move: Move, agent: Any) -> str:
        return _("{move} played by the computer ({agent}).").format(
            move=move_said(self.game, move), agent=self._player_label(agent.name))

    @staticmethod
    def _player_label(spec: str) -> str:
        """A player as the dropdowns name it (``level:3`` is "level 3" / "уровень 3")."""
        return player_label(spec)

    @staticmethod
    def _variant_options(ids: Any) -> list[Any]:
        """The variant picker's choices: the ids in English (as they are typed), each
        variant's name in Russian (an id such as gavrilov-die is English words)."""
        from tavrei_lab.variant import load_variant
        plain = [option[1] if isinstance(option, tuple) else option for option in ids]
        if get_language() != "ru":
            return plain
        options = []
        for variant_id in plain:
            try:
                name = _(load_variant(variant_id).variant.name)
            except TavreiError:
                name = variant_id
            options.append((name, variant_id))
        return options

    # == without a widget front end ==============================================
    def _repr_svg_(self) -> str:
        return self.view.svg

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, plus the board's SVG for static exports (nbviewer, GitHub, HTML)."""
        return with_svg(super()._repr_mimebundle_(**kwargs), self.view.svg)



__all__ = ["DEFAULT_LETTER_PX", "HUMAN", "PROJECTOR_LETTER_PX", "PROJECTOR_SCALE",
           "PROJECTOR_SIZE", "Board", "agent_names", "board_width", "draw", "glyph_pictures",
           "legend_rows", "tower_rows"]
