"""Result tables: a small object that looks right in Jupyter, a terminal, CSV and JSON.

No pandas needed (``to_pandas()`` converts when it is installed): a
``ResultsTable`` is a title, ordered columns with a one-line description
each, and rows of plain values. ``_repr_html_`` renders it in notebooks with
the descriptions as tooltips; ``str()`` gives an aligned text table.

The per-variant table answers "what does this rule change?": how often
white wins, draws and loses (with Wilson 95 % intervals), the first-move
advantage (a t interval on per-game scores: a draw's half point is not half a
Bernoulli success), game length, branching, tower heights, prisoners, splits, and
how games end. The per-pair table answers "which agent is stronger?".
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Sequence
from html import escape
from typing import Any, TypeVar

from tavrei_lab.compare.results import ADJUDICATED, GameResult
from tavrei_lab.compare.statistics import mean, median, score_interval, wilson_interval
from tavrei_lab.compare.table_json import MAX_TABLE_BYTES, TableShapeError, table_parts
from tavrei_lab.core.files import write_atomically
from tavrei_lab.core.reading import read_regular
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import N_
from tavrei_lab.i18n import gettext as _

#: The ways a game can end, in the order the tables show them.
TERMINATIONS = ("checkmate", "king-capture", "stalemate", "threefold-repetition",
                "fifty-move-rule", ADJUDICATED)


#: Under a table in a notebook (said in the language in force when it is shown).
HOVER = N_("Hover a column name for its meaning. Intervals: Wilson 95 % on shares, "
           "Student's t 95 % on scores.")

#: The ``end_*`` columns' meanings, one whole sentence per ending (said when a table is
#: made); an ending not listed is named in ``"games ended by {ending}"``.
ENDED = {"checkmate": N_("games ended by checkmate"),
         "king-capture": N_("games ended by king-capture"),
         "stalemate": N_("games ended by stalemate"),
         "threefold-repetition": N_("games ended by threefold-repetition"),
         "fifty-move-rule": N_("games ended by fifty-move-rule"),
         ADJUDICATED: N_("games ended by max-plies (adjudicated as a draw: not a rules "
                         "ending)")}


TableT = TypeVar("TableT", bound="ResultsTable")


class ResultsTable:
    """Rows of results with named, described columns: the one results table of the
    experiments (``lab.table.ResultsTable`` adds the store and the differences).

    >>> t = ResultsTable("demo", [("variant", "the variant"), ("games", "games played")],
    ...                  [{"variant": "tavreli", "games": 4}])
    >>> print(t.to_csv().strip())
    variant,games
    tavreli,4
    >>> t.column("games")
    [4]
    """

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


def _plain(v: Any) -> Any:
    return round(v, 6) if isinstance(v, float) else v


def _fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)


def _rate(prefix: str, count: int, n: int, counted: str,
          share: str) -> list[tuple[str, Any, str]]:
    """A count's four columns; ``counted`` and ``share`` are whole sentences, said already."""
    lo, hi = wilson_interval(count, n)
    return [(prefix, count, counted),
            (f"{prefix}_rate", count / n if n else 0.0, share),
            (f"{prefix}_lo", lo, _("Wilson 95 % interval of that share: lower end")),
            (f"{prefix}_hi", hi, _("Wilson 95 % interval of that share: upper end"))]


def _assemble(title: str, groups: list[list[tuple[str, Any, str]]]) -> ResultsTable:
    columns: list[tuple[str, str]] = []
    rows = []
    for fields in groups:
        if not columns:
            columns = [(name, desc) for name, _, desc in fields]
        rows.append({name: value for name, value, _ in fields})
    return ResultsTable(title, columns, rows)


def _distribution_fields(games: list[GameResult]) -> list[tuple[str, Any, str]]:
    plies = [g.plies for g in games]
    decisions = sum(max(1, g.plies) for g in games)
    branching = (sum(g.mean_branching * max(1, g.plies) for g in games) / decisions
                 if decisions else 0.0)
    n = len(games)
    fields: list[tuple[str, Any, str]] = [
        ("mean_plies", mean(plies), _("game length in plies (half-moves), mean")),
        ("median_plies", median(plies), _("game length in plies, median")),
        ("min_plies", min(plies), _("shortest game, plies")),
        ("max_plies", max(plies), _("longest game, plies")),
        ("branching", branching, _("average number of legal moves at a move decision")),
        ("mean_tower_height", mean([g.mean_tower_height for g in games]),
         _("tavrels per occupied square, averaged over each game's positions")),
        ("mean_max_tower", mean([g.max_tower_height for g in games]),
         _("tallest tower of a game, mean over games")),
        ("max_tower", max(g.max_tower_height for g in games),
         _("tallest tower seen in any game")),
        ("prisoners_taken", sum(g.prisoners_taken for g in games) / n,
         _("tavrels taken prisoner per game (placed under an enemy top)")),
        ("prisoners_freed", sum(g.prisoners_freed for g in games) / n,
         _("prisoners freed per game (their own colour on top again)")),
        ("captures", sum(g.captures for g in games) / n,
         _("moves onto an enemy-topped tower (or en passant) per game")),
        ("splits", sum(g.splits for g in games) / n,
         _("moves taking only part of a tower, per game")),
    ]
    ends = {t: 0 for t in TERMINATIONS}
    for g in games:
        ends[g.termination] = ends.get(g.termination, 0) + 1
    for t, c in ends.items():
        fields.append((f"end_{t}", c, _(ENDED[t]) if t in ENDED
                       else _("games ended by {ending}").format(ending=t)))
    return fields


def variants_table(games: Sequence[GameResult]) -> ResultsTable:
    """One row per variant: results by colour and what the games looked like."""
    by_variant: dict[str, list[GameResult]] = {}
    for g in games:
        by_variant.setdefault(g.variant, []).append(g)
    groups = []
    for variant, gs in by_variant.items():
        n = len(gs)
        white = sum(1 for g in gs if g.winner == "white")
        black = sum(1 for g in gs if g.winner == "black")
        draws = n - white - black
        score, lo, hi = score_interval(white, draws, black)
        fields: list[tuple[str, Any, str]] = [
            ("variant", variant, _("variant id or file")),
            ("games", n, _("games played")),
            *_rate("white_wins", white, n, _("games won by white"),
                   _("share of games won by white")),
            *_rate("draws", draws, n, _("games drawn (adjudicated games included)"),
                   _("share of games drawn (adjudicated games included)")),
            *_rate("black_wins", black, n, _("games won by black"),
                   _("share of games won by black")),
            ("white_score", score, _("white's points per game (win 1, draw 1/2)")),
            ("first_move_advantage", score - 0.5,
             _("white's score minus 1/2: the value of moving first")),
            ("fma_lo", None if lo is None else lo - 0.5,
             _("t 95 % interval of the first-move advantage, on per-game scores: lower "
               "(Wilson's on points where the games show no spread)")),
            ("fma_hi", None if hi is None else hi - 0.5,
             _("t 95 % interval of the first-move advantage, on per-game scores: upper")),
            *_distribution_fields(gs),
        ]
        groups.append(fields)
    return _assemble(_("Per variant"), groups)


def pairs_table(games: Sequence[GameResult]) -> ResultsTable:
    """One row per (variant, agent A, agent B): A's wins, draws, losses and score."""
    by_pair: dict[tuple[str, str, str], list[GameResult]] = {}
    for g in games:
        by_pair.setdefault((g.variant, g.agent_a, g.agent_b), []).append(g)
    groups = []
    for (variant, a, b), gs in by_pair.items():
        n = len(gs)
        wins = sum(1 for g in gs if g.a_score == 1.0)
        losses = sum(1 for g in gs if g.a_score == 0.0)
        draws = n - wins - losses
        _score, lo, hi = score_interval(wins, draws, losses)
        groups.append([
            ("variant", variant, _("variant id or file")),
            # games are numbered from 0 (games.json) and A has white in game 0
            ("agent_a", a, _("agent A (white in the even-numbered games)")),
            ("agent_b", b, _("agent B (white in the odd-numbered games)")),
            ("games", n, _("games played")),
            *_rate("a_wins", wins, n, _("games won by agent A"),
                   _("share of games won by agent A")),
            *_rate("draws", draws, n, _("games drawn (adjudicated games included)"),
                   _("share of games drawn (adjudicated games included)")),
            *_rate("a_losses", losses, n, _("games won by agent B"),
                   _("share of games won by agent B")),
            ("a_score", (wins + draws / 2) / n, _("agent A's points per game")),
            ("a_score_lo", lo, _("t 95 % interval of A's score, on per-game scores: lower "
                                 "end (Wilson's on points where the games show no spread)")),
            ("a_score_hi", hi, _("t 95 % interval of A's score, on per-game scores: upper "
                                 "end")),
            ("mean_plies", mean([g.plies for g in gs]), _("game length in plies, mean")),
            ("adjudicated", sum(g.adjudicated for g in gs),
             _("games stopped at the ply limit (scored as draws)")),
        ])
    return _assemble(_("Per agent pair (A's view)"), groups)


def games_table(games: Sequence[GameResult]) -> ResultsTable:
    """One row per game (everything but the record text)."""
    columns = [
        ("variant", _("variant")), ("index", _("game number within its pair (from 0)")),
        ("white", _("white's agent")), ("black", _("black's agent")),
        ("seed", _("game seed")), ("result", _("1-0, 0-1 or 1/2-1/2")),
        ("termination", _("how the game ended")),
        ("adjudicated", _("stopped at the ply limit")), ("plies", _("half-moves played")),
        ("mean_branching", _("legal moves per decision")),
        ("mean_tower_height", _("tavrels per occupied square, mean")),
        ("max_tower_height", _("tallest tower")),
        ("prisoners_taken", _("tavrels taken prisoner")),
        ("prisoners_freed", _("prisoners freed")), ("captures", _("captures")),
        ("splits", _("split moves")), ("rolls", _("die rolls")),
        ("seconds", _("wall-clock time")),
    ]
    rows = [{c: getattr(g, c) for c, _ in columns} for g in games]
    return ResultsTable(_("Games"), columns, rows)


__all__ = ["ENDED", "ResultsTable", "TERMINATIONS", "games_table", "pairs_table", "variants_table"]
