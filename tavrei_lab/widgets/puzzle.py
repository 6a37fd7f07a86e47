"""Puzzles solved on a live board, the way lichess's "Learn" lessons work.

A lesson there is a short goal on a real board: you answer by moving, a wrong
move is taken back at once with a word why, a hint waits until you ask for it,
and each stage shows how far you are. ``PuzzleWidget`` does the same for an
``Exercise`` (``tavrei_lab.exercises``):

- a **move** puzzle is played on a ``Board``: each move a person plays
  (click, drag, or typed) goes to the exercise's checker (``Board.on_move``);
  a wrong one is taken back at once (``Board.reject``: the square flashes, the
  tower slides home, the game is as before) with the checker's explanation in
  the status line and the verdict; the right one stays and solves the puzzle;
- a **squares** puzzle is answered by clicking squares on the board (each
  click marks or unmarks one), then *Check*;
- a **text** puzzle (a name, a number, die faces) is typed in a box.

Every kind has a *Hint* button (the hint text, and the tower the question is
about tinted), *Try again*, and *Show solutions* for the teacher.
A ``Lesson`` shared by a notebook's puzzles counts them: "2 of 3 solved".

The checker decides everything, so the widget holds no answers of its own;
tests drive it by the same traits the browser sets.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as widgets

from tavrei_lab.core.move import Move
from tavrei_lab.core.tavrel import BLACK
from tavrei_lab.errors import TavreiError
from tavrei_lab.exercises import Exercise, Feedback, Lesson, register_opener
from tavrei_lab.game import Game
from tavrei_lab.i18n import get_language, speaking
from tavrei_lab.i18n import gettext as _
from tavrei_lab.widgets.board import PROJECTOR_SIZE, Board
from tavrei_lab.widgets.controls import no_null_tooltips, widgets_of
from tavrei_lab.widgets.inspector import Inspector
from tavrei_lab.widgets.view import BoardView

#: The tint and ring of the squares a hint points at (a theme colour name): blue,
#: not the selection's green, so Hint on a selected tower changes what is seen.
HINT_COLOUR = "blue"

def puzzle_board(game: Game, *, size: int | None = None, projector: bool = False) -> Board:
    """A ``Board`` for a puzzle: the board, its status line and the pickers a move
    needs (how many to take, what to promote to). New games, records and the
    computer would lead away from the puzzle, so the controls under it are left out.
    The side to move is at the bottom.
    """
    board = Board(game, size=size, flipped=game.position.turn == BLACK, projector=projector)
    # status, and the board with its pickers; the rest is hidden, not removed, so that
    # it stays the board's own and closing the puzzle closes it too
    for part in board.children[2:]:
        part.layout.display = "none"
    for part in (board.move_list, board.first_button, board.prev_button, board.next_button,
                 board.last_button,  # a one-move puzzle has no game to step through
                 board.roll_button, board.auto_roll):  # and a die puzzle has rolled already
        part.layout.display = "none"
    board.add_class("tavrei-puzzle-board")
    board.set_game(game, _("Your move: play it on the board."))
    return board


_Handler = TypeVar("_Handler", bound=Callable[..., Any])


def _in_own_language(method: _Handler) -> _Handler:
    """Run a handler in the language the widget was made in: a click comes long
    after the cell that made a Russian puzzle, outside any ``speaking`` block."""
    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        with speaking(self.language):
            return method(self, *args, **kwargs)
    return run  # type: ignore[return-value]


class PuzzleWidget(widgets.VBox):
    """One exercise on a live board, with hint, retry, solutions and the lesson's progress.

    ``puzzle.feedback`` is the last verdict (a ``Feedback``) and
    ``puzzle.solved`` whether the learner has solved it since the last *Try
    again*.
    """

    def __init__(self, exercise: Exercise, *, board_size: int | None = 360,
                 lesson: Lesson | None = None, projector: bool = False,
                 language: str | None = None) -> None:
        #: "en" or "ru": the language in force when the puzzle was made, unless given
        self.language = language or get_language()
        with speaking(self.language):
            self._build(exercise, board_size, lesson, projector)

    def _build(self, exercise: Exercise, board_size: int | None, lesson: Lesson | None,
               projector: bool) -> None:
        self.exercise = exercise
        self.lesson = lesson if lesson is not None else Lesson()
        if exercise.key not in self.lesson.keys:
            self.lesson.keys.append(exercise.key)
        #: the width of the board drawn; projector mode chooses its own
        self.board_size = PROJECTOR_SIZE if projector else (board_size or 360)
        self.solved = False
        self.feedback: Feedback | None = None
        self.marked: list[str] = []  # squares clicked in a squares puzzle
        self.hint_shown = False
        self._quiet = False  # set while the widget itself writes into the answer box
        self._closed = False

        self.header = widgets.HTML(
            f"<h3 style='margin:0.3em 0'>{html.escape(exercise.said('title'))}</h3>"
            f"<p style='font-size:1.15em;margin:0.2em 0'>"
            f"{html.escape(exercise.said('prompt'))}</p>")
        self.progress = widgets.HTML(self._progress_html())
        self.progress.add_class("tavrei-progress")
        self.lesson.on_change(self._on_lesson_change)
        self.verdict = widgets.HTML()
        self.verdict.add_class("tavrei-puzzle-verdict")
        self.hint_text = widgets.HTML()
        self.hint_button = _button(_("Hint"), _("show a hint and the tower it is about"),
                                   self.show_hint)
        self.hint_button.disabled = not (exercise.hint or exercise.focus)
        self.reset_button = _button(_("Try again"), _("back to the puzzle's position"),
                                    self.reset)
        self.solutions_button = _button(_("Show solutions"), _("every accepted answer (teacher)"),
                                        self.show_solutions)
        self.answer_box = widgets.Text(placeholder=_(_PLACEHOLDERS[exercise.answer]),
                                       continuous_update=False,
                                       layout=widgets.Layout(width="16em"))
        self.answer_box.add_class("tavrei-answer")
        self.answer_box.observe(self._on_box, "value")  # Enter checks
        self.check_button = _button(_("Check"), _("check the answer in the box"),
                                    lambda: self.submit(), style="primary")

        self.board: Board | None = None
        self.view: BoardView
        if exercise.answer == "move":
            self.board = puzzle_board(exercise.game(), projector=projector,
                                      size=None if projector else self.board_size)
            # kept, so that close() hands on_move(remove=True) the very callback it was given
            self._move_callback = self._on_board_move
            self.board.on_move(self._move_callback)
            self.view = self.board.view
            surface: widgets.Widget = self.board
            self.answer_box.placeholder = _("or type the move")
        else:
            self.view = BoardView()
            # the inspector beside a static board too: every layer of a tower named
            self._inspector = Inspector(self.view)
            self._inspector.set_pieces(exercise.game().position.pieces)
            if exercise.answer == "squares":
                self.view.observe(self._on_square_click, "click")
            self._redraw_static()
            surface = self.view
        buttons = widgets.HBox([self.answer_box, self.check_button, self.hint_button,
                                self.reset_button, self.solutions_button])
        super().__init__([self.progress, self.header, surface, buttons, self.verdict,
                          self.hint_text])
        self.add_class("tavrei-puzzle")
        no_null_tooltips(self)

    # == closing ==================================================================
    def close(self) -> None:
        """Close the puzzle: stop listening to the lesson and the board, and close
        every widget it made (the browser's views go with them).

        A notebook that swaps puzzles (the classroom demo's menu) closes the old
        one; otherwise the lesson would hold on to every puzzle ever shown. Closing
        twice is harmless (ipywidgets closes again when the object is collected)."""
        if self._closed:
            return
        self._closed = True
        self.lesson.on_change(self._on_lesson_change, remove=True)
        if self.board is not None:
            self.board.on_move(self._move_callback, remove=True)
        elif self.exercise.answer == "squares":
            self.view.unobserve(self._on_square_click, "click")
        self.answer_box.unobserve(self._on_box, "value")
        for part in widgets_of(self):
            if part is not self:
                part.close()
        super().close()

    # == answering ================================================================
    @_in_own_language
    def _on_board_move(self, board: Board, move: Move) -> str | None:
        """A move played on the board (click, drag, typed): judged, and taken back
        at once -- with the checker's reason -- unless it is right. The verdict
        shows over the board (``BoardView.show_banner``) and, for a right move, in
        the status line after the move."""
        if self.solved:
            board.reject(move, _("Solved already: press Try again to play it once more."))
            return None
        game = board.game.copy()
        game.pop()  # the checker judges the move from the position it was played in
        feedback = self.exercise.checker(game, move)
        self._show(feedback)
        if not feedback:  # the status line is short: its first sentence; the verdict all
            board.reject(move, _("{move} taken back: {reason}").format(
                move=game.move_text(move), reason=_first_sentence(feedback.message)))
            return None
        return f"{_('Right!')} {_first_sentence(feedback.message)}".strip()

    @_in_own_language
    def submit(self, answer: Any = None) -> Feedback:
        """Check an answer given in words (the box's text by default).

        In a move puzzle a right answer is also played on the board; a wrong
        one leaves the board as it is.
        """
        if answer is None:
            answer = self.answer_box.value
        if self.board is not None and not self.solved:
            feedback = self.exercise.checker(self.board.game, answer)
            if feedback:  # played like a click: ``_on_board_move`` judges it again, agrees
                self.board.play(answer if isinstance(answer, Move) else str(answer))
                return feedback
            self._show(feedback)
            return feedback
        feedback = self.exercise.check(answer)
        self._show(feedback)
        return feedback

    def _show(self, feedback: Feedback) -> None:
        self.feedback = feedback
        if feedback:  # the lesson's count first: a browser that sees the verdict sees the count
            self.solved = True
            self.lesson.solve(self.exercise.key)
        self.verdict.value = feedback._repr_html_()
        if feedback:
            self.view.show_banner("\u2714 " + _("Right!"), "right",
                                  _first_sentence(feedback.message))
        elif feedback.missing:
            self.view.show_banner("\u270e " + _("No answer yet."), "missing")
        else:
            self.view.show_banner("\u2718 " + _("Not yet."), "wrong",
                                  _first_sentence(feedback.message))

    def _on_box(self, _change: dict[str, Any]) -> None:
        if not self._quiet:
            self.submit()

    def _set_box(self, text: str) -> None:
        """Write into the answer box without checking (a click is not yet an answer)."""
        self._quiet = True
        try:
            self.answer_box.value = text
        finally:
            self._quiet = False

    @_in_own_language
    def _on_square_click(self, change: dict[str, Any]) -> None:
        square = str((change["new"] or {}).get("square", "")).lower()
        if not square:
            return
        if square in self.marked:
            self.marked.remove(square)
        else:
            self.marked.append(square)
        self._set_box(" ".join(self.marked))
        self._redraw_static()

    # == hint, retry, solutions ===================================================
    @_in_own_language
    def show_hint(self) -> None:
        """Show the hint and circle the squares the question is about."""
        self.hint_shown = True
        if self.exercise.hint:
            hint = _("Hint: {hint}").format(hint=self.exercise.said("hint"))
            self.hint_text.value = f"<p><i>{html.escape(hint)}</i></p>"
        if self.board is not None:
            self.board.highlights = [(s, HINT_COLOUR) for s in self.exercise.focus]
        else:
            self._redraw_static()

    @_in_own_language
    def reset(self) -> None:
        """Back to the puzzle's position; the lesson still counts it as solved."""
        self.solved = False
        self.feedback = None
        self.marked = []
        self.hint_shown = False
        self.verdict.value = ""
        self.view.clear_banner()
        self.hint_text.value = ""
        if self.board is not None:
            self.board.highlights = []
            self.board.set_game(self.exercise.game(), _("Your move: play it on the board."))
        else:
            self._redraw_static()
        self._set_box("")

    @_in_own_language
    def show_solutions(self) -> None:
        self.verdict.value = (f"<b>{html.escape(_('Accepted answers:'))}</b> "
                              + html.escape(", ".join(self.exercise.solutions())))

    # == drawing ==================================================================
    def _redraw_static(self) -> None:
        self.view.show(self.exercise.board_svg(self.board_size, hint=self.hint_shown,
                                               marked=self.marked),
                       towers=self._inspector.towers(self.exercise.game().position))

    def _progress_html(self) -> str:
        label = html.escape(_("Puzzles:"))
        return f"<span style='font-size:1.1em'>{label} {self.lesson._repr_html_()}</span>"

    def _on_lesson_change(self, _lesson: Lesson) -> None:
        self._update_progress()

    @_in_own_language
    def _update_progress(self) -> None:
        self.progress.value = self._progress_html()


class PuzzlePicker(widgets.VBox):
    """A menu of puzzles and the chosen one on its board (the classroom demo's part 2).

    Choosing another puzzle closes the one shown (``PuzzleWidget.close``), so a
    lesson of an hour's switching keeps one puzzle alive, not hundreds. All
    puzzles count in one ``lesson`` (by default a new one over the given puzzles).
    """

    def __init__(self, exercises: dict[str, Exercise], *, lesson: Lesson | None = None,
                 projector: bool = False, board_size: int | None = 360) -> None:
        if not exercises:
            raise TavreiError(_("PuzzlePicker needs at least one exercise"))
        self.exercises = dict(exercises)
        self.lesson = lesson if lesson is not None else Lesson(*self.exercises)
        self._projector, self._board_size = projector, board_size
        self.choice = widgets.Dropdown(
            options=[(_(e.title), key) for key, e in self.exercises.items()],
            description=_("Puzzle"), layout=widgets.Layout(width="36em"))
        self.puzzle = self._make(self.choice.value)
        self.stage = widgets.VBox([self.puzzle])
        self.choice.observe(self._on_choice, "value")
        super().__init__([self.choice, self.stage])
        no_null_tooltips(self)

    def _make(self, key: str) -> PuzzleWidget:
        return self.exercises[key].widget(board_size=self._board_size, lesson=self.lesson,
                                          projector=self._projector)

    def _on_choice(self, change: dict[str, Any]) -> None:
        old, self.puzzle = self.puzzle, self._make(change["new"])
        self.stage.children = [self.puzzle]
        old.close()

    def close(self) -> None:
        """Close the menu and the puzzle on show (twice is harmless)."""
        if self.choice.comm is None:
            return
        self.choice.unobserve(self._on_choice, "value")
        self.puzzle.close()
        for part in (self.choice, self.stage):
            part.close()
        super().close()


def _first_sentence(text: str) -> str:
    """The first sentence of an explanation (the status line has room for one)."""
    return re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]


#: English message ids, translated where the box is made.
_PLACEHOLDERS = {"move": "or type the move", "squares": "click squares, or type them",
                 "text": "your answer"}


def _button(description: str, tooltip: str, handler: Any, style: str = "") -> widgets.Button:
    # width auto: ipywidgets' fixed 148 px cut the Russian «Показать решения» to «…решен…»
    button = widgets.Button(description=description, tooltip=tooltip, button_style=style,
                            layout=widgets.Layout(width="auto"))
    button.on_click(lambda _b: handler())
    return button


def open(exercise: Exercise, *, board_size: int | None = 360, lesson: Lesson | None = None,
         projector: bool = False) -> PuzzleWidget:
    """``exercise`` on a live board (what ``Exercise.widget()`` gives): a move puzzle is
    solved by playing the move, a squares puzzle by clicking them, the others by typing."""
    return PuzzleWidget(exercise, board_size=board_size, lesson=lesson, projector=projector)


# Exercise.widget() opens puzzles through this module (exercises never import widgets).
register_opener(open)
