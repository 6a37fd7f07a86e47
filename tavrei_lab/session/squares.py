"""A square as a person gives it to a board: its index or its name (``"e2"``).

One reader for every place a board takes a square (a click, a drop, a
lesson's call), so a bad one is refused the same way everywhere: one line
saying what was given and what a square of this board is.
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.errors import ArgumentError
from tavrei_lab.i18n import gettext as _


def square_index(geometry: Any, square: Any) -> int:
    """The index of ``square`` on ``geometry``'s board: an index ``0 .. size-1`` or a name.

    Raises ``ArgumentError`` for an index off the board (a negative one too:
    ``-1`` is no square, not the last one) and ``NotationError`` for a name
    that is not a square here; both are ``TavreiError``.
    """
    if isinstance(square, str):
        return int(geometry.parse(square.strip().lower()))
    if isinstance(square, bool) or not isinstance(square, int):
        raise ArgumentError(_("a square is a name such as e2 or an index 0-{last}, "
                              "not {value}").format(last=geometry.size - 1,
                                                    value=repr(square)[:40]))
    if not 0 <= square < geometry.size:
        raise ArgumentError(_("square index {index} is off the board: a {width}x{height} "
                              "board has the squares 0-{last}").format(
                                  index=square, width=geometry.width, height=geometry.height,
                                  last=geometry.size - 1))
    return square


__all__ = ["square_index"]
