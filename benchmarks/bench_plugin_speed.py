"""A plugin that changes nothing plays at its parent's speed: the ratio, side by side.

Run: ``python -m benchmarks plugin_speed``. A rule module registered at run time
that subclasses a shipped one and overrides nothing (``extends = "tavreli"``,
``rules = "same-..."``) must get every shortcut its parent gets
(``RuleModule.fast_paths``), so it searches the same tree at the same speed.
For Tavreli and the Gavrilov die, the playing search at a fixed node budget on
positions of seeded random games, parent and plugin alternately, several rounds;
CPU time (``time.process_time``), the best round of each. Printed: the CPU
seconds of each, their ratio (plugin / parent; goal: within 1.10), and whether
every search found the same move with the same number of nodes (it must).
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from tavrei_lab import Game
from tavrei_lab.builds import describe
from tavrei_lab.engine.play import PlaySearcher
from tavrei_lab.engine.search import Limits
from tavrei_lab.rules.die import DieRules
from tavrei_lab.rules.registry import register_rule_module
from tavrei_lab.rules.stacking import TowerChessRules

NODES = 1500
POSITIONS = 12
ROUNDS = 3


class SameTavreli(TowerChessRules):
    """Tavreli's rules, registered under another name: a plugin that changes nothing."""

    name = "bench-same-tavreli"


class SameDie(DieRules):
    """The Gavrilov die game under another name."""

    name = "bench-same-die"


def positions(variant: str, count: int, seed: int) -> list[tuple[str, str | None]]:
    """Decision positions of seeded random games, 10 to 40 moves in: each as its
    position string before the roll, and the face rolled (die games)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = Game(variant, seed=rng.randrange(1000))
        stop = rng.randrange(10, 40)
        while g.ply < stop and not g.is_game_over(claim_draw=True):
            if g.is_chance_node():
                g.roll(rng)
            else:
                g.push(rng.choice(g.rules.legal_moves(g.position)))
        if not g.is_game_over(claim_draw=True):
            text, face = g.position.string, None
            if g.is_chance_node():
                face = g.roll(rng)
            if not g.is_chance_node() and not g.is_game_over(claim_draw=True):
                out.append((text, face))
    return out


def searches(variant: str, strings: list[tuple[str, str | None]]
             ) -> tuple[float, list[tuple[str, int]]]:
    """CPU seconds of one search per position, and (move, nodes) of each."""
    total = 0.0
    found = []
    for text, face in strings:
        game = Game(variant, text)
        position = game.position
        if face is not None:
            position = game.rules.apply_roll(position, face)
        searcher = PlaySearcher(game.rules, clock=time.process_time)
        started = time.process_time()
        result = searcher.search(position, Limits(nodes=NODES))
        total += time.process_time() - started
        found.append((str(result.pv[:1] or result.best_moves[:1]), result.nodes))
    return total, found


def compare(parent: str, plugin: str, seed: int) -> None:
    strings = positions(parent, POSITIONS, seed)
    best = {parent: float("inf"), plugin: float("inf")}
    answers: dict[str, list[tuple[str, int]]] = {}
    for i in range(ROUNDS):
        for variant in ((parent, plugin) if i % 2 == 0 else (plugin, parent)):
            seconds, answers[variant] = searches(variant, strings)
            best[variant] = min(best[variant], seconds)
    same = answers[parent] == answers[plugin]
    ratio = best[plugin] / best[parent]
    print(f"  {parent:14s} parent {best[parent]:6.2f} s  plugin {best[plugin]:6.2f} s  "
          f"ratio {ratio:.3f} (goal <= 1.10)  same moves and nodes: {same}")


def main() -> None:
    print(f"  {describe()}; {POSITIONS} positions x {NODES} nodes, best of {ROUNDS} rounds")
    with tempfile.TemporaryDirectory() as folder:
        files = {}
        for cls, parent in ((SameTavreli, "tavreli"), (SameDie, "gavrilov-die")):
            register_rule_module(cls)
            path = Path(folder) / f"{cls.name}.toml"
            path.write_text(f'extends = "{parent}"\nrules = "{cls.name}"\n', encoding="utf-8")
            files[parent] = str(path)
        for parent, plugin in files.items():
            compare(parent, plugin, seed=7)


if __name__ == "__main__":
    main()
