"""What the lab measures, per game and per cell, and where each measure comes from.

Per game (``GameWatch``, told of every decision and move while the game is
played, so nothing is replayed):

- the number of legal moves at each decision (the **branching factor over
  the game**);
- the engine's static evaluation (``engine.evaluate``, white's view, in
  ratniks) after every move, from which **lead changes** and **drama** are
  computed (below);
- the material difference by kind every few plies (for **piece values**,
  see ``lab.piece_values``);
- the first plies as text (for **opening diversity**);
- tower measures beyond ``lab.game_stats.GameStats``: **promotions** and
  **demotions** (a ratnik taking up its destiny, a promoted one losing it).

Per cell (``cell_measures``), with a **Wilson 95 % interval** for every rate, and a
**Student t 95 % interval** for white's score (on per-game scores 1, 1/2, 0: a draw's
half point is not a Bernoulli draw) and for the mean length. A t interval needs a
spread: where white's score shows none (one game, twenty wins) Wilson's interval on
points stands in (``score_interval``); a length from one game, or games all of one
length, has none (None):

==========================  ===============================================================
white score, draw rate,     Tomašev et al. 2020 (first-move advantage, "decisiveness"):
decisive rate               white's points per game; the share of draws; of decided games
terminations by kind        how the games ended (checkmate, stalemate, repetition, fifty
                            moves, ``max-plies`` adjudication) -- Tomašev et al. report
                            the draw kinds separately too
game length                 Tomašev et al.: distribution of plies (mean with a Student t
                            95 % interval, standard deviation, quartiles)
branching factor            legal moves per decision, overall and by 10-ply stage of the
                            game (Browne 2008; Ludii's "branching factor" metrics)
opening diversity           Tomašev et al. measured how varied openings are; here the
                            Shannon entropy (bits) of the first N plies across the games,
                            and the same divided by log2(games) (1 = every game different,
                            which it soon is: it cannot tell cells apart); and the
                            **first-move repeat rate** (Simpson's index: the chance two
                            games share their first ply, with a bootstrap interval), whose
                            expectation does not depend on the number of games
lead changes                Ludii's "lead change" metric (after Browne 2008): how often
                            the side ahead in the evaluation changes, per game and per ply
drama                       Ludii's "drama" (after Browne 2008): how far behind the
                            eventual winner was, averaged over the game's positions; and
                            the share of decided games the winner came back in
tower measures              tavrei_lab's own: tower heights, prisoners taken and freed,
                            splits, promotions, demotions per game
piece values                Tomašev et al., section "piece values": logistic regression of
                            the result on material differences (``lab.piece_values``)
==========================  ===============================================================

The evaluation is a yardstick, not an oracle: a lead change means "the
static evaluation changed sign by more than ``LEAD_MARGIN``", which follows
material closely. Lead changes and drama are therefore about material swings
as this package's evaluation sees them, which is what a class can check by
replaying the game.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tavrei_lab.core import speech
from tavrei_lab.core.tavrel import PROMOTED
from tavrei_lab.engine.evaluate import evaluate
from tavrei_lab.i18n import N_, ngettext
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.piece_values import material_counts
from tavrei_lab.lab.results import ADJUDICATED, TERMINATIONS, GameResult
from tavrei_lab.lab.statistics import (
    BOOTSTRAP,
    mean_interval,
    median,
    quartiles,
    repeat_interval,
    score_interval,
    wilson_interval,
)

#: The evaluation (in ratniks) a side must be ahead by to "lead".
LEAD_MARGIN = 0.5
#: Evaluations beyond this (a mate score) are clipped: a lead, not a number.
EVAL_CLIP = 50.0
#: Ratniks of advantage that make a 73 % expected score (logistic scale for drama).
EVAL_SCALE = 4.0
#: Plies per stage of the branching-factor profile.
STAGE_PLIES = 10
#: Default plies of an "opening" for the diversity measure.
OPENING_PLIES = 4
#: Material is sampled every SAMPLE_EVERY plies from ply SAMPLE_FROM on.
SAMPLE_FROM = 8
SAMPLE_EVERY = 4
#: The ``end_*`` columns' meanings, one whole sentence per ending (said when a table is
#: made); an ending not listed is named in ``"share of games ended by {ending}"``.
SHARE_ENDED = {"checkmate": N_("share of games ended by checkmate"),
               "king-capture": N_("share of games ended by king-capture"),
               "stalemate": N_("share of games ended by stalemate"),
               "threefold-repetition": N_("share of games ended by threefold-repetition"),
               "fifty-move-rule": N_("share of games ended by fifty-move-rule"),
               ADJUDICATED: N_("share of games ended by max-plies (adjudicated as a draw: "
                               "not a rules ending)")}


def _promoted(position: Any) -> int:
    return sum(1 for tower in position.board for t in tower if t & PROMOTED)


class GameWatch:
    """Gathers one game's measures while it is played (``play_game(watch=...)``)."""

    def __init__(self, opening_plies: int = OPENING_PLIES, sample_from: int = SAMPLE_FROM,
                 sample_every: int = SAMPLE_EVERY) -> None:
        self.opening_plies = opening_plies
        self.sample_from = sample_from
        self.sample_every = sample_every
        self.branching: list[int] = []
        self.evals: list[float] = []
        self.material: list[list[int]] = []
        self.opening: list[str] = []
        self.promotions = 0
        self.demotions = 0
        # the last position counted and its promoted tavrels: the next move's ``before``
        self._counted: tuple[Any, int] | None = None

    def decision(self, game: Any, moves: Sequence[Any]) -> None:
        self.branching.append(len(moves))

    def moved(self, game: Any, before: Any, move: Any) -> None:
        after = game.position
        ply = game.ply
        if len(self.opening) < self.opening_plies:
            self.opening.append(game.move_text(move, before))
        counted = self._counted
        now = _promoted(after)
        change = now - (counted[1] if counted is not None and counted[0] is before
                        else _promoted(before))
        self._counted = (after, now)
        if change > 0:
            self.promotions += change
        else:
            self.demotions -= change
        score = evaluate(after, game.rules)
        white = score if after.turn == 0 else -score
        self.evals.append(round(max(-EVAL_CLIP, min(EVAL_CLIP, white)), 2))
        if ply >= self.sample_from and (ply - self.sample_from) % self.sample_every == 0:
            self.material.append([ply, *material_counts(after)])

    def measures(self) -> dict[str, Any]:
        """The game's measures as plain JSON-ready data."""
        return {"branching": self.branching, "evals": self.evals, "material": self.material,
                "opening": self.opening, "promotions": self.promotions,
                "demotions": self.demotions}


# -- per game, from the stored data ---------------------------------------------------

def lead_changes(evals: Sequence[float], margin: float = LEAD_MARGIN) -> int:
    """How often the side ahead changed (level stretches in between do not count).

    >>> lead_changes([0, 1, 0.2, -1, -2, 3])
    2
    """
    leader = 0
    changes = 0
    for e in evals:
        now = 1 if e > margin else -1 if e < -margin else 0
        if now and leader and now != leader:
            changes += 1
        if now:
            leader = now
    return changes


def drama(evals: Sequence[float], winner: str | None) -> tuple[float, bool] | None:
    """(mean shortfall of the eventual winner, did the winner ever trail?) or None for a draw.

    The winner's expected score after each move is ``1/(1+exp(-e/EVAL_SCALE))``
    from its side; the shortfall is how far below an even game that was
    (``2*max(0, 1/2 - p)``: 0 when never behind, near 1 when all but lost).

    >>> drama([1.0, 2.0], "white")
    (0.0, False)
    >>> d, trailed = drama([-4.0, 0.0, 3.0], "white"); round(d, 3), trailed
    (0.154, True)
    """
    if winner is None or not evals:
        return None
    sign = 1.0 if winner == "white" else -1.0
    total = 0.0
    trailed = False
    for e in evals:
        p = 1.0 / (1.0 + math.exp(-sign * e / EVAL_SCALE))
        total += 2 * max(0.0, 0.5 - p)
        trailed = trailed or sign * e < -LEAD_MARGIN
    return total / len(evals), trailed


def entropy_bits(items: Sequence[Any]) -> float:
    """Shannon entropy (bits) of how often each item occurs.

    >>> entropy_bits(["a", "b", "a", "b"])
    1.0
    """
    counts = Counter(items)
    n = sum(counts.values())
    return -sum(c / n * math.log2(c / n) for c in counts.values()) if n else 0.0


def repeat_rate(items: Sequence[Any]) -> float:
    """The chance two different games drawn from the cell share ``item`` (Simpson's index,
    unbiased: sum c(c-1) / n(n-1)). Unlike the entropy over log2(games), which is 1.00
    as soon as every game differs, its expectation does not grow with the number of games.

    >>> repeat_rate(["a", "a", "b", "b"])
    0.3333333333333333
    """
    n = len(items)
    if n < 2:
        return 0.0
    return sum(c * (c - 1) for c in Counter(items).values()) / (n * (n - 1))


# -- per cell ---------------------------------------------------------------------

def _rate(name: str, count: float, n: int, share: str) -> list[tuple[str, Any, str]]:
    """A share's three columns; ``share`` is its meaning, a whole sentence said already."""
    lo, hi = wilson_interval(count, n)
    return [(name, count / n if n else 0.0, share),
            (f"{name}_lo", lo, _("Wilson 95 % interval: lower end")),
            (f"{name}_hi", hi, _("Wilson 95 % interval: upper end"))]


def _score(white: int, draws: int, black: int) -> list[tuple[str, Any, str]]:
    """White's score and its t interval on per-game scores: a draw's half point is not
    half a Bernoulli success, so the Wilson interval of the rates does not apply."""
    score, lo, hi = score_interval(white, draws, black)
    return [("white_score", score,
             _("share of games won by white, draws counted half: white's points per game")),
            ("white_score_lo", lo, _("t 95 % interval on per-game scores (1, 1/2, 0): lower "
                                     "end (Wilson's on points where the games show no "
                                     "spread)")),
            ("white_score_hi", hi, _("t 95 % interval on per-game scores (1, 1/2, 0): upper "
                                     "end"))]


def _number(value: float) -> str:
    """A number as the language in force writes it (a decimal comma in Russian)."""
    return speech.number(value)


def branching_profile(games: Sequence[tuple[GameResult, dict[str, Any]]],
                      stage: int = STAGE_PLIES) -> list[float]:
    """Mean legal moves per decision in plies 1-10, 11-20, ... over the games."""
    sums: list[float] = []
    counts: list[int] = []
    for _result, m in games:
        for i, b in enumerate(m.get("branching", [])):
            s = i // stage
            while len(sums) <= s:
                sums.append(0.0)
                counts.append(0)
            sums[s] += b
            counts[s] += 1
    return [round(s / c, 2) for s, c in zip(sums, counts)]


def cell_measures(games: Sequence[tuple[GameResult, dict[str, Any]]],
                  opening_plies: int = OPENING_PLIES) -> list[tuple[str, Any, str]]:
    """Every per-cell measure as (column, value, description), in table order."""
    n = len(games)
    results = [g for g, _ in games]
    white = sum(1 for g in results if g.winner == "white")
    black = sum(1 for g in results if g.winner == "black")
    draws = n - white - black
    fields: list[tuple[str, Any, str]] = [
        ("games", n, _("games played")),
        ("white_wins", white, _("games won by white")),
        ("draws", draws, _("games drawn (adjudicated ones included)")),
        ("black_wins", black, _("games won by black")),
        *_score(white, draws, black),
        *_rate("draw_rate", draws, n, _("share of games drawn")),
        *_rate("decisive_rate", white + black, n, _("share of games won by either side")),
    ]
    ends = Counter(g.termination for g in results)
    for t in (*TERMINATIONS, *sorted(set(ends) - set(TERMINATIONS))):
        fields += _rate(f"end_{t}", ends.get(t, 0), n, _(SHARE_ENDED[t]) if t in SHARE_ENDED
                        else _("share of games ended by {ending}").format(ending=t))
    plies = [g.plies for g in results]
    m, lo, hi = mean_interval(plies)
    sd = (math.sqrt(sum((v - m) ** 2 for v in plies) / (n - 1)) if n > 1 else 0.0)
    q = quartiles(plies)
    fields += [
        ("length_mean", m, _("game length in plies, mean")),
        ("length_mean_lo", lo, _("t 95 % interval of the mean length: lower end (none: one "
                                 "game, or every game the same length)")),
        ("length_mean_hi", hi, _("t 95 % interval of the mean length: upper end")),
        ("length_sd", sd, _("standard deviation of the game length (for Welch's t)")),
        ("length_median", median(plies), _("game length in plies, median")),
        ("length_q1", q[1], _("game length, lower quartile")),
        ("length_q3", q[3], _("game length, upper quartile")),
        ("length_min", q[0], _("shortest game")),
        ("length_max", q[4], _("longest game")),
    ]
    decisions = sum(len(mm.get("branching", [])) for _, mm in games)
    moves = sum(sum(mm.get("branching", [])) for _, mm in games)
    profile = branching_profile(games)
    fields += [
        ("branching", moves / decisions if decisions else 0.0,
         _("legal moves per decision, over all decisions")),
        ("branching_by_stage", " ".join(f"{v:g}" for v in profile),
         _("legal moves per decision in plies 1-{stage}, {next_from}-{next_to}, ... (the "
           "branching factor over the game)").format(
             stage=STAGE_PLIES, next_from=STAGE_PLIES + 1, next_to=2 * STAGE_PLIES)),
    ]
    openings = [" ".join(mm.get("opening", [])[:opening_plies]) for _, mm in games]
    h = entropy_bits(openings)
    fields += [
        ("openings", len(set(openings)),
         ngettext("different first {plies} plies", "different first {plies} plies",
                  opening_plies).format(plies=opening_plies)),
        ("opening_entropy", h,
         ngettext("Shannon entropy of the first {plies} plies, bits",
                  "Shannon entropy of the first {plies} plies, bits",
                  opening_plies).format(plies=opening_plies)),
        ("opening_diversity", h / math.log2(n) if n > 1 else 0.0,
         _("that entropy over log2(games): 1 when every game opened differently")),
    ]
    first = [(mm.get("opening") or [""])[0] for _, mm in games]
    rep = repeat_rate(first)
    rlo, rhi = repeat_interval(first)
    fields += [
        ("first_move_repeat", rep, _("chance two games of the cell open with the same "
                                     "first ply (Simpson's index): lower is more varied; "
                                     "does not grow with the games")),
        ("first_move_repeat_lo", rlo, _("bootstrap 95 % interval (over games): lower end")),
        ("first_move_repeat_hi", rhi, _("bootstrap 95 % interval (over games): upper end")),
        ("first_moves_effective", 1 / rep if rep else None,
         _("1 / that repeat rate: the number of equally likely first moves it amounts to")),
    ]
    changes = [lead_changes(mm.get("evals", [])) for _, mm in games]
    per_ply = [c / max(1, g.plies - 1) for c, g in zip(changes, results)]
    dramas = [d for d in (drama(mm.get("evals", []), g.winner) for g, mm in games)
              if d is not None]
    comebacks = sum(1 for _, t in dramas if t)
    fields += [
        ("lead_changes", sum(changes) / n if n else 0.0,
         _("times per game the side ahead by more than {margin} ratnik changed").format(
             margin=_number(LEAD_MARGIN))),
        ("lead_change_rate", sum(per_ply) / n if n else 0.0,
         _("lead changes per ply, mean over games")),
        ("drama", sum(d for d, _ in dramas) / len(dramas) if dramas else 0.0,
         _("how far behind the eventual winner was, mean over decided games (0-1)")),
        *_rate("comeback_rate", comebacks, len(dramas),
               _("share of games decided, in which the winner trailed at some point (of "
                 "decided games)")),
    ]
    fields += [
        ("mean_tower_height", sum(g.mean_tower_height for g in results) / n,
         _("tavrels per occupied square, averaged over each game's positions")),
        ("mean_max_tower", sum(g.max_tower_height for g in results) / n,
         _("tallest tower of a game, mean over games")),
        ("max_tower", max(g.max_tower_height for g in results),
         _("tallest tower in any game")),
        ("prisoners_taken", sum(g.prisoners_taken for g in results) / n,
         _("tavrels taken prisoner per game")),
        ("prisoners_freed", sum(g.prisoners_freed for g in results) / n,
         _("prisoners freed per game")),
        ("splits", sum(g.splits for g in results) / n, _("split moves per game")),
        ("promotions", sum(mm.get("promotions", 0) for _, mm in games) / n,
         _("ratniks promoted per game")),
        ("demotions", sum(mm.get("demotions", 0) for _, mm in games) / n,
         _("promoted ratniks demoted per game")),
    ]
    return fields


__all__ = ["BOOTSTRAP", "GameWatch", "LEAD_MARGIN", "OPENING_PLIES", "SHARE_ENDED",
           "TERMINATIONS", "branching_profile", "cell_measures", "drama", "entropy_bits",
           "lead_changes", "repeat_interval", "repeat_rate"]
