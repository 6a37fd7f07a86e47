"""Tree benchmark: a ~10,000-node game tree built, laid out and drawn, beside plain perft.

Run: ``python -m benchmarks.bench_tree`` (or through the benchmark runner).

The tree is the full three-ply tree of a small Tavreli position with a tower
(a white ratnik held by a black vsadnik under a white luchnik, and a white
vsadnik): 10,629 nodes. Perft of the same position and depth walks the same
moves, so the ratio says what a readable tree costs over merely counting it:
a position string, a node type and an outcome for every node (the outcome
asks whether a leaf has a legal move, which perft never does), the networkx
graph, the layout and the SVG -- everything a user who builds and draws the
tree waits for. Everything runs in one process, in the same run, best of
``REPEATS``, in CPU time (``time.process_time``), so that other programs on a
loaded machine do not move the ratios. The last lines say where the build's
time goes beyond perft's. (At every leaf of this tree black has only its
volkhv: the legal-move test there is the volkhv's steps.)

The "floor" lines say how much of that no tree can skip. Perft already plays
every leaf (``RuleModuleBase.perft`` applies each move of the last ply), but it
keeps no position and asks no leaf whether the game is over; a tree must keep
every node, test every node's outcome (a leaf is drawn as a square when the game
is over there) and write every node's position string. The floor walks do just
that, breadth first, in plain Python over the compiled rules (so a little above
the true cost): what they cost over perft is what the 3x target's ratio can never
lose, whatever the build, layout and drawing do.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import tavrei_lab
from tavrei_lab import Game
from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position
from tavrei_lab.core.text import rank_cache, rank_texts, rank_writer
from tavrei_lab.core.text import write_position as write_with_board
from tavrei_lab.engine.perft import perft
from tavrei_lab.engine.zobrist import changed_squares
from tavrei_lab.notation.moves import write_move
from tavrei_lab.notation.position_string import write_position
from tavrei_lab.render.tree import draw_svg
from tavrei_lab.tree import build, nodes_per_depth
from tavrei_lab.tree.layout import layered_layout
from tavrei_lab.tree.nodes import collector_paused

POSITION = "4v3/8/8/1S6/3(P:K'sL)4/8/8/4V3 w - 0 1"
DEPTH = 3
REPEATS = 3
#: Building, laying out and drawing a tree costs at most this many perfts on the pure
#: build (GOAL), and at most TARGET on whichever build runs.
GOAL = 5.0
TARGET = 3.0
#: A tree node holds at most this many bytes (a bare position: about 726 B).
NODE_BYTES_GOAL = 1024


def node_bytes(game: Game, depth: int) -> tuple[int, float]:
    """(nodes, bytes a node) of the tree ``build`` grows: what ``tracemalloc`` counts
    freed when the graph is dropped (caches shared by all trees are not the tree's)."""
    import gc
    import tracemalloc

    build(game, 1, values=False, progress=False)      # the shared caches warm
    gc.collect()
    tracemalloc.start()
    try:
        G = build(game, depth, values=False, progress=False)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
        nodes = G.number_of_nodes()
        del G
        gc.collect()
        held -= tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return nodes, held / nodes


def _timed(fn: Callable[..., Any], *args: Any, **options: Any) -> tuple[float, Any]:
    """(CPU seconds, result) of one call."""
    start = time.process_time()
    result = fn(*args, **options)
    return time.process_time() - start, result


def main() -> None:
    game = Game(position=POSITION)
    rules, position = game.rules, game.position
    # Rounds interleave the contenders, so a slow spell of the machine hits them alike;
    # each keeps its best round.
    best = {"perft": math.inf, "build": math.inf, "layout": math.inf, "draw": math.inf}
    for _ in range(REPEATS):
        seconds, leaves = _timed(perft, rules, position, DEPTH)
        best["perft"] = min(best["perft"], seconds)
        seconds, G = _timed(build, game, DEPTH, values=False)
        best["build"] = min(best["build"], seconds)
        seconds, pos = _timed(layered_layout, G)
        best["layout"] = min(best["layout"], seconds)
        seconds, svg = _timed(draw_svg, G, layout=pos)
        best["draw"] = min(best["draw"], seconds)
    t_perft, t_build, t_layout, t_draw = (best[k] for k in ("perft", "build", "layout", "draw"))
    t_values, _ = _timed(build, game, DEPTH, values=True)
    nodes = G.number_of_nodes()
    assert nodes_per_depth(G)[-1] == leaves
    total = t_build + t_layout + t_draw
    build_name = "compiled build" if tavrei_lab.compiled else "pure build"
    print(f"position {POSITION}, depth {DEPTH}: {nodes} nodes, {leaves} leaves "
          f"({tavrei_lab.builds.describe()})")
    print(f"{'plain perft':<34}{t_perft:9.3f} s   1.0x")
    print(f"{'tree: build (no values)':<34}{t_build:9.3f} s {t_build / t_perft:6.1f}x")
    print(f"{'tree: layered layout':<34}{t_layout:9.3f} s {t_layout / t_perft:6.1f}x")
    print(f"{'tree: SVG drawing':<34}{t_draw:9.3f} s {t_draw / t_perft:6.1f}x"
          f"   ({len(svg) / 1e6:.1f} MB)")
    target_verdict = "met" if total / t_perft <= TARGET else "NOT met"
    # The 5x goal was set and measured on the pure Python build; on the compiled build
    # perft gains more than the tree's networkx and text work, so the same ratio says
    # nothing about that goal there: the line names the build it judges.
    if tavrei_lab.compiled:
        pure_verdict = f"the {GOAL:g}x goal concerns the pure build (TAVREI_PURE=1)"
    else:
        pure_verdict = (f"goal, pure build: at most {GOAL:g}x: "
                      + ("met" if total / t_perft <= GOAL else "NOT met"))
    print(f"{'tree: build + layout + draw':<34}{total:9.3f} s {total / t_perft:6.1f}x"
          f"   <- the figure ({build_name}; target: at most {TARGET:g}x: {target_verdict}; "
          f"{pure_verdict})")
    print(f"{'tree: build with alpha-beta values':<34}{t_values:9.3f} s "
          f"{t_values / t_perft:6.1f}x")
    print(f"per node: perft {t_perft / nodes * 1e6:.1f} us, tree {total / nodes * 1e6:.1f} us")
    # Where the build's time goes beyond perft's, timed over the same positions as the
    # build meets them (played from the root, so with the volkhv squares apply() hands
    # on): every node's outcome (the legal-move test perft never makes at a leaf), its
    # position string, and the text of the move that leads to it.
    played = _played(rules, position, DEPTH)
    assert len(played) == nodes - 1
    parts = {
        "node outcomes": lambda: [rules.outcome(p) for _, _, p in played],
        "position strings": lambda: [write_position(p) for _, _, p in played],
        "move texts": lambda: [write_move(p, m) for p, m, _ in played],
    }
    for name, work in parts.items():
        seconds = min(_timed(work)[0] for _ in range(REPEATS))
        print(f"{'  of the build: ' + name:<34}{seconds:9.3f} s {seconds / t_perft:6.1f}x")
    # The floor: what any tree of these nodes costs before a dict, a layout or a drawing.
    floors = {
        "every move played, kept": {},
        "+ every node's outcome": {"outcomes": True},
        "+ its position string": {"outcomes": True, "strings": True},
    }
    best_floor = dict.fromkeys(floors, math.inf)
    for _ in range(REPEATS):   # interleaved, as above
        for name, options in floors.items():
            seconds, kept = _timed(_floor, rules, position, DEPTH, **options)
            assert kept == nodes
            best_floor[name] = min(best_floor[name], seconds)
    for name, seconds in best_floor.items():
        print(f"{'floor: ' + name:<34}{seconds:9.3f} s {seconds / t_perft:6.1f}x"
              f"   ({seconds / nodes * 1e6:.1f} us a node)")
    rest = TARGET * t_perft - best_floor["+ its position string"]
    print(f"{'floor: left for the rest at 3x':<34}{rest:9.3f} s "
          f"{rest / t_perft:6.1f}x   (node dicts, move texts, layout, drawing: "
          f"{rest / nodes * 1e6:.1f} us a node)")
    # memory: this tree, and the three-ply tree of the Tavreli start (longer strings)
    for label, start in (("this tree", game), ("Tavreli start, depth 3", Game())):
        n, per = node_bytes(start, DEPTH)
        verdict = "met" if per <= NODE_BYTES_GOAL else "NOT met"
        print(f"memory, {label}: {n} nodes, {per:,.0f} B a node (tracemalloc; "
              f"goal: at most {NODE_BYTES_GOAL:,} B: {verdict})")


def _floor(rules: Any, root: Position, depth: int, *, outcomes: bool = False,
           strings: bool = False) -> int:
    """How many nodes a walk of the tree keeps: every move played and its position
    kept, breadth first, as ``build`` does; with ``outcomes`` every node's outcome
    tested, with ``strings`` every node's position string written (the build's way:
    the parent's ranks, the one or two a move changes looked up or rewritten, the fields after
    the board written once for each clock, side and en passant square). The collector is
    paused, as ``build`` pauses it: its scans of the kept positions are no floor."""
    with collector_paused():
        return _walk(rules, root, depth, outcomes, strings)


def _walk(rules: Any, root: Position, depth: int, outcomes: bool, strings: bool) -> int:
    """``_floor``'s work."""
    outcome = rules.outcome
    write_rank = rank_writer(root)
    known = rank_cache(root)
    height, width = rules.geometry.height, rules.geometry.width
    kept: list[Position] = [root]
    texts: list[str] = []   # (kept too, as a tree keeps them)
    tails: dict[tuple[Any, ...], str] = {}   # the fields after the board, as build has them
    if outcomes:
        outcome(root)
    if strings:
        texts.append(write_position(root))
    layer = [root]
    for _ in range(depth):
        following = []
        for position in layer:
            ranks = rank_texts(position) if strings else []
            for move in rules.legal_moves(position):
                after = rules.apply(position, move)
                following.append(after)
                if outcomes:
                    outcome(after)
                if strings:
                    rows = ranks.copy()
                    for sq in changed_squares(position, move):
                        rank = sq // width   # (looked up first, as build does)
                        found = known.get(after.board[rank * width:(rank + 1) * width])
                        rows[height - 1 - rank] = found if found is not None else \
                            write_rank(after.board, height - 1 - rank)
                    key = (after.turn, after.ep_square, after.halfmove_clock,
                           after.fullmove_number, after.roll)
                    tail = tails.get(key)
                    if tail is None:
                        tail = tails[key] = write_with_board(after, "")
                    texts.append("/".join(rows) + tail)
        kept += following
        layer = following
    return len(kept)


def _played(rules: Any, root: Position, depth: int) -> list[tuple[Position, Move, Position]]:
    """(position, move, position after it) for every move of the tree, breadth first."""
    out = []
    layer = [root]
    for _ in range(depth):
        following = []
        for position in layer:
            for move in rules.legal_moves(position):
                after = rules.apply(position, move)
                out.append((position, move, after))
                following.append(after)
        layer = following
    return out


if __name__ == "__main__":
    main()
