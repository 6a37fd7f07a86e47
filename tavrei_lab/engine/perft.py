"""Perft: count the leaves of the move tree, the standard proof of a move generator.

Each distinct (from, count, to) is one move and each castling is one move
(docs/rules.md A10). Every leaf is really played (``apply``), as in the
benchmark, so perft exercises move application as well as generation.

The count is the rule module's (``RuleModule.perft``): by default a roll at
a chance node is not a ply and each face is expanded once
(``RuleModuleBase.perft``); the die counts turns (``rules.die``).
"""

from __future__ import annotations

from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position
from tavrei_lab.rules.base import RuleModule


def perft(rules: RuleModule, position: Position, depth: int) -> int:
    """Number of move sequences of length ``depth`` from ``position``: the rule
    module's own count (``RuleModule.perft``; the die counts turns)."""
    return rules.perft(position, depth)


def perft_divide(rules: RuleModule, position: Position, depth: int) -> list[tuple[Move, int]]:
    """Perft split by first move (for finding where two generators disagree)."""
    if rules.is_chance_node(position):
        raise ValueError("divide starts at a decision node; roll first")
    return [(m, perft(rules, rules.apply(position, m), depth - 1))
            for m in rules.legal_moves(position)]
