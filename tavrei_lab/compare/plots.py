"""Plots of a tournament, drawn as plain SVG text.

Why not matplotlib? It would be the heaviest dependency of the package for
a handful of simple charts, it is slow to import in JupyterLite (Pyodide),
and its output is a picture of text rather than text. The charts a
comparison needs are two: a **box plot with the games as dots** (how a
quantity is distributed in each variant: the box holds the middle half of
the games, the bar in it is the median, the whiskers reach the extremes)
and **stacked bars** (how games ended). Both are a few dozen lines of SVG,
which every notebook, browser and GitHub page shows as it is
(``_repr_svg_``), and which a test can read back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from xml.sax.saxutils import escape

from tavrei_lab.compare.results import ADJUDICATED, GameResult
from tavrei_lab.compare.statistics import quartiles
from tavrei_lab.core.files import write_atomically
from tavrei_lab.i18n import N_
from tavrei_lab.i18n import gettext as _

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
    kinds: list[str] = []
    for g in games:
        if g.termination not in kinds:
            kinds.append(g.termination)
    kinds.sort(key=lambda k: (k == ADJUDICATED, k))
    ends = {v: {k: sum(g.termination == k for g in gs) for k in kinds}
            for v, gs in by_variant.items()}
    plots.append(stacked_bars("endings", _("How games ended (max-plies = adjudicated)"),
                              ends, kinds, words={k: _(ENDINGS[k]) for k in kinds
                                                  if k in ENDINGS}))
    return {p.name: p for p in plots}


__all__ = ["ENDINGS", "RESULTS", "SvgPlot", "box_plot", "chart_start", "nice_ticks", "stacked_bars",
           "tournament_plots", "value_axis"]
