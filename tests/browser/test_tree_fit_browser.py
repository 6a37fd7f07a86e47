"""The tree view fits, zooms and pans, and keeps a clicked node under the pointer,
in Voila and JupyterLab at a projector's 1280 x 720.

Seen twice before this: tutorial 07's explorer tree was drawn 1,074-1,152 px
wide in a 508 px box, its root off screen; a click scrolled the clicked node
from under the pointer; and the 128 px boards could not show the towers.
``tests/browser/notebooks/tree_fit.ipynb`` is that tree. What is checked is
what the browser laid out: the boxes of the drawn shapes, measured before and
after each gesture, and the board and tower shelf beside the tree.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import pytest
from _lab import browser_page, lab_url, open_and_run, screenshot, voila_app
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 720}
SCREEN = {"x": 0.0, "y": 0.0, "width": 1280.0, "height": 720.0}
BOX = ".tavrei-tree-svg"
#: The smallest board beside the tree, in CSS pixels: 40 px squares.
BOARD_PX = 300
#: How far a node held in place may drift, in CSS pixels (rounding of the viewBox).
STILL_PX = 3.0

SHAPES = """() => Array.from(document.querySelectorAll('.tavrei-tree-svg g.node .shape'))
  .map(e => { const r = e.getBoundingClientRect();
              return {node: Number(e.closest('g.node').dataset.node),
                      x: r.x, y: r.y, w: r.width, h: r.height}; })"""


@pytest.fixture(scope="module")
def voila_tree_fit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with voila_app("tree_fit.ipynb", tmp_path_factory.mktemp("voila-tree-fit")) as base:
        yield base


def _rect(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _shapes(page: Any) -> dict[int, dict[str, float]]:
    return {s["node"]: s for s in page.evaluate(SHAPES)}


def _centre(shape: dict[str, float]) -> tuple[float, float]:
    return shape["x"] + shape["w"] / 2, shape["y"] + shape["h"] / 2


def _scale(page: Any) -> float:
    return float(page.get_attribute(BOX, "data-scale") or "nan")


def _settled(page: Any) -> None:
    """Wait until the camera has held still for a few frames."""
    page.wait_for_function(
        """() => new Promise(done => {
             const box = document.querySelector('.tavrei-tree-svg');
             const read = () => [box.dataset.scale, box.dataset.x, box.dataset.y].join();
             const first = read();
             setTimeout(() => done(read() === first), 150); })""", timeout=10000)


def _inside(inner: dict[str, float], outer: dict[str, float], slack: float = 1.0) -> bool:
    return (inner["x"] >= outer["x"] - slack and inner["y"] >= outer["y"] - slack
            and inner["x"] + inner["w"] <= outer["x"] + outer["width"] + slack
            and inner["y"] + inner["h"] <= outer["y"] + outer["height"] + slack)


def check_tree_fits_zooms_and_holds_still(page: Any, name: str) -> dict[str, Any]:
    """The checks of item 4 on a page that shows tree_fit.ipynb run; returns what
    was measured, for the report."""
    seen: dict[str, Any] = {}
    page.wait_for_selector(f"{BOX}[data-scale] svg g.node", timeout=60000)
    page.wait_for_selector(".tavrei-tree-board svg", timeout=60000)
    page.locator(BOX).scroll_into_view_if_needed()
    _settled(page)
    box = _rect(page, BOX)
    natural = float(page.get_attribute(BOX, "data-natural-width") or 0)
    seen["box"] = (round(box["width"]), round(box["height"]))
    # the box is on the screen whole (at most 75 % of the window's height), so a
    # tree fitted into it is in sight
    assert _inside({"x": box["x"], "y": box["y"], "w": box["width"], "h": box["height"]},
                   SCREEN), box
    seen["natural_width"] = natural
    # -- 1. the whole tree is in its box at first draw, and the root is on the screen
    shapes = _shapes(page)
    assert len(shapes) == 15
    outside = [n for n, s in shapes.items() if not _inside(s, box)]
    assert outside == [], (outside, box)
    root = shapes[0]
    assert _inside(root, SCREEN)
    seen["fit_scale"] = _scale(page)
    assert natural > box["width"] and seen["fit_scale"] < 1      # it was shrunk to fit
    screenshot(page, f"{name}-fitted")

    # -- 2. the board beside it: the node under the pointer, big, in the viewport,
    #       its towers stood up layer by layer
    page.mouse.move(*_centre(shapes[1]))
    page.wait_for_function(
        "() => (document.querySelector('.tavrei-tree-caption') || {}).innerText"
        " && document.querySelector('.tavrei-tree-caption').innerText.includes('node 1')",
        timeout=15000)
    expect(page.locator(".tavrei-tree-caption")).to_contain_text("Under the pointer")
    board = _rect(page, ".tavrei-tree-board svg")
    seen["board"] = (round(board["x"]), round(board["y"]), round(board["width"]))
    assert board["width"] >= BOARD_PX and board["height"] >= BOARD_PX
    assert _inside({"x": board["x"], "y": board["y"], "w": board["width"],
                    "h": board["height"]}, SCREEN)
    assert box["x"] + box["width"] <= board["x"] + 1          # the tree never runs under it
    layers = page.locator(".tavrei-tree-shelf .tavrei-shelf-layer svg")
    # node 1 is d4(2)-d5: the luchnik's tower of three split, towers of 2 and 1 ... and
    # every layer of every tower has its own glyph, 26 px
    assert layers.count() >= 2
    for i in range(layers.count()):
        glyph = layers.nth(i).bounding_box()
        assert glyph and glyph["width"] >= 24 and glyph["height"] >= 24
        assert glyph["y"] + glyph["height"] <= 720 + 300    # (just below the board)
    # back to the selected node once the pointer leaves the nodes
    page.mouse.move(box["x"] + 5, box["y"] + box["height"] - 5)
    page.wait_for_function(
        "() => document.querySelector('.tavrei-tree-caption').innerText.includes('node 0')",
        timeout=15000)

    # -- 3. the wheel zooms about the pointer
    before = _shapes(page)[3]
    point = _centre(before)
    scale = _scale(page)
    page.mouse.move(*point)
    page.mouse.wheel(0, -300)
    page.wait_for_function(f"() => Number(document.querySelector('{BOX}').dataset.scale)"
                           f" > {scale * 1.5}", timeout=10000)
    _settled(page)
    after = _shapes(page)[3]
    seen["wheel"] = (scale, _scale(page))
    assert math.dist(_centre(after), point) <= STILL_PX, (before, after)
    assert after["w"] > before["w"] * 1.5
    zoomed = _scale(page)
    page.mouse.wheel(0, 300)                                   # and back out
    page.wait_for_function(f"() => Number(document.querySelector('{BOX}').dataset.scale)"
                           f" < {zoomed / 1.5}", timeout=10000)
    _settled(page)
    assert math.dist(_centre(_shapes(page)[3]), point) <= STILL_PX

    # -- 4. a click unfolds node 5, and node 5 stays where it was, under the pointer
    shapes = _shapes(page)
    point = _centre(shapes[5])
    page.mouse.click(*point)
    page.wait_for_function("(n) => document.querySelectorAll("
                           "'.tavrei-tree-svg g.node').length > n",
                           arg=len(shapes), timeout=15000)
    _settled(page)
    unfolded = _shapes(page)
    seen["click"] = (point, _centre(unfolded[5]), len(shapes), len(unfolded))
    assert math.dist(_centre(unfolded[5]), point) <= STILL_PX, seen["click"]
    # ... and so for a double-click that selects it
    page.mouse.dblclick(*point)
    page.wait_for_function(
        "() => document.querySelector('.tavrei-tree-info').innerText.includes('node 5')",
        timeout=15000)
    _settled(page)
    assert math.dist(_centre(_shapes(page)[5]), point) <= STILL_PX
    assert "selected" in (page.get_attribute(f'{BOX} g.node[data-node="5"]', "class") or "")

    # -- 5. a drag moves the tree with the pointer, and is no click
    count = len(_shapes(page))
    start = (box["x"] + 20, box["y"] + 200)       # below the fitted tree's two layers
    assert start[1] < SCREEN["height"] - 40 and start[1] < box["y"] + box["height"] - 40
    root_before = _centre(_shapes(page)[0])
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 40, start[1] - 25, steps=5)
    page.mouse.up()
    _settled(page)
    root_after = _centre(_shapes(page)[0])
    assert math.dist((root_after[0] - root_before[0], root_after[1] - root_before[1]),
                     (40, -25)) <= STILL_PX
    page.wait_for_timeout(400)
    assert len(_shapes(page)) == count

    # -- 6. the buttons: + zooms in a step, fit brings the whole tree back
    scale = _scale(page)
    page.locator(f"{BOX} .tavrei-tree-zoom-in").click()
    page.wait_for_function(f"() => Number(document.querySelector('{BOX}').dataset.scale)"
                           f" > {scale * 1.2}", timeout=10000)
    page.locator(f"{BOX} .tavrei-tree-zoom-out").click()
    page.wait_for_function(f"() => Math.abs(Number(document.querySelector('{BOX}')"
                           f".dataset.scale) - {scale}) < 1e-3", timeout=10000)
    page.mouse.wheel(0, -600)
    page.locator(f"{BOX} .tavrei-tree-fit").click()
    _settled(page)
    box = _rect(page, BOX)
    outside = [n for n, s in _shapes(page).items() if not _inside(s, box)]
    assert outside == [], outside
    assert page.get_attribute(f"{BOX} .tavrei-tree-fit", "title") == "Show the whole tree"
    screenshot(page, f"{name}-after")
    return seen


def test_tree_fits_zooms_and_holds_still_in_voila(voila_tree_fit: str, browser: Any) -> None:
    with browser_page(browser, VIEWPORT) as page:
        page.goto(voila_tree_fit)
        seen = check_tree_fits_zooms_and_holds_still(page, "tree-fit-voila")
        print("voila", seen)


def test_tree_fits_zooms_and_holds_still_in_jupyterlab(jupyter_lab: dict[str, Any],
                                                       browser: Any) -> None:
    with browser_page(browser, VIEWPORT) as page:
        open_and_run(page, lab_url(jupyter_lab, "tree_fit.ipynb"))
        seen = check_tree_fits_zooms_and_holds_still(page, "tree-fit-jupyterlab")
        print("jupyterlab", seen)


def test_pinch_zooms_about_the_fingers_in_voila(voila_tree_fit: str, browser: Any) -> None:
    """A trackpad's pinch (Chromium sends it as the wheel with ctrlKey) and two fingers
    on a touch screen zoom about the point between them; the drawing point there
    stays there."""
    with browser_page(browser, VIEWPORT, has_touch=True) as page:
        page.goto(voila_tree_fit)
        page.wait_for_selector(f"{BOX}[data-scale] svg g.node", timeout=60000)
        _settled(page)
        # -- the trackpad: ctrl and the wheel, small steps
        point = _centre(_shapes(page)[7])
        scale = _scale(page)
        page.mouse.move(*point)
        page.keyboard.down("Control")
        for _ in range(4):
            page.mouse.wheel(0, -10)
        page.keyboard.up("Control")
        page.wait_for_function(f"() => Number(document.querySelector('{BOX}').dataset.scale)"
                               f" > {scale * 1.3}", timeout=10000)
        _settled(page)
        assert math.dist(_centre(_shapes(page)[7]), point) <= STILL_PX
        # -- two fingers moving apart about node 7
        scale = _scale(page)
        x, y = point
        cdp = page.context.new_cdp_session(page)

        def touch(kind: str, spread: float) -> None:
            points = [] if kind == "touchEnd" else [
                {"x": x - spread, "y": y, "id": 1}, {"x": x + spread, "y": y, "id": 2}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", 30)
        for spread in (40, 50, 60):
            touch("touchMove", spread)
        touch("touchEnd", 0)
        page.wait_for_function(f"() => Number(document.querySelector('{BOX}').dataset.scale)"
                               f" > {scale * 1.8}", timeout=10000)
        _settled(page)
        assert math.dist(_centre(_shapes(page)[7]), point) <= STILL_PX
        assert _scale(page) == pytest.approx(scale * 2, rel=0.02)   # fingers 60 -> 120 px


def test_the_tree_views_words_are_russian_in_a_russian_view(
        tmp_path_factory: pytest.TempPathFactory, browser: Any) -> None:
    """``show(G, language="ru")``: the buttons, their tooltips, the caption over the
    board and the tower shelf speak Russian; none of their English words is left."""
    from tavrei_lab.i18n import speaking
    from tavrei_lab.widgets.tree import view_labels

    with speaking("en"):
        english = set(view_labels().values()) | {"Towers, top layer first:", "Selected: node",
                                                 "Under the pointer", "layers"}
    with voila_app("tree_fit_ru.ipynb", tmp_path_factory.mktemp("voila-tree-ru")) as base:
        with browser_page(browser, VIEWPORT) as page:
            page.goto(base)
            page.wait_for_selector(f"{BOX}[data-scale] svg g.node", timeout=60000)
            page.wait_for_selector(".tavrei-tree-shelf figure", timeout=60000)
            page.mouse.move(*_centre(_shapes(page)[5]))
            page.wait_for_function(
                "() => document.querySelector('.tavrei-tree-caption').innerText"
                ".includes('Под указателем: узел 5')", timeout=15000)
            words = page.evaluate(
                """() => [document.querySelector('.tavrei-tree-caption').innerText,
                          document.querySelector('.tavrei-tree-shelf').innerText,
                          document.querySelector('.tavrei-tree-svg').title,
                          ...Array.from(document.querySelectorAll('.tavrei-tree-tools button'))
                             .flatMap(b => [b.title, b.innerText])]""")
            text = "\n".join(words)
            assert "Крупнее" in text and "Целиком" in text and "Башни, сверху вниз" in text
            assert "d3: 2 слоя" in text
            left = [w for w in english if w in text]
            assert left == [], left
            screenshot(page, "tree-fit-voila-ru")


def test_on_a_narrow_page_the_board_goes_under_the_tree(voila_tree_fit: str,
                                                        browser: Any) -> None:
    """Where the tree would keep under 240 px beside the board, the board wraps under it
    and the tree takes the width: still fitted, every node in its box."""
    with browser_page(browser, {"width": 560, "height": 720}) as page:
        page.goto(voila_tree_fit)
        page.wait_for_selector(f"{BOX}[data-scale] svg g.node", timeout=60000)
        page.wait_for_selector(".tavrei-tree-board svg", timeout=60000)
        _settled(page)
        box, board = _rect(page, BOX), _rect(page, ".tavrei-tree-board svg")
        assert box["width"] >= 480 and board["y"] >= box["y"] + box["height"] - 1
        assert all(_inside(s, box) for s in _shapes(page).values())
        screenshot(page, "tree-fit-voila-narrow")


def test_a_thumbnail_under_the_pointer_stands_full_size_beside_the_tree(
        tmp_path_factory: pytest.TempPathFactory, browser: Any) -> None:
    """Tutorial 07's first tree with its 128 px boards: pointing at g1xf2's board puts
    that position on the 340 px board, and the tower of three it makes on f2 on the
    shelf, volkhv over vsadnik over ratnik; the thumbnail itself stays as drawn."""
    with voila_app("tree_thumbs.ipynb", tmp_path_factory.mktemp("voila-thumbs")) as base:
        with browser_page(browser, VIEWPORT) as page:
            page.goto(base)
            page.wait_for_selector(f"{BOX}[data-scale] svg g.node image", timeout=60000)
            _settled(page)
            thumb = f'{BOX} g.node[data-node="3"] image'
            before = _rect(page, thumb)
            page.mouse.move(before["x"] + before["width"] / 2, before["y"] + 20)
            page.wait_for_function(
                "() => document.querySelector('.tavrei-tree-caption').innerText"
                ".includes('node 3')", timeout=15000)
            page.wait_for_timeout(300)                  # (a growing thumbnail took .15 s)
            assert _rect(page, thumb) == before
            assert before["width"] <= 130 < BOARD_PX <= _rect(
                page, ".tavrei-tree-board svg")["width"]
            expect(page.locator(".tavrei-tree-shelf")).to_contain_text(   # its parts' text,
                re.compile(r"f2:\s*3\s+layers\s*K\s*N\s*P\s*$"))     # run together
            shelf = page.locator(".tavrei-tree-shelf").inner_text().split()
            assert shelf[-6:] == ["f2:", "3", "layers", "K", "N", "P"], shelf
            screenshot(page, "tree-thumbs-voila")


def test_the_zoom_buttons_keep_the_fitted_tree_in_sight_and_make_it_readable(
        voila_tree_fit: str, browser: Any) -> None:
    """After Fit a 15-node tree is short and wide in a tall box: + zooms about the tree
    in sight, not the box's middle (two presses there left an empty box), and where
    Fit leaves labels under 12 px a button zooms until they are 12 px."""
    with browser_page(browser, VIEWPORT) as page:
        page.goto(voila_tree_fit)
        page.wait_for_selector(f"{BOX}[data-scale] svg g.node", timeout=60000)
        page.locator(BOX).scroll_into_view_if_needed()
        page.locator(f"{BOX} .tavrei-tree-fit").click()
        _settled(page)
        box = _rect(page, BOX)
        fitted = float(page.get_attribute(BOX, "data-label-px") or 0)
        readable = page.locator(f"{BOX} .tavrei-tree-readable")
        print(f"\nfitted: labels {fitted:.1f} px in a {box['width']:.0f}x{box['height']:.0f}"
              " box", end="")
        for press in range(1, 4):
            page.locator(f"{BOX} .tavrei-tree-zoom-in").click()
            _settled(page)
            inside = [n for n, s in _shapes(page).items() if _inside(s, box, slack=-1)]
            print(f"; after + x{press}: {len(inside)} nodes in the box", end="")
            assert len(inside) >= 3, (press, inside)
        page.locator(f"{BOX} .tavrei-tree-fit").click()
        _settled(page)
        if fitted < 12:
            expect(readable).to_be_visible()
            readable.click()
            _settled(page)
            label_px = float(page.get_attribute(BOX, "data-label-px") or 0)
            inside = [n for n, s in _shapes(page).items() if _inside(s, box, slack=-1)]
            print(f"; readable: labels {label_px:.1f} px, {len(inside)} nodes in the box",
                  end="")
            assert label_px >= 12 - 0.05 and len(inside) >= 3
            expect(readable).to_be_hidden()
        screenshot(page, "tree-zoom-buttons")
