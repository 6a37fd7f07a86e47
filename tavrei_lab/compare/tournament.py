"""Self-play tournaments: N games for each (variant, agent pair), kept and replayable.

The experiment a teacher runs is "change one rule, play many games, see
what changes". So a tournament:

- plays ``games`` games for every variant and every pair of agents, the
  colours alternating (agent A has white in the even games), so that the
  first-move advantage and the agents' strength do not mix;
- seeds everything from one number: each game's seed is derived from the
  tournament seed, the variant, the pair and the game's number (a stable
  hash, the same on every machine and in every process), the die and each
  agent are seeded from it, and the seed is written into the record;
- ends each game by the one adjudication policy (``engine.selfplay``,
  docs/adjudication.md): by the rules (checkmate, stalemate, king capture, and
  the automatic repetition and fifty-move draws of docs/rules.md A9.4), or at
  ``max_plies`` -- an **adjudication**, scored as a draw and reported as the
  termination ``max-plies``, never hidden among the real draws;
- keeps every game as a record (``Game.from_record`` replays it) and its
  per-game statistics.

Games are independent, so they run through any executor
(``compare.parallel``); results are put back in game order, so a seeded
tournament gives the same results whichever executor ran it.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
import os
import time
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor, Executor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavrei_lab.compare.parallel import Progress, resolve_executor
from tavrei_lab.compare.plots import tournament_plots
from tavrei_lab.compare.results import ADJUDICATED as ADJUDICATED  # its old path
from tavrei_lab.compare.results import GameResult
from tavrei_lab.compare.shipping import VariantParcel, probe
from tavrei_lab.compare.stats import GameStats
from tavrei_lab.compare.table import games_table, pairs_table, variants_table
from tavrei_lab.core.files import swapped_in, write_atomically
from tavrei_lab.core.move import Move
from tavrei_lab.engine.agents import make_agent, split_specs

# the default adjudication limit, written in engine.selfplay and importable from here
from tavrei_lab.engine.selfplay import DEFAULT_MAX_PLIES as DEFAULT_MAX_PLIES
from tavrei_lab.engine.selfplay import GameLimits, Watch, play_out
from tavrei_lab.errors import LimitError, TavreiError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.notation.record import MAX_GAME_PLIES
from tavrei_lab.rules.base import RuleModule
from tavrei_lab.variant import check_distinct_rules, load_variant

#: Most games one tournament plays (all variants and agent pairs together): about a day
#: of play on a laptop, and a schedule of a few megabytes.
MAX_TOURNAMENT_GAMES = 100_000
#: What ``TournamentResult.save`` writes in its folder, in the order a run is put in
#: place (``settings.json`` last: its presence says the run is whole).
SAVED_ENTRIES = ("records", "plots", "variants.csv", "variants.json", "pairs.csv",
                 "pairs.json", "games.csv", "games.json", "settings.json")


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
    """Play one game of a variant sent along as a parcel (see ``compare.shipping``):
    what a worker that was not forked from this process runs."""
    return play_game(spec, rules=parcel.build())


def _check_inputs(variants: Sequence[str], agents: Sequence[str]) -> dict[str, Any]:
    """Fail before any game starts: every variant loads and every agent spec parses.
    Returns each variant's rule module."""
    if not variants:
        raise TavreiError(_("a tournament needs at least one variant"))
    rules = {v: load_variant(v) for v in variants}
    check_distinct_rules(list(rules.items()), _("variant"))
    for a in agents:
        make_agent(a, seed=0)
    return rules


def tournament(variants: Sequence[str] | str, agents: Sequence[str] | str,
               games: int = 10, seed: int = 0, *, max_plies: int = DEFAULT_MAX_PLIES,
               executor: Executor | str | Any = None, workers: int | None = None,
               progress: bool | str = True) -> TournamentResult:
    """Play every variant with every pair of agents, ``games`` games each.

    ``variants`` and ``agents`` are lists (or comma-separated text) of variant
    ids / files and agent specs (``"random"``, ``"greedy"``, ``"alphabeta:2"``,
    ...). ``executor`` is ``"processes"`` (default), ``"threads"``,
    ``"inline"``, any ``concurrent.futures.Executor`` or a ``distributed.Client``
    (see ``compare.parallel``). ``progress``: True (automatic), False, or a mode.

    >>> res = tournament("orthodox", "greedy,random", games=2, seed=1, max_plies=6,
    ...                  executor="inline", progress=False)
    >>> [(g.white, g.black, g.termination) for g in res.games]
    [('greedy', 'random', 'max-plies'), ('random', 'greedy', 'max-plies')]
    """
    variants = _split(variants)
    agents = split_specs(agents)
    rules = _check_inputs(variants, agents)
    specs = schedule(variants, agents, games, seed, max_plies)
    pool, owned = resolve_executor(executor, workers)
    parcels = {v: VariantParcel.of(r, pool) for v, r in rules.items()}
    mode = None if progress is True else "off" if progress is False else progress
    results: list[GameResult | None] = [None] * len(specs)
    started = time.perf_counter()
    bar = None
    try:
        probe(pool, parcels)        # every variant reaches the workers, or nothing is played
        bar = Progress(len(specs), _("games"), mode=mode)
        futures = {pool.submit(play_shipped, spec, parcels[spec.variant]): i
                   for i, spec in enumerate(specs)}
        for future in as_completed(futures):
            i = futures[future]
            try:
                results[i] = future.result()
            except BrokenExecutor:   # a worker died: play it here instead
                results[i] = play_shipped(specs[i], parcels[specs[i].variant])
            bar.update()
    finally:
        if bar is not None:
            bar.close()
        if owned:
            pool.shutdown(wait=True, cancel_futures=True)
    return TournamentResult([r for r in results if r is not None],
                            dict(variants=variants, agents=agents, games=games, seed=seed,
                                 max_plies=max_plies,
                                 executor=executor if isinstance(executor, str) or executor
                                 is None else type(executor).__name__),
                            time.perf_counter() - started)


def _split(items: Sequence[str] | str) -> list[str]:
    if isinstance(items, str):
        items = items.split(",")
    return [s.strip() for s in items if s and s.strip()]


class TournamentResult:
    """The games of a tournament and the tables and plots made from them.

    In Jupyter it shows the per-variant table, the per-pair table and the
    plots. ``save(dir)`` writes everything (records, CSV, JSON, SVG).
    """

    def __init__(self, games: list[GameResult], settings: dict[str, Any],
                 seconds: float = 0.0) -> None:
        self.games = games
        self.settings = settings
        self.seconds = seconds

    def variants_table(self) -> Any:
        return variants_table(self.games)

    def pairs_table(self) -> Any:
        return pairs_table(self.games)

    def games_table(self) -> Any:
        return games_table(self.games)

    @property
    def table(self) -> Any:
        """The main result: one row per variant."""
        return self.variants_table()

    def plots(self) -> dict[str, Any]:
        return tournament_plots(self.games)

    def comparable(self) -> list[dict[str, Any]]:
        """The results without timings: equal for two runs of the same seeded tournament."""
        return [g.comparable() for g in self.games]

    def save(self, directory: str | os.PathLike[str]) -> dict[str, list[Path]]:
        """Write records, tables (CSV + JSON) and plots (SVG) under ``directory``,
        in place of what an earlier ``save`` wrote there.

        Saving a 2-game run over a 4-game one must not leave the first run's records
        003 and 004 beside the new games table, which lists two. So the run is
        written whole into a hidden folder inside ``directory`` and swapped in
        (``core.files.swapped_in``): the folder holds one run's output, a
        failure while writing leaves the earlier run as it was, and the user's own
        files beside them are left alone. Only what an earlier ``save`` wrote, as
        its manifest lists it, is replaced: a file of the user's under one of these
        names (``settings.json``, a game in ``records/``) is refused
        (``core.files.NotOursError``), never deleted.
        """
        out = Path(directory)
        with swapped_in(out, SAVED_ENTRIES) as part:
            written = self._write(part)
        return {kind: [out / path.relative_to(part) for path in paths]
                for kind, paths in written.items()}

    def _write(self, out: Path) -> dict[str, list[Path]]:
        written: dict[str, list[Path]] = {"records": [], "tables": [], "plots": []}
        records = out / "records"
        records.mkdir()
        # one file-name stem per variant as given: "orthodox" and "var2/orthodox.toml"
        # share a stem, and one's records must not overwrite the other's
        stems: dict[str, str] = {}
        for variant in dict.fromkeys(g.variant for g in self.games):
            stem, n = _slug(variant), 1
            while stem in stems.values():
                n += 1
                stem = f"{_slug(variant)}-{n}"
            stems[variant] = stem
        for g in self.games:
            name = (f"{stems[g.variant]}__{_slug(g.agent_a)}-vs-{_slug(g.agent_b)}"
                    f"__{g.index + 1:03d}.tvr")
            path = records / name
            write_atomically(path, g.record)
            written["records"].append(path)
        for name, table in (("variants", self.variants_table()), ("pairs", self.pairs_table()),
                            ("games", self.games_table())):
            for ext, text in (("csv", table.to_csv()), ("json", table.to_json())):
                path = out / f"{name}.{ext}"
                write_atomically(path, text)
                written["tables"].append(path)
        plots = out / "plots"
        plots.mkdir()
        for name, plot in self.plots().items():
            path = plots / f"{name}.svg"
            write_atomically(path, plot.svg)
            written["plots"].append(path)
        write_atomically(out / "settings.json", json.dumps(
            {**self.settings, "seconds": round(self.seconds, 3)}, indent=2))
        return written

    def _repr_html_(self) -> str:
        heading = _("Tournament: {games} games, seed {seed} ({seconds:.1f} s)").format(
            games=len(self.games), seed=self.settings.get("seed"), seconds=self.seconds)
        parts = [f"<h4>{html.escape(heading)}</h4>",
                 self.variants_table()._repr_html_(), self.pairs_table()._repr_html_()]
        parts += [p.svg for p in self.plots().values()]
        return "\n".join(parts)

    def __repr__(self) -> str:
        return (f"<TournamentResult {len(self.games)} games, variants "
                f"{self.settings.get('variants')}, agents {self.settings.get('agents')}>")

    def __str__(self) -> str:
        return f"{self.variants_table()}\n\n{self.pairs_table()}"


def _slug(text: str) -> str:
    """A file-name-safe form of a variant id or agent spec ("alphabeta:2" -> "alphabeta-2")."""
    if text.endswith(".toml"):
        text = Path(text).stem
    return "".join(c if c.isalnum() or c in "-." else "-" for c in text).strip("-") or "x"
