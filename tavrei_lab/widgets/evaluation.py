"""The evaluation bar beside the board and the graph under its moves (lichess's
analysis board), shown on demand: the ``Evaluation`` toggle.

The board's session computes every figure (``BoardSession.evaluation`` and
``evaluation_graph``, node-limited: the same position always gets the same
figure); this panel only draws them (``render.evaluation``) and reports a click
on the graph, which the board turns into ``go_to_ply``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from tavrei_lab.i18n import gettext as _
from tavrei_lab.render.evaluation import evaluation_bar_svg, evaluation_graph_svg
from tavrei_lab.widgets.esm import widget_module


class EvaluationGraphView(anywidget.AnyWidget):
    """The graph's SVG (``svg``) and the clicks on it (``click``: ``{"ply", "seq"}``);
    with ``kind="bar"`` the bar, drawn as tall as the board beside it, its figure
    (``label``) written over it and white's ``share`` deciding the label's colour."""

    _esm = widget_module("evaluation")
    _css = """
    .tavrei-eval-bar-widget { position: relative; width: 24px; line-height: 0; }
    .tavrei-eval-bar-svg svg { display: block; width: 24px; height: 100%; }
    .tavrei-eval-label { position: absolute; left: 0; right: 0; bottom: 2px;
      font: 10px/1 sans-serif; text-align: center; color: #222; }
    .tavrei-eval-label.black-ahead { bottom: auto; top: 2px; color: #eee; }
    .tavrei-eval-graph-svg { line-height: 0; }
    """

    kind = traitlets.Unicode("graph").tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)
    share = traitlets.Float(0.5).tag(sync=True)
    click = traitlets.Dict(default_value={}).tag(sync=True)


class EvaluationPanel:
    """The toggle, the bar (beside the board) and the graph (under the moves).

    ``toggled(on)`` is called when a person turns the evaluation on or off;
    ``jump(ply)`` when one clicks the graph's column of ``ply``.
    """

    def __init__(self, toggled: Callable[[bool], Any], jump: Callable[[int], Any]) -> None:
        self.toggle = widgets.ToggleButton(
            value=False, description=_("Evaluation"),
            tooltip=_("the engine's figure for the shown position and a graph over the "
                      "game (a click on the graph shows that ply)"),
            layout=widgets.Layout(width="210px"))
        self.toggle.observe(lambda change: toggled(bool(change["new"])), "value")
        self.bar = EvaluationGraphView(kind="bar", layout=widgets.Layout(
            width="24px", display="none", flex="none", align_self="flex-start"))
        self.bar.add_class("tavrei-eval-bar-box")
        self.graph = EvaluationGraphView(layout=widgets.Layout(display="none"))
        self.graph.observe(lambda change: self._on_click(change, jump), "click")
        #: the figures drawn last: (white's share, label) per ply, and the shown ply
        self.drawn: tuple[list[tuple[float, str]], int] = ([], 0)

    @staticmethod
    def _on_click(change: Any, jump: Callable[[int], Any]) -> None:
        ply = (change["new"] or {}).get("ply")
        if isinstance(ply, int) and not isinstance(ply, bool):
            jump(ply)

    def show(self, session: Any, flipped: bool) -> None:
        """Draw the session's figures, or hide the bar and graph while it is off."""
        on = bool(session.show_evaluation)
        self.bar.layout.display = "" if on else "none"
        self.graph.layout.display = "" if on else "none"
        if not on:
            return
        now = session.evaluation()
        graph = session.evaluation_graph()
        ply = session.game.ply
        points = [(e.white_share(), e.text()) for e in graph]
        self.drawn = (points, ply)
        with self.bar.hold_sync():
            self.bar.share = now.white_share()
            self.bar.label = now.text()
            self.bar.svg = evaluation_bar_svg(
                now.white_share(), "", flipped=flipped,
                title=_("Evaluation: {value} for white").format(value=now.text()))
        titles = [_("ply {ply}: {value}").format(ply=i, value=text)
                  for i, (_share, text) in enumerate(points)]
        self.graph.svg = evaluation_graph_svg([s for s, _t in points], titles, ply)


__all__ = ["EvaluationGraphView", "EvaluationPanel"]
