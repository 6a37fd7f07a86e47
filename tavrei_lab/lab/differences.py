"""Is one cell different from another? Intervals and tests of differences, corrections, plans.

Two cells' intervals overlapping does not mean "can't tell": the difference
has its own, narrower interval (20 games a cell, 1.00 [0.84, 1.00] and
0.70 [0.48, 0.86] overlap, yet their difference is +0.30 [+0.08, +0.52],
p = 0.008). This module gives that interval and its test, for each kind of
measure a cell has:

==================  ==========================================  ============================
measure             95 % interval of the difference a - b       two-sided p-value
==================  ==========================================  ============================
decisive, draw      Newcombe (1998) hybrid score interval,      score (pooled z) test of two
(proportions)       his method 10: the two Wilson intervals     proportions
                    combined; sound near 0 and 1
white_score         Welch t interval on per-game scores         Welch t test
(half points)       (1, 1/2, 0)
length              Welch t interval on per-game plies          Welch t test
==================  ==========================================  ============================

Why Welch t for white's score: with half points a game's score is not a
Bernoulli draw (a draw is half a win, not half the games), so the binomial
intervals do not apply; the per-game scores are a trinomial sample whose
mean and variance the t interval uses directly, and Welch's form does not
assume the two cells have the same spread (a drawish cell and a decisive
one do not). Pairs of games (one opening with each colour) would cancel
the opening's bias, but a sweep's cells do not share openings, so the
games of a cell are the units.

When the data cannot support a decision, none is made. Welch's test takes the
spread of each cell from its games; when the games of both cells gave one value each
(two wins against two losses, every game stopped at the ply cap, a player without
randomness repeating one game) the standard error is 0, which is not "known exactly"
but "no spread seen yet". Such a difference has no p-value (``nan``; None in the
tables) and an unbounded interval (-inf, +inf; None in the tables): it is neither
established nor excluded, and ``--until-decided`` plays on (scipy's ``ttest_ind``
says p = 0 when the two values differ: a certainty a few games do not give). And no
difference is decided with fewer than ``MIN_GAMES`` (4) games a cell, where the
large-sample tests are not to be trusted (see ``MIN_GAMES``).

Many differences at once (every pair of cells of a grid) are corrected by
Holm's (1979) step-down method, which holds the chance of any false
"established" at 5 % over the whole grid. Repeated looks at a growing
sample (``--until-decided``) spend alpha by the Lan-DeMets O'Brien-Fleming-
type function (``obrien_fleming_spent``), each look tested at its own
increment of alpha (a union bound: exact boundaries would be a little less
strict, never more).

The formulas themselves (the intervals, the tests, Holm, the alpha spending and
the games a plan needs) are defined once in ``lab.statistics`` and checked
there against statsmodels and scipy; their names stay importable from here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.results import ADJUDICATED
from tavrei_lab.lab.statistics import (
    MAX_PLANNED_GAMES,
    Z95,
    games_for_means,
    games_for_proportions,
    holm,
    incomplete_beta,
    mean_interval,
    newcombe_interval,
    obrien_fleming_spent,
    score_interval,
    score_moments,
    score_test,
    t95,
    t_quantile,
    t_sf,
    welch,
    wilson_interval,
)

#: The measures ``compare`` knows, and the kind of each.
PROPORTIONS = ("decisive", "draw")
MEANS = ("white_score", "length")
MEASURES = (*MEANS[:1], *PROPORTIONS, *MEANS[1:])
#: The measures a grid's pairwise table compares: ``draw`` is left out because a draw
#: rate's difference is the decisive rate's with the sign changed (the same test
#: twice would only make Holm's correction stricter for nothing).
PAIRWISE = ("white_score", "decisive", "length")
#: Games each cell needs before a difference may be established or excluded. With 3
#: games a cell not even every game won in one cell and lost in the other is significant
#: at 5 % by Fisher's exact test (p = 2/20 = 0.10; with 4 games 2/70 = 0.029), yet the
#: large-sample score test gives that table p = 0.014: with fewer games the p-values are
#: shown, never acted on.
MIN_GAMES = 4
#: Other spellings (the table's column names) accepted for each measure.
ALIASES = {"decisive_rate": "decisive", "draw_rate": "draw", "length_mean": "length",
           "white": "white_score"}


# -- differences --------------------------------------------------------------------

@dataclass(frozen=True)
class Difference:
    """The difference a - b of one measure between two cells, with its interval and test."""

    measure: str
    a: str
    b: str
    estimate_a: float
    estimate_b: float
    difference: float
    low: float
    high: float
    p_value: float
    n_a: int
    n_b: int
    method: str

    @property
    def enough_games(self) -> bool:
        """Has each cell the ``MIN_GAMES`` below which no difference is decided?"""
        return min(self.n_a, self.n_b) >= MIN_GAMES

    @property
    def bounded(self) -> bool:
        """Has the difference an interval and a p-value (not the "no spread seen" case)?"""
        return math.isfinite(self.low) and math.isfinite(self.high) and not math.isnan(
            self.p_value)

    @property
    def established(self) -> bool:
        """Is the difference significant at 5 % (uncorrected: see ``holm`` for many)?

        Never with fewer than ``MIN_GAMES`` games a cell, nor without a p-value.
        """
        return self.enough_games and self.p_value < 0.05

    def __str__(self) -> str:
        return (f"{self.measure}: {self.a} {self.estimate_a:.3f} (n={self.n_a}) - "
                f"{self.b} {self.estimate_b:.3f} (n={self.n_b}) = {self.difference:+.3f} "
                f"[{self.low:+.3f}, {self.high:+.3f}], p = {self.p_value:.3g} ({self.method})")


def measure_name(measure: str) -> str:
    """The canonical name of a measure, or a TavreiError naming the known ones."""
    name = ALIASES.get(measure, measure)
    if name not in MEASURES:
        raise TavreiError(_("unknown measure {measure!r}; expected one of {names}")
                              .format(measure=measure, names=", ".join(MEASURES)))
    return name


def _count(row: dict, column: str, cell: str) -> int:
    """A cell's game count, or a TavreiError naming the cell and the column: a table read
    from a file or built by hand may lack the column or hold something else in it."""
    value = row.get(column)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            math.isfinite(value) and value >= 0 and value == int(value)):
        raise TavreiError(_("cell {cell}: its {column!r} is {value!r}, not a number of games")
                          .format(cell=cell, column=column, value=value))
    return int(value)


def _number(row: dict, column: str, cell: str) -> float:
    value = row.get(column)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value):
        raise TavreiError(_("cell {cell}: its {column!r} is {value!r}, not a finite number")
                          .format(cell=cell, column=column, value=value))
    return float(value)


def difference_of(row_a: dict, row_b: dict, measure: str, a: str = "a",
                  b: str = "b") -> Difference:
    """The difference a - b of ``measure`` between two cells' table rows."""
    name = measure_name(measure)
    n1, n2 = _count(row_a, "games", a), _count(row_b, "games", b)
    if n1 < 2 or n2 < 2:
        raise TavreiError(_("compare {name}: a cell needs at least 2 games ({a}: {n1}, {b}: "
                            "{n2})").format(name=name, a=a, n1=n1, b=b, n2=n2))
    wins: list[tuple[int, int, int]] = []
    if name != "length":
        for row, cell, n in ((row_a, a, n1), (row_b, b, n2)):
            counts = tuple(_count(row, c, cell) for c in ("white_wins", "draws", "black_wins"))
            if sum(counts) != n:
                raise TavreiError(_("cell {cell}: its wins and draws add up to {counted}, not "
                                    "its {games} games").format(cell=cell, counted=sum(counts),
                                                                 games=n))
            wins.append((counts[0], counts[1], counts[2]))
    if name in PROPORTIONS:
        x1, x2 = ((drawn if name == "draw" else white + black) for white, drawn, black in wins)
        lo, hi = newcombe_interval(x1, n1, x2, n2)
        return Difference(name, a, b, x1 / n1, x2 / n2, x1 / n1 - x2 / n2, lo, hi,
                          score_test(x1, n1, x2, n2), n1, n2,
                          _("Newcombe hybrid score interval; score (pooled z) test"))
    if name == "white_score":
        (m1, v1), (m2, v2) = (score_moments(*counts) for counts in wins)
        method = _("Welch t on per-game scores")
    else:
        if "length_sd" not in row_a or "length_sd" not in row_b:
            raise TavreiError(_("compare length: the table has no length_sd column (read it "
                                "again with ResultsTable.from_store)"))
        m1, v1 = _number(row_a, "length_mean", a), _number(row_a, "length_sd", a) ** 2
        m2, v2 = _number(row_b, "length_mean", b), _number(row_b, "length_sd", b) ** 2
        method = _("Welch t on per-game plies")
    d, lo, hi, p = welch(m1, v1, n1, m2, v2, n2)
    return Difference(name, a, b, m1, m2, d, lo, hi, p, n1, n2, method)


#: The cells' column of the share of games stopped at the ply cap (``lab.measures``).
CAPPED_SHARE = f"end_{ADJUDICATED}"


def _one_value(rows: Sequence[dict], measure: str) -> str | None:
    """The one value every game of every row gave in ``measure``, by name, or None."""
    def share(row: dict, count: int) -> str | None:
        n = int(row["games"])
        return "all" if count == n else "none" if count == 0 else None
    if measure in PROPORTIONS:
        seen = {share(r, int(r["draws"]) if measure == "draw"
                      else int(r["white_wins"]) + int(r["black_wins"])) for r in rows}
    elif measure == "white_score":
        seen = set()
        for r in rows:
            n = int(r["games"])
            seen.add(next((k for k in ("white_wins", "draws", "black_wins")
                           if int(r[k]) == n), None))
    else:
        seen = {None if r.get("length_sd") or r.get("length_mean") is None
                else repr(float(r["length_mean"])) for r in rows}
    return seen.pop() if len(seen) == 1 and None not in seen else None


def cannot_differ(rows: Sequence[dict], measure: str) -> str | None:
    """Why ``measure`` cannot differ between any of ``rows`` (cells' table rows), or
    None when it can. Every game of every cell gave one value (every die game ends
    in the king's capture: a decisive rate of 1.0 everywhere): no test of such a
    measure can reject, so it is shown and not tested, and left out of Holm's family
    (counted in it, it would only make the other tests stricter for nothing).

    Not when a game of any of the cells was stopped at the ply cap: then the one value
    may be the cap's doing (every game stopped at 40 plies is a draw of 40 plies), and
    the games played out could differ, so the measure is tested as any other."""
    name = measure_name(measure)
    if len(rows) < 2 or any(float(r.get(CAPPED_SHARE) or 0.0) > 0.0 for r in rows):
        return None
    value = _one_value(rows, name)
    if value is None:
        return None
    reasons = {("decisive", "all"): _("cannot differ: every game ended decisively"),
               ("decisive", "none"): _("cannot differ: no game ended decisively"),
               ("draw", "all"): _("cannot differ: every game was drawn"),
               ("draw", "none"): _("cannot differ: no game was drawn"),
               ("white_score", "white_wins"): _("cannot differ: white won every game"),
               ("white_score", "draws"): _("cannot differ: every game was drawn"),
               ("white_score", "black_wins"): _("cannot differ: black won every game")}
    if name == "length":
        return _("cannot differ: every game lasted {plies:g} plies").format(
            plies=float(value))
    return reasons[(name, value)]


__all__ = ["ALIASES", "Difference", "MAX_PLANNED_GAMES", "MEASURES", "MIN_GAMES", "PAIRWISE",
           "Z95", "cannot_differ", "difference_of", "games_for_means", "games_for_proportions",
           "holm", "incomplete_beta", "mean_interval", "measure_name", "newcombe_interval",
           "obrien_fleming_spent", "score_interval", "score_moments", "score_test", "t95",
           "t_quantile", "t_sf", "welch", "wilson_interval"]
