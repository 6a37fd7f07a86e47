"""The old path of ``lab.game_stats``: the same names, kept for one
release (``tavrei_lab.compare`` says why)."""

from __future__ import annotations

from tavrei_lab.lab.game_stats import (
    GameStats as GameStats,
)
from tavrei_lab.lab.game_stats import (
    prisoner_changes as prisoner_changes,
)
from tavrei_lab.lab.statistics import (
    Z95 as Z95,
)
from tavrei_lab.lab.statistics import (
    incomplete_beta as incomplete_beta,
)
from tavrei_lab.lab.statistics import (
    mean as mean,
)
from tavrei_lab.lab.statistics import (
    mean_interval as mean_interval,
)
from tavrei_lab.lab.statistics import (
    median as median,
)
from tavrei_lab.lab.statistics import (
    quartiles as quartiles,
)
from tavrei_lab.lab.statistics import (
    score_interval as score_interval,
)
from tavrei_lab.lab.statistics import (
    t95 as t95,
)
from tavrei_lab.lab.statistics import (
    t_quantile as t_quantile,
)
from tavrei_lab.lab.statistics import (
    t_sf as t_sf,
)
from tavrei_lab.lab.statistics import (
    wilson_interval as wilson_interval,
)

__all__ = ["GameStats", "incomplete_beta", "mean", "mean_interval", "median", "prisoner_changes",
           "quartiles", "score_interval", "t95", "t_quantile", "t_sf", "wilson_interval", "Z95"]
