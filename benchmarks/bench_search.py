"""Search speed: lesson vs playing search (and sunfish), side by side in one run, CPU time.

Run: ``python -m benchmarks search``. Everything is measured in CPU seconds
(``time.process_time``), so that other processes on a shared machine slow the
wall clock, not the figures. Printed:

1. From the start, a fixed CPU budget: depth reached, nodes and nodes per
   second of the lesson search and the playing search, in Tavreli and in
   orthodox chess -- and sunfish (a pure-Python chess engine from PyPI) on
   orthodox chess when the optional ``benchmark`` extra is installed. sunfish
   is GPL: it is only run here, as a yardstick, never imported by the package.
   Goals: Tavreli depth >= 6 in 6 s; orthodox nodes/s >= sunfish's.
2. The end positions of the ten recorded games that come with facts
   (``tavrei_lab.data``; a game that ends in mate is taken one ply earlier):
   depth and nodes/s of both searches in a 2 s budget. Goal: depth >= 4.
3. How far a time-limited agent overshoots its budget (wall clock, as a
   player at the board sees it), over the same positions.
4. Die games: the playing search to depth 3 in seeded middlegames, with the
   die's Star2 bounds and with Star1 alone. Goal: within 2 s.
5. Orthodox nodes per second of the playing search and sunfish on the same positions
   (the start and the ends of the sunfish match's first openings), 2 CPU s each, and
   their ratio (goal: 4x). ``TAVREI_SEARCH_PART=sunfish`` runs this part alone.

Nodes are not the same unit in both searches (the playing search counts its
quiescence nodes), which is why the depth reached in the same time is
printed next to nodes per second.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from typing import Any

from tavrei_lab import Game
from tavrei_lab.data import recorded_games
from tavrei_lab.engine.agents import make_agent
from tavrei_lab.engine.play import PlaySearcher
from tavrei_lab.engine.search import Limits, Searcher, game_history

START_BUDGET = 6.0
MIDDLEGAME_BUDGET = 2.0
DIE_DEPTH = 3


def cpu_search(kind: str, game: Game, budget: float) -> tuple[int, int, float, bool]:
    """(depth reached, nodes, CPU seconds, found a mate) of one search of ``kind``."""
    cls = PlaySearcher if kind == "play" else Searcher
    searcher: Any = cls(game.rules, clock=time.process_time)
    started = time.process_time()
    result = searcher.search(game.position, Limits(time=budget), game_history(game))
    return (result.depth, result.nodes, time.process_time() - started,
            abs(result.value) > 9000)


def sunfish_search(budget: float) -> tuple[int, int, float] | None:
    """sunfish from the orthodox start for ``budget`` CPU seconds, or None if not installed."""
    try:
        import sunfish  # GPL yardstick: measured here, never part of the package
    except ImportError:
        return None
    pos = sunfish.Position(sunfish.initial, 0, (True, True), (True, True), 0, 0)
    searcher = sunfish.Searcher()
    started = time.process_time()
    finished = 0
    current = 0
    for depth, _gamma, _score, _move in searcher.search([pos]):
        if depth > current:
            finished, current = current, depth
        if time.process_time() - started > budget:
            break
    return finished, searcher.nodes, time.process_time() - started


#: Positions for the nodes/s comparison with sunfish: the start and the ends of the
#: first openings of the sunfish match (both engines search the very same positions).
SUNFISH_POSITIONS = 8
SUNFISH_BUDGET = 2.0


def sunfish_nodes_after(moves: str, budget: float) -> tuple[int, int, float] | None:
    """sunfish after ``moves`` (UCI) for ``budget`` CPU seconds: (depth finished, nodes,
    CPU s), or None if sunfish is not installed."""
    try:
        from benchmarks.bench_strength import _SunfishPlayer
        fish = _SunfishPlayer("cpu", None)
    except ImportError:
        return None
    for uci in moves.split():
        fish.push(uci)
    searcher = fish.sf.Searcher()
    started = time.process_time()
    finished = current = 0
    for depth, _gamma, _score, _move in searcher.search(fish.hist):
        if depth > current:
            finished, current = current, depth
        if time.process_time() - started > budget:
            break
    return finished, searcher.nodes, time.process_time() - started


def play_nodes_after(moves: str, budget: float) -> tuple[int, int, float]:
    """The playing search after ``moves`` (UCI) for ``budget`` CPU seconds."""
    game = Game("orthodox")
    for uci in moves.split():
        game.push(f"{uci[:2]}-{uci[2:4]}" + (f"={uci[4:].upper()}" if uci[4:] else ""))
    searcher = PlaySearcher(game.rules, clock=time.process_time)
    started = time.process_time()
    result = searcher.search(game.position, Limits(time=budget), game_history(game))
    return result.depth, result.nodes, time.process_time() - started


def sunfish_comparison() -> None:
    """Nodes per CPU second of the playing search and sunfish, same positions, same time."""
    import tavrei_lab
    from benchmarks.bench_strength import SUNFISH_OPENINGS
    lines = [("start", ""), *SUNFISH_OPENINGS[:SUNFISH_POSITIONS - 1]]
    print(f"5. Orthodox nodes/s against sunfish, {SUNFISH_BUDGET:g} CPU s each, same positions "
          f"({'compiled' if tavrei_lab.compiled else 'pure'} build)")
    print(f"{'position':<26}{'depth':>6}{'nodes/s':>9}{'sunfish d':>10}{'nodes/s':>9}"
          f"{'ratio':>7}")
    ratios = []
    for name, moves in lines:
        fish = sunfish_nodes_after(moves, SUNFISH_BUDGET)
        if fish is None:
            print("  sunfish: not installed (pip install sunfish, then chess>=1.10 again)")
            return
        depth, nodes, cpu = play_nodes_after(moves, SUNFISH_BUDGET)
        fdepth, fnodes, fcpu = fish
        ratio = (nodes / cpu) / (fnodes / fcpu)
        ratios.append(ratio)
        print(f"{name:<26}{depth:>6}{nodes / cpu:>9.0f}{fdepth:>10}{fnodes / fcpu:>9.0f}"
              f"{ratio:>6.2f}x")
    print(f"  median ratio {statistics.median(ratios):.2f}x (goal: 4x); nodes count "
          "differently (ours include quiescence), so depth is printed beside them")


def end_positions() -> list[tuple[int, Game]]:
    """The recorded games with facts, at their last position that is not over."""
    out = []
    for rec in recorded_games():
        if not rec.get("expected_at_end"):
            continue
        game = Game()
        game.play(" ".join(rec["moves"]))
        if game.outcome() is not None:
            game.pop()
        out.append((rec["n"], game))
    return out


def die_middlegames(count: int) -> list[Game]:
    out = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        g = Game("gavrilov-die", seed=seed)
        seed += 1
        while g.ply < 30 and not g.is_game_over(claim_draw=True):
            if g.is_chance_node():
                g.roll(rng)
                continue
            g.push(rng.choice(g.legal_moves()))
        if g.is_chance_node() and not g.is_game_over(claim_draw=True):
            g.roll(rng)
        if not g.is_game_over(claim_draw=True) and len(g.legal_moves()) > 5:
            out.append(g)
    return out


def main() -> None:
    if os.environ.get("TAVREI_SEARCH_PART") == "sunfish":
        sunfish_comparison()
        return
    print(f"1. From the start, {START_BUDGET:g} s of CPU each")
    print(f"{'':<22}{'depth':>6}{'nodes':>10}{'CPU s':>8}{'nodes/s':>10}")
    rates = {}
    for variant in ("tavreli", "orthodox"):
        for kind in ("lesson", "play"):
            depth, nodes, cpu, _ = cpu_search(kind, Game(variant), START_BUDGET)
            rates[(variant, kind)] = nodes / cpu
            print(f"{variant + ' ' + kind:<22}{depth:>6}{nodes:>10}{cpu:>8.2f}"
                  f"{nodes / cpu:>10.0f}")
    fish = sunfish_search(START_BUDGET)
    if fish is None:
        print("sunfish: not installed (pip install -e .[benchmark] to compare)")
    else:
        depth, nodes, cpu = fish
        print(f"{'orthodox sunfish':<22}{depth:>6}{nodes:>10}{cpu:>8.2f}{nodes / cpu:>10.0f}")
        print(f"  orthodox nodes/s, playing search / sunfish: "
              f"{rates[('orthodox', 'play')] / (nodes / cpu):.2f}x")
    print(f"  Tavreli nodes/s, playing / lesson: "
          f"{rates[('tavreli', 'play')] / rates[('tavreli', 'lesson')]:.1f}x")
    print()

    positions = end_positions()
    print(f"2. Recorded-game end positions, {MIDDLEGAME_BUDGET:g} s of CPU each")
    print(f"{'game':<6}{'moves':>6}{'lesson depth':>13}{'nodes/s':>9}{'play depth':>12}"
          f"{'nodes/s':>9}")
    depths: dict[str, list[int]] = {"lesson": [], "play": []}
    speeds: dict[str, list[float]] = {"lesson": [], "play": []}
    for n, game in positions:
        row: list[str] = []
        for kind in ("lesson", "play"):
            depth, nodes, cpu, mate = cpu_search(kind, game, MIDDLEGAME_BUDGET)
            if not mate:        # a mate found ends the search early, whatever the depth
                depths[kind].append(depth)
            speeds[kind].append(nodes / cpu)
            row += [f"{depth}{' (mate)' if mate else ''}", f"{nodes / cpu:.0f}"]
        print(f"{n:<6}{len(game.legal_moves()):>6}{row[0]:>13}{row[1]:>9}{row[2]:>12}"
              f"{row[3]:>9}")
    for kind in ("lesson", "play"):
        print(f"  {kind}: depth (positions without a mate) min {min(depths[kind])}, median "
              f"{statistics.median(depths[kind]):g}; nodes/s median "
              f"{statistics.median(speeds[kind]):.0f}")
    print()

    print("3. Time-limited agents: wall seconds over the budget (start + the positions above)")
    games = [Game(), *(g for _, g in positions)]
    for spec in ("alphabeta:0.25s", "alphabeta:0.5s", "level:1", "level:3", "level:4",
                 "level:5", "level:6", "level:8"):
        budget = make_agent(spec).limits.time
        overs = []
        for game in games:
            agent = make_agent(spec, seed=1)
            started = time.perf_counter()
            agent.choose(game)
            overs.append(time.perf_counter() - started - budget)
        print(f"  {spec:<16} budget {budget:>4} s: worst {1000 * max(overs):+7.1f} ms, "
              f"mean {1000 * statistics.mean(overs):+7.1f} ms")
    print()

    print(f"4. Die games (gavrilov-die), depth {DIE_DEPTH}, seeded 30-ply middlegames, CPU s")
    print(f"{'position':<10}{'Star2 (die)':>12}{'nodes':>9}{'Star1':>9}{'nodes':>9}")
    worst = 0.0
    for i, game in enumerate(die_middlegames(6)):
        row = []
        for star2 in (True, False):
            searcher = PlaySearcher(game.rules, star2=star2, clock=time.process_time)
            started = time.process_time()
            result = searcher.search(game.position, Limits(depth=DIE_DEPTH, time=30.0),
                                     game_history(game))
            cpu = time.process_time() - started
            if star2:
                worst = max(worst, cpu)
            nodes = (str(result.nodes) if result.depth == DIE_DEPTH
                     else "mate" if abs(result.value) > 9000 else "-")
            row += [cpu, nodes]
        print(f"{i + 1:<10}{row[0]:>12.2f}{row[1]:>9}{row[2]:>9.2f}{row[3]:>9}")
    print(f"  worst Star2 time {worst:.2f} s (goal: within 2 s); 'mate': a forced win ends the "
          "search before depth 3; '-': depth 3 not reached in 30 s")

    print()
    sunfish_comparison()

if __name__ == "__main__":
    main()
