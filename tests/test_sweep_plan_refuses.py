"""``sweep --plan`` and ``--until-decided`` refuse a question no games can answer, in one
line with exit status 2: an effect that is not a finite positive number, one too small
for the formula's arithmetic, a rate difference of 1 or more, or a single cell."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from tavrei_lab.errors import TavreiError
from tavrei_lab.lab.differences import MAX_PLANNED_GAMES, games_for_means, games_for_proportions
from tavrei_lab.lab.planning import plan, until_decided

TWO = {"splits": [True, False]}
TINY = dict(agents="random", max_plies=12, executor="inline", progress=False)


def test_an_effect_that_squares_to_zero_is_refused_not_divided_by() -> None:
    """``--effect 1e-300`` on length was a ZeroDivisionError traceback."""
    with pytest.raises(TavreiError, match="needs more than 1,000,000,000,000 games a cell"):
        games_for_means(30.0, 1e-300)
    with pytest.raises(TavreiError, match="needs more than"):
        games_for_proportions(0.0, 1e-300)
    assert games_for_means(30.0, 5.0) < MAX_PLANNED_GAMES
    with pytest.raises(TavreiError, match="needs more than"):
        plan("tavreli", TWO, effect=1e-300, measure="length", trial=2, **TINY)


@pytest.mark.parametrize("effect", [math.inf, math.nan, -1.0, 0.0])
def test_an_effect_that_is_not_a_finite_positive_number_is_refused_before_any_game(
        effect: float) -> None:
    """``--effect inf`` was accepted (p = nan)."""
    with pytest.raises(TavreiError, match="--effect must be a finite positive difference"):
        plan("tavreli", TWO, effect=effect, **TINY)
    with pytest.raises(TavreiError, match="--effect must be a finite positive difference"):
        until_decided("tavreli", TWO, measure="length", effect=effect, games=8, batch=4, **TINY)


@pytest.mark.parametrize("measure", ["decisive", "draw", "white_score"])
def test_a_rate_difference_of_one_or_more_is_refused(measure: str) -> None:
    """``--effect 5`` on a rate was "excluded" after the first 4 games."""
    with pytest.raises(TavreiError, match="is below 1, got 5"):
        until_decided("tavreli", TWO, measure=measure, effect=5, games=8, batch=4, **TINY)
    with pytest.raises(TavreiError, match="is below 1, got 5"):
        plan("tavreli", TWO, effect=5, measure=measure, **TINY)


def test_one_cell_has_no_difference_to_plan_or_decide() -> None:
    with pytest.raises(TavreiError, match="one cell has no difference to detect"):
        plan("tavreli", None, effect=0.2, measure="decisive", **TINY)
    with pytest.raises(TavreiError, match="one cell has no difference to detect"):
        until_decided("tavreli", {"splits": [True]}, measure="length", effect=5, games=8,
                      batch=4, **TINY)


@pytest.mark.parametrize("args, said", [
    (["--measure", "length", "--effect", "1e-300", "--grid", "splits=true,false",
      "--trial", "2"], "needs more than"),
    (["--effect", "inf", "--grid", "splits=true,false"], "finite positive"),
    (["--measure", "length", "--effect", "5"], "one cell"),
])
def test_sweep_plan_refusals_are_one_line_and_exit_2(args: list[str], said: str) -> None:
    run = subprocess.run([sys.executable, "-m", "tavrei_lab", "sweep", "--plan", "--agents",
                          "random", "--max-plies", "12", "--no-progress", "--executor",
                          "inline", *args], capture_output=True, text=True, timeout=300)
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and said in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
