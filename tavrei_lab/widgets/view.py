"""The drawing surface: an anywidget that shows an SVG and reports clicks and drags.

``BoardView`` knows nothing about games. Python hands it a finished SVG
(from ``tavrei_lab.render.board_svg``), the squares to grey out, and -- after
chessground's model -- every tower's legal destinations per count (``moves``).
The browser half (``board.js`` and its parts after the shared ``svg_clicks.js``, see
``widgets.esm``; inline ESM, no CDN, no build step) draws it,
lets a tower be dragged (showing its destinations without asking the kernel),
and reports: a click on a ``data-square`` element into ``click``, a finished
drag into ``drop``, an arrow key into ``key``. Right-drag draws arrows and
right-click circles squares in the browser alone (``drawn`` reports them).
Whoever owns the view (``Board``, ``PositionEditor``) observes those traits.
Tests "click" and "drop" by setting the same traits, so everything but the
wiring is tested without a browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from tavrei_lab.errors import TavreiError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.widgets.esm import widget_module

_HERE = Path(__file__).parent


class BoardView(anywidget.AnyWidget):
    """An SVG board that reports clicks, drags and keys (see the module docstring).

    Traits synced with the browser:

    - ``svg``: the drawing; set it to redraw in place (the widget is never rebuilt).
    - ``greyed``: square names whose tower is drawn faded (units a die face forbids).
    - ``version``: bumped with every drawing, so scripts can wait for a redraw.
    - ``moves``: ``{"e2": {"1": ["e3", "e4"]}}`` -- where each tower may go,
      per number of tavrels taken; a drag shows and checks these in the browser.
    - ``effects``: what to animate with the drawing of the same ``version``:
      ``{"flash": ["e4"], "slide": [["e4", "e2"]]}`` flashes squares and slides
      the tower now drawn on the second square in from the first.
    - ``animations``: False turns every animation off (slides, the die's tumble).
    - ``towers``: ``{"e4": [layer, ...]}`` bottom to top, each layer
      ``{"color", "letter", "name", "russian", "english", "destiny",
      "promoted", "glyph"}``: what the tower inspector lists (hover a tower).
    - ``glyphs``: ``{"Q white": "<svg ...>"}``: the pictures the inspector and
      legend show, by strip letter and colour.
    - ``legend``: ``[["K", "volkhv", "волхв", "king", "V"], ...]``: what each strip
      letter means.
    - ``inspector``: True shows the tower inspector and legend beside the board.
    - ``words``: the inspector's and legend's words in the board's language
      (``widgets.inspector.inspector_words``); English where it is empty.
    - ``click``: ``{"square": "e4", "layer": i or None, "seq": n}`` from the browser.
    - ``drop``: ``{"from": "e2", "count": 1, "to": "e4", "seq": n}`` from the browser.
    - ``drawn``: the arrows and circles a user drew with the right button,
      ``[["e2", "e4"], ["d5", "d5"]]`` (from the browser).
    - ``key``: ``{"key": "ArrowLeft", "seq": n}`` from the browser.
    - ``clipboard``: ``{"text": ..., "seq": n}``; the browser copies ``text``.
    - ``fit``: True grows the board from its drawn size to the room it has: the
      width its box leaves beside the other columns (the tower inspector kept
      beside it while at least 200 px is left for it) and the height of the
      screen (or of the notebook's scrolling area) less the status line and the
      first row of buttons. A projector board fits.
    - ``zoom``: per cent of that size (or of the drawn size, without ``fit``):
      the size control.
    - ``banner``: ``{"text", "detail", "kind", "seq"}``: a verdict drawn large over
      the top of the board (``show_banner``), where the class is looking: kind
      ``right`` is green and the board glows, ``wrong`` red (it fades after a few
      seconds), ``missing`` grey; ``{}`` takes it away.
    """

    _esm = widget_module("board")
    _css = (_HERE / "board.css").read_text(encoding="utf-8")

    svg = traitlets.Unicode("").tag(sync=True)
    greyed = traitlets.List(traitlets.Unicode(), default_value=[]).tag(sync=True)
    version = traitlets.Int(0).tag(sync=True)
    moves = traitlets.Dict(default_value={}).tag(sync=True)
    effects = traitlets.Dict(default_value={}).tag(sync=True)
    animations = traitlets.Bool(True).tag(sync=True)
    towers = traitlets.Dict(default_value={}).tag(sync=True)
    glyphs = traitlets.Dict(default_value={}).tag(sync=True)
    legend: traitlets.List[Any] = traitlets.List(default_value=[]).tag(sync=True)
    inspector = traitlets.Bool(False).tag(sync=True)
    words = traitlets.Dict(default_value={}).tag(sync=True)
    click = traitlets.Dict(default_value={}).tag(sync=True)
    drop = traitlets.Dict(default_value={}).tag(sync=True)
    drawn: traitlets.List[Any] = traitlets.List(default_value=[]).tag(sync=True)
    key = traitlets.Dict(default_value={}).tag(sync=True)
    clipboard = traitlets.Dict(default_value={}).tag(sync=True)
    banner = traitlets.Dict(default_value={}).tag(sync=True)
    fit = traitlets.Bool(False).tag(sync=True)
    zoom = traitlets.Int(100).tag(sync=True)

    def show(self, svg: str, greyed: list[str] | None = None,
             moves: dict[str, dict[str, list[str]]] | None = None,
             effects: dict[str, Any] | None = None,
             towers: dict[str, list[dict[str, Any]]] | None = None) -> None:
        """Redraw with ``svg`` (greyed squares, legal moves, effects, towers) in one message."""
        with self.hold_sync():
            self.greyed = list(greyed or [])
            self.moves = dict(moves or {})
            if towers is not None:
                self.towers = towers
            self.effects = {**(effects or {}), "version": self.version + 1}
            self.svg = svg
            self.version += 1

    def show_banner(self, text: str, kind: str = "right", detail: str = "") -> None:
        """Show ``text`` large over the board (``kind``: right, wrong or missing), with
        ``detail`` in smaller type under it. Each call shows it afresh, even the same."""
        if kind not in ("right", "wrong", "missing"):
            raise TavreiError(_("banner kind must be right, wrong or missing, not {kind!r}")
                              .format(kind=kind))
        self.banner = {"text": text, "detail": detail, "kind": kind,
                       "seq": self.banner.get("seq", 0) + 1}

    def clear_banner(self) -> None:
        """Take the verdict away (a new try)."""
        if self.banner:
            self.banner = {}

    def copy_to_clipboard(self, text: str) -> None:
        """Ask the browser to put ``text`` on the clipboard."""
        self.clipboard = {"text": text, "seq": self.clipboard.get("seq", 0) + 1}

    def simulate_click(self, square: str, layer: int | None = None) -> None:
        """Do what the browser does on a click (for tests and scripted demos)."""
        self.click = {"square": square, "layer": layer, "seq": self.click.get("seq", 0) + 1}

    def simulate_drop(self, from_square: str, to_square: str, count: int | None = None) -> None:
        """Do what the browser does when a tower (its top ``count``) is dropped on a square."""
        self.drop = {"from": from_square, "to": to_square, "count": count,
                     "seq": self.drop.get("seq", 0) + 1}

    def simulate_key(self, key: str) -> None:
        """Do what the browser does on a key press (``"ArrowLeft"``, ``"ArrowRight"``, ...)."""
        self.key = {"key": key, "seq": self.key.get("seq", 0) + 1}

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget view, plus the SVG for front ends without widgets (static export)."""
        return with_svg(super()._repr_mimebundle_(**kwargs), self.svg)


def with_svg(bundle: Any, svg: str) -> Any:
    """Add ``image/svg+xml`` to a widget's mime bundle (ipywidgets returns data or (data, meta)).

    Every widget showing a board (``BoardView``, ``Board``, ``PositionEditor``) does, so
    that a notebook saved or exported without its widget state still shows the board."""
    if bundle is None:
        return {"image/svg+xml": svg, "text/plain": "<tavrei_lab board>"}
    if isinstance(bundle, tuple):
        data, meta = bundle
        return {**data, "image/svg+xml": svg}, meta
    return {**bundle, "image/svg+xml": svg}


__all__ = ["BoardView", "with_svg"]
