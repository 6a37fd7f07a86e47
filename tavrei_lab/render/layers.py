"""A tower's layers drawn: the strip on its square, its letters, and the tower key.

Reading a Tavreli position means reading towers, so beside its top tavrel each
tower has a **strip** at the left of its square with every layer, bottom to top,
as a band in the tavrel's colour with a letter naming its role.

The strip letters are the chess letters of the roles (``K`` moves like a
king -- the volkhv; ``Q`` like a queen -- the knyaz; ``R B N P``; ``H`` the
helgi), so a chess player reads them right at first sight; the notation's
Tavreli letters (``V K R L S P H``) would make the knyaz's ``K`` look like a
king. ``strip_legend`` says what each letter means, for a legend beside a board.

Two strip layouts:

- by default every layer gets a band (``strip_layout``): up to 8 layers stand in
  one column; taller towers use two or three columns (read the left column
  bottom to top first), so a tower of 31 still shows every layer, in small letters;
- with ``letter_px`` (the projector and the widgets use it; ``legible_strip``)
  every letter is at least that many CSS pixels high at the drawing's size. As
  many top layers as fit get lettered bands; the layers below them become
  stripes in their colours, each at least ``MIN_STRIPE_PX`` high with the square
  showing between them, so they can be counted (composition at a glance; a tower
  inspector or the tooltip names them). Stripes that would be thinner stand in
  two or three columns within the strip's width, so the top tavrel stays big.

A picture has no inspector, so under it the **tower key** spells out every tall
tower bottom to top, one box a layer (``key_lines``, ``draw_tower_key``).

Every layer of a strip (band or stripe) carries ``data-layer`` (0 = bottom), so a
widget can turn a click on layer *i* into "take the top height - i".
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tavrei_lab.core import speech
from tavrei_lab.core.tavrel import (
    BISHOP,
    COLOR_NAMES,
    HELGI,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    Tavrel,
)
from tavrei_lab.render.backend import Renderer
from tavrei_lab.render.glyphs import BOX, GlyphSet
from tavrei_lab.render.theme import Theme

#: Side of one square in drawing units (the glyph box).
SQUARE = BOX

#: Layers per strip column before a tower's strip takes another column.
ROWS_PER_COLUMN = 8
#: Most columns a strip may take; taller towers get shorter bands.
MAX_COLUMNS = 3


#: The strip letter of each role: the chess letters, which no chess player misreads.
ROLE_LETTERS = {KING: "K", QUEEN: "Q", ROOK: "R", BISHOP: "B", KNIGHT: "N", PAWN: "P",
                HELGI: "H"}


#: The Russian strip letters of the tavreli set: each name's own initial, but the
#: two pairs that share one (волхв/всадник, ратоборец/ратник) part as the project's
#: Latin letters part them (V/S, R/P): В волхв, С всадник, Р ратоборец, П ратник
#: (the pawn's letter in Russian chess). See docs/ru/rules.md.
ROLE_LETTERS_RU = {KING: "В", QUEEN: "К", ROOK: "Р", BISHOP: "Л", KNIGHT: "С", PAWN: "П",
                   HELGI: "Х"}


def role_letters(pieces: Any, language: str | None = None) -> dict[int, str]:
    """The strip letter of each role for ``pieces`` in ``language`` (None: the one in force).

    Russian boards of the tavreli set use ``ROLE_LETTERS_RU``; a set with chess
    names keeps the international chess letters in both languages, because the
    Russian chess ones need two letters for the king (Кр) and one strip band
    holds one letter.
    """
    if GlyphSet.family_for(pieces) == "tavreli":
        return speech.by_language(ROLE_LETTERS, ROLE_LETTERS_RU, language)
    return ROLE_LETTERS


def strip_legend(pieces: Any, kinds: Iterable[int] | None = None,
                 language: str | None = None) -> list[tuple[str, Any]]:
    """(strip letter, ``PieceKind``) for every kind of a piece set (or only ``kinds``,
    e.g. ``kinds_in_play(position)``), king first.

    >>> from tavrei_lab import Game
    >>> [(letter, kind.name) for letter, kind in strip_legend(Game().rules.pieces)][:2]
    [('K', 'volkhv'), ('Q', 'knyaz')]
    """
    wanted = set(pieces.by_kind) if kinds is None else set(kinds)
    letters = role_letters(pieces, language)
    return [(letters[kind], pieces.by_kind[kind]) for kind in ROLE_LETTERS
            if kind in pieces.by_kind and kind in wanted]


def kinds_in_play(position: Any) -> set[int]:
    """The kinds ``position`` holds or can still come to hold: every tavrel's role
    now, what each ratnik may become on its far rank, and the ratnik a promoted one
    turns back into when it is demoted. A legend of these never names a piece the
    learner cannot meet (the helgi in orthodox chess, a luchnik on a 6x6 die board).

    >>> from tavrei_lab import Game
    >>> sorted(Game("orthodox").rules.pieces.by_kind[k].name for k in kinds_in_play(
    ...     Game("orthodox").position))
    ['bishop', 'king', 'knight', 'pawn', 'queen', 'rook']
    """
    promotions = position.rules.promotions
    kinds: set[int] = set()
    for tower in position.board:
        for t in tower:
            kinds.add(t.acting_kind)
            if t.promoted:
                kinds.add(t.kind)
            elif t.kind == PAWN:
                kinds.update(promotions(t))
    return kinds


# -- layout ----------------------------------------------------------------------
@dataclass(frozen=True)
class StripLayout:
    """Where a tower's layer bands go inside its square."""

    columns: int
    rows: int
    band: float        # band height
    column_width: float
    width: float       # the whole strip, with its left padding

    def cell(self, layer: int) -> tuple[int, int]:
        """(column, row from the bottom) of a layer."""
        return divmod(layer, self.rows)


_STRIP_LEFT = 1.5
_STRIP_BOTTOM = 2
_STRIP_HEIGHT = SQUARE - 4.0
_COLUMN_GAP = 0.8


@dataclass(frozen=True)
class LegibleStrip:
    """A strip whose letters keep a minimum size (see the module docstring).

    The top ``lettered`` layers get bands of height ``band``; the layers
    below them share the strip's remaining height as stripes of ``stripe``,
    in ``stripe_columns`` side by side within the strip's width (the left one
    read bottom to top first) when one column would make them too thin.
    """

    lettered: int
    band: float
    stripe: float
    column_width: float
    font: float
    stripe_columns: int = 1
    stripes_per_column: int = 0

    @property
    def width(self) -> float:
        return _STRIP_LEFT + self.column_width


#: The least height of a stripe, in CSS pixels: a tall tower's lower layers stay
#: countable, each with its colour in sight (a thinner one merged into a hatching).
MIN_STRIPE_PX = 3.6


@lru_cache(maxsize=256)
def legible_strip(height: int, font: float, min_stripe: float = 0.0) -> LegibleStrip:
    """The strip of a tower of ``height`` whose letters are ``font`` drawing units high
    and whose stripes are at least ``min_stripe`` units high.

    All but one of the layers that fit get letters; the layers below get stripes of
    at least ``min_stripe``, in one column, or two side by side when one would make
    them thinner. A taller tower letters fewer layers (down to its top one), then
    takes a third, narrow column; only one beyond that (some 30 layers) gets
    thinner stripes.
    """
    band = font * 1.18
    column_width = font * 0.82 + 2.0
    fit = max(1, int(_STRIP_HEIGHT // band))
    if height <= fit:
        return LegibleStrip(height, band, 0.0, column_width, font)
    for most_columns in range(2, MAX_COLUMNS + 1):
        for lettered in range(max(1, fit - 1), 0, -1):
            rest, below = _STRIP_HEIGHT - lettered * band, height - lettered
            room = int(rest // min_stripe) if min_stripe > 0 else below
            columns = math.ceil(below / room) if room else most_columns + 1
            if columns <= most_columns:
                per_column = math.ceil(below / columns)
                return LegibleStrip(lettered, band, rest / per_column, column_width, font,
                                    columns, per_column)
    rest, below = _STRIP_HEIGHT - band, height - 1        # squeezed: three columns, one letter
    per_column = math.ceil(below / MAX_COLUMNS)
    return LegibleStrip(1, band, rest / per_column, column_width, font, MAX_COLUMNS, per_column)


@lru_cache(maxsize=64)
def strip_layout(height: int) -> StripLayout:
    """The strip of a tower of ``height`` (see the module docstring)."""
    if height <= ROWS_PER_COLUMN:
        band = min(7.0, _STRIP_HEIGHT / height)
        return StripLayout(1, height, band, 9.0, _STRIP_LEFT + 9.0)
    columns = min(MAX_COLUMNS, math.ceil(height / ROWS_PER_COLUMN))
    rows = math.ceil(height / columns)
    col_w = {2: 7.5, 3: 6.5}[columns]
    width = _STRIP_LEFT + columns * col_w + (columns - 1) * _COLUMN_GAP
    return StripLayout(columns, rows, _STRIP_HEIGHT / rows, col_w, width)


# -- drawing ---------------------------------------------------------------------
def draw_strip(r: Renderer, parent: Any, x: float, y: float, name: str,
                tower: tuple[Tavrel, ...], pieces: Any, layout: StripLayout, theme: Theme,
                taken: int | None, letters: dict[int, str] = ROLE_LETTERS) -> None:
    """One band per layer, bottom to top (see ``strip_layout``); ``taken``: how many
    top layers a split takes, outlined."""
    height = len(tower)
    first_taken = height - taken if taken else height
    band = layout.band
    font = round(min(band * 0.92, layout.column_width * 0.74), 2)
    bottom = y + SQUARE - _STRIP_BOTTOM
    for i, t in enumerate(tower):
        col, row = layout.cell(i)
        bx = x + _STRIP_LEFT + col * (layout.column_width + _COLUMN_GAP)
        by = bottom - (row + 1) * band
        fill, outline, detail = theme.piece_colors(t.color)
        kind_name = pieces.by_kind[t.kind].name
        cls = f"layer {COLOR_NAMES[t.color]} {kind_name}"
        if t.promoted:
            cls += " promoted"
        stroke, width = outline, 0.5
        if t.promoted:
            stroke, width = theme.promoted, 0.9
        if i >= first_taken:
            cls += " taken"
            stroke, width = theme.split, 1.2
        lg = r.element(parent, "g", {"class": cls, "data-square": name, "data-layer": i})
        r.element(lg, "rect", {"x": bx, "y": by + 0.1, "width": layout.column_width,
                               "height": band - 0.2, "rx": 0.8, "fill": fill,
                               "stroke": stroke, "stroke-width": width})
        letter = letters[t.acting_kind]
        r.element(lg, "text", {"x": bx + layout.column_width / 2, "y": by + band / 2 + font * 0.36,
                               "fill": detail, "font-size": font, "font-weight": "bold",
                               "font-family": theme.font_family, "text-anchor": "middle"},
                  letter)


def draw_legible_strip(r: Renderer, parent: Any, x: float, y: float, name: str,
                        tower: tuple[Tavrel, ...], pieces: Any, layout: LegibleStrip,
                        theme: Theme, taken: int | None,
                        letters: dict[int, str] = ROLE_LETTERS) -> None:
    """Lettered bands for the top layers, colour stripes below (see ``legible_strip``)."""
    height = len(tower)
    first_taken = height - taken if taken else height
    first_lettered = height - layout.lettered
    w = layout.column_width
    top = y + SQUARE - _STRIP_BOTTOM - _STRIP_HEIGHT   # the strip is filled from the top down
    columns = layout.stripe_columns
    stripe_w = (w - (columns - 1) * _COLUMN_GAP) / columns
    for i in range(height - 1, -1, -1):
        t = tower[i]
        bx, bw = x + _STRIP_LEFT, w
        if i >= first_lettered:
            h = layout.band
            by = top + (height - 1 - i) * h
        elif columns == 1:
            h = layout.stripe
            by = top + layout.lettered * layout.band + (first_lettered - 1 - i) * h
        else:               # in columns, each filled bottom up, the left one first
            h = layout.stripe
            col, row = divmod(i, layout.stripes_per_column)
            by = top + _STRIP_HEIGHT - (row + 1) * h
            bx, bw = x + _STRIP_LEFT + col * (stripe_w + _COLUMN_GAP), stripe_w
        fill, outline, detail = theme.piece_colors(t.color)
        cls = f"layer {COLOR_NAMES[t.color]} {pieces.by_kind[t.kind].name}"
        stroke, width = outline, 0.5
        if t.promoted:
            cls += " promoted"
            stroke, width = theme.promoted, 0.9
        if i >= first_taken:
            cls += " taken"
            stroke, width = theme.split, 1.2
        gap = 0.1
        if i < first_lettered:
            # a hairline outline (a thick one would eat a white stripe); the square
            # shows between stripes, so each one can be counted
            cls += " stripe"
            width = min(width, 0.3 if stroke == outline else h * 0.2)
            gap = min(0.5, h * 0.15)
        lg = r.element(parent, "g", {"class": cls, "data-square": name, "data-layer": i})
        r.element(lg, "rect", {"x": round(bx, 2), "y": round(by + gap, 2), "width": round(bw, 2),
                               "height": round(max(h - 2 * gap, 0.2), 2), "rx": 0.8,
                               "fill": fill, "stroke": stroke, "stroke-width": round(width, 2)})
        if i >= first_lettered:
            r.element(lg, "text", {"x": bx + w / 2, "y": round(by + h / 2 + layout.font * 0.36, 2),
                                   "fill": detail, "font-size": layout.font,
                                   "font-weight": "bold", "font-family": theme.font_family,
                                   "text-anchor": "middle"},
                      letters[t.acting_kind])


# -- the tower key --------------------------------------------------------------
#: The least height of a tower spelt out in a picture's tower key.
TOWER_KEY_FROM = 3
#: A key row's height and its letters' size, in drawing units (x 1.2 px by default).
TOWER_KEY_ROW = 13.0
TOWER_KEY_LETTER = 10.0
_KEY_BOX = 10.5          # one layer's box width in the key
_KEY_LABEL = 16.0        # room for the square's name


def key_lines(position: Any, flipped: bool, wu: float) -> list[tuple[str, int, int, int]]:
    """The key's rows, as the board reads from its top left: (square, index, first layer,
    end layer); a tower too tall for one row goes on in the next."""
    g = position.geometry
    order = sorted(range(g.size), key=lambda s: ((s // g.width), -(s % g.width)) if flipped
                   else (-(s // g.width), s % g.width))
    per_row = max(1, int((wu - 2 * 4.0 - _KEY_LABEL) // _KEY_BOX))
    rows = []
    for s in order:
        height = len(position.board[s])
        if height >= TOWER_KEY_FROM:
            for start in range(0, height, per_row):
                rows.append((g.names[s], s, start, min(height, start + per_row)))
    return rows


def draw_tower_key(r: Renderer, theme: Theme, pieces: Any, letters: dict[int, str],
                   rows: list[tuple[str, tuple[Tavrel, ...], int, int]],
                   top: float, wu: float, total_h: float) -> None:
    """The picture's tower key (see ``board_svg``'s ``tower_key``): ``rows`` as
    ``key_lines`` lists them, each with its tower."""
    g = r.element(None, "g", {"class": "tower-key"})
    r.rect(g, 0, top, wu, total_h - top, {"class": "margin", "fill": theme.margin})
    y = top + 2.0
    for name, tower, start, end in rows:
        if start == 0:
            r.text(g, 4.0, y + TOWER_KEY_ROW * 0.72, name,
                   {"fill": theme.coordinates, "font-size": 9.0, "font-weight": "bold",
                    "font-family": theme.font_family})
        for i in range(start, end):
            t = tower[i]
            fill, outline, detail = theme.piece_colors(t.color)
            x = 4.0 + _KEY_LABEL + (i - start) * _KEY_BOX
            lg = r.element(g, "g", {"class": f"key-layer {COLOR_NAMES[t.color]} "
                                             f"{pieces.by_kind[t.kind].name}",
                                    "data-key-square": name, "data-key-layer": i})
            r.element(lg, "rect", {"x": x, "y": y + 0.5, "width": _KEY_BOX - 1.0,
                                   "height": TOWER_KEY_ROW - 1.0, "rx": 1.0, "fill": fill,
                                   "stroke": theme.promoted if t.promoted else outline,
                                   "stroke-width": 0.9 if t.promoted else 0.5})
            r.element(lg, "text", {"x": x + (_KEY_BOX - 1.0) / 2,
                                   "y": y + TOWER_KEY_ROW / 2 + TOWER_KEY_LETTER * 0.36,
                                   "fill": detail, "font-size": TOWER_KEY_LETTER,
                                   "font-weight": "bold", "font-family": theme.font_family,
                                   "text-anchor": "middle"},
                      letters[t.acting_kind])
        y += TOWER_KEY_ROW


__all__ = ["MAX_COLUMNS", "MIN_STRIPE_PX", "ROLE_LETTERS", "ROLE_LETTERS_RU",
           "ROWS_PER_COLUMN", "TOWER_KEY_FROM", "TOWER_KEY_LETTER", "TOWER_KEY_ROW",
           "LegibleStrip", "StripLayout", "draw_legible_strip", "draw_strip", "draw_tower_key",
           "key_lines", "kinds_in_play", "legible_strip", "role_letters", "strip_layout",
           "strip_legend"]
