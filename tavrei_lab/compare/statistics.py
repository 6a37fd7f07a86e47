"""The old path of ``lab.statistics``: the same names, kept for one
release (``tavrei_lab.compare`` says why)."""

from __future__ import annotations

from tavrei_lab.lab.statistics import (
    BOOTSTRAP as BOOTSTRAP,
)
from tavrei_lab.lab.statistics import (
    MAX_PLANNED_GAMES as MAX_PLANNED_GAMES,
)
from tavrei_lab.lab.statistics import (
    Z95 as Z95,
)
from tavrei_lab.lab.statistics import (
    elo as elo,
)
from tavrei_lab.lab.statistics import (
    elo_interval as elo_interval,
)
from tavrei_lab.lab.statistics import (
    elo_of_games as elo_of_games,
)
from tavrei_lab.lab.statistics import (
    elo_score as elo_score,
)
from tavrei_lab.lab.statistics import (
    games_for_means as games_for_means,
)
from tavrei_lab.lab.statistics import (
    games_for_proportions as games_for_proportions,
)
from tavrei_lab.lab.statistics import (
    holm as holm,
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
    newcombe_interval as newcombe_interval,
)
from tavrei_lab.lab.statistics import (
    normal_two_sided as normal_two_sided,
)
from tavrei_lab.lab.statistics import (
    obrien_fleming_spent as obrien_fleming_spent,
)
from tavrei_lab.lab.statistics import (
    pair_half_width as pair_half_width,
)
from tavrei_lab.lab.statistics import (
    pair_interval as pair_interval,
)
from tavrei_lab.lab.statistics import (
    pair_scores as pair_scores,
)
from tavrei_lab.lab.statistics import (
    quartiles as quartiles,
)
from tavrei_lab.lab.statistics import (
    repeat_interval as repeat_interval,
)
from tavrei_lab.lab.statistics import (
    score_interval as score_interval,
)
from tavrei_lab.lab.statistics import (
    score_moments as score_moments,
)
from tavrei_lab.lab.statistics import (
    score_test as score_test,
)
from tavrei_lab.lab.statistics import (
    sprt as sprt,
)
from tavrei_lab.lab.statistics import (
    sprt_bounds as sprt_bounds,
)
from tavrei_lab.lab.statistics import (
    sprt_llr as sprt_llr,
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
    welch as welch,
)
from tavrei_lab.lab.statistics import (
    wilson_interval as wilson_interval,
)
from tavrei_lab.lab.statistics import (
    z_for as z_for,
)

__all__ = ["BOOTSTRAP", "elo", "elo_interval", "elo_of_games", "elo_score", "games_for_means",
           "games_for_proportions", "holm", "incomplete_beta", "MAX_PLANNED_GAMES", "mean",
           "mean_interval", "median", "newcombe_interval", "normal_two_sided",
           "obrien_fleming_spent", "pair_half_width", "pair_interval", "pair_scores", "quartiles",
           "repeat_interval", "score_interval", "score_moments", "score_test", "sprt",
           "sprt_bounds", "sprt_llr", "t95", "t_quantile", "t_sf", "welch", "wilson_interval",
           "Z95", "z_for"]
