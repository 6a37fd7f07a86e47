"""Naming a sweep's players' strength, and asking a question at several strengths.

A sweep's answer is about the rules *as these players play them*: a measure that moves
with the players' strength is about the players. Two tools say how strong they were
and whether the answer depends on it:

- ``measure_strength``: every agent of a sweep plays ``games`` games against the
  fixed reference player of the strength benchmark (``engine.agents.REFERENCE_PLAYER``:
  the default playing agent at a fixed node budget, so no clock or load moves it) in
  every cell, colours alternated, kept in the sweep's store (a rerun plays nothing
  again); the agent's score with its 95 % interval (``lab.statistics.score_interval``)
  and the logistic Elo of the score and of the interval's ends (``lab.tune.elo``) put
  every player on one scale. A weights=fit agent plays what the sweep played (its
  proven fit, or the default weights).
- ``across_strengths``: the same question's differences (``SweepResult.differences``)
  at two or more node budgets, side by side: per measure and pair of cells, the sign
  of the difference and whether it is established at each budget; "stable" when both
  are the same at every budget, else "changes with strength".
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tavrei_lab.engine.agents import REFERENCE_PLAYER, split_specs
from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.statistics import score_interval
from tavrei_lab.lab.tune import elo

#: Games each agent plays against the reference player in each cell (the command
#: line's default; ``sweep(strength_games=...)``): enough for an Elo within about
#: +-150, few enough to cost a fraction of the question's games.
DEFAULT_STRENGTH_GAMES = 20
#: The ``purpose`` a strength game's settings record: a store's tables, read whole
#: (``ResultsTable.from_store`` without settings), leave these games out of the question's.
STRENGTH_PURPOSE = "strength"


@dataclass(frozen=True)
class Strength:
    """One agent's strength in one cell against ``REFERENCE_PLAYER``."""

    cell: str
    agent: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float

    @property
    def elo(self) -> float:
        return elo(self.score)

    @property
    def elo_low(self) -> float:
        return elo(self.low)

    @property
    def elo_high(self) -> float:
        return elo(self.high)

    def text(self) -> str:
        # a clean sweep has no point estimate (the logistic runs off to infinity): its
        # interval's inner end is all the games say
        if self.score in (0.0, 1.0):
            bound = (_("below {elo}").format(elo=_signed(self.elo_high)) if self.score == 0.0
                     else _("above {elo}").format(elo=_signed(self.elo_low)))
        else:
            bound = (f"{_signed(self.elo)} [{_signed(self.elo_low)}, "
                     f"{_signed(self.elo_high)}]")
        return _("strength of {agent} in {cell}: Elo {bound} against the reference player "
                 "{reference} (score {score:.3f} [{slow:.3f}, {shigh:.3f}], {games} games: "
                 "{wins} won, {draws} drawn, {losses} lost)").format(
            agent=self.agent, cell=self.cell, bound=bound, reference=REFERENCE_PLAYER,
            score=self.score, slow=self.low, shigh=self.high, games=self.games,
            wins=self.wins, draws=self.draws, losses=self.losses)

    def as_dict(self) -> dict[str, Any]:
        return {"cell": self.cell, "agent": self.agent, "reference": REFERENCE_PLAYER,
                "games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "score": self.score, "low": self.low,
                "high": self.high, "elo": _finite(self.elo), "elo_low": _finite(self.elo_low),
                "elo_high": _finite(self.elo_high)}


def _signed(x: float) -> str:
    """An Elo difference as a signed whole number: an even score is 0, never -0."""
    if not math.isfinite(x):
        return f"{x:+.0f}"
    return f"{round(x):+d}" if round(x) else "0"


def _finite(x: float) -> float | None:
    return round(x, 1) if math.isfinite(x) else None


def not_measured_text() -> str:
    """What a sweep says when its players' strength was not measured."""
    return _("the players' strength against the reference player {reference} was not "
             "measured (strength_games=0; the command line's --strength-games)").format(
        reference=REFERENCE_PLAYER)


def strength_of(cell: str, agent: str, games: Sequence[Any]) -> Strength:
    """``agent``'s strength from its stored games against the reference player."""
    w = d = lo = 0
    for g in games:
        r = g.result
        side = "white" if r.white == agent else "black"
        if r.winner is None:
            d += 1
        elif r.winner == side:
            w += 1
        else:
            lo += 1
    s, low, high = score_interval(w, d, lo)
    return Strength(cell, agent, w + d + lo, w, d, lo, s, 0.0 if low is None else low,
                    1.0 if high is None else high)


def measure_strength(result: Any, games: int = DEFAULT_STRENGTH_GAMES, *,
                     executor: Any = None, workers: int | None = None,
                     progress: bool | str = False) -> list[Strength]:
    """Play every agent of the sweep ``result`` (a ``SweepResult``) against
    ``REFERENCE_PLAYER`` in each of its cells, ``games`` games each, into its store; add a
    line per agent and cell to ``result.notes`` and return the strengths
    (``SweepResult.measure_strength``)."""
    out: list[Strength] = result.measure_strength(games, executor=executor, workers=workers,
                                                  progress=progress)
    return out


def check_strength_games(games: Any) -> int:
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise TavreiError(_("strength games must be a whole number 1 or more, got {games!r}")
                          .format(games=games))
    return games


def with_strengths(notes: list[str], strengths: Sequence[Strength]) -> list[str]:
    """``notes`` without the line saying strength was not measured, with a line per
    strength."""
    return [n for n in notes if n != not_measured_text()] + [x.text() for x in strengths]


_NODES = re.compile(r"(?<![a-z_])nodes=\d+")


def at_strength(agents: Sequence[str] | str, nodes: int) -> list[str]:
    """The agent specs with their node budget set to ``nodes``: every agent must have
    one (``play:nodes=K``, ``level:N,nodes=K``) -- one without would play the same at
    every "strength".

    >>> at_strength("play:nodes=150,weights=fit,noise=10", 500)
    ['play:nodes=500,weights=fit,noise=10']
    """
    out = []
    for spec in split_specs(agents):
        if not _NODES.search(spec):
            raise TavreiError(_("--strengths: agent {agent!r} has no node budget (nodes=K) to "
                                "set; give the agents as play:nodes=K or level:N,nodes=K")
                              .format(agent=spec))
        out.append(_NODES.sub(f"nodes={nodes}", spec))
    return out


def parse_strengths(text: str) -> list[int]:
    """``"150,500"`` -> [150, 500]: two or more distinct node budgets."""
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise TavreiError(_("--strengths {value!r}: expected node budgets, like 150,500")
                          .format(value=text)) from None
    if len(set(values)) < 2 or any(v < 1 for v in values):
        raise TavreiError(_("--strengths {value!r}: give two or more distinct node budgets of "
                            "1 or more, like 150,500").format(value=text))
    return values


def _sign(row: Mapping[str, Any]) -> int:
    d = row.get("difference")
    if d is None or (isinstance(d, float) and math.isnan(d)):
        return 0
    return (d > 0) - (d < 0)


def across_strengths(results: Mapping[int, Any]) -> list[dict[str, Any]]:
    """Per measure and pair of cells, the difference at each node budget of ``results``
    (budget -> ``SweepResult``) and the verdict: "stable" when its sign and whether it
    is established are the same at every budget, else "changes with strength"."""
    keyed: dict[tuple[str, str, str], dict[int, Mapping[str, Any]]] = {}
    for nodes, res in results.items():
        for row in res.differences().rows:
            keyed.setdefault((row["measure"], row["a"], row["b"]), {})[nodes] = row
    out = []
    for (measure, a, b), by in keyed.items():
        if len(by) != len(results):
            continue
        signs = {_sign(r) for r in by.values()}
        verdicts = {r["established"] == "yes" for r in by.values()}
        out.append({"measure": measure, "a": a, "b": b,
                    "at": {n: {"difference": r["difference"], "low": r["low"],
                               "high": r["high"], "established": r["established"]}
                           for n, r in sorted(by.items())},
                    "stability": "stable" if len(signs) == 1 and len(verdicts) == 1
                    else "changes with strength"})
    return out


def stability_text(rows: Sequence[Mapping[str, Any]]) -> str:
    """The side-by-side report of ``across_strengths``: a line per measure and pair."""
    if not rows:
        return _("No difference to compare across strengths (a grid needs two cells).")
    budgets = list(rows[0]["at"])
    lines = [_("The question at {budgets} nodes a move, side by side:").format(
        budgets=", ".join(str(n) for n in budgets))]
    for r in rows:
        parts = []
        for n, at in r["at"].items():
            shown = ("—" if at["low"] is None or at["high"] is None
                     else f"[{at['low']:+.3f}, {at['high']:+.3f}]")
            said = {"yes": _("yes"), "no": _("no"), "no (alike)": _("no (alike)")}
            parts.append(_("{nodes}: {difference:+.3f} {interval} established: {yes}").format(
                nodes=n, difference=at["difference"], interval=shown,
                yes=said.get(str(at["established"]), str(at["established"]))))
        verdict = _("stable") if r["stability"] == "stable" else _("changes with strength")
        lines.append(f"  {r['measure']}: {r['a']} - {r['b']}: " + "; ".join(parts)
                     + f" => {verdict}")
    return "\n".join(lines)


def run_at_strengths(agents: Sequence[str] | str, strengths: Sequence[int],
                     run: Callable[[list[str]], Any]) -> dict[int, Any]:
    """``run(agents at K nodes)`` for every budget K (each a sweep's result)."""
    return {n: run(at_strength(agents, n)) for n in strengths}


__all__ = ["DEFAULT_STRENGTH_GAMES", "STRENGTH_PURPOSE", "Strength", "across_strengths",
           "at_strength", "check_strength_games", "measure_strength", "not_measured_text",
           "parse_strengths", "run_at_strengths", "stability_text", "strength_of",
           "with_strengths"]
