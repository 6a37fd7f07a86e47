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
edges get ``pv=True``; ``G.graph["principal_variation"]`` lists its move texts
(rolls as ``@F``) and ``G.graph["value"]`` the root value.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import networkx as nx

from tavrei_lab.core.position import Position
from tavrei_lab.engine.evaluate import MATE
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

    The reference minimax is the engine's (``engine.search.minimax``, on
    positions); this is the same computation laid out on an explicit tree so
    that every node carries its value for the pictures, and the tests hold the
    two to the same number.

    ``evaluate(position) -> float`` scores a position for its side to move
    (default: the engine's documented evaluation). ``alphabeta=False`` gives
    every node its exact minimax value (slower: every leaf is evaluated).

    >>> from tavrei_lab import Game
    >>> from tavrei_lab.tree import build
    >>> G = build(Game(), 1, values=False)
    >>> minimax(G, evaluate=lambda p: 0.0)
    0.0
    >>> len(G.graph["principal_variation"])
    1
    """
    if evaluate is None:
        from tavrei_lab.engine.evaluate import evaluate as engine_evaluate
        evaluate = engine_evaluate
    if root is None:
        root = root_of(G)
    for _, data in G.nodes(data=True):
        for key in _CLEARED:
            data.pop(key, None)
    for _, _, data in G.edges(data=True):
        data.pop("pv", None)
    best_child: dict[int, int] = {}
    nodes, succ = G.nodes, G.succ

    def order(node: int) -> list[int]:
        kids = list(succ[node])
        if alphabeta:  # captures first: they most often refute, so cut-offs come early
            kids.sort(key=lambda c: "x" not in succ[node][c].get("move", ""))
        return kids

    def search(node: int, alpha: float, beta: float) -> float:
        data = nodes[node]
        kids = succ[node]
        if not kids:
            value = _leaf_value(G, node, evaluate)
            data["value"], data["bound"] = value, "exact"
            return value
        if data["type"] == "chance":
            total = 0.0
            likeliest, best_p = None, -1.0
            for child, edge in kids.items():
                p = edge["probability"]
                total += p * search(child, -math.inf, math.inf)
                if p > best_p:
                    likeliest, best_p = child, p
            assert likeliest is not None
            best_child[node] = likeliest
            data["value"], data["bound"] = total, "exact"
            return total
        maximizing = data["turn"] == "white"
        a, b = alpha, beta
        best = -math.inf if maximizing else math.inf
        children = order(node)
        for i, child in enumerate(children):
            v = search(child, a, b)
            if (v > best) if maximizing else (v < best):
                best = v
                best_child[node] = child
            if maximizing:
                a = max(a, v)
            else:
                b = min(b, v)
            if alphabeta and a >= b:
                for skipped in children[i + 1:]:
                    nodes[skipped]["pruned"] = True
                break
        if best >= beta:
            bound = "lower"
        elif best <= alpha:
            bound = "upper"
        else:
            bound = "exact"
        data["value"], data["bound"] = best, bound
        return best

    value = search(root, -math.inf, math.inf)
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
    G.graph["principal_variation"] = pv
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
