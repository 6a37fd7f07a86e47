"""A sweep names its players' strength against the fixed reference player, and a
question can be asked at several node budgets: stable, or changes with strength."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from tavrei_lab.engine.agents import REFERENCE_PLAYER
from tavrei_lab.errors import TavreiError
from tavrei_lab.lab import ResultsTable, sweep
from tavrei_lab.lab.strength import (
    across_strengths,
    at_strength,
    parse_strengths,
    stability_text,
    strength_of,
)

ROOT = Path(__file__).resolve().parent.parent
FAST = dict(games=2, max_plies=8, executor="inline", progress=False, seed=4)


def logistic_elo(score: float) -> float:
    return 400 * math.log10(score / (1 - score))


def test_the_reference_player_is_the_strength_benchmarks():
    from benchmarks import strength_rating
    assert strength_rating.REFERENCE_PLAYER is REFERENCE_PLAYER


def test_a_sweep_states_each_players_elo_against_the_reference_player(tmp_path):
    store = tmp_path / "lab.sqlite"
    res = sweep("tavreli", {"splits": [True, False]}, agents="greedy", store=store,
                strength_games=2, **FAST)
    assert [(s.cell, s.agent, s.games) for s in res.strengths] == [
        ("tavreli[splits=true]", "greedy", 2), ("tavreli[splits=false]", "greedy", 2)]
    for s in res.strengths:
        assert s.wins + s.draws + s.losses == 2
        assert s.score == pytest.approx((s.wins + s.draws / 2) / 2)
        assert s.low <= s.score <= s.high
        if 0 < s.score < 1:
            assert s.elo == pytest.approx(logistic_elo(s.score), abs=1e-6)
    lines = [n for n in res.notes if n.startswith("strength of greedy")]
    assert len(lines) == 2 and all(REFERENCE_PLAYER in line and "Elo" in line
                                   for line in lines)
    # the question's table holds the question's cells only, and its games are its own
    assert [r["agents"] for r in res.table.rows] == ["greedy v greedy"] * 2
    assert res.played == 4
    # the strength games are in the store, and its tables read whole leave them out
    assert len(res.store.settings()) == 4
    assert ResultsTable.from_store(res.store).to_dicts() == res.table.to_dicts()
    res.store.close()
    again = sweep("tavreli", {"splits": [True, False]}, agents="greedy", store=store,
                  strength_games=2, **FAST)
    assert [s.as_dict() for s in again.strengths] == [s.as_dict() for s in res.strengths]


def test_a_sweep_says_when_strength_was_not_measured():
    res = sweep("tavreli", {"splits": [True]}, agents="greedy", **FAST)
    assert res.strengths == []
    assert any("was not measured" in n and REFERENCE_PLAYER in n for n in res.notes)


class _Game:
    def __init__(self, white: str, black: str, winner: str | None) -> None:
        self.result = type("R", (), {"white": white, "black": black, "winner": winner})()


def test_strength_counts_the_agents_side():
    games = [_Game("a", REFERENCE_PLAYER, "white"), _Game(REFERENCE_PLAYER, "a", "white"),
             _Game("a", REFERENCE_PLAYER, None), _Game(REFERENCE_PLAYER, "a", "black")]
    s = strength_of("c", "a", games)
    assert (s.wins, s.draws, s.losses, s.score) == (2, 1, 1, 0.625)
    assert s.elo == pytest.approx(logistic_elo(0.625))
    none = strength_of("c", "a", [_Game("a", REFERENCE_PLAYER, "black")] * 3)
    assert none.score == 0.0 and "below" in none.text()


def test_at_strength_sets_every_agents_node_budget_or_refuses():
    assert at_strength("play:nodes=150,weights=fit,noise=10,level:1,nodes=20000", 500) == [
        "play:nodes=500,weights=fit,noise=10", "level:1,nodes=500"]
    with pytest.raises(TavreiError, match="'greedy' has no node budget"):
        at_strength("play:nodes=150,greedy", 500)
    assert parse_strengths("150,500") == [150, 500]
    for bad in ("150", "150,150", "a,b", "0,10"):
        with pytest.raises(TavreiError, match="--strengths"):
            parse_strengths(bad)


class _Result:
    def __init__(self, rows: list[dict]) -> None:
        self.rows = rows

    def differences(self) -> _Result:
        return self


def _row(measure: str, difference: float, established: str) -> dict:
    return {"measure": measure, "a": "A", "b": "B", "difference": difference,
            "low": difference - 0.1, "high": difference + 0.1, "established": established}


def test_a_measure_is_stable_only_when_sign_and_verdict_hold_at_every_strength():
    rows = across_strengths({
        150: _Result([_row("decisive", 0.2, "yes"), _row("length", -5.0, "no"),
                      _row("white_score", 0.05, "no")]),
        500: _Result([_row("decisive", 0.3, "yes"), _row("length", -9.0, "yes"),
                      _row("white_score", -0.02, "no")])})
    verdicts = {r["measure"]: r["stability"] for r in rows}
    assert verdicts == {"decisive": "stable", "length": "changes with strength",
                        "white_score": "changes with strength"}
    text = stability_text(rows)
    assert "150: +0.200" in text and "500: +0.300" in text
    assert "decisive: A - B" in text and "=> stable" in text


def test_the_command_asks_the_question_at_two_strengths(tmp_path):
    argv = [sys.executable, "-m", "tavrei_lab", "sweep", "--base", "tavreli", "--grid",
            "splits=true,false", "--agents", "play:nodes=8", "--games", "4",
            "--max-plies", "12", "--strengths", "8,16", "--strength-games", "0",
            "--executor", "inline", "--no-progress"]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "at 8 nodes a move:" in out and "at 16 nodes a move:" in out
    assert "The question at 8, 16 nodes a move, side by side:" in out
    lines = [line for line in out.splitlines() if "=> " in line]
    assert len(lines) == 3            # white's score, decisiveness, length
    assert all(line.endswith(("=> stable", "=> changes with strength")) for line in lines)
    refused = subprocess.run([*argv[:9], "play:nodes=8,greedy", *argv[10:]], capture_output=True,
                             text=True, cwd=ROOT, timeout=120)
    assert refused.returncode == 2 and "'greedy' has no node budget" in refused.stderr
