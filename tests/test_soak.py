"""The self-play soak: a few seconds of it here, the long run is a command.

``tavrei-lab soak --games 2000 --seed 1`` is the long run. Here: a short
soak over every shipped variant and every pairing must find nothing, and --
so that it cannot pass by checking nothing -- each invariant is shown to
catch a position or a rule module that breaks it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tavrei_lab import Game
from tavrei_lab.cli import main
from tavrei_lab.core.move import Move
from tavrei_lab.errors import TavreiError
from tavrei_lab.notation.position_string import read_position
from tavrei_lab.qa import soak
from tavrei_lab.qa.soak import PAIRINGS, SoakReport, position_problems, run_soak, soak_game
from tavrei_lab.variant import load_variant, variants


def test_a_short_soak_over_every_variant_and_pairing_finds_nothing() -> None:
    games = len(variants()) * len(PAIRINGS)
    report = run_soak(games, seed=7, max_plies=20)
    assert report.violations == [], report.summary()
    assert report.games == games
    assert set(report.per_variant) == set(variants())
    assert report.plies > 5 * games
    assert report.rolls > 0                          # die games rolled
    assert report.checks >= 6 * (report.plies + report.rolls)


def test_the_soak_is_reproducible() -> None:
    a = run_soak(4, seed=3, variants=["tavreli", "gavrilov-die"], max_plies=30)
    b = run_soak(4, seed=3, variants=["tavreli", "gavrilov-die"], max_plies=30)
    assert (a.plies, a.rolls, a.endings) == (b.plies, b.rolls, b.endings)


# -- each invariant catches what breaks it ----------------------------------------------

def test_a_lost_tavrel_is_caught() -> None:
    rules = load_variant("tavreli")
    start = rules.initial_position()
    lost = read_position(start.string.replace("P:HP:LP:SP:R/", "P:H1P:SP:R/"), rules)
    assert [name for name, _ in position_problems(rules, start, lost, False)] == ["tavrels"]


def test_in_orthodox_chess_the_count_may_fall_but_never_rise() -> None:
    rules = load_variant("orthodox")
    start = rules.initial_position()
    fewer = read_position(start.string.replace("PPPPPPPP", "PPPP1PPP"), rules)
    assert position_problems(rules, start, fewer, False) == []
    assert [n for n, _ in position_problems(rules, fewer, start, False)] == ["tavrels"]


def test_a_tavrel_on_a_volkhv_is_caught_unless_a_king_capture_game_is_over() -> None:
    tavreli = load_variant("tavreli")
    text = "4v3/8/8/8/8/8/8/R3(Vr)3 w - 0 1"
    on_king = read_position(text, tavreli, validate=False)
    assert [n for n, _ in position_problems(tavreli, None, on_king, False)] == ["volkhv"]
    die = load_variant("gavrilov-die")
    six = read_position("3k2/6/6/6/6/R2(Kr)2 w - 0 1", die, validate=False)
    assert [n for n, _ in position_problems(die, None, six, False)] == ["volkhv"]
    assert position_problems(die, None, six, True) == []        # the captured king ends it


def test_a_covered_promoted_ratnik_is_caught_only_where_any_unit_demotes() -> None:
    text = "4v3/8/8/8/8/8/8/(P:R*S)3V3 w - 0 1"
    for vid, expected in (("tavreli", ["promoted"]), ("tavreli-demote-by-enemy-only", [])):
        rules = load_variant(vid)
        pos = read_position(text, rules, validate=False)
        assert [n for n, _ in position_problems(rules, None, pos, False)] == expected


class _ForgetfulRules:
    """Tavreli whose ``apply`` loses the bottom prisoner of every tower it lands on."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def apply(self, position: Any, move: Move) -> Any:
        after = self._inner.apply(position, move)
        board = list(after.board)
        if len(board[move.to_square]) > 1:
            board[move.to_square] = board[move.to_square][1:]
        return after.replace(board=tuple(board))


def test_a_rule_module_that_loses_prisoners_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end: the soak's game loop reports a broken ``apply``."""
    real_game = soak.Game

    def forgetful_game(variant: str, seed: int | None = None) -> Game:
        return real_game(_ForgetfulRules(load_variant(variant)), seed=seed)

    forgetful_game.from_record = real_game.from_record  # type: ignore[attr-defined]
    monkeypatch.setattr(soak, "Game", forgetful_game)
    report = SoakReport()
    for i in range(3):
        soak_game("tavreli", ("greedy", "greedy"), seed=i, index=i, report=report, max_plies=30)
    found = {v.invariant for v in report.violations}
    # the counts drop, and the record (replayed by the real rules) tells another game
    assert found == {"tavrels", "record"}, report.summary()


def test_a_wrong_incremental_hash_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(soak, "update_hash", lambda h, before, action, after: h ^ 1)
    report = SoakReport()
    soak_game("tavreli", ("random", "random"), seed=1, index=0, report=report, max_plies=3)
    assert [v.invariant for v in report.violations] == ["hash"] * 3


def test_a_pop_that_does_not_restore_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def bad_pop(self: Game) -> Any:  # forgets to take the position back
        action = self._actions.pop()
        self._redo.append((action, self._positions[-1]))
        return action

    monkeypatch.setattr(Game, "pop", bad_pop)
    report = SoakReport()
    try:
        soak_game("tavreli", ("random", "random"), seed=1, index=0, report=report,
                  max_plies=2)
    except (TavreiError, IndexError):  # what the broken game does next does not matter:
        pass                           # its actions and positions no longer line up
    assert "push-pop" in {v.invariant for v in report.violations}


# -- the command ---------------------------------------------------------------------------

def test_the_soak_command_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["soak", "--games", "2", "--variants", "tavreli-no-split,gavrilov-die",
                 "--agents", "greedy-random", "--max-plies", "20", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 2 and figures["violations"] == []
    assert set(figures["per_variant"]) == {"tavreli-no-split", "gavrilov-die"}


@pytest.mark.parametrize("argv", [["soak", "--variants", "no-such-variant"],
                                  ["soak", "--agents", "random"],
                                  ["soak", "--agents", "random-nobody"],
                                  ["soak", "--games", "-1"]])
def test_bad_soak_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err


def test_the_soak_command_plays_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["soak", "--games", "1", "--variants", "tavreli", "--max-plies", "4"]) == 0
    assert "soak: 1 games" in capsys.readouterr().out
