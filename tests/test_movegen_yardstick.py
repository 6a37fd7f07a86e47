"""The benchmark's simple Tavreli generator (written from RULES.md) counts what the package
counts: a yardstick that is wrong would make the movegen ratio meaningless."""

from __future__ import annotations

import pytest

from benchmarks import simple_tavreli
from tavrei_lab import Game
from tavrei_lab.engine.perft import perft


@pytest.mark.parametrize("moves, depth", [
    ("", 2),
    ("e2-e4 d7-d5 e4xd5 d8xd5 b1-c3 d5xa2 a1xa2", 2),      # towers and prisoners
    ("e2-e4 a7-a6 e4-e5 d7-d5", 1),                          # en passant is on
    ("g1-f3 g8-f6 g2-g3 g7-g6 f1-g2 f8-g7", 1),              # castling both ways
])
def test_simple_generator_counts_the_package_perft(moves, depth):
    g = Game()
    if moves:
        g.play(moves)
    state = simple_tavreli.from_position(g.position)
    assert simple_tavreli.perft(state, depth) == perft(g.rules, g.position, depth)
