"""A layered tree layout in pure Python (no graphviz, no numpy).

Students' machines often lack graphviz, and networkx's own layered layouts
need numpy; a game tree needs neither. The layout is the classic tidy one:
each node sits on the layer of its distance from the root (a die roll is a
layer of its own, so chance nodes get room for their faces), the visible
leaves are spaced one slot apart in the order the tree lists them, and every
parent is centred over its first and last child. Subtrees never overlap and a
reader's eye follows the move order from left to right.

Coordinates are in *slots* (x) and *layers* (y); ``draw`` scales them.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from tavrei_lab.tree.nodes import collector_paused, root_of


def visible_nodes(G: nx.DiGraph, *, root: int | None = None,
                  collapsed: Iterable[int] = ()) -> list[int]:
    """The nodes a drawing shows: everything not below a collapsed node, in DFS order."""
    root = root_of(G) if root is None else root
    closed = set(collapsed)
    out = []
    stack = [root]
    while stack:
        node = stack.pop()
        out.append(node)
        if node not in closed:
            stack.extend(reversed(list(G.succ[node])))
    return out


def layered_layout(G: nx.DiGraph, *, root: int | None = None,
                   collapsed: Iterable[int] = ()) -> dict[int, tuple[float, float]]:
    """``{node: (x, y)}`` for the visible nodes: x in leaf slots, y the layer (root 0).

    >>> G = nx.DiGraph([(0, 1), (0, 2), (2, 3), (2, 4)])
    >>> layered_layout(G)
    {1: (0.0, 1.0), 3: (1.0, 2.0), 4: (2.0, 2.0), 2: (1.5, 1.0), 0: (0.75, 0.0)}
    >>> layered_layout(G, collapsed=[2])
    {1: (0.0, 1.0), 2: (1.0, 1.0), 0: (0.5, 0.0)}
    """
    root = root_of(G) if root is None else root
    closed = set(collapsed)
    succ = dict(G.adjacency())  # the graph's own dicts: each node's children, in order
    pos: dict[int, tuple[float, float]] = {}
    next_slot = 0.0
    # Iterative post-order: (node, layer, children placed?) -- no recursion limit.
    stack: list[tuple[int, float, bool]] = [(root, 0.0, False)]
    with collector_paused():
        while stack:
            node, layer, placed = stack.pop()
            kids = () if node in closed else tuple(succ[node])
            if placed:
                pos[node] = ((pos[kids[0]][0] + pos[kids[-1]][0]) / 2, layer)
            elif not kids:
                pos[node] = (next_slot, layer)
                next_slot += 1.0
            else:
                stack.append((node, layer, True))
                for child in reversed(kids):
                    stack.append((child, layer + 1.0, False))
    return pos


__all__ = ["layered_layout", "visible_nodes"]
