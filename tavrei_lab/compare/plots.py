"""The old path of ``lab.plots``: the same names, kept for one
release (``tavrei_lab.compare`` says why)."""

from __future__ import annotations

from tavrei_lab.lab.plots import (
    ENDINGS as ENDINGS,
)
from tavrei_lab.lab.plots import (
    RESULTS as RESULTS,
)
from tavrei_lab.lab.plots import (
    SvgPlot as SvgPlot,
)
from tavrei_lab.lab.plots import (
    box_plot as box_plot,
)
from tavrei_lab.lab.plots import (
    chart_start as chart_start,
)
from tavrei_lab.lab.plots import (
    nice_ticks as nice_ticks,
)
from tavrei_lab.lab.plots import (
    stacked_bars as stacked_bars,
)
from tavrei_lab.lab.plots import (
    tournament_plots as tournament_plots,
)
from tavrei_lab.lab.plots import (
    value_axis as value_axis,
)

__all__ = ["box_plot", "chart_start", "ENDINGS", "nice_ticks", "RESULTS", "stacked_bars",
           "SvgPlot", "tournament_plots", "value_axis"]
