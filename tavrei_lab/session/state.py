"""The board session's state: what it holds and what it reads from it.

``SessionState`` is everything a board knows -- the game, the line and side
lines, the half-made choice, a teacher's marks, the engine's hint, who plays
each side -- and the questions a view asks of it (legal moves, destinations,
what to draw). ``BoardSession`` (``session/board.py``) adds the actions;
``Update`` is what an action hands the view.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.tavrel import BLACK, COLOR_NAMES, WHITE
from tavrei_lab.game import Game
from tavrei_lab.i18n import speaking
from tavrei_lab.session.choices import Choices
from tavrei_lab.session.drawing import draw
from tavrei_lab.session.evaluation import Evaluations
from tavrei_lab.session.line import MoveLine, where_text
from tavrei_lab.session.players import HUMAN, player_options
from tavrei_lab.session.squares import square_index
from tavrei_lab.session.status import state_text

#: A lesson's hook: ``callback(owner, move)``, the owner being the widget (or the session).
MoveListener = Callable[[Any, Move], Any]


@dataclasses.dataclass
class Update:
    """What the view must show after an action.

    ``message``: the status line's sentence(s); ``effects``: what the next
    drawing plays (``{"slide": [[from, to], ...], "flash": [square, ...],
    "roll": True}``); ``promotion``: the moves to choose between (one per
    promotion; empty when no choice is open); ``new_game``: a different game
    is on the board (the view resets what belongs to the old one).
    """

    message: str = ""
    effects: dict[str, Any] = dataclasses.field(default_factory=dict)
    promotion: list[Move] = dataclasses.field(default_factory=list)
    new_game: bool = False



class SessionState:
    """A board's state and the questions a view asks of it (see the module)."""

    def __init__(self, game: Game | None = None, *, white: str = HUMAN, black: str = HUMAN,
                 auto_roll: bool = False, flipped: bool = False,
                 language: str | None = None) -> None:
        with speaking(language) as chosen:
            #: the language every sentence of the session is said in
            self.language = chosen
            player_options(white, black)       # an unknown player raises TavreiError
        self.game: Game = game if game is not None else Game()
        self.players: dict[int, str] = {WHITE: white, BLACK: black}
        self.auto_roll = auto_roll
        self.flipped = flipped
        self.show_movable = False
        #: the engine's figures (node-limited, kept per position) and whether they show
        self.evaluations = Evaluations()
        self.show_evaluation = False
        self.choices = Choices()
        self.arrows: list[tuple[Any, ...]] = []
        self.highlights: list[Any] = []
        #: the engine's arrow and the position it belongs to (Best move)
        self.hint: tuple[Any, tuple[str, str, str]] | None = None
        self.message = ""
        #: the game itself while a side line is explored on a copy (``game``)
        self.main_game: Game | None = None
        #: actions before the side line's first move, and the game's own move there
        self.branch: int | None = None
        self.branch_text = ""
        self.took_back = False            # undo ran last: the next move replaces
        self.listeners: list[MoveListener] = []
        #: what listeners receive as their first argument (the widget sets itself)
        self.owner: Any = self
        self.busy = False                 # True while listeners judge a move
        self._effects: dict[str, Any] = {}
        self._rejected: Update | None = None
        self._dropping = False
        self._line = MoveLine()
        self._legal_for: tuple[Any, list[Move]] | None = None
        self._agents: dict[int, tuple[str, Any]] = {}
        self._searchers: dict[str, Any] = {}

    # == reading the state =========================================================
    @property
    def selected(self) -> int | None:
        return self.choices.selected

    @property
    def count(self) -> int | None:
        return self.choices.count

    @property
    def pending_promotion(self) -> list[Move]:
        return self.choices.pending_promotion

    def legal_moves(self) -> list[Move]:
        """The legal moves now (cached per position: a click asks several times)."""
        pos = self.game.position
        if self._legal_for is None or self._legal_for[0] is not pos:
            moves = [] if self.game.is_chance_node() else list(self.game.legal_moves())
            self._legal_for = (pos, moves)
        return self._legal_for[1]

    def destinations(self) -> list[int]:
        """Squares the selected unit (``selected``, ``count``) may move to."""
        if self.selected is None:
            return []
        return sorted({m.to_square for m in self.legal_moves()
                       if m.from_square == self.selected and m.count == self.count})

    def counts_from(self, square: int) -> list[int]:
        """How many tavrels of the tower on ``square`` may move now."""
        return sorted({m.count for m in self.legal_moves() if m.from_square == square})

    def greyed(self) -> list[str]:
        """Own towers that may not move now because of the die face (die games only)."""
        pos = self.game.position
        if pos.roll is None or self.game.is_chance_node():
            return []
        movable = {m.from_square for m in self.legal_moves()}
        return [pos.geometry.name(s) for s, tower in enumerate(pos.board)
                if tower and tower[-1].color == pos.turn and s not in movable]

    def moves_by_tower(self) -> dict[str, dict[str, list[str]]]:
        """Where each tower may go now, per count: ``{"e2": {"1": ["e3", "e4"]}}``.

        The view gets it with every drawing, so a drag shows its destinations
        without asking Python. Empty when no person may move.
        """
        if self.pending_promotion or not self.is_human_turn() or self.game.outcome():
            return {}
        names = self.game.position.geometry.names
        out: dict[str, dict[str, list[str]]] = {}
        for m in self.legal_moves():
            dests = out.setdefault(names[m.from_square], {}).setdefault(str(m.count), [])
            if names[m.to_square] not in dests:
                dests.append(names[m.to_square])
        return out

    def player(self, color: int) -> str:
        return self.players[color]

    def is_human_turn(self) -> bool:
        return self.players[self.game.position.turn] == HUMAN

    def line(self) -> MoveLine:
        """The whole line -- what was played plus what can be redone -- with its texts."""
        self._line.follow(self.game)
        return self._line

    def state_text(self) -> str:
        """Whose turn, check, mate, stalemate, draws: the first half of the status line."""
        with speaking(self.language):
            return state_text(self.game)

    def where_text(self) -> str:
        """Which position is shown while stepping: "After 2... @B b7-b6 (ply 4 of 9)."."""
        with speaking(self.language):
            return where_text(self.line(), self.game.action_count, self.game.ply,
                              self.branch, self.branch_text)

    def game_traits(self) -> dict[str, Any]:
        """The shown position in plain values: its text, ply, side to move and result."""
        game = self.game
        outcome = game.outcome()
        return {"position_string": game.position.string, "ply": game.ply,
                "side_to_move": COLOR_NAMES[game.position.turn],
                "outcome": None if outcome is None else outcome.result()}

    def movable_marks(self) -> list[tuple[str, str]]:
        """With "show movable" on: every tower that can move, tinted green."""
        if not self.show_movable:
            return []
        return [(name, "green") for name in self.moves_by_tower()]

    def svg(self, *, size: int | None = None, letter_px: float | None = None) -> str:
        """The board as the session shows it: selection, destinations, marks, hint."""
        split = self.count if self.selected is not None else None
        hint = self.hint
        engine = [hint[1]] if hint is not None and hint[0] is self.game.position else []
        return draw(self.game, flipped=self.flipped, selected=self.selected,
                    destinations=self.destinations() or None, split_count=split,
                    size=size, arrows=self.arrows + engine,
                    highlights=self.highlights + self.movable_marks(), letter_px=letter_px)

    def square(self, square: int | str) -> int:
        """A square of this board by index or name (``"e2"``); a bad one raises ``TavreiError``."""
        return square_index(self.game.position.geometry, square)

    def agent(self, color: int) -> Any:
        """The agent playing ``color`` (made once per player, seeded ``seed + color``)."""
        from tavrei_lab.engine.agents import make_agent
        spec = self.players[color]
        cached = self._agents.get(color)
        if cached is None or cached[0] != spec:
            seed = self.game.seed
            cached = (spec, make_agent(spec, seed=None if seed is None else seed + color))
            self._agents[color] = cached
        return cached[1]

    def check_marks(self, arrows: list[Any], highlights: list[Any]) -> None:
        """Draw once with these marks, so a bad one raises before anything changes."""
        draw(self.game, arrows=arrows, highlights=highlights)

    # == shared by the actions ====================================================
    def close_choices(self) -> None:
        """Every navigation closes the selection and an open promotion."""
        self.choices.close()

    def default_count(self, square: int) -> int:
        """The count a tower is picked up with: whole, or the largest part that can move."""
        height = len(self.game.position.board[square])
        counts = self.counts_from(square)
        return height if (height in counts or not counts) else counts[-1]

    def _done(self, messages: list[str]) -> Update:
        self.message = " ".join(m for m in messages if m)
        effects, self._effects = self._effects, {}
        return Update(self.message, effects, list(self.pending_promotion))

    def _slide(self, move: Move, back: bool = False) -> None:
        """Animate ``move`` with the next drawing (``back``: as it is taken back)."""
        names = self.game.position.geometry.names
        fr, to = names[move.from_square], names[move.to_square]
        self._effects.setdefault("slide", []).append([to, fr] if back else [fr, to])

    def _flash(self, *squares: int, home: Move | None = None) -> None:
        """With the next drawing: flash ``squares``; slide ``home``'s tower back to its start."""
        names = self.game.position.geometry.names
        self._effects.setdefault("flash", []).extend(names[s] for s in squares)
        if home is not None:
            self._effects.setdefault("slide", []).append(
                [names[home.to_square], names[home.from_square]])


__all__ = ["MoveListener", "SessionState", "Update"]
