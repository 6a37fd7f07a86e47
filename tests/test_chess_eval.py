"""The orthodox-chess evaluation of the playing search (engine.chess_eval) and
the search features it plays with."""

from __future__ import annotations

import random
from typing import Any

from tavrei_lab import Game
from tavrei_lab.engine.chess_eval import (
    PHASE_MAX,
    ChessTables,
    chess_tables_for,
    game_phase,
    plays_as_chess,
)
from tavrei_lab.engine.play import PlaySearcher
from tavrei_lab.engine.play_eval import BoardTables
from tavrei_lab.engine.search import Limits


def white_eval(fen: str, phase: int | None = None) -> int:
    """Tower part plus activity, white's view, at the position's own phase."""
    game = Game("orthodox", position=fen)
    pos = game.position
    t = chess_tables_for(pos.geometry, phase=game_phase(pos.board) if phase is None else phase)
    return t.board_score(pos.board) + t.activity(pos.board, (pos.king_square(0),
                                                             pos.king_square(1)))


def mirrored(fen: str) -> str:
    """The same position with the colours swapped (ranks flipped, case swapped)."""
    board, turn, *rest = fen.split()
    rows = board.split("/")[::-1]
    return " ".join(["/".join(r.swapcase() for r in rows), "b" if turn == "w" else "w",
                     "-", "-", "0", "1"])


def reference_terms(t: ChessTables, board: tuple, kings: tuple) -> int:
    """The chess terms counted the plain way: rooks, bishop pair, shelter, pawns."""
    from tavrei_lab.core.tavrel import ACTING, BISHOP, PAWN, ROOK
    pawns, rooks, bishops = [0, 0], [[], []], [0, 0]
    for s, tower in enumerate(board):
        if tower:
            top = tower[-1]
            kind = ACTING[top]
            if kind == PAWN:
                pawns[top & 1] |= 1 << s
            elif kind == ROOK:
                rooks[top & 1].append(s)
            elif kind == BISHOP:
                bishops[top & 1] += 1
    v = t._pawn_structure(*pawns)
    shelter = 0
    for c, sign in ((0, 1), (1, -1)):
        for s in rooks[c]:
            fm = t.file_mask[s % 8]
            if not fm & pawns[c]:
                v += sign * (t.rook_open if not fm & pawns[1 - c] else t.rook_half_open)
        if bishops[c] >= 2:
            v += sign * t.bishop_pair
        if kings[c] is not None:
            shelter += sign * t._shelter(kings[c], c, pawns[c])
    return v + shelter * t.shelter_scale // PHASE_MAX


def test_one_pass_activity_is_the_tavreli_activity_plus_the_chess_terms():
    """ChessTables.activity counts mobility and king-zone attacks in the same pass as
    the chess terms: it must equal BoardTables' count plus those terms counted apart."""
    rng = random.Random(11)
    checked = 0
    for seed in range(3):
        game = Game("orthodox")
        while game.ply < 90 and not game.is_game_over():
            game.push(rng.choice(game.legal_moves()))
            pos = game.position
            kings = (pos.king_square(0), pos.king_square(1))
            t = chess_tables_for(pos.geometry, phase=(seed * 7 + game.ply) % (PHASE_MAX + 1))
            assert t.activity(pos.board, kings) == (BoardTables.activity(t, pos.board, kings)
                                                    + reference_terms(t, pos.board, kings))
            checked += 1
    assert checked > 150


def test_the_evaluation_is_colour_symmetric():
    for fen in ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R1BQ1RK1 w - - 0 9",
                "8/5k2/3p4/1p1P4/1P6/4K3/6P1/8 w - - 0 1"):
        assert white_eval(fen) == -white_eval(mirrored(fen))
    assert white_eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == 0


def test_pawn_structure_terms():
    t = chess_tables_for(Game("orthodox").position.geometry, phase=0)
    base = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert white_eval(base) == 0
    # a passed pawn grows with every rank
    third = white_eval("4k3/8/8/8/8/P7/8/4K3 w - - 0 1", phase=0)
    sixth = white_eval("4k3/8/P7/8/8/8/8/4K3 w - - 0 1", phase=0)
    assert sixth - third > 60
    # a pawn that an enemy pawn on a neighbouring file can stop is not passed
    assert t._pawn_structure(1 << 24, 1 << 49) < t._pawn_structure(1 << 24, 0) + \
        t._pawn_structure(0, 1 << 49)
    # doubled and isolated: two pawns on one file are worth less than on two adjacent files
    doubled = white_eval("4k3/7p/7p/7p/8/8/P7/P3K3 w - - 0 1", phase=0)
    connected = white_eval("4k3/7p/7p/7p/8/8/PP6/4K3 w - - 0 1", phase=0)
    assert connected > doubled


def test_rooks_on_open_files_the_bishop_pair_and_the_kings_shelter():
    open_file = white_eval("6k1/pppp1ppp/8/8/8/8/PPPP1PPP/4RK2 w - - 0 1")
    closed = white_eval("6k1/pppppppp/8/8/8/8/PPPPPPPP/3R1K2 w - - 0 1")
    assert open_file > closed
    pair = white_eval("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1")
    knight = white_eval("4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1")
    assert pair - knight >= 25
    # castled behind f2 g2 h2, against the same king with its g pawn gone to g4
    safe = "rnbq1rk1/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w - - 0 1"
    open_ = "rnbq1rk1/pppppppp/8/8/6P1/8/PPPPPP1P/RNBQ1RK1 w - - 0 1"
    assert white_eval(safe) > white_eval(open_)


def test_the_blend_follows_the_phase():
    g = Game("orthodox").position.geometry
    assert game_phase(Game("orthodox").position.board) == PHASE_MAX
    middle, end = chess_tables_for(g, phase=PHASE_MAX), chess_tables_for(g, phase=0)
    king = Game("orthodox").position.board[4]          # the white king on e1
    g1, e4 = g.parse("g1"), g.parse("e4")
    assert middle.tower_score(g1, king) > middle.tower_score(e4, king)   # hide
    assert end.tower_score(e4, king) > end.tower_score(g1, king)         # walk up


def test_only_rules_where_no_tower_forms_play_as_chess():
    assert plays_as_chess(Game("orthodox").rules)
    assert not plays_as_chess(Game("tavreli").rules)
    assert PlaySearcher(Game("orthodox").rules).chess
    assert not PlaySearcher(Game("tavreli").rules).chess
    assert not isinstance(PlaySearcher(Game("tavreli").rules).tables, ChessTables)


def test_null_move_is_not_used_in_pawn_endings():
    """With only kings and pawns, passing is not a safe bound (zugzwang): the search with
    null-move pruning on searches exactly the tree it searches with it off."""
    game = Game("orthodox", position="8/8/1p6/1P2k3/8/1K6/8/8 w - - 0 1")
    on = PlaySearcher(game.rules, null_move=True).search(game.position, Limits(depth=8))
    off = PlaySearcher(game.rules, null_move=False).search(game.position, Limits(depth=8))
    assert (on.nodes, on.value, on.best_moves) == (off.nodes, off.value, off.best_moves)
    # and it is the guard that keeps them equal: without it, passing prunes the tree
    # (a subclass, not an attribute set on the searcher: compiled, PlaySearcher is an
    # extension type, whose methods an instance cannot replace)
    class Unguarded(PlaySearcher):
        def _has_pieces(self, pos: Any, me: int) -> bool:
            return True

    unguarded = Unguarded(game.rules, null_move=True)
    assert unguarded.search(game.position, Limits(depth=8)).nodes != off.nodes
    assert not PlaySearcher(game.rules)._has_pieces(game.position, 0)


def test_game_history_memo_follows_pops_and_new_moves():
    """game_history keeps each position's hash beside the position: after a pop and a
    different move (and on a copy) it is the hash list computed from scratch."""
    from tavrei_lab.engine.search import game_history
    from tavrei_lab.engine.zobrist import zobrist_hash
    rng = random.Random(2)
    game = Game()

    def fresh(g: Game) -> list[int]:
        return [zobrist_hash(p) for p in g.positions]

    for step in range(60):
        if step % 7 == 6:
            game.pop()
        else:
            game.push(rng.choice(game.legal_moves()))
        assert game_history(game) == fresh(game)
    other = game.copy()
    other.pop()
    other.push(rng.choice(other.legal_moves()))
    assert game_history(other) == fresh(other) and game_history(game) == fresh(game)
