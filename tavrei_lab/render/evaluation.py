"""The evaluation bar and graph, as SVG text: what lichess's analysis board shows
beside the board (white's share of a vertical bar) and under the moves (the
figure over the game's plies, each ply a column one clicks).

Plain strings from plain numbers: the caller (``session.evaluation``) has the
figures; a column of the graph carries ``data-ply`` for the widget's clicks.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

#: The bar's colours: white's part, black's part, the line at even.
WHITE_PART, BLACK_PART, MIDDLE = "#f4f4f4", "#3b3b3b", "#c33"


def evaluation_bar_svg(share: float, label: str, *, flipped: bool = False,
                       width: int = 22, height: int = 400, title: str = "") -> str:
    """A vertical bar, white's ``share`` (0..1) of it from white's side of the board
    (the bottom, or the top when ``flipped``), with ``label`` written at its end ("":
    none, for a bar stretched to a board's height, whose text the page writes)."""
    share = min(1.0, max(0.0, float(share)))
    white_h = round(height * share, 1)
    white_y = 0.0 if flipped else height - white_h
    label_y = (14 if share >= 0.5 else height - 5) if flipped else \
        (height - 5 if share >= 0.5 else 14)
    label_fill = BLACK_PART if share >= 0.5 else WHITE_PART
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="tavrei-eval-bar" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="100%" '
            f'preserveAspectRatio="none" role="img" aria-label="{escape(title or label)}">'
            f'<title>{escape(title or label)}</title>'
            f'<rect width="{width}" height="{height}" fill="{BLACK_PART}"/>'
            f'<rect y="{white_y}" width="{width}" height="{white_h}" fill="{WHITE_PART}"/>'
            f'<line x1="0" x2="{width}" y1="{height / 2}" y2="{height / 2}" '
            f'stroke="{MIDDLE}" stroke-width="2"/>'
            + (f'<text x="{width / 2}" y="{label_y}" text-anchor="middle" font-size="9" '
               f'font-family="sans-serif" fill="{label_fill}">{escape(label)}</text>'
               if label else "") + '</svg>')


def evaluation_graph_svg(shares: Sequence[float], titles: Sequence[str], current: int,
                         *, width: int = 210, height: int = 80) -> str:
    """The graph: white's share (0..1) at each ply, white's area under the line, the
    shown ply marked; column ``i`` (with its ``titles[i]`` as a tooltip) carries
    ``data-ply="i"``."""
    n = len(shares)
    step = width / max(1, n - 1) if n > 1 else float(width)
    points = [(round(i * step, 1) if n > 1 else width / 2,
               round(height * (1 - min(1.0, max(0.0, s))), 1)) for i, s in enumerate(shares)]
    area = " ".join(f"{x},{y}" for x, y in points)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="tavrei-eval-graph" '
             f'viewBox="0 0 {width} {height}" width="{width}" height="{height}">',
             f'<rect width="{width}" height="{height}" fill="{BLACK_PART}"/>']
    if points:
        parts.append(f'<polygon points="0,{height} {area} {points[-1][0]},{height}" '
                     f'fill="{WHITE_PART}"/>')
        parts.append(f'<polyline points="{area}" fill="none" stroke="#888" stroke-width="1"/>')
    parts.append(f'<line x1="0" x2="{width}" y1="{height / 2}" y2="{height / 2}" '
                 f'stroke="{MIDDLE}" stroke-width="1" stroke-dasharray="3 2"/>')
    if 0 <= current < n:
        x = points[current][0]
        parts.append(f'<line class="tavrei-eval-now" x1="{x}" x2="{x}" y1="0" '
                     f'y2="{height}" stroke="#2a7de1" stroke-width="2"/>')
    for i in range(n):
        left = max(0.0, points[i][0] - step / 2)
        right = min(float(width), points[i][0] + step / 2)
        parts.append(f'<rect data-ply="{i}" x="{round(left, 1)}" y="0" '
                     f'width="{round(right - left, 1)}" height="{height}" '
                     f'fill="transparent" style="cursor:pointer">'
                     f'<title>{escape(titles[i] if i < len(titles) else str(i))}</title></rect>')
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["evaluation_bar_svg", "evaluation_graph_svg"]
