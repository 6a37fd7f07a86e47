"""The playing search near mates in one: it never walks into one, whatever the node
budget stops, and finds its own.

A node or time limit stops the playing search inside an iteration, and the
iteration's best proven root move answers. Game 94 of the 1-s sunfish match
(``benchmarks/results/sunfish-1s-585dc13.jsonl``) showed that
"proven" was not so: after the first root move failed low in an aspiration
window, every other move's value was an upper bound too, the largest of them
made a move the best, and a stop then played it -- ``Nxe4??`` into ``Nd3#``.
python-chess is the oracle here (test-only; the package never imports it).
"""

from __future__ import annotations

import chess
import pytest

from tavrei_lab import Game
from tavrei_lab.engine.play import PlaySearcher
from tavrei_lab.engine.search import Limits, SearchLimitReached, game_history
from tavrei_lab.engine.zobrist import zobrist_hash
from tests.test_orthodox import _uci

#: Game 94 before white's 8th move (Larsen, the package white): Nxe4?? Nd3# lost it.
#: Black threatens Nd3# already; 18 of white's 28 moves allow it.
GAME_94 = "r1bq1rk1/ppppbppp/5n2/8/1nP1pP2/1PN1P3/PB1PN1PP/R2QKB1R w KQ - 3 8"


def mate_in_one(board: chess.Board) -> chess.Move | None:
    """The side to move's mating move, if it has one (python-chess's judgement)."""
    for reply in list(board.legal_moves):
        board.push(reply)
        mated = board.is_checkmate()
        board.pop()
        if mated:
            return reply
    return None


def best_uci(fen: str, nodes: int) -> str:
    game = Game("orthodox", fen)
    result = PlaySearcher(game.rules).search(game.position, Limits(nodes=nodes),
                                             game_history(game))
    return _uci(game, result.best_move)


def allows_mate_in_one(fen: str, move: str) -> bool:
    board = chess.Board(fen)
    board.push_uci(move)
    return mate_in_one(board) is not None


@pytest.mark.parametrize("nodes", [25_000, 35_000])
def test_game_94_is_not_lost_to_a_stopped_iteration(nodes):
    """At these budgets the search stopped in depth 7, whose first move (Ng3) had failed
    low at the aspiration window (-36, 44): Nxe4's null-window upper bound, -36, was the
    largest, and the stop played it (-0.36 at 25,000 nodes, -2.03 at 35,000 after the
    window widened). Every fixed depth from 1 to 7 plays Ng3 or Nd4."""
    assert chess.Board(GAME_94).is_valid()
    move = best_uci(GAME_94, nodes)
    assert move != "c3e4"
    assert not allows_mate_in_one(GAME_94, move), move


def test_a_root_that_fails_low_keeps_its_first_move():
    """A window above every root move's value: all of them fail low, each value only an
    upper bound, so none is better than the first, and a stop inside proves nothing."""
    game = Game("orthodox", GAME_94)
    pos = game.position
    moves = game.rules.legal_moves(pos)
    h = zobrist_hash(pos)

    def searcher_at_depth_3() -> PlaySearcher:
        searcher = PlaySearcher(game.rules)
        searcher.killers = [[None, None] for _ in range(60)]
        searcher._root(pos, h, searcher._score(pos), moves, 3, -10**9, 10**9)
        searcher.nodes = 0
        return searcher

    searcher = searcher_at_depth_3()
    value, move, order = searcher._root(pos, h, searcher._score(pos), moves, 4, 500, 501)
    every_move = searcher.nodes
    assert value <= 500
    assert move == moves[0] and order[0] == moves[0]
    assert sorted(order, key=moves.index) == moves
    searcher = searcher_at_depth_3()
    searcher._root(pos, h, searcher._score(pos), moves[:1], 4, 500, 501)
    first_move = searcher.nodes
    assert first_move < every_move
    # stopped after the first move and some of the others: no move is proven better
    searcher = searcher_at_depth_3()
    searcher._node_limit = (first_move + every_move) // 2
    with pytest.raises(SearchLimitReached) as stop:
        searcher._root(pos, h, searcher._score(pos), moves, 4, 500, 501)
    assert not stop.value.args or stop.value.args[0] is None


#: Positions where most moves walk into a mate in one (the mover must find one of the
#: others), and mates in one to find, with node budgets that stop inside an iteration.
AVOID = [
    GAME_94,
    # 1. e4 e5 2. Bc4 Nc6 3. Qh5: black must keep f7 (Qxf7# threatens)
    "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
]
FIND = [
    # 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? 4. Qxf7#
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    # the back rank: Rd8#
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
]


@pytest.mark.parametrize("fen", AVOID)
@pytest.mark.parametrize("nodes", [3_000, 12_000, 30_000])
def test_the_mover_does_not_allow_a_mate_in_one(fen, nodes):
    board = chess.Board(fen)
    safe = [m for m in list(board.legal_moves) if not allows_mate_in_one(fen, m.uci())]
    assert safe and len(safe) < board.legal_moves.count(), "a position with a choice"
    move = best_uci(fen, nodes)
    assert not allows_mate_in_one(fen, move), move


@pytest.mark.parametrize("fen", FIND)
@pytest.mark.parametrize("nodes", [500, 3_000, 12_000])
def test_the_mover_finds_its_mate_in_one(fen, nodes):
    board = chess.Board(fen)
    assert mate_in_one(board) is not None
    board.push_uci(best_uci(fen, nodes))
    assert board.is_checkmate()
