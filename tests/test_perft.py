"""Perft tables per variant, run in the style of python-chess's perft files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.perft import perft

TABLES = Path(__file__).with_name("perft")


def read_table(path: Path) -> list[tuple[str, str | None, str | None, list[tuple[int, int]]]]:
    """Entries of a perft file: (id, position, moves, [(depth, count)])."""
    entries: list = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            entries.append([value, None, None, []])
        elif key == "position":
            entries[-1][1] = value
        elif key == "moves":
            entries[-1][2] = value
        elif key == "perft":
            depth, count = value.split()
            entries[-1][3].append((int(depth), int(count)))
        elif key == "variant":
            entries[-1].append(value)
        else:
            raise ValueError(f"{path.name}: unknown line {raw!r}")
    return [tuple(e) for e in entries]


def _cases(name: str):
    table = TABLES / name
    for entry in read_table(table):
        ident, position, moves, figures = entry[:4]
        for depth, count in figures:
            yield pytest.param(position, moves, depth, count, id=f"{ident.split()[0]}-d{depth}")


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
