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

Moves are written just above the node they lead to, and a slot is as wide
as the longest move, so labels never overlap. Optional **thumbnails** are
boards (``tavrei_lab.render.board_svg``) big enough to read: under chosen
nodes, or -- for the principal variation -- in a column beside the tree, one
per layer, so they cost the tree no width. A 128 px board gives a layer of a
tower of 8 under 2 px of its strip, so under each board stands its **tower
key**: every tower of two or more, bottom layer first, one box a layer with
its strip letter at 11 px in the tavrel's colours (tutorial 07's towers could
not be read in the boards alone). Every node is a ``<g class="node ..." data-node="ID">``,
so styles can target kinds of node and the interactive view can report clicks.

``picture`` wraps a drawing for notebooks: it is shown scaled to the width
of the output (never wider, never enlarged), so the root and the best line
are in sight without scrolling. ``fold_beside_pv`` folds everything off the
best line, the way to keep a wide tree readable.

The SVG text is written directly, one string per element, in the spelling of
the render package's renderers: a 10,000-node tree has some 50,000 elements,
and building an element object for each cost more than growing the tree.
"""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Container, Iterable
from fractions import Fraction
from operator import methodcaller
from typing import TYPE_CHECKING, Any

import networkx as nx

if TYPE_CHECKING:
    from tavrei_lab.core import cython_shim as cython
else:
    try:
        import cython
    except ImportError:   # no Cython (Pyodide, a plain install): the pure build's value
        from tavrei_lab.core import cython_shim as cython

from tavrei_lab.core.tavrel import COLOR_NAMES
from tavrei_lab.errors import LimitError, RenderError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.moves import parse_move_spec
from tavrei_lab.render.backend import ESCAPE_ATTR, ESCAPE_TEXT, SVG, SVG_NS, XLINK_NS, fmt
from tavrei_lab.render.board import board_svg, describe_tavrel
from tavrei_lab.render.layers import role_letters
from tavrei_lab.render.theme import DEFAULT_THEME
from tavrei_lab.tree.layout import layered_layout
from tavrei_lab.tree.nodes import collector_paused, graph_dicts, position_at, root_of
from tavrei_lab.tree.values import value_text

#: Thumbnails are whole boards: more than this many make a drawing nobody can open.
MAX_THUMBNAILS = 400
#: Most nodes drawn in one picture: 20,000 nodes make about 5 MB of SVG (the 250,000
#: of a default tree made 1.66 GB of memory and 80 s); collapse subtrees to draw more.
MAX_DRAWN_NODES = 20_000


def _too_many(n: int) -> str:
    return (f"draw_svg: {n} nodes to draw; at most {MAX_DRAWN_NODES} fit one picture "
            "(grow a smaller tree, or collapse subtrees)")


SLOT = 78.0          # least horizontal distance between neighbouring leaves
LAYER = 92.0         # vertical distance between layers
RADIUS = 11.0
DIAMOND = RADIUS * 1.3   # a chance node's diamond: centre to corner
MARGIN = 30.0
THUMB = 128.0        # thumbnail width: 16 px squares, glyphs readable
#: A thumbnail's tower key: a row's height, a layer's box, its letter (CSS px at the
#: drawing's own size) and the room for the square's name; a tower of 8 takes one row.
KEY_ROW = 16.0
KEY_BOX = 13.0
KEY_LETTER = 11.0
KEY_LABEL = 20.0
#: The least height of a tower spelt out in a thumbnail's key (a tower of 2 has
#: 9 px layers in a 128 px board's strip, too small for its letters).
KEY_FROM = 2
LABEL_CHAR = 6.6     # width of one character of an 11 px move label (sans-serif, generous)
LABEL_GAP = 12.0     # least space between two neighbouring labels
PV_COLOUR = "#c0392b"
EDGE_COLOUR = "#8a8a8a"
# Every rule is scoped to the drawing: inlined in a page, it must not restyle the page.
_STYLE = (
    ".tavrei-tree .edge{fill:none;stroke:#8a8a8a;stroke-width:1.2}"
    ".tavrei-tree .edge.pv{stroke:#c0392b;stroke-width:3}"
    ".tavrei-tree .pruned{opacity:.35}"
    ".tavrei-tree .label{font:11px sans-serif;fill:#333;paint-order:stroke;stroke:#fff;"
    "stroke-width:3px}"
    ".tavrei-tree .label.pv{fill:#c0392b;font-weight:bold}"
    ".tavrei-tree .value{font:10px monospace;fill:#155;paint-order:stroke;stroke:#fff;"
    "stroke-width:3px}"
    ".tavrei-tree .shape{stroke:#222;stroke-width:1.5}"
    ".tavrei-tree .pv>.shape{stroke:#c0392b;stroke-width:3}"
    ".tavrei-tree .cut>.shape{stroke-dasharray:3 2}"
    ".tavrei-tree .selected>.shape{stroke:#2471a3;stroke-width:4}"
    ".tavrei-tree .badge{font:bold 10px sans-serif;fill:#2471a3}"
    ".tavrei-tree .caption{font:bold 11px sans-serif;fill:#c0392b}"
    ".tavrei-tree .node{cursor:pointer}"
    # live in a page (not as an <img>), a thumbnail grows under the mouse
    ".tavrei-tree .thumbnail{transition:transform .15s;transform-box:fill-box;"
    "transform-origin:50% 0}"
    ".tavrei-tree .thumbnail:hover{transform:scale(2.2)}"
)


def probability_text(p: float) -> str:
    """A probability as a reader writes it: ``1/6`` when it is a simple fraction."""
    f = Fraction(p).limit_denominator(64)
    if abs(float(f) - p) < 1e-9 and f.denominator > 1:
        return f"{f.numerator}/{f.denominator}"
    return f"{p:.2f}".rstrip("0").rstrip(".") if p != 1 else "1"


def _thumbnail_nodes(G: nx.DiGraph, spec: Any, visible: Container[int]) -> list[int]:
    if not spec:
        return []
    if spec is True:
        chosen = [n for n in G.nodes if n in visible]
    elif spec == "pv":
        chosen = [n for n in G.nodes if n in visible and G.nodes[n].get("pv")]
    elif isinstance(spec, str):
        raise RenderError(_("thumbnails: expected True, 'pv' or a list of nodes, got {spec!r}")
                          .format(spec=spec))
    else:
        chosen = [n for n in spec if n in visible]
    if len(chosen) > MAX_THUMBNAILS:
        raise RenderError(_("thumbnails: {count} boards asked for, at most {most}; pass "
                            "thumbnails='pv' or a list of nodes").format(
                                count=len(chosen), most=MAX_THUMBNAILS))
    return chosen


def _thumbnail(G: nx.DiGraph, node: int, position: Any) -> str:
    """A board for ``node`` as a data URI, the move that led there highlighted."""
    lastmove = None
    preds = list(G.predecessors(node))
    if preds:
        text = G.edges[preds[0], node].get("move")
        if text:
            spec = parse_move_spec(text)
            if spec.from_square:
                lastmove = (spec.from_square, spec.to_square)
    svg = board_svg(position, lastmove=lastmove, size=THUMB, coordinates=False,
                    tower_key=False)   # its key is drawn beside it, at the tree's scale
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")


def _key_rows(position: Any) -> list[tuple[str, tuple[Any, ...], int, int]]:
    """A thumbnail's key rows, as the board reads from its top left: (square, tower,
    first layer, end layer); a tower too tall for one row goes on in the next."""
    g = position.geometry
    per_row = max(1, int((THUMB - KEY_LABEL) // KEY_BOX))
    rows = []
    for s in sorted(range(g.size), key=lambda s: (-(s // g.width), s % g.width)):
        tower = tuple(position.board[s])
        if len(tower) >= KEY_FROM:
            for start in range(0, len(tower), per_row):
                rows.append((g.names[s], tower, start, min(len(tower), start + per_row)))
    return rows


def _tower_key(position: Any, node: int, x: float, y: float) -> str:
    """The key under a thumbnail whose left edge is ``x``, from ``y`` down."""
    rows = _key_rows(position)
    if not rows:
        return ""
    pieces = position.pieces
    letters = role_letters(pieces)
    parts = [f"<g{_attrs(('class', 'tower-key'), ('data-node', node))}>"]
    for i, (name, tower, start, end) in enumerate(rows):
        top = y + i * KEY_ROW
        if start == 0:
            parts.append(_element("text", _attrs(("x", x), ("y", top + KEY_ROW * 0.7),
                                                 ("class", "key-square"), ("fill", "#333"),
                                                 ("font-size", 10), ("font-weight", "bold")),
                                   name))
        for layer in range(start, end):
            t = tower[layer]
            fill, outline, detail = DEFAULT_THEME.piece_colors(t.color)
            bx = x + KEY_LABEL + (layer - start) * KEY_BOX
            group = _attrs(("class", f"key-layer {COLOR_NAMES[t.color]}"),
                           ("data-key-square", name), ("data-key-layer", layer))
            parts.append(
                f"<g{group}>"
                + _element("title", "", describe_tavrel(t, pieces))
                + _element("rect", _attrs(("x", bx), ("y", top + 1), ("width", KEY_BOX - 1),
                                          ("height", KEY_ROW - 2), ("rx", 2), ("fill", fill),
                                          ("stroke", DEFAULT_THEME.promoted if t.promoted
                                           else outline),
                                          ("stroke-width", 1.2 if t.promoted else 0.7)))
                + _element("text", _attrs(("x", bx + (KEY_BOX - 1) / 2),
                                          ("y", top + KEY_ROW / 2 + KEY_LETTER * 0.36),
                                          ("fill", detail), ("class", "key-letter"),
                                          ("font-size", KEY_LETTER), ("font-weight", "bold"),
                                          ("text-anchor", "middle")),
                           letters[t.acting_kind])
                + "</g>")
    parts.append("</g>")
    return "".join(parts)


#: Nothing met yet (no node's kind, side or layer is this), nothing there (no edge's label).
_NOTHING = object()

#: Is a node marked cut (``max_nodes``, ``time_limit``)? Asked of its data.
_is_cut = methodcaller("get", "cut")


@cython.cfunc
@cython.locals(edge=dict, chances=dict)
def _edge_text(edge: dict[str, Any], chances: dict[tuple[type, Any], str]) -> str:
    """An edge's label; ``chances`` keeps the probabilities written so far."""
    if "face" in edge:
        p = edge["probability"]
        key = (type(p), p)
        chance = chances.get(key)
        if chance is None:
            chance = chances[key] = probability_text(p)
        return f"@{edge['face']} {chance}"
    text = edge.get("label", _NOTHING)   # (one look-up where there is a label)
    if text is _NOTHING:
        text = edge.get("move", "")
    return text if type(text) is str else str(text)


@cython.cfunc
@cython.locals(x=cython.double, whole=cython.longlong)
def _x_text(x: float) -> str:
    """A node's x as written: rounded to 0.1, a whole number from a C integer (no Python
    int on the way)."""
    whole = 0
    if -1e15 < x < 1e15:   # (a C integer holds it)
        if cython.compiled:
            whole = cython.cast(cython.longlong, x)
        else:
            whole = int(x)
    return f"{whole}" if whole == x else fmt(round(x, 1))


@cython.cfunc
@cython.locals(kids=dict, met=list, pos=dict, pv_kids=set, pruned=set, edge_parts=list,
               steps=list, marked=list, first=cython.Py_ssize_t, i=cython.Py_ssize_t,
               count=cython.Py_ssize_t, every=cython.bint, lines=cython.bint, row=tuple)
def _fan(kids: dict[Any, Any], met: list[Any], every: bool, pos: dict[Any, Any], x1: str,
         y1: str, pv_kids: set[Any], pruned: set[Any], edge_parts: list[str]) -> bool:
    """A parent's edges to its drawn children (every child, or those in ``pos``), which
    must be the last of ``met`` (node, x text, layer texts for each), in order; they are
    taken off it. False, and nothing written, if they are not: the drawing reads the
    children's places where the layout's post-order leaves them, not from a dict of
    every node's (a store and a look-up a node, and a tuple)."""
    count = 0
    if every:
        count = len(kids)
    else:
        for child in kids:
            if child in pos:
                count += 1
    first = len(met) - 3 * count
    if first < 0:
        return False
    lines = bool(pv_kids) or bool(pruned)   # (no edge is a line in a tree without values)
    steps = []
    marked = []
    i = first
    for child in kids:
        if not every and child not in pos:   # (folded away)
            continue
        node = met[i]
        if node is not child and node != child:
            return False
        sx, row = met[i + 1], met[i + 2]
        i += 3
        if lines and (child in pv_kids or child in pruned):
            marked.append(f'<line x1="{x1}" y1="{y1}" x2="{sx}" y2="{row[2]}" class="edge'
                          f'{" pv" if child in pv_kids else ""}'
                          f'{" pruned" if child in pruned else ""}"/>')
        else:
            steps.append(sx + row[8])
    del met[first:]
    # A parent's plain edges are one path (most of a tree's edges: a line each was
    # 56 bytes, a path's step is 16); those on the principal variation or faded are
    # lines, over the plain ones.
    if steps:
        start = f"M{x1} {y1}L"
        edge_parts.append(f'<path d="{start}{start.join(steps)}" class="edge"/>')
    edge_parts += marked
    return True


def _attrs(*pairs: tuple[str, Any]) -> str:
    """`` a="1" b="x"`` -- attributes as the renderers write them (empty text left out)."""
    out = []
    for key, value in pairs:
        text = value if isinstance(value, str) else fmt(value)
        if text:
            out.append(f' {key}="{text.translate(ESCAPE_ATTR)}"')
    return "".join(out)


def _escaped(text: str, attribute: bool = False) -> str:
    """``text.translate(ESCAPE_TEXT)`` (or ``ESCAPE_ATTR``), the same text written
    faster: a translation table that maps to several characters is read
    character by character, and every node's tooltip is a whole position string."""
    if "&" in text or "<" in text or ">" in text:   # (never, in a position string)
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if attribute:
        text = text.replace('"', "&quot;").replace("\n", "&#10;")
    return text


def _element(tag: str, attrs: str, content: str | None = None) -> str:
    """``<tag attrs>content</tag>``, or ``<tag attrs/>`` when there is no content."""
    if not content:
        return f"<{tag}{attrs}/>"
    return f"<{tag}{attrs}>{content.translate(ESCAPE_TEXT)}</{tag}>"


def _one_per_layer(nodes: Iterable[int], pos: dict[int, tuple[float, float]]) -> bool:
    layers = [pos[n][1] for n in nodes]
    return len(layers) == len(set(layers))


def draw_svg(G: nx.DiGraph, *, layout: dict[int, tuple[float, float]] | None = None,
             collapsed: Iterable[int] = (), thumbnails: Any = False,
             selected: int | None = None, show_values: bool = True,
             show_moves: bool = True, root: int | None = None) -> SVG:
    """The tree as SVG text.

    ``collapsed`` nodes hide their subtrees; ``layout`` (``{node: (slot, layer)}``)
    defaults to ``layered_layout``. ``thumbnails`` is False, True (every
    visible node), ``"pv"`` (the principal variation: drawn in a column beside
    the tree, one board per layer, each captioned with its move) or a list of
    nodes (drawn under their nodes). ``selected`` outlines one node (the
    interactive view's choice).

    >>> from tavrei_lab import Game
    >>> from tavrei_lab.tree import build
    >>> svg = draw_svg(build(Game(), 1))
    >>> svg.count('class="node decision'), svg.count('class="edge pv"')
    (40, 1)
    """
    with collector_paused():  # (a tuple or two a node: nothing for the collector)
        return SVG(_drawing(G, layout, set(collapsed), thumbnails, selected, show_values,
                            show_moves, root))


#: A value's bounds (the alpha-beta window's), named in the catalogue.
_BOUNDS = ("exact", "lower", "upper")


def _value_tip(said: str, bound: str) -> tuple[str, str]:
    """The tooltip's words around a value, so the loop only joins them to the number."""
    before, _value, after = said.partition("{value}")
    return "\n" + before.format(bound=bound), after.format(bound=bound)


@cython.cfunc
def _node_class(kind: str, turn: str) -> str:
    return f"node {kind} {turn}" if kind and turn else " ".join(
        c for c in ("node", kind, turn) if c)


@cython.cfunc
def _diamond(x: float, sx: str, sy: str, top: str, bottom: str) -> str:
    """A chance node's diamond, its corners top, right, bottom, left (``sx``, ``sy``:
    its centre as written; ``top``, ``bottom``: its layer's corners as written)."""
    return (f'<polygon points="{sx},{top} {fmt(x + DIAMOND)},{sy} {sx},{bottom} '
            f'{fmt(x - DIAMOND)},{sy}" class="shape" fill="#f4d03f"/>')


@cython.locals(data_of=dict, children=dict, labels_text=dict, met=list, rows=dict,
               plain=dict, special=set, pruned=set, node_parts=list, edge_parts=list,
               label_parts=list, row=tuple, words=tuple, pv_kids=set, marked=list, data=dict,
               x=cython.double, slot_x=cython.double, max_x=cython.double,
               at_left=cython.double, per_slot=cython.double, all_drawn=cython.bint,
               whole=cython.longlong,
               n_parents=cython.Py_ssize_t, late=cython.Py_ssize_t,
               parent_index=cython.Py_ssize_t,
               out=list, edge=dict, chances=dict)
def _drawing(G: nx.DiGraph, layout: dict[int, tuple[float, float]] | None,
             closed: set[int], thumbnails: Any, selected: int | None, show_values: bool,
             show_moves: bool, root: int | None) -> str:
    """``draw_svg``'s work."""
    root = root_of(G) if root is None else root
    if layout is None and not closed and G.number_of_nodes() > MAX_DRAWN_NODES:
        raise LimitError(_too_many(G.number_of_nodes()))   # refused before any work
    laid = layout if layout is not None else layered_layout(G, root=root, collapsed=closed)
    pos = laid if type(laid) is dict else dict(laid)
    if len(pos) > MAX_DRAWN_NODES:
        raise LimitError(_too_many(len(pos)))
    chosen = _thumbnail_nodes(G, thumbnails, pos)
    # The principal variation has one node per layer: its boards fit in a column
    # beside the tree. Other choices sit under their nodes, and slots make room.
    column = chosen if thumbnails == "pv" and _one_per_layer(chosen, pos) else []
    beside = set() if column else set(chosen)
    # each board's position, and its tower key's height (the tallest makes the room)
    positions = {node: position_at(G, node) for node in chosen}
    key_rows = max((len(_key_rows(p)) for p in positions.values()), default=0)
    key_h = key_rows * KEY_ROW + 2 if key_rows else 0.0
    data_of, children = graph_dicts(G)

    # the visible nodes whose edges are drawn: open, with children (most nodes are leaves)
    parents = ([node for node in pos if node not in closed and children[node]] if closed
               else [node for node in pos if children[node]])
    labels_text: dict[int, str] = {}
    pv_kids: set[Any] = set()   # the nodes the principal variation's edges lead to
    # a die's few probabilities, each written once (a fraction found is slow)
    chances: dict[tuple[type, Any], str] = {}
    # Nothing folded and every node laid out (``children`` was asked of each, so the
    # layout's nodes are the graph's): every child is drawn, none need be looked for.
    all_drawn = not closed and len(pos) == len(data_of)
    for node in parents:
        for child, found in children[node].items():
            if all_drawn or child in pos:
                edge = found if type(found) is dict else dict(found)
                if show_moves:
                    labels_text[child] = _edge_text(edge, chances)
                if edge.get("pv"):
                    pv_kids.add(child)
    widest = max(map(len, labels_text.values()), default=0) * LABEL_CHAR
    every = "".join(labels_text.values())   # (to escape, if any: looked for in one go)
    escape_labels = "&" in every or "<" in every or ">" in every
    slot = max(SLOT, widest + LABEL_GAP, THUMB + LABEL_GAP if beside else 0)
    # Under a node with its board under it: its value, the cut mark, the board; its
    # edges leave below them all.
    text_below = (12 * show_values + 12 * any(map(_is_cut, map(data_of.__getitem__, pos)))
                  if beside else 0)
    board_below = THUMB + 6 + key_h if beside else 0
    layer_height = max(LAYER + board_below, THUMB + 16 + key_h if column else 0)
    top = MARGIN + (THUMB / 2 if column else 0)
    left = MARGIN + (THUMB / 2 - MARGIN / 2 if beside else 0)

    def xy(node: int) -> tuple[float, float]:
        x, y = pos[node]
        return round(left + x * slot, 1), round(top + y * layer_height, 1)

    # The markup is written directly as text, one string per element, joined
    # once at the end: a 10,000-node tree has some 50,000 elements, and an
    # element object each (the board's ``Renderer``) cost more than growing
    # the tree. The spelling is the renderers' (``fmt`` numbers, escaped text).
    edge_parts: list[str] = []
    label_parts: list[str] = []
    node_parts: list[str] = []
    # Each number is written once: nodes share layers and slots.
    written: dict[float, str] = {}

    def num(value: float) -> str:
        text = written.get(value)
        if text is None:
            text = written[value] = fmt(value)
        return text

    def layer_row(layer: float) -> tuple[Any, ...]:
        """A layer's texts, shared by its nodes: y (the number, then as text), the y
        where the edges above its nodes end (also its squares' top), its labels' ends
        (plain and on the principal variation), its values' y, its diamonds' top and
        bottom corners, and the end of an edge's path."""
        y = round(top + layer * layer_height, 1)
        y2, label_y = num(y - RADIUS), num(y - RADIUS - 5)
        sy = num(y)
        return (y, sy, y2, f'" y="{label_y}" class="label">',
                f'" y="{label_y}" class="label pv">', num(y + RADIUS + 11),
                num(y - DIAMOND), num(y + DIAMOND), f" {y2}", f'" cy="{sy}')

    radius = fmt(RADIUS)
    side = fmt(2 * RADIUS)   # a terminal node's square
    # A plain node -- a circle or a die's diamond, no marks, not folded, no board
    # under it -- is most of a big tree: its group's opening and its circle's end (and
    # with the group's) are written once for each kind and side.
    plain: dict[tuple[str, str], tuple[str, str, str]] = {}
    # the nodes a plain node is not: folded, with a board, selected
    special = closed | beside if selected is None else closed | beside | {selected}
    # The nodes met whose parent is still to come (each node, its x text, its layer's
    # texts), the first parent whose edges wait for the end (the layout's order not a
    # post-order: no parent before its children), the nodes drawn faded, and how far
    # the slots and layers go.
    met: list[Any] = []
    n_parents = len(parents)
    late = n_parents
    next_parent: Any = parents[0] if parents else _NOTHING
    parent_index = 0
    rows: dict[float, tuple[Any, ...]] = {}
    pruned: set[Any] = set()
    max_x = -math.inf
    at_left, per_slot = left, slot
    # (siblings share their layer, the layout its number, and the graph kind and side)
    last_layer: Any = _NOTHING
    last_kind: Any = _NOTHING
    last_turn: Any = _NOTHING
    words = None
    row: tuple[Any, ...] = ()
    # A value's tooltip line, said once a drawing (not once a node): the words before
    # and after the value for each bound, so English stays "value 0.5 (exact)" byte for
    # byte and a Russian class reads its own words.
    said_value = _("value {value} ({bound})")
    value_tips = {bound: _value_tip(said_value, _(bound)) for bound in _BOUNDS}
    for node, (slot_x, layer_y) in pos.items():
        if slot_x > max_x:
            max_x = slot_x
        if layer_y is not last_layer:
            if layer_y not in rows:
                rows[layer_y] = layer_row(layer_y)
            row = rows[layer_y]
            last_layer = layer_y
        x = at_left + slot_x * per_slot
        # _x_text's work, without a call a node (5 % of the pure build's drawing)
        whole = 0
        if -1e15 < x < 1e15:
            if cython.compiled:
                whole = cython.cast(cython.longlong, x)
            else:
                whole = int(x)
        sx = f"{whole}" if whole == x else _x_text(x)
        if node is next_parent:   # (the parents are in the layout's order)
            if late == n_parents:
                # every edge from here starts alike: under the node (and its value and board)
                below = RADIUS + (text_below + board_below if beside and node in beside else 0)
                if not _fan(children[node], met, all_drawn, pos, sx, num(row[0] + below),
                            pv_kids, pruned, edge_parts):
                    late = parent_index
            parent_index += 1
            next_parent = parents[parent_index] if parent_index < n_parents else _NOTHING
        if late == n_parents:
            met += (node, sx, row)
        y, sy = row[0], row[1]
        if labels_text:
            label = labels_text.get(node)
            if label is not None:  # just above the node the move leads to
                if escape_labels and ("&" in label or "<" in label or ">" in label):
                    label = _escaped(label)
                tail = row[4] if pv_kids and node in pv_kids else row[3]
                label_parts.append(f'<text x="{sx}{tail}{label}</text>' if label else
                                   f'<text x="{sx}{tail[:-1]}/>')
        found = data_of[node]
        data = found if type(found) is dict else dict(found)
        kind = data.get("type", "decision")
        turn = data.get("turn", "")
        tip = data.get("position", "")
        value = ""
        if "value" in data:
            bound = data.get("bound", "exact")
            worth = value_text(data["value"])
            before_after = value_tips.get(bound) if type(bound) is str else None
            if before_after is None:   # (a bound from elsewhere: said as it is)
                before_after = _value_tip(said_value, str(bound))
            tip += before_after[0] + worth + before_after[1]
            if show_values:
                mark = {"lower": "≥", "upper": "≤"}.get(bound, "")
                value = _element("text", f' x="{sx}" y="{row[5]}" class="value" '
                                 'text-anchor="middle"', mark + worth)
        if "&" in tip or "<" in tip or ">" in tip:
            tip = _escaped(tip)
        if (type(node) is int and kind != "terminal"
                and not (data.get("pv") or data.get("cut") or data.get("pruned"))
                and not (special and node in special)):
            if kind is not last_kind or turn is not last_turn:
                words = plain.get((kind, turn))
                last_kind, last_turn = kind, turn
            if words is None:
                node_class = _node_class(kind, turn)
                fill = "#ffffff" if turn == "white" else "#222222"
                end = f'" r="{radius}" class="shape" fill="{fill}"/>'
                words = plain[kind, turn] = (
                    f'<g class="{_escaped(node_class, attribute=True)}" data-node="',
                    end, end + "</g>")
            if kind == "chance":   # (most nodes of a die game's tree)
                x = round(x, 1)
                node_parts.append(
                    f'{words[0]}{node}">{f"<title>{tip}</title>" if tip else "<title/>"}'
                    f'{_diamond(x, sx, sy, row[6], row[7])}{value}</g>')
            elif value:
                node_parts.append(f'{words[0]}{node}"><title>{tip}</title><circle cx="{sx}'
                                  f'{row[9]}{words[1]}{value}</g>' if tip else
                                  f'{words[0]}{node}"><title/><circle cx="{sx}{row[9]}'
                                  f'{words[1]}{value}</g>')
            elif tip:   # (most nodes of a tree without values)
                node_parts.append(f'{words[0]}{node}"><title>{tip}</title><circle cx="{sx}'
                                  f'{row[9]}{words[2]}')
            else:
                node_parts.append(f'{words[0]}{node}"><title/><circle cx="{sx}{row[9]}'
                                  f'{words[2]}')
            continue
        x = round(x, 1)   # (as its text)
        node_class = _node_class(kind, turn)
        for flag in ("pv", "cut", "pruned"):
            if data.get(flag):
                node_class += " " + flag
        if data.get("pruned"):
            pruned.add(node)
        if node == selected:
            node_class += " selected"
        if type(node) is int:  # a built tree's nodes: nothing in the id to escape
            node_parts.append(f'<g class="{_escaped(node_class, attribute=True)}" '
                              f'data-node="{node}">')
        else:
            node_parts.append(f"<g{_attrs(('class', node_class), ('data-node', node))}>")
        node_parts.append(f"<title>{tip}</title>" if tip else "<title/>")
        if kind == "chance":
            node_parts.append(_diamond(x, sx, sy, row[6], row[7]))
        elif kind == "terminal":
            fill = {"1-0": "#ffffff", "0-1": "#222222"}.get(data.get("outcome") or "", "#aaaaaa")
            node_parts.append(f'<rect x="{fmt(x - RADIUS)}" y="{row[2]}" '
                              f'width="{side}" height="{side}" '
                              f'class="shape" fill="{fill}"/>')
        else:
            fill = "#ffffff" if turn == "white" else "#222222"
            node_parts.append(f'<circle cx="{sx}" cy="{sy}" r="{radius}" class="shape" '
                              f'fill="{fill}"/>')
        below = y + RADIUS + 11
        if value:
            node_parts.append(value)
            below += 12
        if data.get("cut"):
            node_parts.append(_element(
                "text", f' x="{sx}" y="{num(below)}" class="badge" text-anchor="middle"', "…"))
            below += 12
        if node in closed and children[node]:
            hidden = len(nx.descendants(G, node))
            node_parts.append(_element(
                "text", f' x="{fmt(x + RADIUS + 3)}" y="{fmt(y + 4)}" class="badge"',
                f"+{hidden}"))
        if node in beside:  # under the node, like a diagram under a move in a book
            image_y = y + RADIUS + text_below + 2
            node_parts.append(_element("image", _attrs(
                ("x", x - THUMB / 2), ("y", image_y), ("width", THUMB),
                ("height", THUMB), ("href", _thumbnail(G, node, positions[node])),
                ("class", "thumbnail"))))
            node_parts.append(_tower_key(positions[node], node, x - THUMB / 2,
                                         image_y + THUMB + 2))
        node_parts.append("</g>")
    # The parents met before some child: their children's places read now, in order.
    for node in parents[late:]:
        kids = children[node]
        met = []
        for child in kids:
            if child in pos:
                slot_x, layer_y = pos[child]
                met += (child, _x_text(at_left + slot_x * per_slot), rows[layer_y])
        slot_x, layer_y = pos[node]
        row = rows[layer_y]
        below = RADIUS + (text_below + board_below if beside and node in beside else 0)
        _fan(kids, met, all_drawn, pos, _x_text(at_left + slot_x * per_slot),
             num(row[0] + below), pv_kids, pruned, edge_parts)
    max_y = max(rows)
    tree_width = 2 * MARGIN + max_x * slot + (THUMB / 2 if beside else 0)
    column_x = tree_width + (MARGIN if column else 0)
    width = column_x + (THUMB + MARGIN if column else 0)
    height = (top + MARGIN + max_y * layer_height + 24 + board_below
              + (THUMB / 2 + key_h if column else 0))
    out = [f'<svg xmlns="{SVG_NS}" xmlns:xlink="{XLINK_NS}"'
           + _attrs(("width", width), ("height", height),
                    ("viewBox", " ".join(fmt(v) for v in (0, 0, width, height))),
                    ("class", "tavrei-tree"), ("font-family", "sans-serif")) + ">",
           "<defs/>", _element("style", "", _STYLE)]
    # (the labels' centring said once, for them all: 21 bytes a label)
    for name, opening, parts in (("edges", '<g class="edges">', edge_parts),
                                 ("labels", '<g class="labels" text-anchor="middle">',
                                  label_parts), ("nodes", '<g class="nodes">', node_parts)):
        if parts:  # joined once, with the rest (a big tree's text is megabytes)
            out.append(opening)
            out += parts
            out.append("</g>")
        else:
            out.append(f'<g class="{name}"/>')
    if column:
        out.append('<g class="pv-boards">')
        for node in sorted(column, key=lambda n: pos[n][1]):
            y = xy(node)[1]
            caption = labels_text.get(node) or "now"
            out.append(f"<g{_attrs(('data-node', node), ('class', 'pv-board'))}>")
            out.append(_element("text", _attrs(("x", column_x), ("y", y - THUMB / 2 - 4),
                                               ("class", "caption")), caption))
            out.append(_element("image", _attrs(
                ("x", column_x), ("y", y - THUMB / 2 + 2), ("width", THUMB),
                ("height", THUMB - 4), ("href", _thumbnail(G, node, positions[node])),
                ("class", "thumbnail"))))
            out.append(_tower_key(positions[node], node, column_x, y + THUMB / 2))
            out.append("</g>")
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def fold_beside_pv(G: nx.DiGraph) -> set[int]:
    """The nodes to fold so that only the principal variation stays open.

    Every node off the best line is folded (its ``+N`` badge says how much is
    hidden), and so is the line's last node if it has children: a wide tree
    then fits a page with its root and best line in sight.
    """
    pv = {n for n, d in G.nodes(data=True) if d.get("pv")}
    folded = {n for n in G.nodes if G.out_degree(n)} - pv
    folded.update(n for n in pv if G.out_degree(n)
                  and not any(G.nodes[c].get("pv") for c in G.succ[n]))
    return folded


class TreePicture:
    """A tree drawing for a notebook, scaled to the output's width.

    Jupyter shows ``image/svg+xml`` as an image at its natural width, so a
    wide tree ran off the page; as inline HTML the drawing shrinks to the
    output's width (never beyond its natural size), keeping the root and the
    best line in sight. ``svg`` is the plain drawing (also the static export).
    """

    def __init__(self, svg: str) -> None:
        self.svg = svg
        match = re.search(r'<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"', svg)
        self.width, self.height = (float(match.group(1)), float(match.group(2))) if match \
            else (0.0, 0.0)

    def _repr_html_(self) -> str:
        scaled = self.svg.replace(
            "<svg ", f'<svg style="max-width:100%;height:auto;width:{self.width:g}px" ', 1)
        return f'<div class="tavrei-tree-picture" style="max-width:100%">{scaled}</div>'

    def _repr_svg_(self) -> str:
        return self.svg


def picture(G: nx.DiGraph, **options: Any) -> TreePicture:
    """``draw_svg(G, **options)`` ready to show in a notebook, fitted to the output width.

    >>> from tavrei_lab import Game
    >>> from tavrei_lab.tree import build
    >>> picture(build(Game(), 1))._repr_html_().startswith('<div class="tavrei-tree-picture"')
    True
    """
    return TreePicture(draw_svg(G, **options))


__all__ = ["MAX_THUMBNAILS", "TreePicture", "draw_svg", "fold_beside_pv", "picture",
           "probability_text"]
