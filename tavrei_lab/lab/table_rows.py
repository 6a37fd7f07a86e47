"""The rows of a tournament's tables, from its games: per variant, per agent pair, per game.

Each builder returns a table's parts -- its title, its columns (a name and a one-line
description each) and its rows -- and ``lab.table`` makes them a ``ResultsTable``.

The per-variant table answers "what does this rule change?": how often white wins,
draws and loses (with Wilson 95 % intervals), the first-move advantage (a t interval
on per-game scores: a draw's half point is not half a Bernoulli success), game
length, branching, tower heights, prisoners, splits, and how games end. The per-pair
table answers "which agent is stronger?".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavrei_lab.i18n import N_
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.results import ADJUDICATED, TERMINATIONS, GameResult
from tavrei_lab.lab.statistics import mean, median, score_interval, wilson_interval

#: A table's parts: its title, its columns (name, description) and its rows.
TableParts = tuple[str, list[tuple[str, str]], list[dict[str, Any]]]

#: The ``end_*`` columns' meanings, one whole sentence per ending (said when a table is
#: made); an ending not listed is named in ``"games ended by {ending}"``.
ENDED = {"checkmate": N_("games ended by checkmate"),
         "king-capture": N_("games ended by king-capture"),
         "stalemate": N_("games ended by stalemate"),
         "threefold-repetition": N_("games ended by threefold-repetition"),
         "fifty-move-rule": N_("games ended by fifty-move-rule"),
         ADJUDICATED: N_("games ended by max-plies (adjudicated as a draw: not a rules "
                         "ending)")}



def _rate(prefix: str, count: int, n: int, counted: str,
          share: str) -> list[tuple[str, Any, str]]:
    """A count's four columns; ``counted`` and ``share`` are whole sentences, said already."""
    lo, hi = wilson_interval(count, n)
    return [(prefix, count, counted),
            (f"{prefix}_rate", count / n if n else 0.0, share),
            (f"{prefix}_lo", lo, _("Wilson 95 % interval of that share: lower end")),
            (f"{prefix}_hi", hi, _("Wilson 95 % interval of that share: upper end"))]


def _assemble(title: str, groups: list[list[tuple[str, Any, str]]]) -> TableParts:
    columns: list[tuple[str, str]] = []
    rows = []
    for fields in groups:
        if not columns:
            columns = [(name, desc) for name, _, desc in fields]
        rows.append({name: value for name, value, _ in fields})
    return title, columns, rows


def _distribution_fields(games: list[GameResult]) -> list[tuple[str, Any, str]]:
    plies = [g.plies for g in games]
    decisions = sum(max(1, g.plies) for g in games)
    branching = (sum(g.mean_branching * max(1, g.plies) for g in games) / decisions
                 if decisions else 0.0)
    n = len(games)
    fields: list[tuple[str, Any, str]] = [
        ("mean_plies", mean(plies), _("game length in plies (half-moves), mean")),
        ("median_plies", median(plies), _("game length in plies, median")),
        ("min_plies", min(plies), _("shortest game, plies")),
        ("max_plies", max(plies), _("longest game, plies")),
        ("branching", branching, _("average number of legal moves at a move decision")),
        ("mean_tower_height", mean([g.mean_tower_height for g in games]),
         _("tavrels per occupied square, averaged over each game's positions")),
        ("mean_max_tower", mean([g.max_tower_height for g in games]),
         _("tallest tower of a game, mean over games")),
        ("max_tower", max(g.max_tower_height for g in games),
         _("tallest tower seen in any game")),
        ("prisoners_taken", sum(g.prisoners_taken for g in games) / n,
         _("tavrels taken prisoner per game (placed under an enemy top)")),
        ("prisoners_freed", sum(g.prisoners_freed for g in games) / n,
         _("prisoners freed per game (their own colour on top again)")),
        ("captures", sum(g.captures for g in games) / n,
         _("moves onto an enemy-topped tower (or en passant) per game")),
        ("splits", sum(g.splits for g in games) / n,
         _("moves taking only part of a tower, per game")),
    ]
    ends = {t: 0 for t in TERMINATIONS}
    for g in games:
        ends[g.termination] = ends.get(g.termination, 0) + 1
    for t, c in ends.items():
        fields.append((f"end_{t}", c, _(ENDED[t]) if t in ENDED
                       else _("games ended by {ending}").format(ending=t)))
    return fields


def variants_rows(games: Sequence[GameResult]) -> TableParts:
    """One row per variant: results by colour and what the games looked like."""
    by_variant: dict[str, list[GameResult]] = {}
    for g in games:
        by_variant.setdefault(g.variant, []).append(g)
    groups = []
    for variant, gs in by_variant.items():
        n = len(gs)
        white = sum(1 for g in gs if g.winner == "white")
        black = sum(1 for g in gs if g.winner == "black")
        draws = n - white - black
        score, lo, hi = score_interval(white, draws, black)
        fields: list[tuple[str, Any, str]] = [
            ("variant", variant, _("variant id or file")),
            ("games", n, _("games played")),
            *_rate("white_wins", white, n, _("games won by white"),
                   _("share of games won by white")),
            *_rate("draws", draws, n, _("games drawn (adjudicated games included)"),
                   _("share of games drawn (adjudicated games included)")),
            *_rate("black_wins", black, n, _("games won by black"),
                   _("share of games won by black")),
            ("white_score", score, _("white's points per game (win 1, draw 1/2)")),
            ("first_move_advantage", score - 0.5,
             _("white's score minus 1/2: the value of moving first")),
            ("fma_lo", None if lo is None else lo - 0.5,
             _("t 95 % interval of the first-move advantage, on per-game scores: lower "
               "(Wilson's on points where the games show no spread)")),
            ("fma_hi", None if hi is None else hi - 0.5,
             _("t 95 % interval of the first-move advantage, on per-game scores: upper")),
            *_distribution_fields(gs),
        ]
        groups.append(fields)
    return _assemble(_("Per variant"), groups)


def pairs_rows(games: Sequence[GameResult]) -> TableParts:
    """One row per (variant, agent A, agent B): A's wins, draws, losses and score."""
    by_pair: dict[tuple[str, str, str], list[GameResult]] = {}
    for g in games:
        by_pair.setdefault((g.variant, g.agent_a, g.agent_b), []).append(g)
    groups = []
    for (variant, a, b), gs in by_pair.items():
        n = len(gs)
        wins = sum(1 for g in gs if g.a_score == 1.0)
        losses = sum(1 for g in gs if g.a_score == 0.0)
        draws = n - wins - losses
        _score, lo, hi = score_interval(wins, draws, losses)
        groups.append([
            ("variant", variant, _("variant id or file")),
            # games are numbered from 0 (games.json) and A has white in game 0
            ("agent_a", a, _("agent A (white in the even-numbered games)")),
            ("agent_b", b, _("agent B (white in the odd-numbered games)")),
            ("games", n, _("games played")),
            *_rate("a_wins", wins, n, _("games won by agent A"),
                   _("share of games won by agent A")),
            *_rate("draws", draws, n, _("games drawn (adjudicated games included)"),
                   _("share of games drawn (adjudicated games included)")),
            *_rate("a_losses", losses, n, _("games won by agent B"),
                   _("share of games won by agent B")),
            ("a_score", (wins + draws / 2) / n, _("agent A's points per game")),
            ("a_score_lo", lo, _("t 95 % interval of A's score, on per-game scores: lower "
                                 "end (Wilson's on points where the games show no spread)")),
            ("a_score_hi", hi, _("t 95 % interval of A's score, on per-game scores: upper "
                                 "end")),
            ("mean_plies", mean([g.plies for g in gs]), _("game length in plies, mean")),
            ("adjudicated", sum(g.adjudicated for g in gs),
             _("games stopped at the ply limit (scored as draws)")),
        ])
    return _assemble(_("Per agent pair (A's view)"), groups)


def games_rows(games: Sequence[GameResult]) -> TableParts:
    """One row per game (everything but the record text)."""
    columns = [
        ("variant", _("variant")), ("index", _("game number within its pair (from 0)")),
        ("white", _("white's agent")), ("black", _("black's agent")),
        ("seed", _("game seed")), ("result", _("1-0, 0-1 or 1/2-1/2")),
        ("termination", _("how the game ended")),
        ("adjudicated", _("stopped at the ply limit")), ("plies", _("half-moves played")),
        ("mean_branching", _("legal moves per decision")),
        ("mean_tower_height", _("tavrels per occupied square, mean")),
        ("max_tower_height", _("tallest tower")),
        ("prisoners_taken", _("tavrels taken prisoner")),
        ("prisoners_freed", _("prisoners freed")), ("captures", _("captures")),
        ("splits", _("split moves")), ("rolls", _("die rolls")),
        ("seconds", _("wall-clock time")),
    ]
    rows = [{c: getattr(g, c) for c, _ in columns} for g in games]
    return _("Games"), columns, rows


__all__ = ["ENDED", "TableParts", "games_rows", "pairs_rows", "variants_rows"]
