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


def widgets_of(root: widgets.Widget) -> list[widgets.Widget]:
    """Every widget reachable from ``root``: through its traits (children, layout,
    style) and its attributes, each once."""
    found: dict[int, widgets.Widget] = {}
    todo = [root]
    while todo:
        widget = todo.pop()
        if id(widget) in found:
            continue
        found[id(widget)] = widget
        values = [getattr(widget, name, None) for name in widget.keys]
        values += list(vars(widget).values())
        for value in values:
            items = value if isinstance(value, (list, tuple)) else (value,)
            todo += [item for item in items if isinstance(item, widgets.Widget)]
    return list(found.values())


def no_null_tooltips(root: widgets.Widget) -> None:
    """Give every widget under ``root`` without a tooltip an empty one: ipywidgets'
    page code writes a tooltip of None into the label's title, which the browser
    then shows as the word "null"."""
    for widget in widgets_of(root):
        if "tooltip" in widget.keys and widget.tooltip is None:
            widget.tooltip = ""


__all__ = ["button", "in_own_language", "no_null_tooltips", "widgets_of"]
