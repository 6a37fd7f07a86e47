"""Finding one's way in a built tree: the root, the path to a node, its position.

``build`` grows trees; everything that reads them (values, layout, drawings,
the interactive view) walks them with these helpers, so they sit below both.
"""

from __future__ import annotations

import gc
import json
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import networkx as nx

from tavrei_lab.core.position import Position
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.position_string import read_position
from tavrei_lab.variant import load_variant, variant_data, variant_from_data

#: The rule module each tree's positions are read with, kept beside the graph (not in
#: it: ``G.graph`` holds only plain data, so networkx's own writers take the tree).
_RULES: weakref.WeakKeyDictionary[nx.DiGraph, Any] = weakref.WeakKeyDictionary()


def describe_rules(G: nx.DiGraph, rules: Any) -> None:
    """Note in ``G.graph`` the variant ``rules`` play (``variant``, and ``variant_data``:
    the whole definition as JSON text, so a tree read back from a file replays under
    exactly those rules), and keep ``rules`` at hand for ``rules_of``."""
    G.graph["variant"] = rules.variant.id
    try:
        G.graph["variant_data"] = json.dumps(variant_data(rules), ensure_ascii=False,
                                             separators=(",", ":"))
    except (AttributeError, TypeError, ValueError):   # a hand-made rule module: the id only
        G.graph.pop("variant_data", None)
    _RULES[G] = rules


def rules_of(G: nx.DiGraph) -> Any:
    """The rule module of the tree's positions: the one it was built with, else rebuilt
    from ``G.graph``'s plain data (``variant_data``, or the ``variant`` id) once and kept."""
    rules = _RULES.get(G)
    if rules is None:
        data = G.graph.get("variant_data")
        rules = (variant_from_data(json.loads(data), "tree") if isinstance(data, str) and data
                 else load_variant(G.graph.get("variant", "tavreli")))
        _RULES[G] = rules
    return rules


def position_at(G: nx.DiGraph, node: int) -> Position:
    """The position at ``node``, read back from its position string."""
    return read_position(G.nodes[node]["position"], rules_of(G), validate=False)


def path_to(G: nx.DiGraph, node: int) -> list[int]:
    """The nodes from the root down to ``node`` (a tree has exactly one such path)."""
    path = [node]
    while True:
        preds = list(G.predecessors(path[-1]))
        if not preds:
            break
        path.append(preds[0])
    path.reverse()
    return path


def moves_to(G: nx.DiGraph, node: int) -> list[str]:
    """The move texts (and ``@F`` rolls) that lead from the root to ``node``."""
    path = path_to(G, node)
    return [G.edges[a, b]["label"] for a, b in zip(path, path[1:])]


def _words(value: Any) -> list[str]:
    """A sequence the graph keeps as space-separated text (a list, from a graph made
    before the graph held only text, or read from an old export, is taken too)."""
    if isinstance(value, str):
        return value.split()
    return [str(v) for v in value or ()]


def nodes_per_depth(G: nx.DiGraph) -> list[int]:
    """How many non-chance nodes the tree has at each ply, depth 0 first.

    ``G.graph["nodes_per_depth"]`` holds them as text ("1 39 1519"): GraphML and GEXF
    take no lists (see ``tree.build``).
    """
    return [int(n) for n in _words(G.graph["nodes_per_depth"])]


def principal_variation(G: nx.DiGraph) -> list[str]:
    """The principal variation's move texts (rolls as ``@F``); [] before values."""
    return _words(G.graph.get("principal_variation", ""))


def history(G: nx.DiGraph) -> list[str]:
    """The move texts played before the tree's root (from the game it was grown from)."""
    return _words(G.graph.get("history", ""))


def root_of(G: nx.DiGraph) -> int:
    """The root node (0 for trees from ``build``; the node without a parent otherwise)."""
    if 0 in G and G.in_degree(0) == 0:
        return 0
    for n in G.nodes:
        if G.in_degree(n) == 0:
            return n
    raise ValueError(_("the graph has no root: every node has a parent"))


def graph_dicts(G: nx.DiGraph) -> tuple[dict[Any, dict[str, Any]], dict[Any, Any]]:
    """Each node's data, and its children (each with the edge's data): the graph's own
    dicts, for reading only, or a copy from a view's mappings. A layout or a drawing
    reads them once a node; through networkx's views each look-up cost more than the
    work it served, and copying them cost a drawing 3 % and a layout 14 %."""
    nodes, adjacency = G._node, G._adj
    if type(nodes) is dict and type(adjacency) is dict:
        return nodes, adjacency
    return dict(G.nodes(data=True)), dict(G.adjacency())


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a big tree is grown, laid out or drawn.

    A tree of tens of thousands of nodes is a hundred thousand dicts and tuples;
    making more of them every few hundred allocations has the collector scan them
    all again, for nothing -- trees, layouts and drawings make no reference cycles.
    (An already paused collector stays paused.)
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


__all__ = ["collector_paused", "graph_dicts", "history", "moves_to", "nodes_per_depth", "path_to",
           "position_at", "principal_variation", "root_of"]
