"""What a game of a comparison is measured by, move by move.

Per game (``GameStats``, filled move by move while the game is played):
game length, branching factor, tower heights, prisoners taken and freed,
captures, splits. Per variant and per agent pair the tables sum and average
those; their intervals and tests (Wilson's for rates, Student's t for scores
and lengths) are defined in ``lab.statistics``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import COLOR_BIT
from tavrei_lab.engine.zobrist import changed_squares


def prisoner_changes(before: Position, move: Move, after: Position) -> tuple[int, int]:
    """How many tavrels ``move`` took prisoner and how many it freed.

    A tavrel is a *prisoner* while the top of its tower is the other
    colour's. Only the squares the move changes are looked at: under the
    landing unit, the tower that was there (or the en passant victim) gets
    a new top; on the square left, the rest gets a new top (a split frees
    the prisoners it uncovers); on an en passant victim's square likewise.
    The unit itself keeps its top, so its prisoners stay prisoners.

    >>> from tavrei_lab import Game
    >>> g = Game(); _ = g.play("e2-e4 d7-d5")
    >>> before = g.position; m = g.push("e4xd5")
    >>> prisoner_changes(before, m, g.position)
    (1, 0)
    """
    if move.castling:
        return (0, 0)
    taken = freed = 0
    k = move.count
    for s in changed_squares(before, move):
        old, new = before.board[s], after.board[s]
        if s == move.to_square:
            lower = new[:len(new) - k]
            if not lower:
                continue
            new_owner = new[-1] & COLOR_BIT
            old_owner = old[-1] & COLOR_BIT if old else None   # empty: an en passant victim
            for t in lower:
                was = old_owner is not None and t & COLOR_BIT != old_owner
                now = t & COLOR_BIT != new_owner
                taken += now and not was
                freed += was and not now
        else:
            if not old or not new:
                continue
            old_owner, new_owner = old[-1] & COLOR_BIT, new[-1] & COLOR_BIT
            for t in new:
                was = t & COLOR_BIT != old_owner
                now = t & COLOR_BIT != new_owner
                taken += now and not was
                freed += was and not now
    return (taken, freed)


@dataclass
class GameStats:
    """What one game did, gathered move by move (see ``record_move``)."""

    plies: int = 0
    decisions: int = 0
    legal_moves_total: int = 0
    height_sum: float = 0.0
    height_samples: int = 0
    max_tower_height: int = 1
    prisoners_taken: int = 0
    prisoners_freed: int = 0
    captures: int = 0
    splits: int = 0
    rolls: int = 0

    def record_decision(self, legal_moves: int) -> None:
        self.decisions += 1
        self.legal_moves_total += legal_moves

    def record_move(self, before: Position, move: Move, after: Position) -> None:
        self.plies += 1
        tower = before.board[move.from_square]
        dest = before.board[move.to_square]
        if not move.castling:
            if move.count < len(tower):
                self.splits += 1
            if (dest and dest[-1] & COLOR_BIT != before.turn) or (
                    move.to_square == before.ep_square and not dest
                    and len(changed_squares(before, move)) == 3):
                self.captures += 1
        taken, freed = prisoner_changes(before, move, after)
        self.prisoners_taken += taken
        self.prisoners_freed += freed
        occupied = [n for n in map(len, after.board) if n]
        if occupied:
            self.height_sum += sum(occupied) / len(occupied)
            self.height_samples += 1
            self.max_tower_height = max(self.max_tower_height, max(occupied))

    @property
    def mean_branching(self) -> float:
        return self.legal_moves_total / self.decisions if self.decisions else 0.0

    @property
    def mean_tower_height(self) -> float:
        return self.height_sum / self.height_samples if self.height_samples else 1.0

    def summary(self) -> dict[str, Any]:
        d = asdict(self)
        d["mean_branching"] = self.mean_branching
        d["mean_tower_height"] = self.mean_tower_height
        return d


__all__ = ["GameStats", "prisoner_changes"]
