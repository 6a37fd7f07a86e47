"""The statistics a comparison reports, and the small formulas behind them.

Per game (``GameStats``, filled move by move while the game is played):
game length, branching factor, tower heights, prisoners taken and freed,
captures, splits. Per variant and per agent pair: sums and means of those,
results with **Wilson score intervals**.

Why Wilson? With 50 games and a rate near 0 or 1 (a strong agent against a
random one wins almost always) the textbook interval ``p ± z·sqrt(p(1-p)/n)``
runs outside [0, 1] or shrinks to nothing; Wilson's interval (1927) stays
inside [0, 1] and keeps its promised coverage for small samples. Scores with
half points (white's, an agent's) are not counts of successes: their interval is
Student's t on the per-game scores (``score_interval``), computed here without
scipy (Student's t from the regularised incomplete beta function).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import COLOR_BIT
from tavrei_lab.engine.zobrist import changed_squares
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _

_NORMAL = NormalDist()

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054


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


def prisoner_changes(before: Position, move: Move, after: Position) -> tuple[int, int]:
    """How many tavrels ``move`` took prisoner and how many it freed.

    A tavrel is a *prisoner* while the top of its tower is the other
    colour's. Only the squares the move changes are looked at: under the
    landing unit, the tower that was there (or the en passant victim) gets
    a new top; on the square left, the rest gets a new top (a split frees
    the prisoners it uncovers); on an en passant victim's square likewise.
    The unit itself keeps its top, so its prisoners stay prisoners.

    >>> from tavrei_lab import Game
    >>> g = Game(); _ = g.play("e2-e4 d7-d5")
    >>> before = g.position; m = g.push("e4xd5")
    >>> prisoner_changes(before, m, g.position)
    (1, 0)
    """
    if move.castling:
        return (0, 0)
    taken = freed = 0
    k = move.count
    for s in changed_squares(before, move):
        old, new = before.board[s], after.board[s]
        if s == move.to_square:
            lower = new[:len(new) - k]
            if not lower:
                continue
            new_owner = new[-1] & COLOR_BIT
            old_owner = old[-1] & COLOR_BIT if old else None   # empty: an en passant victim
            for t in lower:
                was = old_owner is not None and t & COLOR_BIT != old_owner
                now = t & COLOR_BIT != new_owner
                taken += now and not was
                freed += was and not now
        else:
            if not old or not new:
                continue
            old_owner, new_owner = old[-1] & COLOR_BIT, new[-1] & COLOR_BIT
            for t in new:
                was = t & COLOR_BIT != old_owner
                now = t & COLOR_BIT != new_owner
                taken += now and not was
                freed += was and not now
    return (taken, freed)


@dataclass
class GameStats:
    """What one game did, gathered move by move (see ``record_move``)."""

    plies: int = 0
    decisions: int = 0
    legal_moves_total: int = 0
    height_sum: float = 0.0
    height_samples: int = 0
    max_tower_height: int = 1
    prisoners_taken: int = 0
    prisoners_freed: int = 0
    captures: int = 0
    splits: int = 0
    rolls: int = 0

    def record_decision(self, legal_moves: int) -> None:
        self.decisions += 1
        self.legal_moves_total += legal_moves

    def record_move(self, before: Position, move: Move, after: Position) -> None:
        self.plies += 1
        tower = before.board[move.from_square]
        dest = before.board[move.to_square]
        if not move.castling:
            if move.count < len(tower):
                self.splits += 1
            if (dest and dest[-1] & COLOR_BIT != before.turn) or (
                    move.to_square == before.ep_square and not dest
                    and len(changed_squares(before, move)) == 3):
                self.captures += 1
        taken, freed = prisoner_changes(before, move, after)
        self.prisoners_taken += taken
        self.prisoners_freed += freed
        occupied = [n for n in map(len, after.board) if n]
        if occupied:
            self.height_sum += sum(occupied) / len(occupied)
            self.height_samples += 1
            self.max_tower_height = max(self.max_tower_height, max(occupied))

    @property
    def mean_branching(self) -> float:
        return self.legal_moves_total / self.decisions if self.decisions else 0.0

    @property
    def mean_tower_height(self) -> float:
        return self.height_sum / self.height_samples if self.height_samples else 1.0

    def summary(self) -> dict[str, Any]:
        d = asdict(self)
        d["mean_branching"] = self.mean_branching
        d["mean_tower_height"] = self.mean_tower_height
        return d


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
