"""The chess die: one face drawn as SVG, for boards and for notebooks.

A face is a piece letter of the variant (``"N"``: the die shows a knight) or
a skip mark. The source describes two dice: one whose sixth face is a blank or
black circle (written ``-`` in records, drawn here as a black disc), and one
whose sixth face shows the piece type absent from the game -- that face shows
its piece but passes the turn, so it is drawn with a slash across it.

``DieFace`` gives a roll a picture in Jupyter (``_repr_svg_``), so a die
game's notebook shows each roll without any widget::

    >>> DieFace("N")
    DieFace('N')
    >>> DieFace("-").is_skip
    True
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.core.pieces import ORTHODOX_PIECES, TAVRELI_PIECES
from tavrei_lab.errors import RenderError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.render.backend import BACKENDS, SVG, Renderer, fmt
from tavrei_lab.render.glyphs import BOX, GlyphSet, draw_glyph, glyph_group_attrs
from tavrei_lab.render.theme import DEFAULT_THEME, Theme

#: The word ``"skip"`` and the marks records use for a blank face.
SKIP_MARKS = frozenset({"skip", "-", "0", "_", "o", "●"})


def is_skip_mark(face: str) -> bool:
    """Is ``face`` a blank / black-circle face (rather than a piece letter)?"""
    return face.lower() in SKIP_MARKS or not face.isalpha()


def face_kind(face: str, pieces: Any = None) -> int:
    """The piece kind a letter face shows, in ``pieces`` (default: orthodox, then Tavreli)."""
    letter = face.upper()
    for pset in ((pieces,) if pieces is not None else ()) + (ORTHODOX_PIECES, TAVRELI_PIECES):
        if letter in pset.by_letter:
            return pset.by_letter[letter].kind
    raise RenderError(_("die face {face!r} is neither a piece letter nor a skip mark "
                        "({marks})").format(face=face, marks=", ".join(sorted(SKIP_MARKS))))


def die_title(face: str, color: int | None, skip: bool, passes: bool) -> str:
    """The die's tooltip in the language in force: whose roll, the face, a pass."""
    if skip:
        said = (_("die: white rolled skip (the turn passes)"),
                _("die: black rolled skip (the turn passes)"), _("die: skip (the turn passes)"))
    elif passes:
        said = (_("die: white rolled {face} (passes the turn)"),
                _("die: black rolled {face} (passes the turn)"),
                _("die: {face} (passes the turn)"))
    else:
        said = (_("die: white rolled {face}"), _("die: black rolled {face}"), _("die: {face}"))
    return said[2 if color is None else color].format(face=face)


def draw_die(renderer: Renderer, parent: Any, x: float, y: float, side: float, face: str,
             theme: Theme, pieces: Any = None, family: str | None = None,
             passes: bool = False, color: int | None = None, css: str = "") -> Any:
    """Draw one die face with its top left corner at (x, y).

    ``passes`` marks a piece face that passes the turn (the absent type).
    ``color`` (0 white, 1 black) is the roller: the face's piece is drawn as
    that side's tavrel, so the class sees whose roll it is; without it the
    piece is drawn in the die's ink. ``css`` adds classes to the group.
    Returns the die's group (class ``die``, ``data-face``, ``data-color``).
    """
    skip = is_skip_mark(face)
    kind = 0 if skip else face_kind(face, pieces)
    classes = " ".join(filter(None, ["die skip" if skip or passes else "die", css]))
    attrs = {"class": classes, "data-face": "skip" if skip else face.upper()}
    if color is not None:
        attrs["data-color"] = ("white", "black")[color]
    g = renderer.group(parent, attrs)
    renderer.title(g, die_title(face.upper(), color, skip, passes))
    renderer.rect(g, x, y, side, side, {"rx": side * 0.16, "fill": theme.die_fill,
                                        "stroke": theme.die_outline,
                                        "stroke-width": side * 0.04})
    if skip:
        ink = theme.die_pip if color is None else theme.piece_colors(color)[0]
        renderer.circle(g, x + side / 2, y + side / 2, side * 0.2,
                        {"fill": ink, "stroke": theme.die_outline,
                         "stroke-width": side * 0.03, "class": "skip-mark"})
        return g
    fam = family or (GlyphSet.family_for(pieces) if pieces is not None else "orthodox")
    glyph = theme.glyphs.glyph(fam, kind)
    if color is None:
        fill, outline, detail = theme.die_pip, theme.die_pip, theme.die_fill
    else:
        fill, outline, detail = theme.piece_colors(color)
    ident = f"tl-{theme.key}-die-{glyph.name}" + ("" if color is None else "-wb"[color + 1])
    renderer.define(ident, lambda r, node: draw_glyph(r, node, glyph, fill, outline, detail),
                    attrs=glyph_group_attrs(fill, outline))
    scale = side * 0.8 / BOX
    renderer.use(g, ident, {"transform": f"translate({fmt(x + side * 0.1)},"
                                         f"{fmt(y + side * 0.1)}) scale({fmt(scale)})"})
    if passes:
        renderer.line(g, x + side * 0.15, y + side * 0.85, x + side * 0.85, y + side * 0.15,
                      {"stroke": theme.check, "stroke-width": side * 0.07,
                       "stroke-linecap": "round", "class": "skip-mark"})
    return g


def die_svg(face: str, theme: Theme | None = None, *, pieces: Any = None,
            size: float | None = None, passes: bool = False, backend: str = "svgwrite") -> SVG:
    """One die face as an SVG document (``face``: a piece letter, or ``"skip"``/``"-"``)."""
    if not isinstance(face, str) or not face:
        raise RenderError(_("die face must be a non-empty string, not {face!r}").format(
            face=face))
    theme = theme or DEFAULT_THEME
    side = 45.0
    px = size if size is not None else 48
    r = BACKENDS[backend](px, px, (0, 0, side, side), {"class": "tavrei-die"})
    draw_die(r, None, 1, 1, side - 2, face, theme, pieces, passes=passes)
    return SVG(r.to_string())


class DieFace:
    """A die roll with a picture: ``DieFace("Q")`` shows a queen face in Jupyter.

    ``pieces`` is the variant's piece set (for its letters), ``passes`` marks
    a piece face that passes the turn.
    """

    def __init__(self, face: str, *, pieces: Any = None, theme: Theme | None = None,
                 passes: bool = False) -> None:
        if not is_skip_mark(face):
            face_kind(face, pieces)  # fail now, with a clear message, not at display time
        self.face = face
        self.pieces = pieces
        self.theme = theme
        self.passes = passes

    @property
    def is_skip(self) -> bool:
        """A blank / black-circle face, or a piece face that passes the turn."""
        return is_skip_mark(self.face) or self.passes

    def _repr_svg_(self) -> str:
        return die_svg(self.face, self.theme, pieces=self.pieces, passes=self.passes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DieFace) and (self.face, self.passes) == (other.face,
                                                                           other.passes)

    def __hash__(self) -> int:
        return hash((self.face, self.passes))

    def __repr__(self) -> str:
        return f"DieFace({self.face!r})"
