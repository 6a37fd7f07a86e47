"""A sweep: play every cell of a grid of rule options, measure, store, resume.

The method is Tomašev et al.'s (2020): change one rule at a time, play many
games with the same agents under each rule set, and compare what the games
look like (see ``lab.measures``). ``sweep`` does the bookkeeping:

1. builds every cell and checks every agent before any game (``lab.cells``);
2. packs each cell's variant to travel to the workers and has the workers
   build it once (``lab.shipping.probe``): a variant that cannot reach
   them stops the run here, saying why, with nothing played;
3. asks the store which games are already there and plays only the others
   (so running the same sweep again resumes it);
4. writes each game to the store the moment it finishes (one transaction);
5. with ``tune``, fits the playing evaluation's weights to each cell first
   (``lab.tune``, on the sweep's executor) and keeps them in the store, keyed by
   the cell's variant hash and the tune's settings: a rerun finds them and does
   not tune again; agents ``play:nodes=K,weights=fit`` then play each cell with
   its own fit (the weights travel with every game to the workers);
6. with ``stop_width``, plays in batches and stops a cell once the 95 %
   interval of white's score (Student's t on per-game scores 1, 1/2, 0, as the
   table shows it) is narrower than ``stop_width`` (or the budget, ``games``, is
   spent); where the games all gave one score, Wilson's interval on points stands
   in (conservative for any score in [0, 1]), so a cell of draws can stop too.

Every game's seed is derived from the sweep seed, the cell, the agents and
the game number, and the batch boundaries do not depend on the executor:
the same sweep gives the same games inline, in processes and on a dask
cluster.

A note on stopping early: looking at the interval after every batch and
stopping when it is narrow enough makes the final interval a little too
optimistic (the "optional stopping" problem); with batches of 20 or more and
a handful of looks the effect is small, but say so when you report.
"""

from __future__ import annotations

import html
import math
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    BrokenExecutor,
    CancelledError,
    Executor,
    Future,
    wait,
)
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavrei_lab.core.files import swapped_in, write_atomically
from tavrei_lab.engine.agents import FIT, REFERENCE_PLAYER, PlayAgent, make_agent, split_specs
from tavrei_lab.engine.weights import (
    Weights,
    using_fit,
    variant_hash,
)
from tavrei_lab.errors import LimitError, TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.lab.cell_fit import TUNE_KEYS, cell_fit, tune_settings
from tavrei_lab.lab.cells import Cell, build_cells, count_cells
from tavrei_lab.lab.measures import OPENING_PLIES, SAMPLE_EVERY, SAMPLE_FROM, GameWatch
from tavrei_lab.lab.parallel import Progress, resolve_executor
from tavrei_lab.lab.plots import sweep_plots
from tavrei_lab.lab.runner import (
    DEFAULT_MAX_PLIES,
    MAX_TOURNAMENT_GAMES,
    GameResult,
    GameSpec,
    agent_pairs,
    derive_seed,
    play_game,
)
from tavrei_lab.lab.shipping import VariantParcel, probe
from tavrei_lab.lab.statistics import score_interval
from tavrei_lab.lab.store import (
    ResultsStore,
    StoredGame,
    open_store,
    verification,
)
from tavrei_lab.lab.strength import (
    STRENGTH_PURPOSE,
    Strength,
    check_strength_games,
    not_measured_text,
    strength_of,
    with_strengths,
)
from tavrei_lab.lab.table import ResultsTable, established_summary
from tavrei_lab.notation.record import MAX_GAME_PLIES
from tavrei_lab.variant import check_distinct_rules, load_variant

#: Games per cell between two looks at the interval when stopping early.
DEFAULT_BATCH = 20
#: The agents a sweep uses when none are given: the weakest classroom level, fast (a
#: fraction of a second a game), with a node cap instead of its time cap, so no clock
#: decides a move: a time cap that "never bites" did bite under load (1 game in 100
#: differed). ``level:3,nodes=20000`` plays far better, ~9 s a game (3 tavreli
#: games: 27 s on one core, time-capped).
DEFAULT_AGENTS = "level:1,nodes=20000"


@dataclass(frozen=True)
class LabTask:
    """One game to play on a worker: the spec, the variant parcel, what to measure,
    and the weights ``weights=fit`` means in this cell (variant hash, weights).

    ``verify_key`` (the store's ``verify_key``), with ``variant`` and ``options`` as the
    store names the cell, asks the worker to replay the game it played as the store
    would and hand back a ``verification`` (see "Where the replay runs" in ``lab.store_rows``),
    so the one process writing the store does not replay every game itself.
    """

    spec: GameSpec
    parcel: VariantParcel
    opening_plies: int = OPENING_PLIES
    sample_from: int = SAMPLE_FROM
    sample_every: int = SAMPLE_EVERY
    fit: tuple[str, tuple[tuple[str, float], ...]] | None = None
    verify_key: bytes | None = None
    variant: str = ""
    options: Mapping[str, Any] | None = None


class LabGame(tuple[GameResult, dict[str, Any]]):
    """What ``play_lab_game`` returns: ``(result, measures)``, as it always unpacked,
    with ``verified``: the worker's ``verification`` of its replay (None when the task
    had no key, or the record did not replay: then the store replays it and refuses it)."""

    verified: str | None

    def __new__(cls, result: GameResult, measures: dict[str, Any],
                verified: str | None = None) -> LabGame:
        self = super().__new__(cls, (result, measures))
        self.verified = verified
        return self

    def __reduce__(self) -> tuple[Any, ...]:     # to and from worker processes and dask
        return (LabGame, (self[0], self[1], self.verified))


def play_lab_game(task: LabTask) -> LabGame:
    """Play and measure one game (top level, so any executor can run it); with the
    task's ``verify_key``, replay it as the store would and say so."""
    watch = GameWatch(task.opening_plies, task.sample_from, task.sample_every)
    if task.fit is None:
        result = play_game(task.spec, rules=task.parcel.build(), watch=watch)
    else:                        # a worker process knows only what the task brings
        with using_fit(task.fit[0], Weights.from_dict(dict(task.fit[1]))):
            result = play_game(task.spec, rules=task.parcel.build(), watch=watch)
    measures = watch.measures()
    verified = None
    if task.verify_key is not None:
        options = dict(task.options or {})
        try:
            StoredGame("", task.spec.variant, task.variant, options, result, measures).replay()
        except TavreiError:
            pass                 # no verification: the store replays it and says why not
        else:
            verified = verification(task.verify_key, task.spec.variant, task.variant, options,
                                    result)
    return LabGame(result, measures, verified)


@dataclass
class Unit:
    """A cell played by one pair of agents: what a settings hash names."""

    cell: Cell
    agent_a: str
    agent_b: str
    settings: dict[str, Any]
    hash: str = ""
    limit: int = 0            # games counted (< budget when stopped early)
    stopped_early: bool = False

    def spec(self, index: int, seed: int, max_plies: int) -> GameSpec:
        a, b = self.agent_a, self.agent_b
        white, black = (a, b) if index % 2 == 0 else (b, a)
        return GameSpec(self.cell.name, white, black,
                        derive_seed(seed, self.cell.name, a, b, index), index, a, b, max_plies)


def _variant_ref(cell: Cell) -> str:
    """How the store names the cell's base so it can be loaded again: an id as it
    is, a file by its absolute path."""
    if cell.base.endswith(".toml") or "/" in cell.base:
        return str(Path(cell.base).resolve())
    return cell.base


def _split(items: Sequence[str] | str) -> list[str]:
    if isinstance(items, str):
        items = items.split(",")
    return [s.strip() for s in items if s and s.strip()]


def sweep(base: str | Sequence[str] = "tavreli",
          grid: Mapping[str, Sequence[Any]] | None = None,
          agents: Sequence[str] | str = DEFAULT_AGENTS, games: int = 50, seed: int = 0, *,
          store: str | Path | ResultsStore | None = None, max_plies: int = DEFAULT_MAX_PLIES,
          stop_width: float | None = None, batch: int = DEFAULT_BATCH,
          executor: Executor | str | Any = None, workers: int | None = None,
          progress: bool | str = True, opening_plies: int = OPENING_PLIES,
          tune: bool | Mapping[str, Any] | None = None,
          cells: Sequence[str] | None = None, strength_games: int = 0,
          purpose: str | None = None) -> SweepResult:
    """Play ``games`` games (the budget) in every cell of ``grid`` over ``base``.

    ``base``: a variant id or file, or several. ``grid``: option name -> the
    values to try (every combination is a cell; ``None``: the bases as they
    are). ``agents``: one spec (self-play) or several (every pair, colours
    alternating). ``store``: an SQLite file that keeps every game; a rerun
    resumes (default: a store in memory, gone with the result). ``stop_width``:
    stop a cell once white's 95 % score interval (t on per-game scores) is narrower than this,
    looking every ``batch`` games. ``executor``: "processes" (default),
    "threads", "inline", an ``Executor`` or a ``distributed.Client``.
    ``tune``: fit the weights of each cell first for its ``weights=fit`` agents
    (True: ``lab.tune``'s defaults; a mapping sets ``generations``, ``games``,
    ``nodes``, ``seed`` (default: the sweep's), ``max_plies``), kept in the store so
    a rerun does not tune again. Without it, ``weights=fit`` takes the weights shipped
    for the variant. A fit plays only with its proof (``engine.weights.fit_proof_problem``);
    an unproven one is kept, the default weights play, and ``notes`` says so.
    ``strength_games``: then every agent plays this many games against the reference
    player in every cell (``lab.strength.measure_strength``), and ``notes`` names each
    one's Elo (0: not measured, and ``notes`` says that).

    >>> res = sweep("tavreli", {"splits": [True, False]}, agents="greedy", games=2,
    ...             seed=1, max_plies=10, executor="inline", progress=False)
    >>> res.table.column("cell")
    ['tavreli[splits=true]', 'tavreli[splits=false]']
    """
    if games < 1:
        raise TavreiError(_("games must be 1 or more, got {games}").format(games=games))
    if not 1 <= max_plies <= MAX_GAME_PLIES:     # every stored game must replay
        raise LimitError(_("max_plies must be 1..{max_game_plies}, got {max_plies}")
                             .format(max_game_plies=MAX_GAME_PLIES, max_plies=max_plies))
    if batch < 1:
        raise TavreiError(_("batch must be 1 or more, got {batch}").format(batch=batch))
    if stop_width is not None and not 0 < stop_width < 1:
        raise TavreiError(_("stop_width must be between 0 and 1 (an interval width), got "
                            "{stop_width}").format(stop_width=stop_width))
    if opening_plies < 1:
        raise TavreiError(_("opening_plies must be 1 or more, got {opening_plies}")
                              .format(opening_plies=opening_plies))
    agent_list = split_specs(agents)
    n = len(agent_list)
    pairs_count = 1 if n == 1 else n * (n - 1) // 2
    cells_count = count_cells(base, grid)
    total = cells_count * pairs_count * games
    if total > MAX_TOURNAMENT_GAMES:      # counted, refused before anything is built
        raise LimitError(_("{total} games asked for ({cells_count} cells x {pairs_count} agent "
                           "pairs x {games}); the limit is {max_tournament_games}")
                             .format(total=total, cells_count=cells_count, pairs_count=pairs_count,
                                     games=games, max_tournament_games=MAX_TOURNAMENT_GAMES))
    tuning = tune_settings(tune, seed)
    built = build_cells(base, grid)
    if cells is not None:
        names = [c.name for c in built]
        unknown = [c for c in cells if c not in names]
        if unknown:
            raise TavreiError(_("sweep: no cell {value!r} in the grid; its cells: {names}")
                                  .format(value=unknown[0], names=", ".join(names)))
        built = [c for c in built if c.name in set(cells)]
    check_distinct_rules([(c.name, c.rules if c.rules is not None else
                           load_variant(c.base, **c.option_dict)) for c in built], _("cell"))
    cells_played = built
    fit_agents = set()
    for a in agent_list:
        agent = make_agent(a, seed=0)
        if isinstance(agent, PlayAgent) and agent.weights_spec == FIT:
            fit_agents.add(a)
    if tuning is not None and not fit_agents:
        raise TavreiError(_("tune: no agent of {names} plays with the fit weights; give one as "
                            "play:nodes=K,weights=fit (e.g. "
                            "play:nodes=300,weights=fit,play:nodes=300 for tuned v untuned)")
                              .format(names=", ".join(agent_list)))
    pairs = agent_pairs(agent_list)

    db = store if isinstance(store, ResultsStore) else open_store(
        ":memory:" if store is None else store)      # "" is refused, not a throw-away store
    units: list[Unit] = []
    started = time.perf_counter()
    played = 0
    tuned = 0
    notes: list[str] = []
    pool, owned = resolve_executor(executor, workers)
    parcels = {c.name: c.parcel(pool) for c in cells_played}
    fits: dict[str, tuple[str, tuple[tuple[str, float], ...]]] = {}
    bar = None
    try:
        probe(pool, parcels)          # every cell reaches the workers, or nothing is played
        for cell in cells_played:
            fit_note: dict[str, Any] | None = None
            if fit_agents:
                weights, fit_note, ran, line = cell_fit(cell, tuning, db, pool, workers,
                                                         progress)
                tuned += ran
                if line is not None:
                    notes.append(line)
                fits[cell.name] = (variant_hash(cell.rules), tuple(weights.as_dict().items()))
            for a, b in pairs:
                settings = {"cell": cell.name, "variant": _variant_ref(cell),
                            "options": cell.option_dict, "fingerprint": parcels[cell.name].key,
                            "agent_a": a, "agent_b": b, "seed": seed, "max_plies": max_plies,
                            "opening_plies": opening_plies, "sample_from": SAMPLE_FROM,
                            "sample_every": SAMPLE_EVERY}
                if fit_note is not None and (a in fit_agents or b in fit_agents):
                    settings["fit"] = fit_note    # other weights: other games
                if purpose is not None:
                    # games played for another end than the question (the players'
                    # strength): a store's tables leave them out (``from_store``)
                    settings["purpose"] = purpose
                unit = Unit(cell, a, b, settings)
                unit.hash = db.register(settings)
                units.append(unit)
        mode = None if progress is True else "off" if progress is False else progress
        bar = Progress(len(units) * games, _("games"), mode=mode)
        active = list(units)
        look = batch if stop_width is not None else games
        while active:
            limit = min(games, look)
            todo = _missing(db, active, limit, seed, max_plies, bar)
            played += _play(pool, db, todo, parcels, opening_plies, bar, fits)
            still = []
            for unit in active:
                unit.limit = limit
                if limit >= games:
                    continue
                if stop_width is not None and _score_width(db, unit) < stop_width:
                    unit.stopped_early = True
                    bar.update(games - limit)
                    continue
                still.append(unit)
            active = still
            look += batch
    except BaseException as exc:
        kept = _kept(db, units)
        if not isinstance(store, ResultsStore):
            db.close()          # every finished game is committed already
        what = _cluster_failure(exc) or (str(exc) if isinstance(exc, SweepInterrupted)
                                         else "")
        if what:
            raise SweepInterrupted(_("{what}; {kept}").format(
                what=what, kept=_kept_text(kept, store)), kept) from None
        if isinstance(exc, KeyboardInterrupt):
            exc.games_kept = kept     # type: ignore[attr-defined]  # for the CLI's last line
        raise
    finally:
        if bar is not None:
            bar.close()
        if owned:
            pool.shutdown(wait=True, cancel_futures=True)
    db.checkpoint()          # the run is over: its games in the .sqlite file itself
    result = SweepResult(db, units, dict(base=base, grid={k: list(v) for k, v in
                                                          (grid or {}).items()},
                                         agents=agent_list, games=games, seed=seed,
                                         max_plies=max_plies, stop_width=stop_width,
                                         batch=batch, tune=tuning),
                         time.perf_counter() - started, played, own_store=store is None,
                         tuned=tuned, notes=notes)
    if strength_games:
        result.measure_strength(strength_games, executor=executor, workers=workers,
                                progress=progress)
    elif REFERENCE_PLAYER not in agent_list:
        result.notes.append(not_measured_text())
    return result


def _score_width(db: ResultsStore, unit: Unit) -> float:
    """The width of the cell's t interval of white's score, as its table shows it: a
    Wilson interval on "points out of n" treats a draw as half a success and stays
    wide however many draws agree (six draws: 0.62), so drawish cells played on. Games
    all of one score have that conservative interval still (``score_interval``), so a
    cell of nothing but draws narrows as they mount up; no game is infinitely wide."""
    gs = db.games(unit.hash, unit.limit)
    wins = sum(1 for g in gs if g.result.winner == "white")
    losses = sum(1 for g in gs if g.result.winner == "black")
    _score, lo, hi = score_interval(wins, len(gs) - wins - losses, losses)
    return math.inf if lo is None or hi is None else hi - lo


def _missing(db: ResultsStore, units: Sequence[Unit], limit: int, seed: int, max_plies: int,
             bar: Progress) -> Iterator[tuple[Unit, GameSpec]]:
    """The games not yet in the store, planned one at a time (never a whole to-do list)."""
    for unit in units:
        have = db.done(unit.hash)
        bar.update(sum(1 for i in have if unit.limit <= i < limit))
        for i in range(unit.limit, limit):
            if i not in have:
                yield unit, unit.spec(i, seed, max_plies)


#: Games submitted and not yet finished, at most: the plan is drawn as games finish.
IN_FLIGHT = 256


def _play(pool: Executor, db: ResultsStore, todo: Iterable[tuple[Unit, GameSpec]],
          parcels: dict[str, VariantParcel], opening_plies: int, bar: Progress,
          fits: Mapping[str, tuple[str, tuple[tuple[str, float], ...]]] | None = None) -> int:
    """Play the games, writing each to the store as it finishes; returns how many."""
    count = 0
    fits = fits or {}

    key = getattr(db, "verify_key", None)

    def task(unit: Unit, spec: GameSpec) -> LabTask:
        return LabTask(spec, parcels[unit.cell.name], opening_plies,
                       fit=fits.get(unit.cell.name), verify_key=key,
                       variant=unit.settings["variant"], options=unit.cell.option_dict)

    def finish(future: Future, unit: Unit, spec: GameSpec) -> None:
        nonlocal count
        try:
            try:
                played = future.result()
            except BrokenExecutor:       # a worker died: play this one here instead
                played = play_lab_game(task(unit, spec))
        except TavreiError as exc:
            # A game the rules refuse to go on with (a variant's own module, a die that
            # never allows a move) said only its own words ("no die roll is due now"):
            # name the cell and the game, so that the one seeded game can be found and
            # replayed; the sweep stops, its games kept, with the line that resumes it.
            raise SweepInterrupted(_(
                "cell {cell}, game {number} ({white} with white, {black} with black, seed "
                "{seed}) could not be played: {error}").format(
                    cell=unit.cell.name, number=spec.index + 1, white=spec.white,
                    black=spec.black, seed=spec.seed, error=exc)) from exc
        result, measures = played
        verified = getattr(played, "verified", None)
        args = (unit.hash, unit.cell.name, unit.settings["variant"], unit.cell.option_dict,
                result, measures)
        if verified:
            db.add(*args, verified=verified)
        else:
            db.add(*args)
        count += 1
        bar.update()

    pending: dict[Future, tuple[Unit, GameSpec]] = {}
    watch = _WorkerWatch()

    def drain(until: int) -> None:
        while len(pending) > until:
            done, _ = wait(pending, timeout=WORKER_CHECK_SECONDS,
                           return_when=FIRST_COMPLETED)
            if not done:
                watch.check(pool)
            for future in done:
                finish(future, *pending.pop(future))

    for unit, spec in todo:
        future = pool.submit(play_lab_game, task(unit, spec))
        if future.done():            # an inline executor has played it already: store it now
            finish(future, unit, spec)
        else:
            pending[future] = (unit, spec)
            drain(IN_FLIGHT - 1)
    drain(0)
    return count


#: How often a sweep waiting on a dask cluster asks whether any worker is connected, and
#: how long it waits with none before it stops (seconds).
WORKER_CHECK_SECONDS = 5.0
NO_WORKER_WAIT = 60.0


class SweepInterrupted(TavreiError):
    """The sweep stopped before its end (the cluster failed, no worker was left, the
    store failed): the message says what happened and how many games are kept."""

    def __init__(self, message: str, games_kept: int = 0) -> None:
        super().__init__(message)
        self.games_kept = games_kept


class _WorkerWatch:
    """Notices a dask cluster with no worker left: says so once, then stops the sweep
    after ``NO_WORKER_WAIT`` seconds (a sweep would otherwise wait forever, silently)."""

    def __init__(self) -> None:
        self.since: float | None = None

    def check(self, pool: Executor) -> None:
        client = getattr(pool, "_client", None)
        if client is None or type(client).__module__.split(".")[0] != "distributed":
            return
        try:
            workers = len(client.nthreads())
        except Exception as exc:   # the scheduler is gone: the futures will say so too
            raise SweepInterrupted(_("the dask scheduler stopped answering ({name})")
                                       .format(name=type(exc).__name__)) from None
        if workers:
            self.since = None
            return
        now = time.monotonic()
        if self.since is None:
            self.since = now
            print(_("no dask worker is connected to the scheduler; waiting up to "
                    "{no_worker_wait:g} s for one")
                        .format(no_worker_wait=NO_WORKER_WAIT), file=sys.stderr, flush=True)
        elif now - self.since >= NO_WORKER_WAIT:
            raise SweepInterrupted(_("no dask worker was connected to the scheduler for "
                                     "{no_worker_wait:g} s")
                                       .format(no_worker_wait=NO_WORKER_WAIT))


def _cluster_failure(exc: BaseException) -> str:
    """What a dask failure means, in one line ("" when it is not one)."""
    name = type(exc).__name__
    if name == "KilledWorker":
        return _("a game's dask worker died again and again (KilledWorker: the game may need "
                 "more memory than a worker has)")
    if name in ("CommClosedError", "StreamClosedError") or (
            isinstance(exc, CancelledError) and not isinstance(exc, KeyboardInterrupt)):
        return _("the dask scheduler went away mid-sweep ({name})").format(name=name)
    if type(exc).__module__.split(".")[0] == "distributed" and isinstance(exc, Exception):
        return _("the dask cluster failed ({name}: {reason})").format(
            name=name, reason=" ".join(str(exc).split())[:120])
    return ""


def _kept(db: ResultsStore, units: Sequence[Unit]) -> int:
    try:
        return sum(len(db.done(u.hash)) for u in units)
    except TavreiError:
        return 0


def _kept_text(kept: int, store: Any) -> str:
    if store is None:
        return ngettext("{count} finished games were in memory only (no store), so none is kept",
                        "{count} finished games were in memory only (no store), so none is "
                        "kept", kept).format(count=kept)
    return ngettext("{count} games of this sweep are kept in the store",
                    "{count} games of this sweep are kept in the store", kept).format(count=kept)


#: Every chart a sweep may draw (``lab.plots.store_plots``), by its file name's stem.
SWEEP_PLOT_NAMES = frozenset({"white_score", "game_length", "decisive_rate", "endings",
                              "piece_values", "heat_map"})
#: Every file ``SweepResult.save`` may write: what a later save replaces.
SWEEP_ENTRIES = (*(f"{name}.{ext}" for name in ("cells", "pieces", "differences")
                   for ext in ("csv", "json")), "differences.txt",
                 *sorted(f"{name}.svg" for name in SWEEP_PLOT_NAMES))


class SweepResult:
    """The outcome of a sweep: its settings, and tables and plots read from the store."""

    def __init__(self, store: ResultsStore, units: list[Unit], settings: dict[str, Any],
                 seconds: float = 0.0, played: int = 0, own_store: bool = False,
                 tuned: int = 0, notes: Sequence[str] = ()) -> None:
        self.store = store
        self.units = units
        self.settings = settings
        self.seconds = seconds
        self.played = played          # games played by this call (the rest were stored)
        self.tuned = tuned            # cells tuned by this call (the rest were stored)
        #: lines the sweep says of how it played: a fit not played (unproven), the
        #: players' strength against the reference player
        self.notes = list(notes)
        #: each agent's strength in each cell (``lab.strength.measure_strength``)
        self.strengths: list[Strength] = []
        self._own_store = own_store

    def measure_strength(self, games: int, *, executor: Any = None,
                         workers: int | None = None,
                         progress: bool | str = False) -> list[Strength]:
        """Every agent plays ``games`` games against ``REFERENCE_PLAYER`` in each cell
        (colours alternated, kept in the store: a rerun plays nothing again); a line per
        agent and cell goes to ``notes`` (``lab.strength``)."""
        check_strength_games(games)
        s = self.settings
        cells = list(dict.fromkeys(u.cell.name for u in self.units))
        out: list[Strength] = []
        for agent in s["agents"]:
            if agent == REFERENCE_PLAYER:
                continue
            played = sweep(s["base"], s["grid"] or None, agents=[agent, REFERENCE_PLAYER],
                           games=games, seed=s["seed"], store=self.store,
                           max_plies=s["max_plies"], executor=executor, workers=workers,
                           progress=progress, tune=s.get("tune"), cells=cells,
                           purpose=STRENGTH_PURPOSE)
            out += [strength_of(u.cell.name, agent, self.store.games(u.hash, u.limit))
                    for u in played.units]
        self.strengths = out
        self.notes = with_strengths(self.notes, out)
        return out

    @property
    def hashes(self) -> list[str]:
        return [u.hash for u in self.units]

    def _limits(self) -> dict[str, int]:
        return {u.hash: u.limit for u in self.units}

    def table_of(self, kind: str = "cells") -> ResultsTable:
        return ResultsTable.from_store(self.store, kind, self.hashes, self._limits())

    @property
    def table(self) -> ResultsTable:
        """One row per cell (and agent pair): every measure, intervals on rates."""
        return self.table_of("cells")

    def pieces(self) -> ResultsTable:
        """Piece values per cell (logistic regression, with standard errors)."""
        return self.table_of("pieces")

    def differences(self) -> ResultsTable:
        """Every pairwise difference of the grid's cells, Holm-adjusted (``lab.differences``)."""
        return self.table.differences()

    def established(self) -> str:
        """In words: which differences of the grid are established (Holm, 5 %)."""
        return established_summary(self.differences())

    def games(self) -> list[Any]:
        """The stored games of this sweep (``StoredGame``), cell by cell."""
        return [g for u in self.units for g in self.store.games(u.hash, u.limit)]

    def comparable(self) -> list[dict[str, Any]]:
        """Everything but timings: equal for two runs of the same seeded sweep."""
        return [{**g.result.comparable(), "cell": g.cell, "measures": g.measures}
                for g in self.games()]

    def plots(self) -> dict[str, Any]:
        return sweep_plots(self)

    def save(self, directory: str | Path) -> list[Path]:
        """Write the tables (CSV, JSON) and plots (SVG) under ``directory``, in place of
        what an earlier ``save`` wrote there.

        A chart drawn only for some sweeps (piece values once fits converge, the heat
        map for a two-option grid) stayed from an earlier sweep into the same folder,
        beside tables it did not describe. The sweep's files are written whole into a
        scratch folder and swapped in (``core.files.swapped_in``), as ``compare``'s:
        the folder holds one sweep's output, and the user's own files stay (one
        under a name written here is refused, ``core.files.NotOursError``).
        """
        out = Path(directory)
        with swapped_in(out, SWEEP_ENTRIES) as part:
            written = []
            diffs = self.differences()
            for name, table in (("cells", self.table), ("pieces", self.pieces()),
                                ("differences", diffs)):
                for ext, text in (("csv", table.to_csv()), ("json", table.to_json())):
                    written.append(f"{name}.{ext}")
                    write_atomically(part / written[-1], text)
            written.append("differences.txt")
            write_atomically(part / written[-1], established_summary(diffs) + "\n")
            for name, plot in self.plots().items():
                written.append(f"{name}.svg")
                write_atomically(part / written[-1], plot.svg)
        return [out / name for name in written]

    def _repr_html_(self) -> str:
        heading = _("Sweep: {cells} cells, {games} games ({played} played now, "
                    "{seconds:.1f} s)").format(cells=len(self.units),
                                              games=sum(u.limit for u in self.units),
                                              played=self.played, seconds=self.seconds)
        parts = [f"<h4>{html.escape(heading)}</h4>",
                 *(f"<p>{html.escape(line)}</p>" for line in self.notes),
                 self.table._repr_html_()]
        parts += [p.svg for p in self.plots().values()]
        return "\n".join(parts)

    def __str__(self) -> str:
        return "\n".join([*self.notes, str(self.table)])

    def __repr__(self) -> str:
        return (f"<SweepResult {len(self.units)} cells, "
                f"{sum(u.limit for u in self.units)} games>")


__all__ = ["DEFAULT_AGENTS", "DEFAULT_BATCH", "TUNE_KEYS", "LabGame", "LabTask",
           "SweepInterrupted", "SweepResult", "play_lab_game", "sweep", "tune_settings"]
