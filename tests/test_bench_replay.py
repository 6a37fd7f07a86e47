"""The replay benchmark's comparison with python-chess reads the same game on both sides."""

from __future__ import annotations

import re

import chess
import pytest

from benchmarks import bench_replay
from tavrei_lab import Game
from tavrei_lab.game import read_record


def test_the_orthodox_line_is_legal_seeded_and_read_the_same_by_both(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    line = bench_replay.orthodox_line()
    assert line == bench_replay.orthodox_line() and len(line) > 100
    board = chess.Board()
    for uci in line:
        board.push_uci(uci)
    monkeypatch.setattr(bench_replay, "PEER_ROUNDS", 1)
    bench_replay.versus_python_chess()
    out = capsys.readouterr().out
    assert f"record of {len(line)} plies" in out
    assert re.search(r"ratio vs PGN reading: \d+\.\d\dx .* vs push_uci: \d+\.\d\dx", out)
    # the record timed replays to the end of the game python-chess played
    game = Game("orthodox")
    for uci in line:
        game.push(f"{uci[:2]}-{uci[2:4]}" + (f"={uci[4:].upper()}" if uci[4:] else ""))
    assert read_record(game.record()).ply == len(line) == board.ply()
