"""Tree benchmark: a ~10,000-node game tree built, laid out and drawn, beside plain perft.

Run: ``python -m benchmarks.bench_tree`` (or through the benchmark runner).

The tree is the full three-ply tree of a small Tavreli position with a tower
(a white ratnik held by a black vsadnik under a white luchnik, and a white
vsadnik): 10,629 nodes. Perft of the same position and depth walks the same
moves, so the ratio says what a readable tree costs over merely counting it:
a position string, a node type and an outcome for every node (the outcome
needs the legal moves of every leaf, which perft never generates), the
networkx graph, the layout and the SVG. Everything runs in one process, in
the same run, best of ``REPEATS``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tavrei_lab import Game
from tavrei_lab.engine.perft import perft
from tavrei_lab.render.tree import draw_svg
from tavrei_lab.tree import build
from tavrei_lab.tree.layout import layered_layout

POSITION = "4v3/8/8/1S6/3(P:K'sL)4/8/8/4V3 w - 0 1"
DEPTH = 3
REPEATS = 3


def _best(fn: Callable[[], Any], repeats: int = REPEATS) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    game = Game(position=POSITION)
    rules, position = game.rules, game.position
    t_perft, leaves = _best(lambda: perft(rules, position, DEPTH))
    t_build, G = _best(lambda: build(game, DEPTH, values=False))
    t_layout, pos = _best(lambda: layered_layout(G))
    t_draw, svg = _best(lambda: draw_svg(G, layout=pos))
    t_values, _ = _best(lambda: build(game, DEPTH, values=True), repeats=1)
    nodes = G.number_of_nodes()
    assert G.graph["nodes_per_depth"][-1] == leaves
    total = t_build + t_layout + t_draw
    print(f"position {POSITION}, depth {DEPTH}: {nodes} nodes, {leaves} leaves")
    print(f"{'plain perft':<34}{t_perft:9.3f} s   1.0x")
    print(f"{'tree: build (no values)':<34}{t_build:9.3f} s {t_build / t_perft:6.1f}x")
    print(f"{'tree: layered layout':<34}{t_layout:9.3f} s {t_layout / t_perft:6.1f}x")
    print(f"{'tree: SVG drawing':<34}{t_draw:9.3f} s {t_draw / t_perft:6.1f}x"
          f"   ({len(svg) / 1e6:.1f} MB)")
    print(f"{'tree: build + layout + draw':<34}{total:9.3f} s {total / t_perft:6.1f}x"
          f"   <- the figure")
    print(f"{'tree: build with alpha-beta values':<34}{t_values:9.3f} s "
          f"{t_values / t_perft:6.1f}x")
    print(f"per node: perft {t_perft / nodes * 1e6:.1f} us, tree {total / nodes * 1e6:.1f} us")


if __name__ == "__main__":
    main()
