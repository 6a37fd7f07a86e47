"""Colours and glyphs of a drawing, in one swappable object.

Custom piece art and board colours are what users ask for most, so nothing
in the drawing code names a colour: it asks the ``Theme``. A theme is a
frozen dataclass; make a variant with ``theme.replace(dark_square="#7a9")``
or pass the same names straight to ``board_svg(position, dark_square=...)``.

Two themes ship: ``BIRCH`` (default: birch-bark light squares, walnut dark
squares) and ``SLATE`` (cool greys, for projectors).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from tavrei_lab.errors import RenderError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.render.glyphs import DEFAULT_GLYPHS, GlyphSet

_DEFAULT_ARROWS = (("green", "#2e8b57"), ("red", "#c0392b"), ("blue", "#2a6fb0"),
                   ("yellow", "#d4a017"))


@dataclass(frozen=True)
class Theme:
    """Every colour, size rule and glyph a drawing uses.

    Colours are any SVG colour text (``"#a67c52"``, ``"teal"``). ``glyphs``
    supplies the piece pictures (see ``tavrei_lab.render.glyphs``).
    """

    name: str = "birch"
    # the board
    light_square: str = "#eee2c8"
    dark_square: str = "#a67c52"
    margin: str = "#3b2f2a"
    coordinates: str = "#eee2c8"
    # the tavrels: body fill, outline, and the colour of lines drawn on the body
    white_fill: str = "#fbf8ef"
    white_outline: str = "#1e1a17"
    white_detail: str = "#1e1a17"
    black_fill: str = "#2a2421"
    black_outline: str = "#0d0b0a"
    black_detail: str = "#efe6d2"
    promoted: str = "#d9a520"          # promoted ratnik: badge ring, band edge
    # overlays
    lastmove_light: str = "#e3d77a"
    lastmove_dark: str = "#b9a23f"
    selected_light: str = "#a9d98f"
    selected_dark: str = "#6fa65a"
    dest_empty: str = "#1f5f2c"       # a dot: a move onto an empty square
    dest_own: str = "#2457a6"         # a "+" disc: a move onto an own tower
    dest_enemy: str = "#b3261e"       # corner wedges: taking the tower's top prisoner
    check: str = "#e0201b"
    attacked: str = "#d2342a"
    attacked_opacity: float = 0.25
    split: str = "#e36b00"            # the layers a split takes, and its count
    badge_fill: str = "#1e1a17"
    badge_text: str = "#fbf8ef"
    arrows: tuple[tuple[str, str], ...] = _DEFAULT_ARROWS
    arrow_opacity: float = 0.75
    # the die
    die_fill: str = "#fbf8ef"
    die_outline: str = "#1e1a17"
    die_pip: str = "#1e1a17"
    font_family: str = "DejaVu Sans, Verdana, Arial, sans-serif"
    #: Towers at least this tall get their height written in a badge.
    height_badge_from: int = 3
    glyphs: GlyphSet = field(default=DEFAULT_GLYPHS)

    # -- derived -----------------------------------------------------------------
    @cached_property
    def key(self) -> str:
        """A short fingerprint used in element ids, so that two boards with
        different themes inline in one notebook page never share a glyph."""
        return hashlib.blake2s(repr(self).encode(), digest_size=4).hexdigest()

    def arrow_color(self, name: str) -> str:
        """A named arrow colour of the theme, or the text itself as a colour."""
        return dict(self.arrows).get(name, name)

    def piece_colors(self, color: int) -> tuple[str, str, str]:
        """(fill, outline, detail) for white (0) or black (1) tavrels."""
        if color == 0:
            return self.white_fill, self.white_outline, self.white_detail
        return self.black_fill, self.black_outline, self.black_detail

    def replace(self, **changes: Any) -> Theme:
        """A copy with some fields changed; unknown names raise ``RenderError``."""
        unknown = sorted(set(changes) - THEME_FIELDS)
        if unknown:
            raise RenderError(_("unknown theme option(s) {unknown}; a Theme has {known}")
                              .format(unknown=", ".join(unknown),
                                      known=", ".join(sorted(THEME_FIELDS))))
        if "arrows" in changes and isinstance(changes["arrows"], Mapping):
            changes["arrows"] = tuple(changes["arrows"].items())
        return dataclasses.replace(self, **changes)


THEME_FIELDS = frozenset(f.name for f in dataclasses.fields(Theme))

BIRCH = Theme()
SLATE = Theme(name="slate", light_square="#dfe3e6", dark_square="#7d8b96", margin="#2b3137",
              coordinates="#dfe3e6", lastmove_light="#f2e38b", lastmove_dark="#c7b456")
DEFAULT_THEME = BIRCH
