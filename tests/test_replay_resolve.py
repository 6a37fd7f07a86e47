"""Reading a move generates only the moves between its squares, and changes no answer.

Resolving each move text by building the whole legal move list cost 78 % of a
replay, so ``Game`` asks the rules for the legal moves from the named square to
the named square (``legal_moves_from``). That list must be exactly ``legal_moves``
filtered, in its order, in every shipped variant, in and out of check, with splits,
castling, en passant and promotion choices; and a plug-in that changes
``legal_moves`` stays the truth.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.errors import IllegalMoveError
from tavrei_lab.rules.registry import register_rule_module
from tavrei_lab.rules.stacking import TowerChessRules
from tests.test_legality_shortcuts import SHIPPED, family_of


def filtered(moves: list, fr: int, to: int | None) -> list:
    return [m for m in moves if m.from_square == fr and (to is None or m.to_square == to)]


@pytest.mark.parametrize("variant", SHIPPED)
def test_moves_from_a_square_are_the_legal_moves_filtered(variant: str) -> None:
    rng = random.Random(27)
    checked = 0
    for _ in range(3):
        game = Game(variant)
        for _ in range(60):
            if game.is_game_over():
                break
            if game.is_chance_node():
                game.roll(rng)
                continue
            pos = game.position
            rules = family_of(game.rules)
            legal = rules.legal_moves(pos)
            squares = {m.from_square for m in legal} | set(rng.sample(range(pos.geometry.size), 4))
            for fr in squares:
                assert rules.legal_moves_from(pos, fr) == filtered(legal, fr, None)
                for to in {m.to_square for m in legal if m.from_square == fr} | {fr, 0}:
                    assert rules.legal_moves_from(pos, fr, to) == filtered(legal, fr, to)
                    checked += 1
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
    assert checked > 100


def test_castling_en_passant_and_promotion_choice_are_found_from_their_squares() -> None:
    game = Game("orthodox")
    game.play("e2-e4 d7-d5 e4-e5 f7-f5 e5xf6 g7xf6 g1-f3 b8-c6 f1-e2 c8-e6")
    assert game.push("e1-g1").castling                      # castling named as a volkhv move
    game = Game("orthodox")
    game.play("e2-e4 a7-a6 e4-e5 d7-d5")
    assert game.push("e5xd6").to_square == game.position.geometry.parse("d6")  # en passant
    game = Game("orthodox", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(IllegalMoveError, match=r"name the promotion \(="):
        game.push("b7-b8")
    assert game.ply == 0
    assert game.push("b7-b8=N").promotion


def test_a_plugin_that_changes_legal_moves_is_still_asked(tmp_path: Path) -> None:
    class NoG1(TowerChessRules):
        """Forbids every move from g1: only its ``legal_moves`` knows."""

        name = "test-no-moves-from-g1"

        def legal_moves(self, position):  # type: ignore[no-untyped-def]
            g1 = position.geometry.parse("g1")
            return [m for m in super().legal_moves(position) if m.from_square != g1]

    register_rule_module(NoG1)
    path = tmp_path / "no-g1.toml"
    path.write_text('extends = "tavreli"\nrules = "test-no-moves-from-g1"\n')
    game = Game(str(path))
    with pytest.raises(IllegalMoveError, match="g1"):
        game.push("g1-f3")
    assert game.ply == 0
    g1 = game.position.geometry.parse("g1")
    assert game.rules.legal_moves_from(game.position, g1) == []
    assert game.push("b1-c3").from_square == game.position.geometry.parse("b1")
