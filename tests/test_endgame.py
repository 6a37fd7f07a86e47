"""Finishing won endings: the endgame terms (``engine.endgame``) and the players that use
them, on hand-set endings and on the won positions harvested from the lab's own games
(``benchmarks/data/conversion.json``).

Seen: at 500 nodes a move, a luchnik and a vsadnik against a lone volkhv was not mated
in 300 plies, and a ladya against a lone volkhv was drawn by repetition; of the lab
study's games stopped at the ply cap most were won and not finished.
"""

from __future__ import annotations

import pytest

from benchmarks.bench_conversion import play_one
from benchmarks.conversion import (
    LAB_AGENTS,
    LEAD_CP,
    TOPS_LEAD,
    convert,
    load_positions,
    tops_lead,
)
from tavrei_lab import Game
from tavrei_lab.engine.endgame import (
    CLOCK_FREE,
    CORNER,
    MINOR_NEAR,
    clock_penalty,
    endgame_tables,
)
from tavrei_lab.engine.play import PlaySearcher
from tavrei_lab.engine.play_eval import evaluate_for_side
from tavrei_lab.engine.search import Limits, game_history

VARIANT = "tavreli-no-split"


def _eval(board: str, turn: str = "w") -> int:
    """White's view of the playing evaluation."""
    pos = Game(VARIANT, f"{board} {turn} - 0 1").position
    side = evaluate_for_side(pos)
    return side if turn == "w" else -side


def test_the_lone_volkhv_is_scored_worse_on_the_edge_than_in_the_centre():
    # a ladya and volkhv against the lone volkhv: the same pieces, the lone volkhv moved
    centre = _eval("8/8/8/3v4/8/8/1R6/4V3")
    edge = _eval("3v4/8/8/8/8/8/1R6/4V3")
    corner = _eval("v7/8/8/8/8/8/1R6/4V3")
    assert centre < edge < corner


def test_the_luchnik_and_vsadnik_mate_wants_the_luchniks_corner():
    # a luchnik on a dark square (c1; a1 is dark): the mate is in a1 or h8, never in
    # h1 or a8, where the edge term alone scores the lone volkhv just as badly
    board = "{}/8/8/8/8/8/3SV3/2L5"
    dark = _eval(board.format("7v"))        # h8: dark
    light = _eval(board.format("v7"))       # a8: light
    assert dark - light >= 5 * CORNER
    tables = endgame_tables(Game(VARIANT).rules.geometry)
    pos = Game(VARIANT, board.format("7v") + " w - 0 1").position
    assert tables.terms(pos.board, 0, 63) - tables.terms(pos.board, 0, 56) == 7 * CORNER
    assert tables.corner_distance(63, 0) == 0 and tables.corner_distance(56, 0) == 7
    assert tables.corner_distance(56, 1) == 0


def test_a_minor_tavrel_near_the_lone_volkhv_scores_better():
    tables = endgame_tables(Game(VARIANT).rules.geometry)
    near = Game(VARIANT, "v7/8/2S5/8/8/8/8/4V2R w - 0 1").position.board
    far = Game(VARIANT, "v7/8/8/8/8/8/8/4V1SR w - 0 1").position.board
    assert tables.terms(near, 0, 56) - tables.terms(far, 0, 56) == 5 * MINOR_NEAR


def test_the_endgame_terms_leave_a_middlegame_alone():
    tables = endgame_tables(Game(VARIANT).rules.geometry)
    start = Game(VARIANT).position
    assert evaluate_for_side(start) == 0
    # the terms are white's view and change sign with the side ahead
    board = Game(VARIANT, "v7/8/2S5/8/8/8/8/2L1V3 w - 0 1").position.board
    mirrored = Game(VARIANT, "V7/8/2s5/8/8/8/8/2l1v3 w - 0 1").position.board
    assert tables.terms(board, 0, 56) == -tables.terms(mirrored, 1, 56) > 0


def test_the_side_ahead_is_hurried_by_the_fifty_move_clock():
    assert clock_penalty(0) == clock_penalty(CLOCK_FREE) == 0
    assert 0 < clock_penalty(CLOCK_FREE + 10) < clock_penalty(99)
    board = "8/8/3v4/8/8/8/R7/4V3"
    fresh = PlaySearcher(Game(VARIANT).rules)
    late = PlaySearcher(Game(VARIANT).rules)
    v_fresh = fresh.search(Game(VARIANT, f"{board} w - 0 1").position, Limits(depth=1)).value
    v_late = late.search(Game(VARIANT, f"{board} w - 80 60").position, Limits(depth=1)).value
    assert v_fresh - v_late == pytest.approx(clock_penalty(81) / 100, abs=0.02)


def test_a_won_ending_is_not_walked_back_to_a_position_of_the_game():
    # white has played Ra2-a1 and back: a1-a2 now would be a second visit, a draw to
    # the converting search (its first visit is in the game), so it is never the move
    game = Game(VARIANT, "8/8/3v4/8/8/8/R7/4V3 w - 0 1")
    for text in ("a2-a1", "d6-d5"):
        game.push(text)
    searcher = PlaySearcher(game.rules)
    result = searcher.search(game.position, Limits(nodes=2000), game_history(game))
    assert game.move_text(result.best_move) != "a1-a2"


def _lab_play_out(fen: str, nodes: int, plies: int, seed: int = 1) -> tuple:
    spec = LAB_AGENTS[VARIANT].format(n=nodes)
    return convert(VARIANT, fen, spec, spec, seed, plies)


@pytest.mark.parametrize("fen", [
    # a luchnik and a vsadnik against the lone volkhv (the seen ending's pieces): still
    # not mated at 500 nodes (the fifty-move rule at ply 198 with the endgame terms)
    pytest.param("8/8/3v4/8/8/8/8/1S1LV3 w - 0 1", marks=pytest.mark.xfail(
        strict=True, reason="the luchnik and vsadnik mate is not yet found at 500 nodes")),
    # a ladya against the lone volkhv (the seen one, drawn by repetition, is not at
    # hand; this one the players mated without the endgame terms too, in 25 plies)
    "8/8/3v4/8/8/8/8/R3V3 w - 0 1",
])
def test_the_seen_endings_are_mated_at_500_nodes(fen):
    winner, ended, plies = _lab_play_out(fen, 500, 300)
    assert (winner, ended) == ("white", "checkmate"), (ended, plies)


def test_shipped_won_positions_are_converted_at_small_budgets():
    positions = load_positions()
    assert len(positions) >= 60
    for item in positions:
        game = Game(item["variant"], item["position"], seed=0)
        assert game.outcome(claim_draw=True) is None
        assert item["ahead"] in ("white", "black") and abs(item["lead_cp"]) >= LEAD_CP
        side = 0 if item["ahead"] == "white" else 1
        assert tops_lead(game.position, side) >= TOPS_LEAD
        assert {"agents", "seed", "position_index"} <= set(item["game"])
    # a few of them, played exactly as the benchmark plays them (its seeds), at the
    # study's smaller budget: each is won by the side ahead, by mate
    for index in (7, 9, 11, 14):
        row = play_one((index, positions[index], 150, 300))
        assert row["converted"] and row["ended"] == "checkmate", row
