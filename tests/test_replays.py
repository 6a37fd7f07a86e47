"""Replay all twenty recorded tournament games and check the independent end facts."""

from __future__ import annotations

import pytest

from tavrei_lab import Game
from tavrei_lab.engine.perft import perft
from tavrei_lab.game import read_record
from tests.conftest import load_games

GAMES = load_games()["games"]


def tower_tokens(game: Game) -> dict[str, list[str]]:
    """Towers in the data's notation: letter, ':X' destiny, '*' promoted (no moved mark)."""
    pieces = game.position.pieces
    out = {}
    for square, tower in game.position.towers().items():
        tokens = []
        for t in tower:
            letter = pieces.letter(t.kind)
            token = letter if t.color == 0 else letter.lower()
            if t.destiny:
                token += ":" + pieces.letter(t.destiny)
            if t.promoted:
                token += "*"
            tokens.append(token)
        out[square] = tokens
    return out


@pytest.mark.parametrize("record", GAMES, ids=[f"game{g['n']}" for g in GAMES])
def test_recorded_game_replays(record: dict) -> None:
    game = Game()
    game.play(" ".join(record["moves"]))
    expected = record.get("expected_at_end")
    if expected is None:
        assert game.ply == len([m for m in record["moves"]]) - (1 if record["n"] == 1 else 0)
        return
    assert game.ply == expected["plies"]
    assert game.position.turn_name == expected["side_to_move"]
    assert game.is_check() == expected["in_check"]
    assert len(game.legal_moves()) == expected["legal_moves"]
    outcome = game.outcome()
    assert (outcome is not None and outcome.termination == "checkmate") == expected["checkmate"]
    assert tower_tokens(game) == expected["towers"]
    assert perft(game.rules, game.position, 2) == expected["perft_2"]


@pytest.mark.parametrize("record", GAMES[:5], ids=[f"game{g['n']}" for g in GAMES[:5]])
def test_record_round_trip(record: dict) -> None:
    game = Game()
    game.play(" ".join(record["moves"]))
    game.tags["Event"] = record["title"]
    text = game.record()
    again = read_record(text)
    assert again.position.string == game.position.string
    assert [again.move_text(m, p) for m, p in zip(again.moves, again.positions)] == \
        [game.move_text(m, p) for m, p in zip(game.moves, game.positions)]
    assert again.tags["Event"] == record["title"]
