"""The SVG drawings: structure, overlays, towers, themes, backends, die, animation, CLI.

Every picture is parsed with the standard library's XML parser and checked
element by element against the position it shows (the rules and the
position are the oracle, never a stored picture).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tavrei_lab import Game, Move, Roll, load_variant
from tavrei_lab.cli import main as cli_main
from tavrei_lab.core.tavrel import BLACK, HELGI, KINDS, WHITE
from tavrei_lab.errors import NotationError, RenderError, TavreiError
from tavrei_lab.render import (
    BIRCH,
    DEFAULT_GLYPHS,
    SLATE,
    DieFace,
    ElementTreeRenderer,
    Glyph,
    GlyphSet,
    Shape,
    SvgwriteRenderer,
    board_svg,
    describe_tavrel,
    die_svg,
    game_svg_animation,
    strip_layout,
)
from tavrei_lab.render.board import (
    MIN_STRIPE_PX,
    ROLE_LETTERS,
    SQUARE,
    kinds_in_play,
    strip_legend,
)
from tavrei_lab.render.glyphs import GLYPH_INSET

NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


# -- helpers ----------------------------------------------------------------------
def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def squares(root: ET.Element) -> dict[str, ET.Element]:
    """The square rects by name."""
    out = {}
    for el in root.iter(NS + "rect"):
        if "square" in classes(el):
            out[el.get("data-square")] = el
    return out


def towers(root: ET.Element) -> dict[str, ET.Element]:
    out = {}
    for el in root.iter(NS + "g"):
        if "tower" in classes(el):
            assert el.get("data-square") not in out, "two tower groups on one square"
            out[el.get("data-square")] = el
    return out


def layers(tower: ET.Element) -> list[ET.Element]:
    return [el for el in tower.iter() if el.get("data-layer") is not None]


def title_of(el: ET.Element) -> str:
    t = el.find(NS + "title")
    assert t is not None, "no <title>"
    return t.text or ""


def middlegame(games_data: dict, n: int = 10, ply: int = 34) -> Game:
    """Recorded game ``n`` replayed to ``ply`` (game 10 ply 34 has towers of 9 and 6)."""
    record = next(g for g in games_data["games"] if g["n"] == n)
    game = Game()
    game.play(" ".join(record["moves"][:ply]))
    return game


TALL = "(" + "P:Rp:R" * 15 + "P:R)" + "7/8/4v3/8/8/8/8/4V3 w - 0 1"   # a tower of 31 on a8


# -- the board --------------------------------------------------------------------
def test_every_square_has_its_rect_classes_and_colour() -> None:
    pos = Game().position
    g = pos.geometry
    root = parse(board_svg(pos))
    sq = squares(root)
    assert set(sq) == set(g.names)
    for s, name in enumerate(g.names):
        el = sq[name]
        shade = "light" if g.is_light(s) else "dark"
        assert classes(el) == {"square", shade, name}
        assert el.get("fill") == (BIRCH.light_square if shade == "light" else BIRCH.dark_square)
    # a1 dark, h1 light, a1 in the bottom left corner
    assert "dark" in classes(sq["a1"]) and "light" in classes(sq["h1"])
    assert float(sq["a1"].get("x")) < float(sq["h1"].get("x"))
    assert float(sq["a1"].get("y")) > float(sq["a8"].get("y"))


def test_flipped_puts_black_at_the_bottom() -> None:
    pos = Game().position
    sq = squares(parse(board_svg(pos, flipped=True)))
    assert float(sq["a1"].get("x")) > float(sq["h1"].get("x"))
    assert float(sq["a1"].get("y")) < float(sq["a8"].get("y"))
    xs = [float(e.get("x")) for e in sq.values()]
    ys = [float(e.get("y")) for e in sq.values()]
    assert (float(sq["h8"].get("x")), float(sq["h8"].get("y"))) == (min(xs), max(ys))


def test_coordinates_follow_the_orientation() -> None:
    pos = Game().position
    for flipped in (False, True):
        root = parse(board_svg(pos, flipped=flipped))
        coords = [el for el in root.iter(NS + "text") if "coord" in classes(el)]
        files = sorted((float(el.get("x")), el.text) for el in coords if el.text.isalpha())
        order = "".join(t for _, t in files)
        assert order == ("hgfedcba" if flipped else "abcdefgh")
    root = parse(board_svg(pos, coordinates=False))
    assert not [el for el in root.iter(NS + "text") if "coord" in classes(el)]


def test_one_tower_group_per_occupied_square_with_its_title(games_data: dict) -> None:
    game = middlegame(games_data)
    pos = game.position
    root = parse(board_svg(pos))
    found = towers(root)
    assert set(found) == set(pos.towers())
    heights = sorted((len(t) for t in pos.towers().values()), reverse=True)
    assert heights[:2] == [9, 6]
    for name, tower in pos.towers().items():
        el = found[name]
        assert el.get("data-height") == str(len(tower))
        text = title_of(el)
        assert text.startswith(name + ":")
        if len(tower) == 1:
            assert describe_tavrel(tower[0], pos.pieces) in text
            continue
        lines = text.split("\n")
        assert f"tower of {len(tower)}, bottom → top" in lines[0]
        assert lines[1:] == [f"{i}. {describe_tavrel(t, pos.pieces)}"
                             for i, t in enumerate(tower, 1)]
        # Russian and English names, in order, bottom first
        first = pos.pieces.by_kind[tower[0].kind]
        assert first.russian in lines[1] and first.english in lines[1]


def test_each_layer_of_a_strip_is_clickable_and_in_order(games_data: dict) -> None:
    pos = middlegame(games_data).position
    root = parse(board_svg(pos))
    for name, tower in pos.towers().items():
        found = layers(towers(root)[name])
        groups = [el for el in found if el.tag == NS + "g"]
        if len(tower) == 1:
            assert groups == []          # a lone tavrel has no strip: the tower is the target
            continue
        assert [int(el.get("data-layer")) for el in groups] == list(range(len(tower)))
        for el, t in zip(groups, tower):
            assert el.get("data-square") == name
            cls = classes(el)
            assert ("white" if t.color == WHITE else "black") in cls
            assert pos.pieces.by_kind[t.kind].name in cls
            letter = el.find(NS + "text").text
            assert letter == ROLE_LETTERS[t.acting_kind]  # the chess letter of its role
        # bottom layer lowest on screen within the first column
        ys = [float(el.find(NS + "rect").get("y")) for el in groups[:min(len(tower), 8)]]
        assert ys == sorted(ys, reverse=True) or strip_layout(len(tower)).columns > 1


def test_height_badge_on_tall_towers_only(games_data: dict) -> None:
    pos = middlegame(games_data).position
    root = parse(board_svg(pos))
    for name, tower in pos.towers().items():
        badge = [el for el in towers(root)[name].iter(NS + "text")
                 if "height-badge" in classes(el)]
        if len(tower) >= BIRCH.height_badge_from:
            assert [b.text for b in badge] == [str(len(tower))]
        else:
            assert badge == []


def test_a_tower_of_31_keeps_every_layer_inside_its_square() -> None:
    pos = Game("tavreli", TALL).position
    root = parse(board_svg(pos))
    tower = towers(root)["a8"]
    groups = [el for el in layers(tower) if el.tag == NS + "g"]
    assert len(groups) == 31
    a8 = squares(root)["a8"]
    x0, y0 = float(a8.get("x")), float(a8.get("y"))
    rects = [el.find(NS + "rect") for el in groups]
    boxes = [(float(r.get("x")), float(r.get("y")), float(r.get("width")),
              float(r.get("height"))) for r in rects]
    for x, y, w, h in boxes:
        assert x0 <= x and x + w <= x0 + SQUARE and y0 <= y and y + h <= y0 + SQUARE
        assert h >= 3.0                      # tall enough for its letter and colour
    # no two bands overlap
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert (a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1]
                    or b[1] + b[3] <= a[1])
    # the top tavrel's glyph stands right of the strip (its box may overlap the
    # strip only by the empty inset every glyph keeps at its left)
    use = [el for el in tower.iter(NS + "use")][0]
    transform = use.get("transform")
    tx = float(transform.split("(")[1].split(",")[0])
    scale = float(transform.split("scale(")[1].rstrip(")"))
    assert tx + GLYPH_INSET * scale >= max(x + w for x, _, w, _ in boxes) - 0.01
    assert tx + 38.5 * scale <= x0 + SQUARE and scale >= 0.55
    fills = {r.get("fill") for r in rects}
    assert fills == {BIRCH.white_fill, BIRCH.black_fill}
    assert "31" in [el.text for el in tower.iter(NS + "text")]


def test_strip_layout_columns() -> None:
    assert strip_layout(2).columns == 1
    assert strip_layout(8).columns == 1
    assert strip_layout(9).columns == 2
    assert strip_layout(31).columns == 3
    assert strip_layout(31).rows * 3 >= 31


def test_promoted_ratnik_shows_destiny_and_badge() -> None:
    pos = Game("tavreli", "4v2P:H*/8/8/8/8/8/8/4V3 b - 0 1").position
    assert pos.tower("h8")[-1].promoted
    root = parse(board_svg(pos))
    el = towers(root)["h8"]
    refs = [u.get(XLINK) for u in el.iter(NS + "use")]
    assert any(r.endswith("-helgi-w") for r in refs)
    assert any("-promoted-w" in r for r in refs)
    assert "promoted to helgi" in title_of(el) and "хелги" in title_of(el)
    defs = {d.get("id") for d in root.find(NS + "defs")}
    assert all(r[1:] in defs for r in refs)


# -- overlays ---------------------------------------------------------------------
def test_lastmove_and_selected_classes_and_fills() -> None:
    game = Game()
    move = game.push("e2-e4")
    root = parse(board_svg(game.position, lastmove=move, selected="d7"))
    sq = squares(root)
    assert "lastmove" in classes(sq["e2"]) and "lastmove" in classes(sq["e4"])
    assert sq["e4"].get("fill") == BIRCH.lastmove_light       # e4 is light
    assert sq["e2"].get("fill") == BIRCH.lastmove_light
    assert "selected" in classes(sq["d7"]) and sq["d7"].get("fill") == BIRCH.selected_light
    assert not any("lastmove" in classes(e) for n, e in sq.items() if n not in ("e2", "e4"))


def test_destinations_marked_by_what_they_land_on() -> None:
    # white vsadnik on d4: b5 empty, c6 enemy ratnik, e6 own ratnik (towers allowed)
    pos = Game("tavreli", "4v3/8/2p:R1P:R3/8/3S4/8/8/4V3 w - 0 1").position
    moves = [m for m in pos.rules.legal_moves(pos) if m.from_square == pos.geometry.parse("d4")]
    root = parse(board_svg(pos, selected="d4", destinations=moves))
    sq = squares(root)
    assert "dest-enemy" in classes(sq["c6"])
    assert "dest-own" in classes(sq["e6"])
    assert "dest-empty" in classes(sq["b5"])
    marks = {el.get("data-square"): classes(el) for el in root.iter()
             if "dest" in classes(el)}
    assert {pos.geometry.name(m.to_square) for m in moves} == set(marks)
    assert marks["c6"] >= {"dest", "dest-enemy"} and marks["e6"] >= {"dest", "dest-own"}
    assert root.find(f".//{NS}circle[@data-square='b5']") is not None   # a dot
    # the three kinds are drawn differently
    tags = {k: next(el.tag for el in root.iter() if {"dest", k} <= classes(el))
            for k in ("dest-empty", "dest-own", "dest-enemy")}
    assert len(set(tags.values())) == 3
    # squares given by name work as well
    root = parse(board_svg(pos, destinations=["b5", "c6"]))
    assert {"dest-empty"} <= classes(squares(root)["b5"])


def test_split_count_marks_the_taken_layers(games_data: dict) -> None:
    pos = middlegame(games_data).position
    name, tower = max(pos.towers().items(), key=lambda kv: len(kv[1]))
    root = parse(board_svg(pos, selected=name, split_count=3))
    groups = [el for el in layers(towers(root)[name]) if el.tag == NS + "g"]
    taken = [int(el.get("data-layer")) for el in groups if "taken" in classes(el)]
    assert taken == list(range(len(tower) - 3, len(tower)))
    badge = [el for el in root.iter(NS + "g") if "split-count" in classes(el)]
    assert len(badge) == 1 and badge[0].get("data-count") == "3"
    assert badge[0].get("data-square") == name
    with pytest.raises(RenderError, match="take 1"):
        board_svg(pos, selected=name, split_count=len(tower) + 1)
    with pytest.raises(RenderError, match="selected"):
        board_svg(pos, split_count=1)


def test_check_is_found_by_the_rules_or_given() -> None:
    game = Game()
    game.play("e2-e4 f7-f5 d1-h5")        # the white knyaz checks the black volkhv on e8
    pos = game.position
    assert pos.rules.is_check(pos)
    root = parse(board_svg(pos))
    assert "check" in classes(squares(root)["e8"])
    glow = [el for el in root.iter(NS + "rect") if "check-glow" in classes(el)]
    assert [g.get("data-square") for g in glow] == ["e8"]
    assert glow[0].get("fill").startswith("url(#")
    root = parse(board_svg(pos, check=False))
    assert not any("check" in classes(e) for e in squares(root).values())
    root = parse(board_svg(Game().position, check=True))
    assert "check" in classes(squares(root)["e1"])
    # no check at the start:
    assert not any("check" in classes(e)
                   for e in squares(parse(Game()._repr_svg_())).values())


def test_attacked_squares_are_those_the_rules_name() -> None:
    game = Game()
    game.play("e2-e4 d7-d5")
    pos = game.position
    for side in (WHITE, BLACK, "black"):
        color = 1 if side == "black" else side
        root = parse(board_svg(pos, attacked_by=side))
        shaded = {n for n, e in squares(root).items() if "attacked" in classes(e)}
        expected = {pos.geometry.name(s) for s in range(64)
                    if pos.rules.is_attacked(pos, s, color)}
        assert shaded == expected and shaded
        marks = {el.get("data-square") for el in root.iter(NS + "rect")
                 if "attacked-mark" in classes(el)}
        assert marks == expected
    with pytest.raises(RenderError, match="attacked_by"):
        board_svg(pos, attacked_by=2)


def test_arrows_and_circles() -> None:
    pos = Game().position
    root = parse(board_svg(pos, arrows=[("e2", "e4"), (6, 21, "red"), ("d4", "d4", "#123456")]))
    arrows = [el for el in root.iter(NS + "g") if "arrow" in classes(el)]
    assert [(a.get("data-from"), a.get("data-to")) for a in arrows] == [
        ("e2", "e4"), ("g1", "f3"), ("d4", "d4")]
    assert arrows[0].find(NS + "polygon").get("fill") == BIRCH.arrow_color("green")
    assert arrows[1].find(NS + "line").get("stroke") == BIRCH.arrow_color("red")
    assert arrows[2].find(NS + "circle").get("stroke") == "#123456"
    with pytest.raises(RenderError, match="arrows"):
        board_svg(pos, arrows=[("e2",)])


def test_die_face_beside_the_board() -> None:
    game = Game("gavrilov-die", seed=3)
    face = game.roll()
    root = parse(board_svg(game.position))           # the pending roll is shown by itself
    dice = [el for el in root.iter(NS + "g") if "die" in classes(el)]
    assert [d.get("data-face") for d in dice] == [face]
    root = parse(board_svg(Game("orthodox").position, die_face="skip"))
    die = next(el for el in root.iter(NS + "g") if "die" in classes(el))
    assert "skip" in classes(die) and die.find(NS + "circle") is not None
    # the absent type (the bishop on 6x6) shows its piece and a slash: it passes
    root = parse(board_svg(Game("gavrilov-die").position, die_face="B"))
    die = next(el for el in root.iter(NS + "g") if "die" in classes(el))
    assert "skip" in classes(die) and die.find(NS + "line") is not None
    with pytest.raises(RenderError, match="die face"):
        board_svg(Game("orthodox").position, die_face="Z")


def test_a_skip_roll_is_drawn_as_the_skip_face_after_the_turn_passed() -> None:
    """White rolls the absent bishop, the turn passes, and the die column must not
    show a plain bishop face (the skip was "@B" in the move list only)."""
    from tavrei_lab.widgets import Board
    game = Game("gavrilov-die", seed=1)
    game.apply_roll("B")                        # skip: black to roll now
    assert game.position.turn == 1 and game.position.roll is None
    for svg in (board_svg(game.position, die_panel=True, other_roll=(0, "B")),
                Board(game).view.svg):          # the picture and the live board
        root = parse(svg)
        die = next(el for el in root.iter(NS + "g") if "previous" in classes(el))
        assert die.get("data-face") == "B" and die.get("data-color") == "white"
        assert "skip" in classes(die) and die.find(NS + "line") is not None
        assert "passes the turn" in die.find(NS + "title").text
    # a face that let white move stays a plain face
    game = Game("gavrilov-die", seed=1)
    game.apply_roll("N")
    game.push(next(iter(game.legal_moves())))
    root = parse(Board(game).view.svg)
    die = next(el for el in root.iter(NS + "g") if "previous" in classes(el))
    assert die.get("data-face") == "N" and "skip" not in classes(die)
    assert die.find(NS + "line") is None


# -- bad input ---------------------------------------------------------------------
def test_bad_input_raises_specific_errors() -> None:
    pos = Game().position
    before = pos.string
    with pytest.raises(NotationError, match="selected"):
        board_svg(pos, selected="z9")
    with pytest.raises(NotationError, match="off the 8x8 board"):
        board_svg(pos, destinations=[64])
    with pytest.raises(RenderError, match="unknown drawing option"):
        board_svg(pos, colour="red")
    with pytest.raises(RenderError, match="glyph_family"):
        board_svg(pos, glyph_family="xiangqi")
    with pytest.raises(RenderError, match="lastmove"):
        board_svg(pos, lastmove="e2e4")
    with pytest.raises(RenderError, match="size"):
        board_svg(pos, size=0)
    with pytest.raises(RenderError, match="unknown theme option"):
        BIRCH.replace(nonsense=1)
    assert all(issubclass(e, TavreiError) for e in (RenderError, NotationError))
    assert pos.string == before


# -- glyphs and themes ---------------------------------------------------------------
def test_every_kind_has_its_own_glyph_in_both_families() -> None:
    for family in ("tavreli", "orthodox"):
        shapes = [DEFAULT_GLYPHS.glyph(family, k).shapes for k in KINDS]
        names = [DEFAULT_GLYPHS.glyph(family, k).name for k in KINDS]
        assert len(set(names)) == len(KINDS)
        assert len(set(shapes)) == len(KINDS)
    assert DEFAULT_GLYPHS.glyph("tavreli", HELGI).shapes != DEFAULT_GLYPHS.glyph(
        "tavreli", 5).shapes


def test_variants_pick_their_glyph_family() -> None:
    assert GlyphSet.family_for(Game().rules.pieces) == "tavreli"
    assert GlyphSet.family_for(Game("orthodox").rules.pieces) == "orthodox"
    svg = board_svg(Game("orthodox").position)
    assert "-queen-w" in svg and "-knyaz-w" not in svg
    svg = board_svg(Game("gavrilov-die").position)
    assert "-queen-w" in svg
    svg = board_svg(Game().position)
    assert "-volkhv-w" in svg and "-knyaz-b" in svg
    svg = board_svg(Game().position, glyph_family="orthodox")
    assert "-king-w" in svg


def test_theme_swaps_colours_and_glyphs() -> None:
    pos = Game().position
    sq = squares(parse(board_svg(pos, theme=SLATE)))
    assert sq["a1"].get("fill") == SLATE.dark_square
    sq = squares(parse(board_svg(pos, dark_square="#123456")))
    assert sq["a1"].get("fill") == "#123456"
    star = Glyph("star", (Shape("path", (("d", "M22 5 L30 40 L5 17 H40 L14 40 Z"),)),))
    theme = BIRCH.replace(glyphs=DEFAULT_GLYPHS.with_glyph("tavreli", 1, star))
    svg = board_svg(pos, theme=theme)
    assert "M22 5 L30 40 L5 17 H40 L14 40 Z" in svg and "-star-w" in svg
    # two themes never share element ids (two boards inline on one page)
    assert BIRCH.key != SLATE.key != theme.key
    # a glyph set without a picture the position needs says which
    bare = GlyphSet("bare", tuple((k, g) for k, g in DEFAULT_GLYPHS.glyphs
                                  if k != ("tavreli", 1)), DEFAULT_GLYPHS.promoted_badge)
    with pytest.raises(RenderError, match="no tavreli glyph for kind 1"):
        board_svg(pos, theme=BIRCH.replace(glyphs=bare))


# -- backends ----------------------------------------------------------------------
def _value(text: str) -> object:
    try:
        return float(text)
    except ValueError:
        return text


def canonical(el: ET.Element) -> tuple:
    attrs = {k: _value(v) for k, v in el.attrib.items() if k not in ("baseProfile", "version")}
    kids = [canonical(c) for c in el if not (c.tag == NS + "defs" and len(c) == 0)]
    return (el.tag, sorted(attrs.items()), (el.text or "").strip(), kids)


def same(a: tuple, b: tuple, where: str = "") -> None:
    """Two canonical trees are one picture: numbers may differ below 0.001 units
    (one backend writes 3 decimals, svgwrite writes every digit)."""
    assert a[0] == b[0] and a[2] == b[2], where
    assert [k for k, _ in a[1]] == [k for k, _ in b[1]], (where, a[1], b[1])
    for (k, x), (_, y) in zip(a[1], b[1]):
        if isinstance(x, float) and isinstance(y, float):
            assert math.isclose(x, y, abs_tol=1e-3), (where, k, x, y)
        else:
            assert x == y, (where, k, x, y)
    assert len(a[3]) == len(b[3]), where
    for i, (p, q) in enumerate(zip(a[3], b[3])):
        same(p, q, f"{where}/{i}")


def test_backends_draw_the_same_document(games_data: dict) -> None:
    pos = middlegame(games_data).position
    kwargs = dict(selected="e1", arrows=[("a1", "h8")], attacked_by=0)
    fast = board_svg(pos, **kwargs)
    slow = board_svg(pos, backend=lambda *a: SvgwriteRenderer(*a, serializer="svgwrite"),
                     **kwargs)
    etree = board_svg(pos, backend="etree", **kwargs)
    same(canonical(parse(fast)), canonical(parse(slow)))
    same(canonical(parse(fast)), canonical(parse(etree)))
    # the second drawing reuses the cached definitions, and they are the same
    assert board_svg(pos, **kwargs) == fast
    assert isinstance(ElementTreeRenderer(10, 10, (0, 0, 10, 10)).to_string(), str)


def test_special_characters_are_escaped() -> None:
    svg = board_svg(Game().position, css_class='a"b<c&d', arrows=[("e2", "e4", "#abc")])
    root = parse(svg)
    assert root.get("class") == 'tavrei-board a"b<c&d'


# -- Jupyter ---------------------------------------------------------------------
def test_position_and_game_draw_themselves() -> None:
    game = Game()
    parse(game.position._repr_svg_())
    move = game.push("g1-f3")
    root = parse(game._repr_svg_())
    sq = squares(root)
    assert "lastmove" in classes(sq["g1"]) and "lastmove" in classes(sq["f3"])
    assert move == Move(6, 1, 21)


def test_a_roll_draws_itself_as_its_die_face() -> None:
    root = parse(Roll("N")._repr_svg_())
    assert any(u.get(XLINK, "").endswith("-die-knight") for u in root.iter(NS + "use"))


def test_pictures_come_from_painters_render_registers() -> None:
    """The model asks core.pictures; without a painter for its kind there is no picture."""
    from tavrei_lab.core import pictures
    saved = dict(pictures._PAINTERS)
    try:
        pictures._PAINTERS.clear()
        assert Game().position._repr_svg_() is None and Game()._repr_svg_() is None
    finally:
        pictures._PAINTERS.update(saved)
    assert Game().position._repr_svg_().startswith("<svg")


def test_die_faces_draw_themselves() -> None:
    for face in ("K", "Q", "R", "B", "N", "P", "-", "skip"):
        root = parse(die_svg(face))
        die = next(el for el in root.iter(NS + "g") if "die" in classes(el))
        assert die.get("data-face") == ("skip" if face in ("-", "skip") else face)
    root = parse(DieFace("N")._repr_svg_())
    assert any(u.get(XLINK, "").endswith("-die-knight") for u in root.iter(NS + "use"))
    assert DieFace("-").is_skip and not DieFace("Q").is_skip
    assert DieFace("B", passes=True).is_skip
    with pytest.raises(RenderError):
        DieFace("Z")


# -- animation ----------------------------------------------------------------------
def test_game_animation_has_a_frame_per_position() -> None:
    game = Game()
    game.play("e2-e4 d7-d5 e4-d5 d8-d5")
    root = parse(game_svg_animation(game))
    frames = [el for el in root if "frame" in classes(el)]
    assert len(frames) == len(game.positions) == 5
    for k, (frame, pos) in enumerate(zip(frames, game.positions)):
        assert frame.get("data-ply") == str(k)
        assert set(towers(frame)) == set(pos.towers())
        anim = frame.find(NS + "animate")
        assert anim is not None and anim.get("attributeName") == "visibility"
    assert [f.get("visibility") for f in frames] == ["hidden"] * 4 + ["visible"]
    last = squares(frames[-1])
    assert "lastmove" in classes(last["d8"]) and "lastmove" in classes(last["d5"])
    assert towers(frames[3])["d5"].get("data-height") == "2"   # the ratnik took prisoner


def test_game_frames_grid_and_die_rolls() -> None:
    game = Game("gavrilov-die-skip-face", seed=1)
    for _ in range(6):
        if game.is_chance_node():
            game.roll()
        else:
            game.push(game.legal_moves()[0])
    root = parse(game_svg_animation(game, mode="frames", columns=3))
    frames = [el for el in root if "frame" in classes(el)]
    assert len(frames) == 7
    xs = {f.get("transform") for f in frames}
    assert len(xs) == 7                                        # each frame in its own cell
    for k, action in enumerate(game.history, 1):
        dice = [el for el in frames[k].iter(NS + "g") if "die" in classes(el)]
        if hasattr(action, "face"):
            assert [d.get("data-face") for d in dice] == [action.face.upper()
                                                          if action.face.isalpha() else "skip"]
    with pytest.raises(RenderError, match="mode"):
        game_svg_animation(game, mode="gif")


# -- the command line ---------------------------------------------------------------
def test_cli_svg_writes_the_position(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    assert cli_main(["svg", "--moves", "e2-e4 e7-e5", "--flip", "--out", str(out)]) == 0
    root = parse(out.read_text(encoding="utf-8"))
    assert root.get("data-flipped") == "true"
    assert "lastmove" in classes(squares(root)["e5"])
    out2 = tmp_path / "ortho.svg"
    assert cli_main(["svg", "--variant", "orthodox", "--position",
                     "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "--out", str(out2)]) == 0
    assert set(towers(parse(out2.read_text()))) == {"e8", "e1", "h1"}
    out3 = tmp_path / "game.svg"
    assert cli_main(["svg", "--moves", "e2-e4", "--game", "--out", str(out3)]) == 0
    assert len([el for el in parse(out3.read_text()) if "frame" in classes(el)]) == 2


def test_cli_svg_reports_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "x.svg"
    assert cli_main(["svg", "--moves", "e2-e9", "--out", str(out)]) == 2
    assert "e9" in capsys.readouterr().err
    assert not out.exists()
    assert cli_main(["svg", "--frames", "--out", str(out)]) == 2


# -- legible strips (projector), highlights, the die's column --------------------------
@pytest.mark.parametrize("height_fen", [
    TALL, "rslkvlsr/p:Rp:Sp:Lp:K1p:Lp:Sp:R/8/8/3(P:Kp:KP:Kp:KP:Kp:KP:Kp:KP:Kk)(p:HP:H)3/8/"
          "P:RP:SP:L2P:LP:SP:R/RSLKVLSR w - 0 1"])
def test_legible_strip_letters_keep_their_size_and_every_layer_stays(height_fen: str) -> None:
    pos = Game("tavreli", height_fen).position
    size = 520
    svg = board_svg(pos, size=size, letter_px=14)
    root = parse(svg)
    scale = size / float(root.get("viewBox").split()[2])
    for name, tower in pos.towers().items():
        if len(tower) == 1:
            continue
        group = towers(root)[name]
        found = [el for el in layers(group) if el.tag == NS + "g"]
        assert sorted(int(el.get("data-layer")) for el in found) == list(range(len(tower)))
        letters = [el.find(NS + "text") for el in found if el.find(NS + "text") is not None]
        assert letters, "the top layers are lettered"
        for text in letters:
            assert float(text.get("font-size")) * scale >= 14 - 1e-6
        # the top tavrel's letter is there, its role's chess letter
        top = max(found, key=lambda el: int(el.get("data-layer")))
        assert top.find(NS + "text").text == ROLE_LETTERS[tower[-1].acting_kind]
        sq = squares(root)[name]
        x0, y0 = float(sq.get("x")), float(sq.get("y"))
        boxes = [(float(r.get("x")), float(r.get("y")), float(r.get("width")),
                  float(r.get("height"))) for r in (el.find(NS + "rect") for el in found)]
        for x, y, w, h in boxes:
            assert x0 <= x and x + w <= x0 + SQUARE + 1e-6
            assert y0 <= y and y + h <= y0 + SQUARE + 1e-6
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert (a[1] + a[3] <= b[1] + 1e-6 or b[1] + b[3] <= a[1] + 1e-6
                        or a[0] + a[2] <= b[0] + 1e-6 or b[0] + b[2] <= a[0] + 1e-6)
        # bottom to top: a higher layer is drawn higher up in its column, and the
        # columns of stripes are read left to right
        by_layer = sorted(found, key=lambda el: int(el.get("data-layer")))
        rects = [el.find(NS + "rect") for el in by_layer]
        for lower, upper in zip(rects, rects[1:]):
            (xl, yl), (xu, yu) = ((float(r.get("x")), float(r.get("y"))) for r in (lower, upper))
            assert yu < yl or xu > xl
        # the strip is one column: the top tavrel keeps most of the square
        use = next(iter(group.iter(NS + "use")))
        assert float(use.get("transform").split("scale(")[1].rstrip(")")) >= 0.8
    with pytest.raises(RenderError, match="letter_px"):
        board_svg(pos, letter_px=0)


def tall_tower(height: int) -> str:
    """A position with a tower of ``height`` (white and black ratniks alternating, a black
    knyaz on top) on e4, a light square, and the same on d4, a dark one."""
    tower = "(" + "".join("P:K" if i % 2 == 0 else "p:K" for i in range(height - 1)) + "k)"
    return f"4v3/8/8/8/3{tower}{tower}3/8/8/4V3 w - 0 1"


@pytest.mark.parametrize("letter_px, size", [(14, 515), (12, 470)])
@pytest.mark.parametrize("height", [5, 10, 12, 16, 20, 25])
def test_every_layer_of_a_tall_tower_keeps_a_stripe_one_can_count(height: int, letter_px: int,
                                                                   size: int) -> None:
    # in a tower of 10, 2.6 px stripes for the eight lower layers run together into a
    # hatching: each must be at least MIN_STRIPE_PX high (with a gap),
    # the stripes standing in columns when one would be thinner
    pos = Game("tavreli", tall_tower(height)).position
    root = parse(board_svg(pos, size=size, letter_px=letter_px))
    scale = size / float(root.get("viewBox").split()[2])
    for name in ("d4", "e4"):
        found = [el for el in layers(towers(root)[name]) if el.tag == NS + "g"]
        assert len(found) == height
        stripes = [el for el in found if "stripe" in classes(el)]
        lettered = [el for el in found if el.find(NS + "text") is not None]
        assert len(stripes) + len(lettered) == height and len(lettered) >= 1
        if height <= 12:
            assert len(lettered) >= 2, "a tower of up to 12 keeps its top two letters"
        pitch: dict[float, list[float]] = {}
        for el in stripes:
            rect = el.find(NS + "rect")
            pitch.setdefault(float(rect.get("x")), []).append(float(rect.get("y")))
            assert float(rect.get("height")) * scale >= MIN_STRIPE_PX * 0.7
        for ys in pitch.values():
            ys.sort()
            assert all((b - a) * scale >= MIN_STRIPE_PX - 1e-6 for a, b in zip(ys, ys[1:]))
        assert len(pitch) <= 3


def test_strip_legend_names_every_letter() -> None:
    legend = strip_legend(Game().rules.pieces)
    assert [letter for letter, _ in legend] == ["K", "Q", "R", "B", "N", "P", "H"]
    assert {kind.name for _, kind in legend} == {"volkhv", "knyaz", "ratoborets", "luchnik",
                                                 "vsadnik", "ratnik", "helgi"}


def letters_in_play(game: Game) -> str:
    position = game.position
    return "".join(letter for letter, _ in strip_legend(position.pieces, kinds_in_play(position)))


@pytest.mark.parametrize("game, letters", [
    # reported: the legend listed the helgi (and orthodox's unused amazon) everywhere
    (Game(), "KQRBNPH"),                                  # the e-file ratniks' destiny: helgi
    (Game("orthodox"), "KQRBNP"),                         # promotion by choice: Q, R, B, N
    (Game("gavrilov-die"), "KQRNP"),                      # 6x6: no luchnik, no helgi
    (Game("gavrilov-die-8x8"), "KQRBNP"),
    (Game(load_variant("tavreli", promotion="queen")), "KQRBNP"),
    (Game(load_variant("tavreli", promotion="choice", promotion_choices="rook,helgi")),
     "KQRBNPH"),
    (Game(load_variant("tavreli", promotion="choice", promotion_choices="rook,knight")),
     "KQRBNP"),
    (Game("tavreli", "4v3/8/8/8/3(LsR)4/8/8/6V1 w - 0 1"), "KRBN"),   # a puzzle: no ratniks
    (Game("tavreli", "4v3/8/8/8/3P:L4/8/8/4V3 w - 0 1"), "KBP"),     # a ratnik bound for luchnik
    (Game("tavreli", "4v2P:H*/8/8/8/8/8/8/4V3 b - 0 1"), "KPH"),     # a helgi: demoted, a ratnik
])
def test_the_legend_lists_only_the_kinds_that_can_occur(game: Game, letters: str) -> None:
    assert letters_in_play(game) == letters


def test_highlights_tint_squares_and_refuse_bad_ones() -> None:
    root = parse(board_svg(Game().position, highlights=["e4", ("d5", "red")]))
    marks = {el.get("data-square"): el.get("fill") for el in root.iter(NS + "rect")
             if "highlight-mark" in classes(el)}
    assert marks == {"e4": BIRCH.arrow_color("yellow"), "d5": BIRCH.arrow_color("red")}
    with pytest.raises(TavreiError, match="highlights"):
        board_svg(Game().position, highlights=["i9"])


def test_the_die_column_can_be_kept_so_the_board_never_changes_width() -> None:
    game = Game("gavrilov-die", seed=3)
    before = parse(board_svg(game.position, die_panel=True))
    game.roll()
    after = parse(board_svg(game.position, die_panel=True))
    assert before.get("viewBox") == after.get("viewBox")
    assert before.get("width") == after.get("width")


def test_a_lone_tavrel_has_no_split_pill() -> None:
    root = parse(board_svg(Game().position, selected="e2", split_count=1))
    assert not [el for el in root.iter(NS + "g") if "split-count" in classes(el)]


def test_every_svg_function_returns_text_a_notebook_shows_as_a_picture() -> None:
    """A cell ending in board_svg(...) shows the board, not SVG markup."""
    from tavrei_lab import Game
    from tavrei_lab.render import SVG, board_svg, die_svg, game_svg_animation
    from tavrei_lab.render.board import tavrel_svg
    from tavrei_lab.render.tree import draw_svg
    from tavrei_lab.tree import build

    game = Game()
    game.play("e2-e4")
    pictures = [board_svg(game.position), die_svg("Q"), game_svg_animation(game),
                draw_svg(build(Game(), 1)), tavrel_svg(1, 0, game.position.rules.pieces)]
    for svg in pictures:
        assert isinstance(svg, SVG) and isinstance(svg, str)
        shown = svg._repr_svg_()
        assert type(shown) is str and shown == svg and shown.startswith("<svg")


def test_a_picture_spells_out_every_layer_of_a_tall_tower_under_the_board() -> None:
    """A static picture (tutorials, the editor, a squares puzzle) has no
    inspector, and its strip drew a tower of 8 in 4.7-unit letters (5.6 px). Its tower key
    lists each layer bottom to top at 10 units (12 px at the default 1.2 px a unit)."""
    import base64

    from tavrei_lab.render.board import TOWER_KEY_LETTER
    from tavrei_lab.render.tree import _thumbnail
    from tavrei_lab.tree import build
    from tavrei_lab.widgets.drawing import DEFAULT_LETTER_PX, draw
    text = "4v3/8/8/3(RSLKP:KsP:Lk)4/2(P:Kp:LS)1(RS)3/8/8/4V3 w - 0 1"
    game = Game(position=text)
    svg = board_svg(game.position)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    rows: dict[str, list[tuple[int, str, str]]] = {}
    for el in root.iter(ns + "g"):
        if "key-layer" in (el.get("class") or ""):
            letter = el.find(ns + "text")
            assert letter is not None and float(letter.get("font-size")) >= TOWER_KEY_LETTER
            rows.setdefault(el.get("data-key-square"), []).append(
                (int(el.get("data-key-layer")), letter.text or "", el.get("class").split()[1]))
    assert list(rows) == ["d5", "c4"]             # read from the top left; e4's 2 needs none
    assert [letter for _i, letter, _c in sorted(rows["d5"])] == list("RNBQPNPQ")
    assert [c for _i, _l, c in sorted(rows["d5"])] == ["white"] * 5 + ["black", "white",
                                                                        "black"]
    width = float(root.get("width"))
    vb_w = float(root.get("viewBox").split()[2])
    assert TOWER_KEY_LETTER * width / vb_w >= 12        # CSS px at the default size
    plain = ET.fromstring(board_svg(Game().position))    # no tower of 3: no key, square
    assert float(plain.get("height")) == float(plain.get("width"))
    assert float(root.get("height")) > float(root.get("width"))
    russian = board_svg(game.position, language="ru")
    assert "key-layer" in russian and ">Р<" in russian
    # the boards with an inspector or a shelf draw none; a tree's thumbnail neither
    assert "key-layer" not in draw(game, letter_px=DEFAULT_LETTER_PX)
    assert "key-layer" not in board_svg(game.position, tower_key=False)
    tree = build(game, 0)
    from tavrei_lab.tree.nodes import position_at
    thumb = base64.b64decode(_thumbnail(tree, 0, position_at(tree, 0)).split(",", 1)[1]).decode()
    assert "tower" in thumb and "key-layer" not in thumb


@pytest.mark.parametrize("height", [9, 12])
def test_a_tall_tower_s_height_badge_is_read_at_projector_size(height: int) -> None:
    """A tall tower's lower layers are stripes at projector size; its height badge is
    what is read of them from the back of a room: at least as large as the letters."""
    from tavrei_lab.session.drawing import PROJECTOR_LETTER_PX, PROJECTOR_SIZE
    layers = "".join("P:K" if i % 2 == 0 else "p:K" for i in range(height - 1))
    game = Game("tavreli", f"v7/8/8/4({layers}K)3/8/8/8/4V3 w - 0 1")
    root = ET.fromstring(board_svg(game.position, size=PROJECTOR_SIZE,
                                   letter_px=PROJECTOR_LETTER_PX))
    px = PROJECTOR_SIZE / float(root.get("viewBox", "").split()[2])
    tower = next(g for g in root.iter("{http://www.w3.org/2000/svg}g")
                 if g.get("data-square") == "e5" and "tower" in g.get("class", ""))
    badge = next(t for t in tower.iter("{http://www.w3.org/2000/svg}text")
                 if "height-badge" in t.get("class", ""))
    letters = [float(t.get("font-size", 0)) * px
               for t in tower.iter("{http://www.w3.org/2000/svg}text")
               if "height-badge" not in t.get("class", "")]
    assert badge.text == str(height)
    assert float(badge.get("font-size", 0)) * px >= max(12.0, min(letters)) - 0.01
