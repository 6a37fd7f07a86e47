"""The browser halves of the widgets: each an inline ES module built from shared parts.

anywidget loads one inline module per widget (no build step, no CDN), and a
module loaded that way cannot import a file beside it. So the code every
SVG widget shares -- where its drawing goes, what a click hit, how the click
is reported to Python -- is one file, ``svg_clicks.js``, and each widget's
module is that file followed by the widget's own (``board.js``, ``tree.js``).
A large widget's own code is several files, each one concern (``PARTS``), joined
before its main file, which holds ``render``.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent

#: The code the widgets' modules share, first in each.
SHARED = "svg_clicks.js"

#: A widget's own parts, joined in this order before its main file.
PARTS: dict[str, tuple[str, ...]] = {
    "board": ("board_geometry.js", "board_effects.js", "board_marks.js", "board_drag.js",
              "board_inspector.js", "board_fit.js"),
}


def widget_module(name: str) -> str:
    """The ES module of widget ``name``: ``svg_clicks.js``, its ``PARTS``, then ``{name}.js``."""
    parts = [SHARED, *PARTS.get(name, ()), f"{name}.js"]
    return "\n".join((_HERE / part).read_text(encoding="utf-8") for part in parts)


__all__ = ["PARTS", "SHARED", "widget_module"]
