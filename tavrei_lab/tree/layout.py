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
from typing import TYPE_CHECKING, Any

import networkx as nx

if TYPE_CHECKING:
    from tavrei_lab.core import cython_shim as cython
else:
    try:
        import cython
    except ImportError:   # no Cython (Pyodide, a plain install): the pure build's value
        from tavrei_lab.core import cython_shim as cython

from tavrei_lab.tree.nodes import collector_paused, graph_dicts, root_of


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
    succ = graph_dicts(G)[1]   # each node's children, in order
    pos: dict[int, tuple[float, float]] = {}
    with collector_paused():
        if root in closed or not succ[root]:
            pos[root] = (0.0, 0.0)
            return pos
        _place(succ, closed, root, pos)
    return pos


@cython.locals(succ=dict, closed=set, pos=dict, layers=list, path=list, stack=list,
               depth=cython.Py_ssize_t)
def _place(succ: dict[int, Any], closed: set[int], root: int,
           pos: dict[int, tuple[float, float]]) -> None:
    """``layered_layout``'s walk: post-order, a stack of the open nodes' child
    iterators (a leaf -- most nodes -- is placed where it is met, never stacked);
    each layer's y is one float, shared by its nodes."""
    layers = [0.0, 1.0]
    path = [root]
    stack = [iter(succ[root])]
    next_slot = 0.0
    depth = 1   # the layer of the children the top iterator gives
    while stack:
        for child in stack[-1]:
            kids = succ[child]
            if kids and child not in closed:
                depth += 1
                if depth == len(layers):
                    layers.append(float(depth))
                path.append(child)
                stack.append(iter(kids))
                break
            pos[child] = (next_slot, layers[depth])
            next_slot += 1.0
        else:   # every child placed: the parent is centred over its first and last
            stack.pop()
            node = path.pop()
            kids = succ[node]
            depth -= 1
            last = next(reversed(kids)) if type(kids) is dict else list(kids)[-1]   # (a view)
            pos[node] = ((pos[next(iter(kids))][0] + pos[last][0]) / 2, layers[depth])


__all__ = ["layered_layout", "visible_nodes"]
