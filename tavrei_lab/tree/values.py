"""Values on a tree: minimax with alpha-beta, expectiminimax at die rolls.

Every value is stored **from white's point of view** (positive: good for
white), so the numbers on a drawing can be compared across plies. The
evaluation is called as the engine calls it -- ``evaluate(position)`` scores
the position for the side to move (``tavrei_lab.engine.evaluate.evaluate``
by default: material counted by who holds whom, mobility, threats to the
volkhv) -- and turned round for black.

- A leaf (the depth limit, a ``cut`` node) gets the evaluation.
- A terminal node gets ``±(MATE - depth)`` for a win (quicker wins are
  better) and 0 for a draw, whatever the evaluation says.
- A decision node gets the best child value for its side to move (white
  maximises, black minimises). With ``alphabeta`` the children are searched
  in order with an (alpha, beta) window, captures first; a child that cannot
  change the result is never searched and is marked ``pruned=True``. A value
  found outside the window is only a bound: ``bound`` says ``"exact"``,
  ``"lower"`` (the true value is at least this) or ``"upper"``.
- A chance node gets the probability-weighted mean of its children
  (expectiminimax); its children are searched with a full window so the mean
  is exact.

The principal variation follows the best child from the root; at a chance
node it follows the most probable face (the first of equals). Its nodes and
edges get ``pv=True``; ``G.graph["principal_variation"]`` holds its move texts
(rolls as ``@F``) as movetext, space-separated (text, so GraphML takes the graph;
``tree.principal_variation(G)`` gives the list), and ``G.graph["value"]`` the root
value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import networkx as nx

from tavrei_lab.core.position import Position
from tavrei_lab.engine import reference
from tavrei_lab.engine.evaluate import MATE
from tavrei_lab.engine.evaluate import evaluate as engine_evaluate
from tavrei_lab.engine.reference import Chance, Decision, NodeValue
from tavrei_lab.tree.nodes import position_at, root_of

_CLEARED = ("value", "bound", "pruned", "pv")


def _leaf_value(G: nx.DiGraph, node: int, evaluate: Callable[[Position], float]) -> float:
    data = G.nodes[node]
    if data["type"] == "terminal":
        outcome = data["outcome"]
        if outcome == "1-0":
            return MATE - data["depth"]
        if outcome == "0-1":
            return -(MATE - data["depth"])
        return 0.0
    score = float(evaluate(position_at(G, node)))
    return (score if data["turn"] == "white" else -score) + 0.0  # never -0.0


def minimax(G: nx.DiGraph, *, evaluate: Callable[[Position], float] | None = None,
            alphabeta: bool = True, root: int | None = None) -> float:
    """Compute node values and the principal variation on ``G`` in place; return the root value.

    The computation is the engine's reference, ``engine.reference.expectiminimax``
    (the lesson search's ``engine.search.minimax`` is the same function over
    positions); this lays it out on an explicit tree so that every node carries
    its value for the pictures.

    ``evaluate(position) -> float`` scores a position for its side to move
    (default: the engine's documented evaluation). ``alphabeta=False`` gives
    every node its exact minimax value (slower: every leaf is evaluated).

    >>> from tavrei_lab import Game
    >>> from tavrei_lab.tree import build
    >>> G = build(Game(), 1, values=False)
    >>> minimax(G, evaluate=lambda p: 0.0)
    0.0
    >>> len(G.graph["principal_variation"].split())
    1
    """
    score = engine_evaluate if evaluate is None else evaluate
    if root is None:
        root = root_of(G)
    for _, data in G.nodes(data=True):
        for key in _CLEARED:
            data.pop(key, None)
    for _, _, data in G.edges(data=True):
        data.pop("pv", None)
    nodes, succ = G.nodes, G.succ

    def expand(node: int) -> float | Decision[int] | Chance[int]:
        data = nodes[node]
        kids = succ[node]
        if not kids:
            return _leaf_value(G, node, score)
        if data["type"] == "chance":
            return Chance([(child, edge["probability"]) for child, edge in kids.items()])
        children = list(kids)
        if alphabeta:  # captures first: they most often refute, so cut-offs come early
            children.sort(key=lambda c: "x" not in kids[c].get("move", ""))
        return Decision(maximizing=data["turn"] == "white", children=children)

    best_child: dict[int, int] = {}

    def record(node: int, found: NodeValue[int]) -> None:
        data = nodes[node]
        data["value"], data["bound"] = found.value, found.bound
        if found.best is not None:
            best_child[node] = found.best
        for skipped in found.pruned:
            nodes[skipped]["pruned"] = True

    value = reference.expectiminimax(root, expand, alphabeta=alphabeta, record=record)
    G.graph["value"] = value
    pv: list[str] = []
    node = root
    nodes[node]["pv"] = True
    while node in best_child:
        child = best_child[node]
        edge = G.edges[node, child]
        edge["pv"] = True
        nodes[child]["pv"] = True
        pv.append(edge["label"])
        node = child
    G.graph["principal_variation"] = " ".join(pv)   # text: GraphML takes no lists
    return value


#: The die game's search is the same function: chance nodes are averaged.
expectiminimax = minimax


def value_text(value: Any) -> str:
    """A value as a drawing shows it: ``+0.35``, ``-1.2``, ``+M3`` for a forced win."""
    if value is None:
        return ""
    v = float(value)
    if abs(v) >= MATE - 1000:
        plies = int(round(MATE - abs(v)))
        return ("+" if v > 0 else "-") + f"M{plies}"
    return f"{v:+.2f}"


__all__ = ["expectiminimax", "minimax", "value_text"]
