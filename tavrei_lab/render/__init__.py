"""SVG pictures of positions, games and die rolls (svgwrite, validation off).

The public surface::

    board_svg(position, *, flipped=False, lastmove=None, selected=None,
              destinations=None, split_count=None, check=None, attacked_by=None,
              arrows=(), die_face=None, size=None, coordinates=True, theme=None,
              **options) -> SVG   # str with _repr_svg_
    die_svg(face, theme=None) -> str          # and DieFace(face) for notebooks
    game_svg_animation(game, mode="animate" | "frames", ...) -> str
    Theme, BIRCH, SLATE                       # colours and glyphs, swappable

``Position``, ``Game``, ``Roll`` and tree tactics show as pictures in a
notebook with no widget (and static exports keep them): their ``_repr_svg_``
asks ``core.pictures``, and importing ``render`` registers the painters
(``painters``; ``import tavrei_lab`` does it). The tree drawing is
``render.tree.draw_svg``.

Layout: ``board`` (squares, towers, overlays), ``glyphs`` (the piece
pictures as data), ``theme`` (colours), ``die`` (die faces), ``animation``
(whole games), ``backend`` (the small ``Renderer`` interface over svgwrite).
"""

from tavrei_lab.render.animation import game_svg_animation
from tavrei_lab.render.backend import (
    BACKENDS,
    SVG,
    ElementTreeRenderer,
    Renderer,
    SvgwriteRenderer,
)
from tavrei_lab.render.board import board_svg, describe_tavrel, tower_title
from tavrei_lab.render.die import DieFace, die_svg
from tavrei_lab.render.glyphs import DEFAULT_GLYPHS, Glyph, GlyphSet, Shape
from tavrei_lab.render.layers import strip_layout
from tavrei_lab.render.painters import register as _register_painters
from tavrei_lab.render.theme import BIRCH, DEFAULT_THEME, SLATE, Theme

_register_painters()

__all__ = [
    "BACKENDS", "BIRCH", "DEFAULT_GLYPHS", "DEFAULT_THEME", "SLATE", "SVG", "DieFace",
    "ElementTreeRenderer", "Glyph", "GlyphSet", "Renderer", "Shape", "SvgwriteRenderer",
    "Theme", "board_svg", "describe_tavrel", "die_svg", "game_svg_animation",
    "strip_layout", "tower_title",
]
