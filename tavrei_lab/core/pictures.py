"""The seam between the model and its pictures: objects ask, ``render`` answers.

A notebook shows anything with a ``_repr_svg_`` method as a picture. The
model (``Position``, ``Roll``, ``Game``, a tree tactic) wants that, but it
sits below ``render`` and must not import it (docs/architecture.md). So each
drawable object names the *kind* of picture it is -- ``"position"``,
``"roll"``, ``"game"``, ``"tactic"`` -- and ``render`` registers one painter
per kind when it is imported (``import tavrei_lab`` imports it). Without a
painter an object has no picture, and IPython falls back to its text.

>>> register_painter("example", lambda thing: f"<svg>{thing}</svg>")
>>> picture("example", 42)
'<svg>42</svg>'
>>> picture("nothing registered", 42) is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_PAINTERS: dict[str, Callable[[Any], str | None]] = {}


def register_painter(kind: str, painter: Callable[[Any], str | None]) -> None:
    """Draw every object of picture kind ``kind`` with ``painter`` (SVG text)."""
    _PAINTERS[kind] = painter


def picture(kind: str, thing: Any) -> str | None:
    """The SVG of ``thing`` drawn as a ``kind``, or None when nothing draws that kind."""
    painter = _PAINTERS.get(kind)
    return None if painter is None else painter(thing)


__all__ = ["picture", "register_painter"]
