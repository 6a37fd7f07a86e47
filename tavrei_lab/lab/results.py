"""One finished game of an experiment, as data: what the tables and plots read.

The runner makes these (``lab.runner.play_game``), the tables, measures and plots
summarise them; keeping the record type apart lets both sides import it without
importing each other.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from tavrei_lab.engine.selfplay import MAX_PLIES

#: Termination name of an adjudicated game (the cap of docs/adjudication.md).
ADJUDICATED = MAX_PLIES
#: The ways a game can end, in the order the tables and charts show them.
TERMINATIONS = ("checkmate", "king-capture", "stalemate", "threefold-repetition",
                "fifty-move-rule", ADJUDICATED)


@dataclass
class GameResult:
    """One finished game: who played, how it ended, what happened, and its record."""

    variant: str
    white: str
    black: str
    seed: int
    index: int
    agent_a: str
    agent_b: str
    result: str                 # "1-0", "0-1", "1/2-1/2"
    winner: str | None          # "white", "black" or None
    termination: str            # "checkmate", ..., or "max-plies" (adjudicated)
    adjudicated: bool
    plies: int
    mean_branching: float
    mean_tower_height: float
    max_tower_height: int
    prisoners_taken: int
    prisoners_freed: int
    captures: int
    splits: int
    rolls: int
    seconds: float
    record: str = field(repr=False, default="")

    @property
    def a_is_white(self) -> bool:
        """Agent A has white in the even-numbered games (both, in self-play)."""
        return self.index % 2 == 0

    @property
    def a_score(self) -> float:
        """Agent A's points: 1 for a win, 1/2 for a draw, 0 for a loss."""
        if self.winner is None:
            return 0.5
        a_colour = "white" if self.a_is_white else "black"
        return 1.0 if self.winner == a_colour else 0.0

    def comparable(self) -> dict[str, Any]:
        """Every field but the wall-clock time: what two runs of a seeded game share."""
        d = asdict(self)
        d.pop("seconds")
        return d


__all__ = ["ADJUDICATED", "GameResult", "TERMINATIONS"]
