"""What a class reads on the board and the puzzles: words, not ids, option names,
repeated moves or a tooltip of "null"."""

from __future__ import annotations

import pytest

from tavrei_lab.exercises import EXERCISES
from tavrei_lab.i18n import speaking

widgets = pytest.importorskip("ipywidgets")

from tavrei_lab.widgets import Board, PositionEditor  # noqa: E402
from tavrei_lab.widgets.controls import widgets_of  # noqa: E402


@pytest.mark.parametrize("make", [
    lambda: Board(),
    lambda: Board(projector=True, language="ru"),
    lambda: EXERCISES["first-prisoner"].widget(projector=True),
    lambda: EXERCISES["vsadnik-squares"].widget(),
    lambda: PositionEditor(),
], ids=["board", "russian-projector-board", "move-puzzle", "squares-puzzle", "editor"])
def test_no_widget_leaves_its_tooltip_none_for_the_page_to_show_as_null(make: object) -> None:
    root = make()  # type: ignore[operator]
    untitled = [type(w).__name__ for w in widgets_of(root)
                if "tooltip" in w.keys and w.tooltip is None]
    assert untitled == []


def test_the_players_lists_show_words_in_english_as_in_russian() -> None:
    english = Board(black="level:3")
    labels = dict((value, label) for label, value in english.black_player.options)
    assert labels["alphabeta"] == "alpha-beta search"
    assert labels["level:3"] == "level 3"
    assert english.black_player.value == "level:3"          # the id stays the value
    assert all(":" not in label for label in labels.values())
    russian = Board(language="ru")
    assert dict((v, k) for k, v in russian.white_player.options)["level:3"] == "уровень 3"


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("answer", ["e2-e5", "e1-e9", "zz9", "  e2-e5 "])
def test_a_refused_answer_names_the_move_once(language: str, answer: str) -> None:
    with speaking(language):
        verdict = EXERCISES["first-prisoner"].check(answer)
    assert not verdict
    assert verdict.message.count(answer.strip()) == 1, verdict.message
    assert repr(answer.strip()) not in verdict.message


def test_no_puzzle_title_names_a_rule_option() -> None:
    """A title is read from the back of the room: it says what the rule does, never
    the option's name as a file spells it (``own_towers``)."""
    for key, puzzle in EXERCISES.items():
        options = {o for o in puzzle.game().rules.options if "_" in o}
        assert "own_towers" in options or key != "no-own-towers"
        for language in ("en", "ru"):
            with speaking(language):
                title = puzzle.said("title")
            assert "_" not in title and not [o for o in options if o in title], (key, title)
