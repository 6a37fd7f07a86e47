"""Engine benchmark: what each search technique buys, and incremental vs scratch hashing.

Run: ``python -m benchmarks.bench_engine`` (or through the benchmark runner).
Everything is measured in one process, in the same run, side by side:

1. plain minimax vs alpha-beta (ordering + table) at depth 2 -- nodes and seconds;
2. alpha-beta at depth 3 without ordering, with ordering, with ordering and table;
3. the Zobrist hash of the next position computed from scratch vs updated incrementally.
"""

from __future__ import annotations

import random
import time

from tavrei_lab import Game
from tavrei_lab.engine.search import Limits, Searcher, minimax
from tavrei_lab.engine.zobrist import update_hash, zobrist_hash

OPENING = "e2-e4 e7-e5 g1-f3 b8-c6 f1-c4 g8-f6 d2-d3 f8-c5"


def _count_minimax(rules, position, depth: int) -> int:
    """Nodes plain minimax visits (every node to the depth)."""
    if depth == 0:
        return 1
    return 1 + sum(_count_minimax(rules, rules.apply(position, m), depth - 1)
                   for m in rules.legal_moves(position))


def main() -> None:
    game = Game()
    game.play(OPENING)
    rules, pos = game.rules, game.position
    hist = [zobrist_hash(p) for p in game.positions]

    t = time.perf_counter()
    minimax(rules, pos, 2, hist)
    mm_seconds = time.perf_counter() - t
    mm_nodes = _count_minimax(rules, pos, 2)
    t = time.perf_counter()
    ab = Searcher(rules).search(pos, Limits(depth=2), hist)
    ab_seconds = time.perf_counter() - t
    print("Tavreli after", OPENING)
    print(f"{'depth 2':<34}{'nodes':>10}{'seconds':>10}")
    print(f"{'plain minimax':<34}{mm_nodes:>10}{mm_seconds:>10.2f}")
    print(f"{'alpha-beta (ordering + table)':<34}{ab.nodes:>10}{ab_seconds:>10.2f}")
    print(f"  ratio minimax / alpha-beta: nodes {mm_nodes / ab.nodes:.1f}x, "
          f"time {mm_seconds / ab_seconds:.1f}x")
    print()
    print(f"{'depth 3':<34}{'nodes':>10}{'seconds':>10}{'nodes/s':>10}")
    rows = []
    for label, kw in (("alpha-beta, no ordering, no table", dict(ordering=False, use_table=False)),
                      ("alpha-beta + ordering", dict(use_table=False)),
                      ("alpha-beta + ordering + table", {})):
        t = time.perf_counter()
        r = Searcher(rules, **kw).search(pos, Limits(depth=3), hist)
        dt = time.perf_counter() - t
        rows.append((label, r.nodes, dt, r.value))
        print(f"{label:<34}{r.nodes:>10}{dt:>10.2f}{r.nodes / dt:>10.0f}")
    assert len({v for *_, v in rows}) == 1, "the techniques must not change the value"
    print(f"  ratio plain / full alpha-beta: nodes {rows[0][1] / rows[2][1]:.1f}x, "
          f"time {rows[0][2] / rows[2][2]:.1f}x")
    print()

    rng = random.Random(1)
    steps = []
    g = Game()
    while len(steps) < 2000:
        if g.is_game_over(claim_draw=True) or g.ply > 150:
            g = Game()
        before = g.position
        move = g.push(rng.choice(g.legal_moves()))
        steps.append((before, move, g.position, zobrist_hash(before)))
    t = time.perf_counter()
    for _, _, after, _ in steps:
        zobrist_hash(after)
    scratch = time.perf_counter() - t
    t = time.perf_counter()
    for before, move, after, h in steps:
        update_hash(h, before, move, after)
    incremental = time.perf_counter() - t
    n = len(steps)
    print(f"{'Zobrist hash of the next position':<34}{'us/position':>12}")
    print(f"{'from scratch':<34}{scratch / n * 1e6:>12.1f}")
    print(f"{'incremental':<34}{incremental / n * 1e6:>12.1f}")
    print(f"  ratio scratch / incremental: {scratch / incremental:.1f}x")


if __name__ == "__main__":
    main()
