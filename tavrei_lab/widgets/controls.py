"""Small pieces every panel of the board builds with (a button that calls a function)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets


def button(description: str, tooltip: str, handler: Callable[[], Any],
           width: str = "auto") -> widgets.Button:
    """A button running ``handler()`` on a click (the click event itself is not wanted)."""
    made = widgets.Button(description=description, tooltip=tooltip,
                          layout=widgets.Layout(width=width))
    made.on_click(lambda _b: handler())
    return made


__all__ = ["button"]
