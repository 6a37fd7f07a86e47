"""A whole game as one SVG, for pages where no Python runs.

Two forms, both plain SVG that nbviewer, GitHub and an HTML export show:

- ``mode="animate"``: one board; each position is a frame that SMIL
  ``<animate>`` shows in turn, looping. Viewers without SMIL show the final
  position (the last frame is the one visible by default).
- ``mode="frames"``: every position side by side in a grid (a comic strip),
  each captioned with the move that led to it -- for print and for viewers
  that do not animate.
"""

from __future__ import annotations

import math
from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.errors import LimitError, RenderError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.render.backend import SVG, fmt
from tavrei_lab.render.board import (
    board_extent,
    check_size,
    draw_board,
    resolve_options,
    resolve_scene,
)
from tavrei_lab.render.theme import Theme

#: Height of the caption line under each frame, in drawing units.
CAPTION = 16.0
#: Most positions drawn into one game SVG (a frame costs about 15 KB and 2 ms: a
#: 16,000-move record made a 238 MB picture in 33 s). Longer games are refused.
MAX_ANIMATION_POSITIONS = 1_000
#: Most tavrels drawn into one game SVG, all its positions together: each costs about
#: 400 bytes of SVG, so a picture stays under about 26 MB (999 plies of a 510-tavrel
#: tower made 208 MB in 45 s with 1.7 GB). A whole 32-tavrel game of 1,000 positions fits.
MAX_ANIMATION_TAVRELS = 64_000


def _captions(game: Any) -> list[str]:
    """"start", then each action's text as the record writes it, numbered by ply."""
    texts = game.action_texts()
    out = ["start"]
    ply = 0
    for action, text in zip(game.history, texts):
        if isinstance(action, Move):
            ply += 1
            out.append(f"{(ply + 1) // 2}.{'' if ply % 2 else '..'} {text}")
        else:
            out.append(f"roll {text}")
    return out


def game_svg_animation(game: Any, *, mode: str = "animate", interval: float = 1.0,
                       flipped: bool = False, size: float | None = None,
                       coordinates: bool = True, columns: int = 4, theme: Theme | None = None,
                       **options: Any) -> SVG:
    """Every position of ``game`` (start, then after each move or roll) in one SVG.

    ``interval`` is seconds per frame (animate); ``columns`` the grid width
    (frames); ``size`` the width in pixels. ``**options`` as for ``board_svg``.
    """
    if mode not in ("animate", "frames"):
        raise RenderError(_("game_svg_animation: mode must be 'animate' or 'frames', not "
                            "{mode!r}").format(mode=mode))
    if not (isinstance(interval, (int, float)) and interval > 0):
        raise RenderError(_("game_svg_animation: interval must be a positive number of "
                            "seconds, got {interval!r}").format(interval=interval))
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
        raise RenderError(_("game_svg_animation: columns must be a positive integer, "
                            "got {columns!r}").format(columns=columns))
    if game.action_count + 1 > MAX_ANIMATION_POSITIONS:
        raise LimitError(_("game_svg_animation: the game has {count} positions; at most "
                           "{most} are drawn into one SVG").format(
                               count=game.action_count + 1, most=MAX_ANIMATION_POSITIONS))
    positions = game.positions
    drawn = sum(len(tower) for p in positions for tower in p.board)
    if drawn > MAX_ANIMATION_TAVRELS:     # counted before one frame is drawn
        raise LimitError(_("game_svg_animation: the game's {count} positions hold {drawn} "
                           "tavrels in all; at most {most} are drawn into one SVG (draw fewer "
                           "positions or a single one)").format(
                               count=len(positions), drawn=drawn, most=MAX_ANIMATION_TAVRELS))
    history = game.history
    theme, make, family = resolve_options(positions[0], theme, options)
    captions = _captions(game)
    has_die = any(p.roll is not None for p in positions)
    bw, bh = board_extent(positions[0].geometry, coordinates, has_die)
    fh = bh + CAPTION
    n = len(positions)
    cols = 1 if mode == "animate" else min(columns, n)
    rows = 1 if mode == "animate" else math.ceil(n / cols)
    wu, hu = bw * cols, fh * rows
    px_w = (check_size(size, "game_svg_animation") if size is not None
            else round(wu * 1.0 if cols > 1 else wu * 1.2))
    r = make(px_w, round(px_w * hu / wu, 2), (0, 0, wu, hu),
             {"class": f"tavrei-game {mode}", "data-frames": n})
    dur = n * interval
    for k, position in enumerate(positions):
        last = history[k - 1] if k and isinstance(history[k - 1], Move) else None
        # a frame that follows a roll shows that face, even a skip that already passed
        face = history[k - 1].face if k and not isinstance(history[k - 1], Move) else None
        scene = resolve_scene(position, theme, family, flipped, coordinates, last, None, None,
                              None, None, None, (), face)
        if mode == "animate":
            frame = r.group(None, {"class": "frame", "data-ply": k,
                                   "visibility": "visible" if k == n - 1 else "hidden"})
            if n > 1:
                _animate(r, frame, k, n, dur)
        else:
            ox, oy = (k % cols) * bw, (k // cols) * fh
            frame = r.group(None, {"class": "frame", "data-ply": k,
                                   "transform": f"translate({fmt(ox)},{fmt(oy)})"})
        scene.die_panel = has_die  # every frame as wide, rolled or not
        draw_board(r, frame, scene)
        r.rect(frame, 0, bh, bw, CAPTION, {"fill": theme.margin, "class": "caption"})
        r.text(frame, bw / 2, bh + CAPTION * 0.7, captions[k],
               {"class": "caption", "fill": theme.coordinates, "font-size": 11,
                "font-family": theme.font_family, "text-anchor": "middle"})
    return SVG(r.to_string())


def _animate(r: Any, frame: Any, k: int, n: int, dur: float) -> None:
    """Show frame ``k`` of ``n`` during its slice of a looping ``dur``-second cycle."""
    def t(x: float) -> str:
        return f"{x:.6f}".rstrip("0").rstrip(".")

    if k == 0:
        values, times = "visible;hidden", f"0;{t(1 / n)}"
    elif k == n - 1:
        values, times = "hidden;visible", f"0;{t(k / n)}"
    else:
        values, times = "hidden;visible;hidden", f"0;{t(k / n)};{t((k + 1) / n)}"
    r.element(frame, "animate", {"attributeName": "visibility", "values": values,
                                 "keyTimes": times, "dur": f"{fmt(dur)}s",
                                 "calcMode": "discrete", "repeatCount": "indefinite"})
