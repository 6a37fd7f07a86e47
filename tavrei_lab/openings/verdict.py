"""What a book says, and no more: in each position, which moves scored better than
which, with intervals and tests corrected for how many were made.

A move's score here is the **mover's**: white's points when white is to move,
black's when black is. Two moves of one position are compared by the score test
of two proportions (``lab.differences.score_test``: the points of a move's games
over its games, a draw half a point) with Newcombe's interval for the difference
(``lab.differences.newcombe_interval``). Every pair of moves with at least
``min_games`` games each, in every position asked about, is one test of one family,
and the family's p-values are corrected by Holm's method (``lab.differences.holm``):
a book read position by position makes hundreds of comparisons, and some would
come out "significant" by chance alone. A move is called **better** than another
only where the corrected p-value is below ``alpha``; otherwise the difference, large
or small, is *not established*, and is reported as such.

Games whose result is unknown (most of the recorded tournament games) are not in any
score.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavrei_lab.game import Game
from tavrei_lab.i18n import N_
from tavrei_lab.i18n import gettext as _
from tavrei_lab.lab.differences import holm, newcombe_interval, score_test
from tavrei_lab.lab.statistics import wilson_interval
from tavrei_lab.openings.index import Entry, OpeningIndex, Tally

#: The family-wise error rate the Holm correction keeps to.
ALPHA = 0.05


def mover_points(tally: Tally, white_to_move: bool) -> float:
    """The points the side to move scored over the games with a known result."""
    return tally.points if white_to_move else tally.scored - tally.points


@dataclass
class MoveScore:
    move: str
    games: int          # games with a known result
    points: float       # the mover's points
    low: float
    high: float

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else float("nan")


@dataclass
class Comparison:
    """One tested pair of moves: ``first`` scored at least as well as ``second``."""

    first: str
    second: str
    difference: float   # mover's score of first minus second
    low: float
    high: float
    p: float
    p_holm: float = float("nan")
    alpha: float = ALPHA

    @property
    def established(self) -> bool:
        """Whether the book says ``first`` is better (the corrected test rejects)."""
        return self.p_holm < self.alpha

    def sentence(self) -> str:
        if self.established:
            return _("{first} scores better than {second}: {diff:+.0%} [{low:+.0%}, "
                     "{high:+.0%}], Holm p = {p:.3g}").format(
                first=self.first, second=self.second, diff=self.difference, low=self.low,
                high=self.high, p=self.p_holm)
        return _("{first} against {second}: {diff:+.0%} [{low:+.0%}, {high:+.0%}], Holm p = "
                 "{p:.3g}: not established").format(
            first=self.first, second=self.second, diff=self.difference, low=self.low,
            high=self.high, p=self.p_holm)


@dataclass
class PositionVerdict:
    """A position's moves with their scores, and the tests between them."""

    entry: Entry
    white_to_move: bool
    moves: list[MoveScore]
    comparisons: list[Comparison] = field(default_factory=list)

    def better(self) -> list[Comparison]:
        """The established comparisons only."""
        return [c for c in self.comparisons if c.established]

    def best_established(self) -> str | None:
        """A move established better than every other tested move of the position, if
        the book has one (what an opening trainer may ask for), else None."""
        tested = {c.first for c in self.comparisons} | {c.second for c in self.comparisons}
        for move in tested:
            beats = {c.second for c in self.better() if c.first == move}
            if beats and beats == tested - {move}:
                return move
        return None


def _position(entry: Entry, min_games: int) -> PositionVerdict:
    white = entry.key.split(" ")[1] == "w"   # Position.key(): board, side, ep, roll
    scores = []
    for text, tally in sorted(entry.moves.items()):
        if tally.scored >= min_games:
            points = mover_points(tally, white)
            lo, hi = wilson_interval(points, tally.scored)
            scores.append(MoveScore(text, tally.scored, points, lo, hi))
    scores.sort(key=lambda s: (-s.score, s.move))
    verdict = PositionVerdict(entry, white, scores)
    for i, a in enumerate(scores):
        for b in scores[i + 1:]:
            lo, hi = newcombe_interval(a.points, a.games, b.points, b.games)
            verdict.comparisons.append(Comparison(
                a.move, b.move, a.score - b.score, lo, hi,
                score_test(a.points, a.games, b.points, b.games)))
    return verdict


def what_the_book_says(index: OpeningIndex, entries: Iterable[Entry] | None = None, *,
                       min_games: int = 5, alpha: float = ALPHA) -> list[PositionVerdict]:
    """The verdicts of ``entries`` (default: every position of the index with two or
    more moves of at least ``min_games`` games), their tests corrected together."""
    chosen = list(index) if entries is None else list(entries)
    verdicts = [_position(e, min_games) for e in chosen]
    verdicts = [v for v in verdicts if v.comparisons]
    verdicts.sort(key=lambda v: (v.entry.ply, -v.entry.tally.games, v.entry.key))
    family = [c for v in verdicts for c in v.comparisons]
    for c, adjusted in zip(family, holm([c.p for c in family])):
        c.p_holm, c.alpha = adjusted, alpha
    return verdicts


def verdict_after(index: OpeningIndex, moves: str | Sequence[str] = "",
                  variant: Any = "tavreli", *, min_games: int = 5,
                  alpha: float = ALPHA) -> PositionVerdict | None:
    """The verdict of the position after ``moves``, corrected with the whole family of
    the index's tests (so asking one position is no laxer than reading them all)."""
    game = Game(variant)
    if moves:
        game.play(moves if isinstance(moves, str) else " ".join(moves))
    target = index.entry(game.position)
    if target is None:
        return None
    for verdict in what_the_book_says(index, min_games=min_games, alpha=alpha):
        if verdict.entry is target:
            return verdict
    return _position(target, min_games)


#: The kinds of move ``move_kind`` tells apart, in the order tables list them.
MOVE_KINDS = (N_("onto own ratnik"), N_("onto own tavrel"), N_("split"), N_("volkhv"),
              N_("capture"), N_("quiet"))


def move_kind(game: Game, text: str) -> str:
    """What kind of move ``text`` is in ``game``'s position: a tower built on one's
    own ratnik or other tavrel, a split (part of a tower leaves), a volkhv's step, a
    capture, or a quiet move -- the themes an opening lesson asks about."""
    from tavrei_lab.core.tavrel import KING, PAWN
    position = game.position
    move = game.find_move(text)
    tower = position.tower(move.from_square)
    mover_top = position.top(move.from_square)
    target = position.top(move.to_square)
    mover = position.turn
    if mover_top is not None and mover_top.kind == KING:
        return "volkhv"
    if tower and move.count < len(tower):
        return "split"
    if target is not None and target.color == mover:
        return "onto own ratnik" if target.kind == PAWN else "onto own tavrel"
    if target is not None:
        return "capture"
    return "quiet"


@dataclass
class KindScore:
    kind: str           # one of MOVE_KINDS (English, as data)
    games: int
    points: float
    low: float
    high: float

    @property
    def name(self) -> str:
        """The kind in the language in force."""
        return _(self.kind)


def themes(index: OpeningIndex, plies: int = 4, *, alpha: float = ALPHA,
           rules: str | None = None) -> tuple[list[KindScore], list[Comparison]]:
    """The mover's score by kind of move (``move_kind``) over the index's positions of
    the first ``plies`` plies, and every pair of kinds tested (score test, Newcombe's
    interval, Holm over the pairs). A game counts once per move it made there, so a
    kind's games are moves, and the games behind two kinds overlap: the tests are a
    description of the book, not of independent samples."""
    tallies: dict[str, list[float]] = {k: [0, 0.0] for k in MOVE_KINDS}
    for entry in index:
        if entry.ply >= plies or (rules is not None and entry.rules != rules):
            continue
        white = entry.key.split(" ")[1] == "w"
        game = Game(index.rules_module(entry.rules), entry.position)
        for text, tally in entry.moves.items():
            kind = move_kind(game, text)
            tallies[kind][0] += tally.scored
            tallies[kind][1] += mover_points(tally, white)
    scores = []
    for kind in MOVE_KINDS:
        n, points = int(tallies[kind][0]), tallies[kind][1]
        if n:
            lo, hi = wilson_interval(points, n)
            scores.append(KindScore(kind, n, points, lo, hi))
    pairs = []
    for i, a in enumerate(scores):
        for b in scores[i + 1:]:
            first, second = (a, b) if a.points / a.games >= b.points / b.games else (b, a)
            lo, hi = newcombe_interval(first.points, first.games, second.points, second.games)
            pairs.append(Comparison(_(first.kind), _(second.kind),
                                    first.points / first.games - second.points / second.games,
                                    lo, hi, score_test(first.points, first.games,
                                                       second.points, second.games)))
    for c, adjusted in zip(pairs, holm([c.p for c in pairs])):
        c.p_holm, c.alpha = adjusted, alpha
    return scores, pairs
