"""Smoke test: the board served as an app by Voila (a classroom screen) plays by clicks.

Voila runs the notebook in a fresh kernel for every page load, so there is no
kernel to query here: the status line (written by Python after each click)
and the drawing's CSS classes are the evidence.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _lab import (
    board_version,
    browser_page,
    click_centre,
    screenshot,
    settle,
    voila_app,
    wait_board_redraw,
)
from playwright.sync_api import TimeoutError as PageTimeout
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with voila_app("voila_board.ipynb", tmp_path_factory.mktemp("voila")) as base:
        yield base


def lastmove(page: Any) -> set[str]:
    """The squares the drawing marks as the last move's."""
    return set(page.evaluate("() => Array.from(document.querySelectorAll("
                             "'.tavrei-board-widget .square.lastmove'))"
                             ".map(e => e.dataset.square)"))


def wait_lastmove(page: Any, squares: set[str], timeout: float = 30000) -> None:
    """Wait until the drawing marks ``squares`` as the last move's: the status line and
    the board are two widgets whose updates reach the page one after the other."""
    try:
        page.wait_for_function(
            "want => { const got = Array.from(document.querySelectorAll("
            "'.tavrei-board-widget .square.lastmove')).map(e => e.dataset.square).sort();"
            " return JSON.stringify(got) === JSON.stringify(want); }",
            arg=sorted(squares), timeout=timeout)
    except PageTimeout:
        pass                         # the assertion that follows names what was drawn
    assert lastmove(page) == squares


def test_board_in_voila_plays_a_move_by_clicks(voila: str, browser: Any) -> None:
    with browser_page(browser, {"width": 1200, "height": 900}) as page:
        page.goto(voila)
        page.wait_for_selector(".tavrei-board-widget svg", timeout=60000)
        for square in ("e2", "e4"):
            click_centre(page, f'.tavrei-board-widget .square[data-square="{square}"]')
        assert lastmove(page) == {"e2", "e4"}
        expect(page.locator(".tavrei-status")).to_contain_text("e2-e4 played")
        screenshot(page, "07-voila")


def test_board_in_voila_plays_a_move_by_touch_drag(voila: str, browser: Any) -> None:
    """A finger drag (touch events through the DevTools protocol) moves a tower."""
    with browser_page(browser, {"width": 1200, "height": 900}, has_touch=True) as page:
        page.goto(voila)
        page.wait_for_selector(".tavrei-board-widget svg", timeout=60000)

        def centre(square: str) -> tuple[float, float]:
            box = page.locator(f'.tavrei-board-widget .square[data-square="{square}"]'
                               ).bounding_box()
            assert box is not None
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

        (x1, y1), (x2, y2) = centre("g1"), centre("f3")
        before = board_version(page)
        cdp = page.context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent",
                 {"type": "touchStart", "touchPoints": [{"x": x1, "y": y1}]})
        for i in range(1, 9):
            x, y = x1 + (x2 - x1) * i / 8, y1 + (y2 - y1) * i / 8
            cdp.send("Input.dispatchTouchEvent",
                     {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        wait_board_redraw(page, before)
        assert lastmove(page) == {"g1", "f3"}
        expect(page.locator(".tavrei-status")).to_contain_text("g1-f3 played")
        screenshot(page, "19-voila-touch-drag")


def test_projector_die_game_fits_1280x720_in_voila(tmp_path_factory: pytest.TempPathFactory,
                                                  browser: Any) -> None:
    """The classroom screen: with the app's first line at the top of the screen (the
    page's title above it scrolled away: the board's size does not depend on what
    stands above it), status, board, die, Roll button and Undo row in sight."""
    with voila_app("voila_projector.ipynb", tmp_path_factory.mktemp("voila-projector")) as base:
        with browser_page(browser, {"width": 1280, "height": 720}) as page:
            page.goto(base)
            page.wait_for_selector(".tavrei-board-widget svg .die.pending", timeout=60000)
            before = board_version(page)
            page.locator("button", has_text="Roll the die").click()
            wait_board_redraw(page, before)
            page.evaluate("() => document.querySelector('.tavrei-board-app')"
                          ".scrollIntoView({block: 'start'})")
            settle(page, [".tavrei-board-widget svg", ".tavrei-controls-row"])
            assert page.evaluate("() => window.scrollX") == 0
            parts = {"status": ".tavrei-status", "board": ".tavrei-board-widget svg",
                     "die": ".tavrei-board-widget svg .die.current",
                     "roll button": ".tavrei-roll",
                     # the Undo row under the board (cut by the bottom edge in Lab once)
                     "undo row": ".tavrei-controls-row"}
            for name, selector in parts.items():
                box = page.locator(selector).first.bounding_box()
                assert box is not None, name
                print(f"\nvoila projector {name}: x {box['x']:.0f}-{box['x'] + box['width']:.0f},"
                      f" y {box['y']:.0f}-{box['y'] + box['height']:.0f}", end="")
                assert 0 <= box["x"] and box["x"] + box["width"] <= 1280, (name, box)
                assert 0 <= box["y"] and box["y"] + box["height"] <= 720, (name, box)
            settle(page, [".tavrei-board-widget svg .die.current"])   # the die's tumble ends
            screenshot(page, "20-voila-projector-1280x720")


def test_typed_moves_and_a_click_on_the_evaluation_graph_show_that_ply(
        voila: str, browser: Any) -> None:
    """Moves typed in the board's box are played; the Evaluation toggle draws the bar
    and a graph of one column a ply, and a click on a column moves the board there."""
    with browser_page(browser, {"width": 1400, "height": 1000}) as page:
        page.goto(voila)
        page.wait_for_selector(".tavrei-board-widget svg", timeout=60000)
        box = page.get_by_placeholder("type a move: e2-e4")
        for move in ("e2-e4", "e7-e5", "g1-f3"):
            box.fill(move)
            box.press("Enter")
            try:
                page.wait_for_function(
                    "move => document.querySelector('.tavrei-status').innerText"
                    ".includes(move + ' played')", arg=move, timeout=120000)
            except Exception:
                raise AssertionError(
                    (move, page.locator(".tavrei-status").inner_text(),
                     box.input_value())) from None
        wait_lastmove(page, {"g1", "f3"})
        page.get_by_role("button", name="Evaluation").click()
        page.wait_for_function("() => document.querySelectorAll("
                               "'.tavrei-eval-graph-svg [data-ply]').length == 4 && "
                               "document.querySelector('.tavrei-eval-bar-svg').style.height",
                               timeout=120000)
        assert page.locator(".tavrei-eval-bar-box svg").count() == 1
        bar = page.locator(".tavrei-eval-bar-box").bounding_box()
        board = page.locator(".tavrei-board-widget svg").first.bounding_box()
        assert bar is not None and board is not None
        print(f"\neval bar: x {bar['x']:.0f}-{bar['x'] + bar['width']:.0f}, y {bar['y']:.0f}-"
              f"{bar['y'] + bar['height']:.0f}; board x {board['x']:.0f}-"
              f"{board['x'] + board['width']:.0f}, y {board['y']:.0f}-"
              f"{board['y'] + board['height']:.0f}", end="")
        # beside the board, on its left as lichess's is beside its board, as tall
        assert board["x"] - 30 <= bar["x"] + bar["width"] <= board["x"] + 1
        assert abs(bar["height"] - board["height"]) <= 2 and abs(bar["y"] - board["y"]) <= 2
        column = page.locator('.tavrei-eval-graph-svg [data-ply="1"]')
        column.click()
        page.wait_for_function(
            "() => document.querySelector('.tavrei-status').innerText.includes('ply 1 of 3')"
            " && Math.abs(document.querySelector('.tavrei-eval-now').getAttribute('x1') - "
            "document.querySelector('.tavrei-eval-graph-svg [data-ply=\"1\"]')"
            ".getAttribute('x') - document.querySelector("
            "'.tavrei-eval-graph-svg [data-ply=\"1\"]').getAttribute('width') / 2) < 0.2",
            timeout=120000)
        wait_lastmove(page, {"e2", "e4"})
        screenshot(page, "30-voila-evaluation-graph")
