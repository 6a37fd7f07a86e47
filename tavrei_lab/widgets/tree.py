"""The interactive tree in Jupyter: fold and unfold it, see any node's position.

``TreeView(G)`` shows the drawing of a tree (``draw_svg``) next to a board.
A **click** on a node folds or unfolds its subtree (a click on a leaf shows
its position); a **double-click** puts the node's position on the board, with
the move that led there highlighted, and lists the moves from the root to it.
The buttons do the same for the selected node; a big tree starts folded below
``expand_depth`` layers so the first picture is readable.

The tree half is a small anywidget (``tree.js`` after the click code it
shares with the board, ``svg_clicks.js``; inline ESM, no build step, no CDN):
it draws the SVG it is sent and reports clicks on anything carrying
``data-node`` through its ``click`` trait, each report with a fresh ``seq``.
A click waits a moment before it is reported, so the two clicks of a
double-click do not fold and unfold the node first. Everything else is
Python, so tests drive the view by setting that trait, and a static export
(nbviewer, GitHub) still shows the tree through ``_repr_svg_``.
"""

from __future__ import annotations

import html
from collections import deque
from typing import Any

import anywidget
import ipywidgets as widgets
import networkx as nx
import traitlets

from tavrei_lab.errors import TavreiError
from tavrei_lab.notation.moves import parse_move_spec
from tavrei_lab.render.board import board_svg
from tavrei_lab.render.tree import draw_svg
from tavrei_lab.tree.nodes import moves_to, path_to, position_at, root_of
from tavrei_lab.tree.values import value_text
from tavrei_lab.widgets.esm import widget_module


class TreeCanvas(anywidget.AnyWidget):
    """The drawing half: shows ``svg``; a click sets ``click`` to {node, action, seq}."""

    _esm = widget_module("tree")
    svg = traitlets.Unicode("").tag(sync=True)
    click = traitlets.Dict({}).tag(sync=True)


def _layers_from(G: nx.DiGraph, root: int) -> dict[int, int]:
    layers = {root: 0}
    queue = deque([root])
    while queue:
        n = queue.popleft()
        for c in G.succ[n]:
            layers[c] = layers[n] + 1
            queue.append(c)
    return layers


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
                 board_size: int = 300) -> None:
        self.G = G
        self.root = root_of(G)
        self.thumbnails = thumbnails
        self.board_size = board_size
        layers = _layers_from(G, self.root)
        self.collapsed: set[int] = {n for n, d in layers.items()
                                    if d == expand_depth and G.out_degree(n)}
        self.selected = self.root
        # The canvas may shrink below its drawing's width and scrolls instead, so a
        # wide tree never runs under the board beside it.
        self.canvas = TreeCanvas(layout=widgets.Layout(width="100%", min_width="0"))
        self.board = widgets.HTML()
        self.board.add_class("tavrei-tree-board")
        self.info = widgets.HTML()
        self.info.add_class("tavrei-tree-info")
        buttons = []
        for label, action in (("expand", self.expand), ("collapse", self.collapse),
                              ("show the PV", self.show_pv), ("root", self._select_root)):
            b = widgets.Button(description=label, layout=widgets.Layout(width="auto"))
            b.on_click(lambda _b, act=action: act())
            buttons.append(b)
        self.buttons = widgets.HBox(buttons)
        self.widget = widgets.HBox([
            widgets.Box([self.canvas], layout=widgets.Layout(flex="1 1 0%", min_width="0",
                                                             overflow="auto")),
            widgets.VBox([self.board, self.info, self.buttons],
                         layout=widgets.Layout(flex="0 0 auto",
                                               width=f"{board_size + 40}px")),
        ])
        self.canvas.observe(self._on_click, names="click")
        self._redraw()
        self._show_selected()

    # -- reacting to the browser ------------------------------------------------------
    def _on_click(self, change: dict[str, Any]) -> None:
        report = change["new"] or {}
        node = report.get("node")
        if not isinstance(node, int) or node not in self.G:
            return
        if report.get("action") == "toggle" and self.G.out_degree(node):
            self.toggle(node)
        else:  # a double-click, or a click on a leaf: nothing to fold, show it
            self.select(node)

    def _select_root(self) -> None:
        self.select(self.root)

    # -- what the view shows ------------------------------------------------------------
    def select(self, node: int) -> None:
        """Put ``node``'s position on the board (it must be shown: its ancestors open)."""
        if node not in self.G:
            raise TavreiError(f"the tree has no node {node!r}")
        for ancestor in path_to(self.G, node)[:-1]:
            self.collapsed.discard(ancestor)
        self.selected = node
        self._redraw()
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
        self._redraw()

    def collapse(self, node: int | None = None) -> None:
        """Hide the subtree below ``node`` (default: the selected node)."""
        node = self.selected if node is None else node
        if self.G.out_degree(node):
            self.collapsed.add(node)
            if self.selected != node and node in path_to(self.G, self.selected):
                self.selected = node
                self._show_selected()
        self._redraw()

    def show_pv(self) -> None:
        """Open the principal variation and fold everything beside it."""
        pv = [n for n, d in self.G.nodes(data=True) if d.get("pv")]
        self.collapsed = {n for n in self.G.nodes if self.G.out_degree(n)} - set(pv)
        self.collapsed.update(n for n in pv if not any(
            self.G.nodes[c].get("pv") for c in self.G.succ[n]) and self.G.out_degree(n))
        self._redraw()

    def path_text(self, node: int | None = None) -> str:
        """The moves from the root to ``node`` (default: the selected node)."""
        return " ".join(moves_to(self.G, self.selected if node is None else node))

    def _redraw(self) -> None:
        self.canvas.svg = draw_svg(self.G, collapsed=self.collapsed, selected=self.selected,
                                   thumbnails=self.thumbnails, root=self.root)

    def _show_selected(self) -> None:
        node = self.selected
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
        self.board.value = board_svg(position, lastmove=lastmove, size=self.board_size)
        before = " ".join(self.G.graph.get("history") or [])
        lines = [f"<b>node {node}</b>: {html.escape(data.get('type', ''))}, "
                 f"{html.escape(data.get('turn', ''))} to "
                 f"{'roll' if data.get('type') == 'chance' else 'move'}"]
        if data.get("outcome"):
            lines.append(f"game over: {html.escape(str(data.get('termination', '')))} "
                         f"{html.escape(data['outcome'])}")
        if "value" in data:
            lines.append(f"value {value_text(data['value'])} for white "
                         f"({html.escape(data.get('bound', 'exact'))})")
        lines.append("moves: " + (html.escape(self.path_text(node)) or "(the root)"))
        if before:
            lines.append(f"<small>before the root: {html.escape(before)}</small>")
        lines.append("<small><code style=\"word-break: break-all\">"
                     f"{html.escape(data['position'])}</code></small>")
        self.info.value = "<br>".join(lines)

    # -- showing it -------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def _repr_svg_(self) -> str:
        return draw_svg(self.G, collapsed=self.collapsed, selected=self.selected,
                        root=self.root)


def show(G: nx.DiGraph, **kwargs: Any) -> TreeView:
    """``TreeView(G, **kwargs)``: the one call a notebook needs."""
    return TreeView(G, **kwargs)


__all__ = ["TreeCanvas", "TreeView", "show"]
