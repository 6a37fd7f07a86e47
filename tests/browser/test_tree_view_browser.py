"""The tree view in a real browser (Voila and JupyterLab): it fits its output, a
single click unfolds a node, a double-click puts the node's position on the
board beside it, and a wide static tree picture is shown at the output's width.

The evidence is what Python writes back after each click (the info panel
names the selected node and the moves leading to it; the drawing it sends
gains the unfolded children) and the boxes the browser laid out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from _lab import browser_page, lab_url, open_and_run, screenshot, voila_app
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def voila_tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with voila_app("tree_view.ipynb", tmp_path_factory.mktemp("voila-tree")) as base:
        yield base


def _node_count(page: Any) -> int:
    return int(page.evaluate(
        "() => document.querySelectorAll('.tavrei-tree-svg [data-node]').length"))


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def check_the_tree_view(page: Any, name: str) -> None:
    """The page shows tests/browser/notebooks/tree_view.ipynb run: check it fits, and
    that a click unfolds and a double-click selects."""
    page.wait_for_selector(".tavrei-tree-svg svg", timeout=60000)
    page.wait_for_selector(".tavrei-tree-board svg", timeout=60000)
    page.wait_for_selector(".tavrei-tree-picture svg", timeout=60000)
    # -- it fits: the tree stays left of the board, the picture inside its output
    tree, board = _box(page, ".tavrei-tree-svg"), _box(page, ".tavrei-tree-board")
    assert tree["x"] + tree["width"] <= board["x"] + 1, (tree, board)
    drawn = _box(page, ".tavrei-tree-picture svg")
    output = _box(page, ".tavrei-tree-picture")
    natural = float(page.get_attribute(".tavrei-tree-picture svg", "width") or 0)
    assert natural > 1280 > drawn["width"]          # shrunk to the page ...
    assert drawn["x"] + drawn["width"] <= output["x"] + output["width"] + 1
    tall = float(page.get_attribute(".tavrei-tree-picture svg", "height") or 0)
    assert abs(drawn["height"] / drawn["width"] - tall / natural) < 0.01  # ... not squashed
    root = _box(page, '.tavrei-tree-picture g[data-node="0"] .shape')
    assert 0 <= root["x"] and root["x"] + root["width"] <= 1280   # the root in sight
    # -- a single click unfolds
    folded = _node_count(page)
    assert folded > 10                     # the root and its children
    node = page.locator('.tavrei-tree-svg g[data-node="5"] .shape')
    node.scroll_into_view_if_needed()
    node.click()
    page.wait_for_function("(n) => document.querySelectorAll("
                           "'.tavrei-tree-svg [data-node]').length > n",
                           arg=folded, timeout=15000)
    unfolded = _node_count(page)
    # (the board beside shows node 5 while the pointer is on it; it is not selected)
    assert "selected" not in (page.get_attribute('.tavrei-tree-svg g[data-node="5"]',
                                                 "class") or "").split()
    assert "selected" in (page.get_attribute('.tavrei-tree-svg g[data-node="0"]',
                                             "class") or "").split()
    # -- a double-click shows the position, and does not fold on its way
    node = page.locator('.tavrei-tree-svg g[data-node="5"] .shape')
    node.dblclick()
    page.wait_for_function(     # (the info showed node 5 already: it is under the pointer)
        "() => document.querySelector('.tavrei-tree-svg g[data-node=\"5\"]')"
        ".classList.contains('selected')", timeout=15000)
    expect(page.locator(".tavrei-tree-info")).to_contain_text(re.compile(r"moves: \S+"))
    selected = page.get_attribute('.tavrei-tree-svg g[data-node="5"]', "class") or ""
    assert "selected" in selected.split()
    page.wait_for_timeout(600)             # a stray fold would have arrived by now
    assert _node_count(page) == unfolded
    # -- a click on the board beside it is no click on the tree
    page.locator(".tavrei-tree-board svg").click()
    page.wait_for_timeout(600)
    assert _node_count(page) == unfolded and "node 5" in page.locator(
        ".tavrei-tree-info").inner_text()
    screenshot(page, name)


def test_click_unfolds_double_click_shows_the_position_and_it_fits(voila_tree: str,
                                                                   browser: Any) -> None:
    with browser_page(browser, {"width": 1280, "height": 800}) as page:
        page.goto(voila_tree)
        check_the_tree_view(page, "tree-view")


def test_the_tree_view_in_jupyterlab(jupyter_lab: dict[str, Any], browser: Any) -> None:
    """The same checks in JupyterLab, where the board's browser tests run too."""
    with browser_page(browser, {"width": 1280, "height": 800}) as page:
        open_and_run(page, lab_url(jupyter_lab, "tree_view.ipynb"))
        check_the_tree_view(page, "tree-view-jupyterlab")


#: Every layer of the tower key under each board of the picture, as the browser drew it.
KEY_DRAWN = """() => Array.from(document.querySelectorAll('.tavrei-tree-picture .key-layer'))
  .map(g => { const box = g.querySelector('rect').getBoundingClientRect();
              const ink = g.querySelector('text').getBoundingClientRect();
              return {node: Number(g.closest('.tower-key').dataset.node),
                      square: g.dataset.keySquare, layer: Number(g.dataset.keyLayer),
                      colour: g.classList.contains('white') ? 'white' : 'black',
                      letter: g.querySelector('text').textContent,
                      font: parseFloat(getComputedStyle(g.querySelector('text')).fontSize),
                      box: [box.x, box.y, box.width, box.height],
                      ink: [ink.x, ink.y, ink.width, ink.height]}; })"""


def test_the_static_tree_picture_spells_out_every_layer(tmp_path_factory: pytest.TempPathFactory,
                                                        browser: Any) -> None:
    """Tutorial 07: its picture's 128 px boards could not show the
    towers the lesson is about. Under each board, in the browser at 1280x720, every
    layer of every tower of 2 to 8 has its own box, letter and colour, the letters
    drawn 11 px, the boxes apart, a tower of 8 in one row."""
    from tavrei_lab import Game, tree
    from tavrei_lab.core.tavrel import COLOR_NAMES
    from tavrei_lab.render.board import role_letters
    from tavrei_lab.tree.nodes import position_at
    towers = ("4v3/8/8/8/(P:Ks)(P:KsL)(P:KsLr)(P:KsLrS)3V/8/(P:KsLrSl)(P:KsLrSlR)"
              "(P:KsLrSlRp:K)5/8 w - 0 1")
    G = tree.build(Game(position=towers), 1, root_moves="volkhv")
    with voila_app("tree_picture.ipynb", tmp_path_factory.mktemp("voila-picture")) as base:
        with browser_page(browser, {"width": 1280, "height": 720}) as page:
            page.goto(base)
            page.wait_for_selector(".tavrei-tree-picture .tower-key", timeout=60000)
            drawn = page.evaluate(KEY_DRAWN)
            screenshot(page, "tree-picture-tower-keys")
    for node in G.nodes:
        position = position_at(G, node)
        letters = role_letters(position.pieces)
        wanted = sorted((position.geometry.names[s], i, COLOR_NAMES[t.color],
                         letters[t.acting_kind])
                        for s, tower in enumerate(position.board) if len(tower) >= 2
                        for i, t in enumerate(tower))
        mine = [d for d in drawn if d["node"] == node]
        assert sorted((d["square"], d["layer"], d["colour"], d["letter"]) for d in mine) \
            == wanted, node
        for d in mine:
            x, y, w, h = d["box"]
            ix, iy, iw, ih = d["ink"]
            assert d["font"] >= 11 and w >= 11 and h >= 13, d
            assert x <= ix and ix + iw <= x + w + 0.5, d          # the letter in its box
        by_row: dict[tuple[str, float], list[dict[str, Any]]] = {}
        for d in mine:
            by_row.setdefault((d["square"], round(d["box"][1])), []).append(d)
        assert {len(row) for row in by_row.values()} == set(range(2, 9))   # one row a tower
        for row in by_row.values():
            row.sort(key=lambda d: d["layer"])
            for low, high in zip(row, row[1:]):              # bottom layer first, apart
                assert low["box"][0] + low["box"][2] < high["box"][0], (low, high)
    print(f"\ntree picture: {len(drawn)} key layers in {len(G)} boards, letters "
          f"{min(d['font'] for d in drawn):g} px, boxes {min(d['box'][2] for d in drawn):.0f}"
          f"x{min(d['box'][3] for d in drawn):.0f} px")
