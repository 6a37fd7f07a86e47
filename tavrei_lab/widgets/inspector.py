"""The tower inspector beside the board, and the legend of strip letters under it.

A tower of eight cannot letter every layer on a small board, so the board
widget lists the tower under the pointer (or the selected one) bottom to top
beside the board: picture, colour, names, destiny, a promoted mark, each row
a large target that picks the tower up "from here up". The browser draws the
panel (``board.js``) from what this module computes, so hovering never asks
the kernel: ``tower_rows`` (every tower of the position), ``glyph_pictures``
(the tavrel pictures, once per piece set) and ``legend_rows`` (what each strip
letter means, for the kinds in play). ``Inspector`` sends each only when it
changes. Plain Python apart from the view it feeds.
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.core import speech
from tavrei_lab.core.tavrel import BLACK, COLOR_NAMES, WHITE
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext

#: The tallest tower the inspector has words for (plural forms are sent per height).
TALLEST = 64


def _named(kind: Any) -> str:
    """``knyaz (князь)`` in English, ``князь`` in Russian."""
    return speech.kind_glossed(kind)


def tower_rows(position: Any) -> dict[str, list[dict[str, Any]]]:
    """Every tower of ``position``, bottom to top, as the tower inspector lists it,
    in the language in force: ``color`` is the CSS class (white/black), ``colour``
    the word shown, ``note`` what follows the name in brackets (the Russian name and
    the chess analogue in English; the analogue alone in Russian)."""
    from tavrei_lab.render.layers import ROLE_LETTERS, role_letters
    pieces = position.pieces
    names = position.geometry.names
    letters = role_letters(pieces)
    russian = speech.piece_names_first()
    out: dict[str, list[dict[str, Any]]] = {}
    for square, tower in enumerate(position.board):
        if not tower:
            continue
        rows = []
        for t in tower:
            kind = pieces.by_kind[t.kind]
            acting = pieces.by_kind[t.acting_kind]
            destiny = ""
            if t.promoted:
                destiny = _("promoted from {piece}").format(piece=_named(kind))
            elif t.destiny and t.destiny != t.kind:
                destiny = _("destiny: {piece}").format(piece=_named(pieces.by_kind[t.destiny]))
            color = COLOR_NAMES[t.color]
            english = _(acting.english)
            rows.append({"color": color, "letter": letters[t.acting_kind],
                         "colour": _("white") if t.color == WHITE else _("black"),
                         "name": speech.kind_name(acting),
                         "russian": acting.russian, "english": english,
                         "note": english if russian else f"{acting.russian}, {english}",
                         "destiny": destiny, "promoted": bool(t.promoted),
                         "glyph": f"{ROLE_LETTERS[t.acting_kind]} {color}"})
        out[names[square]] = rows
    return out


def inspector_words() -> dict[str, Any]:
    """Every word the browser's inspector and legend show, in the language in force
    (``{n}`` and ``{letter}`` are filled in the browser; counted ones per height)."""
    heights = range(1, TALLEST + 1)
    return {
        "one": _("one tavrel"),
        "tower": {str(n): ngettext("tower of {n}, as it stands: top tavrel first, bottom "
                                   "one last", "tower of {n}, as it stands: top tavrel first, "
                                   "bottom one last", n).replace("{n}", str(n))
                  for n in heights},
        "pick": _("pick it up"),
        "whole": _("take the whole tower"),
        "top_tip": _("take the top {n} (from here up)"),
        "all": _("all"),
        "top": _("top {n}"),
        "point": _("Point at a tower to see every tavrel in it."),
        "legend": _("Strip letters"),
        "in_text": _("{letter} in move text"),
        "promoted": _("promoted"),
    }


def glyph_pictures(pieces: Any) -> dict[str, str]:
    """``{"Q white": "<svg>"}``: every tavrel's picture for the inspector and the legend."""
    from tavrei_lab.render.board import tavrel_svg
    from tavrei_lab.render.layers import ROLE_LETTERS
    return {f"{letter} {COLOR_NAMES[color]}": tavrel_svg(kind, color, pieces, size=26)
            for kind, letter in ROLE_LETTERS.items() if kind in pieces.by_kind
            for color in (WHITE, BLACK)}


def legend_rows(pieces: Any, kinds: Any = None) -> list[list[str]]:
    """``[["K", "volkhv", "волхв", "king", "V"], ...]``: what each strip letter means
    (for ``kinds`` only, when given: the board passes ``kinds_in_play(position)``).

    The strips use the chess letter of each role (no chess player reads the knyaz's
    notation letter K as a king there); the last field is the letter the same tavrel
    has in move text and position strings, so the legend bridges the two.
    """
    from tavrei_lab.render.layers import strip_legend
    return [speech.legend_row(letter, kind) for letter, kind in strip_legend(pieces, kinds)]


class Inspector:
    """Feeds a ``BoardView``'s inspector: towers per position, pictures per piece set,
    the legend per set of kinds in play -- each sent only when it changed, since a
    click redraws the board and the towers of a long game are many."""

    def __init__(self, view: Any) -> None:
        self.view = view
        self.view.inspector = True
        self.view.words = inspector_words()
        self._pieces: Any = None             # the piece set whose pictures the view holds
        self._towers_for: Any = None         # the position whose towers the view holds
        self._legend_kinds: set[int] | None = None

    def set_pieces(self, pieces: Any) -> None:
        """Send the tavrel pictures for ``pieces`` (once per set)."""
        if self._pieces is not pieces:
            self._pieces = pieces
            self.view.glyphs = glyph_pictures(pieces)

    def towers(self, position: Any) -> dict[str, list[dict[str, Any]]] | None:
        """The towers to send with the next drawing of ``position`` (None: the view has them).

        The legend follows the position too: it names only the kinds the shown
        position holds or can come to hold.
        """
        if self._towers_for is position:
            return None
        self._towers_for = position
        from tavrei_lab.render.layers import kinds_in_play
        kinds = kinds_in_play(position)
        if kinds != self._legend_kinds:
            self._legend_kinds = kinds
            self.view.legend = legend_rows(position.pieces, kinds)
        return tower_rows(position)

    def forget(self) -> None:
        """Send everything again with the next drawing (a new game or language)."""
        self._pieces = None
        self._towers_for = None
        self._legend_kinds = None


__all__ = ["TALLEST", "Inspector", "glyph_pictures", "inspector_words", "legend_rows",
           "tower_rows"]
