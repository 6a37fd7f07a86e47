"""The results table: one object for every table of the lab, that looks right in
Jupyter, a terminal, CSV and JSON.

No pandas needed (``to_pandas()`` converts when it is installed): a ``ResultsTable``
is a title, ordered columns with a one-line description each, and rows of plain
values. ``_repr_html_`` renders it in notebooks with the descriptions as tooltips;
``str()`` gives an aligned text table.

A tournament's tables (per variant, per agent pair, per game: ``lab.table_rows``) and
a store's (per cell, per piece kind, per game, and the differences between cells:
``lab.cell_rows``) are all of this one class. ``ResultsTable.from_store("lab.sqlite")``
reads every setting in a results store and makes one row per setting (a cell with
its agents, seed and limits): games under different settings are never pooled.
``compare`` and ``differences`` test the difference between two cells, or between
every pair of cells.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Sequence
from html import escape
from typing import Any, TypeVar

from tavrei_lab.core.files import write_atomically
from tavrei_lab.core.reading import read_regular
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import N_, ngettext
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.bounds import AHEAD_RATNIKS
from tavrei_lab.lab.cell_rows import (
    CANNOT_DIFFER,
    DIFFERENCE_COLUMNS,
    all_alike,
    cells_rows,
    difference_rows,
    piece_samples,
    pieces_rows,
    stored_games_rows,
)
from tavrei_lab.lab.continuation import is_continuation, played_on
from tavrei_lab.lab.differences import PAIRWISE, Difference, difference_of
from tavrei_lab.lab.results import GameResult
from tavrei_lab.lab.store import ResultsStore, StoredGame
from tavrei_lab.lab.table_json import MAX_TABLE_BYTES, TableShapeError, table_parts
from tavrei_lab.lab.table_rows import ENDED, games_rows, pairs_rows, variants_rows

#: The tables ``from_store`` makes.
TABLE_KINDS = ("cells", "pieces", "games")

#: Under a table in a notebook (said in the language in force when it is shown).
HOVER = N_("Hover a column name for its meaning. Intervals: Wilson 95 % on shares, "
           "Student's t 95 % on scores.")


TableT = TypeVar("TableT", bound="ResultsTable")


class ResultsTable:
    """Rows of results with named, described columns: the one results table of the
    experiments -- rows, columns, CSV/JSON in and out, a cell's row, read from a results
    store, and the differences between its cells.

    ``source``: the store file it was read from (None: in memory, or not from a store),
    which the replay command of an undecided difference names.

    >>> t = ResultsTable("demo", [("variant", "the variant"), ("games", "games played")],
    ...                  [{"variant": "tavreli", "games": 4}])
    >>> print(t.to_csv().strip())
    variant,games
    tavreli,4
    >>> t.column("games")
    [4]
    """

    source: str | None = None

    def __init__(self, title: str, columns: Sequence[tuple[str, str]],
                 rows: Sequence[dict[str, Any]]) -> None:
        self.title = title
        self.columns = [c for c, _ in columns]
        self.descriptions = dict(columns)
        self.rows = [dict(r) for r in rows]

    def __len__(self) -> int:
        return len(self.rows)

    def column(self, name: str) -> list[Any]:
        return [r.get(name) for r in self.rows]

    def row(self, **match: Any) -> dict[str, Any]:
        """The first row whose fields equal ``match`` (KeyError if none)."""
        for r in self.rows:
            if all(r.get(k) == v for k, v in match.items()):
                return r
        raise KeyError(_("no row with {match}").format(match=match))

    def to_dicts(self) -> list[dict[str, Any]]:
        return [{c: r.get(c) for c in self.columns} for r in self.rows]

    def to_csv(self, path: str | None = None) -> str:
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=self.columns, lineterminator="\n")
        writer.writeheader()
        for r in self.to_dicts():
            writer.writerow({k: _plain(v) for k, v in r.items()})
        text = buf.getvalue()
        if path is not None:
            write_atomically(path, text)
        return text

    def to_json(self, path: str | None = None) -> str:
        text = json.dumps({"title": self.title, "columns": [
            {"name": c, "description": self.descriptions[c]} for c in self.columns],
            "rows": self.to_dicts()}, indent=2, ensure_ascii=False)
        if path is not None:
            write_atomically(path, text)
        return text

    def to_pandas(self) -> Any:
        import pandas as pd  # optional: only if the user has it
        return pd.DataFrame(self.to_dicts(), columns=self.columns)

    def _repr_html_(self) -> str:
        head = "".join(f'<th title="{escape(self.descriptions[c])}">{escape(c)}</th>'
                       for c in self.columns)
        body = []
        for r in self.rows:
            cells = "".join(
                f'<td style="text-align:{"right" if isinstance(r.get(c), (int, float)) else "left"}'
                f'">{escape(_fmt(r.get(c)))}</td>' for c in self.columns)
            body.append(f"<tr>{cells}</tr>")
        return (f'<div class="tavrei-table"><b>{escape(self.title)}</b>'
                f'<table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
                f"</table><small>{escape(_(HOVER))}</small></div>")

    def __str__(self) -> str:
        return self.text()

    def text(self, max_width: int = 120) -> str:
        """An aligned text table; wider than ``max_width``, it is turned on its side
        (one line per column, one text column per row) so a terminal can show it."""
        plain = self._text_rows()
        if max(len(line) for line in plain) <= max_width or not self.rows:
            return "\n".join(plain)
        cells = [[c] + [_fmt(r.get(c)) for r in self.rows] for c in self.columns]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.rows) + 1)]
        lines = [self.title]
        for row in cells:
            lines.append("  ".join(v.ljust(w) if i == 0 else v.rjust(w)
                                   for i, (v, w) in enumerate(zip(row, widths))).rstrip())
        return "\n".join(lines)

    def said(self) -> str:
        """The table for a reader at a terminal: one line per column, named by its
        description in the language in force (the identifiers stay the CSV and JSON
        keys), then one value per row."""
        cells = [[self.descriptions[c]] + [_fmt(r.get(c)) for r in self.rows]
                 for c in self.columns]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.rows) + 1)]
        lines = [self.title]
        for row in cells:
            lines.append("  ".join(v.ljust(w) if i == 0 else v.rjust(w)
                                   for i, (v, w) in enumerate(zip(row, widths))).rstrip())
        return "\n".join(lines)

    def _text_rows(self) -> list[str]:
        cells = [[c for c in self.columns]] + [[_fmt(r.get(c)) for c in self.columns]
                                               for r in self.rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.columns))]
        lines = [self.title]
        for n, row in enumerate(cells):
            lines.append("  ".join(v.rjust(w) if n else v.ljust(w)
                                   for v, w in zip(row, widths)).rstrip())
            if n == 0:
                lines.append("  ".join("-" * w for w in widths))
        return lines

    def __repr__(self) -> str:
        return f"<ResultsTable {self.title!r}: {len(self.rows)} rows x {len(self.columns)} columns>"

    @classmethod
    def from_json(cls: type[TableT], source: str | os.PathLike[str]) -> TableT:
        """A table written by ``to_json`` (a file, or the JSON text itself), e.g. a
        sweep's ``--out`` ``cells.json``: ``compare`` and ``differences`` work on it,
        as they need only each cell's counts, means and spreads.

        Anything else is a ``TavreiError`` naming the file (or "the JSON text") and what
        is wrong where (``rows[3]['games']``): a file past ``MAX_TABLE_BYTES``, a folder,
        a pipe or a device (not waited on, not read past the limit), text that is not
        UTF-8 or not JSON, nesting deeper than a table has, or a value of the wrong kind.
        """
        where = ""        # the file's name, for the error (none for JSON text)

        def refused(reason: object) -> TavreiError:
            if where:
                return TavreiError(_("{path}: not a ResultsTable JSON: {reason}").format(
                    path=where, reason=reason))
            return TavreiError(_("not a ResultsTable JSON: {reason}").format(reason=reason))
        text = source if isinstance(source, str) else ""
        if not text.lstrip().startswith(("{", "[")):
            where = os.fspath(source) if not isinstance(source, str) else source
            if not where:
                raise TavreiError(_("ResultsTable.from_json: an empty name is no table file"))
            if not os.path.lexists(where):
                raise TavreiError(_("{text}: no such table file").format(text=where))
            raw = read_regular(where, MAX_TABLE_BYTES, refused)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise refused(_("not UTF-8 text ({reason} at byte {start})").format(
                    reason=exc.reason, start=exc.start)) from None
        elif len(text) > MAX_TABLE_BYTES:
            raise refused(_("more than {limit} characters").format(limit=f"{MAX_TABLE_BYTES:,}"))
        try:
            data = json.loads(text)
        except RecursionError:
            raise refused(_("nested too deeply")) from None
        except json.JSONDecodeError as exc:
            raise refused(exc) from None
        except ValueError:             # an integer of thousands of digits
            raise refused(_("a number too long to read")) from None
        try:
            title, columns, rows = table_parts(data)
        except TableShapeError as exc:
            raise refused(exc) from None
        return cls(title, columns, rows)

    def cell_row(self, name: str, agents: str | None = None) -> dict[str, Any]:
        """The row of the cell called ``name`` (and played by ``agents``, when several are)."""
        rows = [r for r in self.rows if r.get("cell") == name
                and (agents is None or r.get("agents") == agents)]
        if not rows:
            cells = sorted({str(r.get("cell")) for r in self.rows})
            listed = ", ".join(cells) or _("(none)")
            if agents:
                raise TavreiError(_("no cell {name!r} with agents {agents!r} in the table; its "
                                    "cells: {cells}").format(name=name, agents=agents,
                                                             cells=listed))
            raise TavreiError(_("no cell {name!r} in the table; its cells: {cells}").format(
                name=name, cells=listed))
        if len(rows) > 1:
            pairs = ", ".join(sorted({str(r.get("agents")) for r in rows}))
            raise TavreiError(_("cell {name!r} was played by several agent pairs ({pairs}); say "
                                "which with agents=").format(name=name, pairs=pairs))
        return rows[0]


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



def _plain(v: Any) -> Any:
    return round(v, 6) if isinstance(v, float) else v


def _fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)



def variants_table(games: Sequence[GameResult]) -> ResultsTable:
    """One row per variant: results by colour and what the games looked like."""
    return ResultsTable(*variants_rows(games))


def pairs_table(games: Sequence[GameResult]) -> ResultsTable:
    """One row per (variant, agent A, agent B): A's wins, draws, losses and score."""
    return ResultsTable(*pairs_rows(games))


def tournament_games_table(games: Sequence[GameResult]) -> ResultsTable:
    """One row per game of a tournament (everything but the record text)."""
    return ResultsTable(*games_rows(games))


def cells_table(groups: Sequence[tuple[dict[str, Any], list[StoredGame]]]) -> ResultsTable:
    """One row per setting: every measure of ``lab.measures.cell_measures``."""
    return ResultsTable(*cells_rows(groups))


def pieces_table(groups: Sequence[tuple[dict[str, Any], list[StoredGame]]]) -> ResultsTable:
    """One row per (setting, piece kind): coefficient, SE and value in ratniks."""
    return ResultsTable(*pieces_rows(groups))


def games_table(games: Sequence[StoredGame]) -> ResultsTable:
    """One row per stored game (no record)."""
    return ResultsTable(*stored_games_rows(games))


def differences_table(cells: ResultsTable, measures: Sequence[str] = PAIRWISE) -> ResultsTable:
    """Every pair of cells played by the same agents, every measure, with Holm's correction.

    Each difference is computed at both bounds of the capped games (``lab.bounds``): as
    draws (``difference``, ``low``, ``high``, ``p_value``) and for the side ahead (the
    ``*_ahead`` columns); Holm's correction runs over the worse of the two p-values
    (``p_bound``). A difference one bound establishes and the other does not is
    "undecided", with the command that plays the capped games on (``replay``).
    """
    return ResultsTable(*difference_rows(cells.rows, getattr(cells, "source", None), measures))


def established_summary(diffs: ResultsTable) -> str:
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


def summary_table(cells: ResultsTable,
                  width: int = 100) -> tuple[ResultsTable, ResultsTable]:
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


__all__ = ["CANNOT_DIFFER", "DIFFERENCE_COLUMNS", "ENDED", "HOVER", "ResultsTable", "TABLE_KINDS",
           "all_alike", "cells_table", "differences_table", "established_summary", "games_table",
           "pairs_table", "piece_samples", "pieces_table", "summary_table",
           "tournament_games_table", "variants_table"]
