"""A fit plays in an answer only with its proof: a gated match that showed it better
than the default weights; otherwise the default player plays and the sweep says so."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tavrei_lab.engine.weights import (
    DEFAULT_WEIGHTS,
    EVALUATION_VERSION,
    UnprovenFitWarning,
    fit_proof_problem,
    fit_weights,
    load_weights_file,
    save_weights,
    shipped_weights_dir,
    variant_hash,
    weights_digest,
)
from tavrei_lab.lab import sweep
from tavrei_lab.lab.proof import gate_proof, prove_fit
from tavrei_lab.lab.tune import sprt_gate
from tavrei_lab.variant import load_variant

WEIGHTS_MODULE = importlib.import_module("tavrei_lab.engine.weights")
FIT_MODULE = importlib.import_module("tavrei_lab.lab.cell_fit")
ROOT = Path(__file__).resolve().parent.parent
TINY_TUNE = {"generations": 1, "games": 2, "nodes": 20, "max_plies": 30}
FAST = dict(games=2, max_plies=16, executor="inline", progress=False)
FIT = "play:nodes=20,weights=fit,noise=10"
ODD = DEFAULT_WEIGHTS.with_(value_ratnik=1.5, mobility=6.0)


def proof_for(weights, decision="better", **changes):
    """A proof as a gate that said ``decision`` writes it for ``weights``."""
    points = [1.0, 0.5] * 30 if decision == "better" else [0.5, 0.0] * 30
    proof = gate_proof(sprt_gate(points), weights, DEFAULT_WEIGHTS, nodes=300, max_plies=300,
                       seed=1, games=60, how="test")
    return {**proof, **changes}


def test_a_proof_holds_only_for_its_weights_its_opponent_and_this_evaluation():
    assert fit_proof_problem({"proof": proof_for(ODD)}, ODD) is None
    assert "no gated match" in fit_proof_problem({}, ODD)
    assert "default weights themselves" in fit_proof_problem({"proof": proof_for(ODD)},
                                                             DEFAULT_WEIGHTS)
    assert "other weights" in fit_proof_problem({"proof": proof_for(ODD)},
                                                ODD.with_(mobility=7.0))
    assert "did not show it better" in fit_proof_problem(
        {"proof": proof_for(ODD, decision="not better")}, ODD)
    against = {"proof": proof_for(ODD, against=weights_digest(ODD.with_(mobility=1.0)))}
    assert "against other weights" in fit_proof_problem(against, ODD)
    stale = {"proof": proof_for(ODD, evaluation_version=EVALUATION_VERSION - 1)}
    assert f"evaluation {EVALUATION_VERSION - 1}" in fit_proof_problem(stale, ODD)
    no_rate = {"proof": {k: v for k, v in proof_for(ODD).items() if k != "alpha"}}
    assert "error rate" in fit_proof_problem(no_rate, ODD)


def _settings_weights(res):
    return {s["cell"]: s["fit"]["weights"] for s in res.store.settings().values()}


def test_a_sweep_plays_the_default_player_for_an_unproven_tune_and_says_so():
    """The tutorial's recipe (one generation: no gate) fit each cell and played the fit;
    it is stored, and the default weights play, one line a cell saying so."""
    res = sweep("tavreli", {"splits": [True, False]}, agents=FIT, tune=TINY_TUNE, **FAST)
    fits = res.store.fits()
    assert len(fits) == 2                         # stored all the same
    assert all(f["doc"]["weights"] != DEFAULT_WEIGHTS.as_dict() for f in fits.values())
    played = _settings_weights(res)
    assert set(played.values()) == {weights_digest(DEFAULT_WEIGHTS)}
    unproven = [line for line in res.notes if line.startswith("cell ")]
    assert len(unproven) == 2
    assert all("is not played, no gated match tested it" in line for line in unproven)
    assert unproven[0] in str(res)


def test_a_sweep_plays_a_proven_fit(monkeypatch):
    def fake_tune(rules, **kwargs):
        return {"weights": ODD.as_dict(), "log": [], "settings_hash": variant_hash(rules),
                "proof": proof_for(ODD)}
    monkeypatch.setattr(FIT_MODULE, "run_tune", fake_tune)
    res = sweep("tavreli", {"splits": [False]}, agents=FIT, tune=TINY_TUNE, **FAST)
    assert set(_settings_weights(res).values()) == {weights_digest(ODD)}
    assert not any(line.startswith("cell ") for line in res.notes)


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    monkeypatch.setattr(WEIGHTS_MODULE, "shipped_weights_dir", lambda: tmp_path)
    monkeypatch.setattr(WEIGHTS_MODULE, "_FITTED", {})
    rules = load_variant("tavreli-no-split")
    return tmp_path / "tavreli-no-split.json", rules


def test_a_shipped_fit_without_proof_plays_as_the_defaults(shipped):
    path, rules = shipped
    save_weights(path, ODD, variant="tavreli-no-split", settings_hash=variant_hash(rules))
    with pytest.warns(UnprovenFitWarning, match="no gated match tested it"):
        assert fit_weights(rules) == DEFAULT_WEIGHTS
    res = sweep("tavreli-no-split", None, agents="play:nodes=20,weights=fit", **FAST)
    (setting,) = res.store.settings().values()
    assert setting["fit"] == {"tune": "unproven", "weights": weights_digest(DEFAULT_WEIGHTS)}
    (line,) = [n for n in res.notes if n.startswith("cell ")]
    assert line.startswith("cell tavreli-no-split: the fit tavreli-no-split.json is not played")
    save_weights(path, ODD, variant="tavreli-no-split", settings_hash=variant_hash(rules),
                 proof=proof_for(ODD))
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnprovenFitWarning)
        assert fit_weights(rules) == ODD


def test_every_shipped_fit_carries_its_proof_or_says_it_is_unproven():
    """A shipped file is proven (its proof holds) or marked ``proven: false`` with the
    reason and, when a match was played, the match's figures; ``weights=fit`` plays it
    only in the first case."""
    for path in sorted(shipped_weights_dir().glob("*.json")):
        weights, doc = load_weights_file(path)
        problem = fit_proof_problem(doc, weights)
        assert doc.get("proven") is (problem is None), path.name
        if problem is not None:
            assert doc.get("unproven"), path.name
            if "proof" in doc:                    # a match was played: its figures
                assert doc["proof"]["games"] >= 2 and "score" in doc["proof"], path.name
        proof = doc.get("proof")
        if proof is not None:
            assert proof["weights"] == weights_digest(weights), path.name
            assert proof["evaluation_version"] == EVALUATION_VERSION, path.name
            assert {"score", "low", "high", "games", "nodes", "alpha", "beta"} <= set(proof)


def test_prove_fit_stops_when_the_test_decides():
    """A player that counts its own tavrels as worth nothing is not shown better than
    the defaults: the SPRT stops at "not better" long before the cap."""
    bad = DEFAULT_WEIGHTS.with_(**{f"value_{n}": 0.0 for n in
                                    ("ratnik", "vsadnik", "luchnik", "ladya", "knyaz")})
    proof = prove_fit("gavrilov-die", bad, games=80, nodes=20, max_plies=60,
                      executor="inline")
    assert proof["decision"] == "not better"
    assert proof["games"] < 80 and proof["games"] == 2 * proof["pairs"]
    assert proof["score"] < 0.5
    assert fit_proof_problem({"proof": proof}, bad) is not None


def test_the_tutorial_recipe_says_the_fit_is_not_played(tmp_path):
    argv = [sys.executable, "-m", "tavrei_lab", "sweep", "--strength-games", "0",
            "--base", "tavreli", "--grid",
            "splits=false", "--agents", FIT, "--games", "2", "--max-plies", "16",
            "--tune", "--tune-generations", "1", "--tune-games", "2", "--tune-nodes", "20",
            "--executor", "inline", "--no-progress"]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert ("cell tavreli[splits=false]: the fit of this cell's tune is not played, no gated "
            "match tested it: the default weights play instead") in " ".join(proc.stdout.split())


@pytest.mark.parametrize("generations, proven", [(2, True), (3, False)])
def test_a_tune_writes_the_gates_proof_only_against_its_start_weights(tmp_path, generations,
                                                                      proven):
    """Generation 2's gate tests the first fit against the start (default) weights: its
    "better" is the written fit's proof. Generation 3's compares the next fit with the
    first one, which proves nothing against the defaults: the file holds that fit, and
    its proof (of the first fit) does not hold for it."""
    from test_tune import _ScriptedGames

    from tavrei_lab.lab.tune import tune
    out = tmp_path / "w.json"
    doc = tune("tavreli-no-split", generations=generations, games=20, nodes=40, out=out,
               executor=_ScriptedGames(True))
    assert doc["proven"] is True                  # every gate said "better"
    weights, data = load_weights_file(out)
    assert data["proof"]["decision"] == "better" and data["proof"]["how"].endswith(
        "generation 2")
    problem = fit_proof_problem(data, weights)
    assert (problem is None) is proven
    if not proven:
        assert problem == "its proof tested other weights"
