"""The player's strength, named: Elo against a fixed reference player and against Stockfish.

Run: ``python -m benchmarks strength`` (``TAVREI_STRENGTH_PART=rating``, the default;
``rating-reference`` or ``rating-stockfish`` for one half).

**Against the reference player** (``REFERENCE_PLAYER`` of ``engine.agents``: the default
playing agent at a fixed node budget, so the yardstick never moves with the machine's
load), in Tavreli and in orthodox chess: the strongest classroom level (node-capped:
``level:8`` has a 4 s time cap, and a clock under load would decide its moves) and the
lab's default players (a sweep's ``lab.sweep.DEFAULT_AGENTS`` and a tune's
``play:nodes=DEFAULT_NODES``). Openings: orthodox games start from the fixed openings
of ``bench_strength.SUNFISH_OPENINGS``, Tavreli games from ``TAVRELI_OPENING_PLIES``
seeded random plies; each opening is played twice, colours swapped.

**Against Stockfish** (orthodox chess; Debian's ``stockfish`` package, driven over UCI
by ``UciEngine`` here -- a benchmark-only yardstick like sunfish, never imported or
required by the package): ``UCI_LimitStrength`` with ``UCI_Elo`` from
``STOCKFISH_ELOS``, ``go movetime`` ``STOCKFISH_MOVETIME_MS``. Every move is checked
by the package's own orthodox rules: Stockfish's long algebraic move is looked up among
``game.legal_moves()`` (a move not there loses the game for Stockfish, said in its
line), ours come from our own search. Our level's chess Elo estimate is Stockfish's
``UCI_Elo`` plus the Elo difference the match gives, with its interval.

Ends, stated: the rules' own (mate, stalemate, repetition, fifty moves, as
``game.outcome(claim_draw=True)`` says); a side behind by ``RESIGN`` pawns on the lesson
evaluation for ``RESIGN_PLIES`` plies in a row resigns; after ``MAX_PLIES`` plies past
the opening a lead of ``ADJUDICATE`` pawns wins, less is a draw.

Statistics: the package's own -- ``compare.stats.score_interval`` (the t 95 % interval
of a mean score per game, Wilson where the games show no spread) and ``lab.tune.elo``
(the logistic Elo of a score); the Elo interval is the Elo of the score interval's ends.

Settings: ``TAVREI_RATING_GAMES`` (games a pairing, default 20), ``TAVREI_RATING_ELOS``
(``1350,1600,1900``), ``TAVREI_RATING_MOVETIME`` (ms, 100), ``TAVREI_RATING_PLAYERS``
(comma-free list separated by ``;``, default ``RATED_PLAYERS``), ``TAVREI_RATING_SF_PLAYERS``
(our players against Stockfish, default ``STOCKFISH_PLAYERS``), ``TAVREI_RATING_VARIANTS``
(``tavreli,orthodox``), ``TAVREI_STRENGTH_JOBS`` (worker processes), ``TAVREI_STOCKFISH``
(the engine's path).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from tavrei_lab import Game
from tavrei_lab.core.move import Move
from tavrei_lab.engine.agents import REFERENCE_PLAYER, make_agent
from tavrei_lab.engine.evaluate import evaluate
from tavrei_lab.lab.statistics import score_interval
from tavrei_lab.lab.sweep import DEFAULT_AGENTS
from tavrei_lab.lab.tune import DEFAULT_NODES, elo

from .bench_strength import SUNFISH_OPENINGS

#: The strongest classroom level, node-capped (its 4 s cap is about 120000 nodes on one
#: free core, compiled), and the lab's default players: a sweep's and a tune's.
STRONGEST_LEVEL = "level:8,nodes=5000"
RATED_PLAYERS: tuple[str, ...] = (STRONGEST_LEVEL, DEFAULT_AGENTS, f"play:nodes={DEFAULT_NODES}")
#: Our players against Stockfish: the strongest level and the weakest, node-capped.
STOCKFISH_PLAYERS: tuple[str, ...] = (STRONGEST_LEVEL, "level:1,nodes=20000")
STOCKFISH_ELOS: tuple[int, ...] = (1350, 1600, 1900)
STOCKFISH_MOVETIME_MS = 100
STOCKFISH_PATHS = ("/usr/games/stockfish", "stockfish")
TAVRELI_OPENING_PLIES = 4
MAX_PLIES = 160
ADJUDICATE = 3.0
RESIGN = 6.0
RESIGN_PLIES = 8


class StockfishMissing(RuntimeError):
    """No Stockfish binary: the Stockfish half of the benchmark cannot run."""


def stockfish_path() -> str | None:
    """Where Stockfish is, or None: ``TAVREI_STOCKFISH`` alone when set (pointing it at a
    missing file shows what a machine without Stockfish does), else Debian's
    ``/usr/games`` or the PATH."""
    chosen = os.environ.get("TAVREI_STOCKFISH")
    for name in (chosen,) if chosen else STOCKFISH_PATHS:
        if found := shutil.which(name):
            return found
    return None


class UciEngine:
    """A UCI engine in a child process: the few commands a match needs, nothing more.

    Every answer is read until the line the protocol promises (``uciok``,
    ``readyok``, ``bestmove``); an engine that exits or says nothing else ends the
    read with an error naming what was awaited, rather than hanging the match."""

    def __init__(self, path: str | None = None, options: dict[str, Any] | None = None) -> None:
        found = path or stockfish_path()
        if found is None:
            raise StockfishMissing("stockfish not found (apt-get install stockfish, or set "
                                   "TAVREI_STOCKFISH)")
        self.proc = subprocess.Popen([found], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.id_name = ""
        self.send("uci")
        for line in self._until("uciok"):
            if line.startswith("id name "):
                self.id_name = line[len("id name "):]
        for name, value in (options or {}).items():
            text = str(value).lower() if isinstance(value, bool) else str(value)
            self.send(f"setoption name {name} value {text}")
        self.ready()

    def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def _until(self, token: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"UCI engine ended while awaiting {token!r}")
            line = line.strip()
            lines.append(line)
            if line.split(" ", 1)[0] == token:
                return lines

    def ready(self) -> None:
        self.send("isready")
        self._until("readyok")

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.ready()

    def best_move(self, moves: Sequence[str], go: str) -> str:
        """Its move (long algebraic, ``e7e8q``) after ``moves`` from the start; ``go`` is
        the search's limit (``movetime 100``, ``nodes 5000``)."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go {go}")
        return self._until("bestmove")[-1].split()[1]

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def uci_text(game: Game, move: Move) -> str:
    """A move of ``game``'s position in UCI long algebraic (``e2e4``, ``e7e8q``)."""
    names = game.position.geometry.names
    promo = game.position.pieces.letter(move.promotion).lower() if move.promotion else ""
    return names[move.from_square] + names[move.to_square] + promo


def move_from_uci(game: Game, text: str) -> Move | None:
    """The legal move (by the package's own rules) that ``text`` names, or None."""
    for move in game.legal_moves():
        if uci_text(game, move) == text:
            return move
    return None


class Player(Protocol):
    def choose(self, game: Game, moves: Sequence[str]) -> Move | None: ...


class AgentPlayer:
    """One of the package's agents (``make_agent(spec, seed)``)."""

    def __init__(self, spec: str, seed: int) -> None:
        self.agent = make_agent(spec, seed=seed)

    def choose(self, game: Game, moves: Sequence[str]) -> Move | None:
        return self.agent.choose(game)


class StockfishPlayer:
    """Stockfish at a set strength; its move parsed into ours (None if our rules refuse it)."""

    def __init__(self, engine: UciEngine, go: str) -> None:
        self.engine, self.go = engine, go

    def choose(self, game: Game, moves: Sequence[str]) -> Move | None:
        self.last = self.engine.best_move(moves, self.go)
        return move_from_uci(game, self.last)


@dataclass(frozen=True)
class RatedGame:
    """One game of a rating match, fixed before it is played."""

    number: int
    variant: str
    player: str              # our agent's spec
    opponent: str            # an agent spec, or "stockfish:ELO"
    opening: tuple[str, ...]
    player_white: bool
    seed: int
    movetime_ms: int = STOCKFISH_MOVETIME_MS
    max_plies: int = MAX_PLIES


@dataclass(frozen=True)
class RatedResult:
    number: int
    player_white: bool
    score: float             # the player's
    how: str
    plies: int
    moves: str               # the whole game, in the package's move texts


def tavreli_opening(k: int, plies: int = TAVRELI_OPENING_PLIES) -> tuple[str, ...]:
    """Opening ``k``: ``plies`` seeded random plies from the Tavreli start, as the package's
    move texts (a from-to pair does not name a Tavreli move: a tower moves whole or split)."""
    rng = random.Random(f"tavreli-opening-{k}")
    game = Game("tavreli")
    texts = []
    for _ply in range(plies):
        move = rng.choice(list(game.legal_moves()))
        texts.append(game.move_text(move))
        game.push(move)
    return tuple(texts)


def rating_plan(variant: str, player: str, opponent: str, games: int, seed: int = 0,
                movetime_ms: int = STOCKFISH_MOVETIME_MS,
                max_plies: int = MAX_PLIES) -> list[RatedGame]:
    """Openings in order, each twice (the player white, then black)."""
    planned = []
    for i in range(games):
        k = i // 2
        opening = (tuple(SUNFISH_OPENINGS[k % len(SUNFISH_OPENINGS)][1].split())
                   if variant == "orthodox" else tavreli_opening(k))
        planned.append(RatedGame(i, variant, player, opponent, opening, i % 2 == 0,
                                 seed + i, movetime_ms, max_plies))
    return planned


def _lead_for_white(game: Game) -> float:
    value = evaluate(game.position)
    return value if game.position.turn == 0 else -value


def play_rated_game(planned: RatedGame, stockfish: str | None = None) -> RatedResult:
    """Play one planned game (in this process or a worker: the plan decides it, up to
    Stockfish's own randomness at a limited strength)."""
    game = Game(planned.variant, seed=planned.seed)
    moves: list[str] = []          # UCI, what Stockfish is told
    record: list[str] = []         # the package's own move texts
    for text in planned.opening:
        move = move_from_uci(game, text) if planned.variant == "orthodox" \
            else game.parse_move(text)
        assert move is not None, (planned.opening, text)
        _push(game, move, moves, record)
    ours = AgentPlayer(planned.player, seed=planned.seed)
    engine = None
    other: Player
    if planned.opponent.startswith("stockfish:"):
        engine = UciEngine(stockfish, {"Threads": 1, "Hash": 16, "UCI_LimitStrength": True,
                                       "UCI_Elo": int(planned.opponent.split(":")[1])})
        engine.new_game()
        other = StockfishPlayer(engine, f"movetime {planned.movetime_ms}")
    else:
        other = AgentPlayer(planned.opponent, seed=planned.seed + 10_000)
    try:
        white_score, how = _play_on(game, moves, record, (ours, other)
                                    if planned.player_white else (other, ours),
                                    planned.max_plies)
    finally:
        if engine is not None:
            engine.close()
    score = white_score if planned.player_white else 1.0 - white_score
    return RatedResult(planned.number, planned.player_white, score, how,
                       len(record) - len(planned.opening), " ".join(record))


def _push(game: Game, move: Move, moves: list[str], record: list[str]) -> None:
    """Play ``move``, writing it down both ways: UCI (for Stockfish) and our own text."""
    moves.append(uci_text(game, move))
    record.append(game.move_text(move))
    game.push(move)


def _play_on(game: Game, moves: list[str], record: list[str],
             players: tuple[Player, Player], max_plies: int) -> tuple[float, str]:
    """White's score and how the game ended (see the module's docstring)."""
    start, behind_side, behind_for = len(moves), 0, 0
    while True:
        outcome = game.outcome(claim_draw=True)
        if outcome is not None:
            return (0.5 if outcome.winner is None else 1.0 - outcome.winner,
                    str(outcome.termination))
        lead = _lead_for_white(game)
        side = 1 if lead >= RESIGN else -1 if lead <= -RESIGN else 0
        behind_for = behind_for + 1 if side and side == behind_side else 1 if side else 0
        behind_side = side
        if behind_for >= RESIGN_PLIES:
            return (1.0 if side > 0 else 0.0), f"resigned ({lead:+.1f} for {RESIGN_PLIES} plies)"
        if len(moves) - start >= max_plies:
            return (1.0 if lead > ADJUDICATE else 0.0 if lead < -ADJUDICATE else 0.5,
                    f"adjudicated at the cap ({lead:+.1f})")
        player = players[game.position.turn]
        move = player.choose(game, moves)
        if move is None:
            said = getattr(player, "last", "?")
            return (0.0 if game.position.turn == 0 else 1.0,
                    f"illegal move by the package's rules ({said})")
        _push(game, move, moves, record)


@dataclass(frozen=True)
class Rating:
    """A pairing's figures: counts, score with its interval, Elo difference with its."""

    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float
    elo: float
    elo_low: float
    elo_high: float


def rating(scores: Sequence[float]) -> Rating:
    """Score and Elo difference, each with its 95 % interval, by the package's statistics."""
    w, d, lo_ = scores.count(1.0), scores.count(0.5), scores.count(0.0)
    s, low, high = score_interval(w, d, lo_)
    low = 0.0 if low is None else low
    high = 1.0 if high is None else high
    return Rating(w, d, lo_, s, low, high, elo(s), elo(low), elo(high))


def rated_match(variant: str, player: str, opponent: str, games: int, jobs: int = 1,
                seed: int = 0, movetime_ms: int = STOCKFISH_MOVETIME_MS,
                max_plies: int = MAX_PLIES) -> Rating:
    """Play a pairing, print each game as it ends and the figures; return them."""
    planned = rating_plan(variant, player, opponent, games, seed, movetime_ms, max_plies)
    results: list[RatedResult] = []
    with ProcessPoolExecutor(max_workers=max(jobs, 1)) as pool:
        for r in pool.map(play_rated_game, planned):
            results.append(r)
            print(f"  {variant} {player} vs {opponent} game {r.number + 1}: "
                  f"{'white' if r.player_white else 'black'} scores {r.score:g} ({r.how}, "
                  f"{r.plies} plies)", flush=True)
    rt = rating([r.score for r in results])
    print(f"{variant}: {player} vs {opponent}: {rt.wins}/{rt.draws}/{rt.losses} (w/d/l), "
          f"score {rt.score:.3f} [{rt.low:.3f}, {rt.high:.3f}], "
          f"Elo {rt.elo:+.0f} [{rt.elo_low:+.0f}, {rt.elo_high:+.0f}]", flush=True)
    if opponent.startswith("stockfish:"):
        base = int(opponent.split(":")[1])
        # a clean sweep has no point estimate (the logistic runs off to infinity): its
        # interval's inner end is all the match says
        about = (f"below {base + rt.elo_high:.0f}" if rt.score == 0.0 else
                 f"above {base + rt.elo_low:.0f}" if rt.score == 1.0 else
                 f"about {base + rt.elo:.0f} [{base + rt.elo_low:.0f}, "
                 f"{base + rt.elo_high:.0f}]")
        print(f"  => {player} chess Elo {about} ({games} games vs Stockfish UCI_Elo {base}, "
              f"{movetime_ms} ms a move)", flush=True)
    return rt


def main(part: str = "rating") -> None:
    env = os.environ.get
    games = int(env("TAVREI_RATING_GAMES", "20"))
    jobs = int(env("TAVREI_STRENGTH_JOBS", "1"))
    if part in ("rating", "rating-reference"):
        players = env("TAVREI_RATING_PLAYERS")
        print(f"reference player: {REFERENCE_PLAYER}; {games} games a pairing, "
              f"{jobs} process(es)", flush=True)
        for variant in env("TAVREI_RATING_VARIANTS", "tavreli,orthodox").split(","):
            for player in players.split(";") if players else RATED_PLAYERS:
                rated_match(variant, player, REFERENCE_PLAYER, games, jobs)
    if part in ("rating", "rating-stockfish"):
        path = stockfish_path()
        if path is None:
            print("Stockfish: not installed (apt-get install stockfish): not measured")
            return
        movetime = int(env("TAVREI_RATING_MOVETIME", str(STOCKFISH_MOVETIME_MS)))
        elos = [int(x) for x in env("TAVREI_RATING_ELOS", "").split(",") if x] \
            or list(STOCKFISH_ELOS)
        players = env("TAVREI_RATING_SF_PLAYERS")
        with UciEngine(path) as probe:
            print(f"Stockfish: {probe.id_name} ({path}), UCI_Elo {elos}, {movetime} ms a move, "
                  f"{games} games a pairing", flush=True)
        for player in players.split(";") if players else STOCKFISH_PLAYERS:
            for level_elo in elos:
                rated_match("orthodox", player, f"stockfish:{level_elo}", games, jobs,
                            movetime_ms=movetime)
