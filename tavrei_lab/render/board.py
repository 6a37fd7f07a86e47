"""The board picture: squares, towers and overlays, as SVG text.

Reading a Tavreli position means reading towers, so each tower is drawn in
two parts:

- its **top tavrel** large -- the piece that owns and moves the tower;
- a **strip** at the left of the square with every layer, bottom to top, as
  a band in the tavrel's colour with a letter naming its role.

The strip, its letters and its two layouts (every layer lettered, or legible
letters over countable stripes), and the tower key under a picture, are
``render.layers``; the marks over the squares (check, destinations, the split
count, arrows) are ``render.marks``.

Towers of ``theme.height_badge_from`` or more get their height in a badge.

The markup is meant for scripts and styles as much as for eyes: every square
is a ``rect`` with ``data-square="e4"`` and classes such as
``square light e4 lastmove``; every tower a ``<g class="tower"
data-square="e4">`` whose ``<title>`` lists it bottom to top with Russian and
English names; every layer of a strip (band or stripe) carries
``data-layer`` (0 = bottom), so a widget can turn a click on layer *i* into
"take the top height - i".
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from tavrei_lab.core import speech
from tavrei_lab.core.geometry import Geometry
from tavrei_lab.core.move import Move
from tavrei_lab.core.tavrel import COLOR_NAMES, Tavrel
from tavrei_lab.errors import NotationError, RenderError
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _
from tavrei_lab.i18n import ngettext, speaking
from tavrei_lab.render.backend import BACKENDS, SVG, Renderer, fmt
from tavrei_lab.render.die import draw_die, is_skip_mark
from tavrei_lab.render.glyphs import BOX, GLYPH_INSET, GlyphSet, draw_glyph, glyph_group_attrs
from tavrei_lab.render.layers import (
    MAX_COLUMNS,
    MIN_STRIPE_PX,
    ROLE_LETTERS,
    ROLE_LETTERS_RU,
    ROWS_PER_COLUMN,
    TOWER_KEY_FROM,
    TOWER_KEY_LETTER,
    TOWER_KEY_ROW,
    LegibleStrip,
    StripLayout,
    draw_legible_strip,
    draw_strip,
    draw_tower_key,
    key_lines,
    kinds_in_play,
    legible_strip,
    role_letters,
    strip_layout,
    strip_legend,
)
from tavrei_lab.render.marks import draw_arrow, draw_check, draw_destination, draw_split_count
from tavrei_lab.render.theme import DEFAULT_THEME, THEME_FIELDS, Theme

#: Side of one square in drawing units (the glyph box).
SQUARE = BOX
_SIDE = int(SQUARE)
#: Width of the coordinate margin around the board.
MARGIN = 15.0
#: Widest drawing asked for, in pixels (``size``): a picture is a few hundred pixels;
#: ``nan``, ``inf`` or a number past this would write a width no viewer can show.
MAX_SIZE_PX = 100_000


#: Width of the ring round a highlighted square (SVG units; a square is SQUARE).
HIGHLIGHT_RING = 4

def check_size(size: Any, who: str) -> float:
    """``size`` as a finite width in pixels, 0 < size <= ``MAX_SIZE_PX``; else a RenderError."""
    try:
        px = float(size)
    except (TypeError, ValueError):
        raise RenderError(_("{who}: size must be a number of pixels, got {kind}").format(
            who=who, kind=type(size).__name__)) from None
    if not (math.isfinite(px) and 0 < px <= MAX_SIZE_PX):
        raise RenderError(_("{who}: size must be a positive number of pixels up to {most}, "
                            "got {size}").format(who=who, most=MAX_SIZE_PX, size=str(size)[:30]))
    return px


#: Pixels per drawing unit when no ``size`` is given (a 8x8 board is about 470 px).
DEFAULT_SCALE = 1.2
#: ``**options`` that are not theme colours.
RENDER_OPTIONS = frozenset({"glyph_family", "backend", "css_class"})


# -- words -------------------------------------------------------------------------
def describe_tavrel(t: Tavrel, pieces: Any) -> str:
    """``white ratnik (ратник, pawn)``; a promoted ratnik says what it became.

    In Russian the Russian name leads and the chess analogue follows in its
    Russian name: ``ратник белых (пешка)``.
    """
    return speech.tavrel_described(t, pieces)


def tower_title(tower: Iterable[Tavrel], pieces: Any, square_name: str) -> str:
    """The tooltip of a tower: its square, then every tavrel bottom to top.

    >>> from tavrei_lab import Game
    >>> print(tower_title(Game().position.tower("e1"), Game().rules.pieces, "e1"))
    e1: white volkhv (волхв, king)
    """
    tower = tuple(tower)
    if len(tower) == 1:
        return f"{square_name}: {describe_tavrel(tower[0], pieces)}"
    lines = [ngettext("{square}: tower of {count}, bottom → top:",
                      "{square}: tower of {count}, bottom → top:", len(tower)).format(
        square=square_name, count=len(tower))]
    lines.extend(f"{i}. {describe_tavrel(t, pieces)}" for i, t in enumerate(tower, 1))
    return "\n".join(lines)


def tavrel_svg(kind: int, color: int, pieces: Any, *, size: float = 28,
               theme: Theme | None = None, family: str | None = None) -> SVG:
    """One tavrel's glyph as a small SVG document (for legends and tower inspectors)."""
    theme = theme or DEFAULT_THEME
    family = family or GlyphSet.family_for(pieces)
    r = BACKENDS["svgwrite"](size, size, (0, 0, BOX, BOX),
                             {"class": f"tavrel {COLOR_NAMES[color]}"})
    fill, outline, detail = theme.piece_colors(color)
    g = r.group(None, glyph_group_attrs(fill, outline))
    draw_glyph(r, g, theme.glyphs.glyph(family, kind), fill, outline, detail)
    return SVG(r.to_string())


@lru_cache(maxsize=32)
def _square_origins(width: int, height: int, flipped: bool, margin: float
                    ) -> tuple[tuple[float, float], ...]:
    """Top left corner of every square (index = square number), in drawing units."""
    out = []
    for s in range(width * height):
        f, r = s % width, s // width
        col = width - 1 - f if flipped else f
        row = r if flipped else height - 1 - r
        x, y = margin + col * SQUARE, margin + row * SQUARE
        # whole numbers as ints: they are written without float formatting
        out.append((int(x) if x.is_integer() else x, int(y) if y.is_integer() else y))
    return tuple(out)


# -- reading the caller's arguments ---------------------------------------------------
def _square(g: Geometry, value: Any, what: str) -> int:
    """A square from an index or a name; a clear error for anything else."""
    if isinstance(value, str):
        try:
            return g.parse(value.strip().lower())
        except NotationError as exc:
            raise NotationError(_("{what}: {reason}").format(what=what, reason=exc.args[0]),
                                text=value, where=what) from None
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < g.size:
            return value
        raise NotationError(_("{what}: square {value} is off the {width}x{height} board "
                              "(0..{last})").format(what=what, value=value, width=g.width,
                                                    height=g.height, last=g.size - 1),
                            text=str(value), where=what)
    raise RenderError(_("{what}: expected a square (index or name like 'e4'), got "
                        "{value!r}").format(what=what, value=value))


def _color(value: Any, what: str) -> int:
    if value in (0, 1) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, str) and value.lower() in COLOR_NAMES:
        return COLOR_NAMES.index(value.lower())
    raise RenderError(_("{what}: expected a colour 0/'white' or 1/'black', got "
                        "{value!r}").format(what=what, value=value))


def _move_squares(g: Geometry, move: Any, what: str) -> tuple[int, int]:
    if hasattr(move, "from_square") and hasattr(move, "to_square"):
        return _square(g, move.from_square, what), _square(g, move.to_square, what)
    if isinstance(move, (tuple, list)) and len(move) == 2:
        return _square(g, move[0], what), _square(g, move[1], what)
    raise RenderError(_("{what}: expected a Move or a (from, to) pair, got {move!r}").format(
        what=what, move=move))


@dataclass
class Scene:
    """Everything one board drawing needs, resolved once."""

    position: Any
    theme: Theme
    family: str
    flipped: bool
    coordinates: bool
    classes: dict[int, list[str]]
    fills: dict[int, str]
    dest: dict[int, str]
    selected: int | None
    split_count: int | None
    check_square: int | None
    attacked: frozenset[int]
    arrows: list[tuple[int, int, str]]
    highlights: list[tuple[int, str]]
    die_face: str | None
    die_passes: bool
    #: Reserve the die's column even with no face to show (animation frames).
    die_panel: bool = False
    #: Smallest strip letter in drawing units (None: every layer lettered, small).
    letter_units: float | None = None
    #: With ``letter_units``: the least stripe height (``MIN_STRIPE_PX``) in drawing units.
    stripe_units: float = 0.0
    #: The other side's last roll, (colour, face), shown faded on its side.
    other_roll: tuple[int, str] | None = None
    #: Who rolled ``die_face`` when it is a skip (the turn has passed already).
    die_color: int | None = None
    #: The strip letter of each role (``role_letters``: by the language in force).
    letters: dict[int, str] = field(default_factory=lambda: ROLE_LETTERS)


# -- the picture ---------------------------------------------------------------------
def board_svg(position: Any, *, flipped: bool = False, lastmove: Any = None,
              selected: Any = None, destinations: Iterable[Any] | None = None,
              split_count: int | None = None, check: bool | None = None,
              attacked_by: Any = None, arrows: Iterable[Any] = (),
              highlights: Iterable[Any] = (), die_face: str | None = None,
              size: float | None = None, coordinates: bool = True,
              letter_px: float | None = None, die_panel: bool = False,
              other_roll: tuple[int, str] | None = None,
              theme: Theme | None = None, language: str | None = None,
              tower_key: bool | None = None, **options: Any) -> SVG:
    """The position (or a ``Game``'s, its last move marked, as ``chess.svg.board`` takes
    a board) as SVG text (an ``SVG`` string: a notebook shows it as the board).

    - ``flipped``: black at the bottom.
    - ``lastmove``: a ``Move`` (or a (from, to) pair) to highlight.
    - ``selected``: a square (index or name) whose tower is picked up.
    - ``destinations``: squares or ``Move`` objects (their to-squares); each is marked
      as a move onto an empty square (a dot), onto an own tower (a "+" disc
      in its lower right corner) or onto an enemy tower (corner wedges).
    - ``split_count``: how many tavrels the selected move takes: those layers
      of the selected tower's strip are outlined and the count is written.
    - ``check``: True/False, or None to ask the rules.
    - ``attacked_by``: a colour; shade every square that side attacks.
    - ``arrows``: (from, to) or (from, to, colour) triples; a colour is a
      theme arrow name (green, red, blue, yellow) or any SVG colour. An arrow
      from a square to itself circles it.
    - ``highlights``: squares, or (square, colour) pairs, tinted in that
      colour (default yellow): a teacher's "look here", a puzzle's hint.
    - ``die_face``: a face letter, ``"skip"``, or None for the position's roll.
    - ``size``: width in pixels (default: 1.2 px per drawing unit).
    - ``letter_px``: the smallest strip letter in CSS pixels at this size (14
      for a projector): the strips switch to their legible layout.
    - ``die_panel``: keep the die's column even with no face showing, so a
      die game's board never changes width when the die is rolled.
    - ``other_roll``: (colour, face) of the other side's last roll, drawn
      faded on that side's end of the die column (both rolls in sight).
    - ``language``: "en" or "ru" for the strip letters and tooltips (None: the
      language in force, see ``tavrei_lab.set_language``).
    - ``tower_key``: under the board, every tower of ``TOWER_KEY_FROM`` or more
      layers spelt out bottom to top, one box a layer with its letter at
      ``TOWER_KEY_LETTER`` units (12 px at the default size): a picture has no
      inspector, and its strips letter a tall tower's layers 4-6 px high (a tower
      of 8 unreadable). Default: on for a picture drawn without
      ``letter_px`` (the widgets, which have the inspector, pass ``letter_px``).
    - ``theme``: a ``Theme``; ``**options`` may override any theme field
      (``dark_square="#789"``), and take ``glyph_family`` ("tavreli" or
      "orthodox"), ``backend`` ("svgwrite" or "etree") and ``css_class``.

    >>> from tavrei_lab import Game
    >>> svg = board_svg(Game().position, selected="e2", destinations=["e3", "e4"])
    >>> svg.count('<g class="tower '), svg.count('class="dest dest-empty"')
    (32, 2)
    """
    with speaking(language):
        return _board_svg(position, flipped, lastmove, selected, destinations, split_count,
                          check, attacked_by, arrows, highlights, die_face, size, coordinates,
                          letter_px, die_panel, other_roll, theme, options,
                          letter_px is None if tower_key is None else bool(tower_key))


def _board_svg(position: Any, flipped: bool, lastmove: Any, selected: Any,
               destinations: Iterable[Any] | None, split_count: int | None,
               check: bool | None, attacked_by: Any, arrows: Iterable[Any],
               highlights: Iterable[Any], die_face: str | None, size: float | None,
               coordinates: bool, letter_px: float | None, die_panel: bool,
               other_roll: tuple[int, str] | None, theme: Theme | None,
               options: dict[str, Any], tower_key: bool = False) -> SVG:
    if isinstance(position, Game):
        # a Game, as chess.svg.board takes a board: its position, its last move marked
        if lastmove is None and position.moves:
            lastmove = position.moves[-1]
        position = position.position
    theme, make, family = resolve_options(position, theme, options)
    scene = resolve_scene(position, theme, family, flipped, coordinates, lastmove, selected,
                     destinations, split_count, check, attacked_by, arrows, die_face,
                     highlights)
    g = position.geometry
    scene.die_panel = die_panel
    if other_roll is not None:
        if (not isinstance(other_roll, (tuple, list)) or len(other_roll) != 2
                or not isinstance(other_roll[1], str) or not other_roll[1]):
            raise RenderError(_("other_roll must be (colour, face), got {other_roll!r}")
                              .format(other_roll=other_roll))
        scene.other_roll = (_color(other_roll[0], "other_roll"), other_roll[1])
    wu, hu = board_extent(g, coordinates,
                          scene.die_face is not None or die_panel or other_roll is not None)
    px_w = check_size(size, "board_svg") if size is not None else round(wu * DEFAULT_SCALE)
    if letter_px is not None:
        if isinstance(letter_px, bool) or not isinstance(letter_px, (int, float)) or not (
                0 < letter_px <= px_w):
            raise RenderError(_("board_svg: letter_px must be a positive size in pixels, "
                                "got {letter_px!r}").format(letter_px=letter_px))
        scene.letter_units = letter_px * wu / px_w
        scene.stripe_units = MIN_STRIPE_PX * wu / px_w
    root = {"class": "tavrei-board" + (f" {options['css_class']}" if options.get("css_class")
                                       else ""),
            "data-variant": position.rules.variant.id,
            "data-turn": COLOR_NAMES[position.turn],
            "data-flipped": "true" if flipped else "false"}
    board = position.board
    key_rows = key_lines(position, flipped, wu) if tower_key else []
    total_h = hu + (len(key_rows) * TOWER_KEY_ROW + 4.0 if key_rows else 0.0)
    renderer = make(px_w, round(px_w * total_h / wu, 2), (0, 0, wu, total_h), root)
    draw_board(renderer, None, scene)
    if key_rows:
        draw_tower_key(renderer, scene.theme, position.pieces, scene.letters,
                       [(n, board[sq], a, b) for n, sq, a, b in key_rows], hu, wu, total_h)
    return SVG(renderer.to_string())


def resolve_options(position: Any, theme: Theme | None, options: dict[str, Any]
                    ) -> tuple[Theme, Any, str]:
    """(theme with overrides, backend factory, glyph family) from ``**options``."""
    theme = theme or DEFAULT_THEME
    unknown = sorted(set(options) - THEME_FIELDS - RENDER_OPTIONS)
    if unknown:
        raise RenderError(_("unknown drawing option(s) {unknown}; expected a Theme field or "
                            "one of {known}").format(unknown=", ".join(unknown),
                                                     known=", ".join(sorted(RENDER_OPTIONS))))
    theme_changes = {k: v for k, v in options.items() if k in THEME_FIELDS}
    if theme_changes:
        theme = theme.replace(**theme_changes)
    backend = options.get("backend", "svgwrite")
    make = backend if callable(backend) else BACKENDS.get(backend)
    if make is None:
        raise RenderError(_("unknown backend {backend!r}; expected one of {known}").format(
            backend=backend, known=", ".join(BACKENDS)))
    family = options.get("glyph_family") or GlyphSet.family_for(position.pieces)
    if family not in ("tavreli", "orthodox"):
        raise RenderError(_("glyph_family must be 'tavreli' or 'orthodox', not {family!r}")
                          .format(family=family))
    return theme, make, family


def board_extent(g: Geometry, coordinates: bool, die: bool) -> tuple[float, float]:
    """Width and height of a board drawing in drawing units."""
    margin = MARGIN if coordinates else 0.0
    width = g.width * SQUARE + 2 * margin + (SQUARE * 1.4 if die else 0.0)
    return width, g.height * SQUARE + 2 * margin


def resolve_scene(position: Any, theme: Theme, family: str, flipped: bool, coordinates: bool,
             lastmove: Any, selected: Any, destinations: Iterable[Any] | None,
             split_count: int | None, check: bool | None, attacked_by: Any,
             arrows: Iterable[Any], die_face: str | None,
             highlights: Iterable[Any] = ()) -> Scene:
    """Turn the caller's arguments into per-square classes and marks (and check them)."""
    g = position.geometry
    board = position.board
    classes: dict[int, list[str]] = {}
    fills: dict[int, str] = {}

    def mark(sq: int, cls: str) -> None:
        classes.setdefault(sq, []).append(cls)

    def shade(sq: int, light: str, dark: str) -> None:
        fills[sq] = light if g.is_light(sq) else dark

    if lastmove is not None:
        for sq in _move_squares(g, lastmove, "lastmove"):
            mark(sq, "lastmove")
            shade(sq, theme.lastmove_light, theme.lastmove_dark)

    sel = None if selected is None else _square(g, selected, "selected")
    if sel is not None:
        mark(sel, "selected")
        shade(sel, theme.selected_light, theme.selected_dark)

    if split_count is not None:
        if sel is None or not board[sel]:
            raise RenderError(_("split_count needs a selected square with a tower on it"))
        if (isinstance(split_count, bool) or not isinstance(split_count, int)
                or not 1 <= split_count <= len(board[sel])):
            raise RenderError(ngettext(
                "split_count {count!r}: the tower on {square} has {height} tavrel; take 1",
                "split_count {count!r}: the tower on {square} has {height} tavrels; take "
                "1..{height}", len(board[sel])).format(
                    count=split_count, square=g.name(sel), height=len(board[sel])))

    dest: dict[int, str] = {}
    if destinations is not None:
        mover = board[sel][-1].color if sel is not None and board[sel] else position.turn
        for d in destinations:
            sq = (_square(g, d.to_square, "destinations") if isinstance(d, Move)
                  else _square(g, d, "destinations"))
            tower = board[sq]
            kind = ("dest-empty" if not tower else
                    "dest-own" if tower[-1].color == mover else "dest-enemy")
            if sq not in dest:
                dest[sq] = kind
                mark(sq, kind)

    if check is None:
        check = bool(position.rules.is_check(position))
    check_square = position.king_square(position.turn) if check else None
    if check_square is not None:
        mark(check_square, "check")

    attacked: frozenset[int] = frozenset()
    if attacked_by is not None:
        side = _color(attacked_by, "attacked_by")
        attacked = frozenset(s for s in range(g.size)
                             if position.rules.is_attacked(position, s, side))
        for s in attacked:
            mark(s, "attacked")

    arrow_list: list[tuple[int, int, str]] = []
    for a in arrows:
        if not isinstance(a, (tuple, list)) or len(a) not in (2, 3):
            raise RenderError(_("arrows: expected (from, to) or (from, to, colour), got "
                                "{arrow!r}").format(arrow=a))
        color = a[2] if len(a) == 3 else "green"
        if not isinstance(color, str) or not color:
            raise RenderError(_("{what}: a colour is a name or SVG colour text, got {color!r}")
                              .format(what="arrows", color=color))
        arrow_list.append((_square(g, a[0], "arrows"), _square(g, a[1], "arrows"),
                           theme.arrow_color(color)))

    highlight_list: list[tuple[int, str]] = []
    for h in highlights:
        square, color = (h if isinstance(h, (tuple, list)) and len(h) == 2 else (h, "yellow"))
        if not isinstance(color, str) or not color:
            raise RenderError(_("{what}: a colour is a name or SVG colour text, got {color!r}")
                              .format(what="highlights", color=color))
        sq = _square(g, square, "highlights")
        highlight_list.append((sq, theme.arrow_color(color)))
        mark(sq, "highlight")

    if die_face is None:
        die_face = getattr(position, "roll", None)
    passes = False
    if die_face is not None:
        if not isinstance(die_face, str) or not die_face:
            raise RenderError(_("die_face must be a face letter or 'skip', got {die_face!r}")
                              .format(die_face=die_face))
        passes = not is_skip_mark(die_face) and position.rules.is_skip(die_face)

    return Scene(position, theme, family, flipped, coordinates, classes, fills, dest, sel,
                  split_count, check_square, attacked, arrow_list, highlight_list, die_face,
                  passes, letters=role_letters(position.pieces))


def draw_board(r: Renderer, parent: Any, scene: Scene) -> None:
    """Draw a resolved scene into ``parent`` (the root, or an animation frame)."""
    position, theme = scene.position, scene.theme
    g = position.geometry
    margin = MARGIN if scene.coordinates else 0.0
    origins = _square_origins(g.width, g.height, scene.flipped, margin)
    names = g.names
    board = position.board
    panel = scene.die_face is not None or scene.die_panel or scene.other_roll is not None
    wu, hu = board_extent(g, scene.coordinates, panel)

    if scene.coordinates or panel:
        r.rect(parent, 0, 0, wu, hu, {"class": "margin", "fill": theme.margin})

    # squares
    light_fill, dark_fill = theme.light_square, theme.dark_square
    for s in range(g.size):
        light = g.is_light(s)
        x, y = origins[s]
        name = names[s]
        extra = scene.classes.get(s)
        cls = ("square light " if light else "square dark ") + name
        if extra:
            cls += " " + " ".join(extra)
        fill = scene.fills.get(s) or (light_fill if light else dark_fill)
        r.element(parent, "rect", {"x": x, "y": y, "width": _SIDE, "height": _SIDE,
                                   "class": cls, "data-square": name, "fill": fill})

    if scene.coordinates:
        _draw_coordinates(r, parent, g, scene.flipped, theme)

    if scene.check_square is not None:
        draw_check(r, parent, origins[scene.check_square], names[scene.check_square], theme)
    for s, color in scene.highlights:
        x, y = origins[s]
        # a tint and a ring of the same colour: the ring stays visible on a
        # square already tinted (a puzzle's hint on the selected tower)
        r.rect(parent, x + HIGHLIGHT_RING / 2, y + HIGHLIGHT_RING / 2,
               SQUARE - HIGHLIGHT_RING, SQUARE - HIGHLIGHT_RING,
               {"class": "highlight-mark", "data-square": names[s], "fill": color,
                "fill-opacity": 0.45, "stroke": color, "stroke-width": HIGHLIGHT_RING,
                "pointer-events": "none"})
    for s in sorted(scene.attacked):
        x, y = origins[s]
        r.rect(parent, x, y, SQUARE, SQUARE,
               {"class": "attacked-mark", "data-square": names[s], "fill": theme.attacked,
                "fill-opacity": theme.attacked_opacity, "pointer-events": "none"})

    # a capture is marked under the tower (the wedges peek out round it); a
    # move onto an empty square (a dot) or onto an own tower (a "+") above
    for s, kind in scene.dest.items():
        if kind == "dest-enemy":
            draw_destination(r, parent, origins[s], names[s], kind, theme)

    # towers
    pieces = position.pieces
    for s, tower in enumerate(board):
        if tower:
            taken = scene.split_count if s == scene.selected else None
            _draw_tower(r, parent, origins[s], names[s], tower, pieces, scene, taken)

    # marks above the towers
    for s, kind in scene.dest.items():
        if kind != "dest-enemy":
            draw_destination(r, parent, origins[s], names[s], kind, theme)
    if (scene.split_count is not None and scene.selected is not None
            and len(board[scene.selected]) > 1):  # a lone tavrel has nothing to split
        draw_split_count(r, parent, origins[scene.selected], names[scene.selected],
                          scene.split_count, len(board[scene.selected]), theme,
                          _mark_scale(scene))
    for fr, to, color in scene.arrows:
        draw_arrow(r, parent, origins[fr], origins[to], names[fr], names[to], color, theme)
    if panel:
        _draw_dice(r, parent, scene, margin)


def _draw_dice(r: Renderer, parent: Any, scene: Scene, margin: float) -> None:
    """The die column: each side's die stands beside it (the side to move's in front).

    The side to move's face is drawn as its own tavrel (whose roll it is);
    the other side's last roll (``Scene.other_roll``) stays on its side,
    faded; a die still to be rolled is a dashed outline.
    """
    position, theme = scene.position, scene.theme
    g = position.geometry
    side = SQUARE * 1.1
    x = margin + g.width * SQUARE + (SQUARE * 1.4 - side) / 2
    bottom_y = margin + g.height * SQUARE - side - 2
    top_y = margin + 2

    def y_of(color: int) -> float:
        return bottom_y if (color == 1) == scene.flipped else top_y

    mover = position.turn
    if scene.die_face is not None:
        # a skip face has already passed the turn: it was the other side's roll
        roller = mover if not is_skip_mark(scene.die_face) else scene.die_color
        draw_die(r, parent, x, y_of(mover if roller is None else roller), side, scene.die_face,
                 theme, position.pieces, scene.family, passes=scene.die_passes,
                 color=roller, css="current")
    elif scene.die_panel:
        r.rect(parent, x, y_of(mover), side, side,
               {"class": "die pending", "rx": side * 0.16, "fill": "none",
                "stroke": theme.die_fill, "stroke-width": side * 0.03,
                "stroke-dasharray": f"{fmt(side * 0.12)} {fmt(side * 0.08)}"})
    if scene.other_roll is not None:
        color, face = scene.other_roll
        faded = r.group(parent, {"opacity": 0.6})
        # a roll of the absent type passed the turn: drawn as the skip face it was (struck
        # through), not as a face that let a piece move
        passes = not is_skip_mark(face) and position.rules.is_skip(face)
        draw_die(r, faded, x, y_of(color), side, face, theme, position.pieces, scene.family,
                 passes=passes, color=color, css="previous")


def _draw_coordinates(r: Renderer, parent: Any, g: Geometry, flipped: bool,
                      theme: Theme) -> None:
    attrs = {"class": "coord", "fill": theme.coordinates, "font-size": 10,
             "font-family": theme.font_family, "text-anchor": "middle"}
    base = MARGIN + g.height * SQUARE
    for f in range(g.width):
        col = g.width - 1 - f if flipped else f
        r.text(parent, MARGIN + (col + 0.5) * SQUARE, base + 11, "abcdefghijklmnopqrstuvwxyz"[f],
               attrs)
    for rank in range(g.height):
        row = rank if flipped else g.height - 1 - rank
        r.text(parent, MARGIN / 2, MARGIN + (row + 0.5) * SQUARE + 3.5, str(rank + 1), attrs)


def _glyph_id(r: Renderer, theme: Theme, family: str, kind: int, color: int) -> str:
    """Define (once per document) and name the glyph of ``kind`` in ``color``."""
    glyph = theme.glyphs.glyph(family, kind)
    ident = f"tl-{theme.key}-{glyph.name}-{'wb'[color]}"
    if not r.has_definition(ident):
        fill, outline, detail = theme.piece_colors(color)
        r.define(ident, lambda rr, node: draw_glyph(rr, node, glyph, fill, outline, detail),
                 attrs=glyph_group_attrs(fill, outline))
    return ident


def _badge_id(r: Renderer, theme: Theme, color: int) -> str:
    ident = f"tl-{theme.key}-promoted-{'wb'[color]}"
    if not r.has_definition(ident):
        fill, outline, detail = theme.piece_colors(color)
        badge = theme.glyphs.promoted_badge
        r.define(ident, lambda rr, node: draw_glyph(rr, node, badge, fill, outline, detail,
                                                    ring=theme.promoted),
                 attrs=glyph_group_attrs(fill, outline))
    return ident


def _draw_tower(r: Renderer, parent: Any, origin: tuple[float, float], name: str,
                tower: tuple[Tavrel, ...], pieces: Any, scene: Scene,
                taken: int | None) -> None:
    theme = scene.theme
    x, y = origin
    top = tower[-1]
    height = len(tower)
    g = r.element(parent, "g", {"class": "tower " + COLOR_NAMES[top.color],
                                "data-square": name, "data-height": height})
    r.title(g, tower_title(tower, pieces, name))
    glyph = _glyph_id(r, theme, scene.family, top.acting_kind, top.color)
    if height == 1:
        r.use(g, glyph, {"x": x, "y": y})
        if top.promoted:
            r.use(g, _badge_id(r, theme, top.color), {"x": x, "y": y})
        return
    if scene.letter_units is not None:
        font = math.ceil(scene.letter_units * 100) / 100  # never below the size asked for
        legible = legible_strip(height, font, round(scene.stripe_units, 3))
        layout: StripLayout | LegibleStrip = legible
        draw_legible_strip(r, g, x, y, name, tower, pieces, legible, theme, taken,
                            scene.letters)
    else:
        layout = strip_layout(height)
        draw_strip(r, g, x, y, name, tower, pieces, layout, theme, taken, scene.letters)
    # the top tavrel, as large as the strip leaves room for, standing on the bottom
    # edge; its box may overlap the strip by the empty inset every glyph keeps at its left
    side = (SQUARE + 1.5 - layout.width) / (1 - GLYPH_INSET / BOX)
    scale = side / BOX
    gx, gy = x + layout.width - GLYPH_INSET * scale, y + SQUARE - side
    transform = f"translate({fmt(gx)},{fmt(gy)}) scale({fmt(scale)})"
    r.use(g, glyph, {"transform": transform})
    if top.promoted:
        r.use(g, _badge_id(r, theme, top.color), {"transform": transform})
    if height >= theme.height_badge_from:
        _draw_height_badge(r, g, x, y, height, scene)


def _draw_height_badge(r: Renderer, g: Any, x: float, y: float, height: int,
                       scene: Scene) -> None:
    """The tower's height in a disc at the square's top right corner. With legible
    strips its figure is as large as the strip letters: a tall tower's lower layers
    are stripes, and the count is what is read of them from the back of a room."""
    theme = scene.theme
    k = _mark_scale(scene)
    font = (7.5 if height < 10 else 6.5) * k
    if scene.letter_units is not None:
        font = max(font, math.ceil(scene.letter_units * 100) / 100)
    radius = max(5.8 * k, font * (0.74 if height < 10 else 0.92))
    cx, cy = x + SQUARE - radius - 0.5 * k, y + radius + 0.5 * k
    r.circle(g, cx, cy, round(radius, 2), {"class": "height-badge", "fill": theme.badge_fill})
    r.text(g, cx, round(cy + font * 0.35, 2), str(height),
           {"class": "height-badge", "fill": theme.badge_text, "font-size": round(font, 2),
            "font-weight": "bold", "font-family": theme.font_family, "text-anchor": "middle"})


def _mark_scale(scene: Scene) -> float:
    """How much larger the height badge and the split pill are drawn with legible strips."""
    if scene.letter_units is None:
        return 1.0
    return min(1.3, max(1.0, scene.letter_units / 8.4))


#: ``render.layers`` names re-exported here, where the board's callers find them.
__all__ = ["MAX_COLUMNS", "MIN_STRIPE_PX", "ROLE_LETTERS", "ROLE_LETTERS_RU",
           "ROWS_PER_COLUMN", "TOWER_KEY_FROM", "TOWER_KEY_LETTER", "TOWER_KEY_ROW",
           "board_extent", "board_svg", "describe_tavrel", "draw_board", "kinds_in_play",
           "legible_strip", "resolve_options", "resolve_scene", "role_letters", "strip_layout",
           "strip_legend", "tavrel_svg", "tower_title"]
