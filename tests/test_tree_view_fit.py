"""The tree view's model parts of fitting, zooming and panning (the browser tests measure the rest):
which node holds still when the drawing changes, the board and towers of the node
under the pointer, the camera's steps and report, and the words, in both languages.
"""

from __future__ import annotations

import re
from typing import Any

import networkx as nx
import pytest

from tavrei_lab import Game, TavreiError, tree
from tavrei_lab.errors import RenderError
from tavrei_lab.i18n import set_language
from tavrei_lab.render.board import board_svg
from tavrei_lab.render.towers import GLYPH_PX, tower_shelf
from tavrei_lab.tree.nodes import position_at
from tavrei_lab.widgets.tree import CAMERA_STEPS, TreeView, view_labels

#: Tutorial 07's explorer: the luchnik's tower of three, its splits and frees.
LUCHNIK = "4v3/8/8/8/3(LsR)4/8/8/6V1 w - 0 1"


@pytest.fixture(scope="module")
def luchnik_tree() -> nx.DiGraph:
    return tree.build(Game(position=LUCHNIK), 2, root_moves="splits&frees")


@pytest.fixture(autouse=True)
def _english_after() -> Any:
    yield
    set_language(None)


def _sent(view: TreeView) -> list[Any]:
    """Record what the canvas sends to the browser, one entry a message."""
    messages: list[Any] = []
    view.canvas.send_state = lambda key=None: messages.append(  # type: ignore[method-assign]
        sorted(key) if isinstance(key, (set, list, tuple)) else key)
    return messages


def test_a_clicked_node_is_the_anchor_sent_with_its_drawing(luchnik_tree: nx.DiGraph) -> None:
    view = TreeView(luchnik_tree)
    assert view.canvas.anchor == -1                   # the first drawing is fitted instead
    sent = _sent(view)
    view.canvas.click = {"node": 5, "action": "toggle", "seq": 1}
    # the anchor arrives in the same message as the drawing it holds still
    assert view.canvas.anchor == 5 and ["anchor", "svg"] in sent
    assert 'data-node="6"' in view.canvas.svg and 5 not in view.collapsed
    view.canvas.click = {"node": 3, "action": "select", "seq": 2}    # a double-click
    assert view.canvas.anchor == 3 and view.selected == 3
    view.collapse(5)                                   # the buttons hold their node still
    assert view.canvas.anchor == 5
    view.show_pv()
    assert view.canvas.anchor == view.selected == 3


def test_the_board_shows_the_node_under_the_pointer(luchnik_tree: nx.DiGraph) -> None:
    view = TreeView(luchnik_tree)
    assert view.caption.value == "Selected: node 0"
    root_board, root_shelf = view.board.value, view.shelf.value
    view.canvas.hover = {"node": 5, "seq": 1}
    assert view.hovered == 5 and view.caption.value == "Under the pointer: node 5"
    assert view.board.value == board_svg(position_at(luchnik_tree, 5), lastmove=("d4", "d3"),
                                         size=view.board_size, language="en")
    assert view.shelf.value == tower_shelf(position_at(luchnik_tree, 5))
    assert view.shelf.value != root_shelf and "node 5" in view.info.value
    assert view.selected == 0                         # hovering selects nothing
    view.canvas.hover = {"node": None, "seq": 2}      # the pointer left the nodes
    assert view.hovered is None and view.caption.value == "Selected: node 0"
    assert (view.board.value, view.shelf.value) == (root_board, root_shelf)


def test_the_caption_changes_after_the_board_it_names(luchnik_tree: nx.DiGraph) -> None:
    """The browser applies the changes in the order they are sent: the caption goes
    last, so "node 5" never stands over the board of the node before (seen in a
    loaded browser run: the caption said node 5 over node 0's towers)."""
    view = TreeView(luchnik_tree)
    order: list[str] = []
    for name in ("caption", "board", "shelf", "info"):
        widget = getattr(view, name)
        widget.send_state = (lambda key=None, name=name:  # type: ignore[method-assign]
                             order.append(name))
    view.canvas.hover = {"node": 5, "seq": 1}
    assert order[-1] == "caption" and {"board", "shelf"} <= set(order[:-1])


@pytest.mark.parametrize("report", [{"node": "5"}, {"node": 10 ** 9}, {"node": True},
                                    {"node": 2.0}])
def test_a_hover_on_no_node_of_the_tree_changes_nothing(luchnik_tree: nx.DiGraph,
                                                        report: dict[str, Any]) -> None:
    view = TreeView(luchnik_tree)
    view.canvas.hover = {"node": 4, "seq": 1}
    before = (view.hovered, view.caption.value, view.board.value, view.shelf.value)
    view.canvas.hover = {**report, "seq": 2}
    assert (view.hovered, view.caption.value, view.board.value, view.shelf.value) == before


def test_the_board_beside_the_tree_is_big_enough_to_read(luchnik_tree: nx.DiGraph) -> None:
    view = TreeView(luchnik_tree)
    width = float(re.search(r'<svg[^>]*\swidth="([\d.]+)"', view.board.value).group(1))
    assert width == view.board_size >= 300            # 40 px squares, not 128 px thumbnails
    panel = view.widget.children[1]
    assert panel.layout.width == f"{view.board_size + 20}px"
    assert list(panel.children[:3]) == [view.caption, view.board, view.shelf]


def test_camera_steps_are_numbered_and_an_unknown_one_is_refused(
        luchnik_tree: nx.DiGraph) -> None:
    view = TreeView(luchnik_tree)
    assert view.canvas.command == {}
    view.zoom_in()
    assert view.canvas.command == {"action": "in", "seq": 1}
    view.zoom_out()
    view.fit()
    assert view.canvas.command == {"action": "fit", "seq": 3}
    view.fit()                                         # the same step twice is two steps
    assert view.canvas.command == {"action": "fit", "seq": 4}
    with pytest.raises(TavreiError, match="no camera step 'sideways'.*fit, in, out"):
        view._step("sideways")
    assert view.canvas.command == {"action": "fit", "seq": 4} and CAMERA_STEPS == (
        "fit", "in", "out", "readable")
    view.zoom_readable()
    assert view.canvas.command == {"action": "readable", "seq": 5}


def test_the_camera_is_what_the_view_reported(luchnik_tree: nx.DiGraph) -> None:
    view = TreeView(luchnik_tree)
    assert view.camera == {}                           # nothing drawn yet
    view.canvas.camera = {"scale": 0.4525, "x": -2, "y": 0, "width": 488, "height": 540,
                          "seq": 1}
    assert view.camera == {"scale": 0.4525, "x": -2.0, "y": 0.0, "width": 488.0,
                           "height": 540.0}
    for broken in ({"scale": float("nan"), "x": 0, "y": 0, "width": 1, "height": 1},
                   {"scale": "big", "x": 0, "y": 0, "width": 1, "height": 1},
                   {"scale": 1, "x": 0}):
        view.canvas.camera = broken
        assert view.camera == {}


def test_the_views_words_come_from_the_catalogue_in_both_languages(
        luchnik_tree: nx.DiGraph) -> None:
    english = TreeView(luchnik_tree).canvas.labels
    assert english == view_labels() and english["fit"] == "Fit"
    russian = TreeView(luchnik_tree, language="ru")
    assert set(russian.canvas.labels) == set(english)
    for key, text in russian.canvas.labels.items():
        assert text != english[key] and re.search("[а-яА-Я]", text), key
        assert not re.search("[A-Za-z]", text), (key, text)
    assert russian.caption.value == "Выбран узел 0"
    assert "Башни, сверху вниз" in russian.shelf.value
    # a hover long after the cell ran still speaks the view's language
    russian.canvas.hover = {"node": 5, "seq": 1}
    assert russian.caption.value == "Под указателем: узел 5"
    assert "слоя" in russian.shelf.value               # d3: 2 слоя


def test_the_tower_shelf_stands_every_layer_top_first() -> None:
    game = Game(position="4v3/8/8/8/3(LsR)4/8/5(P:LSsRsP:SP:R)2/6V1 w - 0 1")
    shelf = tower_shelf(game.position)
    towers = re.findall(r'<figure class="tavrei-shelf-tower" data-square="(\w+)"', shelf)
    assert sorted(towers) == ["d4", "f2"]
    f2 = shelf.split('data-square="f2"')[1].split("</figure>")[0]
    assert re.findall(r'data-layer="(\d+)"', f2) == [str(i) for i in range(6, -1, -1)]
    assert "f2: 7 layers" in f2 and f2.count(f'width="{GLYPH_PX}" height="{GLYPH_PX}"') == 7
    # each layer is named in full: the tooltip of the bottom one is the white ratnik
    assert 'data-layer="0" title="white ratnik (ратник, pawn)"' in f2
    assert tower_shelf(Game().position) == ""          # no tower, no shelf
    assert "1 layer" not in tower_shelf(game.position)
    ru = tower_shelf(game.position, language="ru")
    assert "f2: 7 слоёв" in ru and "d4: 3 слоя" in ru
    with pytest.raises(RenderError, match="tower_shelf: size must be"):
        tower_shelf(game.position, glyph=0)
