"""Piece values from game outcomes: a logistic regression, written out.

Tomašev, Paquet, Hassabis and Kramnik (2020, "Assessing Game Balance with
AlphaZero", section on piece values) estimate what each piece is worth *in a
given rule set* from the games themselves: sample positions from many games,
describe each by the material difference of every kind of piece (white's
count minus black's), and fit a logistic regression of the game's result on
those differences. A piece's coefficient says how much one more of it moves
the log-odds of winning; divided by the ratnik's (pawn's) coefficient it is a
value in ratniks, comparable to the textbook 1-3-3-5-9.

In tower chess "material" needs a definition, because captured tavrels stay
on the board: here a tavrel counts for its side when it stands in a tower its
own side tops (the top by the kind it acts as, a promoted ratnik as its
destiny); a prisoner counts for nobody (it cannot act until freed). The
volkhv is never counted (both sides always have one).

The fit is Newton's method on the log-likelihood (iteratively reweighted
least squares, IRLS), a dozen lines of plain Python: a handful of piece kinds
and a few thousand positions need no numpy. The response is white's score
(1, 1/2 or 0), so draws take part as half a win (a quasi-binomial fit). The
standard errors are **clustered by game**: positions of one game share one
result and are not independent, and the plain (inverse information)
errors would be too small; the sandwich estimator with one cluster per game
is the usual remedy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import ACTING, COLOR_BIT, KIND_OF, KINDS, KING, PAWN
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _


def material_counts(position: Position) -> list[int]:
    """White's minus black's free tavrels of each kind, indexed by kind (0..7).

    >>> from tavrei_lab import Game
    >>> material_counts(Game().position)
    [0, 0, 0, 0, 0, 0, 0, 0]
    """
    diff = [0] * 8
    for tower in position.board:
        if not tower:
            continue
        top = tower[-1]
        owner = top & COLOR_BIT
        for t in tower:
            if t & COLOR_BIT != owner:
                continue                      # a prisoner: out of play for both sides
            kind = ACTING[t] if t is top else KIND_OF[t]
            diff[kind] += 1 if owner == 0 else -1
    return diff


class SingularMatrixError(TavreiError):
    """The regression's equations have no unique solution (a feature repeats another)."""


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` by Gaussian elimination with partial pivoting.

    >>> solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])
    [0.8, 1.4]
    """
    n = len(a)
    m = [list(map(float, row)) + [float(bi)] for row, bi in zip(a, b)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            raise SingularMatrixError(_("singular system: a feature is constant or repeats "
                                        "another"))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [round(m[i][n] / m[i][i], 12) for i in range(n)]


def inverse(a: list[list[float]]) -> list[list[float]]:
    """The inverse of a small square matrix (column by column with ``solve``)."""
    n = len(a)
    cols = [solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@dataclass
class LogisticFit:
    """A fitted logistic regression: coefficients, their covariance, and how it went."""

    names: list[str]
    coef: list[float]
    covariance: list[list[float]]
    log_likelihood: float
    iterations: int
    converged: bool
    n: int
    clusters: int

    @property
    def se(self) -> list[float]:
        """Standard errors (square roots of the covariance's diagonal)."""
        return [math.sqrt(max(self.covariance[i][i], 0.0)) for i in range(len(self.coef))]

    def as_dict(self) -> dict[str, tuple[float, float]]:
        return {n: (c, s) for n, c, s in zip(self.names, self.coef, self.se)}


def fit_logistic(x: Sequence[Sequence[float]], y: Sequence[float],
                 names: Sequence[str] | None = None, groups: Sequence[object] | None = None,
                 max_iterations: int = 50, tolerance: float = 1e-9) -> LogisticFit:
    """Maximum-likelihood logistic regression of ``y`` (in [0, 1]) on ``x``, by IRLS.

    An intercept is added first (named ``"intercept"``). ``groups`` (one label
    per row, e.g. the game a position came from) asks for cluster-robust
    standard errors; without it they are the inverse-information ones.

    When the data separate the results perfectly the likelihood has no
    maximum: the fit stops with ``converged=False`` (the coefficients are then
    meaningless, and the tables say so).

    >>> fit = fit_logistic([[0], [0], [1], [1], [1]], [0, 1, 1, 1, 0], ["x"])
    >>> round(fit.coef[0], 6), round(fit.coef[1], 4), fit.converged
    (0.0, 0.6931, True)
    """
    rows = [[1.0, *map(float, r)] for r in x]
    if not rows:
        raise TavreiError(_("a regression needs at least one observation"))
    k = len(rows[0])
    labels = ["intercept", *(names or [f"x{i}" for i in range(1, k)])]
    if len(labels) != k or any(len(r) != k for r in rows):
        raise TavreiError(_("every row needs one value per feature name"))
    ys = [float(v) for v in y]
    if len(ys) != len(rows) or any(not 0.0 <= v <= 1.0 for v in ys):
        raise TavreiError(_("y needs one value in [0, 1] per row"))

    def loglik(beta: list[float]) -> float:
        total = 0.0
        for r, yi in zip(rows, ys):
            z = sum(b * v for b, v in zip(beta, r))
            # log p = -log(1+e^-z), log(1-p) = -log(1+e^z), computed without overflow
            lp = -math.log1p(math.exp(-z)) if z > -30 else z
            lq = -math.log1p(math.exp(z)) if z < 30 else -z
            total += yi * lp + (1 - yi) * lq
        return total

    def information(beta: list[float]) -> tuple[list[list[float]], list[float]]:
        h = [[0.0] * k for _row in range(k)]
        g = [0.0] * k
        for r, yi in zip(rows, ys):
            p = _sigmoid(sum(b * v for b, v in zip(beta, r)))
            w = p * (1 - p)
            for i in range(k):
                g[i] += r[i] * (yi - p)
                wi = w * r[i]
                for j in range(i, k):
                    h[i][j] += wi * r[j]
        for i in range(k):
            for j in range(i):
                h[i][j] = h[j][i]
        return h, g

    beta = [0.0] * k
    current = loglik(beta)
    converged = False
    iterations = 0
    for iterations in range(1, max_iterations + 1):
        h, g = information(beta)
        try:
            step = solve(h, g)
        except SingularMatrixError:
            if iterations == 1:
                raise
            break           # weights vanished: the data separate, no maximum exists
        scale = 1.0
        while True:         # Newton with step halving: the likelihood never goes down
            trial = [b + scale * s for b, s in zip(beta, step)]
            value = loglik(trial)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        beta, previous, current = trial, current, value
        if max(abs(scale * s) for s in step) < tolerance or abs(current - previous) < 1e-13:
            converged = True
            break
    h, _gradient = information(beta)
    try:
        bread = inverse(h) if converged else None
    except SingularMatrixError:
        converged, bread = False, None
    if bread is None:       # no maximum: no standard errors either
        bread = [[math.inf if i == j else 0.0 for j in range(k)] for i in range(k)]
        groups = None
    clusters = len(rows)
    if groups is not None:
        if len(groups) != len(rows):
            raise TavreiError(_("groups needs one label per row"))
        scores: dict[object, list[float]] = {}
        for r, yi, gi in zip(rows, ys, groups):
            p = _sigmoid(sum(b * v for b, v in zip(beta, r)))
            s = scores.setdefault(gi, [0.0] * k)
            for i in range(k):
                s[i] += r[i] * (yi - p)
        meat = [[sum(s[i] * s[j] for s in scores.values()) for j in range(k)]
                for i in range(k)]
        clusters = len(scores)
        c = clusters / (clusters - 1) if clusters > 1 else 1.0   # small-sample correction
        cov = _matmul(_matmul(bread, meat), bread)
        cov = [[c * v for v in row] for row in cov]
    else:
        cov = bread
    return LogisticFit(labels, beta, cov, current, iterations, converged, len(rows), clusters)


def _matmul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    return [[sum(a[i][t] * b[t][j] for t in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]


@dataclass
class PieceValue:
    """One kind's estimated value: raw coefficient and in ratniks, each with its SE."""

    kind: int
    name: str
    coef: float | None
    se: float | None
    value: float | None        # coefficient / the ratnik's coefficient
    value_se: float | None     # delta-method standard error of that ratio
    note: str = ""             # why there is no estimate, when there is none
    value_lo: float | None = None   # Fieller 95 % interval of the ratio: lower end
    value_hi: float | None = None   # ... upper end
    games_needed: int | None = None  # games for the ratnik's coefficient to clear 0, if not


#: Power with which ``games_needed`` puts the ratnik's coefficient clear of 0.
NEEDED_POWER_Z = 0.8416212335729143    # z(0.8)


def fieller(a: float, b: float, vaa: float, vbb: float, vab: float,
            z: float = 1.959963984540054) -> tuple[float, float] | None:
    """Fieller's 95 % interval of a / b for jointly normal estimates, or None when unbounded.

    The ratio r is in the interval when a - r b is within z of 0 in its own
    standard error: (a - r b)^2 <= z^2 (vaa - 2 r vab + r^2 vbb), a quadratic
    in r. When b's own interval includes 0 (b^2 <= z^2 vbb) the set is not a
    finite interval (the whole line, or two rays): no ratio is honest then.
    The delta method's symmetric interval would hide exactly that case.
    """
    qa = b * b - z * z * vbb
    if qa <= 0:
        return None
    qb = a * b - z * z * vab
    qc = a * a - z * z * vaa
    disc = qb * qb - qa * qc
    root = math.sqrt(max(disc, 0.0))
    return ((qb - root) / qa, (qb + root) / qa)


#: A kind enters the regression only if the sides' counts of it differ in at least
#: this many sampled positions. A kind that is almost never unbalanced (the helgi,
#: born of a rare promotion) would otherwise "separate" the few games it appears in:
#: its coefficient runs off to infinity and takes the whole fit with it.
MIN_SUPPORT = 20


def piece_values(samples: Sequence[tuple[Sequence[int], float, object]],
                 names: dict[int, str], kinds: Sequence[int] | None = None,
                 min_support: int = MIN_SUPPORT,
                 ) -> tuple[list[PieceValue], LogisticFit | None]:
    """Fit values from ``(material difference by kind, white's score, game id)`` samples.

    Kinds never unbalanced in these games are left out; kinds unbalanced in
    fewer than ``min_support`` positions are listed with a note and no
    estimate. Values are relative to the ratnik (kind 6) when it is estimable.
    """
    wanted = [k for k in (kinds or KINDS) if k != KING]
    support = {k: sum(1 for s in samples if s[0][k] != 0) for k in wanted}
    seen = [k for k in wanted if len({s[0][k] for s in samples}) > 1]
    used = [k for k in seen if support[k] >= min_support]
    rare = [PieceValue(k, names.get(k, str(k)), None, None, None, None,
                       _("too rare to estimate: unbalanced in {count} of {total} positions "
                         "(fewer than {least})").format(count=support[k], total=len(samples),
                                                        least=min_support))
            for k in seen if k not in used]
    if not samples or not used:
        return rare, None
    x = [[s[0][k] for k in used] for s in samples]
    try:
        fit = fit_logistic(x, [s[1] for s in samples], [names.get(k, str(k)) for k in used],
                           groups=[s[2] for s in samples])
    except SingularMatrixError:
        return [], None
    se = fit.se
    base = used.index(PAWN) + 1 if PAWN in used else None
    out = []
    for i, k in enumerate(used, start=1):
        value = value_se = lo = hi = None
        needed = None
        note = "" if fit.converged else _("no estimate: the results separate on material "
                                          "(more games needed)")
        if base is not None and fit.converged:
            a, b = fit.coef[i], fit.coef[base]
            cov = fit.covariance
            interval = fieller(a, b, cov[i][i], cov[base][base], cov[i][base])
            if interval is None:
                se_b = math.sqrt(max(cov[base][base], 0.0))
                z = 1.959963984540054 + NEEDED_POWER_Z
                needed = (math.ceil(fit.clusters * (z * se_b / abs(b)) ** 2)
                          if abs(b) > 1e-12 else None)
                note = (_("no ratio: the ratnik's coefficient interval includes 0; about "
                          "{needed} games would put it clear of 0 (power 0.8, at this "
                          "estimate)").format(needed=needed) if needed else
                        _("no ratio: the ratnik's coefficient interval includes 0; its "
                          "estimate is 0: no number of games"))
            elif k != PAWN:
                value = a / b
                var = (cov[i][i] / b ** 2 + a * a * cov[base][base] / b ** 4
                       - 2 * a * cov[i][base] / b ** 3)
                value_se = math.sqrt(max(var, 0.0))
                lo, hi = interval
            else:
                value, value_se, lo, hi = 1.0, 0.0, 1.0, 1.0
        out.append(PieceValue(k, names.get(k, str(k)), fit.coef[i], se[i], value, value_se,
                              note, lo, hi, needed))
    return out + rare, fit


__all__ = ["MIN_SUPPORT", "LogisticFit", "PieceValue", "SingularMatrixError", "fieller",
           "fit_logistic",
           "inverse", "material_counts", "piece_values", "solve"]
