"""Writing a tree out: node-link JSON (for D3 and friends) and GraphML (for Gephi, yEd).

A tree from ``build`` holds plain numbers and text only (the variant as data, no
None, its sequences as space-separated text), so networkx's own writers take it as
it is -- ``json.dumps(nx.node_link_data(G))``, ``nx.write_graphml``,
``nx.write_gexf`` -- and these are thin. ``portable`` makes any hand-edited tree
writable too (a None becomes ``""``, a list its items space-separated -- or, with
``lists_as_text``, as JSON text -- anything else its text); ``read_graphml`` reads
integer nodes, and takes the JSON-text lists older exports wrote.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import networkx as nx

from tavrei_lab.core.files import write_atomically

#: Graph attributes that are sequences (space-separated text; JSON text in older GraphML).
_LIST_KEYS = ("principal_variation", "nodes_per_depth", "history")
#: Graph attributes that never leave Python (a tree from before the graph held only data).
_PRIVATE = ("rules",)


def _safe(value: Any, *, lists_as_text: bool) -> Any:
    if value is None:
        return ""
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        items = [_safe(v, lists_as_text=False) for v in value]
        if lists_as_text:
            return json.dumps(items, ensure_ascii=False)
        return " ".join(str(v) for v in items)
    return str(value)


def portable(G: nx.DiGraph, *, lists_as_text: bool = False) -> nx.DiGraph:
    """A copy of ``G`` whose attributes any writer accepts (see the module docstring)."""
    H = nx.DiGraph()
    H.graph.update({k: _safe(v, lists_as_text=lists_as_text)
                    for k, v in G.graph.items() if k not in _PRIVATE})
    for node, data in G.nodes(data=True):
        H.add_node(node, **{k: _safe(v, lists_as_text=lists_as_text) for k, v in data.items()})
    for a, b, data in G.edges(data=True):
        H.add_edge(a, b, **{k: _safe(v, lists_as_text=lists_as_text) for k, v in data.items()})
    return H


def to_node_link(G: nx.DiGraph) -> dict[str, Any]:
    """The tree as a node-link dict (``nodes``, ``edges``, ``graph``), ready for ``json.dumps``.

    >>> from tavrei_lab import Game
    >>> from tavrei_lab.tree import build
    >>> data = to_node_link(build(Game(), 1, values=False))
    >>> len(data["nodes"]), len(data["edges"]), data["graph"]["nodes_per_depth"]
    (40, 39, '1 39')
    """
    return nx.node_link_data(portable(G), edges="edges")


def from_node_link(data: dict[str, Any]) -> nx.DiGraph:
    """A tree back from ``to_node_link`` (``position_at`` works again through ``variant``)."""
    return nx.node_link_graph(data, directed=True, edges="edges")


def write_json(G: nx.DiGraph, path: str | Path) -> None:
    """Write node-link JSON (UTF-8) to ``path``."""
    write_atomically(path, json.dumps(to_node_link(G), ensure_ascii=False))


def write_graphml(G: nx.DiGraph, path: str | Path) -> None:
    """Write GraphML to ``path`` (a tree from ``build`` needs nothing: this also takes a
    hand-edited one, and writes the file atomically)."""
    import io
    buffer = io.BytesIO()
    nx.write_graphml(portable(G), buffer)
    write_atomically(path, buffer.getvalue())


def read_graphml(path: str | Path) -> nx.DiGraph:
    """Read a tree written by ``write_graphml``: integer nodes, lists restored."""
    H = nx.read_graphml(str(path), node_type=int)
    for key in _LIST_KEYS:
        value = H.graph.get(key)
        if isinstance(value, str) and value.startswith("["):     # an older export
            H.graph[key] = " ".join(str(v) for v in json.loads(value))
    return nx.DiGraph(H)


__all__ = ["from_node_link", "portable", "read_graphml", "to_node_link", "write_graphml",
           "write_json"]
