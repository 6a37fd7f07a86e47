"""The reference (expecti)minimax: what a game tree's value *is*, written once.

Two parts of the package need the exact value of a game tree, and both use this
one function:

- the lesson search's reference, ``engine.search.minimax``, which walks
  positions (the alpha-beta ``Searcher`` is tested against it);
- the tree part's values, ``tree.values.minimax``, which walks a built
  networkx graph and writes every node's value on it for the pictures.

Each describes its tree with one function, ``expand(node)``, that says what a
node is:

- a **leaf**: its value, a number (the end of the game, or the horizon);
- a **decision** (``Decision``): the side to move picks a child, so the node's
  value is the largest of its children's values if that side is the one whose
  point of view the values are written from, else the smallest;
- a **chance** node (``Chance``): the die picks a child, so the value is the
  children's values weighted by their probabilities (expectiminimax).

All values are written from one fixed point of view (the caller's choice:
white's for the tree pictures, the root's side to move for the engine), which
is why a decision says whether it *maximises*. That is minimax as textbooks
write it: one player maximises, the other minimises.

``alphabeta=True`` searches decision nodes with an (alpha, beta) window: once
a child shows that the opponent will not allow this node (``alpha >= beta``),
its remaining siblings cannot change the result and are skipped. A value found
outside the window is then only a bound (``"lower"``: the true value is at
least this; ``"upper"``: at most), but the root's value is exact. Chance nodes
always give their children a full window, so their means are exact.
Without ``alphabeta`` every node is searched and every value is exact.

>>> game = {"root": ["a", "b"], "a": [3.0, 5.0], "b": [2.0, 9.0]}
>>> def expand(node):
...     if isinstance(node, float):
...         return node
...     return Decision(maximizing=node == "root", children=game[node])
>>> expectiminimax("root", expand)   # max(min(3, 5), min(2, 9))
3.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from tavrei_lab.i18n import gettext as _

N = TypeVar("N")

#: How a value relates to the node's true value (``"exact"`` unless alpha-beta cut it short).
Bound = Literal["exact", "lower", "upper"]


@dataclass(frozen=True)
class Decision(Generic[N]):
    """A node where the side to move chooses among ``children`` (at least one)."""

    maximizing: bool
    children: Sequence[N]


@dataclass(frozen=True)
class Chance(Generic[N]):
    """A node where the die chooses: ``children`` as (child, probability) pairs."""

    children: Sequence[tuple[N, float]]


@dataclass(frozen=True)
class NodeValue(Generic[N]):
    """What the search found at one node, as ``record`` is told it.

    ``best`` is the child the value came from (at a chance node: the likeliest
    child, the first of equals; at a leaf: ``None``); ``pruned`` the children
    alpha-beta skipped.
    """

    value: float
    bound: Bound
    best: N | None = None
    pruned: Sequence[N] = ()


def expectiminimax(root: N, expand: Callable[[N], float | Decision[N] | Chance[N]], *,
                   alphabeta: bool = False,
                   record: Callable[[N, NodeValue[N]], None] | None = None) -> float:
    """The value of ``root``; ``record(node, found)`` is told every searched node's value.

    ``expand(node)`` returns a leaf's value, a ``Decision`` or a ``Chance``; it
    is called once for each node searched, children after their parent, in
    the order ``expand`` lists them.
    """

    def value(node: N, alpha: float, beta: float) -> float:
        found = expand(node)
        if isinstance(found, Decision):
            result = _decide(node, found, alpha, beta)
        elif isinstance(found, Chance):
            result = _average(found)
        else:
            result = NodeValue(float(found), "exact")
        if record is not None:
            record(node, result)
        return result.value

    def _average(chance: Chance[N]) -> NodeValue[N]:
        total = 0.0
        likeliest, likeliest_p = None, -1.0
        for child, p in chance.children:
            total += p * value(child, -math.inf, math.inf)
            if p > likeliest_p:
                likeliest, likeliest_p = child, p
        return NodeValue(total, "exact", likeliest)

    def _decide(node: N, decision: Decision[N], alpha: float, beta: float) -> NodeValue[N]:
        children = decision.children
        if not children:
            raise ValueError(_("decision node {node!r} has no children: make it a leaf")
                             .format(node=node))
        maximizing = decision.maximizing
        best, best_child = (-math.inf if maximizing else math.inf), None
        a, b = alpha, beta
        for i, child in enumerate(children):
            v = value(child, a, b)
            if (v > best) if maximizing else (v < best):
                best, best_child = v, child
            if not alphabeta:
                continue
            if maximizing:
                a = max(a, v)
            else:
                b = min(b, v)
            if a >= b:  # the opponent will not let the game come here: skip the rest
                return NodeValue(best, _bound(best, alpha, beta), best_child, children[i + 1:])
        return NodeValue(best, _bound(best, alpha, beta), best_child)

    return value(root, -math.inf, math.inf)


def _bound(value: float, alpha: float, beta: float) -> Bound:
    """A value on or outside the window it was searched with is only a bound."""
    if value >= beta:
        return "lower"
    if value <= alpha:
        return "upper"
    return "exact"


__all__ = ["Bound", "Chance", "Decision", "NodeValue", "expectiminimax"]
