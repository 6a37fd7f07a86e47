"""The rows of a store's tables: one row per cell, per piece kind or per game, and the
differences between cells.

Each builder returns a table's parts (``lab.table_rows.TableParts``: title, columns,
rows), which ``lab.table`` makes a ``ResultsTable``. Games under different settings
are never pooled: a cell's row is one setting's games (a cell with its agents, seed
and limits).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from tavrei_lab.i18n import N_
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.bounds import bounded_difference, cap_fields, replay_command, same_side, worse_p
from tavrei_lab.lab.differences import MIN_GAMES, PAIRWISE, Difference, cannot_differ, holm
from tavrei_lab.lab.measures import cell_measures
from tavrei_lab.lab.piece_values import piece_values
from tavrei_lab.lab.store import StoredGame
from tavrei_lab.lab.table_rows import TableParts
from tavrei_lab.variant import load_variant

#: The differences table's columns and their meanings (marked here, said when a table is
#: made: ``differences_table`` passes each through ``_``).
DIFFERENCE_COLUMNS = [
    ("measure", N_("what is compared (white_score, decisive, draw, length)")),
    ("a", N_("first cell")), ("b", N_("second cell")),
    ("agents", N_("the agents both cells were played by")),
    ("value_a", N_("the measure in a")), ("value_b", N_("the measure in b")),
    ("difference", N_("a - b")),
    ("low", N_("95 % interval of the difference: lower end (none: neither cell's games "
               "varied, so there is no interval)")),
    ("high", N_("95 % interval of the difference: upper end")),
    ("p_value", N_("two-sided p-value of that one comparison (none: no interval either)")),
    ("difference_ahead", N_("a - b with the capped games counted as wins for the side a "
                            "deeper search puts ahead (none: no capped game changes it)")),
    ("low_ahead", N_("95 % interval of that difference: lower end")),
    ("high_ahead", N_("95 % interval of that difference: upper end")),
    ("p_ahead", N_("two-sided p-value of that difference")),
    ("p_bound", N_("the worse (larger) of p_value and p_ahead: what Holm's method is run "
                   "on")),
    ("p_holm", N_("p_bound adjusted by Holm's method over every row of this table")),
    ("established", N_("yes when p_holm < 0.05, both bounds put the difference on the same "
                       "side and each cell has {games} games or more: the difference holds, "
                       "corrected for the others, however the capped games end (never when a "
                       "cell's games were all alike); undecided when one bound of the capped "
                       "games establishes it and the other does not")),
    ("capped", N_("games of the two cells stopped at the ply cap (counted as draws in "
                  "difference, for the side ahead in difference_ahead)")),
    ("replay", N_("when undecided: the command that plays the capped games on from where "
                  "they stopped to a larger cap")),
    ("method", N_("interval and test used")),
    ("note", N_("why the difference was not tested: every game of every cell gave one "
                "value of the measure, so it cannot differ (left out of Holm's family)")),
]

#: The ``established`` value of a difference not tested: the measure cannot differ.
CANNOT_DIFFER = "cannot differ"


def all_alike(row: dict[str, Any]) -> bool:
    """Did every game of the cell look the same (one first move, one length)?

    A player without randomness (``play:nodes=300``) plays one game over and
    over in self-play: n games are then one game counted n times, their spread
    is 0 and any difference "significant". Such a cell establishes nothing.
    """
    return (int(row.get("games") or 0) >= 2 and row.get("first_move_repeat") == 1.0
            and not row.get("length_sd"))



def difference_rows(cells: Sequence[dict[str, Any]], source: str | None = None,
                    measures: Sequence[str] = PAIRWISE) -> TableParts:
    """Every pair of cells played by the same agents, every measure, with Holm's correction.

    Each difference is computed at both bounds of the capped games (``lab.bounds``): as
    draws (``difference``, ``low``, ``high``, ``p_value``) and for the side ahead (the
    ``*_ahead`` columns); Holm's correction runs over the worse of the two p-values
    (``p_bound``). A difference one bound establishes and the other does not is
    "undecided", with the command that plays the capped games on (``replay``).
    """
    found: list[tuple[Difference, Difference | None]] = []
    agents_of: list[str] = []
    capped_of: list[int] = []
    rows = [r for r in cells if int(r.get("games") or 0) >= 2]
    # a measure every game of every cell (of one agent pair) gave alike: shown, not tested
    fixed = {(str(ag), m): cannot_differ([r for r in rows if str(r.get("agents")) == ag], m)
             for ag in {str(r.get("agents")) for r in rows} for m in measures}
    for i, ra in enumerate(rows):
        for rb in rows[i + 1:]:
            if ra.get("agents") != rb.get("agents") or ra.get("cell") == rb.get("cell"):
                continue
            for m in measures:
                found.append(bounded_difference(ra, rb, m, str(ra["cell"]), str(rb["cell"])))
                agents_of.append(str(ra.get("agents")))
                capped_of.append(int(ra.get("capped") or 0) + int(rb.get("capped") or 0))
    untested = [fixed[(ag, d.measure)] for (d, _e), ag in zip(found, agents_of)]
    bound_p = [worse_p(d, e) for d, e in found]

    def holm_of_tested(ps: list[float]) -> list[float]:
        """Holm over the tested differences only; NaN for those not tested."""
        tested = holm([p for p, why in zip(ps, untested) if why is None])
        return [math.nan if why is not None else tested.pop(0) for why in untested]
    adjusted = holm_of_tested(bound_p)
    # each bound alone, Holm over the same family: does either establish it by itself?
    at_draws = holm_of_tested([d.p_value for d, _e in found])
    at_ahead = holm_of_tested([(e or d).p_value for d, e in found])
    alike = {str(r["cell"]) for r in rows if all_alike(r)}
    cap = max([int(r.get("max_plies") or 0) for r in rows] or [0])
    source = source or next(
        (str(r["store"]) for r in rows if r.get("store")), None)
    command = replay_command(source, cap) if cap else ""

    def verdict(d: Difference, e: Difference | None, p: float, p1: float, p2: float,
                why: str | None) -> str:
        if why is not None:
            return CANNOT_DIFFER
        if d.a in alike or d.b in alike:
            return "no (alike)"
        if not d.enough_games:
            return "no"
        if p < 0.05 and same_side(d, e):
            return "yes"
        return "undecided" if e is not None and (p1 < 0.05 or p2 < 0.05) else "no"

    def shown(x: float | None) -> float | None:
        """An unbounded end or a missing p is None, as the tables show a missing interval."""
        return x if x is not None and math.isfinite(x) else None
    out = []
    for (d, e), ag, k, pb, p, p1, p2, why in zip(found, agents_of, capped_of, bound_p, adjusted,
                                                  at_draws, at_ahead, untested):
        said = verdict(d, e, p, p1, p2, why)
        out.append({"measure": d.measure, "a": d.a, "b": d.b, "agents": ag,
                    "value_a": d.estimate_a, "value_b": d.estimate_b,
                    "difference": d.difference,
                    "low": None if why else shown(d.low), "high": None if why else shown(d.high),
                    "p_value": None if why else shown(d.p_value),
                    "difference_ahead": None if e is None or why else e.difference,
                    "low_ahead": None if e is None or why else shown(e.low),
                    "high_ahead": None if e is None or why else shown(e.high),
                    "p_ahead": None if e is None or why else shown(e.p_value),
                    "p_bound": None if why else shown(pb), "p_holm": shown(p),
                    "established": said, "capped": k,
                    "replay": command if said == "undecided" else "",
                    "method": d.method, "note": why or ""})
    return (
        _("Differences between cells (95 % intervals; Holm-adjusted p-values)"),
        [(name, _(meaning).format(games=MIN_GAMES) if name == "established" else _(meaning))
         for name, meaning in DIFFERENCE_COLUMNS], out)



def _head(setting: dict[str, Any], games: list[StoredGame]) -> list[tuple[str, Any, str]]:
    return [("cell", games[0].cell, _("the variant: base[option=value,...]")),
            ("agents", f"{games[0].result.agent_a} v {games[0].result.agent_b}",
             _("agent A v agent B (A has white in the even-numbered games)")),
            ("seed", setting.get("seed"), _("sweep seed")),
            ("settings", games[0].settings_hash, _("settings hash every game row carries"))]


def cells_rows(groups: Sequence[tuple[dict[str, Any], list[StoredGame]]]) -> TableParts:
    """One row per setting: every measure of ``lab.measures.cell_measures``."""
    columns: list[tuple[str, str]] = []
    rows = []
    for setting, games in groups:
        fields = _head(setting, games) + cell_measures(
            [(g.result, g.measures) for g in games],
            opening_plies=int(setting.get("opening_plies", 4)))
        fields += cap_fields(games, int(setting.get("max_plies") or 0),
                             int(setting.get("replayed") or 0))
        for name, _value, desc in fields:
            if name not in dict(columns):
                columns.append((name, desc))
        rows.append({name: value for name, value, _desc in fields})
    return (_("Per cell (Wilson 95 % intervals on rates, t on white's score and "
                          "length)"), columns, rows)


def piece_samples(games: Sequence[StoredGame]) -> list[tuple[list[int], float, object]]:
    """(material difference by kind, white's score, game) for each sampled position."""
    out: list[tuple[list[int], float, object]] = []
    for g in games:
        score = 1.0 if g.result.winner == "white" else 0.0 if g.result.winner else 0.5
        for row in g.measures.get("material", []):
            out.append((row[1:], score, g.index))
    return out


def pieces_rows(groups: Sequence[tuple[dict[str, Any], list[StoredGame]]]) -> TableParts:
    """One row per (setting, piece kind): coefficient, SE and value in ratniks."""
    columns = [("cell", _("the variant")), ("agents", _("agent A v agent B")),
               ("piece", _("piece kind (the variant's name for it)")),
               ("kind", _("kind number")),
               ("coef", _("logistic coefficient: log-odds of white scoring per extra piece")),
               ("coef_se", _("its standard error (clustered by game)")),
               ("value", _("coefficient over the ratnik's: the value in ratniks")),
               ("value_se", _("its standard error (delta method)")),
               ("value_lo",
                _("Fieller 95 % interval of the value: lower end (none: no ratio)")),
               ("value_hi", _("Fieller 95 % interval of the value: upper end")),
               ("games_needed", _("when there is no ratio: games for the ratnik's "
                                  "coefficient to clear 0")),
               ("positions", _("positions sampled")), ("games", _("games they came from")),
               ("converged",
                _("did the fit converge (no: the data separate, ignore the row)")),
               ("note", _("why there is no estimate, when there is none"))]
    rows = []
    for _setting, games in groups:
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
                         "value": v.value, "value_se": v.value_se, "value_lo": v.value_lo,
                         "value_hi": v.value_hi, "games_needed": v.games_needed,
                         "positions": len(samples),
                         "games": len(games), "converged": bool(fit and fit.converged),
                         "note": v.note})
    return (_("Piece values (logistic regression of the result on material)"),
                        columns, rows)


def stored_games_rows(games: Sequence[StoredGame]) -> TableParts:
    """One row per stored game (no record)."""
    columns = [("cell", _("the variant")), ("index", _("game number")),
               ("white", _("white's agent")), ("black", _("black's agent")),
               ("seed", _("game seed")), ("result", _("result")),
               ("termination", _("how it ended")), ("plies", _("half-moves")),
               ("settings", _("settings hash"))]
    rows = [{"cell": g.cell, "index": g.index, "white": g.result.white,
             "black": g.result.black, "seed": g.result.seed, "result": g.result.result,
             "termination": g.result.termination, "plies": g.result.plies,
             "settings": g.settings_hash} for g in games]
    return _("Games"), columns, rows



__all__ = ["CANNOT_DIFFER", "DIFFERENCE_COLUMNS", "all_alike", "cells_rows",
           "difference_rows", "piece_samples", "pieces_rows", "stored_games_rows"]
