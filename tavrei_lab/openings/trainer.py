"""The opening trainer: a puzzle made from a book -- play the move the book scores
best in one of its positions -- with the verdict on that move said beside it.

The position is one where the book *established* a move better than every other
move tested there (``PositionVerdict.best_established``), the most played such
position first. Where the book established none, the trainer still asks for the
book's best-scoring move in its most played position, and says plainly that the
book has not shown it to be better: a trainer must not teach noise as theory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tavrei_lab.exercises.checkers import check_accepted
from tavrei_lab.exercises.model import Exercise
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import speaking
from tavrei_lab.openings.index import OpeningIndex, OpeningsError
from tavrei_lab.openings.verdict import PositionVerdict, what_the_book_says


@dataclass
class BookPuzzle:
    """The trainer's puzzle, the move it asks for, and whether the book established it."""

    exercise: Exercise
    move: str
    established: bool
    verdict: PositionVerdict

    @property
    def verdict_line(self) -> str:
        best = self.verdict.moves[0]
        if self.established:
            return _("The book establishes {move} as better than every other move tested "
                     "here ({score:.0%} over {games} games, Holm-corrected tests).").format(
                move=self.move, score=best.score, games=best.games)
        return _("The book's best-scoring move here is {move} ({score:.0%} over {games} "
                 "games), but no test established it as better: practise it as the book's "
                 "choice, not as theory.").format(move=self.move, score=best.score,
                                                  games=best.games)


def _texts(established: bool) -> dict[str, str]:
    title = _("Opening trainer: the book's move")
    prompt = (_("Play the move the book establishes as better here.") if established
              else _("Play the move that scored best in the book's games here."))
    hint = _("Open this position in the explorer above and read the score column.")
    return {"title": title, "prompt": prompt, "hint": hint}


def book_puzzle(index: OpeningIndex, *, min_games: int = 10) -> BookPuzzle:
    """The trainer's puzzle for ``index`` (see the module's note)."""
    verdicts = what_the_book_says(index, min_games=min_games)
    if not verdicts:
        raise OpeningsError(_("no position of the index has two moves of at least "
                              "{n} games each to compare").format(n=min_games))
    chosen = next((v for v in sorted(verdicts, key=lambda v: -v.entry.tally.games)
                   if v.best_established()), None)
    established = chosen is not None
    if chosen is None:
        chosen = max(verdicts, key=lambda v: (v.entry.tally.games, -v.entry.ply))
    move = chosen.best_established() if established else chosen.moves[0].move
    assert move is not None
    rules = index.rules_module(chosen.entry.rules)

    def check(game: Game, answer: Any) -> Any:
        return check_accepted(game, answer, [move], "move")

    with speaking("en"):
        english = _texts(established)
    with speaking("ru"):
        russian = _texts(established)
    exercise = Exercise(key="book-move", title=english["title"], prompt=english["prompt"],
                        position=chosen.entry.position, checker=check,
                        variant=rules.variant.id, options=dict(rules.variant.options),
                        hint=english["hint"], answer="move", texts={"ru": russian})
    return BookPuzzle(exercise, move, established, chosen)
