"""Drawing a game tree as SVG: shapes by node type, moves on edges, values, the PV.

The picture follows the conventions of a chess book's analysis diagram:

- a **decision** node is a circle, white or black for the side to move;
- a **chance** node (a die roll) is a diamond; its edges read ``@Q 1/6``;
- a **terminal** node is a square: white or black for the winner, grey for a draw;
- a node cut off by ``max_nodes`` has a dashed outline and a ``…`` below it;
- a collapsed node shows ``+N``, the number of nodes hidden below it;
- edges carry the move text; the **principal variation** is drawn thick and
  red; subtrees alpha-beta never looked at (``pruned``) are faded;
- values (white's point of view) are written under the nodes, ``≥`` / ``≤``
  marking alpha-beta bounds.

Optional **thumbnails** put a small board (``tavrei_lab.render.board_svg``)
under chosen nodes. Every node is a ``<g class="node ..." data-node="ID">``,
so styles can target kinds of node and the interactive view can report clicks.

The SVG is built through the render package's small ``Renderer`` interface
(svgwrite, validation off), which keeps a 10,000-node drawing quick.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import networkx as nx

from tavrei_lab.errors import RenderError
from tavrei_lab.notation.moves import parse_move_spec
from tavrei_lab.render.backend import SvgwriteRenderer
from tavrei_lab.render.board import board_svg
from tavrei_lab.tree.layout import layered_layout
from tavrei_lab.tree.nodes import position_at, root_of
from tavrei_lab.tree.values import value_text

#: Thumbnails are whole boards: more than this many make a drawing nobody can open.
MAX_THUMBNAILS = 400

SLOT = 78.0          # horizontal distance between neighbouring leaves
LAYER = 92.0         # vertical distance between layers
RADIUS = 11.0
MARGIN = 30.0
THUMB = 72.0         # thumbnail width
PV_COLOUR = "#c0392b"
EDGE_COLOUR = "#8a8a8a"
_STYLE = (
    ".edge{stroke:#8a8a8a;stroke-width:1.2}"
    ".edge.pv{stroke:#c0392b;stroke-width:3}"
    ".pruned{opacity:.35}"
    ".label{font:11px sans-serif;fill:#333;paint-order:stroke;stroke:#fff;stroke-width:3px}"
    ".label.pv{fill:#c0392b;font-weight:bold}"
    ".value{font:10px monospace;fill:#155;paint-order:stroke;stroke:#fff;stroke-width:3px}"
    ".shape{stroke:#222;stroke-width:1.5}"
    ".pv>.shape{stroke:#c0392b;stroke-width:3}"
    ".cut>.shape{stroke-dasharray:3 2}"
    ".selected>.shape{stroke:#2471a3;stroke-width:4}"
    ".badge{font:bold 10px sans-serif;fill:#2471a3}"
    ".node{cursor:pointer}"
)


def probability_text(p: float) -> str:
    """A probability as a reader writes it: ``1/6`` when it is a simple fraction."""
    f = Fraction(p).limit_denominator(64)
    if abs(float(f) - p) < 1e-9 and f.denominator > 1:
        return f"{f.numerator}/{f.denominator}"
    return f"{p:.2f}".rstrip("0").rstrip(".") if p != 1 else "1"


def _thumbnail_nodes(G: nx.DiGraph, spec: Any, visible: set[int]) -> list[int]:
    if not spec:
        return []
    if spec is True:
        chosen = [n for n in G.nodes if n in visible]
    elif spec == "pv":
        chosen = [n for n in G.nodes if n in visible and G.nodes[n].get("pv")]
    elif isinstance(spec, str):
        raise RenderError(f"thumbnails: expected True, 'pv' or a list of nodes, got {spec!r}")
    else:
        chosen = [n for n in spec if n in visible]
    if len(chosen) > MAX_THUMBNAILS:
        raise RenderError(f"thumbnails: {len(chosen)} boards asked for, at most "
                          f"{MAX_THUMBNAILS}; pass thumbnails='pv' or a list of nodes")
    return chosen


def _thumbnail(G: nx.DiGraph, node: int) -> str:
    """A small board for ``node`` as a data URI, the move that led there highlighted."""
    position = position_at(G, node)
    lastmove = None
    preds = list(G.predecessors(node))
    if preds:
        text = G.edges[preds[0], node].get("move")
        if text:
            spec = parse_move_spec(text)
            if spec.from_square:
                lastmove = (spec.from_square, spec.to_square)
    svg = board_svg(position, lastmove=lastmove, size=THUMB, coordinates=False)
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")


def draw_svg(G: nx.DiGraph, *, layout: dict[int, tuple[float, float]] | None = None,
             collapsed: Iterable[int] = (), thumbnails: Any = False,
             selected: int | None = None, show_values: bool = True,
             show_moves: bool = True, root: int | None = None) -> str:
    """The tree as SVG text.

    ``collapsed`` nodes hide their subtrees; ``layout`` (``{node: (slot, layer)}``)
    defaults to ``layered_layout``. ``thumbnails`` is False, True (every
    visible node), ``"pv"`` (the principal variation) or a list of nodes.
    ``selected`` outlines one node (the interactive view's choice).

    >>> from tavrei_lab import Game
    >>> from tavrei_lab.tree import build
    >>> svg = draw_svg(build(Game(), 1))
    >>> svg.count('class="node decision'), svg.count('class="edge pv"')
    (40, 1)
    """
    root = root_of(G) if root is None else root
    closed = set(collapsed)
    pos = layout if layout is not None else layered_layout(G, root=root, collapsed=closed)
    visible = set(pos)
    thumbs = set(_thumbnail_nodes(G, thumbnails, visible))
    # A thumbnail sits to the right of its node: slots and layers make room for it.
    slot = SLOT + (THUMB if thumbs else 0)
    layer_height = LAYER + (THUMB / 2 if thumbs else 0)
    max_x = max(x for x, _ in pos.values())
    max_y = max(y for _, y in pos.values())
    width = 2 * MARGIN + max_x * slot + (THUMB + RADIUS if thumbs else 0)
    top = MARGIN + (THUMB / 2 if thumbs else 0)
    height = top + MARGIN + max_y * layer_height + 24 + (THUMB / 2 if thumbs else 0)

    def xy(node: int) -> tuple[float, float]:
        x, y = pos[node]
        return round(MARGIN + x * slot, 1), round(top + y * layer_height, 1)

    r = SvgwriteRenderer(width, height, (0, 0, width, height),
                         {"class": "tavrei-tree", "font-family": "sans-serif"})
    r.element(None, "style", {}, _STYLE)
    edges = r.group(None, {"class": "edges"})
    labels = r.group(None, {"class": "labels"})
    nodes = r.group(None, {"class": "nodes"})
    nd = G.nodes
    for node in pos:
        if node in closed:
            continue
        x1, y1 = xy(node)
        for child, edge in G.succ[node].items():
            if child not in pos:
                continue
            x2, y2 = xy(child)
            pv = edge.get("pv", False)
            cls = "edge pv" if pv else "edge"
            if nd[child].get("pruned"):
                cls += " pruned"
            r.line(edges, x1, y1 + RADIUS, x2, y2 - RADIUS, {"class": cls})
            if not show_moves:
                continue
            if "face" in edge:
                text = f"@{edge['face']} {probability_text(edge['probability'])}"
            else:
                text = edge.get("label", edge.get("move", ""))
            mx, my = x1 + (x2 - x1) * 0.62, y1 + (y2 - y1) * 0.62
            r.text(labels, mx, my, text, {"class": "label pv" if pv else "label",
                                          "text-anchor": "middle"})
    for node in pos:
        data = nd[node]
        x, y = xy(node)
        kind = data.get("type", "decision")
        classes = ["node", kind, data.get("turn", "")]
        for flag in ("pv", "cut", "pruned"):
            if data.get(flag):
                classes.append(flag)
        if node == selected:
            classes.append("selected")
        g = r.group(nodes, {"class": " ".join(c for c in classes if c), "data-node": node})
        tip = data.get("position", "")
        if "value" in data:
            tip += f"\nvalue {value_text(data['value'])} ({data.get('bound', 'exact')})"
        r.title(g, tip)
        if kind == "chance":
            d = RADIUS * 1.3
            r.polygon(g, [(x, y - d), (x + d, y), (x, y + d), (x - d, y)],
                      {"class": "shape", "fill": "#f4d03f"})
        elif kind == "terminal":
            fill = {"1-0": "#ffffff", "0-1": "#222222"}.get(data.get("outcome") or "", "#aaaaaa")
            r.rect(g, x - RADIUS, y - RADIUS, 2 * RADIUS, 2 * RADIUS,
                   {"class": "shape", "fill": fill})
        else:
            fill = "#ffffff" if data.get("turn") == "white" else "#222222"
            r.circle(g, x, y, RADIUS, {"class": "shape", "fill": fill})
        below = y + RADIUS + 11
        if show_values and "value" in data:
            mark = {"lower": "≥", "upper": "≤"}.get(data.get("bound", "exact"), "")
            r.text(g, x, below, mark + value_text(data["value"]),
                   {"class": "value", "text-anchor": "middle"})
            below += 12
        if data.get("cut"):
            r.text(g, x, below, "…", {"class": "badge", "text-anchor": "middle"})
            below += 12
        if node in closed and G.out_degree(node):
            hidden = len(nx.descendants(G, node))
            r.text(g, x + RADIUS + 3, y + 4, f"+{hidden}", {"class": "badge"})
        if node in thumbs:
            r.element(g, "image", {"x": x + RADIUS + 4, "y": y - THUMB / 2, "width": THUMB,
                                   "height": THUMB, "href": _thumbnail(G, node),
                                   "class": "thumbnail"})
    return r.to_string()


__all__ = ["MAX_THUMBNAILS", "draw_svg", "probability_text"]
