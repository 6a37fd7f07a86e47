"""Perft: count the leaves of the move tree, the standard proof of a move generator.

Each distinct (from, count, to) is one move and each castling is one move
(docs/rules.md A10). Every leaf is really played (``apply``), as in the
benchmark, so perft exercises move application as well as generation.

At chance nodes (die games) each face is expanded once and the counts of its
subtrees are added: a roll is not a ply, so ``depth`` counts moves only
(see ``rules.die`` for the die's own definition and tables).
"""

from __future__ import annotations

from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position


def perft(rules: Any, position: Position, depth: int) -> int:
    """Number of move sequences of length ``depth`` from ``position``."""
    own = getattr(rules, "perft", None)
    if own is not None:  # a module with its own definition (the die: passes use up depth)
        return int(own(position, depth))
    if rules.is_chance_node(position):
        if rules.outcome(position) is not None:
            return 0
        return sum(perft(rules, rules.apply_roll(position, face), depth)
                   for face, _ in rules.chance_outcomes(position))
    if depth == 0:
        return 1
    if rules.outcome(position) is not None and getattr(rules, "ends_on_outcome", False):
        return 0
    moves = rules.legal_moves(position)
    if depth == 1 and not getattr(rules, "has_chance", False):
        for m in moves:  # play every leaf, as the benchmark's contract says
            rules.apply(position, m)
        return len(moves)
    total = 0
    for m in moves:
        total += perft(rules, rules.apply(position, m), depth - 1)
    return total


def perft_divide(rules: Any, position: Position, depth: int) -> list[tuple[Move, int]]:
    """Perft split by first move (for finding where two generators disagree)."""
    if rules.is_chance_node(position):
        raise ValueError("divide starts at a decision node; roll first")
    return [(m, perft(rules, rules.apply(position, m), depth - 1))
            for m in rules.legal_moves(position)]
