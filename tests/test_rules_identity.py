"""Rules are known by what they play: the rules hash, fits found by it, equal-rule cells
refused, and measures that cannot differ shown but not tested."""

from __future__ import annotations

import json
import warnings

import pytest
from statsmodels.stats import multitest as smmulti

from tavrei_lab.engine.weights import (
    DEFAULT_WEIGHTS,
    UnprovenFitWarning,
    WeightsFileError,
    check_fit_for,
    fit_proof_problem,
    fit_weights,
    load_weights_file,
    shipped_fit,
    shipped_weights_dir,
    variant_hash,
)
from tavrei_lab.errors import VariantError
from tavrei_lab.lab.differences import cannot_differ
from tavrei_lab.lab.runner import GameSpec, play_game
from tavrei_lab.lab.sweep import sweep
from tavrei_lab.lab.table import ResultsTable, differences_table, established_summary
from tavrei_lab.lab.tournament import tournament
from tavrei_lab.variant import load_variant, rules_data, rules_hash

NO_SPLIT = shipped_weights_dir() / "tavreli-no-split.json"


# -- the rules hash -------------------------------------------------------------------------

def test_rules_hash_ignores_the_id_and_keeps_what_is_played():
    off = load_variant("tavreli", splits=False)
    assert variant_hash(off) != variant_hash(load_variant("tavreli-no-split"))
    assert rules_hash(off) == rules_hash(load_variant("tavreli-no-split"))
    assert rules_hash(off) != rules_hash(load_variant("tavreli"))
    assert rules_hash(load_variant("gavrilov-die")) == rules_hash(
        load_variant("gavrilov-die-skip-face"))
    assert rules_hash(load_variant("gavrilov-die")) != rules_hash(
        load_variant("gavrilov-die-mate"))
    assert rules_hash(load_variant("gavrilov-die")) != rules_hash(
        load_variant("gavrilov-die", die=False))
    assert "id" not in rules_data(off) and "name" not in rules_data(off)


def test_rules_hash_ignores_name_and_description_but_not_the_die(tmp_path):
    renamed = tmp_path / "mine.toml"
    renamed.write_text('extends = "tavreli"\nname = "Mine"\ndescription = "another text"\n',
                       encoding="utf-8")
    assert rules_hash(load_variant(str(renamed))) == rules_hash(load_variant("tavreli"))
    loaded = tmp_path / "loaded.toml"
    loaded.write_text('extends = "gavrilov-die"\n[die]\nweights = [2, 1, 1, 1, 1, 1]\n',
                      encoding="utf-8")
    assert rules_hash(load_variant(str(loaded))) != rules_hash(load_variant("gavrilov-die"))
    blank_then_bishop = tmp_path / "order.toml"    # the same faces rolled in another order
    blank_then_bishop.write_text('extends = "gavrilov-die"\n[die]\n'
                                 'faces = ["Q", "K", "R", "B", "N", "P"]\n', encoding="utf-8")
    assert rules_hash(load_variant(str(blank_then_bishop))) != rules_hash(
        load_variant("gavrilov-die"))


@pytest.mark.parametrize("agent", ["random", "play:nodes=40"])
def test_blank_face_and_absent_bishop_play_the_same_games_seed_for_seed(agent):
    bishop, blank = load_variant("gavrilov-die"), load_variant("gavrilov-die-skip-face")
    for seed in range(4):
        spec = GameSpec("x", agent, agent, seed, 0, agent, agent, 120)
        a, b = play_game(spec, rules=bishop), play_game(spec, rules=blank)
        moves_a = a.record.split("]")[-1].replace("@B", "@-")
        moves_b = b.record.split("]")[-1]
        assert "@-" in moves_b and (moves_a, a.result) == (moves_b, b.result)


# -- fits found by the rules ------------------------------------------------------------

def test_weights_fit_finds_the_no_split_fit_for_tavreli_without_splits():
    """`sweep --base tavreli --grid splits=true,false --agents play:nodes=150,weights=fit`
    needs a fit for tavreli[splits=false]: tavreli-no-split's, fit to equal rules."""
    off = load_variant("tavreli", splits=False)
    weights, doc = load_weights_file(NO_SPLIT)
    # a fit plays only with its proof (fit_proof_problem); unproven, the defaults play
    played = weights if fit_proof_problem(doc, weights) is None else DEFAULT_WEIGHTS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnprovenFitWarning)
        assert fit_weights(off) == played
    found = shipped_fit(off)
    assert found is not None and found[0] == NO_SPLIT
    check_fit_for(doc, off, "W.json")              # taken for equal rules
    with pytest.raises(WeightsFileError, match="fit for variant 'tavreli-no-split'"):
        check_fit_for(doc, load_variant("tavreli"), "W.json")
    assert fit_weights(load_variant("gavrilov-die-skip-face")) == fit_weights(
        load_variant("gavrilov-die"))


def test_a_fit_file_naming_its_rules_hash_is_found_by_it():
    off = load_variant("tavreli", splits=False)
    doc = {"weights": {}, "variant": "elsewhere", "settings_hash": "0" * 20,
           "rules_hash": rules_hash(off)}
    check_fit_for(doc, off, "W.json")
    with pytest.raises(WeightsFileError):
        check_fit_for(doc, load_variant("tavreli"), "W.json")


def test_shipped_fits_keep_loading_with_their_own_variant():
    for path in sorted(shipped_weights_dir().glob("*.json")):
        weights, doc = load_weights_file(path)
        rules = load_variant(doc["variant"])
        assert json.loads(path.read_text(encoding="utf-8"))["settings_hash"] == doc[
            "settings_hash"]
        if doc["settings_hash"] == variant_hash(rules):
            played = weights if fit_proof_problem(doc, weights) is None else DEFAULT_WEIGHTS
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UnprovenFitWarning)
                assert fit_weights(rules) == played


def test_sweep_over_splits_plays_each_cell_with_its_rules_fit():
    res = sweep("tavreli", {"splits": ["true", "false"]}, agents="play:nodes=20,weights=fit",
                games=1, max_plies=4, executor="inline", progress=False)
    notes = {u.cell.name: u.settings["fit"] for u in res.units}
    # found by rules; played when the shipped file carries its proof, else the defaults
    weights, doc = load_weights_file(NO_SPLIT)
    proven = fit_proof_problem(doc, weights) is None
    assert notes["tavreli[splits=false]"]["tune"] == ("shipped" if proven else "unproven")


# -- cells with equal rules ---------------------------------------------------------------

def test_a_sweep_of_cells_with_equal_rules_is_refused():
    with pytest.raises(VariantError, match="cell gavrilov-die-skip-face plays the same rules "
                                           "as cell gavrilov-die"):
        sweep(["gavrilov-die", "gavrilov-die-skip-face"], agents="random", games=1,
              max_plies=4, executor="inline", progress=False)
    with pytest.raises(VariantError, match=r"cell tavreli\[splits=false\] plays the same rules "
                                           r"as cell tavreli-no-split"):
        sweep(["tavreli-no-split", "tavreli"], {"splits": ["false"]}, agents="random",
              games=1, max_plies=4, executor="inline", progress=False)


def test_a_tournament_of_variants_with_equal_rules_is_refused():
    with pytest.raises(VariantError, match="variant gavrilov-die-skip-face plays the same "
                                           "rules as variant gavrilov-die"):
        tournament("gavrilov-die,gavrilov-die-skip-face", "random", games=1)


def test_cli_sweep_of_equal_rules_exits_2():
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-m", "tavrei_lab", "sweep", "--strength-games", "0",
                           "--base",
                           "gavrilov-die", "--base", "gavrilov-die-skip-face", "--agents",
                           "random", "--games", "1", "--no-progress", "--executor", "inline"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "plays the same rules as cell gavrilov-die" in proc.stderr


# -- measures that cannot differ ----------------------------------------------------------

def _row(cell, games, white, draws, black, length=50.0, sd=6.0):
    return {"cell": cell, "agents": "p v p", "games": games, "white_wins": white,
            "draws": draws, "black_wins": black, "length_mean": length, "length_sd": sd,
            "first_move_repeat": 0.2}


def _table(*rows):
    cols = [(c, "") for c in rows[0]]
    return ResultsTable("t", cols, list(rows))


def test_decisive_rate_one_everywhere_is_shown_not_tested_and_left_out_of_holm():
    rows = [_row("a", 40, 30, 0, 10, 40.0), _row("b", 40, 18, 0, 22, 47.0),
            _row("c", 40, 25, 0, 15, 44.0)]
    assert cannot_differ(rows, "decisive") == "cannot differ: every game ended decisively"
    assert cannot_differ(rows, "white_score") is None and cannot_differ(rows, "length") is None
    diffs = differences_table(_table(*rows))
    fixed = [r for r in diffs.rows if r["measure"] == "decisive"]
    assert len(fixed) == 3 and all(
        (r["established"], r["p_value"], r["p_holm"], r["low"], r["value_a"]) ==
        ("cannot differ", None, None, None, 1.0) for r in fixed)
    assert all(r["note"] == "cannot differ: every game ended decisively" for r in fixed)
    tested = [r for r in diffs.rows if r["measure"] != "decisive"]
    ref = smmulti.multipletests([r["p_value"] for r in tested], method="holm")[1]
    assert [r["p_holm"] for r in tested] == pytest.approx(list(ref), abs=1e-12)
    words = established_summary(diffs)
    assert "of 6 differences" in words or "the 6 differences" in words
    assert "decisive is shown, not tested (cannot differ: every game ended decisively" in words


def test_a_measure_that_varies_in_one_cell_is_tested():
    rows = [_row("a", 40, 30, 0, 10), _row("b", 40, 18, 1, 21)]
    assert cannot_differ(rows, "decisive") is None
    assert all(r["established"] != "cannot differ" for r in differences_table(
        _table(*rows)).rows)
    same_length = [_row("a", 10, 5, 0, 5, 30.0, 0.0), _row("b", 10, 4, 0, 6, 30.0, 0.0)]
    assert cannot_differ(same_length, "length") == "cannot differ: every game lasted 30 plies"
    assert cannot_differ([_row("a", 10, 0, 10, 0), _row("b", 10, 0, 10, 0)],
                         "white_score") == "cannot differ: every game was drawn"


def test_a_die_sweep_does_not_test_its_decisive_rate():
    """Every die game ends in the king's capture: a decisive rate of 1.0 in every cell,
    which no test can tell apart, so it is shown, not tested, and not in Holm's family."""
    res = sweep("gavrilov-die", {"absent": ["bishop", "knight"]}, agents="random", games=6,
                max_plies=1000, executor="inline", progress=False)
    assert [r["decisive_rate"] for r in res.table.rows] == [1.0, 1.0]
    diffs = res.differences()
    decisive = next(r for r in diffs.rows if r["measure"] == "decisive")
    assert decisive["established"] == "cannot differ" and decisive["p_holm"] is None


def test_a_tuned_fit_in_the_store_is_found_for_equal_rules_under_another_name(tmp_path):
    """The store keys a sweep's tuned fit by the rules as played: the fit tuned for the
    cell tavreli[splits=false] is the fit of the cell tavreli-no-split."""
    store = tmp_path / "lab.sqlite"
    tiny = {"generations": 1, "games": 2, "nodes": 20, "max_plies": 30}
    kw = dict(agents="play:nodes=20,weights=fit", games=1, max_plies=8, executor="inline",
              progress=False, store=store, tune=tiny)
    first = sweep("tavreli", {"splits": [False]}, **kw)
    assert first.tuned == 1
    first.store.close()
    again = sweep("tavreli-no-split", **kw)
    assert again.tuned == 0 and len(again.store.fits()) == 1
    (unit,) = again.units
    assert unit.settings["fit"]["weights"] == first.units[0].settings["fit"]["weights"]
    again.store.close()
    other = sweep("tavreli", {"splits": [True]}, **kw)       # other rules: its own tune
    assert other.tuned == 1 and len(other.store.fits()) == 2
    other.store.close()


def test_a_measure_alike_because_games_were_capped_is_still_tested():
    """Every game stopped at the cap is a draw of the cap's length: the one value is the
    cap's doing, and games played out could differ, so the measure is tested."""
    capped = [dict(_row("a", 8, 0, 8, 0, 40.0, 0.0), **{"end_max-plies": 1.0}),
              dict(_row("b", 8, 0, 8, 0, 40.0, 0.0), **{"end_max-plies": 1.0})]
    for m in ("decisive", "draw", "white_score", "length"):
        assert cannot_differ(capped, m) is None
    diffs = differences_table(_table(*capped))
    assert all(r["established"] == "no" and r["note"] == "" for r in diffs.rows)
    assert "None of the 3 differences is established" in established_summary(diffs)
    one_capped = [capped[0] | {"end_max-plies": 0.125, "draws": 1, "white_wins": 7},
                  _row("b", 8, 8, 0, 0, 40.0, 3.0)]
    assert cannot_differ(one_capped, "decisive") is None


def test_every_measure_fixed_says_no_difference_was_tested():
    rows = [_row("a", 10, 10, 0, 0, 30.0, 0.0), _row("b", 12, 12, 0, 0, 30.0, 0.0)]
    diffs = differences_table(_table(*rows))
    assert {r["established"] for r in diffs.rows} == {"cannot differ"}
    words = established_summary(diffs)
    assert words.startswith("No difference was tested: in every measure, every game of every "
                            "cell gave one value.")
    assert "white_score is shown, not tested (cannot differ: white won every game" in words
    assert "length is shown, not tested (cannot differ: every game lasted 30 plies" in words
