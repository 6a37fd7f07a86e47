"""``MoveLine``: the whole line a board steps through, kept in step with its game.

The line is everything played plus everything ``redo`` would play again; the
board's move list shows it and the arrow keys walk along it. Stepping
(``Game.pop``/``Game.redo``) never changes the line, so its texts are written
once and kept: they are rebuilt only from the first action that differs after
the game's ``line_version`` says the line changed (a new move, a rejected one).
That makes a step cost the same in a game of 20 plies and in one of 20,000 --
writing every move's text again on each step took ~1 s on the long game.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

import ipywidgets as widgets
import traitlets

from tavrei_lab.core.move import Roll
from tavrei_lab.core.tavrel import WHITE
from tavrei_lab.game import Game


class MoveLine:
    """The texts of a game's whole line and the move list's entries, updated incrementally.

    ``texts[i]`` is action ``i`` (a move or ``@face`` for a roll) written in the
    position it was played from, ``befores[i]`` that position; ``entries`` are the
    move list's ``(label, actions played at its end)`` pairs, ``"start"`` first, each
    die roll inline before the move it allowed; ``plies`` counts the moves.
    ``version`` changes whenever ``entries`` do.
    """

    def __init__(self) -> None:
        self._game: Game | None = None
        self._game_version = -1
        self.befores: list[Any] = []      # the position each action was played from
        self._afters: list[Any] = []      # the position each action led to
        self.texts: list[str] = []
        self.plies = 0
        self.entries: list[tuple[str, int]] = [("start", 0)]
        self._values: list[int] = [0]     # entries' values, for bisect
        self.version = 0

    def __len__(self) -> int:
        return len(self.texts)

    def follow(self, game: Game) -> None:
        """Bring the line up to date with ``game`` (nothing to do after a mere step)."""
        if game is self._game and game.line_version == self._game_version:
            return
        undone = game.undone
        actions = game.history + [action for action, _ in undone]
        positions = game.positions + [after for _, after in undone]
        # Every action makes a new position object, redo puts back the very one undone
        # and a copy of the game shares them (a side line on the board), so the line
        # stands as far as the positions are the same objects.
        keep, limit = 0, min(len(actions), len(self._afters))
        if self.befores and positions[0] is not self.befores[0]:
            limit = 0                      # another game altogether
        while keep < limit and positions[keep + 1] is self._afters[keep]:
            keep += 1
        self._truncate(keep)
        for i in range(keep, len(actions)):
            action, before = actions[i], positions[i]
            text = f"@{action.face}" if isinstance(action, Roll) else game.move_text(action, before)
            self.befores.append(before)
            self._afters.append(positions[i + 1])
            self.texts.append(text)
            if not isinstance(action, Roll):
                self.plies += 1
        self._entries_from(keep)
        self._game, self._game_version = game, game.line_version

    def entry_at(self, played: int) -> int:
        """The move list's value for the position after ``played`` actions (the entry
        holding the last action played)."""
        return self._values[min(bisect_left(self._values, played), len(self._values) - 1)]

    # -- inside --------------------------------------------------------------------
    def _truncate(self, keep: int) -> None:
        if keep >= len(self.texts):
            return
        self.plies -= sum(1 for text in self.texts[keep:] if not text.startswith("@"))
        del self.befores[keep:], self._afters[keep:], self.texts[keep:]

    def _entries_from(self, start: int) -> None:
        """Rewrite the move list's entries for the actions from ``start`` on.

        Entries ending at or before ``start`` stand, except a lone roll at their
        end: the move it waited for may follow it now.
        """
        values = self._values
        cut = bisect_right(values, start)            # entries covering only kept actions
        if cut > 1 and self.texts[values[cut - 1] - 1].startswith("@"):
            cut -= 1
        first = values[cut - 1]                      # the actions those entries cover
        del self.entries[cut:], values[cut:]
        roll: tuple[str, int] | None = None          # a roll waiting for its move
        for i in range(first, len(self.texts)):
            pos, text = self.befores[i], self.texts[i]
            dots = "." if pos.turn == WHITE else "..."
            if text.startswith("@"):
                if roll is not None:                 # the roll before this one passed the turn
                    self.entries.append(roll)
                    values.append(roll[1])
                roll = (f"{pos.fullmove_number}{dots} {text}", i + 1)
                continue
            label = f"{roll[0]} {text}" if roll else f"{pos.fullmove_number}{dots} {text}"
            self.entries.append((label, i + 1))
            values.append(i + 1)
            roll = None
        if roll is not None:
            self.entries.append(roll)
            values.append(roll[1])
        self.version += 1


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
