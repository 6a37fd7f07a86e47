"""Alpha-beta against a minimax written here, from the rules' public methods only.

tests/test_engine_search.py compares ``Searcher`` with the engine's own reference
``minimax``; both share the engine's node helpers (the end of the game, mate
scores, the horizon), so a mistake there would pass unseen. The negamax below
shares nothing with the engine but the rule module's public contract
(``legal_moves``, ``apply``, ``outcome``) and the documented scale of a mate
(``MATE - ply`` for the side that mates, docs of ``engine.search``); the leaf
evaluation is written here too and handed to the searcher.
"""

from __future__ import annotations

import random

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.evaluate import MATE
from tavrei_lab.engine.search import Limits, Searcher, game_history

#: (variant, position or None for a random game from the start, depth)
CASES = [
    ("tavreli", "4v3/8/3l4/8/8/2(P:SS)5/8/4V3 w - 0 1", 3),
    ("tavreli", "v7/8/8/2(P:RK)5/8/8/8/4V3 b - 0 1", 3),
    ("tavreli", "4v3/2r5/8/3(Sp:K)4/4(lP:L)3/8/5R2/4V3 w - 0 30", 2),
    # mate in one for white (a1-a8), and a position where black is already mated soon
    ("tavreli", "4v3/8/4V3/8/8/8/8/R7 w - 0 1", 3),
    ("tavreli", None, 2),
    ("orthodox", None, 2),
]


def towers_balance(position, rules) -> float:  # noqa: ANN001 - an evaluation as search takes it
    """Towers topped by the side to move minus the opponent's, plus half a point per
    enemy tavrel it holds prisoner (and minus for its own held): simple and exact."""
    score = 0.0
    for tower in position.board:
        if not tower:
            continue
        mine = (tower[-1] & 1) == position.turn
        held = sum(1 for t in tower[:-1] if (t & 1) != (tower[-1] & 1))
        score += (1 if mine else -1) * (1 + 0.5 * held)
    return score


def negamax(rules, position, depth: int, ply: int = 0) -> float:  # noqa: ANN001
    """The value for the side to move, looking ``depth`` moves ahead."""
    outcome = rules.outcome(position)
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return MATE - ply if outcome.winner == position.turn else -(MATE - ply)
    if depth == 0:
        return towers_balance(position, rules)
    return max(-negamax(rules, rules.apply(position, move), depth - 1, ply + 1)
               for move in rules.legal_moves(position))


def random_game(variant: str, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(variant)
    for _ in range(rng.randrange(6, 16)):
        game.push(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize(("variant", "position", "depth"), CASES)
def test_alphabeta_agrees_with_an_independent_negamax(variant: str, position: str | None,
                                                     depth: int) -> None:
    game = Game(variant, position) if position else random_game(variant, seed=depth * 7)
    rules, root = game.rules, game.position
    assert root.halfmove_clock + depth < 100         # the fifty-move rule cannot bite
    values = {move: -negamax(rules, rules.apply(root, move), depth - 1, 1)
              for move in rules.legal_moves(root)}
    best = max(values.values())
    for options in ({}, {"use_table": False, "ordering": False}):
        searcher = Searcher(rules, evaluation=towers_balance, **options)
        result = searcher.search(root, Limits(depth=depth), game_history(game))
        assert result.value == pytest.approx(best, abs=1e-9), (root.string, options)
        assert set(result.best_moves) == {m for m, v in values.items() if v == best}


def test_the_reference_sees_the_mate() -> None:
    game = Game("tavreli", "4v3/8/4V3/8/8/8/8/R7 w - 0 1")
    assert negamax(game.rules, game.position, 1) == MATE - 1
