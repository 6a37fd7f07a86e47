"""The interactive tree view in a real browser (Voila): a click puts the node's
position on the board beside the tree, a double-click unfolds the node.

The evidence is what Python writes back after each click: the info panel
names the selected node and the moves leading to it, and the drawing it sends
gains the unfolded children.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from _lab import screenshot, voila_app

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def voila_tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with voila_app("tree_view.ipynb", tmp_path_factory.mktemp("voila-tree")) as base:
        yield base


def _node_count(page: Any) -> int:
    return int(page.evaluate(
        "() => document.querySelectorAll('.tavrei-tree-svg [data-node]').length"))


def test_click_shows_the_position_and_double_click_unfolds(voila_tree: str,
                                                           browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        page.goto(voila_tree)
        page.wait_for_selector(".tavrei-tree-svg svg", timeout=60000)
        page.wait_for_selector(".tavrei-tree-board svg", timeout=60000)
        folded = _node_count(page)
        assert folded > 10                     # the root and its children
        node = page.locator('.tavrei-tree-svg g[data-node="5"] .shape')
        node.scroll_into_view_if_needed()
        node.click()
        page.wait_for_function(
            "() => (document.querySelector('.tavrei-tree-info') || {}).innerText"
            " && document.querySelector('.tavrei-tree-info').innerText.includes('node 5')",
            timeout=15000)
        info = page.locator(".tavrei-tree-info").inner_text()
        assert re.search(r"moves: \S+", info)
        selected = page.get_attribute('.tavrei-tree-svg g[data-node="5"]', "class") or ""
        assert "selected" in selected.split()
        node = page.locator('.tavrei-tree-svg g[data-node="5"] .shape')
        node.dblclick()
        page.wait_for_function("(n) => document.querySelectorAll("
                               "'.tavrei-tree-svg [data-node]').length > n",
                               arg=folded, timeout=15000)
        assert _node_count(page) > folded
        screenshot(page, "tree-view")
    finally:
        context.close()
