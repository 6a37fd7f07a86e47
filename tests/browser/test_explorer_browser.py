"""The opening explorer in a real browser (Voila): a click on a move of the table
plays it on the board, and the table follows to the new position; Back returns."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _lab import screenshot, voila_app
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

APP = ".explorer-app"
BOARD = f"{APP} .tavrei-board-widget"


@pytest.fixture(scope="module")
def voila_explorer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with voila_app("explorer.ipynb", tmp_path_factory.mktemp("voila-explorer")) as base:
        yield base


def test_a_click_on_a_move_plays_it_and_the_table_follows(voila_explorer: str,
                                                          browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    page = context.new_page()
    try:
        page.goto(voila_explorer)
        page.wait_for_selector(f"{BOARD} svg", timeout=60000)
        games = page.locator(f"{APP} .tavrei-explorer-games").first
        expect(games).to_contain_text("20 games")
        table = page.locator(f"{APP} .tavrei-explorer-table")
        expect(table.locator("button", has_text="c1xd2")).to_have_count(1)
        before = int(page.locator(BOARD).get_attribute("data-version") or 0)
        table.locator("button", has_text="c1xd2").click()
        page.wait_for_function(
            "([sel, v]) => Number(document.querySelector(sel).dataset.version) > v",
            arg=[BOARD, before], timeout=20000)
        expect(games).to_contain_text("5 games")                 # the table followed
        expect(table.locator("button", has_text="d8xe7")).to_have_count(1)
        expect(table.locator("button", has_text="c1xd2")).to_have_count(0)
        assert page.locator(f'{BOARD} .square.lastmove').count() == 2
        screenshot(page, "explorer-after-c1xd2")
        page.locator(f"{APP} .tavrei-explorer-back").click()
        expect(games).to_contain_text("20 games")
        expect(table.locator("button", has_text="c1xd2")).to_have_count(1)
        page.locator(f"{APP} .tavrei-explorer-forward").click()     # forward descends again
        expect(games).to_contain_text("5 games")
    finally:
        context.close()
