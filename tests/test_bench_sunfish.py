"""The sunfish match's harness (benchmarks.bench_strength): openings, plan, arbiter.

sunfish itself is an optional benchmark yardstick (the ``benchmark`` extra); here a
stand-in plays its side, so the harness is checked without it: every opening is
legal, each is played with the package on both sides, python-chess refuses an
illegal move (the side that made it loses) and a long game is adjudicated.
"""

from __future__ import annotations

import chess
import pytest

from benchmarks import bench_strength as bs


def test_the_openings_are_legal_distinct_and_played_from_both_sides() -> None:
    assert len(bs.SUNFISH_OPENINGS) * 2 >= bs.SUNFISH_MIN_GAMES
    assert len({moves for _, moves in bs.SUNFISH_OPENINGS}) == len(bs.SUNFISH_OPENINGS)
    for name, moves in bs.SUNFISH_OPENINGS:
        board = chess.Board()
        for uci in moves.split():
            move = chess.Move.from_uci(uci)
            assert move in board.legal_moves, (name, uci)
            board.push(move)
    plan = bs.sunfish_plan(bs.SUNFISH_MIN_GAMES, 1.0)
    assert [g.ours_white for g in plan[:4]] == [True, False, True, False]
    assert {g.moves for g in plan} == {m for _, m in bs.SUNFISH_OPENINGS}
    assert all(plan[2 * k].moves == plan[2 * k + 1].moves for k in range(50))


class FirstLegal:
    """Plays python-chess's first legal move (or ``bad`` once asked ``bad_at`` times)."""

    def __init__(self, clock: str, nodes: int | None, bad: str = "", bad_at: int = -1) -> None:
        self.board = chess.Board()
        self.asked = 0
        self.bad, self.bad_at = bad, bad_at

    def push(self, uci: str) -> None:
        self.board.push_uci(uci)

    def choose(self, budget: float) -> str:
        self.asked += 1
        if self.asked == self.bad_at:
            return self.bad
        return next(iter(self.board.legal_moves)).uci()


def test_a_game_is_adjudicated_on_material_after_its_plies(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bs, "_SunfishPlayer", FirstLegal)
    game = bs.sunfish_plan(1, 0.05, max_plies=6, nodes=300)[0]
    result = bs.play_sunfish_game(game)
    assert result.plies == 6 and result.how.startswith("adjudicated")
    board = chess.Board()
    for uci in result.pgn_moves.split():
        board.push_uci(uci)               # every move python-chess took is legal
    assert len(result.times_ours) == len(result.times_fish) == 3


def test_an_illegal_move_loses_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bs, "_SunfishPlayer",
                        lambda clock, nodes: FirstLegal(clock, nodes, "e1e8", bad_at=2))
    game = bs.sunfish_plan(2, 0.05, max_plies=20, nodes=300)[1]    # package black
    result = bs.play_sunfish_game(game)
    assert result.how == "sunfish played an illegal move (e1e8)" and result.score == 1.0


def test_time_use_and_elo_of_a_match() -> None:
    assert bs.time_use([0.9, 1.0, 1.02], 1.0) == pytest.approx((0.9733, 0.02), abs=1e-3)
    e, lo, hi = bs.elo(0.65, [1.0] * 13 + [0.0] * 7)
    assert 90 < e < 120 and lo < e < hi
