"""Perft tables per variant, run in the style of python-chess's perft files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.perft import perft
from tests.conftest import SHARED
from tests.perft_tables import read_table

TABLES = Path(__file__).with_name("perft")
#: Positions with figures from an independent implementation written from RULES.md.
PERFT_SPECIAL = SHARED / "data" / "perft-special.json"


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


def _special_cases() -> list:
    if not PERFT_SPECIAL.exists():  # the test below fails, naming the file
        return [pytest.param(None, None, id="perft-special-missing")]
    data = json.loads(PERFT_SPECIAL.read_text(encoding="utf-8"))
    return [pytest.param(p["position"], p["perft"],
                         id=f"{i:02d}-" + re.sub(r"[^a-z0-9]+", "-", p["label"].lower())[:40])
            for i, p in enumerate(data["positions"])]


@pytest.mark.parametrize(("position", "figures"), _special_cases())
def test_perft_special_positions(position: str | None, figures: list[int] | None) -> None:
    """En passant, splits, castling, promotion, demotion, and three set-ups that only a
    typed position reaches (castling pieces off their home squares, a ratnik off its
    starting rank without the moved mark: A6, A4.5), to depth 3."""
    if position is None or figures is None:
        pytest.fail(f"{PERFT_SPECIAL} is missing (shared/ must sit beside the repository)")
    game = Game("tavreli", position)
    got = [perft(game.rules, game.position, depth) for depth in range(1, len(figures) + 1)]
    assert got == figures


def test_perft_special_holds_every_position() -> None:
    assert len(_special_cases()) == 15


@pytest.mark.parametrize(("position", "move"), [
    ("4v3/8/8/8/8/8/8/2V4R w - 0 1", "0-0"),     # volkhv off e1
    ("4v3/8/8/8/8/8/8/1R2V3 w - 0 1", "0-0-0"),  # ratoborets off a1
    ("4v3/8/8/8/4P:H3/8/8/4V3 w - 0 1", "e4-e6"),  # ratnik off its starting rank
    ("4v3/8/8/8/8/8/P:H7/4V3 w - 0 1", None),    # on a2 it has not left its square: e.g. a2-a4
])
def test_home_squares_decide_castling_and_the_double_step(position: str, move: str | None) -> None:
    game = Game("tavreli", position)
    texts = {game.move_text(m) for m in game.legal_moves()}
    if move is None:
        assert "a2-a4" in texts
    else:
        assert move not in texts
        assert not any(m.castling for m in game.legal_moves())
