"""Perft: count the leaves of the move tree, the standard proof of a move generator.

Each distinct (from, count, to) is one move and each castling is one move
(docs/rules.md A10). Every leaf is really played (``apply``), as in the
benchmark, so perft exercises move application as well as generation.

The count is the rule module's (``RuleModule.perft``): by default a roll at
a chance node is not a ply and each face is expanded once
(``RuleModuleBase.perft``); the die counts turns (``rules.die``).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import Any

from tavrei_lab.core.move import Move
from tavrei_lab.core.position import Position
from tavrei_lab.core.progress import progress_of
from tavrei_lab.errors import LimitError
from tavrei_lab.i18n import gettext as _
from tavrei_lab.rules.base import RuleModule

#: Deepest perft asked for (no perft past a dozen plies ever finishes; deeper than
#: this the recursion itself would run out).
MAX_PERFT_DEPTH = 30


def perft(rules: RuleModule, position: Position, depth: int) -> int:
    """Number of move sequences of length ``depth`` from ``position``: the rule
    module's own count (``RuleModule.perft``; the die counts turns)."""
    return rules.perft(position, depth)


def perft_divide(rules: RuleModule, position: Position, depth: int) -> list[tuple[Move, int]]:
    """Perft split by first move (for finding where two generators disagree)."""
    if rules.is_chance_node(position):
        raise ValueError(_("divide starts at a decision node; roll first"))
    return [(m, perft(rules, rules.apply(position, m), depth - 1))
            for m in rules.legal_moves(position)]


class _Meter:
    """Counts the moves a perft plays; past ``max_nodes`` it stops the count."""

    def __init__(self, max_nodes: int, progress: Any) -> None:
        self.max_nodes = max_nodes
        self.bar, self.progress = progress_of(progress, "perft", " moves")
        self.nodes = 0
        self.started = time.monotonic()
        self.next_report = 1 << 18

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise LimitError(_("perft played more than {most} moves and stopped; raise "
                               "--max-nodes or lower the depth").format(most=self.max_nodes))
        if self.nodes >= self.next_report:
            self.next_report += 1 << 18
            if self.progress is not None:
                self.progress(self.nodes, time.monotonic() - self.started)
            if self.bar is not None:
                self.bar.update(self.nodes - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.update(self.nodes - self.bar.n)
            self.bar.close()


def metered(rules: RuleModule, max_nodes: int,
            progress: Callable[[int, float], None] | bool | str | None = None) -> Any:
    """A copy of ``rules`` whose ``apply`` counts: past ``max_nodes`` moves played it
    raises ``LimitError``; ``progress(moves, seconds)`` now and then, or with True (or
    a mode) a ``tqdm.auto`` bar of the moves played, shown once a count lasts a second
    (``counted.meter.close()`` ends it). Any module's own perft (the die's turn count,
    a plugin's) run on it is bounded alike."""
    meter = _Meter(max_nodes, progress)
    counted: Any = copy.copy(rules)
    play = rules.apply

    def apply(position: Position, move: Move) -> Position:
        meter.tick()
        return play(position, move)

    counted.apply = apply
    counted.meter = meter
    return counted


def bounded_perft(rules: RuleModule, position: Position, depth: int, max_nodes: int,
                  progress: Callable[[int, float], None] | bool | str | None = None) -> int:
    """``perft``, refused past ``MAX_PERFT_DEPTH`` and stopped (``LimitError``) once it
    has played ``max_nodes`` moves (see ``metered``, also for ``progress``)."""
    check_depth(depth)
    counted = metered(rules, max_nodes, progress)
    try:
        return int(counted.perft(position, depth))
    finally:
        counted.meter.close()


def check_depth(depth: int) -> None:
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise LimitError(_("perft depth must be 0..{most}, got {depth}").format(
            most=MAX_PERFT_DEPTH, depth=depth))
