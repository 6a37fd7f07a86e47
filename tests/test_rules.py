"""One test (legal side and illegal side) for each clause of RULES.md Part A."""

from __future__ import annotations

import pytest

from tavrei_lab import Game, IllegalMoveError
from tavrei_lab.core.tavrel import HELGI, KNIGHT, PAWN, ROOK


def texts(game: Game) -> set[str]:
    return {game.move_text(m) for m in game.legal_moves()}


def tower(game: Game, square: str) -> list[str]:
    """A tower as tokens bottom -> top, e.g. ['P:L', 'r']."""
    from tavrei_lab.core.text import tavrel_token
    pieces = game.position.pieces
    return [tavrel_token(t, pieces).replace("'", "") for t in game.position.tower(square)]


# -- A3 towers and splits ----------------------------------------------------------

def test_split_frees_own_prisoner() -> None:
    # white luchnik under a black ratoborets under a white vsadnik on d4
    game = Game(position="4v3/8/8/8/3(LrS)4/8/8/4V3 w - 0 1")
    game.push("d4(2)-f5")
    assert tower(game, "d4") == ["L"]          # the luchnik is free and acts at once
    assert tower(game, "f5") == ["r", "S"]      # the prisoner is carried along
    assert "d4-h8" in texts(game.copy().__class__(position=game.position.replace(turn=0)))


def test_split_of_one_frees_the_enemy() -> None:
    game = Game(position="4v3/8/8/8/3(LrS)4/8/8/4V3 w - 0 1")
    game.push("d4(1)-f5")
    assert tower(game, "d4") == ["L", "r"]      # the black ratoborets is now on top
    assert game.position.top(game.position.geometry.parse("d4")).color == 1


def test_whole_tower_moves_without_count() -> None:
    game = Game(position="4v3/8/8/8/3(LrS)4/8/8/4V3 w - 0 1")
    game.push("d4-f5")
    assert game.position.tower("d4") == ()
    assert tower(game, "f5") == ["L", "r", "S"]


def test_split_uncovering_an_attacker_of_own_volkhv_is_illegal() -> None:
    # a black ratoborets is held under the white vsadnik on e4, on the volkhv's file
    game = Game(position="v7/8/8/8/4(rS)3/8/8/4V3 w - 0 1")
    moves = texts(game)
    assert not any(t.startswith("e4(1)") for t in moves)
    assert "e4-f6" in moves                      # taking the prisoner along is fine
    with pytest.raises(IllegalMoveError, match="attacked"):
        game.push("e4(1)-f6")


def test_tower_blocks_lines_like_one_piece_and_moves_by_its_top() -> None:
    game = Game(position="v7/8/8/8/3(P:RP:RP:R)4/8/8/3R3V w - 0 1")
    dests = {t for t in texts(game) if t.startswith("d1")}
    assert "d1-d3" in dests and "d1xd4" in dests and "d1-d5" not in dests


# -- A3.3 nothing on a volkhv ------------------------------------------------------

def test_nothing_onto_own_volkhv() -> None:
    game = Game(position="7v/8/8/8/8/V7/P:R'7/R7 w - 0 1")
    assert "a2-a3" not in texts(game) and "a2xa3" not in texts(game)
    assert not any(t.startswith("a1") and t.endswith("a3") for t in texts(game))


def test_nothing_onto_enemy_volkhv_even_where_attacked() -> None:
    # black to move is in check from the ratoborets: it still may not be captured by stacking
    game = Game(position="v7/8/8/8/8/8/8/R3V3 b - 0 1")
    assert game.is_check()
    white = Game(position="v7/8/8/8/8/8/8/R3V3 w - 0 1".replace("v7", "1v6"))
    assert not any(t.endswith("b8") for t in texts(white) if t.startswith("a1"))


# -- A4.4 the volkhv ---------------------------------------------------------------

def test_volkhv_onto_own_unattacked_piece_is_legal_onto_attacked_is_not() -> None:
    game = Game(position="7v/8/8/8/1l6/8/3P:K'1S2/4V3 w - 0 1")
    moves = texts(game)
    assert "e1xf2" in moves        # f2 is not attacked
    assert "e1xd2" not in moves    # d2 is attacked by the luchnik on b4


def test_volkhv_carries_its_tower_and_steps_off() -> None:
    game = Game(position="7v/8/8/8/8/8/5S2/4V3 w - 0 1")
    game.play("e1xf2 h8-g8")
    assert tower(game, "f2") == ["S", "V"]
    moves = texts(game)
    assert "f2-g3" in moves and "f2(1)-g3" in moves
    game.push("f2(1)-g3")
    assert tower(game, "f2") == ["S"] and tower(game, "g3") == ["V"]


def test_volkhvs_are_never_adjacent() -> None:
    game = Game(position="8/8/8/3v4/8/3V4/8/8 w - 0 1")
    assert not any(t.endswith(("c4", "d4", "e4")) for t in texts(game))


# -- A4.5 the ratnik -----------------------------------------------------------------

def test_ratnik_steps_onto_own_piece_not_onto_enemy() -> None:
    game = Game(position="7v/8/8/2p:L1S3/2P:L'1P:H'3/8/8/4V3 w - 0 1")
    moves = texts(game)
    assert "e4xe5" in moves        # forward onto its own vsadnik
    assert "c4-c5" not in moves and "c4xc5" not in moves   # never onto an enemy forward


def test_ratnik_captures_diagonally_only_onto_enemy() -> None:
    game = Game(position="7v/8/8/3s1S2/4P:H'3/8/8/4V3 w - 0 1")
    moves = texts(game)
    assert "e4xd5" in moves
    assert "e4xf5" not in moves    # diagonal onto its own piece is not a ratnik move


def test_double_step_blocked_by_any_piece_in_between() -> None:
    for blocker in ("s", "S"):
        game = Game(position=f"7v/8/8/8/8/4{blocker}3/4P:H3/V7 w - 0 1")
        assert not any(t.startswith("e2") and t.endswith("e4") for t in texts(game))
    free = Game(position="7v/8/8/8/8/8/4P:H3/V7 w - 0 1")
    assert "e2-e4" in texts(free)


def test_double_step_onto_own_tower() -> None:
    game = Game(position="7v/8/8/8/4S3/8/4P:H3/V7 w - 0 1")
    assert "e2xe4" in texts(game)


def test_no_double_step_after_being_carried_back() -> None:
    # the ratnik steps onto its own vsadnik, the knyaz stacks on it and carries it back to e2
    game = Game(position="7v/8/8/8/8/3KS3/4P:H3/V7 w - 0 1")
    game.play("e2xe3 h8-g8 d3xe3 g8-h8 e3(2)-e2 h8-g8 e2(1)-d3 g8-h8")
    assert tower(game, "e2") == ["P:H"]
    assert game.position.tower("e2")[-1].moved
    assert "e2-e4" not in texts(game) and "e2-e3" not in texts(game)  # e3 holds the vsadnik
    assert "e2xe3" in texts(game)


# -- A7 en passant --------------------------------------------------------------------

def test_en_passant() -> None:
    game = Game(position="7v/5p:L2/8/4P:H'3/8/8/8/V7 b - 0 1")
    game.push("f7-f5")
    assert game.position.ep_square == game.position.geometry.parse("f6")
    game.push("e5xf6")
    assert tower(game, "f6") == ["p:L", "P:H"]
    assert game.position.tower("f5") == ()


def test_en_passant_after_double_step_onto_own_tower() -> None:
    game = Game(position="7v/5p:L2/8/4P:H's2/8/8/8/V7 b - 0 1")
    game.push("f7xf5")
    assert tower(game, "f5") == ["s", "p:L"]
    game.push("e5xf6")
    assert tower(game, "f5") == ["s"]           # only the ratnik was pulled back
    assert tower(game, "f6") == ["p:L", "P:H"]


def test_en_passant_only_on_the_very_next_move() -> None:
    game = Game(position="7v/5p:L2/8/4P:H'3/8/8/8/V7 b - 0 1")
    game.play("f7-f5 a1-a2 h8-g8")
    assert "e5xf6" not in texts(game)


# -- A6 castling ------------------------------------------------------------------------

def test_castling_both_sides_and_the_rook_jumps() -> None:
    game = Game(position="4v3/8/8/8/8/8/8/R3V2R w - 0 1")
    assert {"0-0", "0-0-0"} <= texts(game)
    game.push("0-0")
    assert tower(game, "g1") == ["V"] and tower(game, "f1") == ["R"]
    game.pop()
    game.push("e1-c1")              # castling given as the volkhv's step
    assert tower(game, "c1") == ["V"] and tower(game, "d1") == ["R"]


def test_castling_through_an_attacked_square_refused() -> None:
    game = Game(position="4vr2/8/8/8/8/8/8/R3V2R w - 0 1")
    assert "0-0" not in texts(game) and "0-0-0" in texts(game)
    with pytest.raises(IllegalMoveError, match="castling"):
        game.push("0-0")


def test_castling_needs_unmoved_pieces_standing_alone() -> None:
    moved = Game(position="4v3/8/8/8/8/8/8/R3V2R' w - 0 1")
    assert "0-0" not in texts(moved) and "0-0-0" in texts(moved)
    tower_rook = Game(position="4v3/8/8/8/8/8/8/R3V2(p:RR) w - 0 1")
    assert "0-0" not in texts(tower_rook)
    in_check = Game(position="4v3/8/8/8/8/8/4r3/R3V2R w - 0 1")
    assert "0-0" not in texts(in_check) and "0-0-0" not in texts(in_check)


# -- A8 promotion and demotion --------------------------------------------------------

def test_ratnik_promotes_to_its_destiny_on_arrival() -> None:
    game = Game(position="7v/1P:S'6/8/8/8/8/8/V7 w - 0 1")
    game.push("b7-b8")
    t = game.position.tower("b8")[-1]
    assert t.promoted and t.acting_kind == KNIGHT
    assert game.is_check() is False
    assert "b8-c6" in texts(Game(position=game.position.replace(turn=0)))


def test_promotion_gives_check_at_once() -> None:
    game = Game(position="4v3/P:R'7/8/8/8/8/8/V7 w - 0 1")
    game.push("a7-a8")
    assert game.is_check()


def test_promotion_by_split() -> None:
    # the knyaz carries the ratnik onto the far rank: covered, it is not promoted ...
    game = Game(position="8/(P:R'K)7/8/7v/8/8/8/V7 w - 0 1")
    game.push("a7-a8")
    assert not game.position.tower("a8")[0].promoted
    game.push("h5-h4")
    # ... until the knyaz splits off and uncovers it
    game.push("a8(1)-c6")
    t = game.position.tower("a8")[-1]
    assert t.kind == PAWN and t.promoted and t.acting_kind == ROOK


def test_demotion_when_covered_and_repromotion_when_uncovered() -> None:
    # a black ratnik promoted on its far rank (rank 1) to a helgi
    game = Game(position="7v/8/8/8/8/8/3S3V/1p:H*6 w - 0 1")
    game.push("d2xb1")                           # placing a unit on it demotes it (any)
    assert not game.position.tower("b1")[0].promoted
    game.push("h8-g8")
    game.push("b1(1)-d2")                        # white's move uncovers it on its far rank
    assert game.position.tower("b1")[-1].promoted
    assert game.position.tower("b1")[-1].acting_kind == HELGI


def test_enemy_ratnik_uncovered_on_its_far_rank_promotes_unless_option_off() -> None:
    start = "7v/8/8/8/8/8/8/(p:LR')6V w - 0 1"
    game = Game(position=start)
    game.push("a1(1)-a5")
    assert game.position.tower("a1")[-1].promoted
    off = Game(position=start, promote_uncovered_enemy=False)
    off.push("a1(1)-a5")
    assert not off.position.tower("a1")[-1].promoted


def test_demote_by_enemy_only_option() -> None:
    start = "1P:S*5v/8/2S5/8/8/8/8/7V w - 0 1"
    any_game = Game(position=start)
    any_game.push("c6xb8")
    assert not any_game.position.tower("b8")[0].promoted
    enemy_only = Game(position=start, demote_by="enemy")
    enemy_only.push("c6xb8")
    assert enemy_only.position.tower("b8")[0].promoted


# -- A5 / A9 the end ---------------------------------------------------------------------

def test_checkmate(games_data: dict) -> None:
    record = games_data["games"][0]
    game = Game()
    game.play(" ".join(record["moves"]))
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == "checkmate" and outcome.winner == 1
    assert outcome.result() == "0-1"


def test_stalemate() -> None:
    game = Game(position="v7/2V5/1K6/8/8/8/8/8 b - 0 1")
    assert not game.is_check()
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == "stalemate" and outcome.winner is None


def test_threefold_repetition() -> None:
    game = Game()
    game.play("g1-f3 g8-f6 f3-g1 f6-g8 g1-f3 g8-f6 f3-g1")
    assert game.outcome(claim_draw=True) is None
    game.push("f6-g8")
    assert game.repetitions() == 3
    outcome = game.outcome(claim_draw=True)
    assert outcome is not None and outcome.termination == "threefold-repetition"
    assert game.outcome() is None          # claimable, not automatic


def test_fifty_move_rule_and_its_resets() -> None:
    game = Game(position="7v/8/8/8/8/8/4P:H'3/V7 w - 98 80")
    game.play("a1-a2 h8-g8")
    assert game.position.halfmove_clock == 100
    assert game.outcome(claim_draw=True).termination == "fifty-move-rule"
    off = Game(position="7v/8/8/8/8/8/4P:H'3/V7 w - 98 80", fifty_move_rule=False)
    off.play("a1-a2 h8-g8")
    assert off.outcome(claim_draw=True) is None
    reset = Game(position="7v/8/8/8/8/8/4P:H'3/V7 w - 98 80")
    reset.push("e2-e3")
    assert reset.position.halfmove_clock == 0


def test_capture_resets_the_fifty_move_clock_but_stacking_on_own_does_not() -> None:
    game = Game(position="7v/8/8/8/8/8/s7/RS5V w - 40 30")
    game.push("a1xa2")
    assert game.position.halfmove_clock == 0
    own = Game(position="7v/8/8/8/8/8/S7/R6V w - 40 30")
    own.push("a1xa2")
    assert own.position.halfmove_clock == 41


def test_die_passes_do_not_count_as_repetitions() -> None:
    # skips bring the same position back without a move: that is no threefold repetition
    game = Game("gavrilov-die", seed=1)
    skip = next(face for face, _ in game.chance_outcomes() if game.rules.is_skip(face))
    for _ in range(6):
        game.apply_roll(skip)
    assert game.repetitions() == 1
    assert game.outcome(claim_draw=True) is None
    for _ in range(6):
        game.pop()
    assert game.repetitions() == 1 and game.ply == 0


def test_has_legal_move_agrees_with_legal_moves(games_data: dict) -> None:
    for record in games_data["games"]:
        game = Game()
        game.play(" ".join(record["moves"]))
        while True:
            assert game.rules.has_legal_move(game.position) == bool(game.legal_moves())
            if game.ply < len(record["moves"]) - 12 or not game.moves:
                break
            game.pop()
