"""``MoveListSelect``: the move list's ``Select``; the line it shows is ``MoveLine``
(``tavrei_lab.session.line``, plain Python, importable from here too)."""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

import ipywidgets as widgets
import traitlets

from tavrei_lab.session.line import MoveLine


class MoveListSelect(widgets.Select):
    """The move list's ``Select``: its values (``MoveLine.entries``' action counts)
    increase down the list, so an entry is found by bisection.

    ipywidgets looks a value up by scanning every option in Python, twice for each
    step through the game: 2.5-5 ms a step on a game of 20,000 plies, the last part
    of a step that grew with the game's length. These three handlers replace the
    scans (same names, so they stand in for ipywidgets' own); the checks are the same.
    """

    index: Any          # ipywidgets' trait (an annotation only: the descriptor stays)

    @traitlets.validate("value")
    def _validate_value(self, proposal: Any) -> Any:
        value = proposal.value
        if value is None:
            return None
        values = self._options_values
        at = bisect_left(values, value)
        if at < len(values) and values[at] == value:
            return value
        raise traitlets.TraitError("Invalid selection: value not found")

    @traitlets.observe("value")
    def _propagate_value(self, change: Any) -> None:
        index: int | None = (None if change.new is None
                             else bisect_left(self._options_values, change.new))
        if self.index != index:
            self.index = index

    @traitlets.validate("label")
    def _validate_label(self, proposal: Any) -> Any:
        label = proposal.value
        if label is None or (self.index is not None
                             and self._options_labels[self.index] == label):
            return label
        if label not in self._options_labels:
            raise traitlets.TraitError("Invalid selection: label not found")
        return label


__all__ = ["MoveLine", "MoveListSelect"]
