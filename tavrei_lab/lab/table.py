"""Tables built from the store: one row per cell, per piece kind, or per game.

``ResultsTable.from_store("lab.sqlite")`` reads every setting in the file
and makes one row per setting (a cell with its agents, seed and limits):
games under different settings are never pooled. ``kind="pieces"`` gives
the piece values per cell, ``kind="games"`` one row per game.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

from tavrei_lab.compare.table import ResultsTable as _BaseTable
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import N_, ngettext
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.bounds import (
    AHEAD_RATNIKS,
    bounded_difference,
    cap_fields,
    replay_command,
    same_side,
    worse_p,
)
from tavrei_lab.lab.continuation import is_continuation, played_on
from tavrei_lab.lab.differences import (
    MIN_GAMES,
    PAIRWISE,
    Difference,
    cannot_differ,
    difference_of,
    holm,
)
from tavrei_lab.lab.measures import cell_measures
from tavrei_lab.lab.piece_values import piece_values
from tavrei_lab.lab.store import ResultsStore, StoredGame
from tavrei_lab.variant import load_variant

TABLE_KINDS = ("cells", "pieces", "games")


class ResultsTable(_BaseTable):
    """The results table (``compare.table.ResultsTable``: rows, columns, CSV/JSON in and
    out, a cell's row) with what the lab adds: read from a results store, and the
    differences between its cells.

    ``source``: the store file it was read from (None: in memory, or not from a store),
    which the replay command of an undecided difference names.
    """

    source: str | None = None

    def compare(self, a: str, b: str, measure: str = "white_score",
                agents: str | None = None) -> Difference:
        """The difference a - b of ``measure`` between cells ``a`` and ``b``.

        ``measure`` is ``white_score``, ``decisive``, ``draw`` or ``length``
        (the table's column names ``decisive_rate``, ``draw_rate``,
        ``length_mean`` work too). The result has ``difference``, ``low``,
        ``high`` (its 95 % interval) and ``p_value`` (two-sided); the methods
        are in ``lab.differences``: Newcombe's interval and the score test for
        the proportions, Welch's t for white's score (half points) and length.
        One comparison: for many at once use ``differences()`` (Holm-adjusted).
        Data that cannot support a verdict give none: when neither cell's games
        show any spread the result has no p-value (``nan``) and an unbounded
        interval, and ``established`` needs ``MIN_GAMES`` (4) games in each cell.
        """
        return difference_of(self.cell_row(a, agents), self.cell_row(b, agents), measure, a, b)

    def differences(self, measures: Sequence[str] = PAIRWISE) -> ResultsTable:
        """Every pairwise difference of the cells (within each agent pair), Holm-adjusted.

        The adjustment runs over every row of the table (all pairs x all
        measures): "established" means the difference holds with a 5 %
        chance of any false claim in the whole table.
        """
        return differences_table(self, measures)

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
            raise TavreiError(_("unknown table kind {kind!r}; expected one of {names}")
                                  .format(kind=kind, names=", ".join(TABLE_KINDS)))
        own = not isinstance(store, ResultsStore)
        if own:
            path = os.fspath(store)  # type: ignore[arg-type]
            if not os.path.exists(path):
                raise TavreiError(_("{path}: no such results store").format(path=path))
            db = ResultsStore(path, readonly=True)
        else:
            db = store  # type: ignore[assignment]
        try:
            all_settings = db.settings()
            # read whole, the question's games only: not those played to measure the
            # players (their settings name a ``purpose``, ``lab.strength``), nor capped
            # games played on (``lab.continuation``), which take their originals' place
            hashes = list(settings) if settings is not None else [
                h for h, s in all_settings.items()
                if not s.get("purpose") and not is_continuation(s)]
            groups = []
            for h in hashes:
                games = db.games(h, (limits or {}).get(h))
                if games:
                    # a capped game played on to a larger cap stands in for it
                    games, replayed, cap = played_on(db, h, games, all_settings)
                    groups.append(({**all_settings.get(h, {}), "max_plies": cap,
                                    "replayed": replayed}, games))
        finally:
            if own:
                db.close()
        if kind == "cells":
            table = cells_table(groups)
        elif kind == "pieces":
            table = pieces_table(groups)
        else:
            table = games_table([g for _setting, gs in groups for g in gs])
        table.source = None if db.path == ":memory:" else db.path
        if kind == "cells" and table.source:      # kept in the rows, so a JSON copy has it
            table.columns.append("store")
            table.descriptions["store"] = _("the results store the games are in")
            for row in table.rows:
                row["store"] = table.source
        return table


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


def differences_table(cells: _BaseTable, measures: Sequence[str] = PAIRWISE) -> ResultsTable:
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
    rows = [r for r in cells.rows if int(r.get("games") or 0) >= 2]
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
    source = getattr(cells, "source", None) or next(
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
    return ResultsTable(
        _("Differences between cells (95 % intervals; Holm-adjusted p-values)"),
        [(name, _(meaning).format(games=MIN_GAMES) if name == "established" else _(meaning))
         for name, meaning in DIFFERENCE_COLUMNS], out)


def established_summary(diffs: _BaseTable) -> str:
    """In words: which differences of a differences table are established, which are not."""
    if not diffs.rows:
        return _("No two cells to compare (a grid needs at least two cells played by the "
                 "same agents).")
    yes = [r for r in diffs.rows if r["established"] == "yes"]
    alike = sorted({c for r in diffs.rows if r["established"] == "no (alike)"
                    for c in (r["a"], r["b"])})
    fixed = {str(r["measure"]): str(r.get("note") or "") for r in diffs.rows
             if r["established"] == CANNOT_DIFFER}
    rows = [r for r in diffs.rows if r["established"] != CANNOT_DIFFER]
    lines = [_("{count} of {total} differences are established (Holm-adjusted p < 0.05 over "
               "all of them):").format(count=len(yes), total=len(rows))]
    for r in yes:
        lines.append(f"  {r['measure']}: {r['a']} - {r['b']} = {r['difference']:+.3f} "
                     f"[{r['low']:+.3f}, {r['high']:+.3f}], p_holm = {r['p_holm']:.3g}")
    if not rows:
        lines[0] = _("No difference was tested: in every measure, every game of every cell "
                     "gave one value.")
    elif not yes:
        lines[0] = _("None of the {total} differences is established (Holm-adjusted p < 0.05): "
                     "more games, or no difference.").format(total=len(rows))
    else:
        lines.append(_("The others are not established: their intervals are in the --out "
                       "files (differences.csv); not established is not the same as equal."))
    for measure, why in fixed.items():
        lines.append(_("{measure} is shown, not tested ({why}; not in Holm's family).")
                     .format(measure=measure, why=why))
    for r in rows:
        if r["established"] == "undecided":
            lines.append(_("Undecided: {measure}: {a} - {b} = {difference:+.3f} with the capped "
                           "games as draws, {ahead:+.3f} with them won by the side ahead: "
                           "depends on {capped} capped games; play them on with: {command}")
                         .format(measure=r["measure"], a=r["a"], b=r["b"],
                                 difference=r["difference"], ahead=r["difference_ahead"],
                                 capped=r["capped"], command=r["replay"]))
    unbounded = sum(1 for r in rows if r["p_value"] is None)
    if unbounded:
        lines.append(ngettext(
            "{count} difference has no interval and no p-value: no cell's games varied in it.",
            "{count} differences have no interval and no p-value: no cell's games varied in "
            "them.", unbounded).format(count=unbounded))
    if alike:
        lines.append(_("Every game was alike in a cell of {cells} (one first move, one "
                       "length): a player without randomness plays one game over and over, so "
                       "its differences establish nothing; use a player with noise (level:N) "
                       "or varied openings.").format(cells=", ".join(alike)))
    return "\n".join(lines)


def _ci(v: Any, lo: Any, hi: Any, digits: int = 2) -> str:
    if lo is None or hi is None:
        return _("{value} (none)").format(value=f"{v:.{digits}f}")
    return f"{v:.{digits}f} ({lo:.{digits}f}-{hi:.{digits}f})"


def summary_table(cells: _BaseTable, width: int = 100) -> tuple[ResultsTable, ResultsTable]:
    """A terminal's view of a sweep: (cells, differences) each fitting ``width`` columns.

    The cells are numbered (#1, #2, ...) so the differences can name them in a
    few characters; the full tables, with every measure and the cells' names
    in each row, are ``table`` and ``differences()`` (and the ``--out`` files).
    Being for reading, not for reading back, its headings and verdicts are said in the
    language in force (the full tables keep their column names and "yes"/"no").
    """
    keys = [(r.get("cell"), r.get("agents")) for r in cells.rows]
    number = {k: f"#{i + 1}" for i, k in enumerate(keys)}
    several = len({a for _cell, a in keys}) > 1
    cell, games, white, decisive, length = (_("cell"), _("games"), _("white score"),
                                            _("decisive"), _("length"))
    capped = _("capped/far")
    cols = [("#", _("cell number")), (cell, _("the variant")), (games, _("games played")),
            (white, _("white's points per game (t 95 % on per-game scores)")),
            (decisive, _("share of decided games (Wilson 95 %)")),
            (length, _("mean plies (t 95 %)")),
            (capped, _("games stopped at the ply cap / draws with one side {ratniks:g}+ "
                       "ratniks ahead at the last evaluation").format(ratniks=AHEAD_RATNIKS))]
    rows = []
    for r, k in zip(cells.rows, keys):
        name = str(r.get("cell")) + (f" {r.get('agents')}" if several else "")
        room = width - 73
        rows.append({"#": number[k], cell: name if len(name) <= room else name[:room - 1] + "~",
                     games: r.get("games"),
                     white: _ci(r["white_score"], r["white_score_lo"], r["white_score_hi"]),
                     decisive: _ci(r["decisive_rate"], r["decisive_rate_lo"],
                                   r["decisive_rate_hi"]),
                     length: _ci(r["length_mean"], r["length_mean_lo"], r["length_mean_hi"], 0),
                     capped: f"{r.get('capped', '')}/{r.get('draws_ahead', '')}"})
    agents = ", ".join(sorted({str(a) for _cell, a in keys}))
    small = ResultsTable(_("Per cell ({agents}); every measure: --out cells.csv").format(
        agents=agents), cols, rows)
    diffs = differences_table(cells)
    measure, pair, difference, holm_p, established = (
        _("measure"), _("a - b"), _("difference (95 %)"), _("p Holm"), _("established"))
    verdicts = {"yes": _("yes"), "no": _("no"), "no (alike)": _("no (alike)"),
                CANNOT_DIFFER: _("cannot differ"), "undecided": _("undecided")}
    drows = [{measure: d["measure"], pair: f"{number[(d['a'], d['agents'])]} - "
              f"{number[(d['b'], d['agents'])]}",
              difference: (_("{difference:+.3f} (no interval)").format(
                  difference=d["difference"]) if d["low"] is None else
                  _("{difference:+.3f} ({low:+.3f} to {high:+.3f})").format(
                  difference=d["difference"], low=d["low"], high=d["high"])),
              "p": "" if d.get("p_bound") is None else f"{d['p_bound']:.3g}",
              holm_p: "" if d["p_holm"] is None else f"{d['p_holm']:.3g}",
              established: verdicts.get(d["established"], d["established"])}
             for d in diffs.rows]
    dcols = [(measure, _("the measure")), (pair, _("the cells, by number")),
             (difference, _("a - b and its 95 % interval")),
             ("p", _("p-value: the worse of the capped games' two bounds")),
             (holm_p, _("Holm-adjusted over every row")),
             (established, _("p Holm < 0.05 at both bounds"))]
    return small, ResultsTable(_("Differences (Holm over all rows); full: --out "
                                 "differences.csv"), dcols, drows)


def _head(setting: dict[str, Any], games: list[StoredGame]) -> list[tuple[str, Any, str]]:
    return [("cell", games[0].cell, _("the variant: base[option=value,...]")),
            ("agents", f"{games[0].result.agent_a} v {games[0].result.agent_b}",
             _("agent A v agent B (A has white in the even-numbered games)")),
            ("seed", setting.get("seed"), _("sweep seed")),
            ("settings", games[0].settings_hash, _("settings hash every game row carries"))]


def cells_table(groups: Sequence[tuple[dict[str, Any], list[StoredGame]]]) -> ResultsTable:
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
    return ResultsTable(_("Per cell (Wilson 95 % intervals on rates, t on white's score and "
                          "length)"), columns, rows)


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
    return ResultsTable(_("Piece values (logistic regression of the result on material)"),
                        columns, rows)


def games_table(games: Sequence[StoredGame]) -> ResultsTable:
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
    return ResultsTable(_("Games"), columns, rows)


__all__ = ["CANNOT_DIFFER", "DIFFERENCE_COLUMNS", "ResultsTable", "TABLE_KINDS", "cells_table",
           "differences_table", "established_summary", "summary_table",
           "games_table", "piece_samples", "pieces_table"]
