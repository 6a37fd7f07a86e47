"""The runner: one game of an experiment played from its spec, and a tournament's games
scheduled, each with its own seed.

Every experiment of the lab -- a tournament, a sweep's cells, a tune's games, a
capped game played on -- plays its games here:

- ``schedule`` lists the games of every variant and every pair of agents, the
  colours alternating (agent A has white in the even games), so that the
  first-move advantage and the agents' strength do not mix;
- each game's seed is derived from the experiment's seed, the variant, the pair and
  the game's number (``derive_seed``: a stable hash, the same on every machine and
  in every process); the die and each agent are seeded from it, and the seed is
  written into the record;
- ``play_game`` ends each game by the one adjudication policy (``engine.selfplay``,
  docs/adjudication.md): by the rules (checkmate, stalemate, king capture, and the
  automatic repetition and fifty-move draws of docs/rules.md A9.4), or at
  ``max_plies`` -- an **adjudication**, scored as a draw and reported as the
  termination ``max-plies``, never hidden among the real draws -- and keeps the game
  as a record (``Game.from_record`` replays it) with its per-game statistics.

Games are independent, so they run through any executor (``lab.parallel``); results
are put back in game order, so a seeded experiment gives the same results whichever
executor ran it.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.engine.agents import make_agent

# the default adjudication limit, written in engine.selfplay and importable from here
from tavrei_lab.engine.selfplay import DEFAULT_MAX_PLIES as DEFAULT_MAX_PLIES
from tavrei_lab.engine.selfplay import GameLimits, Watch, play_out
from tavrei_lab.errors import LimitError, TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.game_stats import GameStats
from tavrei_lab.lab.results import GameResult
from tavrei_lab.lab.shipping import VariantParcel
from tavrei_lab.notation.record import MAX_GAME_PLIES
from tavrei_lab.rules.base import RuleModule

#: Most games one tournament plays (all variants and agent pairs together): about a day
#: of play on a laptop, and a schedule of a few megabytes.
MAX_TOURNAMENT_GAMES = 100_000


def derive_seed(*parts: Any) -> int:
    """A 31-bit seed from any parts, stable across runs, processes and machines.

    >>> derive_seed(1, "tavreli", 0) == derive_seed(1, "tavreli", 0)
    True
    """
    text = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 33


@dataclass(frozen=True)
class GameSpec:
    """Everything needed to play one game, and nothing that cannot be pickled."""

    variant: str
    white: str
    black: str
    seed: int
    index: int = 0
    agent_a: str = ""
    agent_b: str = ""
    max_plies: int = DEFAULT_MAX_PLIES


class _TournamentWatch(Watch):
    """The tournament's statistics, and the caller's watch told of each decision and
    move (never of rolls: ``play_game``'s ``watch`` promises the two it always had)."""

    def __init__(self, stats: GameStats, watch: Any) -> None:
        self.stats = stats
        self.watch = watch

    def decision(self, game: Game, moves: Sequence[Move]) -> None:
        self.stats.record_decision(len(moves))
        if self.watch is not None:
            self.watch.decision(game, moves)

    def moved(self, game: Game, before: Any, move: Move) -> None:
        self.stats.record_move(before, move, game.position)
        if self.watch is not None:
            self.watch.moved(game, before, move)

    def rolled(self, game: Game, before: Any, face: str) -> None:
        self.stats.rolls += 1


class _PlayedOn:
    """A side that first plays the moves a stored game made, then its agent's own: the
    game is played on from where the stored one stopped, identical up to there."""

    def __init__(self, moves: Sequence[Move], agent: Any) -> None:
        self.moves = moves
        self.agent = agent

    def choose(self, game: Game) -> Move:
        if game.ply < len(self.moves):
            return self.moves[game.ply]
        return self.agent.choose(game)


def play_game(spec: GameSpec, rules: RuleModule | None = None, watch: Any = None, *,
              moves: Sequence[Move] = ()) -> GameResult:
    """Play one game (a top-level function, so a process pool can run it).

    ``rules``: a rule module to play instead of loading ``spec.variant`` (the
    variant lab passes a variant built with other options). ``watch``: an
    object told about each decision (``decision(game, moves)``) and each move
    (``moved(game, before, move)``), so a caller can measure more than
    ``GameStats`` does without a second game loop. The game is played by
    ``engine.selfplay.play_out`` under the one adjudication policy
    (docs/adjudication.md). ``moves``: a stored game's moves, played first (its die
    rolls come again from the same seed), so the game goes on from where that one
    stopped (``lab.continuation``: a capped game played on to a larger cap).
    """
    started = time.perf_counter()
    game = Game(rules if rules is not None else spec.variant, seed=spec.seed)
    agents: tuple[Any, Any] = (make_agent(spec.white, seed=derive_seed(spec.seed, "white")),
                               make_agent(spec.black, seed=derive_seed(spec.seed, "black")))
    if moves:
        agents = (_PlayedOn(moves, agents[0]), _PlayedOn(moves, agents[1]))
    stats = GameStats()
    end = play_out(game, agents, GameLimits(max_plies=spec.max_plies),
                   _TournamentWatch(stats, watch))
    winner = None if end.winner is None else ("white", "black")[end.winner]
    record = game.record(Event="tavrei-lab compare", Round=str(spec.index + 1),
                         White=spec.white, Black=spec.black, **end.tags())
    return GameResult(
        variant=spec.variant, white=spec.white, black=spec.black, seed=spec.seed,
        index=spec.index, agent_a=spec.agent_a or spec.white,
        agent_b=spec.agent_b or spec.black, result=end.result, winner=winner,
        termination=end.reason, adjudicated=end.adjudicated, plies=game.ply,
        mean_branching=stats.mean_branching, mean_tower_height=stats.mean_tower_height,
        max_tower_height=stats.max_tower_height, prisoners_taken=stats.prisoners_taken,
        prisoners_freed=stats.prisoners_freed, captures=stats.captures, splits=stats.splits,
        rolls=stats.rolls, seconds=time.perf_counter() - started, record=record)


def agent_pairs(agents: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of different agents (A, B), in the order given; one agent plays itself."""
    if not agents:
        raise TavreiError(_("a tournament needs at least one agent"))
    if len(agents) == 1:
        return [(agents[0], agents[0])]
    return list(itertools.combinations(agents, 2))


def schedule(variants: Sequence[str], agents: Sequence[str], games: int, seed: int,
             max_plies: int = DEFAULT_MAX_PLIES) -> list[GameSpec]:
    """The games of a tournament, each with its derived seed and colours."""
    if games < 1:
        raise TavreiError(_("games must be 1 or more, got {games}").format(games=games))
    if not 1 <= max_plies <= MAX_GAME_PLIES:
        raise LimitError(_("max_plies must be 1..{max_game_plies}, got {max_plies}")
                             .format(max_game_plies=MAX_GAME_PLIES, max_plies=max_plies))
    n = len(agents)
    pairs = 1 if n == 1 else n * (n - 1) // 2     # counted, not listed: 10,000 agents...
    total = len(variants) * pairs * games
    if total > MAX_TOURNAMENT_GAMES:    # refused before a schedule is built
        raise LimitError(_("{total} games asked for ({count} variants x {pairs} agent pairs x "
                           "{games}); the limit is {max_tournament_games}")
                             .format(total=total, count=len(variants), pairs=pairs, games=games,
                                     max_tournament_games=MAX_TOURNAMENT_GAMES))
    specs = []
    for variant in variants:
        for a, b in agent_pairs(agents):
            for i in range(games):
                white, black = (a, b) if i % 2 == 0 else (b, a)
                specs.append(GameSpec(variant, white, black,
                                      derive_seed(seed, variant, a, b, i), i, a, b,
                                      max_plies))
    return specs


def play_shipped(spec: GameSpec, parcel: VariantParcel) -> GameResult:
    """Play one game of a variant sent along as a parcel (see ``lab.shipping``):
    what a worker that was not forked from this process runs."""
    return play_game(spec, rules=parcel.build())




__all__ = ["DEFAULT_MAX_PLIES", "GameSpec", "MAX_TOURNAMENT_GAMES", "agent_pairs", "derive_seed",
           "play_game", "play_shipped", "schedule"]
