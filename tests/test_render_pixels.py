"""Boards rasterised by a real browser: the pixels a learner sees.

Chromium (Debian's ``/usr/bin/chromium``; ``make test`` installs it) takes a
screenshot of an SVG written by ``board_svg``; Pillow reads the pixels.
Where to look comes from the SVG itself (square and band rectangles), what
colour to expect from the theme -- so the test checks that the drawing really
shows what its markup claims: a known square in its colour, destinations
visibly marked, every band of a tower of 31 in its tavrel's colour.
"""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from tavrei_lab import Game
from tavrei_lab.render import BIRCH, board_svg
from tavrei_lab.render.board import SQUARE
from tests.conftest import CHROMIUM

# Without Chromium, tests/conftest.py skips these (and fails them under CI=true).
pytestmark = pytest.mark.browser

NS = "{http://www.w3.org/2000/svg}"
SCALE = 3            # pixels per drawing unit: a square is 135 px
TOLERANCE = 8        # per channel, for anti-aliasing and rounding

# A tower of 31 (white and black ratniks alternating, a white one on top) on a8;
# a white vsadnik on d4 that can go to an empty square, onto an enemy ratnik
# (c6) and onto an own ratnik (e6).
POSITION = ("(" + "P:Rp:R" * 15 + "P:R)" + "3v3/8/2p:R1P:R3/8/3S4/8/8/4V3 w - 0 1")


def rgb(color: str) -> tuple[int, int, int]:
    color = color.lstrip("#")
    return tuple(int(color[i:i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


def blend(top: str, bottom: str, alpha: float) -> tuple[int, int, int]:
    a, b = rgb(top), rgb(bottom)
    return tuple(round(x * alpha + y * (1 - alpha)) for x, y in zip(a, b))  # type: ignore


def near(pixel: tuple[int, ...], expected: tuple[int, int, int],
         tolerance: int = TOLERANCE) -> bool:
    return all(abs(p - e) <= tolerance for p, e in zip(pixel[:3], expected))


def screenshot(svg: str, tmp_path: Path) -> tuple[object, ET.Element]:
    """Rasterise ``svg`` at its own size; return the image and the parsed SVG."""
    root = ET.fromstring(svg)
    width, height = round(float(root.get("width"))), round(float(root.get("height")))
    src, png = tmp_path / "board.svg", tmp_path / "board.png"
    src.write_text(svg, encoding="utf-8")
    cmd = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
           "--force-device-scale-factor=1", f"--user-data-dir={tmp_path / 'profile'}",
           f"--window-size={width},{height}", f"--screenshot={png}", src.as_uri()]
    subprocess.run(cmd, check=True, timeout=90, capture_output=True)
    image = Image.open(png).convert("RGB")
    assert image.size == (width, height)
    return image, root


@pytest.fixture(scope="module")
def shot(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, ET.Element, object]:
    game = Game("tavreli", POSITION)
    pos = game.position
    d4 = pos.geometry.parse("d4")
    moves = [m for m in pos.rules.legal_moves(pos) if m.from_square == d4]
    svg = board_svg(pos, selected="d4", destinations=moves, lastmove=("h2", "h3"),
                    coordinates=False, die_face="skip", size=(8 * SQUARE + SQUARE * 1.4) * SCALE)
    image, root = screenshot(svg, tmp_path_factory.mktemp("pixels"))
    return image, root, pos


def square_box(root: ET.Element, name: str) -> tuple[float, float]:
    el = root.find(f".//{NS}rect[@data-square='{name}']")
    assert el is not None and "square" in el.get("class")
    return float(el.get("x")), float(el.get("y"))


def pixel(image: object, x: float, y: float) -> tuple[int, int, int]:
    """The pixel at drawing units (x, y)."""
    return image.getpixel((int(x * SCALE), int(y * SCALE)))  # type: ignore[attr-defined]


def test_known_squares_have_their_colours(shot: tuple) -> None:
    image, root, _ = shot
    for name, color in (("h5", BIRCH.light_square), ("g5", BIRCH.dark_square),
                        ("a1", BIRCH.dark_square), ("b1", BIRCH.light_square)):
        x, y = square_box(root, name)
        assert near(pixel(image, x + SQUARE / 2, y + SQUARE / 2), rgb(color)), name
    # the last move's squares and the selected square are recoloured
    x, y = square_box(root, "h3")       # h3 is a light square
    assert near(pixel(image, x + SQUARE / 2, y + SQUARE / 2), rgb(BIRCH.lastmove_light))
    x, y = square_box(root, "d4")       # under the tower: look at the square's corner
    assert near(pixel(image, x + 1, y + 1), rgb(BIRCH.selected_dark))


def test_destinations_are_visibly_marked(shot: tuple) -> None:
    image, root, pos = shot
    plain = {"light": BIRCH.light_square, "dark": BIRCH.dark_square}

    def shade(name: str) -> str:
        return plain["light" if pos.geometry.is_light(pos.geometry.parse(name)) else "dark"]

    # onto an empty square: a dot in the middle
    x, y = square_box(root, "b5")
    centre = pixel(image, x + SQUARE / 2, y + SQUARE / 2)
    assert near(centre, blend(BIRCH.dest_empty, shade("b5"), 0.7))
    assert not near(centre, rgb(shade("b5")), 40)
    # a square the vsadnik cannot reach stays plain
    x, y = square_box(root, "d5")
    assert near(pixel(image, x + SQUARE / 2, y + SQUARE / 2), rgb(shade("d5")))
    # onto the enemy ratnik: red corner wedges
    x, y = square_box(root, "c6")
    assert near(pixel(image, x + 2, y + 2), blend(BIRCH.dest_enemy, shade("c6"), 0.85))
    assert near(pixel(image, x + SQUARE - 2, y + SQUARE - 2),
                blend(BIRCH.dest_enemy, shade("c6"), 0.85))
    # onto the own ratnik: a blue "+" disc in the lower right corner, nothing round it
    x, y = square_box(root, "e6")
    assert near(pixel(image, x + SQUARE - 8 - 3.5, y + SQUARE - 8 - 3.5),
                blend(BIRCH.dest_own, shade("e6"), 0.9))
    assert near(pixel(image, x + SQUARE - 1.5, y + SQUARE / 2), rgb(shade("e6")))


def test_a_tower_of_31_shows_every_band_in_its_colour(shot: tuple) -> None:
    image, root, pos = shot
    tower = pos.tower("a8")
    assert len(tower) == 31
    bands = [el for el in root.iter(NS + "g") if el.get("data-square") == "a8"
             and el.get("data-layer") is not None]
    assert len(bands) == 31
    seen = set()
    for el in bands:
        t = tower[int(el.get("data-layer"))]
        rect = el.find(NS + "rect")
        bx, by = float(rect.get("x")), float(rect.get("y"))
        bh = float(rect.get("height"))
        expected = BIRCH.white_fill if t.color == 0 else BIRCH.black_fill
        got = pixel(image, bx + 0.9, by + bh / 2)
        assert near(got, rgb(expected)), (el.get("data-layer"), got, expected)
        seen.add(expected)
    assert seen == {BIRCH.white_fill, BIRCH.black_fill}


def test_pieces_are_drawn_in_their_colours(shot: tuple) -> None:
    image, root, _ = shot

    def count(name: str, color: str) -> int:
        x, y = square_box(root, name)
        want = rgb(color)
        return sum(near(pixel(image, x + i * 0.5, y + j * 0.5), want)
                   for i in range(90) for j in range(90))

    # the volkhvs: a white body on e1, a black body on e8, not the other way round
    # (a few outline pixels of the white volkhv come close to the black fill)
    white_e1, black_e1 = count("e1", BIRCH.white_fill), count("e1", BIRCH.black_fill)
    white_e8, black_e8 = count("e8", BIRCH.white_fill), count("e8", BIRCH.black_fill)
    assert white_e1 > 300 and black_e8 > 300
    assert black_e1 < white_e1 / 10 and white_e8 < black_e8 / 10


def test_skip_face_is_a_black_disc(shot: tuple) -> None:
    image, root, _ = shot
    die = next(el for el in root.iter(NS + "g") if "die" in el.get("class", "").split())
    disc = die.find(NS + "circle")
    assert near(pixel(image, float(disc.get("cx")), float(disc.get("cy"))), rgb(BIRCH.die_pip))
    frame = die.find(NS + "rect")
    assert near(pixel(image, float(frame.get("x")) + 5, float(frame.get("y")) + 5),
                rgb(BIRCH.die_fill))
