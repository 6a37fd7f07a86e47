"""``PositionEditor``: set up a position by clicking, then play it.

A teacher picks a tavrel from the palette (both colours) and clicks squares
to put it **on top** of the tower there; the "remove top" tool takes the top
tavrel off; Clear empties the board. The side to move and the castling rights
(which are the "has moved" flags of the volkhvs and ratoborets) are set
beside the board. The editor refuses set-ups the rules cannot accept and
says why, using the rule module's own ``validate`` (a tavrel on a volkhv, two
volkhvs of one colour, the side not to move in check, ...), and hands an
accepted position to a new game on a ``Board``.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from tavrei_lab.core import speech
from tavrei_lab.core.position import MAX_TAVRELS, Position
from tavrei_lab.core.tavrel import (
    BISHOP,
    BLACK,
    HELGI,
    KING,
    KNIGHT,
    MOVED,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    Tavrel,
)
from tavrei_lab.errors import LimitError, NotationError, PositionError, TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.position_string import MAX_TOWER_HEIGHT, read_position
from tavrei_lab.widgets.controls import no_null_tooltips
from tavrei_lab.widgets.view import BoardView, with_svg

REMOVE = "remove"
_PALETTE_KINDS = (KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN)


class PositionEditor(widgets.VBox):
    """Set up a position by clicking (see the module docstring).

    ``variant`` chooses the rules and board, ``position`` the starting set-up
    (default: the variant's initial position); with ``board`` given, "Play
    from here" puts the new game on that ``Board``, else a new ``Board``
    appears under the editor (``editor.board``).
    """

    children: tuple[Any, ...]  # the VBox trait, typed for the type checker

    def __init__(self, variant: str = "tavreli", position: str | None = None,
                 *, board: Any = None) -> None:
        self.rules = Game(variant).rules
        self.board = board
        start = self.rules.initial_position()
        self._start = start
        self._destinies = self._destiny_table(start)
        self._castle_homes = self._castling_homes(start)
        self.view = BoardView()
        self.view.observe(self._on_click, "click")
        self.status = widgets.HTML()
        self.status.add_class("tavrei-editor-status")

        pieces = self.rules.pieces
        options: list[tuple[str, Any]] = []
        tooltips: list[str] = []
        for color in (WHITE, BLACK):
            for kind in self._palette_kinds():
                promoted = kind == HELGI
                base = PAWN if promoted else kind
                letter = pieces.letter(kind)
                options.append((letter if color == WHITE else letter.lower(),
                                (color, base, promoted)))
                info = pieces.by_kind[kind]
                said = speech.tavrel_glossed(color, info)
                tooltips.append(_("{tavrel} (a promoted ratnik)").format(tavrel=said)
                                if promoted else said)
        options.append((_("remove top"), REMOVE))
        tooltips.append(_("take the top tavrel off a tower"))
        self.tool = widgets.ToggleButtons(options=options, tooltips=tooltips,
                                          value=options[0][1],
                                          style={"button_width": "auto"})
        self.turn_picker = widgets.ToggleButtons(options=[(_("white to move"), WHITE),
                                                          (_("black to move"), BLACK)],
                                                 value=WHITE)
        self.turn_picker.observe(self._on_turn, "value")
        self.tool.observe(_keep_a_choice, "value")
        self.rights: dict[tuple[int, str], widgets.Checkbox] = {}
        for color in (WHITE, BLACK):
            for side in ("0-0", "0-0-0"):
                if (color, side) in self._castle_homes:
                    box = widgets.Checkbox(value=False, indent=False,
                                           description=_may_castle(color, side))
                    box.observe(lambda _c: self._changed(""), "value")
                    self.rights[(color, side)] = box
        self.position_text = widgets.Text(description=_("Position"),
                                          layout=widgets.Layout(width="100%"))
        buttons = widgets.HBox([
            self._button(_("Clear"), _("empty the board"), self.clear),
            self._button(_("Start position"), _("the variant's initial position"), self.reset),
            self._button(_("Read position"), _("set up the position string below"),
                         self.read_position),
            self._button(_("Play from here"), _("start a new game from this position"),
                         self.play),
        ])
        self._board: list[tuple[Tavrel, ...]] = []
        self._loading = False
        super().__init__([self.status, self.tool,
                          widgets.HBox([self.view, widgets.VBox([self.turn_picker,
                                                                 *self.rights.values()])]),
                          buttons, self.position_text])
        self.add_class("tavrei-editor")
        no_null_tooltips(self)
        if position is None:
            self._load(start, _("Pick a tavrel and click squares to put it on top of a "
                                "tower."))
        else:
            self._load(read_position(position, self.rules, validate=False),
                       _("Position read."))

    @staticmethod
    def _button(description: str, tooltip: str, handler: Any) -> widgets.Button:
        button = widgets.Button(description=description, tooltip=tooltip)
        button.on_click(lambda _b: handler())
        return button

    # -- what the variant offers ---------------------------------------------------
    def _palette_kinds(self) -> list[int]:
        kinds = [k for k in _PALETTE_KINDS if k in self.rules.pieces.by_kind]
        if HELGI in self._destinies.values():  # helgi exists only as a promoted ratnik
            kinds.append(HELGI)
        return kinds

    def _destiny_table(self, start: Position) -> dict[tuple[int, int], int]:
        """(colour, file) -> the destiny a ratnik placed on that file gets (from the set-up)."""
        width = start.geometry.width
        table: dict[tuple[int, int], int] = {}
        for s, tower in enumerate(start.board):
            for t in tower:
                if t.kind == PAWN and t.destiny:
                    table.setdefault((t.color, s % width), t.destiny)
        return table

    def _castling_homes(self, start: Position) -> dict[tuple[int, str], tuple[int, int]]:
        """(colour, "0-0"/"0-0-0") -> (volkhv square, ratoborets square) in the set-up."""
        homes: dict[tuple[int, str], tuple[int, int]] = {}
        if not self.rules.castling:
            return homes
        g = start.geometry
        for color in (WHITE, BLACK):
            ks = start.king_square(color)
            if ks is None:
                continue
            for s, tower in enumerate(start.board):
                if (tower and tower[-1].kind == ROOK and tower[-1].color == color
                        and g.rank_of(s) == g.rank_of(ks)):
                    side = "0-0" if g.file_of(s) > g.file_of(ks) else "0-0-0"
                    homes.setdefault((color, side), (ks, s))
        return homes

    # -- the set-up ----------------------------------------------------------------
    def _load(self, position: Position, message: str) -> None:
        self._loading = True
        try:
            self._board = list(position.board)
            self.turn_picker.value = position.turn
            for (color, side), box in self.rights.items():
                ks, rs = self._castle_homes[(color, side)]
                box.value = (self._unmoved(position.board[ks], KING, color)
                             and self._unmoved(position.board[rs], ROOK, color))
        finally:
            self._loading = False
        self._changed(message)

    @staticmethod
    def _unmoved(tower: tuple[Tavrel, ...], kind: int, color: int) -> bool:
        return (len(tower) == 1 and tower[0].kind == kind and tower[0].color == color
                and not tower[0].moved and not tower[0].promoted)

    def position(self) -> Position:
        """The set-up as a ``Position`` (not validated; see ``validated``)."""
        board = [tuple(self._with_rights(s, t) for t in tower)
                 for s, tower in enumerate(self._board)]
        return Position(self.rules, tuple(board), self.turn_picker.value)

    def _with_rights(self, square: int, t: Tavrel) -> Tavrel:
        """Volkhv and ratoborets flags follow the castling rights ticked."""
        if t.kind not in (KING, ROOK) or t.promoted:
            return t
        granted = False
        for (color, _side), box in self.rights.items():
            ks, rs = self._castle_homes[(color, _side)]
            if box.value and color == t.color and square == (ks if t.kind == KING else rs):
                granted = True
        unmoved = Tavrel(t & ~MOVED)
        return unmoved if granted else unmoved.with_moved()

    def problems(self) -> str | None:
        """Why this set-up cannot start a game, or None when it can."""
        for (color, side), box in self.rights.items():
            ks, rs = self._castle_homes[(color, side)]
            g = self.rules.geometry
            if box.value and not (self._unmoved_kind(ks, KING, color)
                                  and self._unmoved_kind(rs, ROOK, color)):
                return _("{may} only with the {king} alone on {king_square} and the {rook} "
                         "alone on {rook_square}").format(
                    may=_may_castle(color, side),
                    king=speech.kind_name(self.rules.pieces.by_kind[KING]),
                    king_square=g.name(ks),
                    rook=speech.kind_name(self.rules.pieces.by_kind[ROOK]),
                    rook_square=g.name(rs))
        try:
            self.rules.validate(self.position())
        except (PositionError, LimitError) as exc:   # a limit is a reason like any other
            return str(exc)
        return None

    def _unmoved_kind(self, square: int, kind: int, color: int) -> bool:
        tower = self._board[square]
        return (len(tower) == 1 and tower[0].kind == kind and tower[0].color == color
                and not tower[0].promoted)

    def validated(self) -> Position:
        """The set-up as a ``Position``; raises ``PositionError`` with the reason if refused."""
        problem = self.problems()
        if problem is not None:
            raise PositionError(_("this set-up cannot start a game: {problem}").format(
                problem=problem))
        return self.position()

    def game(self) -> Game:
        """A new ``Game`` from the set-up (raises ``PositionError`` if it is refused)."""
        return Game(self.rules, self.validated())

    def _on_turn(self, change: dict[str, Any]) -> None:
        if _keep_a_choice(change):
            self._changed("")

    # -- editing -------------------------------------------------------------------
    def _on_click(self, change: dict[str, Any]) -> None:
        name = str((change["new"] or {}).get("square", ""))
        try:
            square = self.rules.geometry.parse(name)
        except NotationError as exc:
            self._changed(_("Click ignored: {reason}.").format(reason=exc))
            return
        self.click_square(square)

    def click_square(self, square: int) -> None:
        """Apply the chosen tool to ``square``: put a tavrel on top, or remove the top."""
        name = self.rules.geometry.name(square)
        tower = self._board[square]
        tool = self.tool.value
        if tool is None:       # nothing picked (a front end may send that): say so
            self._changed(_("Pick a tavrel (or '{remove}') first.").format(
                remove=_("remove top")))
            return
        if tool == REMOVE:
            if not tower:
                self._changed(_("Nothing to remove on {square}.").format(square=name))
                return
            self._board[square] = tower[:-1]
            self._changed(_("Removed the top of {square}.").format(square=name))
            return
        color, kind, promoted = tool
        tavrel = self._make(color, kind, promoted, square)
        label = self._describe(tavrel)
        if tower and tower[-1].kind == KING and not self.rules.king_capture:
            self._changed(_("Refused: nothing may be placed on a {king} ({square}).").format(
                king=speech.kind_name(self.rules.pieces.by_kind[KING]), square=name))
            return
        if len(tower) >= MAX_TOWER_HEIGHT:
            self._changed(_("Refused: a tower may hold at most {most} tavrels.").format(
                most=MAX_TOWER_HEIGHT))
            return
        if sum(len(t) for t in self._board) >= MAX_TAVRELS:
            # the readers refuse more (a saved record or copied position would not load)
            self._changed(_("Refused: a position may hold at most {most} tavrels.").format(
                most=MAX_TAVRELS))
            return
        before = self._board[square]
        self._board[square] = tower + (tavrel,)
        problem = self._problem_at(name)
        if problem is not None:
            self._board[square] = before
            self._changed(_("Refused: {reason}.").format(reason=problem))
            return
        self._changed(_("Put a {tavrel} on {square}.").format(tavrel=label, square=name))

    def _problem_at(self, name: str) -> str | None:
        """A problem the rules find *on this square* (others may be fixed later)."""
        try:
            self.rules.validate(self.position())
        except PositionError as exc:
            if exc.where == name:
                return str(exc)
        return None

    def _make(self, color: int, kind: int, promoted: bool, square: int) -> Tavrel:
        g = self.rules.geometry
        if kind != PAWN:
            return Tavrel.make(color, kind)
        if promoted:
            return Tavrel.make(color, PAWN, destiny=HELGI, promoted=True, moved=True)
        destiny = self._destinies.get((color, g.file_of(square)), 0)
        if not destiny:
            destiny = next((d for (c, _f), d in self._destinies.items() if c == color), 0)
        home_rank = 1 if color == WHITE else g.height - 2
        return Tavrel.make(color, PAWN, destiny=destiny, moved=g.rank_of(square) != home_rank)

    def _describe(self, t: Tavrel) -> str:
        info = self.rules.pieces.by_kind[t.acting_kind]
        return speech.tavrel_glossed(t.color, info)

    def clear(self) -> None:
        """Empty the board (and drop the castling rights: nothing is left to castle)."""
        self._loading = True
        try:
            self._board = [()] * self.rules.geometry.size
            for box in self.rights.values():
                box.value = False
        finally:
            self._loading = False
        self._changed(_("Board cleared."))

    def reset(self) -> None:
        self._load(self._start, _("The initial position."))

    def read_position(self, text: str | None = None) -> None:
        """Set up a position string (the text field's by default); a bad one changes nothing."""
        text = self.position_text.value if text is None else text
        try:
            position = read_position(text.strip(), self.rules, validate=False)
        except TavreiError as exc:
            self._changed(_("Could not read that position: {reason}. The set-up is "
                            "unchanged.").format(reason=exc))
            return
        self._load(position, _("Position read."))

    def play(self) -> None:
        """Hand the set-up to a new game on the board (refused, with the reason, if illegal)."""
        try:
            game = self.game()
        except (PositionError, LimitError) as exc:
            self._changed(_("Refused: {reason}.").format(reason=exc))
            return
        if self.board is None:
            from tavrei_lab.widgets.board import Board
            self.board = Board(game)
            self.children = (*self.children, self.board)
        else:
            self.board.set_game(game, _("New game from the editor's position."))
        self._changed(_("New game started from this position."))

    # -- showing -------------------------------------------------------------------
    def _changed(self, message: str) -> None:
        if self._loading:
            return
        from tavrei_lab.render import board_svg
        position = self.position()
        problem = self.problems()
        state = (_("Ready: press Play from here.") if problem is None
                 else _("Not playable yet: {reason}.").format(reason=problem))
        # Status and position text first, the drawing last (as Board does): a
        # script or test that waits for the redraw then reads a fresh status.
        self.status.value = (f'<span class="tavrei-message">{html.escape(message)}</span> '
                             f'<b class="tavrei-state">{html.escape(state)}</b>')
        self.position_text.value = position.string
        self.view.show(board_svg(position))

    def _repr_svg_(self) -> str:
        return self.view.svg

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return with_svg(super()._repr_mimebundle_(**kwargs), self.view.svg)


def _may_castle(color: int, side: str) -> str:
    """"white may 0-0": the castling right a box grants."""
    return (_("white may {castling}") if color == WHITE else _("black may {castling}")).format(
        castling=side)


def _keep_a_choice(change: dict[str, Any]) -> bool:
    """A picker that must always have a choice: a ``None`` sent by a front end (a
    deselected toggle, a forged message) puts the old choice back. True when the new
    value stands."""
    if change["new"] is None and change["old"] is not None:
        change["owner"].value = change["old"]
        return False
    return change["new"] is not None
