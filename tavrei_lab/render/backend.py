"""The small drawing interface the board code talks to, and its backends.

The board, die and animation code never touch svgwrite directly: they ask a
``Renderer`` for elements (``element``, ``group``, ``rect`` ...), for shared
definitions (``define``) and finally for the text (``to_string``). That keeps
the drawing code readable and lets the backend be swapped -- a second backend,
``ElementTreeRenderer``, builds the same document with the standard library,
and the tests check both give the same picture.

Why not call svgwrite's shape classes and ``Drawing.tostring()`` directly?
Speed. With validation on, svgwrite checks every attribute; even with
``debug=False`` its shape constructors convert keyword names and its
``tostring`` first rebuilds the whole tree as ElementTree objects and then
serialises those. A board has about two hundred elements and is redrawn on
every click of the widget, so ``SvgwriteRenderer`` keeps svgwrite's document
model (a ``svgwrite.Drawing(debug=False)`` whose children are svgwrite
``BaseElement`` objects) but creates elements with their attributes already
named and writes the text in one pass. ``SvgwriteRenderer(serializer="svgwrite")``
uses svgwrite's own ``tostring`` instead; the tests compare the two. Shared
definitions (glyphs, gradients) are the same in every drawing of one theme,
so their markup is kept after the first drawing and copied into later ones.

svgwrite is imported when the first drawing is made, not with the package:
building its attribute grammar takes about half a second, which
``import tavrei_lab`` should not pay for a session that draws nothing.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from types import SimpleNamespace
from typing import Any

from tavrei_lab.i18n import gettext as _

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"

#: Attribute values as the drawing code gives them: text or numbers.
Attrs = Mapping[str, Any]


def fmt(value: Any) -> str:
    """A number as short SVG text (``12.0`` -> ``12``, ``0.333333`` -> ``0.333``)."""
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.3f}".rstrip("0").rstrip(".")
    return str(value)


class SVG(str):
    """SVG text that a notebook shows as a picture.

    The drawing functions return text (to save, embed, compare), but a cell
    that ends in ``board_svg(...)`` should show the board, as
    ``chess.svg.board`` does, not a wall of markup: a ``str`` subclass keeps
    every string use and adds Jupyter's ``_repr_svg_``.
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


class Renderer(ABC):
    """One SVG document under construction.

    ``parent`` arguments are nodes returned by earlier calls, or ``None`` for
    the document root. Attribute names are the real SVG names
    (``"class"``, ``"data-square"``, ``"stroke-width"``); numbers may be
    given as numbers.
    """

    def __init__(self, width: float, height: float, view_box: tuple[float, float, float, float],
                 attrs: Attrs | None = None) -> None:
        self.width = width
        self.height = height
        self.view_box = view_box
        self._defined: dict[str, Any] = {}

    # -- the three operations a backend must provide -------------------------
    @abstractmethod
    def element(self, parent: Any, tag: str, attrs: Attrs, text: str | None = None) -> Any:
        """Append a ``<tag>`` with ``attrs`` (and text content) to ``parent``."""

    @abstractmethod
    def _defs_node(self) -> Any:
        """The document's ``<defs>`` node, created on first use."""

    @abstractmethod
    def to_string(self) -> str:
        """The finished document as SVG text."""

    # -- shared definitions ----------------------------------------------------
    def define(self, ident: str, build: Callable[[Renderer, Any], None],
               tag: str = "g", attrs: Attrs | None = None) -> str:
        """Put ``<tag id=ident>`` into ``<defs>`` once, filled by ``build(self, node)``.

        Returns ``ident``; a second call with the same id does nothing, so the
        drawing code can simply ask for every glyph it is about to use.
        """
        if ident not in self._defined:
            node = self.element(self._defs_node(), tag, {"id": ident, **(attrs or {})})
            self._defined[ident] = node
            build(self, node)
        return ident

    def has_definition(self, ident: str) -> bool:
        return ident in self._defined

    # -- conveniences built on ``element`` -------------------------------------
    def group(self, parent: Any, attrs: Attrs | None = None) -> Any:
        return self.element(parent, "g", attrs or {})

    def rect(self, parent: Any, x: float, y: float, w: float, h: float,
             attrs: Attrs | None = None) -> Any:
        return self.element(parent, "rect", {"x": x, "y": y, "width": w, "height": h,
                                             **(attrs or {})})

    def circle(self, parent: Any, cx: float, cy: float, r: float,
               attrs: Attrs | None = None) -> Any:
        return self.element(parent, "circle", {"cx": cx, "cy": cy, "r": r, **(attrs or {})})

    def path(self, parent: Any, d: str, attrs: Attrs | None = None) -> Any:
        return self.element(parent, "path", {"d": d, **(attrs or {})})

    def polygon(self, parent: Any, points: Iterable[tuple[float, float]],
                attrs: Attrs | None = None) -> Any:
        text = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)
        return self.element(parent, "polygon", {"points": text, **(attrs or {})})

    def line(self, parent: Any, x1: float, y1: float, x2: float, y2: float,
             attrs: Attrs | None = None) -> Any:
        return self.element(parent, "line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2,
                                             **(attrs or {})})

    def text(self, parent: Any, x: float, y: float, content: str,
             attrs: Attrs | None = None) -> Any:
        return self.element(parent, "text", {"x": x, "y": y, **(attrs or {})}, content)

    def title(self, parent: Any, content: str) -> Any:
        """A tooltip: the ``<title>`` child browsers show on hover."""
        return self.element(parent, "title", {}, content)

    def use(self, parent: Any, ident: str, attrs: Attrs | None = None) -> Any:
        """A reference to a definition (``xlink:href`` for older viewers)."""
        return self.element(parent, "use", {"xlink:href": "#" + ident, **(attrs or {})})

    def _root_attrs(self, extra: Attrs | None) -> dict[str, Any]:
        vb = " ".join(fmt(v) for v in self.view_box)
        return {"width": self.width, "height": self.height, "viewBox": vb, **(extra or {})}


# -- svgwrite ------------------------------------------------------------------
@cache
def _svgwrite() -> SimpleNamespace:
    """svgwrite and the two element classes built on its ``BaseElement``, on first use."""
    import svgwrite
    from svgwrite.base import BaseElement, Title

    class Element(BaseElement):
        """An svgwrite element whose attributes arrive already in SVG spelling.

        svgwrite's own ``BaseElement`` constructor renames keyword arguments
        (``class_`` -> ``class``) and builds a ``Parameter`` per element; the board
        needs neither, so this subclass shares the drawing's parameters.
        """

        def __init__(self, tag: str, attrs: dict[str, Any], parameter: Any,
                     text: str | None = None) -> None:
            self.elementname = tag
            self._parameter = parameter
            self.attribs = attrs
            self.elements: list[Any] = []
            self.text = text

        def get_xml(self) -> ET.Element:
            """svgwrite's conversion, plus the text content its base class has no slot for."""
            xml = super().get_xml()
            if self.text is not None:
                xml.text = self.text
            return xml

    class Fragment(BaseElement):
        """Finished markup of a definition, kept from an earlier drawing.

        Glyphs and gradients are the same in every drawing with the same theme
        (their ids carry the theme's fingerprint), so they are built once per
        process and then copied in as text.
        """

        def __init__(self, markup: str, parameter: Any) -> None:
            self.elementname = "fragment"
            self._parameter = parameter
            self.attribs: dict[str, Any] = {}
            self.elements: list[Any] = []
            self.markup = markup

        def get_xml(self) -> ET.Element:
            return ET.fromstring(self.markup)

    return SimpleNamespace(svgwrite=svgwrite, Element=Element, Fragment=Fragment, Title=Title)


#: ``str.translate`` tables escaping text content and attribute values the way the
#: renderers write them (drawings that write their markup directly use them too).
ESCAPE_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
ESCAPE_ATTR = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                             "\n": "&#10;"})
_ESCAPE_TEXT, _ESCAPE_ATTR = ESCAPE_TEXT, ESCAPE_ATTR


def _open_tag(tag: str, attrs: Mapping[str, Any]) -> str:
    """``<tag a="1" b="x"`` -- the start of an element, values escaped."""
    text = "<" + tag
    for key, value in attrs.items():
        kind = type(value)
        if kind is str:
            if value:
                text += f' {key}="{value.translate(_ESCAPE_ATTR)}"'
        elif kind is int:
            text += f' {key}="{value}"'
        elif value is not None:
            text += f' {key}="{fmt(value).translate(_ESCAPE_ATTR)}"'
    return text


def _write(node: Any, out: list[str]) -> None:
    """Serialise an svgwrite tree in one pass (see the module docstring)."""
    kinds = _svgwrite()
    if isinstance(node, kinds.Fragment):
        out.append(node.markup)
        return
    if isinstance(node, kinds.Title):  # svgwrite keeps <title>/<desc> as ElementTree nodes
        out.append(ET.tostring(node.xml, encoding="unicode"))
        return
    head = _open_tag(node.elementname, node.attribs)
    text = getattr(node, "text", None)
    if node.elements or text:
        out.append(head + ">")
        if text:
            out.append(text.translate(_ESCAPE_TEXT))
        for child in node.elements:
            _write(child, out)
        out.append(f"</{node.elementname}>")
    else:
        out.append(head + "/>")


#: Serialised definitions by id (ids are unique per theme, so an id names one markup).
_FRAGMENTS: dict[str, str] = {}
_MAX_FRAGMENTS = 2048


class SvgwriteRenderer(Renderer):
    """The default backend: an ``svgwrite.Drawing`` with validation off.

    ``serializer="fast"`` (default) writes the svgwrite tree directly;
    ``serializer="svgwrite"`` uses ``Drawing.tostring()``.
    """

    def __init__(self, width: float, height: float, view_box: tuple[float, float, float, float],
                 attrs: Attrs | None = None, serializer: str = "fast") -> None:
        super().__init__(width, height, view_box, attrs)
        if serializer not in ("fast", "svgwrite"):
            raise ValueError(_("serializer must be 'fast' or 'svgwrite', not {serializer!r}")
                             .format(serializer=serializer))
        self.serializer = serializer
        self.drawing = _svgwrite().svgwrite.Drawing(size=(fmt(width), fmt(height)), debug=False)
        self.drawing.attribs.update(self._root_attrs(attrs))
        self.drawing.attribs["width"] = fmt(width)
        self.drawing.attribs["height"] = fmt(height)
        self._parameter = self.drawing._parameter

    def element(self, parent: Any, tag: str, attrs: Attrs, text: str | None = None) -> Any:
        node = _svgwrite().Element(tag, dict(attrs), self._parameter, text)
        (self.drawing if parent is None else parent).elements.append(node)
        return node

    def _defs_node(self) -> Any:
        return self.drawing.defs  # svgwrite's Drawing has its <defs> first already

    def define(self, ident: str, build: Callable[[Renderer, Any], None],
               tag: str = "g", attrs: Attrs | None = None) -> str:
        """As ``Renderer.define``, reusing the markup of an earlier drawing."""
        if ident in self._defined:
            return ident
        markup = _FRAGMENTS.get(ident)
        if markup is None:
            super().define(ident, build, tag, attrs)
            out: list[str] = []
            _write(self._defined[ident], out)
            if len(_FRAGMENTS) < _MAX_FRAGMENTS:
                _FRAGMENTS[ident] = "".join(out)
            return ident
        node = _svgwrite().Fragment(markup, self._parameter)
        self._defs_node().elements.append(node)
        self._defined[ident] = node
        return ident

    def to_string(self) -> str:
        if self.serializer == "svgwrite":
            return self.drawing.tostring()
        root = self.drawing
        out = ['<svg xmlns="http://www.w3.org/2000/svg" '
               'xmlns:xlink="http://www.w3.org/1999/xlink"']
        for key, value in root.attribs.items():
            if value is not None and key not in ("xmlns", "xmlns:xlink", "xmlns:ev"):
                out.append(f' {key}="{fmt(value).translate(_ESCAPE_ATTR)}"')
        out.append(">")
        for child in root.elements:
            _write(child, out)
        out.append("</svg>")
        return "".join(out)


# -- the standard library -------------------------------------------------------
class ElementTreeRenderer(Renderer):
    """The same document built with ``xml.etree`` -- the proof that the
    backend can be swapped, and a fallback without svgwrite's tree."""

    def __init__(self, width: float, height: float, view_box: tuple[float, float, float, float],
                 attrs: Attrs | None = None) -> None:
        super().__init__(width, height, view_box, attrs)
        root_attrs = {k: fmt(v) for k, v in self._root_attrs(attrs).items()}
        self.root = ET.Element("svg", {"xmlns": SVG_NS, "xmlns:xlink": XLINK_NS, **root_attrs})
        self._defs: ET.Element | None = None

    def element(self, parent: Any, tag: str, attrs: Attrs, text: str | None = None) -> Any:
        node = ET.SubElement(self.root if parent is None else parent, tag,
                             {k: fmt(v) for k, v in attrs.items() if v is not None})
        if text is not None:
            node.text = text
        return node

    def _defs_node(self) -> Any:
        if self._defs is None:
            self._defs = ET.Element("defs")
            self.root.insert(0, self._defs)
        return self._defs

    def to_string(self) -> str:
        return ET.tostring(self.root, encoding="unicode")


#: Backends by name, for ``board_svg(..., backend="etree")``.
BACKENDS: dict[str, Callable[..., Renderer]] = {
    "svgwrite": SvgwriteRenderer,
    "etree": ElementTreeRenderer,
}
