"""A Russian board in a real browser: Voila at 1280x720 shows a
``Board(language="ru")`` -- status, buttons, pickers, move list, inspector, legend,
tooltips -- with no English word from the message catalogue, after a hover, a
selection of part of a tower and a refused move."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from _lab import (
    SHOWN,
    assert_status_fits,
    board_version,
    browser_page,
    click_centre,
    english_words,
    screenshot,
    voila_app,
    wait_board_redraw,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

@pytest.fixture(scope="module")
def voila_russian(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with voila_app("voila_russian.ipynb", tmp_path_factory.mktemp("voila-ru")) as base:
        yield base


def test_a_russian_board_shows_no_english_word(voila_russian: str, browser: Any) -> None:
    with browser_page(browser, {"width": 1280, "height": 720}) as page:
        page.goto(voila_russian)
        page.wait_for_selector(".tavrei-board-widget svg", timeout=60000)
        english = english_words()
        assert {"white", "tower", "move", "die"} <= english
        status = page.locator(".tavrei-status")
        expect(status).to_contain_text("Ход белых.")
        page.hover('.tavrei-board-widget .tower[data-square="d5"]')   # a tower of 3
        page.wait_for_selector('.tavrei-inspector[data-square="d5"]', timeout=5000)
        inspector = page.locator(".tavrei-inspector")
        expect(inspector).to_contain_text("башня из 3 таврелей")
        expect(inspector).to_contain_text("Буквы на полосках")
        assert_status_fits(page)
        click_centre(page, '.tavrei-board-widget .square[data-square="c2"]')
        expect(status).to_contain_text("Выбрано: ратник на c2")
        click_centre(page, '.tavrei-board-widget .square[data-square="c5"]')
        expect(status).to_contain_text("Так ходить нельзя")
        assert_status_fits(page)
        before = board_version(page)
        page.locator("button", has_text="Лучший ход").click()      # the longest message
        wait_board_redraw(page, before, timeout=30000)
        expect(status).to_contain_text("Программа (")
        expect(status).to_contain_text("Вариант:")
        assert_status_fits(page)
        shown = page.evaluate(SHOWN)
        left = set(re.findall(r"[a-z]{3,}", shown.lower())) & english
        assert not left, (sorted(left), shown)
        assert len(re.findall(r"[а-яё]{3,}", shown.lower())) > 100   # it is all there, in Russian
        screenshot(page, "30-voila-russian-board")
