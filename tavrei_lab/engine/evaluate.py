"""A documented evaluation for Tavreli-family positions.

Towers change what "material" means: a tavrel buried under an enemy is
out of play but not gone, and may be freed by a split. So material is
counted by **who holds whom**:

- an own tavrel in an own-topped tower (top or below) counts fully
  (``VALUES`` of its acting kind);
- an enemy tavrel held prisoner in an own-topped tower counts ``PRISONER``
  of its value for us (it is out of the enemy's play, and ours to carry);
- an own tavrel held prisoner under an enemy top counts ``HELD`` of its
  value (it may still be freed).

Plus ``MOBILITY`` per legal move of the side to move (a cheap pseudo-move
count for the other side), and ``VOLKHV_THREAT`` per enemy attacker of
the squares around each volkhv. The score is in pawn units (centipawns / 100)
from the point of view of the side to move, as negamax search wants it.
Terminal positions score ``MATE`` (minus the ply, so quicker mates are better).
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.core.position import Position
from tavrei_lab.core.tavrel import BISHOP, HELGI, KING, KNIGHT, PAWN, QUEEN, ROOK

VALUES = {PAWN: 1.0, KNIGHT: 3.0, BISHOP: 3.0, ROOK: 5.0, QUEEN: 9.0, HELGI: 12.0,
          KING: 0.0}
PRISONER = 0.5
HELD = 0.4
MOBILITY = 0.02
VOLKHV_THREAT = 0.15
MATE = 10_000.0


def material(position: Position) -> float:
    """Material for white minus black, counted by who holds whom."""
    score = 0.0
    for tower in position.board:
        if not tower:
            continue
        owner = tower[-1] & 1
        for t in tower:
            v = VALUES[t.acting_kind if t is tower[-1] else t.kind]
            sign = 1.0 if t & 1 == 0 else -1.0
            if t & 1 == owner:
                score += sign * v
            else:
                # t is a prisoner of ``owner``: partly ours (if we hold it) ...
                score -= sign * v * PRISONER
                # ... and its own side keeps HELD of its value (it may be freed).
                score += sign * v * HELD
    return score


def volkhv_danger(rules: Any, position: Position, color: int) -> int:
    """Enemy attacks on the squares around ``color``'s volkhv."""
    ks = position.king_square(color)  # type: ignore[arg-type]
    if ks is None:
        return 0
    g = position.geometry
    return sum(1 for s in (ks, *g.king[ks]) if rules.is_attacked(position, s, 1 - color))


def evaluate(position: Position, rules: Any | None = None) -> float:
    """Score for the side to move (positive: good for it)."""
    rules = rules or position.rules
    me = position.turn
    outcome = rules.outcome(position) if not rules.is_chance_node(position) else None
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return MATE if outcome.winner == me else -MATE
    white_view = material(position)
    score = white_view if me == 0 else -white_view
    if not rules.is_chance_node(position):
        score += MOBILITY * len(rules.legal_moves(position))
    pseudo = getattr(rules, "pseudo_moves", None)
    if pseudo is not None:
        other = position.replace(turn=1 - me, ep_square=None)
        score -= MOBILITY * len(pseudo(other))
    score += VOLKHV_THREAT * (volkhv_danger(rules, position, 1 - me)
                              - volkhv_danger(rules, position, me))
    return score
