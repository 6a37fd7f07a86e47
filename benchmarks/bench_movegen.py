"""Move generation: the package's generator against a deliberately simple one, side by side.

Run: ``python -m benchmarks movegen``. The yardstick (``benchmarks.simple_tavreli``)
is Tavreli written straight from RULES.md: tuple tavrels, a copied board per
move, every move made and tested. Both count perft from the same positions
(every leaf played, as the package's perft contract says), first checked to
agree, then timed in CPU seconds in the same run. Goal: the package at least
3x the yardstick.
"""

from __future__ import annotations

import time

from benchmarks import simple_tavreli
from tavrei_lab import Game
from tavrei_lab.data import recorded_games
from tavrei_lab.engine.perft import perft


def positions() -> list[tuple[str, Game, int]]:
    out = [("start", Game(), 3)]
    for rec in recorded_games():
        if rec["n"] in (1, 5, 9):
            g = Game()
            g.play(" ".join(rec["moves"]))
            if g.outcome() is not None:
                g.pop()
            out.append((f"game {rec['n']} end", g, 3))
    return out


def main() -> None:
    print(f"{'position':<16}{'depth':>6}{'leaves':>10}{'package s':>11}{'simple s':>10}"
          f"{'ratio':>7}")
    total_package = total_simple = 0.0
    for name, game, depth in positions():
        state = simple_tavreli.from_position(game.position)
        started = time.process_time()
        ours = perft(game.rules, game.position, depth)
        package = time.process_time() - started
        started = time.process_time()
        simple = simple_tavreli.perft(state, depth)
        plain = time.process_time() - started
        assert ours == simple, f"{name}: the yardstick counts {simple}, the package {ours}"
        total_package += package
        total_simple += plain
        print(f"{name:<16}{depth:>6}{ours:>10}{package:>11.2f}{plain:>10.2f}"
              f"{plain / package:>6.1f}x")
    print(f"  overall: the package is {total_simple / total_package:.1f}x the simple "
          "generator (goal: 3x) -- a yardstick this project wrote for this benchmark, "
          "not an independent implementation")


if __name__ == "__main__":
    main()
