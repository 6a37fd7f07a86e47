"""Tavreli move generation: the package on both builds against a plain generator, side by side.

Run: ``python -m benchmarks movegen``. The yardstick (``benchmarks.simple_tavreli``)
is Tavreli written straight from RULES.md: tuple tavrels, a copied board per
move, every move made and tested. It was written for this benchmark, and it is
deliberately simple. It is *not* the independent implementation, which
counted 271-287k nodes/s where the pure build counted 434-455k (so that implementation
ran at about 0.6x the pure build). Both count perft from the same positions (every
leaf played, as the package's perft contract says). The counts are checked to agree
first, then timed in CPU seconds in the same run. The pure Python build is timed in
a child process (``TAVREI_PURE=1``) on the same positions, so each figure is also
given against the pure build. Goals: the package at least 3x the yardstick;
at least 4x the independent implementation, which is about 2.5x the pure
build.
"""

from __future__ import annotations

import time

import tavrei_lab
from benchmarks import on_pure_build, simple_tavreli
from tavrei_lab import Game, builds
from tavrei_lab.data import recorded_games
from tavrei_lab.engine.perft import perft

#: How the independent implementation compared with the pure build (its 271-287k
#: nodes/s against the pure build's 434-455k, measured side by side).
INDEPENDENT_PER_PURE = (271 + 287) / (434 + 455)


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


#: The package's figures are the best of this many runs in CPU time (the machine is
#: shared); the simple yardstick, some 5x slower, runs once.
REPEATS = 3


def package_times() -> dict[str, list[float]]:
    """``{position: [leaves, CPU seconds]}`` of the package on the build that runs (best
    of ``REPEATS``)."""
    out: dict[str, list[float]] = {}
    for name, game, depth in positions():
        for _ in range(REPEATS):
            started = time.process_time()
            leaves = perft(game.rules, game.position, depth)
            seconds = time.process_time() - started
            if name not in out or seconds < out[name][1]:
                out[name] = [leaves, seconds]
    return out


def pure_times() -> dict[str, list[float]] | None:
    """``package_times()`` on the pure Python build, in a child process (None if it failed)."""
    result: dict[str, list[float]] | None = on_pure_build("bench_movegen.package_times")
    return result


def main() -> None:
    print(f"tavrei_lab build: {builds.describe()}")
    ours = package_times()
    pure = pure_times() if tavrei_lab.compiled else ours
    print(f"{'position':<16}{'depth':>6}{'leaves':>10}{'this s':>9}{'pure s':>9}"
          f"{'simple s':>10}{'this/simple':>12}{'this/pure':>10}")
    total = {"this": 0.0, "pure": 0.0, "simple": 0.0}
    leaves_total = 0
    for name, game, depth in positions():
        leaves, this = ours[name]
        plain_build = pure[name][1] if pure else float("nan")
        if pure:
            assert pure[name][0] == leaves, (name, pure[name], leaves)
        state = simple_tavreli.from_position(game.position)
        started = time.process_time()
        simple = simple_tavreli.perft(state, depth)
        plain = time.process_time() - started
        assert leaves == simple, f"{name}: the yardstick counts {simple}, the package {leaves}"
        total["this"] += this
        total["pure"] += plain_build
        total["simple"] += plain
        leaves_total += int(leaves)
        print(f"{name:<16}{depth:>6}{leaves:>10.0f}{this:>9.2f}{plain_build:>9.2f}{plain:>10.2f}"
              f"{plain / this:>11.1f}x{plain_build / this:>9.2f}x")
    this_nps = leaves_total / total["this"]
    pure_nps = leaves_total / total["pure"]
    simple_nps = leaves_total / total["simple"]
    print(f"  nodes/s: this build {this_nps:.0f}, pure build {pure_nps:.0f}, "
          f"simple yardstick {simple_nps:.0f}")
    print(f"  this build / simple yardstick: {this_nps / simple_nps:.1f}x (goal: 3x; "
          "a yardstick this project wrote for the benchmark, not an independent implementation)")
    print(f"  this build / pure build: {this_nps / pure_nps:.2f}x; against the independent "
          f"implementation (at {INDEPENDENT_PER_PURE:.2f}x the pure build): about "
          f"{this_nps / (pure_nps * INDEPENDENT_PER_PURE):.1f}x (goal: 4x)")


if __name__ == "__main__":
    main()
