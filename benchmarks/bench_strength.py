"""Strength: the default playing agent against the old ``alphabeta:3``, and the level ladder.

Run: ``python -m benchmarks strength``. Seeded games from the Tavreli start,
colours alternated; a game still going after ``MAX_PLIES`` plies is scored by
the lesson evaluation (a lead of more than ``ADJUDICATE`` pawns wins, else a
draw) and counted as adjudicated. Printed: the score, the Elo difference with
its 95 % interval (normal approximation over per-game scores), and the mean
seconds each side spent per move -- the playing agent must spend no more
than ``alphabeta:3`` does.

The games take long (``alphabeta:3`` alone spends seconds a move), so the
counts come from the environment:

- ``TAVREI_STRENGTH_GAMES`` (default 100): games of the main match;
- ``TAVREI_LADDER_GAMES`` (default 6): games for each pair of adjacent levels;
- ``TAVREI_LADDER_LEVELS`` (default ``1-8``): which levels, e.g. ``1-5``;
- ``TAVREI_STRENGTH_PART`` (``match``, ``ladder`` or both, the default);
- ``TAVREI_STRENGTH_SEED`` (default 1000): the main match's first seed;
- ``TAVREI_STRENGTH_JOBS`` (default 1): worker processes. Each game is seeded by
  its number alone (``plan``), so a game is the same game whichever process
  plays it, and the results are combined in game order into one score, Elo and
  interval (``summarise``), as a one-process run would combine them.

Every game is printed as it ends, with the running score, so a long run can be
followed (and cut short: the figures so far are in the log).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from tavrei_lab import Game
from tavrei_lab.engine.agents import DEFAULT_PLAYING_AGENT, make_agent
from tavrei_lab.engine.evaluate import evaluate

#: Hours at the default counts: ``python -m benchmarks`` runs it only when named.
LONG = True
MAX_PLIES = 200
ADJUDICATE = 3.0
BASELINE = "alphabeta:3"


def play_one(white: Any, black: Any, seed: int, max_plies: int = MAX_PLIES
             ) -> tuple[float, str, list[float], list[float]]:
    """One game: white's score (1, 0.5, 0), how it ended, and each side's move times."""
    game = Game("tavreli", seed=seed)
    agents = (white, black)
    times: tuple[list[float], list[float]] = ([], [])
    while True:
        outcome = game.outcome(claim_draw=True)
        if outcome is not None:
            score = 0.5 if outcome.winner is None else 1.0 if outcome.winner == 0 else 0.0
            return score, outcome.termination, times[0], times[1]
        if game.ply >= max_plies:
            value = evaluate(game.position)
            white_view = value if game.position.turn == 0 else -value
            score = 1.0 if white_view > ADJUDICATE else 0.0 if white_view < -ADJUDICATE else 0.5
            return score, f"adjudicated ({white_view:+.1f})", times[0], times[1]
        me = game.position.turn
        started = time.perf_counter()
        move = agents[me].choose(game)
        times[me].append(time.perf_counter() - started)
        game.push(move)


def elo(score: float, scores: list[float]) -> tuple[float, float, float]:
    """Elo difference and its 95 % interval from a match's per-game scores.

    The interval is the normal approximation over the per-game scores -- which
    collapses to a point when every game ended alike (4/4 gives a spread of 0).
    Then the Wilson score interval of the score is used instead: 4 wins in 4
    games say only that the true score is above 51 %.
    """
    def to_elo(s: float) -> float:
        s = min(max(s, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / s - 1)
    n = len(scores)
    if n < 2:
        return to_elo(score), -math.inf, math.inf
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1))
    if sd == 0:
        z2 = 1.96 ** 2
        centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
        half = 1.96 * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return to_elo(mean), to_elo(centre - half), to_elo(centre + half)
    half = 1.96 * sd / math.sqrt(n)
    return to_elo(mean), to_elo(mean - half), to_elo(mean + half)


@dataclass(frozen=True)
class PlannedGame:
    """One game of a match, fixed before any is played: who, with which seeds."""

    number: int          # 0-based, in match order
    spec_a: str
    spec_b: str
    seed_a: int
    seed_b: int
    game_seed: int
    a_white: bool
    max_plies: int = MAX_PLIES


@dataclass(frozen=True)
class GameResult:
    """What one game gave: a's score and each side's move times."""

    number: int
    a_white: bool
    score_a: float
    how: str
    times_a: tuple[float, ...]
    times_b: tuple[float, ...]


@dataclass(frozen=True)
class MatchSummary:
    """A match combined from its games, always in game order."""

    scores: tuple[float, ...]
    total: float
    percent: float
    elo: float
    elo_low: float
    elo_high: float
    adjudicated: int
    seconds_a: float
    seconds_b: float


def plan(spec_a: str, spec_b: str, games: int, seed: int,
         max_plies: int = MAX_PLIES) -> list[PlannedGame]:
    """The match's games: ``spec_a`` white in the even ones; seeds from the game's number."""
    return [PlannedGame(i, spec_a, spec_b, seed + 2 * i, seed + 2 * i + 1, seed + i,
                        i % 2 == 0, max_plies) for i in range(games)]


def play_planned(game: PlannedGame) -> GameResult:
    """Play one planned game (in this process or a worker: the plan alone decides it)."""
    a = make_agent(game.spec_a, seed=game.seed_a)
    b = make_agent(game.spec_b, seed=game.seed_b)
    white, black = (a, b) if game.a_white else (b, a)
    s, how, tw, tb = play_one(white, black, game.game_seed, game.max_plies)
    times_a, times_b = (tw, tb) if game.a_white else (tb, tw)
    return GameResult(game.number, game.a_white, s if game.a_white else 1 - s, how,
                      tuple(times_a), tuple(times_b))


def summarise(results: list[GameResult]) -> MatchSummary:
    """One score, Elo and interval from the games, whatever order they ended in."""
    ordered = sorted(results, key=lambda r: r.number)
    scores = [r.score_a for r in ordered]
    total = sum(scores)
    pct = total / len(scores) if scores else 0.0
    e, lo, hi = elo(pct, scores)
    times_a = [t for r in ordered for t in r.times_a]
    times_b = [t for r in ordered for t in r.times_b]
    return MatchSummary(tuple(scores), total, pct, e, lo, hi,
                        sum(r.how.startswith("adjudicated") for r in ordered),
                        sum(times_a) / max(len(times_a), 1),
                        sum(times_b) / max(len(times_b), 1))


def _played(planned: list[PlannedGame], jobs: int) -> Iterator[GameResult]:
    """Yield each game's result as it ends: in order in this process, or from a pool."""
    if jobs <= 1:
        for game in planned:
            yield play_planned(game)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_planned, game) for game in planned]
        for future in as_completed(futures):
            yield future.result()


def match(spec_a: str, spec_b: str, games: int, seed: int, label: str, jobs: int = 1,
          max_plies: int = MAX_PLIES) -> MatchSummary:
    """``games`` games, ``spec_a`` white in the even ones, on ``jobs`` processes.

    Prints each game as it ends (with the running score of the games ended so far)
    and then the match's figures; returns them.
    """
    results: list[GameResult] = []
    for r in _played(plan(spec_a, spec_b, games, seed, max_plies), jobs):
        results.append(r)
        running = sum(x.score_a for x in results)
        print(f"  {label} game {r.number + 1:>3}: {spec_a} {'white' if r.a_white else 'black'} "
              f"scores {r.score_a:g} ({r.how}, {len(r.times_a) + len(r.times_b)} plies, "
              f"s/move {_mean(r.times_a):.2f} vs {_mean(r.times_b):.2f}); "
              f"running score {running:g}/{len(results)}", flush=True)
    m = summarise(results)
    print(f"{label}: {spec_a} vs {spec_b}: {m.total:g}/{len(m.scores)} = {100 * m.percent:.1f} %, "
          f"Elo {m.elo:+.0f} (95 % interval {m.elo_low:+.0f} .. {m.elo_high:+.0f}), "
          f"{m.adjudicated} adjudicated; seconds per move {m.seconds_a:.2f} vs {m.seconds_b:.2f}",
          flush=True)
    return m


def _mean(values: tuple[float, ...]) -> float:
    return sum(values) / max(len(values), 1)


def _levels(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> None:
    part = os.environ.get("TAVREI_STRENGTH_PART", "both")
    jobs = int(os.environ.get("TAVREI_STRENGTH_JOBS", "1"))
    if part in ("match", "both"):
        games = int(os.environ.get("TAVREI_STRENGTH_GAMES", "100"))
        seed = int(os.environ.get("TAVREI_STRENGTH_SEED", "1000"))
        print(f"main match, {games} games from the Tavreli start (max {MAX_PLIES} plies), "
              f"first seed {seed}, {jobs} process(es)")
        m = match(DEFAULT_PLAYING_AGENT, BASELINE, games, seed=seed, label="match", jobs=jobs)
        faster = m.seconds_a <= m.seconds_b
        print(f"goal: >= 75 % at equal or less time per move -- score {100 * m.percent:.1f} % "
              f"({'met' if m.percent >= 0.75 else 'NOT met'}), time per move "
              f"{m.seconds_a:.2f} s vs {m.seconds_b:.2f} s ({'met' if faster else 'NOT met'})")
    if part in ("ladder", "both"):
        games = int(os.environ.get("TAVREI_LADDER_GAMES", "6"))
        levels = _levels(os.environ.get("TAVREI_LADDER_LEVELS", "1-8"))
        print(f"level ladder, {games} games a pair")
        results = []
        for lv in levels[1:]:
            m = match(f"level:{lv}", f"level:{lv - 1}", games, seed=5000 + 100 * lv,
                      label=f"ladder {lv}-{lv - 1}", jobs=jobs)
            results.append((lv, m.percent))
        for lv, pct in results:
            print(f"  level {lv} vs level {lv - 1}: {100 * pct:.0f} %"
                  f"{'' if pct >= 0.6 else '  (below the 60 % goal)'}")


if __name__ == "__main__":
    main()
