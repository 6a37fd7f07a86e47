"""Piece pictures: simple geometric glyphs drawn for this project.

Every glyph is data -- a list of shapes in a 45 x 45 box -- so a theme can
swap the whole set, or one picture, without touching the drawing code. Each
shape has a *paint* that the theme turns into colours for a white or a black
tavrel:

- ``body``: filled with the tavrel's colour and outlined (the silhouette);
- ``detail``: a line drawn *on* the body in the contrasting colour;
- ``dot``: a small filled mark on the body in the contrasting colour;
- ``ink``: a thin line off the body (a bow string) in the outline colour.

Two families: ``tavreli`` (volkhv, knyaz, ratoborets, luchnik, vsadnik,
ratnik, helgi) and ``orthodox`` (king, queen, rook, bishop, knight, pawn,
and the amazon for the rare orthodox use of the helgi role). The silhouettes
were chosen to be told apart at a glance and at small sizes: the volkhv is a
hooded sage with a sun staff (the king's role), the knyaz wears a fur-rimmed
cap with an orb, the ratoborets is a shield with a sword hilt, the luchnik a
bow with an arrow, the vsadnik a horse's head, the ratnik a small helmeted
soldier with a round shield, and the helgi a crowned horse's head. A promoted
ratnik is drawn as its destiny with a ratnik badge in the lower left corner.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from tavrei_lab.core.tavrel import BISHOP, HELGI, KING, KNIGHT, PAWN, QUEEN, ROOK
from tavrei_lab.errors import RenderError
from tavrei_lab.i18n import gettext as _

#: The glyph box: every glyph is drawn in a square of this side.
BOX = 45.0

#: Every glyph leaves this much of its box empty at the left, so a tower's top
#: glyph may overlap the layer strip by that much (custom glyphs should too).
GLYPH_INSET = 4.5

PAINTS = ("body", "detail", "dot", "ink")


@dataclass(frozen=True)
class Shape:
    """One SVG shape of a glyph: its tag, its geometry attributes, its paint."""

    tag: str
    attrs: tuple[tuple[str, Any], ...]
    paint: str = "body"


@dataclass(frozen=True)
class Glyph:
    """A piece picture: shapes in a 45 x 45 box, drawn in order."""

    name: str
    shapes: tuple[Shape, ...]


def path(d: str, paint: str = "body") -> Shape:
    return Shape("path", (("d", d),), paint)


def circle(cx: float, cy: float, r: float, paint: str = "body") -> Shape:
    return Shape("circle", (("cx", cx), ("cy", cy), ("r", r)), paint)


def rect(x: float, y: float, w: float, h: float, paint: str = "body") -> Shape:
    return Shape("rect", (("x", x), ("y", y), ("width", w), ("height", h)), paint)


@dataclass(frozen=True)
class GlyphSet:
    """Glyphs by family and kind, plus the promoted badge.

    ``glyphs[(family, kind)]``; ``family_for(pieces)`` picks the family a
    variant's piece set is drawn with.
    """

    name: str
    glyphs: tuple[tuple[tuple[str, int], Glyph], ...]
    promoted_badge: Glyph

    @cached_property
    def table(self) -> Mapping[tuple[str, int], Glyph]:
        return dict(self.glyphs)

    def glyph(self, family: str, kind: int) -> Glyph:
        """The picture of ``kind`` in ``family``; ``RenderError`` if the set has none."""
        try:
            return self.table[(family, kind)]
        except KeyError:
            raise RenderError(_("glyph set {name!r} has no {family} glyph for kind {kind}")
                              .format(name=self.name, family=family, kind=kind)) from None

    @staticmethod
    def family_for(pieces: Any) -> str:
        """``orthodox`` for a piece set that calls the king role "king", else ``tavreli``."""
        return "orthodox" if pieces.by_kind[KING].name == "king" else "tavreli"

    def with_glyph(self, family: str, kind: int, glyph: Glyph) -> GlyphSet:
        """A copy with one picture replaced (custom art for one piece)."""
        rest = tuple((k, g) for k, g in self.glyphs if k != (family, kind))
        return GlyphSet(self.name + "+", rest + (((family, kind), glyph),), self.promoted_badge)


# -- the shapes -------------------------------------------------------------------
PEDESTAL = path("M9.5 39.5 H35.5 L33 34.5 H12 Z")

HORSE = path("M14 34.5 H32 Q33 22 28 14 Q24 8 19 7.5 L17.5 3.5 L15.5 8.5 "
             "Q12 11 9.5 17 L8 21.5 Q9 24 12 23.5 L17 21 Q19.5 21.5 19.5 23.5 "
             "Q15 28 14 34.5 Z")
HORSE_FACE = (circle(16.5, 13, 1.4, "dot"), circle(10.6, 20.3, 0.8, "dot"),
              path("M21 9.5 Q29.5 13 30 25", "detail"))

VOLKHV = Glyph("volkhv", (
    rect(34, 9, 2.4, 26, "body"),                 # the staff
    circle(35.2, 7.5, 3.2),                       # the sun on it
    path("M12.5 34.5 L31 34.5 L26.5 18 L18 18 Z"),  # robe
    circle(22.25, 14.8, 3.6),                     # head
    path("M16.8 13.2 L27.7 13.2 L22.25 2.5 Z"),   # pointed hood
    path("M22.25 21 V32 M16.6 26.5 H28", "detail"),
    PEDESTAL,
))

KNYAZ = Glyph("knyaz", (
    path("M11.5 34.5 H33.5 L29 22.5 H16 Z"),      # cloak
    path("M15.5 17.5 A7 8 0 0 1 29.5 17.5 Z"),   # the cap's dome
    rect(14, 17.5, 17, 5),                        # its fur rim
    rect(21.7, 7.5, 1.6, 3),                      # stem
    circle(22.5, 6, 2.6),                         # orb
    path("M22.5 10.5 V17 M18.6 13 Q19.8 15 19.5 17 M26.4 13 Q25.2 15 25.5 17", "detail"),
    circle(22.5, 20, 1.3, "dot"),
    PEDESTAL,
))

RATOBORETS = Glyph("ratoborets", (
    rect(21.3, 2.5, 2.4, 7.5),                    # sword grip
    circle(22.5, 2.8, 1.8),                       # pommel
    rect(15.5, 7.6, 14, 2.4),                     # cross-guard
    path("M11.5 10 H33.5 V20 Q33.5 28.5 22.5 33.5 Q11.5 28.5 11.5 20 Z"),  # shield
    path("M22.5 12.5 V30 M14 19.5 H31", "detail"),
    PEDESTAL,
))

LUCHNIK = Glyph("luchnik", (
    path("M14 5 L14 33", "ink"),                  # bow string
    path("M14 5 Q42 19 14 33 Q31 19 14 5 Z"),     # the bow
    path("M7.5 19 H32", "ink"),                   # arrow shaft
    path("M38 19 L31.5 15.5 L31.5 22.5 Z"),       # arrow head
    path("M7.5 19 L4.5 15.5 M7.5 19 L4.5 22.5 M10.5 19 L7.5 15.5 M10.5 19 L7.5 22.5", "ink"),
    PEDESTAL,
))

VSADNIK = Glyph("vsadnik", (HORSE, *HORSE_FACE, PEDESTAL))

RATNIK = Glyph("ratnik", (
    path("M14.5 34.5 H30.5 L28 24 H17 Z"),        # body
    circle(22.5, 19.5, 4),                        # head
    rect(21.8, 5.5, 1.4, 4),                      # helmet spike
    path("M17.8 18 Q18.5 11 22.5 8.5 Q26.5 11 27.2 18 Z"),  # pointed helmet
    circle(22.5, 28.5, 5.2),                      # round shield
    circle(22.5, 28.5, 1.4, "dot"),
    PEDESTAL,
))

HELGI_GLYPH = Glyph("helgi", (
    HORSE, *HORSE_FACE,
    path("M17.5 10 L17.5 2.5 L20.8 6 L23.5 1 L26.2 6 L29.5 2.5 L30 11 Q24 7 17.5 10 Z"),  # crown
    circle(25.5, 27, 2, "dot"),
    PEDESTAL,
))

KING_GLYPH = Glyph("king", (
    path("M12 34.5 H33 L29 21 H16 Z"),
    path("M15.5 17.5 Q22.5 7.5 29.5 17.5 Z"),
    rect(14, 17, 17, 4.5),
    rect(21.3, 1.5, 2.4, 9),                      # cross
    rect(18, 4, 9, 2.4),
    path("M22.5 23.5 V31", "detail"),
    PEDESTAL,
))

QUEEN_GLYPH = Glyph("queen", (
    path("M12 34.5 H33 L30 22 H15 Z"),
    path("M12 22 L13.5 9.5 L18.5 17 L22.5 7 L26.5 17 L31.5 9.5 L33 22 Z"),
    circle(13.5, 8, 2), circle(22.5, 5.5, 2), circle(31.5, 8, 2),
    path("M14.5 19.5 H30.5", "detail"),
    PEDESTAL,
))

ROOK_GLYPH = Glyph("rook", (
    path("M14 34.5 H31 L29.5 17 H15.5 Z"),
    path("M12.5 17 H32.5 V8 H28.5 V11.5 H24.5 V8 H20.5 V11.5 H16.5 V8 H12.5 Z"),
    path("M18 24.5 H27 M18 29 H27", "detail"),
    PEDESTAL,
))

BISHOP_GLYPH = Glyph("bishop", (
    circle(22.5, 5.2, 2.4),
    path("M22.5 7 Q33 15.5 28.5 27.5 H16.5 Q12 15.5 22.5 7 Z"),
    path("M26 12.5 L20.5 19", "detail"),
    path("M14.5 31 H30.5 L28.5 27.5 H16.5 Z"),
    PEDESTAL,
))

KNIGHT_GLYPH = Glyph("knight", (HORSE, *HORSE_FACE,
                                path("M12 23.5 L19 12", "detail"),  # bridle
                                PEDESTAL))

PAWN_GLYPH = Glyph("pawn", (
    path("M12.5 34.5 H32.5 Q31 25.5 22.5 22.5 Q14 25.5 12.5 34.5 Z"),
    path("M18 22.8 H27 L25.5 19.2 H19.5 Z"),
    circle(22.5, 14.5, 5.2),
    PEDESTAL,
))

AMAZON_GLYPH = Glyph("amazon", HELGI_GLYPH.shapes)

#: The promoted-ratnik badge: a ring in the lower left corner with a ratnik in it.
PROMOTED_BADGE = Glyph("promoted-ratnik", (
    circle(8.5, 36, 6.8),
    circle(8.5, 33.2, 1.9, "dot"),
    path("M5.2 40 H11.8 L10.5 36 H6.5 Z", "dot"),
))

DEFAULT_GLYPHS = GlyphSet("tavrei-lab", (
    (("tavreli", KING), VOLKHV),
    (("tavreli", QUEEN), KNYAZ),
    (("tavreli", ROOK), RATOBORETS),
    (("tavreli", BISHOP), LUCHNIK),
    (("tavreli", KNIGHT), VSADNIK),
    (("tavreli", PAWN), RATNIK),
    (("tavreli", HELGI), HELGI_GLYPH),
    (("orthodox", KING), KING_GLYPH),
    (("orthodox", QUEEN), QUEEN_GLYPH),
    (("orthodox", ROOK), ROOK_GLYPH),
    (("orthodox", BISHOP), BISHOP_GLYPH),
    (("orthodox", KNIGHT), KNIGHT_GLYPH),
    (("orthodox", PAWN), PAWN_GLYPH),
    (("orthodox", HELGI), AMAZON_GLYPH),
), PROMOTED_BADGE)


def draw_glyph(renderer: Any, parent: Any, glyph: Glyph, fill: str, outline: str,
               detail: str, ring: str | None = None) -> None:
    """Draw ``glyph``'s shapes into ``parent`` in the given colours.

    ``parent`` should carry the body paint (see ``glyph_group_attrs``) so that
    body shapes need no attributes of their own; ``ring`` recolours the
    outline of the first shape (the promoted badge's ring).
    """
    for i, shape in enumerate(glyph.shapes):
        attrs: dict[str, Any] = dict(shape.attrs)
        if shape.paint == "detail":
            attrs.update({"fill": "none", "stroke": detail})
        elif shape.paint == "dot":
            attrs.update({"fill": detail, "stroke": "none"})
        elif shape.paint == "ink":
            attrs.update({"fill": "none", "stroke": outline, "stroke-width": 1.2})
        elif ring is not None and i == 0:
            attrs.update({"stroke": ring, "stroke-width": 1.8})
        renderer.element(parent, shape.tag, attrs)


def glyph_group_attrs(fill: str, outline: str) -> dict[str, Any]:
    """The paint a glyph's group passes down to its body shapes."""
    return {"fill": fill, "stroke": outline, "stroke-width": 1.5,
            "stroke-linejoin": "round", "stroke-linecap": "round"}
