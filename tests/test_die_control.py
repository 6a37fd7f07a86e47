"""The die question like with like: option ``die`` on the die variants turns
the die's restriction off and changes nothing else, so ``--grid die=true,false`` compares
the same game with and without the die."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from tavrei_lab import Game
from tavrei_lab.lab import build_cells, sweep

DIE_VARIANTS = ["gavrilov-die", "gavrilov-die-8x8", "gavrilov-die-mate", "gavrilov-die-skip-face"]


@pytest.mark.parametrize("variant", DIE_VARIANTS)
def test_without_the_die_every_roll_allows_every_unit(variant):
    off = Game(variant, die=False, seed=1)
    on = Game(variant, seed=1)
    assert off.chance_outcomes() == [("K", 1.0)]
    assert len(on.chance_outcomes()) > 1
    # same set-up, same family: after the king face, the moves are all the family's
    assert off.position == on.position
    rng = random.Random(4)
    for _ in range(30):
        if off.is_game_over():
            break
        off.apply_roll("K")
        moves = list(off.legal_moves())
        assert moves == off.rules.inner.legal_moves(off.position)
        off.push(rng.choice(moves))


def test_the_two_cells_differ_only_in_the_die():
    cells = build_cells("gavrilov-die", {"die": [True, False]})
    on, off = (c.rules for c in cells)
    assert {k: v for k, v in on.options.items() if k != "die"} == \
        {k: v for k, v in off.options.items() if k != "die"}
    assert on.variant.setup == off.variant.setup and on.pieces == off.pieces
    assert (on.options["die"], off.options["die"]) == (True, False)
    assert off.faces == ("K",) and len(on.faces) == 6


@pytest.mark.parametrize("flag", ["--base", "--variant"])
def test_grid_die_true_false_runs_on_a_die_variant(tmp_path, flag):
    # --variant as `tune` spells it (a user may type it so) is --base
    proc = subprocess.run(
        [sys.executable, "-m", "tavrei_lab", "sweep", flag, "gavrilov-die", "--grid",
         "die=true,false", "--agents", "greedy", "--games", "4", "--max-plies", "40",
         "--no-progress", "--executor", "inline", "--strength-games", "0"],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "gavrilov-die[die=true]" in proc.stdout and "gavrilov-die[die=false]" in proc.stdout
    res = sweep("gavrilov-die", {"die": [False]}, agents="greedy", games=2, max_plies=40,
                executor="inline", progress=False)
    record = res.games()[0].result.record
    assert "@K" in record and "@Q" not in record and "@P" not in record
