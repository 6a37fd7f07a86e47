"""A minimal stand-in for ``tavrei_lab.render.board_svg`` (used only while render is missing).

It follows the render contract the widget relies on: every square carries
``data-square`` and the classes ``square light|dark <name>`` plus the
highlight classes; every tower is ``<g class="tower" data-square=...>`` with
a ``<title>`` and one ``data-layer`` element per tavrel.
"""

from __future__ import annotations

from typing import Any


def board_svg(position: Any, *, flipped: bool = False, lastmove: Any = None,
              selected: Any = None, destinations: Any = None, split_count: Any = None,
              check: Any = None, attacked_by: Any = None, arrows: Any = (),
              die_face: Any = None, size: Any = None, coordinates: bool = True,
              theme: Any = None) -> str:
    g = position.geometry
    cell = 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{g.width * cell}" '
           f'height="{g.height * cell}">']
    dests = set(destinations or ())
    last = set() if lastmove is None else {lastmove.from_square, lastmove.to_square}
    for s in range(g.size):
        f, r = g.file_of(s), g.rank_of(s)
        x = (g.width - 1 - f if flipped else f) * cell
        y = (r if flipped else g.height - 1 - r) * cell
        name = g.name(s)
        cls = ["square", "light" if g.is_light(s) else "dark", name]
        if s in last:
            cls.append("lastmove")
        if s == selected:
            cls.append("selected")
        if check and s == position.king_square(position.turn):
            cls.append("check")
        if s in dests:
            tower = position.board[s]
            cls.append("dest-empty" if not tower else
                       "dest-own" if tower[-1].color == position.turn else "dest-enemy")
        out.append(f'<rect class="{" ".join(cls)}" data-square="{name}" x="{x}" y="{y}" '
                   f'width="{cell}" height="{cell}"/>')
        tower = position.board[s]
        if tower:
            out.append(f'<g class="tower" data-square="{name}"><title>{name}</title>')
            for i, _t in enumerate(tower):
                out.append(f'<rect data-square="{name}" data-layer="{i}" x="{x + 2}" '
                           f'y="{y + cell - 6 * (i + 1)}" width="8" height="5"/>')
            out.append("</g>")
    if die_face:
        out.append(f'<text class="die">{die_face}</text>')
    out.append("</svg>")
    return "".join(out)
