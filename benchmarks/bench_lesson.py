"""The lesson evaluation, old formula against the new counting, side by side in one run.

Run: ``python -m benchmarks lesson``. CPU time (``time.process_time``), rounds
interleaved, best of three. The old formula is the oracle the tests keep
(``tests/test_lesson_evaluation.py``): both sides' move lists built to count
mobility, ``is_attacked`` asked square by square around each volkhv. Printed:

1. Evaluating every position of the 20 recorded games: old and new seconds and
   their ratio (the values are checked equal as they are measured).
2. The lesson search (``alphabeta:N``'s ``Searcher``) to depth 3 and 4 in a few
   positions, with the old formula as its evaluation and with the new one:
   seconds, nodes and the ratio; the values, best moves and node counts are
   checked equal, so the two searches visit the very same tree.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

from tavrei_lab import Game
from tavrei_lab.data import recorded_game, recorded_games
from tavrei_lab.engine.evaluate import positional_score
from tavrei_lab.engine.search import Limits, Searcher, game_history
from tests.test_lesson_evaluation import old_positional_score

ROUNDS = 3
#: (label, recorded game number, plies played from the start, depths)
SEARCH_POSITIONS = [("start", None, 0, (3, 4)), ("game 2, ply 19", 2, 19, (3, 4)),
                    ("game 5, ply 13", 5, 13, (3,)), ("game 8, ply 15", 8, 15, (3,)),
                    ("game 14, ply 16", 14, 16, (3,))]


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    started = time.process_time()
    out = fn()
    return time.process_time() - started, out


def evaluation_speed() -> None:
    positions = []
    for record in recorded_games():
        g = Game()
        g.play(" ".join(record["moves"]))
        positions += [p for p in g.positions if not g.rules.outcome(p)]
    rules = positions[0].rules

    def run(score: Callable[[Any, Any], float]) -> Callable[[], list[float]]:
        return lambda: [score(p, rules) for p in positions]

    old_best = new_best = float("inf")
    for _ in range(ROUNDS):
        t_old, old = _cpu(run(old_positional_score))
        t_new, new = _cpu(run(positional_score))
        assert old == new, "the new evaluation differs from the old formula"
        old_best, new_best = min(old_best, t_old), min(new_best, t_new)
    n = len(positions)
    print(f"evaluation of the {n} positions of the recorded games (CPU, best of {ROUNDS}):")
    print(f"  old formula {old_best:.3f} s ({1e6 * old_best / n:.0f} us each), "
          f"new {new_best:.3f} s ({1e6 * new_best / n:.0f} us each): "
          f"new is {old_best / new_best:.2f}x faster")


def _search(game: Game, depth: int, evaluation: Callable[[Any, Any], float] | None) -> Any:
    """A fresh lesson searcher's result (the old formula as its evaluation, or the default)."""
    searcher = (Searcher(game.rules) if evaluation is None
                else Searcher(game.rules, evaluation=evaluation))
    return searcher.search(game.position, Limits(depth=depth), game_history(game))


def search_speed() -> None:
    print("lesson search (Searcher, fixed depth, table on), old formula vs new (CPU):")
    print(f"  {'position':<16} depth {'nodes':>7} {'old s':>7} {'new s':>7}  ratio")
    ratios = []
    for label, n, plies, depths in SEARCH_POSITIONS:
        g = Game()
        if n is not None:
            g.play(" ".join(recorded_game(n)["moves"][:plies]))
        for depth in depths:
            t_old, old = _cpu(partial(_search, g, depth, old_positional_score))
            t_new, new = _cpu(partial(_search, g, depth, None))
            assert (old.value, old.best_moves, old.nodes) == (new.value, new.best_moves,
                                                              new.nodes), label
            ratios.append(t_old / t_new)
            print(f"  {label:<16} {depth:>5} {new.nodes:>7} {t_old:>7.2f} {t_new:>7.2f}  "
                  f"{t_old / t_new:.2f}x", flush=True)
    print(f"  ratio old/new: min {min(ratios):.2f}x, max {max(ratios):.2f}x")


def main() -> None:
    evaluation_speed()
    search_speed()


if __name__ == "__main__":
    main()
