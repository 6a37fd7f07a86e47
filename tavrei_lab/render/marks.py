"""The marks drawn over a board's squares: check, move destinations, the split
count and arrows.

Each mark carries ``data-square`` (an arrow ``data-from`` and ``data-to``) and a
class naming what it says, so a script or a style can find it.
"""

from __future__ import annotations

import math
from typing import Any

from tavrei_lab.i18n import ngettext
from tavrei_lab.render.backend import Renderer, fmt
from tavrei_lab.render.glyphs import BOX
from tavrei_lab.render.theme import Theme

#: Side of one square in drawing units (the glyph box).
SQUARE = BOX


def draw_check(r: Renderer, parent: Any, origin: tuple[float, float], name: str,
                theme: Theme) -> None:
    ident = f"tl-{theme.key}-check"
    if not r.has_definition(ident):
        def build(rr: Renderer, node: Any) -> None:
            for offset, opacity in (("0%", 1), ("45%", 0.75), ("100%", 0)):
                rr.element(node, "stop", {"offset": offset, "stop-color": theme.check,
                                          "stop-opacity": opacity})
        r.define(ident, build, tag="radialGradient", attrs={"r": "0.5"})
    x, y = origin
    r.rect(parent, x, y, SQUARE, SQUARE, {"class": "check-glow", "data-square": name,
                                          "fill": f"url(#{ident})"})


def draw_destination(r: Renderer, parent: Any, origin: tuple[float, float], name: str,
                      kind: str, theme: Theme) -> None:
    x, y = origin
    attrs = {"data-square": name, "class": f"dest {kind}"}
    if kind == "dest-empty":
        r.circle(parent, x + SQUARE / 2, y + SQUARE / 2, SQUARE * 0.15,
                 {**attrs, "fill": theme.dest_empty, "fill-opacity": 0.7})
    elif kind == "dest-own":
        # a "+" disc in the corner the glyphs leave free: "stack onto this one". (A
        # frame round the tower read as "a piece you may move".)
        cx, cy, radius = x + SQUARE - 8, y + SQUARE - 8, 7.0
        g = r.group(parent, attrs)
        r.circle(g, cx, cy, radius, {"fill": theme.dest_own, "fill-opacity": 0.9,
                                     "stroke": theme.badge_text, "stroke-width": 0.8})
        arm = radius * 0.55
        r.path(g, f"M{fmt(cx - arm)} {fmt(cy)} H{fmt(cx + arm)} "
                  f"M{fmt(cx)} {fmt(cy - arm)} V{fmt(cy + arm)}",
               {"stroke": theme.badge_text, "stroke-width": 1.6, "stroke-linecap": "round"})
    else:
        w = SQUARE * 0.28
        e = SQUARE
        d = (f"M{fmt(x)} {fmt(y)} h{fmt(w)} L{fmt(x)} {fmt(y + w)} Z "
             f"M{fmt(x + e)} {fmt(y)} v{fmt(w)} L{fmt(x + e - w)} {fmt(y)} Z "
             f"M{fmt(x + e)} {fmt(y + e)} h{fmt(-w)} L{fmt(x + e)} {fmt(y + e - w)} Z "
             f"M{fmt(x)} {fmt(y + e)} v{fmt(-w)} L{fmt(x + w)} {fmt(y + e)} Z")
        r.path(parent, d, {**attrs, "fill": theme.dest_enemy, "fill-opacity": 0.85})


def draw_split_count(r: Renderer, parent: Any, origin: tuple[float, float], name: str,
                      count: int, height: int, theme: Theme, k: float = 1.0) -> None:
    """A pill at the bottom right of the selected square: "take 2 of 5" (``k``: larger)."""
    x, y = origin
    g = r.group(parent, {"class": "split-count", "data-square": name, "data-count": count})
    r.title(g, ngettext("take the top {count} of {height}", "take the top {count} of {height}",
                        height).format(count=count, height=height))
    r.rect(g, round(x + SQUARE - 19 * k, 2), round(y + SQUARE - 10 * k, 2), round(18 * k, 2),
           round(9 * k, 2),
           {"rx": round(4.5 * k, 2), "fill": theme.split, "stroke": theme.badge_text,
            "stroke-width": 0.6})
    r.text(g, round(x + SQUARE - 10 * k, 2), round(y + SQUARE - 3.2 * k, 2),
           f"{count}/{height}" if height < 10 or count < 10 else str(count),
           {"fill": theme.badge_text, "font-size": round(6.5 * k, 2), "font-weight": "bold",
            "font-family": theme.font_family, "text-anchor": "middle"})


def draw_arrow(r: Renderer, parent: Any, a: tuple[float, float], b: tuple[float, float],
                fr: str, to: str, color: str, theme: Theme) -> None:
    half = SQUARE / 2
    x1, y1 = a[0] + half, a[1] + half
    x2, y2 = b[0] + half, b[1] + half
    g = r.group(parent, {"class": "arrow", "data-from": fr, "data-to": to,
                         "opacity": theme.arrow_opacity, "pointer-events": "none"})
    if (x1, y1) == (x2, y2):
        r.circle(g, x1, y1, SQUARE * 0.44, {"fill": "none", "stroke": color,
                                            "stroke-width": SQUARE * 0.07})
        return
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    head = SQUARE * 0.38
    shaft = SQUARE * 0.16
    tip_x, tip_y = x2 - ux * SQUARE * 0.12, y2 - uy * SQUARE * 0.12
    base_x, base_y = tip_x - ux * head, tip_y - uy * head
    r.line(g, x1, y1, base_x, base_y, {"stroke": color, "stroke-width": shaft,
                                       "stroke-linecap": "round"})
    px, py = -uy * head * 0.55, ux * head * 0.55
    r.polygon(g, ((tip_x, tip_y), (base_x + px, base_y + py), (base_x - px, base_y - py)),
              {"fill": color})


__all__ = ["draw_arrow", "draw_check", "draw_destination", "draw_split_count"]
