"""Tables built from the store: one row per cell, per piece kind, or per game.

``ResultsTable.from_store("lab.sqlite")`` reads every setting in the file
and makes one row per setting (a cell with its agents, seed and limits):
games under different settings are never pooled. ``kind="pieces"`` gives
the piece values per cell, ``kind="games"`` one row per game.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from tavrei_lab.compare.table import ResultsTable as _BaseTable
from tavrei_lab.errors import TavreiError
from tavrei_lab.lab.measures import cell_measures
from tavrei_lab.lab.piece_values import piece_values
from tavrei_lab.lab.store import ResultsStore, StoredGame
from tavrei_lab.variant import load_variant

TABLE_KINDS = ("cells", "pieces", "games")


class ResultsTable(_BaseTable):
    """A ``compare.ResultsTable`` that can also be read from a results store."""

    @classmethod
    def from_store(cls, store: str | os.PathLike[str] | ResultsStore, kind: str = "cells",
                   settings: Sequence[str] | None = None,
                   limits: dict[str, int] | None = None) -> ResultsTable:
        """The ``kind`` table ("cells", "pieces" or "games") of a store file or object.

        ``settings``: only these settings hashes (a sweep passes its own);
        ``limits``: per hash, count only games numbered below the limit (a
        sweep that stopped early).
        """
        if kind not in TABLE_KINDS:
            raise TavreiError(f"unknown table kind {kind!r}; expected one of "
                              f"{', '.join(TABLE_KINDS)}")
        own = not isinstance(store, ResultsStore)
        if own:
            path = os.fspath(store)  # type: ignore[arg-type]
            if not os.path.exists(path):
                raise TavreiError(f"{path}: no such results store")
            db = ResultsStore(path)
        else:
            db = store  # type: ignore[assignment]
        try:
            all_settings = db.settings()
            hashes = list(settings) if settings is not None else list(all_settings)
            groups = []
            for h in hashes:
                games = db.games(h, (limits or {}).get(h))
                if games:
                    groups.append((all_settings.get(h, {}), games))
        finally:
            if own:
                db.close()
        if kind == "cells":
            return cells_table(groups)
        if kind == "pieces":
            return pieces_table(groups)
        return games_table([g for _, gs in groups for g in gs])


def _head(setting: dict[str, Any], games: list[StoredGame]) -> list[tuple[str, Any, str]]:
    return [("cell", games[0].cell, "the variant: base[option=value,...]"),
            ("agents", f"{games[0].result.agent_a} v {games[0].result.agent_b}",
             "agent A v agent B (A has white in the even-numbered games)"),
            ("seed", setting.get("seed"), "sweep seed"),
            ("settings", games[0].settings_hash, "settings hash every game row carries")]


def cells_table(groups: Sequence[tuple[dict[str, Any], list[StoredGame]]]) -> ResultsTable:
    """One row per setting: every measure of ``lab.measures.cell_measures``."""
    columns: list[tuple[str, str]] = []
    rows = []
    for setting, games in groups:
        fields = _head(setting, games) + cell_measures(
            [(g.result, g.measures) for g in games],
            opening_plies=int(setting.get("opening_plies", 4)))
        for name, _, desc in fields:
            if name not in dict(columns):
                columns.append((name, desc))
        rows.append({name: value for name, value, _ in fields})
    return ResultsTable("Per cell (Wilson 95 % intervals on rates)", columns, rows)


def piece_samples(games: Sequence[StoredGame]) -> list[tuple[list[int], float, object]]:
    """(material difference by kind, white's score, game) for each sampled position."""
    out: list[tuple[list[int], float, object]] = []
    for g in games:
        score = 1.0 if g.result.winner == "white" else 0.0 if g.result.winner else 0.5
        for row in g.measures.get("material", []):
            out.append((row[1:], score, g.index))
    return out


def pieces_table(groups: Sequence[tuple[dict[str, Any], list[StoredGame]]]) -> ResultsTable:
    """One row per (setting, piece kind): coefficient, SE and value in ratniks."""
    columns = [("cell", "the variant"), ("agents", "agent A v agent B"),
               ("piece", "piece kind (the variant's name for it)"), ("kind", "kind number"),
               ("coef", "logistic coefficient: log-odds of white scoring per extra piece"),
               ("coef_se", "its standard error (clustered by game)"),
               ("value", "coefficient over the ratnik's: the value in ratniks"),
               ("value_se", "its standard error (delta method)"),
               ("positions", "positions sampled"), ("games", "games they came from"),
               ("converged", "did the fit converge (no: the data separate, ignore the row)"),
               ("note", "why there is no estimate, when there is none")]
    rows = []
    for _, games in groups:
        try:
            kinds = load_variant(games[0].variant).pieces
            names = {k.kind: k.name for k in kinds}
        except Exception:   # a variant no longer loadable here: name kinds by number
            names = {}
        samples = piece_samples(games)
        values, fit = piece_values(samples, names)
        for v in values:
            rows.append({"cell": games[0].cell,
                         "agents": f"{games[0].result.agent_a} v {games[0].result.agent_b}",
                         "piece": v.name, "kind": v.kind, "coef": v.coef, "coef_se": v.se,
                         "value": v.value, "value_se": v.value_se, "positions": len(samples),
                         "games": len(games), "converged": bool(fit and fit.converged),
                         "note": v.note})
    return ResultsTable("Piece values (logistic regression of the result on material)",
                        columns, rows)


def games_table(games: Sequence[StoredGame]) -> ResultsTable:
    """One row per stored game (no record)."""
    columns = [("cell", "the variant"), ("index", "game number"), ("white", "white's agent"),
               ("black", "black's agent"), ("seed", "game seed"), ("result", "result"),
               ("termination", "how it ended"), ("plies", "half-moves"),
               ("settings", "settings hash")]
    rows = [{"cell": g.cell, "index": g.index, "white": g.result.white,
             "black": g.result.black, "seed": g.result.seed, "result": g.result.result,
             "termination": g.result.termination, "plies": g.result.plies,
             "settings": g.settings_hash} for g in games]
    return ResultsTable("Games", columns, rows)


__all__ = ["ResultsTable", "TABLE_KINDS", "cells_table", "games_table", "piece_samples",
           "pieces_table"]
