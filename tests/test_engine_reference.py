"""The lesson search equals plain minimax written independently, here in the test.

``engine.search.minimax`` is the package's own reference, and it shares helpers
(terminal values, repetition by Zobrist hash, the horizon rule) with the
alpha-beta it checks. This reference shares none of them: it asks the rules
for moves, outcomes and positions, counts repetitions by the positions'
repetition keys, and calls only the evaluation itself (the thing both must
use). So a bug in a shared helper cannot hide from it.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.evaluate import positional_score
from tavrei_lab.engine.search import Limits, Searcher, game_history
from tests.test_engine_play import random_games

WIN = 10_000.0


def reference_minimax(game: Game, depth: int) -> tuple[float, set]:
    """Negamax over every legal move to ``depth``: (value, every best first move)."""
    rules = game.rules
    seen = Counter(p.key() for p in game.positions)

    def value(pos, d: int, ply: int) -> float:
        outcome = rules.outcome(pos)
        if outcome is not None:
            if outcome.winner is None:
                return 0.0
            return WIN - ply if outcome.winner == pos.turn else -(WIN - ply)
        if rules.options.get("fifty_move_rule") and pos.halfmove_clock >= 100:
            return 0.0
        if d == 0:
            return positional_score(pos, rules)
        return max(child_value(rules.apply(pos, m), d - 1, ply + 1)
                   for m in rules.legal_moves(pos))

    def child_value(child, d: int, ply: int) -> float:
        key = child.key()
        seen[key] += 1
        try:
            return 0.0 if seen[key] >= 3 else -value(child, d, ply)
        finally:
            seen[key] -= 1

    scored = [(child_value(rules.apply(game.position, m), depth - 1, 1), m)
              for m in rules.legal_moves(game.position)]
    best = max(v for v, _ in scored)
    return best, {m for v, m in scored if v == best}


@pytest.mark.parametrize("variant", ["tavreli", "orthodox", "tavreli-no-split"])
def test_lesson_search_equals_independent_minimax_depth_2(variant):
    for g in random_games(variant, 3, seed=21, plies=50):
        value, best = reference_minimax(g, 2)
        result = Searcher(g.rules).search(g.position, Limits(depth=2), game_history(g))
        assert result.value == pytest.approx(value, abs=1e-9), g.position.string
        assert set(result.best_moves) == best, g.position.string
        assert result.mode == "lesson"


@pytest.mark.parametrize("text", [
    "4v3/8/3l4/8/8/2(P:SS)5/8/4V3 w - 0 1",
    "v7/8/8/2(P:RK)5/8/8/8/4V3 b - 0 1",
    "7k/8/5K2/8/8/8/8/1R6 w - - 0 1",
])
def test_lesson_search_equals_independent_minimax_depth_3(text):
    variant = "orthodox" if "k" in text.split()[0] and "v" not in text else "tavreli"
    g = Game(variant, text)
    value, best = reference_minimax(g, 3)
    result = Searcher(g.rules).search(g.position, Limits(depth=3), game_history(g))
    assert result.value == pytest.approx(value, abs=1e-9)
    assert set(result.best_moves) == best


def test_repetition_counts_in_both():
    """A position that repeats for the third time inside the search is a draw in both."""
    g = Game("orthodox", "7k/8/8/8/8/8/8/K5Q1 w - - 0 1")
    g.play("g1-g2 h8-h7 g2-g1 h7-h8 g1-g2 h8-h7")
    value, best = reference_minimax(g, 2)
    result = Searcher(g.rules).search(g.position, Limits(depth=2), game_history(g))
    assert result.value == pytest.approx(value, abs=1e-9)
    assert set(result.best_moves) == best
