"""Game trees (networkx) that make tower tactics visible.

``build`` grows a tree from a game or a position; ``values.minimax`` puts
minimax / expectiminimax values and the principal variation on it;
``tactics`` finds the tower tactics a lesson wants to show; ``layout`` places
the nodes; ``export`` writes node-link JSON and GraphML. The pictures live
with the other pictures (``tavrei_lab.render.tree.draw_svg``), the clickable
view with the other widgets (``tavrei_lab.widgets.TreeView``).

>>> from tavrei_lab import Game
>>> from tavrei_lab import tree
>>> G = tree.build(Game(), 1, moves="captures", values=False)
>>> G.number_of_nodes()
1
"""

from tavrei_lab.tree.build import (
    DEFAULT_MAX_NODES,
    TreeCutWarning,
    build,
    history,
    moves_to,
    nodes_per_depth,
    path_to,
    position_at,
    principal_variation,
)
from tavrei_lab.tree.filters import FILTERS, MoveFilter, as_filter
from tavrei_lab.tree.values import expectiminimax, minimax

__all__ = [
    "DEFAULT_MAX_NODES", "FILTERS", "MoveFilter", "TreeCutWarning", "as_filter", "build",
    "expectiminimax", "history", "minimax", "moves_to", "nodes_per_depth", "path_to",
    "position_at", "principal_variation",
]
