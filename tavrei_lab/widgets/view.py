"""The drawing surface: an anywidget that shows an SVG and reports clicks.

``BoardView`` knows nothing about games. Python hands it a finished SVG
(from ``tavrei_lab.render.board_svg``) and the squares to grey out; the
browser half (``board.js``, inline ESM, no CDN, no build step) draws it and
writes every click on a ``data-square`` element into the ``click`` trait and
every arrow key into the ``key`` trait. Whoever owns the view (``Board``,
``PositionEditor``) observes those traits. Tests "click" by setting the same
traits, so everything but the wiring is tested without a browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

_HERE = Path(__file__).parent


class BoardView(anywidget.AnyWidget):
    """An SVG board that reports clicks and keys (see the module docstring).

    Traits synced with the browser:

    - ``svg``: the drawing; set it to redraw in place (the widget is never rebuilt).
    - ``greyed``: square names whose tower is drawn faded (units a die face forbids).
    - ``version``: bumped with every drawing, so scripts can wait for a redraw.
    - ``click``: ``{"square": "e4", "layer": i or None, "seq": n}`` from the browser.
    - ``key``: ``{"key": "ArrowLeft", "seq": n}`` from the browser.
    - ``clipboard``: ``{"text": ..., "seq": n}``; the browser copies ``text``.
    """

    _esm = (_HERE / "board.js").read_text(encoding="utf-8")
    _css = (_HERE / "board.css").read_text(encoding="utf-8")

    svg = traitlets.Unicode("").tag(sync=True)
    greyed = traitlets.List(traitlets.Unicode(), default_value=[]).tag(sync=True)
    version = traitlets.Int(0).tag(sync=True)
    click = traitlets.Dict(default_value={}).tag(sync=True)
    key = traitlets.Dict(default_value={}).tag(sync=True)
    clipboard = traitlets.Dict(default_value={}).tag(sync=True)

    def show(self, svg: str, greyed: list[str] | None = None) -> None:
        """Redraw with ``svg`` (and the greyed squares) in one message to the browser."""
        with self.hold_sync():
            self.greyed = list(greyed or [])
            self.svg = svg
            self.version += 1

    def copy_to_clipboard(self, text: str) -> None:
        """Ask the browser to put ``text`` on the clipboard."""
        self.clipboard = {"text": text, "seq": self.clipboard.get("seq", 0) + 1}

    def simulate_click(self, square: str, layer: int | None = None) -> None:
        """Do what the browser does on a click (for tests and scripted demos)."""
        self.click = {"square": square, "layer": layer, "seq": self.click.get("seq", 0) + 1}

    def simulate_key(self, key: str) -> None:
        """Do what the browser does on a key press (``"ArrowLeft"``, ``"ArrowRight"``, ...)."""
        self.key = {"key": key, "seq": self.key.get("seq", 0) + 1}

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget view, plus the SVG for front ends without widgets (static export)."""
        return _with_svg(super()._repr_mimebundle_(**kwargs), self.svg)


def _with_svg(bundle: Any, svg: str) -> Any:
    """Add ``image/svg+xml`` to a widget's mime bundle (ipywidgets returns data or (data, meta))."""
    if bundle is None:
        return {"image/svg+xml": svg, "text/plain": "<tavrei_lab board>"}
    if isinstance(bundle, tuple):
        data, meta = bundle
        return {**data, "image/svg+xml": svg}, meta
    return {**bundle, "image/svg+xml": svg}
