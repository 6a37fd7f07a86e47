"""The interactive tree in Jupyter: fold and unfold it, see any node's position.

``TreeView(G)`` shows the drawing of a tree (``draw_svg``) next to a board.
A **click** on a node folds or unfolds its subtree (a click on a leaf shows
its position); a **double-click** puts the node's position on the board, with
the move that led there highlighted, and lists the moves from the root to it.
The buttons do the same for the selected node; a big tree starts folded below
``expand_depth`` layers so the first picture is readable.

The drawing **fits its box** when it is first drawn (the root and every node in
sight, at 1280 x 720 too), and then zooms and pans: the mouse wheel or a pinch
zooms about the pointer, a drag moves the tree, and the +, − and fit buttons
in its corner (``zoom_in``, ``zoom_out``, ``fit`` from Python) do it by steps.
When a click unfolds a node, the tree is redrawn around it: the node that was
clicked (Python names it in ``anchor``) stays where it was on the screen, under
the pointer, however the subtrees beside it moved. The node **under the
pointer**, or else the selected one, has its position on the board beside the
tree, big enough to read, with every tower of the position stood up layer by
layer under it (``render.towers.tower_shelf``): the 128 px thumbnails under
the nodes cannot show a tower's layers, and towers are what the tree is about.

The tree half is a small anywidget (``tree.js`` after the click code it
shares with the board, ``svg_clicks.js``; inline ESM, no build step, no CDN):
it draws the SVG it is sent and reports clicks on anything carrying
``data-node`` through its ``click`` trait, each report with a fresh ``seq``,
and the node under the pointer through ``hover``. A click waits a moment
before it is reported, so the two clicks of a double-click do not fold and
unfold the node first. Zooming and panning stay in the browser, as a drag's
ghost piece does in chessground: a wheel turn sent through the kernel would
wait 0.2-0.35 s for each step. The view reports where it ended (``camera``:
scale, the drawing point at the box's top-left, the box's size), Python sends
the steps (``command``) and the words (``labels``, from the message catalogue).
Everything else is Python, so tests drive the view by setting those traits,
and a static export (nbviewer, GitHub) still shows the tree through
``_repr_svg_``.
"""

from __future__ import annotations

import html
import math
from collections import deque
from typing import Any

import anywidget
import ipywidgets as widgets
import networkx as nx
import traitlets

from tavrei_lab.errors import ArgumentError, TavreiError
from tavrei_lab.i18n import get_language, speaking
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.moves import parse_move_spec
from tavrei_lab.render.board import board_svg
from tavrei_lab.render.towers import tower_shelf
from tavrei_lab.render.tree import draw_svg
from tavrei_lab.tree.nodes import history, moves_to, path_to, position_at, root_of
from tavrei_lab.tree.values import value_text
from tavrei_lab.widgets.esm import widget_module


class TreeCanvas(anywidget.AnyWidget):
    """The drawing half: shows ``svg``; a click sets ``click`` to {node, action, seq}.

    - ``anchor``: the node that keeps its place on the screen when ``svg`` changes
      (-1: none); Python sets it with the drawing.
    - ``hover``: {node, seq}, the node under the pointer (node None: none).
    - ``camera``: {scale, x, y, width, height, seq} as the view last left it:
      CSS pixels per drawing unit, the drawing point at the box's top-left, the
      box in CSS pixels.
    - ``command``: {action, seq}, a step for the view: "fit", "in", "out" or
      "readable".
    - ``labels``: the words the view shows (its buttons and their tooltips).
    """

    _esm = widget_module("tree")
    svg = traitlets.Unicode("").tag(sync=True)
    click = traitlets.Dict({}).tag(sync=True)
    anchor = traitlets.Int(-1).tag(sync=True)
    hover = traitlets.Dict({}).tag(sync=True)
    camera = traitlets.Dict({}).tag(sync=True)
    command = traitlets.Dict({}).tag(sync=True)
    labels = traitlets.Dict({}).tag(sync=True)


#: The steps ``TreeCanvas.command`` takes.
CAMERA_STEPS = ("fit", "in", "out", "readable")


def view_labels() -> dict[str, str]:
    """The words the drawing's half shows, in the language in force."""
    return {
        "zoom_in": _("Zoom in"),
        "zoom_out": _("Zoom out"),
        "fit": _("Fit"),
        "fit_title": _("Show the whole tree"),
        "readable": _("Readable"),
        "readable_title": _("Zoom until the moves can be read (12 px labels)"),
        "hint": _("Wheel or pinch to zoom, drag to move; click a node to fold or "
                  "unfold it, double-click to show its position"),
    }


def _layers_from(G: nx.DiGraph, root: int) -> dict[int, int]:
    layers = {root: 0}
    queue = deque([root])
    while queue:
        n = queue.popleft()
        for c in G.succ[n]:
            layers[c] = layers[n] + 1
            queue.append(c)
    return layers


def _check_tree(G: Any) -> None:
    """A game tree or one clear line: a networkx ``DiGraph`` whose nodes hold positions,
    as ``tavrei_lab.tree.build`` makes (a plain graph has no positions to show)."""
    if not isinstance(G, nx.DiGraph):
        raise ArgumentError(_("TreeView shows a game tree (a networkx DiGraph from "
                              "tavrei_lab.tree.build), not {value}").format(
                                  value=type(G).__name__))
    if not G.number_of_nodes():
        raise ArgumentError(_("TreeView needs a tree with at least its root; this graph "
                              "is empty"))
    missing = next((n for n, data in G.nodes(data=True) if "position" not in data), None)
    if missing is not None:
        raise ArgumentError(_("TreeView shows a game tree from tavrei_lab.tree.build: node "
                              "{node} has no position").format(node=repr(missing)[:40]))
    try:
        root_of(G)
    except ValueError:
        raise ArgumentError(_("TreeView needs a tree: every node of this graph has a "
                              "parent, so none is the root")) from None


class TreeView:
    """A tree beside a board. ``selected`` is the node on the board; ``collapsed`` the
    nodes whose subtrees are hidden.

    >>> from tavrei_lab import Game
    >>> from tavrei_lab.tree import build
    >>> view = TreeView(build(Game(), 2), expand_depth=1)
    >>> view.canvas.click = {"node": 3, "action": "select", "seq": 1}
    >>> view.selected, view.path_text() == view.G.edges[0, 3]["move"]
    (3, True)
    """

    def __init__(self, G: nx.DiGraph, *, expand_depth: int = 1, thumbnails: Any = False,
                 board_size: int = 340, language: str | None = None) -> None:
        #: "en" or "ru": the language in force when the view was made, unless given
        self.language = language or get_language()
        with speaking(self.language):
            _check_tree(G)
            self._build(G, expand_depth, thumbnails, board_size)

    def _build(self, G: nx.DiGraph, expand_depth: int, thumbnails: Any,
               board_size: int) -> None:
        self.G = G
        self.root = root_of(G)
        self.thumbnails = thumbnails
        self.board_size = board_size
        layers = _layers_from(G, self.root)
        self.collapsed: set[int] = {n for n, d in layers.items()
                                    if d == expand_depth and G.out_degree(n)}
        self.selected = self.root
        #: the node under the pointer, whose position the board shows (None: the selected)
        self.hovered: int | None = None
        self._steps = 0
        # The canvas may shrink below its drawing's width: it zooms instead, so a
        # wide tree never runs under the board beside it. Below 240 px it would show
        # nothing a class can read: then the board wraps under the tree instead.
        self.canvas = TreeCanvas(labels=view_labels(), layout=widgets.Layout(
            flex="1 1 0%", width="auto", min_width="240px", min_height="320px"))
        self.caption = widgets.HTML()
        self.caption.add_class("tavrei-tree-caption")
        self.board = widgets.HTML()
        self.board.add_class("tavrei-tree-board")
        self.shelf = widgets.HTML()
        self.shelf.add_class("tavrei-tree-shelf")
        self.info = widgets.HTML()
        self.info.add_class("tavrei-tree-info")
        buttons = []
        for label, action in ((_("expand"), self.expand), (_("collapse"), self.collapse),
                              (_("show the PV"), self.show_pv), (_("root"), self._select_root)):
            b = widgets.Button(description=label, layout=widgets.Layout(width="auto"))
            b.on_click(lambda _b, act=action: act())
            buttons.append(b)
        self.buttons = widgets.HBox(buttons)
        self.widget = widgets.HBox([
            self.canvas,
            widgets.VBox([self.caption, self.board, self.shelf, self.buttons, self.info],
                         layout=widgets.Layout(flex="0 0 auto",
                                               width=f"{board_size + 20}px")),
        ], layout=widgets.Layout(align_items="stretch", width="100%", flex_flow="row wrap"))
        self.canvas.observe(self._on_click, names="click")
        self.canvas.observe(self._on_hover, names="hover")
        self._redraw()
        self._show_selected()

    # -- reacting to the browser ------------------------------------------------------
    def _on_click(self, change: dict[str, Any]) -> None:
        report = change["new"] or {}
        node = report.get("node")
        if not isinstance(node, int) or node not in self.G:
            return
        with speaking(self.language):
            if report.get("action") == "toggle" and self.G.out_degree(node):
                self.toggle(node)
            else:  # a double-click, or a click on a leaf: nothing to fold, show it
                self.select(node)

    def _on_hover(self, change: dict[str, Any]) -> None:
        node = (change["new"] or {}).get("node")
        if node is not None and (type(node) is not int or node not in self.G):
            return                     # not a node of this tree: nothing changes
        if node == self.hovered:
            return
        self.hovered = node
        with speaking(self.language):
            self._show_selected(node)

    # -- the camera (the view moves it; these ask it to) ---------------------------
    @property
    def camera(self) -> dict[str, float]:
        """Where the view left the drawing: {scale, x, y, width, height} ({} before
        the browser has drawn it). ``scale`` is CSS pixels per drawing unit."""
        report = self.canvas.camera or {}
        out: dict[str, float] = {}
        for key in ("scale", "x", "y", "width", "height"):
            value = report.get(key)
            if isinstance(value, (int, float)) and math.isfinite(value):
                out[key] = float(value)
        return out if len(out) == 5 else {}

    def fit(self) -> None:
        """Zoom so that the whole tree is in its box (as when it is first drawn)."""
        self._step("fit")

    def zoom_in(self) -> None:
        """One step closer, about the middle of the part of the tree in sight."""
        self._step("in")

    def zoom_out(self) -> None:
        """One step further, about the middle of the part of the tree in sight."""
        self._step("out")

    def zoom_readable(self) -> None:
        """Closer until the moves' labels are 12 px, about the tree in sight."""
        self._step("readable")

    def _step(self, action: str) -> None:
        if action not in CAMERA_STEPS:
            raise TavreiError(_("the tree view has no camera step {action!r}: choose one of "
                                "{names}").format(action=action, names=', '.join(CAMERA_STEPS)))
        self._steps += 1
        self.canvas.command = {"action": action, "seq": self._steps}

    def _select_root(self) -> None:
        self.select(self.root)

    # -- what the view shows ------------------------------------------------------------
    def select(self, node: int) -> None:
        """Put ``node``'s position on the board (it must be shown: its ancestors open)."""
        if node not in self.G:
            raise TavreiError(_("the tree has no node {node!r}").format(node=node))
        for ancestor in path_to(self.G, node)[:-1]:
            self.collapsed.discard(ancestor)
        self.selected = node
        self._redraw(anchor=node)
        self._show_selected()

    def toggle(self, node: int) -> None:
        """Expand a collapsed node, collapse an open one."""
        if node in self.collapsed:
            self.expand(node)
        else:
            self.collapse(node)

    def expand(self, node: int | None = None) -> None:
        """Show the children of ``node`` (default: the selected node)."""
        node = self.selected if node is None else node
        self.collapsed.discard(node)
        self.collapsed.update(c for c in self.G.succ[node] if self.G.out_degree(c))
        self._redraw(anchor=node)

    def collapse(self, node: int | None = None) -> None:
        """Hide the subtree below ``node`` (default: the selected node)."""
        node = self.selected if node is None else node
        if self.G.out_degree(node):
            self.collapsed.add(node)
            if self.selected != node and node in path_to(self.G, self.selected):
                self.selected = node
                self._show_selected()
        self._redraw(anchor=node)

    def show_pv(self) -> None:
        """Open the principal variation and fold everything beside it."""
        pv = [n for n, d in self.G.nodes(data=True) if d.get("pv")]
        self.collapsed = {n for n in self.G.nodes if self.G.out_degree(n)} - set(pv)
        self.collapsed.update(n for n in pv if not any(
            self.G.nodes[c].get("pv") for c in self.G.succ[n]) and self.G.out_degree(n))
        self._redraw(anchor=self.selected)

    def path_text(self, node: int | None = None) -> str:
        """The moves from the root to ``node`` (default: the selected node)."""
        return " ".join(moves_to(self.G, self.selected if node is None else node))

    def _redraw(self, anchor: int | None = None) -> None:
        """Send the drawing; ``anchor`` (shown in it) keeps its place on the screen."""
        svg = draw_svg(self.G, collapsed=self.collapsed, selected=self.selected,
                       thumbnails=self.thumbnails, root=self.root)
        with self.canvas.hold_sync():   # one message: the view reads both together
            self.canvas.anchor = -1 if anchor is None else anchor
            self.canvas.svg = svg

    def _show_selected(self, node: int | None = None) -> None:
        """The board, towers and words of ``node``: the one under the pointer, if
        given (and still drawn), else the selected one."""
        hovered = node is not None
        node = self.selected if node is None else node
        data = self.G.nodes[node]
        position = position_at(self.G, node)
        lastmove = None
        path = path_to(self.G, node)
        if len(path) > 1:
            text = self.G.edges[path[-2], node].get("move")
            if text:
                spec = parse_move_spec(text)
                if spec.from_square:
                    lastmove = (spec.from_square, spec.to_square)
        self.board.value = board_svg(position, lastmove=lastmove, size=self.board_size,
                                     language=self.language, tower_key=False)  # the shelf: towers
        self.shelf.value = tower_shelf(position, language=self.language)
        before = " ".join(history(self.G))
        kinds = {"terminal": _("terminal"), "chance": _("chance"), "decision": _("decision")}
        kind = str(data.get("type", ""))
        white = data.get("turn") == "white"
        to_do = ((_("white to roll") if white else _("black to roll")) if kind == "chance"
                 else (_("white to move") if white else _("black to move")))
        lines = [_("<b>node {node}</b>: {kind}, {to_do}").format(
            node=node, kind=html.escape(kinds.get(kind, kind)), to_do=to_do)]
        if data.get("outcome"):
            termination = str(data.get("termination", ""))
            lines.append(_("game over: {termination} {result}").format(
                termination=html.escape(_(termination) if termination else ""),
                result=html.escape(data["outcome"])))
        if "value" in data:
            bound = str(data.get("bound", "exact"))
            bounds = {"exact": _("exact"), "lower": _("lower"), "upper": _("upper")}
            lines.append(_("value {value} for white ({bound})").format(
                value=value_text(data["value"]), bound=html.escape(bounds.get(bound, bound))))
        lines.append(_("moves: {moves}").format(
            moves=html.escape(self.path_text(node)) or _("(the root)")))
        if before:
            lines.append("<small>" + _("before the root: {moves}").format(
                moves=html.escape(before)) + "</small>")
        lines.append("<small><code style=\"word-break: break-all\">"
                     f"{html.escape(data['position'])}</code></small>")
        self.info.value = "<br>".join(lines)
        # the caption last: the browser applies changes in order, so a
        # caption naming a node never stands over another node's board
        self.caption.value = html.escape(
            (_("Under the pointer: node {node}") if hovered else
             _("Selected: node {node}")).format(node=node))

    # -- showing it -------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def _repr_svg_(self) -> str:
        return draw_svg(self.G, collapsed=self.collapsed, selected=self.selected,
                        root=self.root)


def show(G: nx.DiGraph, **kwargs: Any) -> TreeView:
    """``TreeView(G, **kwargs)``: the one call a notebook needs."""
    return TreeView(G, **kwargs)


__all__ = ["CAMERA_STEPS", "TreeCanvas", "TreeView", "show", "view_labels"]
