"""Tree pictures a class can read: labels that never overlap,
thumbnails big enough to read, a wide tree folded to its best line and shown at
the output's width, and a view where one click folds and a double-click shows.
"""

from __future__ import annotations

import re
from pathlib import Path

import networkx as nx
import pytest

import tavrei_lab.widgets
from tavrei_lab import Game
from tavrei_lab.render.tree import LABEL_CHAR, THUMB, draw_svg, fold_beside_pv, picture
from tavrei_lab.tree import build
from tavrei_lab.widgets.tree import TreeView

ESCAPE = "4v3/8/8/8/8/8/5(P:LS)P:SP:R/4r1V1 w - 0 1"
SPLIT_CHECK = "4v3/8/8/8/8/8/4(RS)3/V7 w - 0 1"
LUCHNIK = "4v3/8/8/8/3(LsR)4/8/8/6V1 w - 0 1"
#: The width of a notebook's output area on a 1280 px screen in JupyterLab.
OUTPUT_WIDTH = 968


@pytest.fixture(scope="module")
def split_tree() -> nx.DiGraph:
    return build(Game(position=SPLIT_CHECK), 2, root_moves="splits")


def labels(svg: str) -> list[tuple[float, float, str]]:
    return [(float(x), float(y), text) for x, y, text in re.findall(
        r'<text x="([\d.]+)" y="([\d.]+)" class="label[^"]*"[^>]*>([^<]*)<', svg)]


def size(svg: str) -> tuple[float, float]:
    match = re.search(r'<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"', svg)
    assert match
    return float(match.group(1)), float(match.group(2))


@pytest.mark.parametrize("tree", ["explorer", "opening", "split", "die"])
def test_move_labels_never_overlap(tree: str, split_tree: nx.DiGraph) -> None:
    folded: list[int] = []
    if tree == "explorer":  # notebook 07's explorer as it opens: the root's moves side by side
        G = build(Game(position=LUCHNIK), 2, root_moves="splits&frees")
        folded = list(G.successors(0))
    else:
        G = {"opening": lambda: build(Game(), 1),
             "split": lambda: split_tree,
             "die": lambda: build(Game("gavrilov-die",
                                       position="3k2/6/6/4N1/6/2K2r w - 0 1"), 2)}[tree]()
    found = labels(draw_svg(G, collapsed=folded))
    assert len(found) == (G.out_degree(0) if folded else G.number_of_edges())
    by_row: dict[float, list[tuple[float, float]]] = {}
    for x, y, text in found:  # centred text: an interval of its estimated width
        half = len(text) * LABEL_CHAR / 2
        by_row.setdefault(y, []).append((x - half, x + half))
    for row in by_row.values():
        row.sort()
        for (_, right), (left, _) in zip(row, row[1:]):
            assert right <= left, f"labels overlap on a row: {row}"


def test_the_root_has_no_label_crowd() -> None:
    """The opening tree: forty moves from one root, every label on its own."""
    svg = draw_svg(build(Game(), 1))
    xs = sorted(x for x, _, _ in labels(svg))
    assert len(xs) == 39 and min(b - a for a, b in zip(xs, xs[1:])) >= 8 * LABEL_CHAR


def test_folding_beside_the_best_line_makes_a_wide_tree_fit(split_tree: nx.DiGraph) -> None:
    wide, _ = size(draw_svg(split_tree, thumbnails="pv"))
    folded = fold_beside_pv(split_tree)
    svg = draw_svg(split_tree, thumbnails="pv", collapsed=folded)
    narrow, _ = size(svg)
    assert wide > OUTPUT_WIDTH >= narrow
    shown = {int(n) for n in re.findall(r'<g class="node[^"]*" data-node="(\d+)"', svg)}
    pv = {n for n, d in split_tree.nodes(data=True) if d.get("pv")}
    assert pv <= shown                               # the best line stays in sight
    assert all(n not in folded for n in pv if any(
        split_tree.nodes[c].get("pv") for c in split_tree.succ[n]))
    assert re.search(r">\+\d+<", svg)                # the folded ones say what they hide


def test_principal_variation_boards_stand_in_a_column_beside_the_tree(
        split_tree: nx.DiGraph) -> None:
    svg = draw_svg(split_tree, thumbnails="pv", collapsed=fold_beside_pv(split_tree))
    nodes_right = max(float(x) for x in re.findall(r'<circle cx="([\d.]+)"', svg))
    boards = re.findall(r'<image x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', svg)
    pv = [n for n, d in split_tree.nodes(data=True) if d.get("pv")]
    assert len(boards) == len(pv)
    assert {x for x, _ in boards} and all(float(x) > nodes_right for x, _ in boards)
    assert all(float(w) >= THUMB - 4 for _, w in boards)
    assert "e2(1)-c3" in re.findall(r'class="caption">([^<]*)<', svg)


def test_thumbnails_under_their_nodes_are_readable_and_do_not_overlap() -> None:
    G = build(Game(position=ESCAPE), 1)
    svg = draw_svg(G, thumbnails=True)
    boxes = [tuple(map(float, b)) for b in re.findall(
        r'<image x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)]
    assert len(boxes) == G.number_of_nodes() and all(w >= 120 for _, _, w, _ in boxes)
    for i, (x1, y1, w1, h1) in enumerate(boxes):
        for x2, y2, w2, h2 in boxes[i + 1:]:
            assert x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1


def test_picture_is_shown_at_the_output_width_never_enlarged(split_tree: nx.DiGraph) -> None:
    shown = picture(split_tree, thumbnails="pv")
    html = shown._repr_html_()
    assert html.startswith('<div class="tavrei-tree-picture"')
    assert f"max-width:100%;height:auto;width:{shown.width:g}px" in html
    assert shown._repr_svg_() == shown.svg and shown.width == size(shown.svg)[0]


def test_drawing_styles_stay_inside_the_drawing() -> None:
    """Inlined in a page, the tree's CSS must not restyle the page's own .label etc."""
    style = re.search(r"<style>(.*?)</style>", draw_svg(build(Game(), 1)), re.S)
    assert style
    rules = [r for r in style.group(1).split("}") if r.strip()]
    assert rules and all(r.strip().startswith(".tavrei-tree") for r in rules)


def test_view_click_folds_and_double_click_shows_the_position() -> None:
    G = build(Game(), 2, values=False)
    view = TreeView(G, expand_depth=1)
    child = next(iter(G.successors(view.root)))
    assert child in view.collapsed
    view.canvas.click = {"node": child, "action": "toggle", "seq": 1}     # one click
    assert child not in view.collapsed and view.selected == view.root
    view.canvas.click = {"node": child, "action": "toggle", "seq": 2}
    assert child in view.collapsed
    view.canvas.click = {"node": child, "action": "select", "seq": 3}     # double-click
    assert view.selected == child and G.edges[view.root, child]["move"] in view.info.value
    leaf = next(iter(G.successors(child)))
    view.canvas.click = {"node": leaf, "action": "toggle", "seq": 4}      # a leaf: shown
    assert view.selected == leaf


def test_view_front_end_folds_on_click_and_selects_on_double_click() -> None:
    from tavrei_lab.widgets.tree import TreeCanvas
    esm = TreeCanvas._esm
    assert '[holder, "dblclick", onDoubleClick]' in esm and 'send(hit, "select")' in esm
    assert '"toggle"), DOUBLE_CLICK_WAIT_MS)' in esm and "clearTimeout(pending)" in esm


def test_board_and_tree_view_share_one_click_mechanism() -> None:
    """Both browser halves start with ``svg_clicks.js`` and report through it: neither
    numbers or sends its own messages (the browser tests check that the clicks work)."""
    from tavrei_lab.widgets.esm import PARTS, SHARED, widget_module
    from tavrei_lab.widgets.tree import TreeCanvas
    from tavrei_lab.widgets.view import BoardView

    widgets_dir = Path(tavrei_lab.widgets.__file__).parent
    shared = (widgets_dir / SHARED).read_text(encoding="utf-8")
    assert "function reporter(model)" in shared and "function hitIn(" in shared
    for widget, name in ((BoardView, "board"), (TreeCanvas, "tree")):
        assert widget._esm == widget_module(name)
        assert widget._esm.startswith(shared)
        own = "\n".join((widgets_dir / part).read_text(encoding="utf-8")
                        for part in (*PARTS.get(name, ()), f"{name}.js"))
        assert "reporter(model)" in own and re.search(r"hitIn\((ui\.)?holder, ", own)
        assert "seq +=" not in own
        assert not re.search(r'model\.set\("(click|drop|key)"', own)


#: Towers of 2 to 8 layers, both colours mixed, promoted destinies included.
TOWERS_2_TO_8 = ("4v3/8/8/8/(P:Ks)(P:KsL)(P:KsLr)(P:KsLrS)3V/8/(P:KsLrSl)(P:KsLrSlR)"
                 "(P:KsLrSlRp:K)5/8 w - 0 1")
KEY_LAYER = re.compile(
    r'<g class="key-layer (white|black)" data-key-square="(\w+)" data-key-layer="(\d+)">'
    r'<title>([^<]*)</title><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"'
    r'[^>]*/><text [^>]*font-size="([\d.]+)"[^>]*>([^<]+)</text></g>')


@pytest.mark.parametrize("thumbnails", [True, "pv"])
def test_every_layer_of_a_tower_up_to_8_is_spelt_out_under_each_board(thumbnails: object) -> None:
    """Tutorial 07: a 128 px board draws a tower of 8's layers under
    2 px each, so the picture's boards could not show the towers the lesson is about.
    Under each board its tower key names every layer of every tower of 2 or more,
    bottom first, by letter and colour, the letters 11 px, inside the board's width."""
    from tavrei_lab.core.tavrel import COLOR_NAMES
    from tavrei_lab.render.board import role_letters
    from tavrei_lab.tree.nodes import position_at
    G = build(Game(position=TOWERS_2_TO_8), 1, root_moves="volkhv")
    svg = draw_svg(G, thumbnails=thumbnails)
    keys = re.findall(r'<g class="tower-key" data-node="(\d+)">(.*?)</g></g>(?=<|$)', svg)
    # each key follows its board
    images = {int(n): (float(x), float(y) + float(h)) for x, y, h, n in re.findall(
        r'<image x="([\d.]+)" y="([\d.]+)" width="[\d.]+" height="([\d.]+)" href="[^"]*" '
        r'class="thumbnail"/><g class="tower-key" data-node="(\d+)">', svg)}
    shown = [n for n in G.nodes if thumbnails is True or G.nodes[n].get("pv")]
    assert len(keys) == len(shown) >= 2
    for node_text, body in keys:
        node = int(node_text)
        position = position_at(G, node)
        letters = role_letters(position.pieces)
        seen = [(square, int(layer), colour, letter, float(font), float(x), float(y))
                for colour, square, layer, _title, x, y, _w, _h, font, letter
                in KEY_LAYER.findall(body + "</g>")]
        wanted = []
        for s, tower in enumerate(position.board):
            if len(tower) >= 2:
                wanted += [(position.geometry.names[s], i, COLOR_NAMES[t.color],
                            letters[t.acting_kind]) for i, t in enumerate(tower)]
        assert sorted(x[:4] for x in seen) == sorted(wanted), node
        assert {len([w for w in wanted if w[0] == sq]) for sq, *_ in wanted} == set(range(2, 9))
        assert min(x[4] for x in seen) >= 11
        left = images[node][0]
        # a tower of 8 is one row, bottom layer on the left, inside the board's width
        for square in {x[0] for x in seen}:
            row = sorted((x for x in seen if x[0] == square), key=lambda x: x[1])
            assert len({x[6] for x in row}) == 1, square
            assert [x[5] for x in row] == sorted(x[5] for x in row)
            assert left <= row[0][5] and row[-1][5] + 13 <= left + THUMB + 0.01
        assert min(x[6] for x in seen) >= images[node][1]                # under the board


def test_a_russian_tree_key_uses_the_russian_letters_and_names() -> None:
    """The key's letters are the strips' letters of the language in force, its
    tooltips the tavrels' names: Russian in a Russian lesson."""
    from tavrei_lab.i18n import speaking
    from tavrei_lab.render.board import role_letters
    G = build(Game(position=ESCAPE), 1)
    with speaking("ru"):
        svg = draw_svg(G, thumbnails=True)
    found = re.findall(r'<g class="key-layer \w+" data-key-square="f2" data-key-layer="(\d)">'
                       r"<title>([^<]*)</title>.*?>([^<>]+)</text></g>", svg)
    pieces = Game(position=ESCAPE).position.pieces
    russian = set(role_letters(pieces, "ru").values())
    assert found and all(letter in russian for _, _, letter in found), found
    assert any(re.search("[А-Яа-я]", letter) for _, _, letter in found), found
    assert all(re.search("[а-я]{3}", title) for _, title, _ in found), found
