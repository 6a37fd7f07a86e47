"""``MoveLine``: the whole line a board steps through, kept in step with its game;
``entry_label`` and ``where_text``: how the move list and the status line name a place in it.

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

from tavrei_lab.core.move import Roll
from tavrei_lab.core.tavrel import WHITE
from tavrei_lab.game import Game
from tavrei_lab.i18n import gettext as _


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


def entry_label(line: MoveLine, played: int) -> str:
    """The move list's text for the action ``played`` (1-based): ``16. g1-f3``."""
    before = line.befores[played - 1]
    dots = "." if before.turn == WHITE else "..."
    return f"{before.fullmove_number}{dots} {line.texts[played - 1]}"


def where_text(line: MoveLine, played: int, ply: int, branch: int | None,
               branch_text: str) -> str:
    """Which position the board shows while stepping: "After 2... @B b7-b6 (ply 4 of 9)."

    ``played`` actions of ``line`` are on the board (``ply`` moves); past
    ``branch`` actions the board is on a side line that left the game at
    ``branch_text``.
    """
    if not played:
        return _("At the start position.")
    text = _("After {move} (ply {ply} of {plies}).").format(
        move=entry_label(line, played), ply=ply, plies=line.plies)
    if branch is not None and played > branch:
        text += " " + _("Your side line: the game went {move}.").format(move=branch_text)
    return text


__all__ = ["MoveLine", "entry_label", "where_text"]
