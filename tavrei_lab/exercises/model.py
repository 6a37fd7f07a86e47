"""A puzzle (``Exercise``), the registry of puzzles by key, and a notebook's lesson.

An ``Exercise`` binds a position, a question and a checker (``checkers.py``);
``exercise.check(answer)`` gives ``Feedback``, the object shows its board in a
notebook, and ``exercise.widget()`` opens it on a live board. The puzzles are
data (``puzzles.toml``, read by ``loader.py``) registered in ``EXERCISES``.

Opening a puzzle on a board is the widgets' work, above this part: they
register their opener here (``register_opener``) when imported, and
``Exercise.widget()`` imports the front end it names (``PUZZLE_FRONT_END``)
the first time it is asked, as pandas' ``DataFrame.plot`` loads the plotting
backend its option names. So this part never imports the widgets.
"""

from __future__ import annotations

import html
import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from tavrei_lab.errors import TavreiError
from tavrei_lab.exercises.checkers import MAX_ANSWER_CHARS, Checker, Feedback
from tavrei_lab.game import Game
from tavrei_lab.i18n import get_language
from tavrei_lab.i18n import gettext as _
from tavrei_lab.render import board_svg

#: The module that opens a puzzle on a live board (it registers its opener on import).
PUZZLE_FRONT_END = "tavrei_lab.widgets.puzzle"

_OPENERS: dict[str, Callable[..., Any]] = {}


def register_opener(opener: Callable[..., Any]) -> None:
    """Open puzzles with ``opener(exercise, board_size=, lesson=, projector=)``."""
    _OPENERS["puzzle"] = opener


#: How a learner answers an exercise: by playing the move on the board, by clicking
#: squares on it, or by typing a word or a number.
ANSWER_KINDS = ("move", "squares", "text")


@dataclass
class Exercise:
    """A puzzle: a position, a question and a checker, shown as a board in notebooks."""

    key: str
    title: str
    prompt: str
    position: str | None
    checker: Checker
    variant: str = "tavreli"
    hint: str = ""
    moves: str = ""
    #: squares to highlight on the board (e.g. the tower the question is about)
    focus: tuple[str, ...] = field(default_factory=tuple)
    #: candidate answers a teacher's "solution" button tries (None: legal moves)
    candidates: Callable[[Game], Iterable[Any]] | None = None
    #: "move" (played on the board), "squares" (clicked on it) or "text" (typed)
    answer: str = "text"
    #: rule options the variant is loaded with (``{"own_towers": False}``): a puzzle
    #: about what one option changes
    options: dict[str, Any] = field(default_factory=dict)
    #: the texts in other languages: ``{"ru": {"title": ..., "prompt": ..., "hint": ...}}``
    texts: dict[str, dict[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.answer not in ANSWER_KINDS:
            raise TavreiError(_("exercise {key!r}: answer must be one of {names}, not "
                                "{answer!r}").format(
                                    key=self.key, names=', '.join(ANSWER_KINDS),
                                    answer=self.answer))

    def said(self, part: str) -> str:
        """The ``title``, ``prompt`` or ``hint`` in the language in force: the puzzle's own
        text in that language if it has one, else the message catalogue's."""
        own = self.texts.get(get_language(), {}).get(part)
        if own:
            return own
        english = getattr(self, part)
        return _(english) if english else ""

    def game(self) -> Game:
        """A fresh game at the puzzle's position (answers never change it)."""
        g = Game(self.variant, self.position, **self.options)
        if self.moves:
            g.play(self.moves)
        return g

    def check(self, answer: Any) -> Feedback:
        """Check an answer; a wrong one is explained.

        An answer longer than ``MAX_ANSWER_CHARS`` is not read (its feedback would
        quote it whole: a pasted 100 KB answer came back as 100 KB of feedback)."""
        size = len(answer) if isinstance(answer, str) else len(str(answer)) \
            if isinstance(answer, (list, tuple, set)) else 0
        if size > MAX_ANSWER_CHARS:
            return Feedback(False, _("that answer is {size} characters long; an answer is "
                                     "at most {limit} (a move, a few squares or a "
                                     "name).").format(size=size, limit=MAX_ANSWER_CHARS))
        return self.checker(self.game(), answer)

    def solutions(self) -> list[str]:
        """Every answer the checker accepts among the candidates (for the teacher).

        Move puzzles try every legal move, so this is how a teacher sees all the
        solutions without knowing them in advance.
        """
        game = self.game()
        cands = (self.candidates(game) if self.candidates is not None
                 else [game.move_text(m) for m in game.legal_moves()])
        return [str(c) for c in cands if self.checker(game, c)]

    def board_svg(self, size: int = 360, *, hint: bool = False,
                  marked: Iterable[str] = ()) -> str:
        """The puzzle's board; ``hint`` tints the focus squares, ``marked`` shows clicked ones."""
        g = self.game()
        squares = [g.position.geometry.parse(s) for s in self.focus]
        selected = squares[0] if squares and self.answer == "text" else None
        highlights = [(s, "green") for s in self.focus] if hint else []
        return board_svg(g.position, size=size, selected=selected, highlights=highlights,
                         destinations=list(marked) or None,
                         lastmove=g.moves[-1] if g.moves else None)

    def _repr_html_(self, board_size: int = 360) -> str:
        try:
            board = self.board_svg(board_size)
        except ImportError:  # rendering not installed: the text board still teaches
            board = f"<pre>{html.escape(self.game().position.text())}</pre>"
        return (f"<div><h3>{html.escape(self.said('title'))}</h3>{board}"
                f"<p style='font-size:1.15em'>{html.escape(self.said('prompt'))}</p></div>")

    def widget(self, board_size: int | None = 360, lesson: Lesson | None = None,
               projector: bool = False) -> Any:
        """The puzzle on a live board, as in lichess's lessons (``PuzzleWidget``).

        A move puzzle is solved by playing the move on the board (a wrong one is
        taken back with the checker's explanation); a squares puzzle by clicking
        the squares; the others by typing the answer. The hint waits behind a
        button. ``board_size`` is the board's width in pixels; ``projector=True``
        uses the board's projector mode (large, readable from the back of a
        room); ``lesson`` counts this puzzle in a notebook's progress. The same as
        ``tavrei_lab.widgets.puzzle.open(exercise, ...)``.
        """
        opener = _OPENERS.get("puzzle")
        if opener is None:
            # the front end is named, not imported, here: importing it registers its opener
            importlib.import_module(PUZZLE_FRONT_END)
            opener = _OPENERS.get("puzzle")
        if opener is None:
            raise TavreiError(_("{module} registered no puzzle opener").format(
                module=PUZZLE_FRONT_END))
        return opener(self, board_size=board_size, lesson=lesson, projector=projector)

class Lesson:
    """The puzzles of one notebook and which of them are solved: "2 of 3 solved".

    Puzzle widgets report to their lesson when solved; whoever shows the
    progress listens (``on_change``). Solving a puzzle twice counts once.

    >>> lesson = Lesson("free-the-luchnik", "ratnik-destiny")
    >>> lesson.solve("ratnik-destiny"); lesson.progress_text()
    '1 of 2 solved'
    """

    def __init__(self, *keys: str) -> None:
        for key in keys:
            exercise(key)  # an unknown key is an error now, not when the puzzle opens
        self.keys: list[str] = list(keys)
        self.solved: set[str] = set()
        self._listeners: list[Callable[[Lesson], None]] = []

    def solve(self, key: str) -> None:
        """Count ``key`` as solved (a puzzle outside the lesson joins it: a teacher's
        own ``Exercise`` counts too)."""
        if key not in self.keys:
            self.keys.append(key)
        if key not in self.solved:
            self.solved.add(key)
            for listener in list(self._listeners):
                listener(self)

    def on_change(self, listener: Callable[[Lesson], None], *, remove: bool = False) -> None:
        """Call ``listener(lesson)`` when a puzzle is solved; ``remove=True`` stops that.

        A puzzle widget that is closed or replaced removes its listener, or the
        lesson would keep every puzzle ever shown alive (and update it)."""
        if remove:
            self._listeners = [f for f in self._listeners if f != listener]  # bound methods: ==
        else:
            self._listeners.append(listener)

    def progress_text(self) -> str:
        return _("{solved} of {total} solved").format(solved=len(self.solved),
                                                      total=len(self.keys))

    def _repr_html_(self) -> str:
        stars = "".join("&#9733;" if k in self.solved else "&#9734;" for k in self.keys)
        return f"<b>{stars}</b> {self.progress_text()}"


#: The puzzles by key: the ready-made ones (``puzzles.toml``) and any a teacher adds.
EXERCISES: dict[str, Exercise] = {}


def exercise(key: str) -> Exercise:
    """A ready-made exercise by key (see ``EXERCISES``)."""
    try:
        return EXERCISES[key]
    except KeyError:
        raise TavreiError(_("no exercise {key!r}; known: {names}").format(
            key=key, names=', '.join(EXERCISES))) from None


__all__ = ["ANSWER_KINDS", "EXERCISES", "PUZZLE_FRONT_END", "Exercise", "Lesson", "exercise",
           "register_opener"]
