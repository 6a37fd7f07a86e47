"""Property tests over random legal games (hypothesis, fixed seed via derandomize)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tavrei_lab import Game, IllegalMoveError, Move
from tavrei_lab.notation.position_string import read_position

VARIANTS = ["tavreli", "orthodox", "tavreli-no-split", "tavreli-pass-over-own"]


def random_game(variant: str, seed: int, plies: int) -> Game:
    rng = random.Random(seed)
    game = Game(variant)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return game


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**6), st.integers(0, 80))
def test_pop_after_push_restores_the_exact_position(variant: str, seed: int, plies: int) -> None:
    game = random_game(variant, seed, plies)
    strings = [p.string for p in game.positions]
    for expected in reversed(strings[:-1]):
        game.pop()
        assert game.position.string == expected
    assert game.ply == 0


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**6), st.integers(0, 120))
def test_position_strings_round_trip(variant: str, seed: int, plies: int) -> None:
    game = random_game(variant, seed, plies)
    for position in game.positions[::7]:
        again = read_position(position.string, game.rules)
        assert again == position
        assert again.string == position.string


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.sampled_from(VARIANTS), st.integers(0, 10**6), st.integers(0, 60),
       st.integers(0, 10**6))
def test_push_accepts_every_listed_move_and_refuses_others(variant: str, seed: int, plies: int,
                                                           probe: int) -> None:
    game = random_game(variant, seed, plies)
    legal = game.legal_moves()
    before = game.position.string
    for move in legal:
        game.push(move)
        game.pop()
    assert game.position.string == before
    rng = random.Random(probe)
    size = game.position.geometry.size
    listed = {(m.from_square, m.count, m.to_square) for m in legal}
    refused = 0
    for _ in range(30):
        candidate = Move(rng.randrange(size), rng.randint(1, 3), rng.randrange(size))
        if candidate.key in listed:
            continue
        try:
            game.push(candidate)
        except IllegalMoveError:
            refused += 1
        else:
            raise AssertionError(f"{candidate} was accepted but is not listed")
        assert game.position.string == before
    assert refused > 0
