"""Puzzles solved on the board, driven as the browser drives them.

A click is ``view.simulate_click`` -- the same trait the browser sets -- so
these tests exercise everything but the wiring: the right move solves, a wrong
one is taken back with the checker's explanation and the game unchanged, the
hint waits behind its button and circles the tower, and a lesson counts.
"""

from __future__ import annotations

import re

import pytest

from tavrei_lab.errors import TavreiError
from tavrei_lab.exercises import EXERCISES, Exercise, Lesson, check_frees
from tavrei_lab.widgets import Board
from tavrei_lab.widgets.puzzle import PuzzleWidget


def hinted(svg: str, square: str) -> bool:
    """Whether the drawing tints ``square`` as a hint (a highlight mark on it)."""
    return re.search(f'<[^>]*class="highlight-mark"[^>]*data-square="{square}"', svg) is not None


def test_right_move_played_on_the_board_solves_the_puzzle() -> None:
    puzzle = EXERCISES["free-the-luchnik"].widget()
    board = puzzle.board
    assert isinstance(board, Board)
    board.view.simulate_click("d4", 1)         # layer 1 of 3: take the top two
    board.view.simulate_click("d6")
    assert puzzle.solved and puzzle.feedback
    expected = EXERCISES["free-the-luchnik"].game()
    expected.push("d4(2)-d6")
    assert board.game.ply == 1 and board.game.position == expected.position
    assert "Right!" in puzzle.verdict.value
    assert puzzle.lesson.progress_text() == "1 of 1 solved"


def test_wrong_move_is_taken_back_with_the_checkers_explanation() -> None:
    exercise = EXERCISES["free-the-luchnik"]
    puzzle = exercise.widget()
    board = puzzle.board
    before = board.game.position.string
    board.view.simulate_click("d4", 2)         # layer 2 of 3: only the ratoborets
    board.view.simulate_click("d6")
    expected = exercise.check("d4(1)-d6").message
    assert not puzzle.solved and not puzzle.feedback
    assert board.game.ply == 0 and board.game.position.string == before
    assert board.selected is None               # the tower went home: nothing is held
    assert not board.game.can_redo()            # and the wrong move is not kept for Redo
    assert board.view.effects.get("flash") == ["d6"]            # on the board: a flash,
    assert board.view.effects.get("slide") == [["d6", "d4"]]    # and the tower slides home
    assert "taken back" in board.status.value and "enemy prisoner" in board.status.value
    # the status line has room for the first sentence; the verdict under the board says all
    assert "To uncover the luchnik" not in board.status.value
    assert "To uncover the luchnik" in puzzle.verdict.value
    assert "Not yet." in puzzle.verdict.value
    assert "enemy prisoner" in puzzle.verdict.value and expected.split(":")[0] in \
        puzzle.verdict.value
    assert puzzle.lesson.progress_text() == "0 of 1 solved"


def test_a_move_the_rules_refuse_is_explained_by_the_board_and_not_counted() -> None:
    puzzle = EXERCISES["escape-onto-a-tower"].widget()
    board = puzzle.board
    board.view.simulate_click("g1")
    board.view.simulate_click("f1")             # attacked by the black ratoborets
    assert board.game.ply == 0 and "Illegal" in board.status.value
    assert not puzzle.solved


def test_typed_answer_in_a_move_puzzle_plays_the_right_move_and_refuses_a_wrong_one() -> None:
    puzzle = EXERCISES["mate-in-one"].widget()
    board = puzzle.board
    assert board.flipped                          # black to move: black at the bottom
    start = board.game.ply
    puzzle.answer_box.value = "e1-d2"             # Enter in the box checks
    assert board.game.ply == start and "not even give check" in puzzle.verdict.value
    puzzle.answer_box.value = "e1(3)-d2"
    assert puzzle.solved and board.game.ply == start + 1 and board.game.outcome() is not None


def test_after_solving_further_moves_are_refused_until_try_again() -> None:
    puzzle = EXERCISES["discovered-check"].widget()
    board = puzzle.board
    board.play("e2(1)-c3")
    assert puzzle.solved
    board.play("e8-d8")
    assert board.game.ply == 1 and "Try again" in board.status.value
    puzzle.reset()
    assert board.game.ply == 0 and not puzzle.solved and puzzle.verdict.value == ""
    assert puzzle.lesson.solved == {"discovered-check"}   # progress is kept


def test_hint_is_hidden_until_asked_then_tints_the_tower() -> None:
    exercise = EXERCISES["free-the-luchnik"]
    puzzle = exercise.widget()
    svg = puzzle.view.svg
    assert not hinted(svg, "d4") and puzzle.hint_text.value == ""
    assert exercise.hint not in str(puzzle.header.value)
    puzzle.hint_button.click()
    assert hinted(puzzle.view.svg, "d4")
    assert "Hint:" in puzzle.hint_text.value
    puzzle.reset()
    assert not hinted(puzzle.view.svg, "d4") and puzzle.hint_text.value == ""


def test_hint_on_a_typed_puzzle_tints_its_square_too() -> None:
    puzzle = EXERCISES["ratnik-destiny"].widget()
    assert puzzle.board is None and not hinted(puzzle.view.svg, "c7")
    puzzle.show_hint()
    assert hinted(puzzle.view.svg, "c7")


def test_squares_puzzle_is_answered_by_clicking_squares() -> None:
    puzzle = EXERCISES["vsadnik-squares"].widget()
    for square in ("a3", "c3"):
        puzzle.view.simulate_click(square)
    assert puzzle.answer_box.value == "a3 c3"
    assert puzzle.feedback is None                # a click is not yet an answer
    puzzle.check_button.click()
    assert not puzzle.solved and "d2 is missing" in puzzle.verdict.value
    puzzle.view.simulate_click("d2")
    puzzle.view.simulate_click("e3")
    puzzle.view.simulate_click("e3")              # a second click unmarks
    puzzle.check_button.click()
    assert puzzle.solved and puzzle.marked == ["a3", "c3", "d2"]


def test_text_puzzle_checks_the_box_and_shows_solutions() -> None:
    puzzle = EXERCISES["count-prisoners"].widget()
    puzzle.answer_box.value = "4"
    assert "passengers" in puzzle.verdict.value and not puzzle.solved
    puzzle.solutions_button.click()
    assert "Accepted answers:</b> 2" in puzzle.verdict.value
    puzzle.answer_box.value = "2"
    assert puzzle.solved


def test_lesson_counts_each_puzzle_once_and_every_widget_shows_it() -> None:
    lesson = Lesson("free-the-luchnik", "ratnik-destiny", "count-prisoners")
    first = EXERCISES["free-the-luchnik"].widget(lesson=lesson)
    second = EXERCISES["ratnik-destiny"].widget(lesson=lesson)
    assert "0 of 3 solved" in first.progress.value
    assert "Your move: play it on the board." in first.board.status.value
    second.submit("helgi")
    second.submit("хелги")                        # solved twice, counted once
    first.board.play("d4(2)-d5")
    assert lesson.progress_text() == "2 of 3 solved"
    assert "2 of 3 solved" in first.progress.value and "2 of 3 solved" in second.progress.value


def test_lesson_refuses_an_unknown_puzzle() -> None:
    with pytest.raises(TavreiError, match="no exercise 'nope'"):
        Lesson("free-the-luchnik", "nope")


def test_an_exercise_of_ones_own_works_on_the_board() -> None:
    mine = Exercise("mine", "Free the luchnik (yours)", "Free it.",
                    "4v3/8/8/8/3(LsR)4/8/8/6V1 w - 0 1",
                    lambda g, a: check_frees(g, a, "d4", 4), answer="move", focus=("d4",))
    puzzle = PuzzleWidget(mine)
    puzzle.board.play("d4-d6")
    assert not puzzle.solved and "whole tower" in puzzle.verdict.value
    with pytest.raises(TavreiError, match="answer must be one of"):
        Exercise("bad", "t", "p", None, mine.checker, answer="dance")


@pytest.mark.parametrize("key", sorted(k for k, e in EXERCISES.items() if e.answer == "move"))
def test_every_move_puzzle_is_solved_by_its_first_solution_on_the_board(key: str) -> None:
    exercise = EXERCISES[key]
    puzzle = exercise.widget()
    puzzle.board.play(exercise.solutions()[0])
    assert puzzle.solved, puzzle.verdict.value


def test_puzzle_board_shows_no_controls_that_lead_away() -> None:
    board = EXERCISES["free-the-luchnik"].widget().board

    def shown(widget: object) -> list[object]:
        layout = getattr(widget, "layout", None)
        if layout is not None and layout.display == "none":
            return []
        children = getattr(widget, "children", ())
        return [widget, *[w for c in children for w in shown(c)]]

    inside = shown(board)
    assert board.view in inside and board.count_picker in inside and board.status in inside
    assert board.new_button not in inside and board.record_text not in inside
    assert board.move_list not in inside                # one move: nothing to step through


def test_projector_puzzle_uses_the_boards_projector_mode() -> None:
    from tavrei_lab.widgets.board import PROJECTOR_SIZE
    moves = EXERCISES["mate-in-one"].widget(projector=True)
    assert moves.board.projector and moves.board.size == PROJECTOR_SIZE
    typed = EXERCISES["ratnik-destiny"].widget(projector=True)
    assert f'width="{PROJECTOR_SIZE}"' in typed.view.svg


@pytest.mark.parametrize("key", sorted(EXERCISES))
def test_every_hint_has_words_and_points_at_a_tavrel(key: str) -> None:
    exercise = EXERCISES[key]
    position = exercise.game().position
    assert exercise.hint and exercise.focus
    assert all(position.tower(square) for square in exercise.focus), exercise.focus


def test_die_puzzle_wrong_move_keeps_the_roll_and_the_king_capture_wins() -> None:
    puzzle = EXERCISES["die-take-the-king"].widget()
    board = puzzle.board
    # the die has rolled already: its face shows, but no roll button or automatic rolls
    assert board.die_box.layout.display == "" and "N (knight)" in board.die_label.value
    assert board.roll_button.layout.display == "none"
    assert board.auto_roll.layout.display == "none"
    board.play("e4-c5")
    assert board.game.ply == 0 and board.game.position.roll == "N"   # the roll stays
    assert "nobody is taken prisoner" in puzzle.verdict.value
    board.play("e4xd6")
    assert puzzle.solved and "Taking the king wins the game." in puzzle.verdict.value
    assert board.game.outcome() is not None and board.game.outcome().winner == 0


# -- closing: no leftovers when puzzles are swapped ---------------------------------------

def open_widgets() -> int:
    """How many widgets are open (registered with the kernel's comm layer)."""
    from ipywidgets.widgets import widget
    return len(widget._instances)


@pytest.mark.parametrize("key", ["free-the-luchnik", "vsadnik-squares", "ratnik-destiny"])
def test_closing_a_puzzle_removes_its_listeners_and_closes_its_widgets(key: str) -> None:
    lesson = Lesson(key)
    before = open_widgets()
    puzzle = EXERCISES[key].widget(lesson=lesson)
    made = open_widgets() - before
    assert made > 10 and len(lesson._listeners) == 1
    board = puzzle.board
    puzzle.close()
    assert lesson._listeners == []
    assert board is None or board.session.listeners == []
    # every widget closes, except at most one unreferenced default Layout the Board
    # replaces when it sets its status line's layout
    assert open_widgets() - before <= 1, f"{open_widgets() - before} of {made} left open"
    lesson.solve(key)                              # the closed puzzle is not updated
    assert "0 of 1 solved" in puzzle.progress.value


def test_switching_puzzles_in_the_picker_keeps_one_alive() -> None:
    from tavrei_lab.widgets.puzzle import PuzzlePicker
    keys = ["free-the-luchnik", "vsadnik-squares", "ratnik-destiny", "mate-in-one"]
    picker = PuzzlePicker({k: EXERCISES[k] for k in keys}, projector=True)
    lesson = picker.lesson
    assert lesson.keys == keys and len(lesson._listeners) == 1
    one_puzzle = open_widgets()
    for _ in range(3):
        for key in keys[1:] + keys[:1]:
            picker.choice.value = key
            assert picker.stage.children == (picker.puzzle,)
            assert picker.puzzle.exercise.key == key
            assert len(lesson._listeners) == 1          # only the puzzle on show listens
    # twelve switches leave at most one stray Layout each, not a whole puzzle each
    assert open_widgets() - one_puzzle <= 12
    picker.puzzle.board.play("d4(2)-d5")               # the one on show still works
    assert lesson.progress_text() == "1 of 4 solved"
    assert "1 of 4 solved" in picker.puzzle.progress.value
    picker.close()
    assert lesson._listeners == []


def test_hint_on_the_selected_tower_is_seen_apart_from_the_selection() -> None:
    # seen: the hint's tint was the selection's green, so Hint on a selected tower
    # changed nothing visible
    from tavrei_lab.render.theme import Theme
    puzzle = EXERCISES["free-the-luchnik"].widget()
    board = puzzle.board
    assert isinstance(board, Board)
    board.view.simulate_click("d4", 1)              # select the tower the hint is about
    puzzle.show_hint()
    mark = re.search(r'<[^>]*class="highlight-mark"[^>]*data-square="d4"[^>]*>', board.view.svg)
    assert mark, "no hint mark on the selected tower"
    fill = re.search(r'fill="([^"]+)"', mark.group(0))
    stroke = re.search(r'stroke="([^"]+)"', mark.group(0))
    assert fill and stroke, mark.group(0)           # a ring, visible on a tinted square
    theme = Theme()
    selection = {theme.selected_light, theme.selected_dark, theme.arrow_color("green")}
    assert fill.group(1) not in selection and stroke.group(1) not in selection


def test_buttons_are_as_wide_as_their_words_in_russian() -> None:
    """ipywidgets' fixed 148 px cut «Показать решения» to «Показать решен…» in the
    offline site: the puzzle's buttons size to their text in either language."""
    from tavrei_lab.i18n import speaking

    with speaking("ru"):
        puzzle = PuzzleWidget(next(e for e in EXERCISES.values() if e.answer == "text"))
    buttons = [puzzle.hint_button, puzzle.reset_button, puzzle.solutions_button,
               puzzle.check_button]
    assert puzzle.solutions_button.description == "Показать решения"
    assert [b.layout.width for b in buttons] == ["auto"] * 4
