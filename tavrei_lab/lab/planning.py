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

``until_decided`` plays the cells in batches and looks after each one at
the differences of ``measure`` of interest: between two cells, the pair named
by ``between``, or every pair of a bigger grid. Looking repeatedly and stopping
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
spent (undecided). With several pairs, each look's increment of alpha is
split over them by Holm's step-down method (the chance of any false
"established" at that look stays within the increment, so over all looks
within alpha), "excluded" uses each pair's interval at the increment divided by
the number of pairs (Bonferroni), a pair once decided keeps its verdict, and a
cell stops playing once every pair it is in is decided. No look decides a pair
before each of its cells has ``MIN_GAMES`` (4) games, nor while neither cell's games
have shown any spread (``lab.differences``: no p-value, no interval).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext
from tavrei_lab.lab.bounds import ahead_row, bounded_difference, same_side, worse_p
from tavrei_lab.lab.cells import count_cells
from tavrei_lab.lab.differences import PROPORTIONS, Difference, measure_name
from tavrei_lab.lab.statistics import (
    games_for_means,
    games_for_proportions,
    holm,
    newcombe_interval,
    obrien_fleming_spent,
    score_moments,
    welch,
    z_for,
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
        if self.measure in PROPORTIONS:
            text = _("To detect a difference of {effect:g} in {measure} (power 0.8, two-sided "
                     "alpha 0.05): {games} games a cell, {total} in {cells} cells, about "
                     "{duration} at {pace:.2f} games/s (measured in a trial of {trial} games a "
                     "cell; the trial's rate {baseline:.3f} is an estimate itself, so read the "
                     "answer as a guide).")
        else:
            text = _("To detect a difference of {effect:g} in {measure} (power 0.8, two-sided "
                     "alpha 0.05): {games} games a cell, {total} in {cells} cells, about "
                     "{duration} at {pace:.2f} games/s (measured in a trial of {trial} games a "
                     "cell; the trial's standard deviation {baseline:.3f} is an estimate "
                     "itself, so read the answer as a guide).")
        return text.format(effect=self.effect, measure=self.measure, games=self.games,
                           total=self.games * self.cells, cells=self.cells,
                           duration=_duration(self.seconds), pace=self.games_per_second,
                           trial=self.trial_games, baseline=self.baseline)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return _("{seconds:.0f} s").format(seconds=seconds)
    if seconds < 5400:
        return _("{minutes:.0f} min").format(minutes=seconds / 60)
    return _("{hours:.1f} h").format(hours=seconds / 3600)


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


def check_effect(measure: str, effect: float, who: str) -> None:
    """Refuse an ``effect`` no games can detect: not a finite positive number, or, for a
    rate or white's score (between 0 and 1), a difference of 1 or more (5 on a rate was
    "excluded" after the first 4 games: every interval lies inside (-5, 5))."""
    if isinstance(effect, bool) or not isinstance(effect, (int, float)) \
            or not 0 < effect < math.inf:
        raise TavreiError(_("{who}: --effect must be a finite positive difference, got {value}")
                          .format(who=who, value=effect))
    if measure in PROPORTIONS and effect >= 1:
        raise TavreiError(_("{who}: a difference of rates is below 1, got {value}")
                          .format(who=who, value=effect))
    if measure == "white_score" and effect >= 1:
        raise TavreiError(_("{who}: a difference of white's scores is below 1, got {value}")
                          .format(who=who, value=effect))


def check_two_cells(base: str | Sequence[str], grid: Mapping[str, Sequence[Any]] | None,
                    who: str) -> None:
    """A difference needs two cells: one cell (one base, no --grid) has none to plan for."""
    if count_cells(base, grid) < 2:
        raise TavreiError(_("{who}: one cell has no difference to detect; give two cells or "
                            "more (--grid option=a,b, or two --base variants)").format(who=who))


def plan(base: str | Sequence[str] = "tavreli", grid: Mapping[str, Sequence[Any]] | None = None,
         *, effect: float, measure: str = "white_score", trial: int = DEFAULT_TRIAL,
         **sweep_args: Any) -> Plan:
    """Play a trial of the sweep and say how many games a cell the question needs."""
    name = measure_name(measure)
    check_effect(name, effect, "plan")
    check_two_cells(base, grid, "plan")
    if trial < 2:
        raise TavreiError(_("plan: the trial needs 2 or more games a cell, got {value}")
                          .format(value=trial))
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
            raise TavreiError(_("plan: a difference of {effect} from a rate of {rate:.2f} does "
                                "not fit between 0 and 1").format(effect=effect, rate=p1))
        n = games_for_proportions(p1, p2)
    else:
        sd = base_value if base_value > 0 else (0.5 if name == "white_score" else 1.0)
        n = games_for_means(sd, effect)
    return Plan(name, effect, n, len(rows), base_value, pace, trial)


@dataclass
class PairDecision:
    """One difference of interest in ``until_decided``: its verdict and the look it
    was reached at (the last look's difference when it is still undecided)."""

    verdict: str                   # "established", "excluded" or "undecided"
    difference: Difference
    games: int                     # per cell at the look that decided it (or the last)
    look: int                      # 1-based
    p_holm: float                  # Holm-adjusted over the family at that look
    low: float                     # that look's interval at its share of alpha
    high: float

    def __str__(self) -> str:
        d = self.difference
        return _("{verdict}: {measure} {a} - {b} = {difference:+.3f} (interval {low:+.3f} to "
                 "{high:+.3f} at look {look}, {games} games a cell; p = {p:.3g}, Holm "
                 "{holm:.3g})").format(verdict=_(self.verdict), measure=d.measure, a=d.a,
                                       b=d.b, difference=d.difference, low=self.low,
                                       high=self.high, look=self.look, games=self.games,
                                       p=d.p_value, holm=self.p_holm)


@dataclass
class Decision:
    """The outcome of ``until_decided``: the verdict, the last look, and every look.

    With one difference of interest (two cells, or ``between``) ``verdict`` and
    ``difference`` are its own; with several (every pair of a bigger grid) ``verdict``
    is "decided" once each pair is established or excluded, else "undecided", and
    ``pairs`` has each one's verdict (``difference`` is then the first pair's).
    """

    verdict: str                   # "established", "excluded", "decided" or "undecided"
    difference: Difference
    games: int                     # per cell at the last look (the most any cell played)
    looks: list[dict[str, Any]] = field(default_factory=list)
    result: SweepResult | None = None
    pairs: list[PairDecision] = field(default_factory=list)

    def __str__(self) -> str:
        last = self.looks[-1] if self.looks else {}
        how = _("Lan-DeMets O'Brien-Fleming-type alpha spending over the looks, overall "
                "alpha {alpha:g}").format(alpha=last.get("overall", 0.05))
        if len(self.pairs) > 1:
            done = sum(1 for p in self.pairs if p.verdict != "undecided")
            head = ngettext("After {looks} looks (at most {games} games a cell): {done} of "
                            "{count} differences decided ({how}; each look's alpha split over "
                            "the {count} pairs by Holm's method).",
                            "After {looks} looks (at most {games} games a cell): {done} of "
                            "{count} differences decided ({how}; each look's alpha split over "
                            "the {count} pairs by Holm's method).", len(self.looks)).format(
                looks=len(self.looks), games=self.games, done=done, count=len(self.pairs),
                how=how)
            return "\n".join([head] + [f"  {p}" for p in self.pairs])
        d = self.difference
        words = {"established": _("the difference is established"),
                 "excluded": _("a difference as large as the one asked about is excluded"),
                 "undecided": _("the budget is spent and neither is shown")}[self.verdict]
        return ngettext("After {looks} looks ({games} games a cell): {words}. {measure} {a} - "
                        "{b} = {difference:+.3f}, p = {p:.3g} against this look's alpha "
                        "{alpha:.3g} ({how}).",
                        "After {looks} looks ({games} games a cell): {words}. {measure} {a} - "
                        "{b} = {difference:+.3f}, p = {p:.3g} against this look's alpha "
                        "{alpha:.3g} ({how}).", len(self.looks)).format(
            looks=len(self.looks), games=self.games, words=words, measure=d.measure, a=d.a,
            b=d.b, difference=d.difference, p=d.p_value, alpha=last.get("alpha", 0), how=how)


def _interval_at(row_a: dict, row_b: dict, d: Difference, alpha: float) -> tuple[float, float]:
    """The difference's (1 - alpha) interval, by the same method as its 95 % one."""
    if d.measure in PROPORTIONS:
        def count(row: dict) -> int:
            return (int(row["draws"]) if d.measure == "draw"
                    else int(row["white_wins"]) + int(row["black_wins"]))
        return newcombe_interval(count(row_a), d.n_a, count(row_b), d.n_b, z_for(alpha))
    if not d.bounded:             # no spread seen: no interval at any level
        return (-math.inf, math.inf)
    if d.measure == "white_score":
        v1 = score_moments(int(row_a["white_wins"]), int(row_a["draws"]),
                           int(row_a["black_wins"]))[1]
        v2 = score_moments(int(row_b["white_wins"]), int(row_b["draws"]),
                           int(row_b["black_wins"]))[1]
    else:
        v1, v2 = float(row_a["length_sd"]) ** 2, float(row_b["length_sd"]) ** 2
    _d, low, high, _p = welch(d.estimate_a, v1, d.n_a, d.estimate_b, v2, d.n_b, alpha)
    return (low, high)


Key = tuple[str, str]          # (cell, agents): a row of the sweep's table


def look_at(rows: Mapping[Key, dict], pairs: Sequence[tuple[Key, Key]], measure: str,
            effect: float, look_alpha: float, decided: Mapping[int, str] | None = None,
            ) -> list[tuple[Difference, float, float, float, str]]:
    """One look at a family of differences: for each pair (a, b) of rows its difference,
    Holm-adjusted p over the whole family, the interval at ``look_alpha / m`` and the
    verdict at this look's share of alpha.

    Holm's method holds the chance of any false "established" at ``look_alpha`` over
    the family at this look, run on the worse p-value of the capped games' two bounds
    (``lab.bounds``: counted as draws, or for the side ahead), and "established" needs
    both bounds on the same side; the interval is the one covering both bounds. Summed
    over the looks (the union bound) the increments of the alpha-spending function
    hold it at the overall alpha. "Excluded" needs the pair's interval at
    ``1 - look_alpha / m`` (Bonferroni, so every such interval of the look holds at
    once) to lie inside (-effect, +effect). A pair decided at an earlier look
    (``decided``, by index) keeps its verdict.

    Data that cannot support a verdict give none (``lab.differences``): with fewer than
    ``MIN_GAMES`` games in either cell, or with no spread seen in either (no p-value,
    an unbounded interval), a pair stays undecided and its cells play on.
    """
    decided = decided or {}
    m = len(pairs)
    # both bounds of the capped games (lab.bounds): Holm over the worse p-value, and a
    # verdict only where the two bounds agree
    both = [bounded_difference(rows[a], rows[b], measure, a[0], b[0]) for a, b in pairs]
    adjusted = holm([worse_p(d, e) for d, e in both])
    out = []
    for i, ((a, b), (d, e), p) in enumerate(zip(pairs, both, adjusted)):
        lo, hi = _interval_at(rows[a], rows[b], d, look_alpha / m)
        if e is not None:             # the interval that covers both bounds
            lo2, hi2 = _interval_at(ahead_row(rows[a]), ahead_row(rows[b]), e, look_alpha / m)
            lo, hi = min(lo, lo2), max(hi, hi2)
        if i in decided:
            verdict = decided[i]
        elif not (d.enough_games and d.bounded and (e is None or e.bounded)):
            verdict = "undecided"
        elif p < look_alpha and same_side(d, e):
            verdict = "established"
        elif -effect < lo and hi < effect:
            verdict = "excluded"
        else:
            verdict = "undecided"
        out.append((d, p, lo, hi, verdict))
    return out


def until_decided(base: str | Sequence[str] = "tavreli",
                  grid: Mapping[str, Sequence[Any]] | None = None, *, measure: str,
                  effect: float, games: int, batch: int, alpha: float = 0.05,
                  store: Any = None, between: Sequence[str] | None = None,
                  **sweep_args: Any) -> Decision:
    """Play the cells ``batch`` games at a time (up to ``games``) until the differences of
    interest in ``measure`` are each established or excluded, spending alpha over the
    looks.

    The differences of interest: ``between=(a, b)`` (two cell names; only those two
    cells are played), else every pair of the grid's cells played by the same agents
    (two cells: their one difference). With several pairs each look's alpha is split
    over them by Holm's method (``look_at``), and a cell stops playing once every pair
    it is in is decided.
    """
    name = measure_name(measure)
    check_effect(name, effect, "--until-decided")
    check_two_cells(base, grid, "--until-decided")
    if batch < 2 or games < batch:
        raise TavreiError(_("--until-decided: need 2 <= batch <= games, got batch {batch}, "
                            "games {games}").format(batch=batch, games=games))
    if not 0 < alpha < 1:
        raise TavreiError(_("--until-decided: alpha must be between 0 and 1, got {value}")
                          .format(value=alpha))
    if between is not None:
        between = list(between)
        if len(between) != 2 or between[0] == between[1]:
            raise TavreiError(_("--until-decided: between names two different cells, got "
                                "{value}").format(value=repr(between)))
    db = store if isinstance(store, ResultsStore) else ResultsStore(
        ":memory:" if store is None else store)      # "" is refused, not a throw-away store
    looks: list[dict[str, Any]] = []
    spent = 0.0
    n = 0
    res: SweepResult | None = None
    rows: dict[Key, dict] = {}
    pairs: list[tuple[Key, Key]] = []
    decided: dict[int, str] = {}
    # per decided pair: games, look, p_holm, low, high, and its difference at that look
    at: dict[int, tuple[int, int, float, float, float, Difference]] = {}
    playing = between
    last: list[tuple[Difference, float, float, float, str]] = []
    while n < games:
        n = min(games, n + batch)
        res = sweep(base, grid, games=n, store=db, cells=playing, **sweep_args)
        for r in res.table.rows:
            rows[(str(r["cell"]), str(r.get("agents")))] = r
        if not pairs:
            pairs = _family(list(rows), between)
        now = obrien_fleming_spent(n / games, alpha)
        look_alpha = max(now - spent, 1e-12)
        spent = now
        last = look_at(rows, pairs, name, effect, look_alpha, decided)
        for i, (d, p, lo, hi, verdict) in enumerate(last):
            if verdict != "undecided" and i not in decided:
                decided[i] = verdict
                at[i] = (n, len(looks) + 1, p, lo, hi, d)
        look: dict[str, Any] = {"games": n, "alpha": look_alpha, "overall": alpha}
        if len(pairs) == 1:
            d, p, lo, hi, _verdict = last[0]
            look.update(p=d.p_value, low=lo, high=hi)
        else:
            look["pairs"] = [{"a": d.a, "b": d.b, "p": d.p_value, "p_holm": p, "low": lo,
                              "high": hi, "verdict": v} for d, p, lo, hi, v in last]
        looks.append(look)
        if len(decided) == len(pairs):
            break
        # a cell goes on only while a pair it is in is undecided
        open_cells = {k[0] for i, (a, b) in enumerate(pairs) if i not in decided
                      for k in (a, b)}
        playing = [c for c in dict.fromkeys(k[0] for k in rows) if c in open_cells]
    assert res is not None
    verdicts = []
    for i, (d, p, lo, hi, v) in enumerate(last):
        g, k, ph, low, high, then = at.get(i, (n, len(looks), p, lo, hi, d))
        verdicts.append(PairDecision(v, then, g, k, ph, low, high))
    if len(pairs) == 1:
        return Decision(verdicts[0].verdict, last[0][0], n, looks, res, verdicts)
    verdict = "decided" if len(decided) == len(pairs) else "undecided"
    return Decision(verdict, verdicts[0].difference, n, looks, res, verdicts)


def _family(keys: list[Key], between: Sequence[str] | None) -> list[tuple[Key, Key]]:
    """The pairs of rows whose differences are of interest."""
    if between is not None:
        found = {c: [k for k in keys if k[0] == c] for c in between}
        for c, ks in found.items():
            if not ks:
                raise TavreiError(_("--until-decided: no cell {cell} in the grid; its cells: "
                                    "{cells}").format(
                    cell=repr(c), cells=", ".join(dict.fromkeys(k[0] for k in keys))))
            if len(ks) > 1:
                raise TavreiError(_("--until-decided: cell {cell} is played by several agent "
                                    "pairs; give one agent pair").format(cell=repr(c)))
        return [(found[between[0]][0], found[between[1]][0])]
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:]
             if a[1] == b[1] and a[0] != b[0]]
    if not pairs:
        raise TavreiError(ngettext("--until-decided compares cells; this grid has {count} row "
                                   "and no two played by the same agents (give an option with "
                                   "two or more values)",
                                   "--until-decided compares cells; this grid has {count} rows "
                                   "and no two played by the same agents (give an option with "
                                   "two or more values)", len(keys)).format(count=len(keys)))
    return pairs


__all__ = ["DEFAULT_TRIAL", "Decision", "PairDecision", "Plan", "look_at", "plan",
           "until_decided"]
