"""The lab's charts, drawn as plain SVG text: a tournament's and a sweep's.

Why not matplotlib? It would be the heaviest dependency of the package for a handful
of simple charts, it is slow to import in JupyterLite (Pyodide), and its output is a
picture of text rather than text. Each chart here is a few dozen lines of SVG, which
every notebook, browser and GitHub page shows as it is (``_repr_svg_``), and which a
test can read back.

A tournament (``tournament_plots``) is read by **box plots with the games as dots**
(how a quantity is distributed in each variant: the box holds the middle half of the
games, the bar in it is the median, the whiskers reach the extremes) and **stacked
bars** (results by colour, how games ended).

A sweep (``store_plots``, ``sweep_plots``) is read by six pictures:

- **white score per cell with its 95 % interval** (a dot and a bar; the
  dashed line is 1/2, a fair game): two cells differ only where their bars
  do not overlap much -- the picture says what the numbers allow;
- **decisive rate per cell with its Wilson 95 % interval**: the share of games
  one side won, which a question like "which rule makes the better game?" asks;
- **how games ended** per cell (checkmate, king capture, stalemate, repetition,
  the fifty-move rule, the ply cap): a bar split by ending, so a cap that stopped
  games shows beside the endings of the rules;
- **game length** per cell as box plots;
- **piece values** per cell, in ratniks, each with ±1.96 standard errors;
- a **heat map** when the grid has two options: one square per combination,
  coloured by white's score, with the interval written in it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from tavrei_lab.core.files import write_atomically
from tavrei_lab.i18n import N_
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.results import ADJUDICATED, TERMINATIONS, GameResult
from tavrei_lab.lab.statistics import quartiles
from tavrei_lab.lab.store import ResultsStore
from tavrei_lab.lab.table import ResultsTable

_FONT = 'font-family="sans-serif" font-size="12"'
_PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
            "#8c8c8c")


class SvgPlot:
    """An SVG chart: shows itself in Jupyter, saves as a file."""

    def __init__(self, name: str, title: str, svg: str) -> None:
        self.name = name
        self.title = title
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: str) -> None:
        write_atomically(path, self.svg)

    def __repr__(self) -> str:
        return f"<SvgPlot {self.name!r}: {self.title}>"


def _ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` ("#rrggbb")."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "white"


# -- the parts every chart of the package is made of (``lab.plots`` draws with them too) --

def chart_start(title: str, width: float, height: float) -> list[str]:
    """A chart's first lines: the ``<svg>`` element, its ``<title>`` (what screen
    readers and tooltips say) and the heading. The caller appends and closes it."""
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" class="tavrei-plot" {_FONT}>',
            f'<title>{escape(title)}</title>',
            f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14" '
            f'font-weight="bold">{escape(title)}</text>']


def value_axis(ticks: Sequence[float], x: Callable[[float], float], top: float,
               axis_y: float, middle: float, name: str) -> list[str]:
    """A horizontal value axis: a faint grid line and a label at each tick (``x`` places
    a value), and the axis ``name`` under them, centred on ``middle``."""
    out = []
    for t in ticks:
        out.append(f'<line x1="{x(t):.1f}" y1="{top - 6}" x2="{x(t):.1f}" y2="{axis_y}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{x(t):.1f}" y="{axis_y + 16}" text-anchor="middle">'
                   f'{_label(t)}</text>')
    out.append(f'<text x="{middle}" y="{axis_y + 36}" text-anchor="middle">'
               f'{escape(name)}</text>')
    return out


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """About ``count`` round values (steps of 1, 2 or 5 times a power of ten) over lo..hi."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / count
    mag = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1.0
    while mag > raw:
        mag /= 10
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = (lo // step) * step
    ticks = []
    t = first
    while t <= hi + step * 1e-9:
        if t >= lo - step * 1e-9:
            ticks.append(round(t, 10))
        t += step
    return ticks


def _label(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def box_plot(name: str, title: str, axis: str, groups: Mapping[str, Sequence[float]]
             ) -> SvgPlot:
    """Horizontal box plots, one row per group, every value drawn as a dot."""
    labels = list(groups)
    left, right, top, row = 170, 30, 40, 46
    width = 640
    height = top + row * len(labels) + 46
    values = [v for vs in groups.values() for v in vs] or [0.0]
    lo, hi = min(values), max(values)
    if hi == lo:
        lo, hi = lo - 1, hi + 1
    ticks = nice_ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    span = width - left - right

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * span

    out = chart_start(title, width, height)
    out += value_axis(ticks, x, top, top + row * len(labels), left + span / 2, axis)
    for i, label in enumerate(labels):
        vs = list(groups[label])
        cy = top + row * i + row / 2
        colour = _PALETTE[i % len(_PALETTE)]
        out.append(f'<text x="{left - 10}" y="{cy + 4}" text-anchor="end">{escape(label)} '
                   f'(n={len(vs)})</text>')
        if not vs:
            continue
        mn, q1, med, q3, mx = quartiles(vs)
        out.append(f'<g class="box" data-group="{escape(label)}" data-median="{med:g}">')
        out.append(f'<line x1="{x(mn):.1f}" y1="{cy}" x2="{x(mx):.1f}" y2="{cy}" '
                   f'stroke="{colour}"/>')
        for end in (mn, mx):
            out.append(f'<line x1="{x(end):.1f}" y1="{cy - 7}" x2="{x(end):.1f}" '
                       f'y2="{cy + 7}" stroke="{colour}"/>')
        out.append(f'<rect x="{x(q1):.1f}" y="{cy - 12}" width="{max(x(q3) - x(q1), 1):.1f}" '
                   f'height="24" fill="{colour}" fill-opacity="0.25" stroke="{colour}"/>')
        out.append(f'<line x1="{x(med):.1f}" y1="{cy - 12}" x2="{x(med):.1f}" y2="{cy + 12}" '
                   f'stroke="{colour}" stroke-width="3"/>')
        for j, v in enumerate(vs):   # a deterministic jitter keeps equal values visible
            dy = ((j * 7919) % 17 - 8) * 1.1
            out.append(f'<circle cx="{x(v):.1f}" cy="{cy + dy:.1f}" r="2.2" fill="{colour}" '
                       'fill-opacity="0.7"/>')
        out.append("</g>")
    out.append("</svg>")
    return SvgPlot(name, title, "\n".join(out))


def stacked_bars(name: str, title: str, groups: Mapping[str, Mapping[str, int]],
                 categories: Sequence[str], colours: Sequence[str] | None = None,
                 words: Mapping[str, str] | None = None) -> SvgPlot:
    """One horizontal bar per group, split into the shares of ``categories``.

    ``words`` says a category in the reader's language (the legend, the tooltips); the
    ``data-category`` attribute keeps the category's own name, which a program reads.
    """
    colours = list(colours or _PALETTE)
    said = dict(words or {})
    labels = list(groups)
    left, right, top, row = 170, 30, 40, 34
    width = 640
    legend_y = top + row * len(labels) + 14
    height = legend_y + 22 * ((len(categories) + 2) // 3) + 10
    span = width - left - right
    out = chart_start(title, width, height)
    for i, label in enumerate(labels):
        counts = groups[label]
        total = sum(counts.get(c, 0) for c in categories) or 1
        y = top + row * i
        out.append(f'<text x="{left - 10}" y="{y + row / 2 + 2}" text-anchor="end">'
                   f'{escape(label)} (n={sum(counts.values())})</text>')
        x = float(left)
        for k, c in enumerate(categories):
            n = counts.get(c, 0)
            if not n:
                continue
            w = n / total * span
            out.append(f'<rect x="{x:.1f}" y="{y + 4}" width="{w:.1f}" height="{row - 8}" '
                       f'fill="{colours[k % len(colours)]}" data-category="{escape(c)}" '
                       f'data-count="{n}"><title>{escape(said.get(c, c))}: {n}</title></rect>')
            if w > 24:
                ink = _ink(colours[k % len(colours)])
                out.append(f'<text x="{x + w / 2:.1f}" y="{y + row / 2 + 4}" '
                           f'text-anchor="middle" fill="{ink}">{n}</text>')
            x += w
    for k, c in enumerate(categories):
        lx = left + (k % 3) * 150
        ly = legend_y + 22 * (k // 3)
        out.append(f'<rect x="{lx}" y="{ly}" width="12" height="12" '
                   f'fill="{colours[k % len(colours)]}"/>')
        out.append(f'<text x="{lx + 17}" y="{ly + 11}">{escape(said.get(c, c))}</text>')
    out.append("</svg>")
    return SvgPlot(name, title, "\n".join(out))


#: How a game ended, as the "endings" chart says it (a termination it does not know, a
#: record's own word, is shown as written).
ENDINGS = {"checkmate": N_("checkmate"), "stalemate": N_("stalemate"),
           "threefold-repetition": N_("threefold-repetition"),
           "fifty-move-rule": N_("fifty-move-rule"), "king-capture": N_("king-capture"),
           ADJUDICATED: N_("max-plies (adjudicated)")}
#: The "results" chart's categories: the key a program reads, the words a reader does.
RESULTS = {"white wins": N_("white wins"), "draw": N_("draw"), "black wins": N_("black wins")}

def ending_order(found: set[str]) -> list[str]:
    """The endings in the order a chart shows them: the rules' endings in
    ``lab.results.TERMINATIONS`` order, any other after them, the ply cap last."""
    kinds = [t for t in TERMINATIONS if t in found and t != ADJUDICATED]
    kinds += sorted(found - set(TERMINATIONS))
    return kinds + ([ADJUDICATED] if ADJUDICATED in found else [])


def tournament_plots(games: Sequence[GameResult]) -> dict[str, SvgPlot]:
    """The standard charts of a tournament, by name (the file names ``save`` uses),
    their words in the language in force when they are drawn."""
    by_variant: dict[str, list[GameResult]] = {}
    for g in games:
        by_variant.setdefault(g.variant, []).append(g)

    def dist(attr: str) -> dict[str, list[float]]:
        return {v: [float(getattr(g, attr)) for g in gs] for v, gs in by_variant.items()}

    plots = [
        box_plot("game_length", _("Game length"), _("plies (half-moves)"), dist("plies")),
        box_plot("branching", _("Branching factor"), _("legal moves per decision, game mean"),
                 dist("mean_branching")),
        box_plot("max_tower", _("Tallest tower in each game"), _("tavrels"),
                 dist("max_tower_height")),
        box_plot("prisoners", _("Prisoners taken per game"), _("tavrels"),
                 dist("prisoners_taken")),
        box_plot("splits", _("Splits per game"), _("moves"), dist("splits")),
    ]
    results = {v: {"white wins": sum(g.winner == "white" for g in gs),
                   "draw": sum(g.winner is None for g in gs),
                   "black wins": sum(g.winner == "black" for g in gs)}
               for v, gs in by_variant.items()}
    plots.append(stacked_bars("results", _("Results by colour"), results, list(RESULTS),
                              ["#e8e0c8", "#9a9a9a", "#333333"],
                              {k: _(v) for k, v in RESULTS.items()}))
    kinds = ending_order({g.termination for g in games})
    ends = {v: {k: sum(g.termination == k for g in gs) for k in kinds}
            for v, gs in by_variant.items()}
    plots.append(stacked_bars("endings", _("How games ended (max-plies = adjudicated)"),
                              ends, kinds, words={k: _(ENDINGS[k]) for k in kinds
                                                  if k in ENDINGS}))
    return {p.name: p for p in plots}


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
    ``lab.results.TERMINATIONS`` order, any other after them, the ply cap last."""
    kinds = ending_order({str(g["termination"]) for g in games})
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


__all__ = ["ENDINGS", "RESULTS", "SvgPlot", "box_plot", "chart_start", "ending_order",
           "endings_plot", "heat_map", "interval_plot", "nice_ticks", "stacked_bars",
           "store_plots", "sweep_plots", "tournament_plots", "value_axis"]
