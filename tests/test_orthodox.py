"""The orthodox variant reproduces chess: perft identical to python-chess (a test-only oracle)."""

from __future__ import annotations

import chess
import pytest

from tavrei_lab import Game
from tavrei_lab.engine.perft import perft

# The standard perft suite of the chess programming wiki.
SUITE = [
    ("initial", chess.STARTING_FEN, 4),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
    ("position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),
    ("position4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 3),
    ("position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),
    ("position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/3P1N1P/PPP1NPP1/R2Q1RK1 w - - 0 10", 3),
]


def oracle_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += oracle_perft(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize(("fen", "depth"), [(f, d) for _, f, d in SUITE],
                         ids=[n for n, _, _ in SUITE])
def test_perft_matches_python_chess(fen: str, depth: int) -> None:
    game = Game("orthodox", fen)
    assert perft(game.rules, game.position, depth) == oracle_perft(chess.Board(fen), depth)


def test_perft_after_moves_matches_python_chess() -> None:
    game = Game("orthodox")
    game.play("e2-e4 d7-d5 e4-e5 f7-f5")       # en passant on f6 is available
    board = chess.Board()
    for uci in ("e2e4", "d7d5", "e4e5", "f7f5"):
        board.push_uci(uci)
    assert perft(game.rules, game.position, 3) == oracle_perft(board, 3)


def test_random_games_agree_move_by_move() -> None:
    import random
    rng = random.Random(7)
    for _ in range(20):
        game = Game("orthodox")
        board = chess.Board()
        for _ply in range(120):
            ours = sorted(_uci(game, m) for m in game.legal_moves())
            theirs = sorted(m.uci() for m in board.legal_moves)
            assert ours == theirs, board.fen()
            if not ours:
                break
            pick = rng.choice(theirs)
            board.push_uci(pick)
            game.push(next(m for m in game.legal_moves() if _uci(game, m) == pick))
        outcome = game.outcome()
        if board.is_checkmate():
            assert outcome is not None and outcome.termination == "checkmate"
        elif board.is_stalemate():
            assert outcome is not None and outcome.termination == "stalemate"
        else:
            assert outcome is None


def _uci(game: Game, move) -> str:  # type: ignore[no-untyped-def]
    g = game.position.geometry
    promo = game.position.pieces.letter(move.promotion).lower() if move.promotion else ""
    return g.name(move.from_square) + g.name(move.to_square) + promo


def test_promotion_notation_and_choice() -> None:
    game = Game("orthodox", "8/4P3/8/8/8/8/8/k6K w - - 0 1")
    texts = sorted(game.move_text(m) for m in game.legal_moves() if m.promotion)
    assert texts == ["e7-e8=B", "e7-e8=N", "e7-e8=Q", "e7-e8=R"]
    game.push("e7-e8=N")
    assert game.position.tower("e8")[-1].acting_kind == 5


def test_checkmate_in_orthodox() -> None:
    game = Game("orthodox")
    game.play("f2-f3 e7-e5 g2-g4 d8-h4")
    assert game.outcome().termination == "checkmate"
