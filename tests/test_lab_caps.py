"""A ply cap never decides a sweep's answer silently: capped games are counted per cell,
a difference is established only at both bounds of them, and they can be played on."""

from __future__ import annotations

import math
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import tavrei_lab.lab.bounds as bounds
from tavrei_lab import Game
from tavrei_lab.cli import main
from tavrei_lab.engine import selfplay
from tavrei_lab.lab import sweep
from tavrei_lab.lab.bounds import AHEAD_RATNIKS, final_lead, last_lead
from tavrei_lab.lab.continuation import replay_capped
from tavrei_lab.lab.planning import look_at
from tavrei_lab.lab.store import ResultsStore
from tavrei_lab.lab.table import (
    ResultsTable,
    differences_table,
    established_summary,
    summary_table,
)

#: A cheap deeper search for the tests (the shipped one is ``bounds.JUDGE_NODES``).
TEST_JUDGE_NODES = 200
CAP = 40


@pytest.fixture(scope="module", autouse=True)
def _cheap_judge() -> Iterator[None]:
    shipped = bounds.JUDGE_NODES
    bounds.JUDGE_NODES = TEST_JUDGE_NODES
    yield
    bounds.JUDGE_NODES = shipped


@pytest.fixture(scope="module")
def capped_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A die variant, whose games end by king capture within the cap, beside orthodox
    chess, whose greedy games mostly reach a 40-ply cap with one side ahead."""
    path = tmp_path_factory.mktemp("caps") / "caps.sqlite"
    sweep(["gavrilov-die", "orthodox"], None, agents="greedy", games=8, seed=1,
          max_plies=CAP, executor="inline", progress=False, store=path)
    return path


def rows_by_cell(table: ResultsTable) -> dict[str, dict]:
    return {r["cell"]: r for r in table.rows}


def test_a_sweep_whose_games_reach_the_cap_counts_them_in_every_cell(capped_store: Path
                                                                      ) -> None:
    table = ResultsTable.from_store(capped_store)
    games = ResultsTable.from_store(capped_store, "games")
    rows = rows_by_cell(table)
    for cell, row in rows.items():
        ended = [g for g in games.rows if g["cell"] == cell]
        assert row["capped"] == sum(1 for g in ended if g["termination"] == "max-plies")
        assert row["max_plies"] == CAP and row["replayed"] == 0
    assert rows["orthodox"]["capped"] >= 4 and rows["gavrilov-die"]["capped"] == 0
    # who the deeper search puts ahead, and the far-ahead draws by the last evaluation
    with ResultsStore(capped_store, readonly=True) as db:
        stored = [g for g in db.games() if g.cell == "orthodox"]
    capped = [g for g in stored if g.result.termination == "max-plies"]
    leads = [final_lead(g) for g in capped]
    assert leads == [final_lead(g) for g in capped]           # the same judgement again
    assert rows["orthodox"]["capped_white_ahead"] == sum(1 for v in leads if v >= 0.5)
    assert rows["orthodox"]["capped_black_ahead"] == sum(1 for v in leads if v <= -0.5)
    far = sum(1 for g in stored if g.result.winner is None
              and abs(last_lead(g)) >= AHEAD_RATNIKS)
    assert rows["orthodox"]["draws_ahead"] == far
    # the terminal's table shows them too
    small, _diffs = summary_table(table)
    assert [r["capped/far"] for r in small.rows] == [f"{r['capped']}/{r['draws_ahead']}"
                                                     for r in table.rows]


def test_a_difference_that_flips_between_the_bounds_is_undecided_with_the_replay_command(
        capped_store: Path) -> None:
    diffs = ResultsTable.from_store(capped_store).differences()
    decisive = diffs.row(measure="decisive")
    # as draws the die variant is far more decisive; with the capped games won by the
    # side ahead, it is not: the answer rests on the capped games
    assert decisive["p_value"] < 0.01 and decisive["p_ahead"] > 0.05
    assert decisive["p_bound"] == max(decisive["p_value"], decisive["p_ahead"])
    assert decisive["established"] == "undecided"
    assert decisive["capped"] == rows_by_cell(ResultsTable.from_store(capped_store))[
        "orthodox"]["capped"]
    assert decisive["replay"] == (f"tavrei-lab sweep --store {capped_store} --replay-capped "
                                  f"--max-plies {2 * CAP}")
    text = established_summary(diffs)
    assert "Undecided: decisive" in text and decisive["replay"] in text
    # the length has no bound: its verdict is Holm's on its own p
    length = diffs.row(measure="length")
    assert length["p_bound"] == length["p_value"] and length["difference_ahead"] is None


def test_holm_runs_over_the_worse_bound_and_both_bounds_must_agree() -> None:
    def row(cell: str, white: int, draws: int, black: int, w_ahead: int = 0,
            b_ahead: int = 0) -> dict:
        n = white + draws + black
        return {"cell": cell, "agents": "x v x", "games": n, "white_wins": white,
                "draws": draws, "black_wins": black, "capped": w_ahead + b_ahead,
                "capped_white_ahead": w_ahead, "capped_black_ahead": b_ahead,
                "max_plies": 200, "length_mean": 80.0, "length_sd": 10.0 + n % 3}
    plain = ResultsTable("t", [], [row("a", 20, 4, 16), row("b", 6, 30, 4)])
    flips = ResultsTable("t", [], [row("a", 20, 4, 16), row("b", 6, 30, 4, 14, 12)])
    holds = ResultsTable("t", [], [row("a", 20, 4, 16), row("b", 6, 30, 4, 2, 1)])
    assert differences_table(plain).row(measure="decisive")["established"] == "yes"
    flipped = differences_table(flips).row(measure="decisive")
    assert flipped["established"] == "undecided" and flipped["capped"] == 26
    assert "--replay-capped --max-plies 400" in flipped["replay"]
    assert "--store FILE" in flipped["replay"]      # a table from no store names none
    held = differences_table(holds).row(measure="decisive")
    assert held["established"] == "yes" and held["replay"] == ""
    assert held["p_bound"] == max(held["p_value"], held["p_ahead"])
    # --until-decided looks at the same two bounds
    rows = {(r["cell"], r["agents"]): r for r in flips.rows}
    pair = [(("a", "x v x"), ("b", "x v x"))]
    assert look_at(rows, pair, "decisive", 0.1, 0.05)[0][4] == "undecided"
    rows = {(r["cell"], r["agents"]): r for r in plain.rows}
    assert look_at(rows, pair, "decisive", 0.1, 0.05)[0][4] == "established"


def test_capped_games_played_on_from_the_stored_game_take_their_place(
        capped_store: Path, tmp_path: Path) -> None:
    path = tmp_path / "replayed.sqlite"
    shutil.copy(capped_store, path)
    before = rows_by_cell(ResultsTable.from_store(path))["orthodox"]
    report = replay_capped(path, 2 * CAP, executor="inline", progress=False)
    assert report.capped == before["capped"] == report.played and report.stored == 0
    after_table = ResultsTable.from_store(path)
    after = rows_by_cell(after_table)["orthodox"]
    assert after["replayed"] == before["capped"] and after["max_plies"] == 2 * CAP
    assert after["capped"] == report.still_capped < before["capped"]
    assert after["games"] == before["games"]
    assert after["white_wins"] + after["black_wins"] > before["white_wins"] + before[
        "black_wins"]
    # each played-on game is its stored game up to the cap, then goes on
    with ResultsStore(path, readonly=True) as db:
        settings = db.settings()
        originals = {g.index: g for h, s in settings.items() if "continued_from" not in s
                     for g in db.games(h) if g.cell == "orthodox"}
        played_on = [g for h, s in settings.items() if "continued_from" in s
                     for g in db.games(h)]
    assert len(played_on) == before["capped"]
    for g in played_on:
        old = Game.from_record(originals[g.index].record)
        new = Game.from_record(g.record)
        assert [str(m) for m in new.moves[:CAP]] == [str(m) for m in old.moves]
        assert new.ply > CAP
    # the verdict is made again, by the same rule, on the games as they now stand
    again = after_table.differences().row(measure="decisive")
    assert again["value_b"] == (after["white_wins"] + after["black_wins"]) / after["games"]
    if after["capped"] == 0:
        assert again["established"] in ("yes", "no")
    # a second run finds them in the store
    assert replay_capped(path, 2 * CAP, executor="inline", progress=False).played == 0


def test_replay_capped_on_the_command_line(capped_store: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cli.sqlite"
    shutil.copy(capped_store, path)
    assert main(["sweep", "--strength-games", "0",
                 "--store", str(path), "--replay-capped", "--max-plies",
                 str(CAP)]) == 2
    err = capsys.readouterr().err
    assert "is not larger than the cap of the stored games of orthodox (40)" in err
    assert main(["sweep", "--strength-games", "0", "--replay-capped", "--max-plies", "80"]) == 2
    assert "--replay-capped needs --store FILE" in capsys.readouterr().err
    assert main(["sweep", "--strength-games", "0",
                 "--store", str(path), "--replay-capped", "--max-plies", "60",
                 "--executor", "inline", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "played on now to 60 plies" in out and "capped" in out


def test_the_default_cap_is_written_once() -> None:
    from tavrei_lab.cli.sweep import DEFAULT_MAX_PLIES as cli_cap
    from tavrei_lab.lab.runner import DEFAULT_MAX_PLIES as tournament_cap
    from tavrei_lab.lab.tune import DEFAULT_MAX_PLIES as tune_cap
    assert tournament_cap is selfplay.DEFAULT_MAX_PLIES is tune_cap is cli_cap
    assert math.isfinite(selfplay.DEFAULT_MAX_PLIES)
