"""A Russian board in a real browser (issue 25 item 1): Voila at 1280x720 shows a
``Board(language="ru")`` -- status, buttons, pickers, move list, inspector, legend,
tooltips -- with no English word from the message catalogue, after a hover, a
selection of part of a tower and a refused move."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from _lab import SHOWN, assert_status_fits, english_words, screenshot, voila_app

pytestmark = pytest.mark.browser

@pytest.fixture(scope="module")
def voila_russian(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with voila_app("voila_russian.ipynb", tmp_path_factory.mktemp("voila-ru")) as base:
        yield base


def _click(page: Any, selector: str) -> None:
    board = page.locator(".tavrei-board-widget")
    before = int(board.get_attribute("data-version") or 0)
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("(v) => Number(document.querySelector('.tavrei-board-widget')"
                           ".dataset.version) > v", arg=before, timeout=10000)


def test_a_russian_board_shows_no_english_word(voila_russian: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(voila_russian)
        page.wait_for_selector(".tavrei-board-widget svg", timeout=60000)
        english = english_words()
        assert {"white", "tower", "move", "die"} <= english
        status = page.locator(".tavrei-status")
        assert "Ход белых." in status.inner_text()
        page.hover('.tavrei-board-widget .tower[data-square="d5"]')   # a tower of 3
        page.wait_for_selector('.tavrei-inspector[data-square="d5"]', timeout=5000)
        inspector = page.locator(".tavrei-inspector").inner_text()
        assert "башня из 3 таврелей" in inspector and "Буквы на полосках" in inspector
        assert_status_fits(page)
        _click(page, '.tavrei-board-widget .square[data-square="c2"]')
        assert "Выбрано: ратник на c2" in status.inner_text()
        _click(page, '.tavrei-board-widget .square[data-square="c5"]')
        assert "Так ходить нельзя" in status.inner_text()
        assert_status_fits(page)
        before = int(page.locator(".tavrei-board-widget").get_attribute("data-version") or 0)
        page.locator("button", has_text="Лучший ход").click()      # the longest message
        page.wait_for_function("(v) => Number(document.querySelector('.tavrei-board-widget')"
                               ".dataset.version) > v", arg=before, timeout=30000)
        assert "Программа (" in status.inner_text() and "Вариант:" in status.inner_text()
        assert_status_fits(page)
        shown = page.evaluate(SHOWN)
        left = set(re.findall(r"[a-z]{3,}", shown.lower())) & english
        assert not left, (sorted(left), shown)
        assert len(re.findall(r"[а-яё]{3,}", shown.lower())) > 100   # it is all there, in Russian
        screenshot(page, "30-voila-russian-board")
    finally:
        context.close()
