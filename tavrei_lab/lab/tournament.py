"""Self-play tournaments: N games for each (variant, agent pair), kept and replayable.

The experiment a teacher runs is "change one rule, play many games, see what
changes". ``tournament`` plays ``games`` games for every variant and every pair of
agents through the lab's runner (``lab.runner``: the schedule, the seeds, the one
adjudication policy) and gives a ``TournamentResult``: the games, the per-variant and
per-pair tables (``lab.table``) and the plots (``lab.plots``), saved whole into a
folder by ``save``.
"""

from __future__ import annotations

import html
import json
import os
import time
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor, Executor, as_completed
from pathlib import Path
from typing import Any

from tavrei_lab.core.files import swapped_in, write_atomically
from tavrei_lab.engine.agents import make_agent, split_specs
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.parallel import Progress, resolve_executor
from tavrei_lab.lab.plots import tournament_plots
from tavrei_lab.lab.results import GameResult
from tavrei_lab.lab.runner import (
    DEFAULT_MAX_PLIES,
    GameSpec,
    derive_seed,
    play_game,
    play_shipped,
    schedule,
)
from tavrei_lab.lab.shipping import VariantParcel, probe
from tavrei_lab.lab.table import pairs_table, tournament_games_table, variants_table
from tavrei_lab.variant import check_distinct_rules, load_variant

#: What ``TournamentResult.save`` writes in its folder, in the order a run is put in
#: place (``settings.json`` last: its presence says the run is whole).
SAVED_ENTRIES = ("records", "plots", "variants.csv", "variants.json", "pairs.csv",
                 "pairs.json", "games.csv", "games.json", "settings.json")


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
    (see ``lab.parallel``). ``progress``: True (automatic), False, or a mode.

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
        return tournament_games_table(self.games)

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


__all__ = ["DEFAULT_MAX_PLIES", "GameSpec", "SAVED_ENTRIES", "TournamentResult", "derive_seed",
           "play_game", "schedule", "tournament"]
