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
- ``TAVREI_STRENGTH_SEED`` (default 1000): the main match's first seed, so that
  several processes can play different games of one match side by side.

Every game is printed as it ends, so a long run can be followed (and cut short:
the figures so far are printed with it).
"""

from __future__ import annotations

import math
import os
import sys
import time
from typing import Any

from tavrei_lab import Game
from tavrei_lab.engine.agents import DEFAULT_PLAYING_AGENT, make_agent
from tavrei_lab.engine.evaluate import evaluate

#: Hours at the default counts: ``python -m benchmarks`` runs it only when named.
LONG = True
MAX_PLIES = 200
ADJUDICATE = 3.0
BASELINE = "alphabeta:3"


def play_one(white: Any, black: Any, seed: int) -> tuple[float, str, list[float], list[float]]:
    """One game: white's score (1, 0.5, 0), how it ended, and each side's move times."""
    game = Game("tavreli", seed=seed)
    agents = (white, black)
    times: tuple[list[float], list[float]] = ([], [])
    while True:
        outcome = game.outcome(claim_draw=True)
        if outcome is not None:
            score = 0.5 if outcome.winner is None else 1.0 if outcome.winner == 0 else 0.0
            return score, outcome.termination, times[0], times[1]
        if game.ply >= MAX_PLIES:
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
    """Elo difference and its 95 % interval from a match's per-game scores."""
    def to_elo(s: float) -> float:
        s = min(max(s, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / s - 1)
    n = len(scores)
    if n < 2:
        return to_elo(score), -math.inf, math.inf
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return to_elo(mean), to_elo(mean - half), to_elo(mean + half)


def match(spec_a: str, spec_b: str, games: int, seed: int, label: str) -> float:
    """``games`` games, ``spec_a`` white in the even ones; prints each; returns a's score."""
    scores: list[float] = []
    times_a: list[float] = []
    times_b: list[float] = []
    adjudicated = 0
    for i in range(games):
        a = make_agent(spec_a, seed=seed + 2 * i)
        b = make_agent(spec_b, seed=seed + 2 * i + 1)
        a_white = i % 2 == 0
        white, black = (a, b) if a_white else (b, a)
        s, how, tw, tb = play_one(white, black, seed + i)
        sa = s if a_white else 1 - s
        scores.append(sa)
        times_a += tw if a_white else tb
        times_b += tb if a_white else tw
        adjudicated += how.startswith("adjudicated")
        print(f"  {label} game {i + 1:>3}: {spec_a} {'white' if a_white else 'black'} "
              f"scores {sa:g} ({how}); running score {sum(scores)}/{len(scores)}", flush=True)
    total = sum(scores)
    pct = total / len(scores)
    e, lo, hi = elo(pct, scores)
    mean_a = sum(times_a) / max(len(times_a), 1)
    mean_b = sum(times_b) / max(len(times_b), 1)
    print(f"{label}: {spec_a} vs {spec_b}: {total:g}/{len(scores)} = {100 * pct:.1f} %, "
          f"Elo {e:+.0f} (95 % interval {lo:+.0f} .. {hi:+.0f}), {adjudicated} adjudicated; "
          f"seconds per move {mean_a:.2f} vs {mean_b:.2f}", flush=True)
    return pct


def _levels(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> None:
    part = os.environ.get("TAVREI_STRENGTH_PART", "both")
    if part in ("match", "both"):
        games = int(os.environ.get("TAVREI_STRENGTH_GAMES", "100"))
        print(f"main match, {games} games from the Tavreli start (max {MAX_PLIES} plies)")
        seed = int(os.environ.get("TAVREI_STRENGTH_SEED", "1000"))
        match(DEFAULT_PLAYING_AGENT, BASELINE, games, seed=seed, label="match")
    if part in ("ladder", "both"):
        games = int(os.environ.get("TAVREI_LADDER_GAMES", "6"))
        levels = _levels(os.environ.get("TAVREI_LADDER_LEVELS", "1-8"))
        print(f"level ladder, {games} games a pair")
        results = []
        for lv in levels[1:]:
            pct = match(f"level:{lv}", f"level:{lv - 1}", games, seed=5000 + 100 * lv,
                        label=f"ladder {lv}-{lv - 1}")
            results.append((lv, pct))
        for lv, pct in results:
            print(f"  level {lv} vs level {lv - 1}: {100 * pct:.0f} %"
                  f"{'' if pct >= 0.6 else '  (below the 60 % goal)'}")


if __name__ == "__main__":
    sys.exit(main())
