"""Strength: the players' Elo, the default playing agent against ``alphabeta:3``, the ladder.

Run: ``python -m benchmarks strength``: by default the rating (``strength_rating``):
the strongest level and the lab's default players against the fixed reference player
(``engine.agents.REFERENCE_PLAYER``) in Tavreli and orthodox chess, and the levels'
chess Elo against Stockfish at set strengths. ``TAVREI_STRENGTH_PART=both`` (or
``match``, ``ladder``, ``sunfish``) runs the older matches below.

The main match and the ladder: seeded games from the Tavreli start,
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
- ``TAVREI_STRENGTH_PART`` (``match``, ``ladder`` or ``both``; ``rating``, the default,
  ``rating-reference`` or ``rating-stockfish`` for the rating);
- ``TAVREI_STRENGTH_SEED`` (default 1000): the main match's first seed;
- ``TAVREI_STRENGTH_JOBS`` (default 1): worker processes. Each game is seeded by
  its number alone (``plan``), so a game is the same game whichever process
  plays it, and the results are combined in game order into one score, Elo and
  interval (``summarise``), as a one-process run would combine them.

Every game is printed as it ends, with the running score, so a long run can be
followed (and cut short: the figures so far are in the log).

**Against sunfish** (goal: >= 65 % over >= 100 games at 1 s a move), orthodox
chess: ``TAVREI_STRENGTH_PART=sunfish python -m benchmarks strength``. The
package's ``PlaySearcher`` plays sunfish (PyPI, GPL: a benchmark-only yardstick, run
here and never imported by the package) from the 50 fixed openings of
``SUNFISH_OPENINGS``, each with the package white and then black; python-chess checks
every move (a refused move loses) and ends the game (mate, stalemate, insufficient
material, threefold repetition, fifty moves); after ``SUNFISH_MAX_PLIES`` plies a
material lead of ``SUNFISH_ADJUDICATE`` pawns wins, less is a draw. Both sides get
the same budget on the same clock: CPU seconds by default (a shared machine slows
the wall clock, not the figures), ``TAVREI_SUNFISH_CLOCK=wall`` for the wall clock.
Printed: every game, the score, Elo with its 95 % interval, and each side's time use
(mean share of the budget, worst overshoot against ``OVER_MARGIN``). Settings:
``TAVREI_SUNFISH_GAMES`` (100), ``TAVREI_SUNFISH_SECONDS`` (1.0),
``TAVREI_SUNFISH_NODES`` (a node budget for both sides instead of time: a
reproducible proxy), ``TAVREI_SUNFISH_PLIES``, ``TAVREI_SUNFISH_FIRST`` (the first
game's number: a match can be played in parts) and ``TAVREI_STRENGTH_JOBS``. The
whole match at 1 s a move is about 100 games x 150 plies x 1 s = 4 CPU hours.

``TAVREI_SUNFISH_OUT=FILE`` saves every game as a JSON line as it ends (score, how it
ended, plies, each side's move times, the whole game in UCI) and skips games already in
the file with the same settings, so a stopped match resumes;
``TAVREI_STRENGTH_PART=sunfish-report TAVREI_SUNFISH_OUT=FILE`` prints a partial file's
figures. Adjudication, stated: python-chess's own ends (mate, stalemate, insufficient
material, threefold repetition, fifty moves); a material lead of ``SUNFISH_RESIGN`` (6)
pawns held ``SUNFISH_RESIGN_PLIES`` (8) plies in a row wins (the side behind resigns);
after ``SUNFISH_MAX_PLIES`` a lead of ``SUNFISH_ADJUDICATE`` (3) wins, less is a draw.

Measured (CPU budgets, 2 cores loaded by other work, load 8-12):

- before the chess evaluation: 0.1 s a move, games 1-40, 14/40 = 35 % (Elo -108);
  0.3 s, games 1-20, 9.5/20 = 47.5 %;
- with ``engine.chess_eval`` (pure play.py), 0.1 s, games 1-20, 120 plies: 8/20;
- compiled, with checks kept out of pruning: 0.1 s, games 1-20, 120 plies: 14/20 =
  70 % (Elo +147, 95 % -4 .. +394), time use 100 %, worst +3 ms;
- 1 s a move, the real match (commit 585dc13, 2 processes at nice 19, 07:51-09:17 UTC on
  2026-12-02): all 100 games, 69/100 = 69.0 % (Elo +139, 95 % +73 .. +217; 65 wins, 8
  draws, 27 losses), time use 97 %, worst +16 ms; sunfish 83 %. The games are in
  ``benchmarks/results/sunfish-1s-585dc13.jsonl``.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, fields
from typing import Any, TypeVar

from tavrei_lab import Game
from tavrei_lab.engine.agents import DEFAULT_PLAYING_AGENT, make_agent
from tavrei_lab.engine.evaluate import evaluate
from tavrei_lab.lab.statistics import elo as stats_elo
from tavrei_lab.lab.statistics import elo_of_games

T = TypeVar("T")
R = TypeVar("R")

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
    """Elo difference and its 95 % interval from a match's per-game scores:
    ``compare.statistics.elo_of_games`` at z = 1.96 (the normal interval over the
    games, Wilson's where every game ended alike: 4 wins in 4 say only that the true
    score is above 51 %); ``score`` alone, with no interval, under two games."""
    if len(scores) < 2:
        return stats_elo(score), -math.inf, math.inf
    return elo_of_games(scores, z=1.96)


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


def _in_order_or_pooled(play: Callable[[T], R], planned: list[T], jobs: int) -> Iterator[R]:
    """Yield each game's result as it ends: in order in this process, or from a pool of
    ``jobs`` processes (the plan alone decides a game, so either gives the same games)."""
    if jobs <= 1:
        for game in planned:
            yield play(game)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play, game) for game in planned]
        for future in as_completed(futures):
            yield future.result()


def _played(planned: list[PlannedGame], jobs: int) -> Iterator[GameResult]:
    """The main match's and the ladder's games as they end."""
    return _in_order_or_pooled(play_planned, planned, jobs)


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


# == against sunfish: orthodox chess, fixed openings, every move checked by python-chess ==
#: Fixed openings (UCI), each played twice: once with the package white, once black.
SUNFISH_OPENINGS: list[tuple[str, str]] = [
    ("Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
    ("Ruy Lopez, Berlin", "e2e4 e7e5 g1f3 b8c6 f1b5 g8f6"),
    ("Italian", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ("Two Knights", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"),
    ("Scotch", "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4"),
    ("Petrov", "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6"),
    ("Philidor", "e2e4 e7e5 g1f3 d7d6 d2d4 g8f6"),
    ("Four Knights", "e2e4 e7e5 g1f3 b8c6 b1c3 g8f6"),
    ("Vienna", "e2e4 e7e5 b1c3 g8f6 f2f4"),
    ("King's Gambit", "e2e4 e7e5 f2f4 e5f4 g1f3"),
    ("Sicilian Najdorf", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6"),
    ("Sicilian Dragon", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 g7g6"),
    ("Sicilian Taimanov", "e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 b8c6"),
    ("Sicilian Alapin", "e2e4 c7c5 c2c3 d7d5 e4d5 d8d5"),
    ("Sicilian closed", "e2e4 c7c5 b1c3 b8c6 g2g3 g7g6"),
    ("Sicilian Rossolimo", "e2e4 c7c5 g1f3 b8c6 f1b5 g7g6"),
    ("French Winawer", "e2e4 e7e6 d2d4 d7d5 b1c3 f8b4"),
    ("French Tarrasch", "e2e4 e7e6 d2d4 d7d5 b1d2 c7c5"),
    ("French advance", "e2e4 e7e6 d2d4 d7d5 e4e5 c7c5 c2c3"),
    ("Caro-Kann classical", "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5"),
    ("Caro-Kann advance", "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5"),
    ("Pirc", "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6"),
    ("Modern", "e2e4 g7g6 d2d4 f8g7 b1c3 d7d6"),
    ("Alekhine", "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6"),
    ("Scandinavian", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"),
    ("Queen's Gambit Accepted", "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6"),
    ("Slav", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6"),
    ("Semi-Slav", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 e7e6"),
    ("Tarrasch defence", "d2d4 d7d5 c2c4 e7e6 b1c3 c7c5"),
    ("Chigorin", "d2d4 d7d5 c2c4 b8c6"),
    ("King's Indian", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6"),
    ("Grunfeld", "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5"),
    ("Nimzo-Indian", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"),
    ("Queen's Indian", "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6"),
    ("Bogo-Indian", "d2d4 g8f6 c2c4 e7e6 g1f3 f8b4"),
    ("Catalan", "d2d4 g8f6 c2c4 e7e6 g2g3 d7d5"),
    ("Benoni", "d2d4 g8f6 c2c4 c7c5 d4d5 e7e6"),
    ("Benko", "d2d4 g8f6 c2c4 c7c5 d4d5 b7b5"),
    ("Dutch", "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6"),
    ("London", "d2d4 d7d5 c1f4 g8f6 e2e3 e7e6"),
    ("Trompowsky", "d2d4 g8f6 c1g5 e7e6"),
    ("English symmetrical", "c2c4 c7c5 b1c3 b8c6 g2g3 g7g6"),
    ("English reversed Sicilian", "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5"),
    ("Reti", "g1f3 d7d5 c2c4 e7e6 g2g3 g8f6"),
    ("King's Indian Attack", "g1f3 g8f6 g2g3 d7d5 f1g2 c7c6 e1g1"),
    ("Bird", "f2f4 d7d5 g1f3 g8f6 e2e3 g7g6"),
    ("Larsen", "b2b3 e7e5 c1b2 b8c6 e2e3 g8f6"),
    ("Sicilian Sveshnikov", "e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4 g8f6 b1c3 e7e5"),
    ("Scotch Gambit", "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f1c4 f8c5"),
]

#: The goal: at least this score over at least ``SUNFISH_MIN_GAMES`` games.
SUNFISH_GOAL = 0.65
SUNFISH_MIN_GAMES = 100
#: Plies played after the opening before a game is adjudicated on material.
SUNFISH_MAX_PLIES = 200
#: Material lead (pawns: P 1, N 3, B 3, R 5, Q 9, counted by python-chess) that wins
#: an adjudicated game; a smaller lead is a draw.
SUNFISH_ADJUDICATE = 3
#: How far over its budget a move may run before the match says so (seconds): the
#: playing search checks its clock at every node, so it overshoots by one node and the
#: answer's assembly (a principal variation read from the table).
OVER_MARGIN = 0.05
#: Resignation (to shorten the long match): a material lead of at least this many pawns,
#: held ``SUNFISH_RESIGN_PLIES`` plies in a row, wins the game for the side ahead.
SUNFISH_RESIGN = 6
SUNFISH_RESIGN_PLIES = 8
_MATERIAL = {1: 1, 2: 3, 3: 3, 4: 5, 5: 9, 6: 0}      # python-chess piece types


@dataclass(frozen=True)
class SunfishGame:
    """One game of the sunfish match, fixed before any is played."""

    number: int
    opening: str
    moves: str            # the opening, UCI
    ours_white: bool
    budget: float         # seconds a move, each side
    clock: str            # "cpu" (time.process_time) or "wall" (time.perf_counter)
    max_plies: int = SUNFISH_MAX_PLIES
    nodes: int | None = None   # a node budget for both sides instead of time (proxies)


@dataclass(frozen=True)
class SunfishResult:
    number: int
    ours_white: bool
    score: float          # the package's score
    how: str
    plies: int
    times_ours: tuple[float, ...]
    times_fish: tuple[float, ...]
    pgn_moves: str        # the whole game, UCI, for replaying it elsewhere


def sunfish_plan(games: int, budget: float, clock: str = "cpu",
                 max_plies: int = SUNFISH_MAX_PLIES, nodes: int | None = None,
                 first: int = 0) -> list[SunfishGame]:
    """Openings in order, each twice (the package white, then black), from opening
    ``first // 2``: game ``2k`` and ``2k + 1`` share an opening."""
    out = []
    for i in range(first, first + games):
        name, moves = SUNFISH_OPENINGS[(i // 2) % len(SUNFISH_OPENINGS)]
        out.append(SunfishGame(i, name, moves, i % 2 == 0, budget, clock, max_plies, nodes))
    return out


def _clock(kind: str) -> Any:
    if kind not in ("cpu", "wall"):
        raise ValueError(f"clock must be cpu or wall, got {kind!r}")
    return time.process_time if kind == "cpu" else time.perf_counter


class _SunfishPlayer:
    """sunfish driven as its own UCI loop drives it for ``go movetime``: a hard
    deadline at the budget (sunfish raises ``Stop`` inside its search), no new probe
    after two thirds of it, the move of the last completed depth on a stop.

    sunfish reads ``time.time()``; for CPU budgets its module's ``time`` is pointed
    at ``time.process_time`` (benchmark only: sunfish is GPL and never imported by
    the package)."""

    def __init__(self, clock: str, nodes: int | None) -> None:
        import types

        import sunfish
        self.sf = sunfish
        if clock == "cpu":
            sunfish.time = types.SimpleNamespace(time=time.process_time)  # type: ignore
        else:
            sunfish.time = time
        self.now = _clock(clock)
        self.nodes = nodes
        self.searcher = sunfish.Searcher()
        self.hist = [sunfish.Position(sunfish.initial, 0, (True, True), (True, True), 0, 0)]

    def push(self, uci: str) -> None:
        sf = self.sf
        i, j, prom = sf.parse(uci[:2]), sf.parse(uci[2:4]), uci[4:].upper()
        if len(self.hist) % 2 == 0:      # black to move: sunfish's board is turned
            i, j = 119 - i, 119 - j
        self.hist.append(self.hist[-1].move(sf.Move(i, j, prom)))

    def choose(self, budget: float) -> str | None:
        sf = self.sf
        searcher = self.searcher
        start = self.now()
        searcher.deadline = start + budget if self.nodes is None else 1 << 63
        searcher.soft = 1 << 63
        best = cand = None
        d0 = 1
        try:
            for depth, gamma, score, move in searcher.search(self.hist):
                if depth > d0:
                    best, d0 = cand or best, depth
                if score >= gamma and move is not None:
                    cand = move
                if self.nodes is not None:
                    if searcher.nodes >= self.nodes and (cand or best):
                        break
                elif self.now() - start > budget * 2 / 3 and (cand or best):
                    break
        except sf.Stop:
            cand = best or cand
        move = cand or best
        if move is None:
            return None
        i, j = move.i, move.j
        if len(self.hist) % 2 == 0:
            i, j = 119 - i, 119 - j
        return sf.render(i) + sf.render(j) + move.prom.lower()


class _OurPlayer:
    """The package's playing search (``PlaySearcher``), on the clock the match uses."""

    def __init__(self, clock: str, nodes: int | None) -> None:
        from tavrei_lab.engine.play import PlaySearcher
        self.game = Game("orthodox")
        self.searcher = PlaySearcher(self.game.rules, clock=_clock(clock))
        self.nodes = nodes

    def push(self, uci: str) -> None:
        self.game.push(f"{uci[:2]}-{uci[2:4]}" + (f"={uci[4:].upper()}" if uci[4:] else ""))

    def choose(self, budget: float) -> str:
        from tavrei_lab.engine.search import Limits, game_history
        game = self.game
        limits = Limits(nodes=self.nodes) if self.nodes is not None else Limits(time=budget)
        move = self.searcher.search(game.position, limits, game_history(game)).best_moves[0]
        names = game.position.geometry.names
        promo = game.position.pieces.letter(move.promotion).lower() if move.promotion else ""
        return names[move.from_square] + names[move.to_square] + promo


def play_sunfish_game(planned: SunfishGame) -> SunfishResult:
    """One game: the opening, then each side in turn, python-chess the arbiter.

    A move python-chess refuses loses the game for the side that made it (said in
    ``how``); python-chess's end (mate, stalemate, insufficient material, and the
    claimable draws: threefold repetition, fifty moves) ends it; past ``max_plies``
    plies after the opening it is adjudicated on material (``SUNFISH_ADJUDICATE``).
    """
    import chess

    board = chess.Board()
    ours, fish = _OurPlayer(planned.clock, planned.nodes), _SunfishPlayer(planned.clock,
                                                                         planned.nodes)
    for uci in planned.moves.split():
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, (planned.opening, uci)
        board.push(move)
        ours.push(uci)
        fish.push(uci)
    now = _clock(planned.clock)
    times: dict[bool, list[float]] = {True: [], False: []}
    ours_colour = chess.WHITE if planned.ours_white else chess.BLACK
    played = 0
    resign_side = behind_for = 0      # who has led by SUNFISH_RESIGN, for how many plies

    def result(white_score: float, how: str) -> SunfishResult:
        score = white_score if planned.ours_white else 1 - white_score
        return SunfishResult(planned.number, planned.ours_white, score, how, played,
                             tuple(times[True]), tuple(times[False]),
                             " ".join(m.uci() for m in board.move_stack))

    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            white = 0.5 if outcome.winner is None else 1.0 if outcome.winner else 0.0
            return result(white, outcome.termination.name.lower())
        if played >= planned.max_plies:
            lead = sum(_MATERIAL[p.piece_type] * (1 if p.color else -1)
                       for p in board.piece_map().values())
            white = 1.0 if lead >= SUNFISH_ADJUDICATE else 0.0 \
                if lead <= -SUNFISH_ADJUDICATE else 0.5
            return result(white, f"adjudicated (material {lead:+d})")
        mine = board.turn == ours_colour
        player: Any = ours if mine else fish
        started = now()
        uci = player.choose(planned.budget)
        times[mine].append(now() - started)
        move = chess.Move.from_uci(uci) if uci else None
        if move is None or move not in board.legal_moves:
            side = "the package" if mine else "sunfish"
            white = (0.0 if board.turn == chess.WHITE else 1.0)
            return result(white, f"{side} played an illegal move ({uci})")
        board.push(move)
        ours.push(uci)
        fish.push(uci)
        played += 1
        lead = sum(_MATERIAL[p.piece_type] * (1 if p.color else -1)
                   for p in board.piece_map().values())
        ahead = 1 if lead >= SUNFISH_RESIGN else -1 if lead <= -SUNFISH_RESIGN else 0
        behind_for = behind_for + 1 if ahead and ahead == resign_side else 1 if ahead else 0
        resign_side = ahead
        if behind_for >= SUNFISH_RESIGN_PLIES and not board.is_game_over():
            return result(1.0 if ahead > 0 else 0.0,
                          f"adjudicated (resigns: material {lead:+d} for "
                          f"{SUNFISH_RESIGN_PLIES} plies)")


def _sunfish_played(planned: list[SunfishGame], jobs: int) -> Iterator[SunfishResult]:
    return _in_order_or_pooled(play_sunfish_game, planned, jobs)


def time_use(times: list[float], budget: float) -> tuple[float, float]:
    """(mean share of the budget used, worst overshoot in seconds) over moves."""
    if not times:
        return 0.0, 0.0
    return sum(times) / len(times) / budget, max(t - budget for t in times)


def sunfish_match(games: int, budget: float, clock: str = "cpu", jobs: int = 1,
                  max_plies: int = SUNFISH_MAX_PLIES, nodes: int | None = None,
                  first: int = 0, out: str | None = None) -> MatchSummary:
    """The package's playing search against sunfish; prints every game and the figures.

    With ``out`` (a JSON-lines file), each game is appended as it ends, and games
    already in the file (played with the same settings) are not played again: a
    long match survives being stopped, and its figures so far are read back with
    ``sunfish_report`` (``TAVREI_STRENGTH_PART=sunfish-report``)."""
    planned = sunfish_plan(games, budget, clock, max_plies, nodes, first)
    settings = {"budget": budget, "clock": clock, "max_plies": max_plies, "nodes": nodes}
    done = {r.number: r for r in read_sunfish_results(out, settings)} if out else {}
    todo = [g for g in planned if g.number not in done]
    what = f"{nodes} nodes a move" if nodes is not None else f"{budget:g} s a move ({clock})"
    print(f"sunfish match: {games} games, {what}, {len(SUNFISH_OPENINGS)} fixed openings "
          f"x both colours (from game {first}), adjudicated after {max_plies} plies on a "
          f"material lead of {SUNFISH_ADJUDICATE}, and earlier for a lead of "
          f"{SUNFISH_RESIGN} held {SUNFISH_RESIGN_PLIES} plies; every move checked by "
          f"python-chess, {jobs} process(es)"
          + (f"; {len(planned) - len(todo)} games already in {out}" if out else ""),
          flush=True)
    results: list[SunfishResult] = [done[g.number] for g in planned if g.number in done]
    for r in _sunfish_played(todo, jobs):
        results.append(r)
        if out:
            with open(out, "a", encoding="utf-8") as f:
                f.write(json.dumps({**settings, **asdict(r),
                                    "opening": planned[r.number - first].opening}) + "\n")
        running = sum(x.score for x in results)
        print(f"  game {r.number + 1:>3} ({planned[r.number - first].opening}): package "
              f"{'white' if r.ours_white else 'black'} scores {r.score:g} ({r.how}, "
              f"{r.plies} plies; s/move {_mean(r.times_ours):.2f} vs "
              f"{_mean(r.times_fish):.2f}); running {running:g}/{len(results)}", flush=True)
    return sunfish_summary(results, budget, nodes)


def read_sunfish_results(path: str | None, settings: dict[str, Any] | None = None
                         ) -> list[SunfishResult]:
    """The games saved in a match file (those played with ``settings``, if given)."""
    if not path or not os.path.exists(path):
        return []
    names = {f.name for f in fields(SunfishResult)}
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            if settings and any(row.get(k) != v for k, v in settings.items()):
                continue
            kw = {k: row[k] for k in names}
            kw["times_ours"], kw["times_fish"] = tuple(kw["times_ours"]), tuple(kw["times_fish"])
            out.append(SunfishResult(**kw))
    return out


def sunfish_report(path: str) -> MatchSummary:
    """The figures of the games saved in ``path`` so far (a match stopped part way)."""
    results = read_sunfish_results(path)
    if not results:
        raise SystemExit(f"{path}: no games saved")
    with open(path, encoding="utf-8") as f:
        first = json.loads(f.readline())
    print(f"sunfish match file {path}: {len(results)} games, "
          f"{first['nodes'] or str(first['budget']) + ' s'} a move ({first['clock']})")
    return sunfish_summary(results, first["budget"], first["nodes"])


def sunfish_summary(results: list[SunfishResult], budget: float,
                    nodes: int | None) -> MatchSummary:
    """Score, Elo and interval, ends and time use of a sunfish match's games; printed."""
    results = sorted(results, key=lambda r: r.number)
    scores = [r.score for r in results]
    total = sum(scores)
    pct = total / len(scores) if scores else 0.0
    e, lo, hi = elo(pct, scores)
    ours_t = [t for r in results for t in r.times_ours]
    fish_t = [t for r in results for t in r.times_fish]
    m = MatchSummary(tuple(scores), total, pct, e, lo, hi,
                     sum(r.how.startswith("adjudicated") for r in results),
                     _mean(tuple(ours_t)), _mean(tuple(fish_t)))
    ends = Counter(r.how.split(" (")[0] for r in results)
    print(f"sunfish match: package {m.total:g}/{len(scores)} = {100 * pct:.1f} %, Elo "
          f"{e:+.0f} (95 % interval {lo:+.0f} .. {hi:+.0f}); "
          f"wins {scores.count(1.0)}, draws {scores.count(0.5)}, losses {scores.count(0.0)}; "
          f"ends: {dict(ends)}", flush=True)
    if nodes is None:
        use, over = time_use(ours_t, budget)
        fuse, fover = time_use(fish_t, budget)
        print(f"time use: package {100 * use:.0f} % of its budget on average, worst "
              f"{1000 * over:+.0f} ms over (margin {1000 * OVER_MARGIN:.0f} ms: "
              f"{'kept' if over <= OVER_MARGIN else 'NOT kept'}); sunfish {100 * fuse:.0f} %, "
              f"worst {1000 * fover:+.0f} ms", flush=True)
    full = len(scores) >= SUNFISH_MIN_GAMES and nodes is None and budget >= 1.0
    verdict = ("met" if pct >= SUNFISH_GOAL else "NOT met") if full else \
        "not decided by this run (a proxy)"
    print(f"goal: >= {100 * SUNFISH_GOAL:.0f} % over >= {SUNFISH_MIN_GAMES} games "
          f"at 1 s a move: {verdict}", flush=True)
    return m


def _mean(values: tuple[float, ...]) -> float:
    return sum(values) / max(len(values), 1)


def _levels(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> None:
    part = os.environ.get("TAVREI_STRENGTH_PART", "rating")
    jobs = int(os.environ.get("TAVREI_STRENGTH_JOBS", "1"))
    if part.startswith("rating"):
        from benchmarks import strength_rating
        strength_rating.main(part)
        return
    if part == "sunfish-report":
        sunfish_report(os.environ["TAVREI_SUNFISH_OUT"])
        return
    if part == "sunfish":
        env = os.environ.get
        nodes = env("TAVREI_SUNFISH_NODES")
        sunfish_match(int(env("TAVREI_SUNFISH_GAMES", str(SUNFISH_MIN_GAMES))),
                      float(env("TAVREI_SUNFISH_SECONDS", "1.0")),
                      env("TAVREI_SUNFISH_CLOCK", "cpu"), jobs,
                      int(env("TAVREI_SUNFISH_PLIES", str(SUNFISH_MAX_PLIES))),
                      int(nodes) if nodes else None, int(env("TAVREI_SUNFISH_FIRST", "0")),
                      env("TAVREI_SUNFISH_OUT"))
        return
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
