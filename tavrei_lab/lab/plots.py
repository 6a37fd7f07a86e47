"""The lab's charts, drawn as plain SVG text like ``compare.plots``.

Six pictures read a sweep:

- **white score per cell with its 95 % interval** (a dot and a bar; the
  dashed line is 1/2, a fair game): two cells differ only where their bars
  do not overlap much -- the picture says what the numbers allow;
- **decisive rate per cell with its Wilson 95 % interval**: the share of games
  one side won, which a question like "which rule makes the better game?" asks;
- **how games ended** per cell (checkmate, king capture, stalemate, repetition,
  the fifty-move rule, the ply cap): a bar split by ending, so a cap that stopped
  games shows beside the endings of the rules;
- **game length** per cell as box plots (``compare.plots.box_plot``);
- **piece values** per cell, in ratniks, each with ±1.96 standard errors;
- a **heat map** when the grid has two options: one square per combination,
  coloured by white's score, with the interval written in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from tavrei_lab.compare.plots import (
    ENDINGS,
    SvgPlot,
    box_plot,
    chart_start,
    nice_ticks,
    stacked_bars,
    value_axis,
)
from tavrei_lab.compare.results import ADJUDICATED
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.measures import TERMINATIONS
from tavrei_lab.lab.store import ResultsStore
from tavrei_lab.lab.table import ResultsTable


def interval_plot(name: str, title: str, axis: str,
                  rows: Sequence[tuple[str, float, float | None, float | None]],
                  reference: float | None = None,
                  bounds: tuple[float, float] | None = None) -> SvgPlot:
    """One row per (label, value, low, high): a dot with its interval as a bar.

    A row without an interval (low and high None: one game, or every game alike) gets
    its dot alone: a bar of no width would claim the value is known exactly.
    """
    left, right, top, row = 230, 30, 40, 30
    width = 680
    height = top + row * max(1, len(rows)) + 46
    if bounds is None:
        values = [v for _, *vs in rows for v in vs if v is not None] or [0.0, 1.0]
        if reference is not None:
            values.append(reference)
        lo, hi = min(values), max(values)
        if hi == lo:
            lo, hi = lo - 1, hi + 1
        ticks = nice_ticks(lo, hi)
        lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    else:
        lo, hi = bounds
        ticks = nice_ticks(lo, hi)
    span = width - left - right

    def x(v: float) -> float:
        return left + (min(max(v, lo), hi) - lo) / (hi - lo) * span

    axis_y = top + row * max(1, len(rows))
    out = chart_start(title, width, height)
    out += value_axis(ticks, x, top, axis_y, left + span / 2, axis)
    if reference is not None:
        out.append(f'<line x1="{x(reference):.1f}" y1="{top - 6}" x2="{x(reference):.1f}" '
                   f'y2="{axis_y}" stroke="#c44e52" stroke-dasharray="4 3"/>')
    for i, (label, value, low, high) in enumerate(rows):
        cy = top + row * i + row / 2
        ends = ("" if low is None or high is None
                else f' data-lo="{low:.6g}" data-hi="{high:.6g}"')
        out.append(f'<g class="interval" data-label="{escape(label)}" data-value="{value:.6g}"'
                   f'{ends}>')
        out.append(f'<text x="{left - 10}" y="{cy + 4}" text-anchor="end">{escape(label)}'
                   '</text>')
        if low is not None and high is not None:
            out.append(f'<line x1="{x(low):.1f}" y1="{cy}" x2="{x(high):.1f}" y2="{cy}" '
                       'stroke="#4c72b0" stroke-width="3"/>')
        out.append(f'<circle cx="{x(value):.1f}" cy="{cy}" r="5" fill="#4c72b0"/>')
        out.append("</g>")
    out.append("</svg>")
    return SvgPlot(name, title, "\n".join(out))


def _mix(score: float) -> str:
    """Colour for a white score: black's wins dark, 1/2 pale, white's wins warm."""
    s = min(max(score, 0.0), 1.0)
    if s < 0.5:
        f = s / 0.5
        a, b = (51, 51, 51), (240, 240, 240)
    else:
        f = (s - 0.5) / 0.5
        a, b = (240, 240, 240), (221, 132, 82)
    r, g, bl = (round(a[i] + (b[i] - a[i]) * f) for i in range(3))
    return f"#{r:02x}{g:02x}{bl:02x}"


#: Widest a character of the charts' 12 px sans-serif text draws (px; "m" and "w"
#: are about 9, the average near 6.5): the legend's room is counted with it.
LEGEND_CHAR = 7.5


def heat_map(name: str, title: str, x_option: str, y_option: str,
             cells: Sequence[dict[str, Any]]) -> SvgPlot:
    """A square per (x value, y value), coloured by white's score, interval written in it.

    ``cells``: dicts with ``x``, ``y``, ``score``, ``lo``, ``hi`` and ``games``.
    """
    xs: list[Any] = []
    ys: list[Any] = []
    for c in cells:
        if c["x"] not in xs:
            xs.append(c["x"])
        if c["y"] not in ys:
            ys.append(c["y"])
    size_w, size_h, left, top = 150, 70, 170, 60
    legend = [_("white score: dark = black wins, pale = even, orange = white wins"),
              _("below it: its t 95 % interval (per-game scores) and n, the games played")]
    # the legend sets the width when the grid is narrower: drawn from x = 10, never clipped
    width = max(left + size_w * len(xs) + 20, 20 + LEGEND_CHAR * max(map(len, legend)))
    height = top + size_h * len(ys) + 24 + 18 * len(legend)
    out = chart_start(title, width, height)
    out += [f'<text x="{left + size_w * len(xs) / 2}" y="{top - 24}" text-anchor="middle">'
            f'{escape(x_option)}</text>',
            f'<text x="20" y="{top + size_h * len(ys) / 2}" text-anchor="middle" '
            f'transform="rotate(-90 20 {top + size_h * len(ys) / 2})">{escape(y_option)}'
            '</text>']
    for i, v in enumerate(xs):
        out.append(f'<text x="{left + size_w * i + size_w / 2}" y="{top - 6}" '
                   f'text-anchor="middle">{escape(_text(v))}</text>')
    for j, v in enumerate(ys):
        out.append(f'<text x="{left - 10}" y="{top + size_h * j + size_h / 2 + 4}" '
                   f'text-anchor="end">{escape(_text(v))}</text>')
    for c in cells:
        i, j = xs.index(c["x"]), ys.index(c["y"])
        fill = _mix(c["score"])
        ink = "white" if c["score"] < 0.25 else "black"
        x0, y0 = left + size_w * i, top + size_h * j
        out.append(f'<g class="heat" data-x="{escape(_text(c["x"]))}" '
                   f'data-y="{escape(_text(c["y"]))}" data-score="{c["score"]:.6g}">')
        out.append(f'<rect x="{x0}" y="{y0}" width="{size_w - 2}" height="{size_h - 2}" '
                   f'fill="{fill}"/>')
        out.append(f'<text x="{x0 + size_w / 2}" y="{y0 + 28}" text-anchor="middle" '
                   f'fill="{ink}" font-size="15">{c["score"]:.3f}</text>')
        under = (_("no interval, n={games}").format(games=c["games"])
                 if c["lo"] is None or c["hi"] is None
                 else f'[{c["lo"]:.2f}, {c["hi"]:.2f}] n={c["games"]}')
        out.append(f'<text x="{x0 + size_w / 2}" y="{y0 + 48}" text-anchor="middle" '
                   f'fill="{ink}">{escape(under)}</text>')
        out.append("</g>")
    for k, line in enumerate(legend):
        out.append(f'<text class="legend" x="10" y="{top + size_h * len(ys) + 24 + 18 * k}">'
                   f'{escape(line)}</text>')
    out.append("</svg>")
    return SvgPlot(name, title, "\n".join(out))


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def store_plots(store: Any, settings: Sequence[str] | None = None,
                limits: dict[str, int] | None = None) -> dict[str, SvgPlot]:
    """The charts of the games in a results store (a file or a ``ResultsStore``), by name,
    their words in the language in force when they are drawn (option names, cell names
    and option values are written as typed).

    ``settings`` and ``limits`` choose games as ``ResultsTable.from_store`` does. The
    heat map is drawn when the settings are one base and one agent pair over exactly
    two options.
    """
    own = not isinstance(store, ResultsStore)
    db = ResultsStore(store, readonly=True) if own else store
    try:
        table = ResultsTable.from_store(db, "cells", settings, limits)
        pieces = ResultsTable.from_store(db, "pieces", settings, limits)
        games = ResultsTable.from_store(db, "games", settings, limits)
        stored = db.settings()
    finally:
        if own:
            db.close()
    several = len(set(table.column("agents"))) > 1

    def label(row: dict[str, Any]) -> str:
        return f"{row['cell']} ({row['agents']})" if several else str(row["cell"])

    plots = [interval_plot(
        "white_score", _("White's score per cell (95 % interval; dashed: an even game)"),
        _("white's points per game"),
        [(label(r), r["white_score"], r["white_score_lo"], r["white_score_hi"])
         for r in table.rows], reference=0.5, bounds=(0.0, 1.0))]
    labels = {r["settings"]: label(r) for r in table.rows}
    lengths: dict[str, list[float]] = {labels[h]: [] for h in labels}
    for g in games.rows:
        lengths[labels[g["settings"]]].append(float(g["plies"]))
    plots.append(box_plot("game_length", _("Game length per cell"), _("plies (half-moves)"),
                          lengths))
    plots.append(interval_plot(
        "decisive_rate", _("Decisive rate per cell (Wilson 95 % interval)"),
        _("share of games won by either side"),
        [(label(r), r["decisive_rate"], r["decisive_rate_lo"], r["decisive_rate_hi"])
         for r in table.rows], bounds=(0.0, 1.0)))
    plots.append(endings_plot(games.rows, labels))
    rows = [(f"{r['cell']}: {r['piece']}", r["value"], r["value_lo"], r["value_hi"])
            for r in pieces.rows if r.get("value_lo") is not None and r["converged"]]
    if rows:
        plots.append(interval_plot(
            "piece_values", _("Piece values in ratniks (Fieller 95 % intervals)"),
            _("value in ratniks (the ratnik = 1)"), rows, reference=None))
    options = [stored.get(r["settings"], {}).get("options", {}) for r in table.rows]
    names = {tuple(o) for o in options}
    variants = {stored.get(r["settings"], {}).get("variant") for r in table.rows}
    if len(names) == 1 and len(next(iter(names))) == 2 and len(variants) == 1 and not several:
        x_opt, y_opt = next(iter(names))
        heat = [{"x": o[x_opt], "y": o[y_opt], "score": r["white_score"],
                 "lo": r["white_score_lo"], "hi": r["white_score_hi"], "games": r["games"]}
                for o, r in zip(options, table.rows)]
        plots.append(heat_map("heat_map", _("White's score by {x} and {y}").format(
            x=x_opt, y=y_opt), x_opt, y_opt, heat))
    return {p.name: p for p in plots}


def endings_plot(games: Sequence[dict[str, Any]], labels: dict[str, str]) -> SvgPlot:
    """How the games of each cell ended: one bar a cell (``labels``: settings hash to the
    cell's label, in the table's order), split by termination -- the rules' endings in
    ``lab.measures.TERMINATIONS`` order, any other after them, the ply cap last."""
    found = {str(g["termination"]) for g in games}
    kinds = [t for t in TERMINATIONS if t in found and t != ADJUDICATED]
    kinds += sorted(found - set(TERMINATIONS))
    kinds += [ADJUDICATED] if ADJUDICATED in found else []
    ends: dict[str, dict[str, int]] = {labels[h]: {} for h in labels}
    for g in games:
        counts = ends[labels[g["settings"]]]
        counts[str(g["termination"])] = counts.get(str(g["termination"]), 0) + 1
    return stacked_bars("endings", _("How games ended per cell (max-plies: stopped at the ply "
                                     "cap, adjudicated a draw)"), ends, kinds,
                        words={k: _(ENDINGS[k]) for k in kinds if k in ENDINGS})


def sweep_plots(result: Any) -> dict[str, SvgPlot]:
    """The charts of a sweep, by name (the file names ``SweepResult.save`` uses)."""
    return store_plots(result.store, result.hashes, {u.hash: u.limit for u in result.units})


__all__ = ["endings_plot", "heat_map", "interval_plot", "store_plots", "sweep_plots"]
