"""A Russian board (the board's part): ``Board(language="ru")`` says
every word -- status, buttons, tooltips, pickers, die, move list, players, inspector,
legend, the reasons a move is refused -- from the catalogue in Russian, beside English
boards in the same notebook; and no English word of the catalogue is left on it."""

from __future__ import annotations

import re
from typing import Any

import ipywidgets
import pytest

from tavrei_lab import Game, TavreiError
from tavrei_lab.i18n import catalogue, get_language, ngettext, set_language
from tavrei_lab.widgets import Board
from tavrei_lab.widgets.status import not_yours, selection_text, state_text

PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
#: Latin words a Russian board may show: move text, coordinates, the engine's agent
#: names in brackets and keyboard keys are notation, not English prose.
NOTATION = {"home", "end", "play", "alphabeta", "utf", "on_move"}


@pytest.fixture(autouse=True)
def _english_after() -> Any:
    yield
    set_language(None)


def english_words() -> set[str]:
    words: set[str] = set()
    for msgid in catalogue("ru").messages:
        words.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", PLACEHOLDER.sub("", msgid)))
    return words - NOTATION


def shown_text(board: Board) -> str:
    """Every word the board puts in front of a person (the widgets' descriptions,
    tooltips, placeholders, option labels and values shown, the status, the inspector's
    and legend's words, and the drawing's visible text)."""
    parts: list[str] = []
    seen: set[int] = set()

    def walk(widget: Any) -> None:
        if id(widget) in seen or not isinstance(widget, ipywidgets.Widget):
            return
        seen.add(id(widget))
        labels = getattr(widget, "_options_labels", None)
        for name in ("description", "tooltip", "placeholder", "value"):
            value = getattr(widget, name, None)
            # a text box's value is the user's, a picker's value is shown by its label
            typed = isinstance(widget, (ipywidgets.Text, ipywidgets.Textarea))
            if isinstance(value, str) and not (name == "value" and (typed or labels is not None)):
                parts.append(value)
        if labels:
            parts.extend(labels)
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(board)
    view = board.view
    for rows in view.towers.values():
        for row in rows:
            parts += [row["colour"], row["name"], row["note"], row["destiny"]]
    for row in view.legend:
        parts += [row[1], row[2], row[3]]

    def words_of(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                words_of(v)
        elif isinstance(value, str):    # templates the browser fills: {letter} is no word
            parts.append(PLACEHOLDER.sub("", value))
    words_of(view.words)
    parts += re.findall(r"<(?:text|title)[^>]*>([^<]*)<", view.svg)
    return "\n".join(re.sub(r"<[^>]+>", " ", p) for p in parts)


def english_left(board: Board) -> set[str]:
    return set(re.findall(r"[a-z]{3,}", shown_text(board).lower())) & english_words()


def test_a_russian_board_shows_no_english_word_through_a_lesson() -> None:
    board = Board(language="ru")
    g = board.game.position.geometry
    assert "Ход белых." in board.status.value and english_left(board) == set()
    board.click_square(g.parse("e2"))
    assert board.message == "Выбрано: ратник на e2; можно пойти на e3, e4."
    board.click_square(g.parse("e5"))
    assert board.message == "Так ходить нельзя: ратник с e2 не может пойти на e5."
    assert english_left(board) == set()
    for move in ("e2-e4", "d7-d5", "e4xd5", "d8xd5"):     # a tower of 2 under the knyaz
        board.play(move)
    board.click_square(g.parse("e7"))
    assert board.message.startswith("Ратник на e7 — таврель чёрных, а сейчас ход белых")
    board.click_square(g.parse("d1"))
    board.click_square(g.parse("d1"))                    # cleared
    assert board.message == "Выбор снят."
    board.undo()
    assert board.message == "Взято назад: e4xd5." or board.message.startswith("Взято назад")
    board.redo()
    board.go_to(1)
    assert board.message == "После 1. e2-e4 (полуход 1 из 4)."
    board.go_to(4)
    board.flip()
    board.movable_toggle.value = True
    assert english_left(board) == set(), shown_text(board)
    board.black_player.value = "random"
    assert "За чёрных играет: случайные ходы." in board.message
    board.black_player.value = "human"
    board.seed_text.value = "abc"
    board.new_game()
    assert board.message == "Новую партию начать нельзя: зерно должно быть целым числом, " \
        "а не 'abc'."
    board.seed_text.value = ""
    board.best_move("alphabeta:1")
    assert board.message.startswith("Программа (alphabeta): лучший ход")
    assert english_left(board) == set(), shown_text(board)


def test_a_russian_tower_and_count_picker() -> None:
    board = Board(language="ru")
    g = board.game.position.geometry
    for move in ("e2-e4", "d7-d5", "e4xd5", "e7-e6"):
        board.play(move)
    board.click_square(g.parse("d5"), 1)       # the top of a tower of 2
    assert board.message.startswith("Взято верхних: 1 из 2 таврелей на d5 (сверху ратник)")
    assert "Сколько таврелей снять" in board.message
    assert [label for label, _k in board.count_picker.options] == ["2 (вся башня)",
                                                                  "верхние 1"]
    assert board.view.words["tower"]["2"] == "башня из 2 таврелей, как стоит: сверху вниз"
    assert board.view.words["tower"]["21"].startswith("башня из 21 таврели")
    assert english_left(board) == set(), shown_text(board)


def test_a_russian_die_game_and_its_rolls() -> None:
    board = Board(variant="gavrilov-die", seed=3, language="ru")
    assert board.state_text() == "Белые бросают кубик."
    assert board.die_label.value == "Кубик: бросают белые"
    board.click_square(board.game.position.geometry.parse("a2"))
    assert board.message == "Белым сначала нужно бросить кубик (кнопка «Бросить кубик»)."
    board.roll()
    assert board.message.startswith("У белых выпало ")
    assert board.die_label.value.startswith("Кубик: <b>")
    assert english_left(board) == set(), shown_text(board)


def test_a_russian_promotion_picker_and_the_end_of_a_game() -> None:
    board = Board(Game("orthodox", "8/P6k/8/8/8/8/8/K7 w - - 0 1"), language="ru")
    g = board.game.position.geometry
    board.click_square(g.parse("a7"))
    board.click_square(g.parse("a8"))
    assert board.message == "Выберите, в кого превратится ратник."
    labels = [label for label, _m in board.promotion_picker.options]
    assert "ферзь" in labels and "конь" in labels
    assert english_left(board) == set(), shown_text(board)
    mate = Board(Game("orthodox"), language="ru")
    for move in ("f2-f3", "e7-e5", "g2-g4", "d8-h4"):
        mate.play(move)
    assert mate.state_text() == "Мат: победа чёрных (0-1)."


def test_russian_beside_english_and_the_default_from_the_language_in_force() -> None:
    russian = Board(language="ru")
    english = Board()
    assert english.language == "en" and russian.language == "ru"
    e2 = russian.game.position.geometry.parse("e2")
    russian.click_square(e2)
    english.click_square(e2)
    assert russian.message.startswith("Выбрано") and english.message.startswith("Selected")
    assert get_language() == "en"                      # a board's language is its own
    set_language("ru")
    assert Board().language == "ru" and Board(language="en").language == "en"
    with pytest.raises(TavreiError, match="неизвестный язык 'fr'"):  # in Russian: ru is in force
        Board(language="fr")


def test_the_status_sentences_in_russian_count_in_three_forms() -> None:
    game = Game()
    for move in ("e2-e4", "d7-d5", "e4xd5", "d8xd5"):
        game.push(move)
    pos = game.position
    g = pos.geometry
    set_language("ru")
    assert state_text(game) == "Ход белых."
    assert not_yours(pos, g.parse("d5")).startswith(
        "Башня из 3 таврелей на d5 (сверху князь) — башня чёрных")
    one = ngettext("tower of {n}, as it stands: top tavrel first, bottom one last",
                   "tower of {n}, as it stands: top tavrel first, bottom one last", 1)
    few = ngettext("tower of {n}, as it stands: top tavrel first, bottom one last",
                   "tower of {n}, as it stands: top tavrel first, bottom one last", 3)
    assert "таврели," in one and "таврелей," in few
    assert selection_text(pos, g.parse("d1"), 1, [], []) == "У таврели на d1 (князь) нет ходов."


def test_no_widget_of_a_board_leaves_its_tooltip_to_be_drawn_as_null() -> None:
    """ipywidgets writes a tooltip of None into a described widget's label as "null",
    which a hover shows (an English word on a Russian board): every part has a tooltip
    or an empty one."""
    board = Board(language="ru")
    missing, stack = [], [board]
    while stack:
        widget = stack.pop()
        if widget.has_trait("tooltip") and widget.tooltip is None:
            missing.append(getattr(widget, "description", "") or type(widget).__name__)
        stack.extend(c for c in getattr(widget, "children", ())
                     if isinstance(c, ipywidgets.Widget))
    assert not missing, missing


def test_the_position_editor_speaks_russian_through_an_edit() -> None:
    """The editor's palette tooltips, buttons, castling boxes, turn picker and every
    status it says while a position is set up, refused and played, in Russian."""
    from tavrei_lab.core.tavrel import BLACK, QUEEN
    from tavrei_lab.widgets import PositionEditor

    set_language("ru")
    editor = PositionEditor()
    said = [shown_text(editor)]  # type: ignore[arg-type]  # walks any widget tree
    editor.tool.value = (BLACK, QUEEN, False)
    editor.click_square(editor.rules.geometry.parse("e1"))     # onto the volkhv: refused
    said.append(editor.status.value)
    editor.tool.value = editor.tool.options[-1][1]              # remove top
    editor.click_square(editor.rules.geometry.parse("e4"))     # nothing there
    said.append(editor.status.value)
    editor.click_square(editor.rules.geometry.parse("e1"))     # the volkhv goes
    said.append(editor.status.value)
    editor.play()                                               # no white volkhv: refused
    said.append(editor.status.value)
    editor.clear()
    said.append(editor.status.value)
    text = re.sub(r"<[^>]+>", " ", "\n".join(said))
    assert "Отказ:" in text and "Играть пока нельзя" in text, text
    assert not set(re.findall(r"[a-z]{3,}", text.lower())) & english_words(), text
