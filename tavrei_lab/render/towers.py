"""Every tower of a position, layer by layer, big enough to read: the tower shelf.

A board small enough to sit beside a game tree gives a square some 40 px, and
a tower of eight layers then has 5 px a layer in its strip: the lesson's towers
cannot be read there (as in tutorial 07). The shelf stands each
tower of two or more tavrels on its own, as a column of whole glyphs, top layer
first, each with its strip letter and, as its tooltip, its full name in the
language in force -- so what a split would take, and who is held prisoner, is
read at a glance.

It is HTML (a flex row of columns of small SVG glyphs), made for a panel
beside a board: ``tavrei_lab.widgets.tree`` shows it under the board of the
node under the pointer or selected.
"""

from __future__ import annotations

import html
from typing import Any

from tavrei_lab.core.tavrel import COLOR_NAMES
from tavrei_lab.i18n import get_language, ngettext, speaking
from tavrei_lab.i18n import gettext as _
from tavrei_lab.render.board import check_size, describe_tavrel, tavrel_svg
from tavrei_lab.render.layers import role_letters

#: Glyph side in CSS pixels: the board's glyph at a projector's letter size.
GLYPH_PX = 26


def _towers(position: Any) -> list[tuple[str, tuple[Any, ...]]]:
    names = position.geometry.names
    return [(names[sq], tuple(tower)) for sq, tower in enumerate(position.board)
            if len(tower) > 1]


def tower_shelf(position: Any, *, glyph: float = GLYPH_PX, language: str | None = None) -> str:
    """HTML: each tower of ``position`` (two tavrels or more) as a column of glyphs,
    top layer first; empty text when the position has no tower.

    Each layer is a ``<div class="tavrei-shelf-layer" data-layer="i">`` (0 = bottom,
    as the board's strips number them) holding a ``glyph``-pixel picture, its strip
    letter and its name as a tooltip.

    >>> from tavrei_lab import Game
    >>> shelf = tower_shelf(Game(position="4v3/8/8/8/3(LsR)4/8/8/6V1 w - 0 1").position)
    >>> shelf.count('class="tavrei-shelf-layer"'), 'data-square="d4"' in shelf
    (3, True)
    """
    px = check_size(glyph, "tower_shelf")
    # (``speaking(None)`` would drop a language chosen around this call)
    with speaking(language or get_language()):
        towers = _towers(position)
        if not towers:
            return ""
        pieces = position.pieces
        letters = role_letters(pieces)
        pictures: dict[tuple[int, int], str] = {}
        columns = []
        for square, tower in towers:
            rows = []
            for layer in range(len(tower) - 1, -1, -1):
                t = tower[layer]
                key = (t.acting_kind, t.color)
                if key not in pictures:
                    pictures[key] = tavrel_svg(t.acting_kind, t.color, pieces, size=px)
                name = html.escape(describe_tavrel(t, pieces), quote=True)
                rows.append(
                    f'<div class="tavrei-shelf-layer" data-layer="{layer}" title="{name}" '
                    'style="display:flex;align-items:center;gap:3px;'
                    f'height:{px + 2:g}px">{pictures[key]}'
                    f'<b data-color="{COLOR_NAMES[t.color]}" style="font:bold 13px sans-serif">'
                    f"{html.escape(letters[t.acting_kind])}</b></div>")
            count = ngettext("{square}: {count} layer", "{square}: {count} layers",
                             len(tower)).format(square=square, count=len(tower))
            columns.append(
                f'<figure class="tavrei-shelf-tower" data-square="{square}" '
                'style="margin:0;padding:2px 4px;border:1px solid #bbb;border-radius:4px">'
                '<figcaption style="font:12px sans-serif;white-space:nowrap">'
                f"{html.escape(count)}</figcaption>{''.join(rows)}</figure>")
        heading = html.escape(_("Towers, top layer first:"))
        return ('<div class="tavrei-tower-shelf">'
                f'<div style="font:12px sans-serif;margin:2px 0">{heading}</div>'
                '<div style="display:flex;flex-wrap:wrap;gap:6px;align-items:flex-start">'
                f"{''.join(columns)}</div></div>")


__all__ = ["GLYPH_PX", "tower_shelf"]
