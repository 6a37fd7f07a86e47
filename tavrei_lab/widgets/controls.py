"""Small pieces every panel of the board builds with: a button that calls a function,
and the wrapper that runs a widget's handlers in the widget's own language."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as widgets

from tavrei_lab.i18n import speaking

_Handler = TypeVar("_Handler", bound=Callable[..., Any])


def in_own_language(method: _Handler) -> _Handler:
    """Run a method in the language its widget was made in (``self.language``): a
    click comes long after the cell that made a Russian board, outside any
    ``speaking`` block."""
    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        with speaking(getattr(self, "language", None)):
            return method(self, *args, **kwargs)
    return run  # type: ignore[return-value]


def button(description: str, tooltip: str, handler: Callable[[], Any],
           width: str = "auto") -> widgets.Button:
    """A button running ``handler()`` on a click (the click event itself is not wanted)."""
    made = widgets.Button(description=description, tooltip=tooltip,
                          layout=widgets.Layout(width=width))
    made.on_click(lambda _b: handler())
    return made


__all__ = ["button", "in_own_language"]
