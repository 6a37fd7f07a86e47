"""Every interval, test, Elo figure and sequential rule the experiments report, defined once.

The tables of a tournament, a sweep's cells and differences, a plan, a look of
``--until-decided``, a tune's gate and a match between weights all take their numbers
from here, so one formula answers one question wherever it is asked, and one test file
(``tests/test_statistics.py``) checks each against statsmodels and scipy. Those two are
test oracles only: the package computes everything in pure Python (Student's t from the
regularised incomplete beta function, the normal from ``statistics.NormalDist``), so it
runs where they are not installed (JupyterLite).

==========================  ===========================================================
question                    answer here
==========================  ===========================================================
a rate (decisive, draws)    ``wilson_interval``: Wilson's (1927) score interval; it
                            stays inside [0, 1] and keeps its coverage near 0 and 1,
                            where ``p +- z sqrt(p(1-p)/n)`` does neither
a mean (length, a score)    ``mean_interval``, ``score_interval``: Student's t on the
                            per-game values (a draw's half point is not half a
                            Bernoulli success, so a score is no binomial rate)
two rates                   ``newcombe_interval`` (Newcombe 1998, method 10: the two
                            Wilson intervals combined), ``score_test`` (pooled z)
two means                   ``welch``: Welch's t interval and test (the two cells need
                            not share a spread: a drawish cell and a decisive one do not)
many differences at once    ``holm``: Holm's (1979) step-down adjustment
repeated looks              ``obrien_fleming_spent``: Lan-DeMets alpha spending of the
                            O'Brien-Fleming type
games to plan               ``games_for_proportions``, ``games_for_means``
strength                    ``elo``, ``elo_score``, ``elo_interval``; ``pair_scores``,
                            ``pair_interval`` (one opening played with each colour)
is it better?               ``sprt_llr``, ``sprt_bounds``, ``sprt``: Wald's sequential
                            test in the normal approximation of the generalised SPRT
a repeat rate               ``repeat_interval``: a seeded bootstrap
==========================  ===========================================================

When the data cannot support a number, none is given: Welch's test on two cells whose
games each gave one value has no standard error (``nan`` p, an unbounded interval), where
scipy's ``ttest_ind`` says p = 0 if the two values differ: a certainty that four games a
cell (every one stopped at the cap, say) do not give.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _

_NORMAL = NormalDist()

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054


def z_for(alpha: float) -> float:
    """The two-sided critical value of the normal at level ``alpha`` (1.96 at 0.05)."""
    return _NORMAL.inv_cdf(1 - alpha / 2)


def normal_two_sided(z: float) -> float:
    """Two-sided p-value of a standard normal statistic ``z``."""
    return 2.0 * (1.0 - _NORMAL.cdf(abs(z)))


# -- one sample ---------------------------------------------------------------------

def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` (95 % by default).

    >>> lo, hi = wilson_interval(45, 50)
    >>> round(lo, 3), round(hi, 3)
    (0.786, 0.957)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


# -- Student's t without scipy -----------------------------------------------------

def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom (any real df > 0)."""
    if math.isinf(df):
        return 1.0 - _NORMAL.cdf(t)
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (bisection on ``t_sf``, to machine precision)."""
    if not 0.0 < p < 1.0:
        raise TavreiError(_("t_quantile: probability {p} is not strictly between 0 and 1")
                              .format(p=p))
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    lo, hi = 0.0, 1.0
    while t_sf(hi, df) > 1.0 - p:
        hi *= 2.0
    for _step in range(200):
        mid = (lo + hi) / 2.0
        if t_sf(mid, df) > 1.0 - p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


def t95(df: float) -> float:
    """The two-sided 95 % critical value of t (1.96 as df grows)."""
    return t_quantile(0.975, df) if df > 0 else math.inf


def mean_interval(values: Sequence[float]) -> tuple[float, float | None, float | None]:
    """(mean, low, high): the t 95 % interval of a mean (z would be too narrow for few games).

    No interval (low and high None) from one game, or from games whose values are all
    the same: a t interval takes its width from the spread the games show, and such
    games show none. A width of 0 would claim the mean is known exactly, when one game
    (or one game repeated by a player without randomness) says nothing of the spread.
    """
    n = len(values)
    if not n:
        return (0.0, None, None)
    m = sum(values) / n
    if n < 2:
        return (m, None, None)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    if sd <= 0.0:
        return (m, None, None)
    half = t95(n - 1) * sd / math.sqrt(n)
    return (m, m - half, m + half)


def score_interval(wins: int, draws: int, losses: int) -> tuple[float, float | None, float | None]:
    """(score, low, high): the t 95 % interval of a mean score per game (1, 1/2, 0).

    With half points a game's score is not a Bernoulli draw, so the Wilson interval
    of "points out of n" is not its interval (six draws gave 0.50 (0.19-0.81), wider
    than their spread allows, and many draws kept ``stop_width`` playing on): the
    scores are a trinomial sample, whose mean the t interval covers as the Welch
    difference of ``lab.differences`` does. The interval is cut to [0, 1], where a
    score lies (cutting keeps every value it covered that a score can take).

    Where the t interval has nothing to go on -- one game, or every game the same
    score (twenty wins, six draws) -- the Wilson interval of "points out of n" is
    given instead: a score in [0, 1] with mean p varies at most as a Bernoulli draw
    does (p(1 - p)), so that interval is conservative, never too narrow. Twenty wins
    out of twenty thus read 1.00 (0.84-1.00) rather than nothing, and a cell of draws
    narrows as they mount up (a sweep's ``stop_width`` can end). None only with no game.
    """
    scores = [1.0] * wins + [0.5] * draws + [0.0] * losses
    m, lo, hi = mean_interval(scores)
    if lo is None or hi is None:
        if not scores:
            return (m, None, None)
        lo, hi = wilson_interval(wins + draws / 2, len(scores))
    return (m, max(0.0, lo), min(1.0, hi))


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def median(values: Sequence[float]) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def quartiles(values: Sequence[float]) -> tuple[float, float, float, float, float]:
    """(min, lower quartile, median, upper quartile, max) -- linear interpolation."""
    if not values:
        return (0.0, 0.0, 0.0, 0.0, 0.0)
    s = sorted(values)

    def q(f: float) -> float:
        pos = f * (len(s) - 1)
        lo = int(math.floor(pos))
        hi = min(lo + 1, len(s) - 1)
        return s[lo] + (s[hi] - s[lo]) * (pos - lo)

    return (s[0], q(0.25), q(0.5), q(0.75), s[-1])


# -- two samples --------------------------------------------------------------------

def newcombe_interval(x1: float, n1: int, x2: float, n2: int,
                      z: float = Z95) -> tuple[float, float]:
    """Newcombe's (1998) hybrid score interval (method 10) for p1 - p2."""
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson_interval(x1, n1, z)
    l2, u2 = wilson_interval(x2, n2, z)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def score_test(x1: float, n1: int, x2: float, n2: int) -> float:
    """Two-sided p-value of the score (pooled z) test that two proportions are equal."""
    pooled = (x1 + x2) / (n1 + n2)
    var = pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)
    d = x1 / n1 - x2 / n2
    if var <= 0.0:
        return 1.0 if d == 0 else 0.0
    return normal_two_sided(d / math.sqrt(var))


def welch(m1: float, v1: float, n1: int, m2: float, v2: float, n2: int,
          alpha: float = 0.05) -> tuple[float, float, float, float]:
    """(difference, low, high, p) of Welch's t interval (at ``1 - alpha``, 95 % by default)
    and test, from means and variances.

    Both variances 0 (each cell's games gave one value) leave no standard error: then
    (difference, -inf, +inf, nan), no interval and no p, as the module says why.
    """
    d = m1 - m2
    s1, s2 = v1 / n1, v2 / n2
    se2 = s1 + s2
    if se2 <= 0.0:
        return (d, -math.inf, math.inf, math.nan)
    df = se2 ** 2 / ((s1 ** 2 / (n1 - 1) if s1 else 0.0) + (s2 ** 2 / (n2 - 1) if s2 else 0.0))
    se = math.sqrt(se2)
    half = t_quantile(1 - alpha / 2, df) * se
    return (d, d - half, d + half, 2.0 * t_sf(abs(d) / se, df))


def score_moments(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """(mean, sample variance) of per-game scores 1, 1/2, 0 given the counts."""
    n = wins + draws + losses
    m = (wins + draws / 2.0) / n
    ss = wins * (1.0 - m) ** 2 + draws * (0.5 - m) ** 2 + losses * m ** 2
    return m, ss / (n - 1) if n > 1 else 0.0


# -- many tests, many looks, how many games -------------------------------------------

def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's (1979) step-down adjusted p-values, in the order given.

    A test without a p-value (``nan``: no spread seen) still counts in the family, as a
    test that cannot reject (p = 1), so the others are corrected for it; its own
    adjusted value stays ``nan``.
    """
    m = len(p_values)
    given = [1.0 if math.isnan(p) else p for p in p_values]
    order = sorted(range(m), key=lambda i: given[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * given[i]))
        adjusted[i] = math.nan if math.isnan(p_values[i]) else running
    return adjusted


def games_for_proportions(p1: float, p2: float, alpha: float = 0.05,
                          power: float = 0.8) -> int:
    """Games per cell to detect p1 vs p2 (two-sided alpha, the given power)."""
    if p1 == p2:
        raise TavreiError(_("plan: the effect is 0; no number of games detects it"))
    za, zb = z_for(alpha), _NORMAL.inv_cdf(power)
    bar = (p1 + p2) / 2
    spread = (za * math.sqrt(2 * bar * (1 - bar))
              + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2
    return _planned_games(spread, (p1 - p2) ** 2, abs(p1 - p2))


def games_for_means(sd: float, effect: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games per cell to detect a difference ``effect`` of means with spread ``sd``."""
    if effect == 0:
        raise TavreiError(_("plan: the effect is 0; no number of games detects it"))
    za, zb = z_for(alpha), _NORMAL.inv_cdf(power)
    return _planned_games(2 * (za + zb) ** 2 * sd ** 2, effect ** 2, abs(effect))


#: Most games a cell a plan answers with: past it no sweep could play them (a sweep plays
#: at most 100,000 games in all), and the formula's float arithmetic runs out soon after.
MAX_PLANNED_GAMES = 10 ** 12


def _planned_games(numerator: float, squared_effect: float, effect: float) -> int:
    """``ceil(numerator / squared_effect)``, at least 2, or a TavreiError past
    ``MAX_PLANNED_GAMES`` (an effect of 1e-300 squares to 0: it was a ZeroDivisionError)."""
    if not squared_effect > 0 or not numerator / squared_effect <= MAX_PLANNED_GAMES:
        raise TavreiError(_("plan: a difference of {effect:g} needs more than {limit:,} games a "
                            "cell; ask about a larger --effect").format(
                                effect=effect, limit=MAX_PLANNED_GAMES))
    return max(2, math.ceil(numerator / squared_effect))


def obrien_fleming_spent(fraction: float, alpha: float = 0.05) -> float:
    """Alpha spent by information fraction ``fraction`` (Lan-DeMets, O'Brien-Fleming type)."""
    if fraction <= 0:
        return 0.0
    fraction = min(1.0, fraction)
    return normal_two_sided(z_for(alpha) / math.sqrt(fraction))


# -- strength: Elo, pairs of games, the SPRT -------------------------------------------

def elo(score: float) -> float:
    """The Elo difference a score stands for (clipped at 1/1000 from 0 and 1)."""
    p = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / p - 1)


def elo_score(elo_points: float) -> float:
    """The expected score of a player ``elo_points`` Elo stronger (the logistic curve)."""
    return 1.0 / (1.0 + 10.0 ** (-elo_points / 400.0))


def pair_scores(points: Sequence[float]) -> list[float]:
    """Pair scores: one opening played once with each colour, its two games' mean."""
    return [(points[i] + points[i + 1]) / 2 for i in range(0, len(points) - 1, 2)]


def pair_half_width(pairs: Sequence[float]) -> float:
    """Half the 95 % interval of a mean over pairs (0.5 for one pair or none): Student's
    t with n - 1 degrees of freedom, since the spread is estimated from the same pairs
    (z would be 1.2 % too narrow at 100 pairs and 5 % at 20)."""
    n = len(pairs)
    if n < 2:
        return 0.5
    mu = sum(pairs) / n
    sd = math.sqrt(sum((x - mu) ** 2 for x in pairs) / (n - 1))
    return t95(n - 1) * sd / math.sqrt(n)


def pair_interval(pairs: Sequence[float]) -> tuple[float, float, float]:
    """The mean pair score with its 95 % interval (t, over the pairs)."""
    if not pairs:
        return 0.5, 0.0, 1.0
    mu = sum(pairs) / len(pairs)
    half = pair_half_width(pairs)
    return mu, max(0.0, mu - half), min(1.0, mu + half)


def sprt_llr(pairs: Sequence[float], elo0: float = 0.0, elo1: float = 50.0) -> float:
    """Wald's log-likelihood ratio of "+elo1" against "+elo0" for the pair scores
    ``pairs`` (each the mean of a pair's two games, 0..1), in the normal approximation
    of the generalised SPRT: ``n (s1 - s0) (2 m - s0 - s1) / (2 v)``; the variance
    ``v`` is taken with one pair of 0 and one of 1 added (a handful of pairs alike
    would make it 0 and the ratio infinite).

    >>> round(sprt_llr([1.0] * 10), 2), round(sprt_llr([0.5] * 10), 2)
    (4.34, -0.61)
    """
    n = len(pairs)
    if n == 0:
        return 0.0
    values = [*pairs, 0.0, 1.0]
    mv = sum(values) / len(values)
    var = sum((x - mv) ** 2 for x in values) / len(values)
    s0, s1 = elo_score(elo0), elo_score(elo1)
    m = sum(pairs) / n
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's stopping bounds on the log-likelihood ratio: below the first, accept H0
    (at most ``beta`` of the better players stopped there); above the second, accept H1
    (at most ``alpha`` of the no-better ones).

    >>> tuple(round(b, 2) for b in sprt_bounds())
    (-2.94, 2.94)
    """
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt(pairs: Sequence[float], *, elo0: float = 0.0, elo1: float = 50.0,
         alpha: float = 0.05, beta: float = 0.05) -> dict[str, Any]:
    """Wald's sequential test of "+elo1" against "+elo0" on pair scores in their order:
    it looks after every pair and stops at the first that takes ``sprt_llr`` out of
    ``sprt_bounds(alpha, beta)``. ``decision``: "better" (above), "not better" (below)
    or None (still between: play more pairs). ``pairs``, ``llr``, ``score``, ``low``,
    ``high`` (``pair_interval``): at the stop, or over every pair when undecided.

    >>> sprt([0.75] * 30)["decision"], sprt([0.25] * 30)["decision"]
    ('better', 'not better')
    """
    lower, upper = sprt_bounds(alpha, beta)
    decision = None
    used = len(pairs)
    llr = 0.0
    for n in range(1, len(pairs) + 1):
        llr = sprt_llr(pairs[:n], elo0, elo1)
        if llr >= upper or llr <= lower:
            decision = "better" if llr >= upper else "not better"
            used = n
            break
    score, low, high = pair_interval(pairs[:used])
    return {"test": "sprt", "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta,
            "lower": round(lower, 4), "upper": round(upper, 4), "pairs": used,
            "llr": round(llr, 4), "decision": decision, "score": score, "low": low,
            "high": high}


def elo_interval(score: float, low: float, high: float) -> tuple[float, float, float]:
    """(Elo, low, high): a score and its interval as Elo differences (``elo`` of each end;
    the logistic curve is monotone, so the interval keeps its coverage)."""
    return elo(score), elo(low), elo(high)


def elo_of_games(scores: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(Elo, low, high) from a match's per-game scores (1, 1/2, 0): the normal interval
    of the mean score over the games, or, where the games show no spread (4 wins in 4),
    Wilson's interval of the points (it says the true score is above 51 %, where the
    normal one would collapse to a point). Fewer than two games: no interval (infinite
    ends)."""
    n = len(scores)
    m = sum(scores) / n if n else 0.5
    if n < 2:
        return elo(m), -math.inf, math.inf
    sd = math.sqrt(sum((x - m) ** 2 for x in scores) / (n - 1))
    if sd == 0:
        lo, hi = wilson_interval(m * n, n, z)
        return elo_interval(m, lo, hi)
    half = z * sd / math.sqrt(n)
    return elo_interval(m, m - half, m + half)


#: Bootstrap resamples of the first-move repeat rate's interval (seeded: the same
#: games always give the same interval).
BOOTSTRAP = 400


def repeat_interval(items: Sequence[Any], resamples: int = BOOTSTRAP,
                    seed: int = 2020) -> tuple[float, float]:
    """Bootstrap 95 % interval of ``lab.measures.repeat_rate`` (the chance two different
    games share an item; percentile interval), resampling games.

    Resampling with replacement puts copies of one game in a resample, and a
    game always "repeats" its own copy: counted, those pairs push every
    resampled rate up (by about 1/games). So in each resample only pairs of
    copies of *different* games are compared, as the rate itself compares
    only different games.
    """
    n = len(items)
    if n < 2:
        return (0.0, 1.0)
    rng = random.Random(seed)
    stats = []
    for _resample in range(resamples):
        mult = Counter(rng.randrange(n) for _game in range(n))
        by_item: dict[Any, list[int]] = {}
        for k, m in mult.items():
            by_item.setdefault(items[k], []).append(m)
        same = sum(m * m for m in mult.values())
        total = n * n - same
        matches = sum(sum(ms) ** 2 - sum(m * m for m in ms) for ms in by_item.values())
        stats.append(matches / total if total else 0.0)
    stats.sort()
    return (stats[int(0.025 * resamples)], stats[min(resamples - 1, int(0.975 * resamples))])


__all__ = ["BOOTSTRAP", "MAX_PLANNED_GAMES", "Z95", "elo", "elo_interval", "elo_of_games",
           "elo_score", "games_for_means", "games_for_proportions", "holm", "incomplete_beta",
           "mean", "mean_interval", "median", "newcombe_interval", "normal_two_sided",
           "obrien_fleming_spent", "pair_half_width", "pair_interval", "pair_scores",
           "quartiles", "repeat_interval", "score_interval", "score_moments", "score_test",
           "sprt", "sprt_bounds", "sprt_llr", "t95", "t_quantile", "t_sf", "welch",
           "wilson_interval", "z_for"]
