"""Tree layout, SVG drawing, exports and the interactive view."""

from __future__ import annotations

import hashlib
import json
import re
import xml.etree.ElementTree as ET

import networkx as nx
import pytest

from tavrei_lab import Game
from tavrei_lab.errors import RenderError
from tavrei_lab.render.tree import MAX_THUMBNAILS, draw_svg, probability_text
from tavrei_lab.tree import TreeCutWarning, build, position_at
from tavrei_lab.tree.export import (
    from_node_link,
    read_graphml,
    to_node_link,
    write_graphml,
    write_json,
)
from tavrei_lab.tree.layout import layered_layout, visible_nodes
from tavrei_lab.tree.values import value_text
from tavrei_lab.widgets.tree import TreeView

DIE_POSITION = "5k/6/6/R1p:Q3/6/K5 w - 0 1"
MATE_IN_ONE = "4v3/8/4V3/8/8/8/8/R7 w - 0 1"


@pytest.fixture(scope="module")
def opening_tree() -> nx.DiGraph:
    game = Game()
    game.play("e2-e4 d7-d5")
    return build(game, 2)


@pytest.fixture(scope="module")
def die_tree() -> nx.DiGraph:
    return build(Game("gavrilov-die", DIE_POSITION), 1)


# -- layout --------------------------------------------------------------------------

def test_layout_is_layered_tidy_and_never_overlaps(opening_tree: nx.DiGraph) -> None:
    G = opening_tree
    pos = layered_layout(G)
    assert set(pos) == set(G.nodes)
    for node, (x, y) in pos.items():
        assert y == nx.shortest_path_length(G, 0, node)
        kids = list(G.successors(node))
        if kids:   # centred over first and last child
            assert x == (pos[kids[0]][0] + pos[kids[-1]][0]) / 2
    by_layer: dict[float, list[float]] = {}
    for x, y in pos.values():
        by_layer.setdefault(y, []).append(x)
    for xs in by_layer.values():
        assert len(xs) == len(set(xs))
    leaves = sorted(x for n, (x, _) in pos.items() if G.out_degree(n) == 0)
    assert leaves == [float(i) for i in range(len(leaves))]


def test_collapsed_nodes_hide_their_subtrees(opening_tree: nx.DiGraph) -> None:
    G = opening_tree
    first = next(iter(G.successors(0)))
    pos = layered_layout(G, collapsed=[first])
    hidden = nx.descendants(G, first)
    assert first in pos and not hidden & set(pos)
    assert set(visible_nodes(G, collapsed=[first])) == set(pos)


# -- drawing -------------------------------------------------------------------------

def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_drawing_shapes_labels_values_and_pv(die_tree: nx.DiGraph) -> None:
    G = die_tree
    svg = draw_svg(G)
    root = _parse(svg)   # well-formed XML
    ns = "{http://www.w3.org/2000/svg}"
    groups = [g for g in root.iter(f"{ns}g") if "data-node" in g.attrib]
    assert len(groups) == G.number_of_nodes()
    kinds = {"decision": f"{ns}circle", "chance": f"{ns}polygon", "terminal": f"{ns}rect"}
    for g in groups:
        node = int(g.attrib["data-node"])
        data = G.nodes[node]
        assert data["type"] in g.attrib["class"].split()
        assert g.find(kinds[data["type"]]) is not None
        assert ("pv" in g.attrib["class"].split()) == bool(data.get("pv"))
    assert svg.count(">@K 1/6<") == 1 and svg.count(">@B 1/6<") == 1
    assert ">a3xc3<" in svg
    assert svg.count('class="edge pv"') == len(G.graph["principal_variation"].split())
    # every edge drawn once: a parent's plain ones as steps of one path, the rest as lines
    steps = sum(d.count("M") for d in re.findall(r'<path d="([^"]*)" class="edge"/>', svg))
    assert steps + svg.count("<line ") == G.number_of_edges() and steps > svg.count("<line ")
    root_value = value_text(G.graph["value"])    # the root's expectiminimax value
    assert re.search(r'data-node="0"><title>[^<]*</title><polygon[^>]*/><text[^>]*>'
                     + re.escape(root_value) + "<", svg)


def test_drawing_escapes_text_it_writes_itself() -> None:
    """The drawing writes its markup as text: tooltips and move labels stay escaped."""
    G = nx.DiGraph()
    G.add_node(0, position='a<b & "c"', type="decision", turn="white")
    G.add_node(1, position="", type="terminal", turn="black", outcome="1-0", value=1.0)
    G.add_edge(0, 1, label="x<y&z", pv=True)
    G.add_node(2, position="&&", type='odd"<&>', turn="x\ny")  # node data from elsewhere
    G.add_edge(0, 2, label="")
    svg = draw_svg(G)
    root = _parse(svg)
    ns = "{http://www.w3.org/2000/svg}"
    titles = {g.get("data-node"): g.find(f"{ns}title").text for g in root.iter(f"{ns}g")
              if g.get("data-node")}
    assert titles == {"0": 'a<b & "c"', "1": f"\nvalue {value_text(1.0)} (exact)", "2": "&&"}
    classes = {g.get("data-node"): g.get("class") for g in root.iter(f"{ns}g")}
    assert classes["2"] == 'node odd"<&> x\ny'
    assert "&#10;" in svg and "&quot;" in svg
    assert [t.text for t in root.iter(f"{ns}text") if t.get("class") == "label pv"] == ["x<y&z"]
    shape = root.find(f'.//{ns}g[@data-node="1"]/{ns}rect')
    assert shape is not None and shape.get("fill") == "#ffffff"
    named = _parse(draw_svg(nx.relabel_nodes(G, {0: 'r<"0"', 1: "leaf"})))  # foreign ids
    assert {g.get("data-node") for g in named.iter(f"{ns}g")} >= {'r<"0"', "leaf"}


def test_a_values_tooltip_speaks_russian_and_english_stays() -> None:
    """A node's tooltip must not say "value -2.49 (exact)" in a Russian class: its words
    come from the catalogue, once a drawing, and the English stays the same."""
    from tavrei_lab.i18n import speaking

    G = nx.DiGraph()
    G.add_node(0, position="p", type="decision", turn="white", value=-2.49, bound="exact")
    G.add_node(1, position="q", type="terminal", turn="black", value=1.0, bound="lower")
    G.add_node(2, position="r", type="terminal", turn="black", value=0.0, bound="upper")
    G.add_edge(0, 1, label="a")
    G.add_edge(0, 2, label="b")
    ns = "{http://www.w3.org/2000/svg}"

    def tips(svg: str) -> dict[str | None, str | None]:
        return {g.get("data-node"): g.find(f"{ns}title").text    # type: ignore[union-attr]
                for g in _parse(svg).iter(f"{ns}g") if g.get("data-node")}

    english = draw_svg(G)
    assert tips(english) == {"0": "p\nvalue -2.49 (exact)", "1": "q\nvalue +1.00 (lower)",
                             "2": f"r\nvalue {value_text(0.0)} (upper)"}
    with speaking("ru"):
        russian = draw_svg(G)
    assert tips(russian) == {"0": "p\nоценка -2.49 (точно)", "1": "q\nоценка +1.00 (не меньше)",
                             "2": f"r\nоценка {value_text(0.0)} (не больше)"}
    assert draw_svg(G) == english


def test_terminal_squares_cut_marks_and_bounds() -> None:
    svg = draw_svg(build(Game(position=MATE_IN_ONE), 1))
    assert 'class="node terminal black pv"' in svg
    assert ">+M1<" in svg
    cut = build(Game(), 2, max_nodes=60)
    svg = draw_svg(cut)
    classes = re.findall(r'<g class="([^"]*)" data-node=', svg)
    assert sum("cut" in c.split() for c in classes) == sum(
        1 for _, d in cut.nodes(data=True) if d.get("cut")) > 0
    pruned = build(Game(position=MATE_IN_ONE), 2)
    svg = draw_svg(pruned)
    assert "≥" in svg or "≤" in svg
    assert "pruned" in svg


def test_collapsed_nodes_show_how_much_is_hidden(opening_tree: nx.DiGraph) -> None:
    G = opening_tree
    first = next(iter(G.successors(0)))
    svg = draw_svg(G, collapsed=[first])
    assert f">+{G.out_degree(first)}<" in svg
    assert svg.count("data-node=") == G.number_of_nodes() - G.out_degree(first)


def test_thumbnails_are_boards_and_limited(die_tree: nx.DiGraph) -> None:
    svg = draw_svg(die_tree, thumbnails="pv")
    assert svg.count("data:image/svg+xml;base64,") == sum(
        1 for _, d in die_tree.nodes(data=True) if d.get("pv"))
    assert draw_svg(die_tree, thumbnails=[0]).count('class="thumbnail"') == 1
    big = build(Game(), 2, values=False)
    with pytest.raises(RenderError, match=str(MAX_THUMBNAILS)):
        draw_svg(big, thumbnails=True)
    with pytest.raises(RenderError, match="thumbnails"):
        draw_svg(die_tree, thumbnails="all")


def test_probability_text() -> None:
    assert probability_text(1 / 6) == "1/6"
    assert probability_text(0.5) == "1/2"
    assert probability_text(1.0) == "1"
    assert probability_text(0.123456) == "0.12"


# -- exports -------------------------------------------------------------------------

def test_node_link_json_round_trip(tmp_path, die_tree: nx.DiGraph) -> None:  # noqa: ANN001
    data = to_node_link(die_tree)
    text = json.dumps(data)
    assert "rules" not in data["graph"]
    back = from_node_link(json.loads(text))
    assert back.number_of_nodes() == die_tree.number_of_nodes()
    assert back.graph["principal_variation"] == die_tree.graph["principal_variation"]
    assert back.nodes[0]["outcome"] == "" and back.nodes[0]["type"] == "chance"
    assert position_at(back, 3) == position_at(die_tree, 3)
    path = tmp_path / "tree.json"
    write_json(die_tree, path)
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(text)


def test_graphml_round_trip(tmp_path, opening_tree: nx.DiGraph) -> None:  # noqa: ANN001
    path = tmp_path / "tree.graphml"
    write_graphml(opening_tree, path)
    back = read_graphml(path)
    assert sorted(back.nodes) == sorted(opening_tree.nodes)
    assert back.graph["nodes_per_depth"] == opening_tree.graph["nodes_per_depth"]
    assert back.graph["principal_variation"] == opening_tree.graph["principal_variation"]
    for a, b in list(opening_tree.edges)[:50]:
        assert back.edges[a, b]["move"] == opening_tree.edges[a, b]["move"]
    node = next(iter(opening_tree.successors(0)))
    assert back.nodes[node]["position"] == opening_tree.nodes[node]["position"]
    assert back.nodes[node]["value"] == opening_tree.nodes[node]["value"]


# -- the interactive view -------------------------------------------------------------

def test_view_click_shows_the_position_and_the_moves_leading_there(
        opening_tree: nx.DiGraph) -> None:
    view = TreeView(opening_tree, expand_depth=1)
    # starts folded below the first layer
    assert all(n in view.collapsed for n in opening_tree.successors(0))
    assert view.canvas.svg.count("data-node=") == 1 + opening_tree.out_degree(0)
    child = next(iter(opening_tree.successors(0)))
    grandchild = next(iter(opening_tree.successors(child)))
    view.canvas.click = {"node": grandchild, "action": "select", "seq": 1}
    assert view.selected == grandchild
    moves = [opening_tree.edges[0, child]["move"], opening_tree.edges[child, grandchild]["move"]]
    assert view.path_text() == " ".join(moves)
    assert " ".join(moves) in view.info.value
    assert "e2-e4 d7-d5" in view.info.value          # the game's moves before the root
    assert view.board.value.startswith("<svg")
    classes = re.search(rf'<g class="([^"]*)" data-node="{grandchild}"', view.canvas.svg)
    assert classes and "selected" in classes.group(1).split()
    assert child not in view.collapsed                # selecting opened the way


def test_view_expand_collapse_and_pv(opening_tree: nx.DiGraph) -> None:
    view = TreeView(opening_tree, expand_depth=1)
    child = next(iter(opening_tree.successors(0)))
    before = view.canvas.svg.count("data-node=")
    view.canvas.click = {"node": child, "action": "toggle", "seq": 1}
    assert child not in view.collapsed
    assert view.canvas.svg.count("data-node=") == before + opening_tree.out_degree(child)
    view.canvas.click = {"node": child, "action": "toggle", "seq": 2}
    assert child in view.collapsed
    assert view.canvas.svg.count("data-node=") == before
    view.show_pv()
    pv_nodes = {n for n, d in opening_tree.nodes(data=True) if d.get("pv")}
    shown = {int(n) for n in re.findall(r'data-node="(\d+)"', view.canvas.svg)}
    assert pv_nodes <= shown
    assert len(shown) < opening_tree.number_of_nodes()
    view.canvas.click = {"node": 10 ** 9, "action": "select", "seq": 3}   # ignored
    assert view._repr_svg_().startswith("<svg")


def _marked_tree() -> nx.DiGraph:
    """The start's one-ply tree with every mark a drawing shows, set by hand."""
    G = build(Game(), 1, values=False)
    for n in G.nodes:
        G.nodes[n]["value"] = (n % 7 - 3) / 4
        G.nodes[n]["bound"] = ("exact", "lower", "upper")[n % 3]
    G.nodes[0]["pv"] = G.nodes[5]["pv"] = G.edges[0, 5]["pv"] = True
    G.nodes[7]["pruned"] = G.nodes[9]["cut"] = True
    G.nodes[11]["type"], G.nodes[11]["outcome"] = "terminal", "1-0"
    G.nodes[12]["type"], G.nodes[12]["outcome"] = "terminal", "1/2-1/2"
    return G


def _cut_die_tree() -> nx.DiGraph:
    """A die tree cut by ``max_nodes``: its cut nodes are drawn element by element."""
    with pytest.warns(TreeCutWarning):
        return build(Game("gavrilov-die-mate", DIE_POSITION), 3, max_nodes=2000)


#: SHA-256 of drawings as the drawing code wrote them before it was made faster (the
#: text it writes directly was checked against the element renderers' output then).
#: A drawing changed on purpose gets its new digest here, with the reason.
DRAWINGS = {
    # (since: a parent's plain edges one <path>, its principal-variation and faded edges
    # <line>s over them; the labels' text-anchor once on their group; the labels in the
    # layout's order. Same picture: nodes byte for byte, every label and edge segment
    # the same, Chromium's pixels the same but for antialiasing and the red line now
    # over its grey siblings where they leave their parent)
    "benchmark": "619308484717ae5e91cce35cc3ca19c4126d388bcab9165bc9d26aabb9a5087e",
    "die-folded": "76899be74d8dd5459bd2608ba42edb1e17035068a8fca792bfc256a7c359741a",
    "marked": "35e62fa63a29835edef4c46a4d0729875cb2e81ad5eb8a22177525ef17fa8eaf",
    "marked-no-values": "fb08907f54726879ca72d18adecea3053420c7f55f5896e0c6bf9c94bc0e8289",
    # die trees with values (chance diamonds written in one piece since), terminal
    # squares, skip faces, and cut nodes
    "die-values": "7c6b62b6c5e19e651781c1aa5fdfe5b584a129b02b3551a21d0168d48c1863f8",
    "die-skip-face": "11f542c3a77758fda83e6378141bfa4937481cfe1dd50d3b1a02478d1dbc7379",
    "die-mate-cut": "24f75a91c95c6ed0f79de593174f40ddf59e9f664a89692a5408410f98db58a5",
}


def test_drawings_stay_byte_for_byte_what_they_were() -> None:
    """The drawing writes a plain node in one piece and everything else element by
    element: both ways, and the layout under them, give the recorded bytes."""
    cases = {
        # the tree benchmark's 10,629 nodes: plain circles almost all
        "benchmark": (build(Game(position="4v3/8/8/1S6/3(P:K'sL)4/8/8/4V3 w - 0 1"), 3,
                            values=False), {}),
        "die-folded": (build(Game("gavrilov-die"), 2, values=False),
                       {"collapsed": [1, 3], "selected": 2}),
        "marked": (_marked_tree(), {"selected": 5}),
        "marked-no-values": (_marked_tree(), {"show_values": False, "show_moves": False}),
        "die-values": (build(Game("gavrilov-die", DIE_POSITION), 2), {}),
        "die-skip-face": (build(Game("gavrilov-die-skip-face", DIE_POSITION), 2),
                          {"show_moves": False}),
        "die-mate-cut": (_cut_die_tree(), {"selected": 3}),
    }
    for name, (G, options) in cases.items():
        digest = hashlib.sha256(draw_svg(G, **options).encode()).hexdigest()
        assert digest == DRAWINGS[name], name


#: SHA-256 of drawings whose layout lists parents before children (reversed, and by node
#: id), as a drawing that keeps every node's place in a dict writes them; the drawing reads
#: the children's places off a stack where the layout's post-order leaves them, and
#: these layouts take its other way.
REORDERED = {
    ("marked", "reversed"): "f34945eb420be3b6fcaed68c2604553d1edb2ac1d1dc3bb5578d02f86d57cbeb",
    ("marked", "by id"): "9b3abd911e6c2c9f4a2f50ca2505fe95f945d9b0197708636568506e7ea3a94f",
    ("die-values", "reversed"):
        "068fe4560313b91bebc7355b5cc6a56eb903cb3e3b7ebcc3125ff59f1c116d18",
    ("die-values", "by id"): "fb2f2084a51a59e45cd38eb087035221a30608cf88a84f7ed236066b3f8f06f9",
    ("die-folded", "reversed"):
        "d988a15609d37ef1235166e4c6b23918b515657783d22ec273d8601acb482180",
    ("die-folded", "by id"): "198e4ee70b5ae444c3862be9bdb113dec4491f9a8cd6640d0ba4916a9c32ce71",
    ("marked", "a leaf last"): "02b198baa3c70426007eab88e2249bd1725f9ab7985b534ee2f6c062a5d96754",
    ("die-values", "a leaf last"):
        "93ed5f0cb6ae2024d9c438f0e982d3e63b2fb7ae50f7abd9e5f67b75f61698dd",
    ("die-folded", "a leaf last"):
        "36faacf234ab09823d46683d32834e14f1d64a65f25fd38dee3c3731591a10a0",
}


def test_drawings_of_layouts_not_in_post_order_stay_what_they_were() -> None:
    """Edges, principal-variation and faded lines, folded nodes: the same bytes whatever
    order the layout lists its nodes in."""
    cases = {
        "marked": (_marked_tree(), {"selected": 5}),
        "die-values": (build(Game("gavrilov-die", DIE_POSITION), 2), {}),
        "die-folded": (build(Game("gavrilov-die"), 2, values=False), {"collapsed": [1, 3]}),
    }
    for name, (G, options) in cases.items():
        pos = layered_layout(G, collapsed=options.get("collapsed", ()))
        # (the layout's last leaf moved to its end: the parents before its own keep
        # the stack, the rest wait)
        leaf = [node for node in pos if not G.out_degree(node)][-1]
        for order, nodes in (("reversed", list(pos)[::-1]), ("by id", sorted(pos)),
                             ("a leaf last", [n for n in pos if n != leaf] + [leaf])):
            layout = {node: pos[node] for node in nodes}
            digest = hashlib.sha256(draw_svg(G, layout=layout, **options).encode()).hexdigest()
            assert digest == REORDERED[name, order], (name, order)
