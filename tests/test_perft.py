"""Perft tables per variant, run in the style of python-chess's perft files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.perft import perft
from tests.perft_tables import read_table

TABLES = Path(__file__).with_name("perft")


def _cases(name: str):
    for entry in read_table(TABLES / name, "tavreli"):
        for depth, count in entry.figures:
            yield pytest.param(entry.position, entry.moves, depth, count,
                               id=f"{entry.ident.split()[0]}-d{depth}")


@pytest.mark.parametrize(("position", "moves", "depth", "count"), list(_cases("tavreli.perft")))
def test_tavreli_perft(position: str | None, moves: str | None, depth: int, count: int) -> None:
    game = Game("tavreli", position)
    if moves:
        game.play(moves)
    assert perft(game.rules, game.position, depth) == count


def test_initial_perft_matches_the_shared_data(games_data: dict) -> None:
    game = Game()
    for depth, count in games_data["initial_position_perft"].items():
        if int(depth) <= 3:
            assert perft(game.rules, game.position, int(depth)) == count
