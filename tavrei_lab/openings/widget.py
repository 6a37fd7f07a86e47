"""``Explorer``: an opening index beside the board, as lichess's opening explorer.

The board is the package's own ``Board`` (its session holds the game and the line);
beside it a table, one row a move played from the board's position: the move (a
button: a click plays it on the board, and the table follows), the games, a bar
split into white's wins, draws and black's wins, and white's score. The table
follows every change of the board's position -- a move played on the board, the
Back and Forward buttons, the arrow keys, the move list -- so it always shows the
position on the board. A second index (``beside``, say the recorded tournament
games beside a book) is shown under the first for the same position.
"""

from __future__ import annotations

import functools
import html
from typing import Any

import ipywidgets as widgets

from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import speaking
from tavrei_lab.openings.index import Entry, OpeningIndex
from tavrei_lab.widgets import Board
from tavrei_lab.widgets.controls import button, in_own_language

#: The bar's colours: white's wins, draws, black's wins (lichess's greys).
BAR_COLOURS = ("#f0f0f0", "#a0a0a0", "#3a3a3a")


def result_bar(white: int, draws: int, black: int, width_px: int = 160) -> str:
    """The white/draw/black bar as HTML: each part's width its share of the games with
    a known result, its percentage written in it where there is room."""
    total = white + draws + black
    if total == 0:
        return (f'<div class="tavrei-explorer-bar" style="width:{width_px}px;height:14px;'
                f'border:1px solid #999;color:#777;font-size:10px;text-align:center">'
                f'{html.escape(_("no results"))}</div>')
    parts = []
    for count, colour, ink, what in zip((white, draws, black), BAR_COLOURS,
                                        ("#000", "#000", "#fff"),
                                        ("white", "draws", "black")):
        if count:
            share = 100 * count / total
            label = f"{share:.0f}%" if share >= 18 else ""
            parts.append(f'<span class="tavrei-bar-{what}" style="display:inline-block;'
                         f'width:{share:.2f}%;background:{colour};color:{ink};'
                         f'text-align:center;font-size:10px;line-height:14px">{label}</span>')
    return (f'<div class="tavrei-explorer-bar" style="width:{width_px}px;height:14px;'
            f'border:1px solid #999;white-space:nowrap;overflow:hidden;display:flex">'
            f'{"".join(parts)}</div>')


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


class Explorer(widgets.HBox):
    """The opening explorer: ``Explorer(index)`` with a board beside the move table.

    ``index``: an ``OpeningIndex`` (``openings.build_index``); ``beside``: another
    index shown under it for the same position (e.g. the tournament games beside a
    book); ``game``: the game to start from (default: the index's variant's start);
    ``language``: "en" or "ru". ``explorer.board`` is the board, ``explorer.rows()``
    the table's rows as plain values, ``explorer.choose(move)`` plays a row's move.
    """

    def __init__(self, index: OpeningIndex, *, beside: OpeningIndex | None = None,
                 game: Game | None = None, language: str | None = None,
                 title: str | None = None, beside_title: str | None = None,
                 **box: Any) -> None:
        with speaking(language) as chosen:
            self.language = chosen
            self.index = index
            self.beside = beside
            self.board = Board(game if game is not None else Game(self._variant()),
                               language=chosen)
            self.board.add_class("tavrei-explorer-board")
            self.title = title if title is not None else (index.name or _("games"))
            self.beside_title = beside_title if beside_title is not None else (
                beside.name if beside is not None and beside.name else _("other games"))
            self.heading = widgets.HTML()
            self.table = widgets.VBox()
            self.table.add_class("tavrei-explorer-table")
            self.beside_heading = widgets.HTML()
            self.beside_table = widgets.VBox()
            self.beside_table.add_class("tavrei-explorer-beside")
            back = button(_("◀ Back"), _("one move back"), self.back)
            forward = button(_("Forward ▶"), _("one move forward"), self.forward)
            self.back_button, self.forward_button = back, forward
            back.add_class("tavrei-explorer-back")
            forward.add_class("tavrei-explorer-forward")
            column = widgets.VBox([widgets.HBox([back, forward]), self.heading, self.table,
                                   self.beside_heading, self.beside_table],
                                  layout=widgets.Layout(min_width="360px"))
            super().__init__([self.board, column], **box)
            self.add_class("tavrei-explorer")
            self.board.observe(self._on_position, "position_string")
            self.board.observe(self._on_position, "ply")
            self.refresh()

    def _variant(self) -> Any:
        for spec in self.index.rules.values():
            return Game(spec["variant"], **spec["options"]).rules
        return "tavreli"

    # -- what the table shows -----------------------------------------------------
    def entry(self, index: OpeningIndex | None = None) -> Entry | None:
        """The entry of the position on the board, in ``index`` (default: the main one)."""
        return (index or self.index).entry(self.board.game.position)

    def rows(self) -> list[dict[str, Any]]:
        """The main table's rows (move, games, white, draws, black, score, ...)."""
        entry = self.entry()
        return [] if entry is None else entry.move_rows()

    def _rows_box(self, entry: Entry | None, clickable: bool) -> list[widgets.Widget]:
        if entry is None or not entry.moves:
            return [widgets.HTML(f"<i>{html.escape(_('no game here'))}</i>")]
        head = widgets.HTML(
            f"<b>{html.escape(_('move'))}</b>&nbsp;&nbsp;{html.escape(_('games'))} · "
            f"{html.escape(_('white / draws / black'))} · {html.escape(_('score'))}")
        out: list[widgets.Widget] = [head]
        for row in entry.move_rows():
            move = row["move"]
            if clickable:
                cell: widgets.Widget = button(move, _("play {move}").format(move=move),
                                              functools.partial(self.choose, move),
                                              width="90px")
                cell.add_class("tavrei-explorer-move")
            else:
                cell = widgets.HTML(f'<code style="display:inline-block;width:90px">'
                                    f'{html.escape(move)}</code>')
            figures = widgets.HTML(
                f'<span style="display:inline-block;width:44px;text-align:right">'
                f'{row["games"]}</span>&nbsp;'
                f'{result_bar(row["white"], row["draws"], row["black"])}&nbsp;'
                f'<span class="tavrei-explorer-score">{_percent(row["score"])}</span>')
            line = widgets.HBox([cell, figures])
            line.add_class("tavrei-explorer-row")
            out.append(line)
        return out

    def _heading(self, title: str, entry: Entry | None) -> str:
        if entry is None:
            return f"<b>{html.escape(title)}</b>: {html.escape(_('no game reached this position'))}"
        row = entry.tally.row()
        figure = f", {html.escape(_('engine'))} {html.escape(entry.evaluation)}" \
            if entry.evaluation else ""
        text = _("{games} games, white {score} [{low}–{high}], draws {draws}").format(
            games=row["games"], score=_percent(row["score"]), low=_percent(row["score_low"]),
            high=_percent(row["score_high"]), draws=_percent(row["draw_rate"]))
        return (f'<b>{html.escape(title)}</b>: <span class="tavrei-explorer-games">'
                f'{html.escape(text)}</span>{figure}')

    @in_own_language
    def refresh(self) -> None:
        """Show the tables of the position on the board."""
        entry = self.entry()
        self.heading.value = self._heading(self.title, entry)
        self.table.children = self._rows_box(entry, True)
        if self.beside is not None:
            other = self.entry(self.beside)
            self.beside_heading.value = self._heading(self.beside_title, other)
            self.beside_table.children = self._rows_box(other, False)
        game = self.board.game
        self.back_button.disabled = game.action_count == 0
        self.forward_button.disabled = not game.can_redo()

    def _on_position(self, change: Any) -> None:
        del change
        self.refresh()

    # -- actions ------------------------------------------------------------------
    @in_own_language
    def choose(self, move: str) -> None:
        """Play ``move`` (a row's text) on the board and descend: the table follows."""
        self.board.play(move)
        self.refresh()

    def back(self) -> None:
        """One move back; the table follows."""
        self.board.step(-1)
        self.refresh()

    def forward(self) -> None:
        """One move forward again; the table follows."""
        self.board.step(1)
        self.refresh()
