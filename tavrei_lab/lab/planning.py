"""How many games a question needs, and playing until it is decided.

``plan`` plays a short trial of the sweep (``trial`` games a cell), reads
from it what the formula needs (the rate the cells start from, or the
spread of per-game scores or plies) and the games per second this machine
plays, and answers: ``games`` a cell to detect a difference ``effect`` in
``measure`` with power 0.8 at two-sided alpha 0.05, and how long that takes.
For proportions (``decisive``, ``draw``) it is the two-proportion formula

    n = (z(1-a/2) sqrt(2 p(1-p)) + z(1-b) sqrt(p1(1-p1) + p2(1-p2)))^2 / (p1-p2)^2

with p1 the trial's pooled rate and p2 = p1 + effect; for means
(``white_score``, ``length``) ``n = 2 (z(1-a/2) + z(1-b))^2 sd^2 / effect^2``
with the trial's pooled standard deviation. A trial is small, so the answer
is a guide: the rate or spread it reads has its own uncertainty.

``until_decided`` plays two cells in batches and looks after each one at
the difference of ``measure`` between them. Looking repeatedly and stopping
at the first small p-value would find differences that are not there, so
the looks spend alpha by the Lan-DeMets O'Brien-Fleming-type function
``alpha(t) = 2 - 2 Phi(z(1-a/2) / sqrt(t))`` (t = games so far / the
budget): early looks need overwhelming evidence, the last is tested at
nearly the full 0.05. Each look is tested at its own increment of alpha,
which by the union bound holds the overall error at alpha (a little
stricter than the exact group-sequential boundaries). It stops when the
difference is **established** (p below the look's alpha) or **excluded**
(the look's (1 - alpha_k) interval lies inside (-effect, +effect): any
difference is smaller than the one asked about), else when the budget is
spent (undecided).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from tavrei_lab.errors import TavreiError
from tavrei_lab.lab.differences import (
    PROPORTIONS,
    Difference,
    difference_of,
    games_for_means,
    games_for_proportions,
    measure_name,
    newcombe_interval,
    obrien_fleming_spent,
    score_moments,
    t_quantile,
)
from tavrei_lab.lab.store import ResultsStore
from tavrei_lab.lab.sweep import SweepResult, sweep

#: Games a cell the trial of ``plan`` plays by default.
DEFAULT_TRIAL = 10


@dataclass(frozen=True)
class Plan:
    """Games a cell needed for a difference ``effect`` in ``measure``, and the time it takes."""

    measure: str
    effect: float
    games: int                 # per cell
    cells: int
    baseline: float            # the trial's rate (proportions) or standard deviation (means)
    games_per_second: float
    trial_games: int

    @property
    def seconds(self) -> float:
        """Wall time for every cell's games at the trial's pace."""
        return self.games * self.cells / self.games_per_second

    def __str__(self) -> str:
        what = ("rate" if self.measure in PROPORTIONS else "standard deviation")
        return (f"To detect a difference of {self.effect:g} in {self.measure} (power 0.8, "
                f"two-sided alpha 0.05): {self.games} games a cell, "
                f"{self.games * self.cells} in {self.cells} cells, about "
                f"{_duration(self.seconds)} at {self.games_per_second:.2f} games/s "
                f"(measured in a trial of {self.trial_games} games a cell; the trial's {what} "
                f"{self.baseline:.3f} is an estimate itself, so read the answer as a guide).")


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _pooled(rows: Sequence[dict[str, Any]], measure: str) -> float:
    """The trial's pooled rate (proportions) or standard deviation (means)."""
    n = sum(int(r["games"]) for r in rows)
    if measure == "decisive":
        return sum(int(r["white_wins"]) + int(r["black_wins"]) for r in rows) / n
    if measure == "draw":
        return sum(int(r["draws"]) for r in rows) / n
    if measure == "white_score":
        w = sum(int(r["white_wins"]) for r in rows)
        d = sum(int(r["draws"]) for r in rows)
        return math.sqrt(score_moments(w, d, n - w - d)[1])
    var = sum((int(r["games"]) - 1) * float(r["length_sd"]) ** 2 for r in rows)
    return math.sqrt(var / max(1, n - len(rows)))


def plan(base: str | Sequence[str] = "tavreli", grid: Mapping[str, Sequence[Any]] | None = None,
         *, effect: float, measure: str = "white_score", trial: int = DEFAULT_TRIAL,
         **sweep_args: Any) -> Plan:
    """Play a trial of the sweep and say how many games a cell the question needs."""
    name = measure_name(measure)
    if not effect > 0:
        raise TavreiError(f"plan: --effect must be a positive difference, got {effect}")
    if name in PROPORTIONS and effect >= 1:
        raise TavreiError(f"plan: a difference of rates is below 1, got {effect}")
    if trial < 2:
        raise TavreiError(f"plan: the trial needs 2 or more games a cell, got {trial}")
    started = time.perf_counter()
    res = sweep(base, grid, games=trial, **sweep_args)
    seconds = max(time.perf_counter() - started, 1e-6)
    rows = res.table.rows
    pace = max(res.played, 1) / seconds
    if not res.played:        # everything came from the store: time the stored games instead
        timed = sum(g.result.seconds for g in res.games())
        pace = len(res.games()) / max(timed, 1e-6)
    base_value = _pooled(rows, name)
    if name in PROPORTIONS:
        p1 = base_value
        p2 = p1 + effect if p1 + effect <= 1 else p1 - effect
        if not 0 <= p2 <= 1:
            raise TavreiError(f"plan: a difference of {effect} from a rate of {p1:.2f} "
                              "does not fit between 0 and 1")
        n = games_for_proportions(p1, p2)
    else:
        sd = base_value if base_value > 0 else (0.5 if name == "white_score" else 1.0)
        n = games_for_means(sd, effect)
    return Plan(name, effect, n, len(rows), base_value, pace, trial)


@dataclass
class Decision:
    """The outcome of ``until_decided``: the verdict, the last look, and every look."""

    verdict: str                   # "established", "excluded" or "undecided"
    difference: Difference
    games: int                     # per cell at the last look
    looks: list[dict[str, float]] = field(default_factory=list)
    result: SweepResult | None = None

    def __str__(self) -> str:
        d = self.difference
        words = {"established": "the difference is established",
                 "excluded": "a difference as large as the one asked about is excluded",
                 "undecided": "the budget is spent and neither is shown"}[self.verdict]
        last = self.looks[-1] if self.looks else {}
        return (f"After {len(self.looks)} looks ({self.games} games a cell): {words}. "
                f"{d.measure} {d.a} - {d.b} = {d.difference:+.3f}, p = {d.p_value:.3g} "
                f"against this look's alpha {last.get('alpha', 0):.3g} (Lan-DeMets "
                f"O'Brien-Fleming-type alpha spending over the looks, overall alpha 0.05).")


def _interval_at(row_a: dict, row_b: dict, d: Difference, alpha: float) -> tuple[float, float]:
    """The difference's (1 - alpha) interval, by the same method as its 95 % one."""
    if d.measure in PROPORTIONS:
        def count(row: dict) -> int:
            return (int(row["draws"]) if d.measure == "draw"
                    else int(row["white_wins"]) + int(row["black_wins"]))
        z = NormalDist().inv_cdf(1 - alpha / 2)
        return newcombe_interval(count(row_a), d.n_a, count(row_b), d.n_b, z)
    # Welch: recover se and df from the 95 % half width, then rescale
    half95 = (d.high - d.low) / 2
    if half95 == 0:
        return (d.difference, d.difference)
    if d.measure == "white_score":
        v1 = score_moments(int(row_a["white_wins"]), int(row_a["draws"]),
                           int(row_a["black_wins"]))[1]
        v2 = score_moments(int(row_b["white_wins"]), int(row_b["draws"]),
                           int(row_b["black_wins"]))[1]
    else:
        v1, v2 = float(row_a["length_sd"]) ** 2, float(row_b["length_sd"]) ** 2
    s1, s2 = v1 / d.n_a, v2 / d.n_b
    df = (s1 + s2) ** 2 / ((s1 ** 2 / (d.n_a - 1) if s1 else 0.0)
                           + (s2 ** 2 / (d.n_b - 1) if s2 else 0.0))
    half = t_quantile(1 - alpha / 2, df) * math.sqrt(s1 + s2)
    return (d.difference - half, d.difference + half)


def until_decided(base: str | Sequence[str] = "tavreli",
                  grid: Mapping[str, Sequence[Any]] | None = None, *, measure: str,
                  effect: float, games: int, batch: int, alpha: float = 0.05,
                  store: Any = None, **sweep_args: Any) -> Decision:
    """Play two cells ``batch`` games at a time (up to ``games``) until the difference
    of ``measure`` is established or excluded, spending alpha over the looks."""
    name = measure_name(measure)
    if not effect > 0:
        raise TavreiError(f"--until-decided: --effect must be a positive difference, got {effect}")
    if batch < 2 or games < batch:
        raise TavreiError(f"--until-decided: need 2 <= batch <= games, got batch {batch}, "
                          f"games {games}")
    db = store if isinstance(store, ResultsStore) else ResultsStore(store or ":memory:")
    looks: list[dict[str, float]] = []
    spent = 0.0
    n = 0
    res: SweepResult | None = None
    while n < games:
        n = min(games, n + batch)
        res = sweep(base, grid, games=n, store=db, **sweep_args)
        rows = res.table.rows
        if len(rows) != 2:
            raise TavreiError(f"--until-decided compares two cells; this grid has {len(rows)} "
                              "(give one option with two values and one agent pair)")
        d = difference_of(rows[0], rows[1], name, str(rows[0]["cell"]), str(rows[1]["cell"]))
        now = obrien_fleming_spent(n / games, alpha)
        look_alpha = max(now - spent, 1e-12)
        spent = now
        lo, hi = _interval_at(rows[0], rows[1], d, look_alpha)
        looks.append({"games": n, "alpha": look_alpha, "p": d.p_value, "low": lo, "high": hi})
        if d.p_value < look_alpha:
            return Decision("established", d, n, looks, res)
        if -effect < lo and hi < effect:
            return Decision("excluded", d, n, looks, res)
    assert res is not None
    return Decision("undecided", d, n, looks, res)


__all__ = ["DEFAULT_TRIAL", "Decision", "Plan", "plan", "until_decided"]
