"""lab.statistics, the one home of the experiments' intervals, tests, Elo and SPRT,
checked against statsmodels and scipy (test oracles: the package computes in pure Python),
and the old import paths that still name its functions."""

from __future__ import annotations

import math
import random

import pytest

np = pytest.importorskip("numpy")
st = pytest.importorskip("scipy.stats")
special = pytest.importorskip("scipy.special")
smprop = pytest.importorskip("statsmodels.stats.proportion")
smmulti = pytest.importorskip("statsmodels.stats.multitest")
smpower = pytest.importorskip("statsmodels.stats.power")
smweight = pytest.importorskip("statsmodels.stats.weightstats")

from tavrei_lab.lab import statistics as S  # noqa: E402

COUNTS = [(0, 10), (1, 10), (5, 10), (10, 10), (45, 50), (3, 84), (70, 84), (199, 400)]
PAIRS = [((20, 20), (14, 20)), ((84, 84), (71, 84)), ((3, 30), (9, 31)), ((0, 12), (0, 15)),
         ((50, 100), (52, 100)), ((1, 5), (4, 6))]


def _samples(seed: int, n: int, values: tuple[float, ...] = (0.0, 0.5, 1.0)) -> list[float]:
    rng = random.Random(seed)
    return [rng.choice(values) for _ in range(n)]


# -- one sample ---------------------------------------------------------------------

@pytest.mark.parametrize("x, n", COUNTS)
def test_wilson_interval_is_statsmodels_wilson(x: int, n: int) -> None:
    lo, hi = S.wilson_interval(x, n)
    ref = smprop.proportion_confint(x, n, alpha=0.05, method="wilson")
    assert (lo, hi) == pytest.approx(ref, abs=1e-12)
    lo99, hi99 = S.wilson_interval(x, n, S.z_for(0.01))
    assert (lo99, hi99) == pytest.approx(
        smprop.proportion_confint(x, n, alpha=0.01, method="wilson"), abs=1e-12)


@pytest.mark.parametrize("a, b, x", [(0.5, 0.5, 0.3), (2.0, 7.5, 0.1), (30.0, 0.5, 0.97),
                                     (150.0, 0.5, 0.99), (1.0, 1.0, 0.5), (4.5, 12.0, 0.8)])
def test_incomplete_beta_is_scipy_betainc(a: float, b: float, x: float) -> None:
    assert S.incomplete_beta(a, b, x) == pytest.approx(float(special.betainc(a, b, x)),
                                                      rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("df", [1.0, 2.5, 7.0, 39.0, 250.0, math.inf])
def test_students_t_is_scipys(df: float) -> None:
    for t in (-3.2, -0.4, 0.0, 0.7, 2.1, 6.0):
        assert S.t_sf(t, df) == pytest.approx(float(st.t.sf(t, df)), rel=1e-9, abs=1e-15)
    for p in (0.6, 0.9, 0.975, 0.995, 0.025):
        assert S.t_quantile(p, df) == pytest.approx(float(st.t.ppf(p, df)), rel=1e-9)
    assert S.t95(df) == pytest.approx(float(st.t.ppf(0.975, df)), rel=1e-9)


@pytest.mark.parametrize("seed, n", [(1, 5), (2, 17), (3, 80)])
def test_mean_and_score_intervals_are_scipys_t_interval(seed: int, n: int) -> None:
    values = _samples(seed, n, (31.0, 40.0, 58.0, 77.0, 102.0))
    m, lo, hi = S.mean_interval(values)
    ref = st.t.interval(0.95, n - 1, loc=np.mean(values), scale=st.sem(values))
    assert (m, lo, hi) == pytest.approx((np.mean(values), *ref), rel=1e-10)
    scores = _samples(seed, n)
    wins, draws, losses = scores.count(1.0), scores.count(0.5), scores.count(0.0)
    s, slo, shi = S.score_interval(wins, draws, losses)
    low, high = st.t.interval(0.95, n - 1, loc=np.mean(scores), scale=st.sem(scores))
    assert (s, slo, shi) == pytest.approx((np.mean(scores), max(0.0, low), min(1.0, high)),
                                          rel=1e-10)


def test_a_score_without_spread_takes_wilsons_interval_of_its_points() -> None:
    score, lo, hi = S.score_interval(20, 0, 0)
    assert (score, lo, hi) == pytest.approx(
        (1.0, *smprop.proportion_confint(20, 20, method="wilson")), abs=1e-12)
    assert S.mean_interval([3.0, 3.0, 3.0]) == (3.0, None, None)


# -- two samples --------------------------------------------------------------------

@pytest.mark.parametrize("a, b", PAIRS)
def test_newcombe_interval_is_statsmodels_newcomb(a: tuple[int, int],
                                                   b: tuple[int, int]) -> None:
    lo, hi = S.newcombe_interval(a[0], a[1], b[0], b[1])
    ref = smprop.confint_proportions_2indep(a[0], a[1], b[0], b[1], method="newcomb")
    assert (lo, hi) == pytest.approx(tuple(float(x) for x in ref), abs=1e-12)


@pytest.mark.parametrize("a, b", PAIRS)
def test_score_test_is_statsmodels_pooled_z_test(a: tuple[int, int], b: tuple[int, int]) -> None:
    p = S.score_test(a[0], a[1], b[0], b[1])
    if a[0] + b[0] in (0, a[1] + b[1]):          # no spread pooled: the test cannot reject
        assert p == 1.0
        return
    _z, ref = smprop.proportions_ztest([a[0], b[0]], [a[1], b[1]])
    assert p == pytest.approx(float(ref), rel=1e-10, abs=1e-15)


@pytest.mark.parametrize("seed, n1, n2", [(4, 12, 30), (5, 40, 40), (6, 84, 9)])
def test_welch_is_scipys_welch_test_and_interval(seed: int, n1: int, n2: int) -> None:
    a = _samples(seed, n1, (20.0, 35.0, 61.0, 90.0))
    b = _samples(seed + 100, n2, (25.0, 48.0, 70.0, 140.0))
    ref = st.ttest_ind(a, b, equal_var=False)
    for alpha in (0.05, 0.01, 0.2):
        d, lo, hi, p = S.welch(float(np.mean(a)), float(np.var(a, ddof=1)), n1,
                               float(np.mean(b)), float(np.var(b, ddof=1)), n2, alpha)
        ci = ref.confidence_interval(1 - alpha)
        assert (d, lo, hi, p) == pytest.approx(
            (np.mean(a) - np.mean(b), ci.low, ci.high, ref.pvalue), rel=1e-9)


def test_welch_without_spread_gives_no_p_and_no_interval() -> None:
    """scipy says p = 0 for two different constant samples (t = inf), a certainty four
    games a cell do not give; for equal ones it gives nan, as here."""
    d, lo, hi, p = S.welch(1.0, 0.0, 4, 0.0, 0.0, 4)
    assert (d, lo, hi) == (1.0, -math.inf, math.inf) and math.isnan(p)
    assert math.isnan(S.welch(1.0, 0.0, 4, 1.0, 0.0, 4)[3])
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        assert math.isnan(st.ttest_ind([1.0] * 4, [1.0] * 4, equal_var=False).pvalue)


def test_score_moments_are_the_per_game_scores_mean_and_variance() -> None:
    scores = _samples(7, 33)
    m, v = S.score_moments(scores.count(1.0), scores.count(0.5), scores.count(0.0))
    assert (m, v) == pytest.approx((np.mean(scores), np.var(scores, ddof=1)), rel=1e-12)


# -- many tests, looks, plans -------------------------------------------------------

@pytest.mark.parametrize("seed", range(5))
def test_holm_is_statsmodels_holm(seed: int) -> None:
    rng = random.Random(seed)
    ps = [rng.random() ** 3 for _ in range(rng.randrange(1, 12))]
    ref = smmulti.multipletests(ps, alpha=0.05, method="holm")[1]
    assert S.holm(ps) == pytest.approx(list(ref), abs=1e-12)


def test_holm_counts_a_missing_p_as_one_and_gives_it_none() -> None:
    adjusted = S.holm([0.01, math.nan, 0.02])
    ref = smmulti.multipletests([0.01, 1.0, 0.02], method="holm")[1]
    assert math.isnan(adjusted[1])
    assert [adjusted[0], adjusted[2]] == pytest.approx([ref[0], ref[2]], abs=1e-12)


@pytest.mark.parametrize("fraction", [0.1, 0.25, 0.5, 0.8, 1.0])
def test_obrien_fleming_spending_is_scipys_normal(fraction: float) -> None:
    ref = 2 * st.norm.sf(st.norm.ppf(0.975) / math.sqrt(fraction))
    assert S.obrien_fleming_spent(fraction) == pytest.approx(float(ref), rel=1e-9, abs=1e-15)
    assert S.obrien_fleming_spent(0.0) == 0.0


@pytest.mark.parametrize("sd, effect", [(1.0, 0.3), (40.0, 12.0), (0.45, 0.1)])
def test_games_for_means_is_statsmodels_normal_power(sd: float, effect: float) -> None:
    n = S.games_for_means(sd, effect)
    ref = smpower.NormalIndPower().solve_power(effect_size=effect / sd, alpha=0.05,
                                               power=0.8, ratio=1.0)
    assert n == math.ceil(ref) or (n == math.ceil(ref) + 1 and ref % 1 > 0.999)


@pytest.mark.parametrize("p1, p2", [(0.8, 0.95), (0.5, 0.6), (0.1, 0.3)])
def test_games_for_proportions_reach_the_power_and_one_fewer_does_not(p1: float,
                                                                      p2: float) -> None:
    """The formula's own power (pooled variance under H0, unpooled under H1), from scipy."""
    def power(n: int) -> float:
        bar = (p1 + p2) / 2
        se0 = math.sqrt(2 * bar * (1 - bar) / n)
        se1 = math.sqrt((p1 * (1 - p1) + p2 * (1 - p2)) / n)
        return float(st.norm.cdf((abs(p1 - p2) - st.norm.ppf(0.975) * se0) / se1))
    n = S.games_for_proportions(p1, p2)
    assert power(n) >= 0.8 - 1e-12 and power(n - 1) < 0.8


# -- strength -------------------------------------------------------------------------

@pytest.mark.parametrize("score", [0.01, 0.2, 0.5, 0.609, 0.9])
def test_elo_is_the_logistic_curve(score: float) -> None:
    assert S.elo(score) == pytest.approx(400 / math.log(10) * float(special.logit(score)),
                                         rel=1e-12, abs=1e-9)
    assert S.elo_score(S.elo(score)) == pytest.approx(score, rel=1e-12)
    assert S.elo_score(50.0) == pytest.approx(float(special.expit(50 * math.log(10) / 400)))


def test_elo_of_games_is_the_elo_of_scipys_normal_interval_or_of_wilsons() -> None:
    scores = _samples(8, 32)
    m = float(np.mean(scores))
    lo, hi = st.norm.interval(0.95, loc=m, scale=st.sem(scores))
    assert S.elo_of_games(scores) == pytest.approx(
        (S.elo(m), S.elo(float(lo)), S.elo(float(hi))), rel=1e-9)
    assert S.elo_interval(m, float(lo), float(hi)) == pytest.approx(S.elo_of_games(scores))
    w_lo, w_hi = smprop.proportion_confint(4, 4, method="wilson")
    assert S.elo_of_games([1.0] * 4) == pytest.approx((S.elo(1.0), S.elo(w_lo), S.elo(w_hi)))
    assert S.elo(w_lo) > 0                       # 4 of 4: better than even, by Wilson


@pytest.mark.parametrize("seed", range(3))
def test_pair_interval_is_scipys_t_interval_over_pairs(seed: int) -> None:
    points = _samples(seed + 20, 40)
    pairs = S.pair_scores(points)
    assert pairs == [(points[i] + points[i + 1]) / 2 for i in range(0, 40, 2)]
    score, lo, hi = S.pair_interval(pairs)
    ref = st.t.interval(0.95, len(pairs) - 1, loc=np.mean(pairs), scale=st.sem(pairs))
    assert (score, lo, hi) == pytest.approx((np.mean(pairs), max(0.0, ref[0]),
                                             min(1.0, ref[1])), rel=1e-10)


@pytest.mark.parametrize("seed", range(3))
def test_sprt_llr_is_the_normal_log_likelihood_ratio(seed: int) -> None:
    """The GSPRT's ratio: sum over pairs of log N(x; s1, v) - log N(x; s0, v), v the
    variance with one pair of 0 and one of 1 added."""
    pairs = S.pair_scores(_samples(seed + 30, 60))
    v = float(np.var([*pairs, 0.0, 1.0]))
    s0, s1 = S.elo_score(0.0), S.elo_score(50.0)
    ref = float(np.sum(st.norm.logpdf(pairs, s1, math.sqrt(v))
                       - st.norm.logpdf(pairs, s0, math.sqrt(v))))
    assert S.sprt_llr(pairs, 0.0, 50.0) == pytest.approx(ref, rel=1e-9, abs=1e-12)


def test_sprt_stops_at_the_first_pair_out_of_walds_bounds() -> None:
    lower, upper = S.sprt_bounds(0.05, 0.1)
    assert (lower, upper) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    pairs = [0.75, 1.0, 0.5, 1.0] * 20
    out = S.sprt(pairs, alpha=0.05, beta=0.1)
    llrs = [S.sprt_llr(pairs[:n]) for n in range(1, len(pairs) + 1)]
    first = next(n for n, r in enumerate(llrs, 1) if r >= upper or r <= lower)
    assert (out["pairs"], out["decision"]) == (first, "better")
    assert out["llr"] == pytest.approx(llrs[first - 1], abs=1e-4)
    undecided = S.sprt([0.5, 0.75, 0.25, 0.5])
    assert undecided["decision"] is None and undecided["pairs"] == 4


# -- one home: the old paths name the same functions ---------------------------------

def test_old_import_paths_name_the_one_definition() -> None:
    with pytest.warns(DeprecationWarning, match="tavrei_lab.compare is now part of"):
        import importlib
        import sys
        sys.modules.pop("tavrei_lab.compare", None)
        stats = importlib.import_module("tavrei_lab.compare.stats")
    from tavrei_lab.lab import differences, measures, tune
    for module, names in [
            (stats, ["wilson_interval", "score_interval", "mean_interval", "t95", "t_sf",
                     "t_quantile", "incomplete_beta", "mean", "median", "quartiles", "Z95"]),
            (differences, ["newcombe_interval", "score_test", "welch", "score_moments", "holm",
                           "games_for_means", "games_for_proportions", "obrien_fleming_spent",
                           "MAX_PLANNED_GAMES", "t95", "wilson_interval"]),
            (tune, ["elo", "elo_score", "sprt_llr"]),
            (measures, ["repeat_interval", "BOOTSTRAP"])]:
        for name in names:
            assert getattr(module, name) is getattr(S, name), (module.__name__, name)
    assert tune._pair_interval is S.pair_interval
    assert tune.sprt_gate([1.0, 0.5] * 30) == S.sprt(S.pair_scores([1.0, 0.5] * 30),
                                                     elo0=tune.GATE_ELO0, elo1=tune.GATE_ELO1)


ONE_HOME = ("wilson_interval", "newcombe_interval", "score_test", "welch", "mean_interval",
            "score_interval", "holm", "obrien_fleming_spent", "games_for_means",
            "games_for_proportions", "elo", "elo_score", "sprt_llr", "sprt", "t_sf",
            "t_quantile", "incomplete_beta", "repeat_interval", "pair_interval")


def test_each_interval_test_elo_and_sprt_is_defined_in_one_module_only() -> None:
    from pathlib import Path

    import tavrei_lab
    root = Path(tavrei_lab.__file__).parent
    homes: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for name in ONE_HOME:
            if f"\ndef {name}(" in text or f"\ndef _{name}(" in text:
                homes.setdefault(name, []).append(str(path.relative_to(root)))
    assert homes == {name: ["lab/statistics.py"] for name in ONE_HOME}
