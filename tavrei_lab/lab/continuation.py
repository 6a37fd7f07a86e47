"""Capped games played on from where they stopped: ``tavrei-lab sweep --replay-capped``.

A difference that depends on the games the ply cap stopped (``lab.bounds``) is settled by
finishing those games, not by playing the sweep again with a larger cap: a new sweep
would play other games, and only the capped ones are in question. So each capped game is
played on **from its stored record**: the same seed (so a die game's rolls come again),
the same agents, its stored moves played first, then the agents' own moves, up to the
larger cap. The game is identical up to where it stopped.

The played-on games are kept in the same store under a setting of their own (the
original's, with the larger ``max_plies`` and ``continued_from``: the original's hash),
game for game by number, so the originals are never changed. Every table read from the
store (``ResultsTable.from_store``, a sweep's tables) puts a played-on game in the place
of its capped original (the largest cap wins) and says how many (``replayed``); the
verdicts are then made again by the same rule. Running the command again resumes it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from concurrent.futures import Executor, Future, wait
from dataclasses import dataclass
from typing import Any

from tavrei_lab.engine.selfplay import MAX_PLIES
from tavrei_lab.engine.weights import Weights, using_fit, variant_hash
from tavrei_lab.errors import LimitError, TavreiError
from tavrei_lab.game import read_record
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.bounds import replayed
from tavrei_lab.lab.measures import OPENING_PLIES, SAMPLE_EVERY, SAMPLE_FROM, GameWatch
from tavrei_lab.lab.parallel import Progress, resolve_executor
from tavrei_lab.lab.runner import GameSpec, play_game
from tavrei_lab.lab.store import ResultsStore, StoredGame, open_store
from tavrei_lab.notation.record import MAX_GAME_PLIES

#: The setting key that names the setting a played-on game continues.
CONTINUED = "continued_from"

Fit = tuple[str, tuple[tuple[str, float], ...]]


def is_continuation(setting: Mapping[str, Any]) -> bool:
    """Is this setting one of played-on games (not a sweep's own)?"""
    return CONTINUED in setting


def played_on(db: ResultsStore, h: str, games: list[StoredGame],
              settings: Mapping[str, Mapping[str, Any]]) -> tuple[list[StoredGame], int, int]:
    """``games`` of setting ``h`` with each capped game replaced by its played-on game
    (the largest cap's), how many were replaced, and the largest cap in force."""
    own = settings.get(h, {})
    cap = int(own.get("max_plies") or 0)
    later = sorted((int(s.get("max_plies") or 0), ch) for ch, s in settings.items()
                   if s.get(CONTINUED) == h)
    if not later:
        return games, 0, cap
    by_index = {g.index: g for g in games}
    replaced: set[int] = set()
    for _cap, ch in later:                # ascending: a larger cap's game wins
        for g in db.games(ch):
            if g.index in by_index:
                by_index[g.index] = g
                replaced.add(g.index)
    return [by_index[g.index] for g in games], len(replaced), max(cap, later[-1][0])


@dataclass(frozen=True)
class PlayOnTask:
    """One capped game to play on (pickled to a worker): its stored row and the cap."""

    spec: GameSpec
    record: str
    variant: str
    options: Mapping[str, Any]
    fit: Fit | None = None
    opening_plies: int = OPENING_PLIES
    sample_from: int = SAMPLE_FROM
    sample_every: int = SAMPLE_EVERY


def play_on(task: PlayOnTask) -> tuple[Any, dict[str, Any]]:
    """Play a stored game on to ``task.spec.max_plies`` (top level: any executor runs it);
    returns (result, measures) of the whole game, measured from its first move."""
    before = replayed(task.record, task.variant, task.options)
    rules = before.rules
    watch = GameWatch(task.opening_plies, task.sample_from, task.sample_every)
    if task.fit is None:
        result = play_game(task.spec, rules=rules, watch=watch, moves=before.moves)
    else:
        with using_fit(task.fit[0], Weights.from_dict(dict(task.fit[1]))):
            result = play_game(task.spec, rules=rules, watch=watch, moves=before.moves)
    after = read_record(result.record, variant=rules, progress=False)
    if [str(a) for a in after.history[:len(before.history)]] != [str(a) for a in
                                                                  before.history]:
        raise TavreiError(_("game {index} (seed {seed}) did not replay as stored: its die "
                            "rolls or moves differ before ply {ply}")
                          .format(index=task.spec.index + 1, seed=task.spec.seed,
                                  ply=before.ply))
    return result, watch.measures()


def _fit_of(db: ResultsStore, setting: Mapping[str, Any], rules: Any) -> Fit | None:
    """The weights ``weights=fit`` meant when the setting's games were played."""
    note = setting.get("fit")
    if not isinstance(note, Mapping) or note.get("tune") == "shipped":
        return None          # no fit, or the package's file: every worker finds it again
    key = str(note.get("tune"))
    doc = db.fit(key) if key != "registered" else None
    if doc is None:
        raise TavreiError(_("cell {cell}: its games were played with weights fit in another "
                            "process (register_fit), not kept in the store; they cannot be "
                            "played on").format(cell=setting.get("cell")))
    weights = Weights.from_dict(doc["weights"])
    return variant_hash(rules), tuple(weights.as_dict().items())


@dataclass
class ReplayReport:
    """What ``replay_capped`` did: capped games found, played on now, still capped."""

    capped: int = 0
    played: int = 0
    stored: int = 0
    still_capped: int = 0
    max_plies: int = 0

    def __str__(self) -> str:
        return _("{capped} capped games: {played} played on now to {max_plies} plies, {stored} "
                 "from the store; {still} still stopped by the cap").format(
                     capped=self.capped, played=self.played, max_plies=self.max_plies,
                     stored=self.stored, still=self.still_capped)


def _plan(db: ResultsStore, max_plies: int) -> tuple[list[tuple[str, StoredGame, PlayOnTask]],
                                                     ReplayReport]:
    settings = db.settings()
    report = ReplayReport(max_plies=max_plies)
    todo = []
    for h, setting in settings.items():
        if is_continuation(setting):
            continue
        originals = db.games(h)
        capped = [g for g in originals if g.result.termination == MAX_PLIES]
        if not capped:
            continue
        cap = int(setting.get("max_plies") or 0)
        if max_plies <= cap:
            raise LimitError(_("--max-plies {max_plies} is not larger than the cap of the "
                               "stored games of {cell} ({cap}): give a larger one")
                             .format(max_plies=max_plies, cell=setting.get("cell"), cap=cap))
        ch = db.register({**setting, "max_plies": max_plies, CONTINUED: h})
        done = db.done(ch)
        latest = {g.index: g for g in played_on(db, h, capped, settings)[0]}
        fit = _fit_of(db, setting, capped[0].rules()) if setting.get("fit") else None
        for g in capped:
            report.capped += 1
            if g.index in done:
                report.stored += 1
                continue
            start = latest[g.index]         # the furthest it was played on so far
            r = g.result
            spec = GameSpec(r.variant, r.white, r.black, r.seed, r.index, r.agent_a,
                            r.agent_b, max_plies)
            todo.append((ch, g, PlayOnTask(
                spec, start.record, g.variant, g.options, fit,
                int(setting.get("opening_plies") or OPENING_PLIES),
                int(setting.get("sample_from") or SAMPLE_FROM),
                int(setting.get("sample_every") or SAMPLE_EVERY))))
    return todo, report


def replay_capped(store: str | os.PathLike[str] | ResultsStore, max_plies: int, *,
                  executor: Executor | str | Any = None, workers: int | None = None,
                  progress: bool | str = True) -> ReplayReport:
    """Play every capped game of ``store`` on from where it stopped to ``max_plies`` plies,
    keeping each in the store as it finishes (a rerun resumes)."""
    if isinstance(max_plies, bool) or not isinstance(max_plies, int) or \
            not 1 <= max_plies <= MAX_GAME_PLIES:
        raise LimitError(_("max_plies must be 1..{max_game_plies}, got {max_plies}")
                         .format(max_game_plies=MAX_GAME_PLIES, max_plies=max_plies))
    own = not isinstance(store, ResultsStore)
    db = store if isinstance(store, ResultsStore) else open_store(store)
    try:
        todo, report = _plan(db, max_plies)
        mode = None if progress is True else "off" if progress is False else progress
        bar = Progress(len(todo), _("games"), mode=mode)
        pool, owned = resolve_executor(executor, workers)
        try:
            report.played = _run(pool, db, todo, bar)
        finally:
            bar.close()
            if owned:
                pool.shutdown(wait=True, cancel_futures=True)
        settings = db.settings()
        for h, setting in settings.items():
            if not is_continuation(setting):
                games = played_on(db, h, db.games(h), settings)[0]
                report.still_capped += sum(1 for g in games
                                           if g.result.termination == MAX_PLIES)
        db.checkpoint()
    finally:
        if own:
            db.close()
    return report


def _run(pool: Executor, db: ResultsStore,
         todo: Iterable[tuple[str, StoredGame, PlayOnTask]], bar: Progress) -> int:
    count = 0
    pending: dict[Future, tuple[str, StoredGame]] = {}
    for ch, g, task in todo:
        pending[pool.submit(play_on, task)] = (ch, g)
    while pending:
        done, _running = wait(pending, return_when="FIRST_COMPLETED")
        for future in done:
            ch, g = pending.pop(future)
            result, measures = future.result()
            db.add(ch, g.cell, g.variant, g.options, result, measures)
            count += 1
            bar.update()
    return count


__all__ = ["CONTINUED", "PlayOnTask", "ReplayReport", "is_continuation", "play_on",
           "played_on", "replay_capped"]
