"""The strength rating's machinery: the UCI driver, the move texts, the games, the Elo.

The Stockfish half needs Debian's ``stockfish`` (``make browser`` installs it with
Chromium); those tests are skipped, saying so, only where it is not installed -- and
never under ``CI=true``, where CI installed it: there a missing Stockfish fails them.
"""

from __future__ import annotations

import math
import random

import pytest

from benchmarks import bench_strength as bs
from benchmarks import strength_rating as sr
from tavrei_lab import Game
from tavrei_lab.engine.agents import REFERENCE_PLAYER, make_agent
from tavrei_lab.lab.statistics import score_interval
from tavrei_lab.lab.tune import elo
from tests.conftest import in_ci

needs_stockfish = pytest.mark.skipif(sr.stockfish_path() is None and not in_ci(),
                                     reason="stockfish is not installed (apt-get install "
                                            "stockfish, or `make browser` as root)")


def _replays(variant: str, moves: str) -> Game:
    """The game a record's move texts make (``push`` refuses a move our rules do not allow)."""
    game = Game(variant)
    for text in moves.split():
        game.push(text)
    return game


def test_uci_texts_of_our_legal_moves_are_python_chess_legal_moves():
    """Stockfish's moves are parsed by looking them up among our moves' UCI texts, so those
    texts must be exactly the UCI of the legal moves (castling, promotion, en passant)."""
    chess = pytest.importorskip("chess")
    rng = random.Random(3)
    for _game in range(6):
        game, board = Game("orthodox"), chess.Board()
        for _ply in range(120):
            ours = {sr.uci_text(game, m) for m in game.legal_moves()}
            assert ours == {m.uci() for m in board.legal_moves}, board.fen()
            if not ours or game.outcome() is not None:
                break
            text = rng.choice(sorted(ours))
            game.push(sr.move_from_uci(game, text))
            board.push_uci(text)
    # a move the rules refuse is named as None, not forced through
    assert sr.move_from_uci(Game("orthodox"), "e2e5") is None


def test_rating_is_the_package_statistics_elo_of_the_score_interval():
    scores = [1.0, 1.0, 0.5, 0.0, 1.0, 0.5, 1.0, 0.0]
    r = sr.rating(scores)
    s, low, high = score_interval(5 - 1, 2, 2)
    assert (r.wins, r.draws, r.losses) == (4, 2, 2)
    assert (r.score, r.low, r.high) == (s, low, high)
    assert r.score == pytest.approx(5 / 8)
    assert (r.elo, r.elo_low, r.elo_high) == (elo(s), elo(low), elo(high))
    # the logistic: a 75 % score is 400 log10(3) Elo
    assert elo(0.75) == pytest.approx(400 * math.log10(3))
    assert r.elo_low < r.elo < r.elo_high
    # a clean sweep still has an interval (Wilson), its inner end finite
    sweep = sr.rating([0.0] * 6)
    assert sweep.score == 0.0 and sweep.elo_high > -400 and sweep.elo_low == elo(0.0)


def test_plan_plays_each_opening_twice_with_colours_swapped():
    planned = sr.rating_plan("orthodox", "level:1", REFERENCE_PLAYER, 4)
    assert [g.player_white for g in planned] == [True, False, True, False]
    assert planned[0].opening == planned[1].opening != planned[2].opening
    assert " ".join(planned[0].opening) == bs.SUNFISH_OPENINGS[0][1]
    tav = sr.rating_plan("tavreli", "level:1", REFERENCE_PLAYER, 4)
    assert len(tav[0].opening) == sr.TAVRELI_OPENING_PLIES
    assert tav[0].opening == tav[1].opening != tav[2].opening
    assert sr.tavreli_opening(5) == sr.tavreli_opening(5)      # seeded: the same each run
    _replays("tavreli", " ".join(tav[2].opening))


def test_an_agent_game_ends_with_a_result_said_and_legal_moves():
    game = sr.RatedGame(0, "tavreli", "greedy", "random", sr.tavreli_opening(0), True, 7,
                        max_plies=12)
    r = sr.play_rated_game(game)
    assert r.score in (0.0, 0.5, 1.0) and r.how and r.plies <= 12
    replayed = _replays("tavreli", r.moves)
    assert replayed.ply == sr.TAVRELI_OPENING_PLIES + r.plies
    # the same plan gives the same game
    assert sr.play_rated_game(game) == r


def test_the_reference_player_is_the_default_agent_at_a_fixed_node_budget():
    agent = make_agent(REFERENCE_PLAYER, seed=1)
    assert REFERENCE_PLAYER.startswith("play:nodes=")
    assert agent.name == "play"


@needs_stockfish
def test_the_uci_driver_talks_to_stockfish_at_a_set_strength():
    with sr.UciEngine(None, {"Threads": 1, "UCI_LimitStrength": True, "UCI_Elo": 1350}) as sf:
        assert "Stockfish" in sf.id_name
        sf.new_game()
        game = _replays("orthodox", "e2-e4 e7-e5 g1-f3")
        text = sf.best_move("e2e4 e7e5 g1f3".split(), "nodes 300")
        assert sr.move_from_uci(game, text) is not None, text
    assert sf.proc.poll() is not None            # closed: no Stockfish left running


@needs_stockfish
def test_a_tiny_stockfish_match_ends_every_game_with_a_result(capsys):
    rt = sr.rated_match("orthodox", "level:1,nodes=200", "stockfish:1350", games=2,
                        movetime_ms=20, max_plies=16)
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if " game " in ln]
    assert len(lines) == 2 and all(" scores " in ln for ln in lines)
    assert rt.wins + rt.draws + rt.losses == 2
    assert "chess Elo" in out and "Stockfish UCI_Elo 1350" in out
    for planned in sr.rating_plan("orthodox", "level:1,nodes=200", "stockfish:1350", 1,
                                  movetime_ms=20, max_plies=6):
        r = sr.play_rated_game(planned)
        # every move of the game, Stockfish's too, is legal by our own rules
        _replays("orthodox", r.moves)
        assert r.plies <= 6 and r.how


def test_the_strength_benchmark_runs_the_rating_by_default(monkeypatch):
    seen = []
    monkeypatch.setattr(sr, "main", lambda part: seen.append(part))
    monkeypatch.delenv("TAVREI_STRENGTH_PART", raising=False)
    bs.main()
    assert seen == ["rating"]
