"""Finishing won endings: the lab's players on hand-set endings and on the won positions
harvested from the lab's own games (``benchmarks/data/conversion.json``).

Seen: at 500 nodes a move, a luchnik and a vsadnik against a lone volkhv was not mated
in 300 plies, and a ladya against a lone volkhv was drawn by repetition; of the lab
study's games stopped at the ply cap most were won and not finished.
"""

from __future__ import annotations

import pytest

from benchmarks.bench_conversion import play_one, report
from benchmarks.conversion import (
    CONFIRM_NODES,
    LAB_AGENTS,
    LEAD_CP,
    TOPS_LEAD,
    convert,
    is_confirmed,
    judge,
    load_positions,
    tops_lead,
)
from tavrei_lab import Game

VARIANT = "tavreli-no-split"


def _lab_play_out(fen: str, nodes: int, plies: int, seed: int = 1) -> tuple:
    spec = LAB_AGENTS[VARIANT].format(n=nodes)
    return convert(VARIANT, fen, spec, spec, seed, plies)


@pytest.mark.parametrize("fen", [
    # a luchnik and a vsadnik against the lone volkhv (the seen ending's pieces): still
    # not mated at 500 nodes (drawn by the fifty-move rule)
    pytest.param("8/8/3v4/8/8/8/8/1S1LV3 w - 0 1", marks=pytest.mark.xfail(
        strict=True, reason="the luchnik and vsadnik mate is not yet found at 500 nodes")),
    # a ladya against the lone volkhv (the seen one, drawn by repetition, is not at
    # hand; this one the players mate in 25 plies)
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


def test_the_deeper_judges_verdicts_are_in_the_file_and_reproduce():
    positions = load_positions()
    assert all(item["confirm"]["nodes"] == CONFIRM_NODES for item in positions)
    assert sum(is_confirmed(item) for item in positions) >= 60
    refused = [i for i, item in enumerate(positions) if not is_confirmed(item)]
    assert refused == [24]
    for index in (24, 7):          # the one the deeper judge refused, and one it confirmed
        item = positions[index]
        assert judge(item["variant"], item["position"], CONFIRM_NODES) == \
            item["confirm"]["lead_cp"]
    sign = 1 if positions[24]["ahead"] == "white" else -1
    assert sign * positions[24]["confirm"]["lead_cp"] < LEAD_CP


def test_the_goal_is_measured_on_confirmed_positions_and_every_position_is_shown():
    rows = [{"index": i, "variant": VARIANT, "nodes": 150, "converted": i != 1,
             "winner": None if i == 1 else "white", "ended": "checkmate", "plies": 30,
             "confirmed": i != 1} for i in range(3)]
    lines = report(rows)
    assert "2/2" in lines[0] and "100.0 %" in lines[0]
    assert any("#1" in line for line in lines)
    assert any("2/3" in line for line in lines)
