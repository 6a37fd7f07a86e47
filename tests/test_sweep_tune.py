"""``sweep --tune``: each cell's players fit to it first, kept in the store.

A rerun finds the fits and does not tune again; cells with other settings get other
fits; the fit weights are what the workers play with; the store's new table keeps
the integrity rules: a version-1 store is migrated, a foreign schema is
still refused.
"""

from __future__ import annotations

import importlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tavrei_lab.engine.weights import (
    DEFAULT_WEIGHTS,
    fit_proof_problem,
    load_weights_file,
    save_weights,
    shipped_weights_dir,
    variant_hash,
)
from tavrei_lab.errors import TavreiError
from tavrei_lab.lab import ResultsStore, sweep
from tavrei_lab.lab.proof import gate_proof
from tavrei_lab.lab.store import STORE_VERSION, StoreError
from tavrei_lab.lab.sweep import tune_settings
from tavrei_lab.lab.tune import TuneCheckpointError, sprt_gate
from tavrei_lab.variant import load_variant

FIT_MODULE = importlib.import_module("tavrei_lab.lab.cell_fit")
ROOT = Path(__file__).resolve().parent.parent
GRID = {"splits": [True, False]}
#: a tune as small as still fits something: one generation of two short games
TINY_TUNE = {"generations": 1, "games": 2, "nodes": 20, "max_plies": 30}
FAST = dict(games=2, max_plies=16, executor="inline", progress=False)
FIT = "play:nodes=20,weights=fit,noise=10"


@pytest.fixture
def tune_calls(monkeypatch):
    """Every tune the sweep runs, by the variant it fit (the real tune runs)."""
    calls: list[str] = []
    real = FIT_MODULE.run_tune

    def counting(rules, **kwargs):
        calls.append(rules.variant.id + str(sorted(rules.variant.options.items())))
        return real(rules, **kwargs)
    monkeypatch.setattr(FIT_MODULE, "run_tune", counting)
    return calls


def _moves(record: str) -> str:
    return record.split("\n\n", 1)[1]


def test_a_rerun_does_not_tune_again_and_each_cell_has_its_own_fit(tmp_path, tune_calls):
    store = tmp_path / "lab.sqlite"
    first = sweep("tavreli", GRID, agents=FIT, store=store, tune=TINY_TUNE, **FAST)
    assert len(tune_calls) == 2 and first.tuned == 2 and first.played == 4
    fits = first.store.fits()
    assert len(fits) == 2
    by_cell = {f["cell"]: f for f in fits.values()}
    assert set(by_cell) == {"tavreli[splits=true]", "tavreli[splits=false]"}
    on, off = by_cell["tavreli[splits=true]"], by_cell["tavreli[splits=false]"]
    assert on["variant_hash"] == variant_hash(load_variant("tavreli", splits=True))
    assert off["variant_hash"] == variant_hash(load_variant("tavreli", splits=False))
    assert on["doc"]["weights"] != off["doc"]["weights"]       # fit to different games
    assert on["doc"]["weights"] != DEFAULT_WEIGHTS.as_dict()
    assert len(on["doc"]["log"]) == 1
    # the games record which fit played them, so other weights would be other games
    notes = {s["cell"]: s["fit"] for s in first.store.settings().values()}
    assert notes["tavreli[splits=true]"]["tune"] != notes["tavreli[splits=false]"]["tune"]
    # the tune's games lived beside the store only while it ran
    assert not (tmp_path / "lab.sqlite.tunes").exists()
    played = first.comparable()
    first.store.close()

    again = sweep("tavreli", GRID, agents=FIT, store=store, tune=TINY_TUNE, **FAST)
    assert len(tune_calls) == 2, "the rerun tuned again"
    assert again.tuned == 0 and again.played == 0
    assert again.comparable() == played
    # other tune settings are another fit: tuned again, and their games are new ones
    other = sweep("tavreli", GRID, agents=FIT, store=store,
                  tune={**TINY_TUNE, "games": 4}, **FAST)
    assert len(tune_calls) == 4 and other.tuned == 2 and other.played == 4
    assert len(other.store.fits()) == 4


def test_the_players_play_with_the_cells_fit_on_the_workers(tmp_path, monkeypatch):
    """The fit reaches the worker processes: the tuned sweep's games are move for move
    those of the same weights given as a file, and not those of the defaults. (No noise:
    a game's seed comes from the agents' spec, which differs between the two.)"""
    odd = DEFAULT_WEIGHTS.with_(value_ratnik=3.0, mobility=30.0, volkhv_attack=0.0)

    # a fit plays only with its proof: this one carries a gate's "better"
    proof = gate_proof(sprt_gate([1.0, 0.5] * 30), odd, DEFAULT_WEIGHTS, nodes=40,
                       max_plies=20, seed=3, games=60, how="test")

    def fake_tune(rules, **kwargs):
        return {"weights": odd.as_dict(), "log": [], "settings_hash": variant_hash(rules),
                "proof": proof}
    monkeypatch.setattr(FIT_MODULE, "run_tune", fake_tune)
    kw = dict(games=2, max_plies=20, progress=False, seed=3)
    tuned = sweep("tavreli-no-split", None, agents="play:nodes=40,weights=fit",
                  tune=TINY_TUNE, executor="processes", workers=2, **kw)
    path = tmp_path / "odd.json"
    save_weights(path, odd)
    by_file = sweep("tavreli-no-split", None, agents=f"play:nodes=40,weights={path}",
                    executor="inline", **kw)
    plain = sweep("tavreli-no-split", None, agents="play:nodes=40",
                  executor="inline", **kw)
    moves = [_moves(g.record) for g in tuned.games()]
    assert moves == [_moves(g.record) for g in by_file.games()]
    assert moves != [_moves(g.record) for g in plain.games()]


def test_without_tune_fit_takes_the_shipped_weights_or_says_to_tune(tune_calls):
    res = sweep("tavreli-no-split", None, agents="play:nodes=20,weights=fit", **FAST)
    (setting,) = res.store.settings().values()
    # the shipped file plays when it carries its proof, the default weights otherwise
    weights, doc = load_weights_file(shipped_weights_dir() / "tavreli-no-split.json")
    proven = fit_proof_problem(doc, weights) is None
    assert setting["fit"]["tune"] == ("shipped" if proven else "unproven")
    # equal rules under another name take the same shipped fit
    same = sweep("tavreli", {"splits": [False]}, agents="play:nodes=20,weights=fit", **FAST)
    (equal,) = same.store.settings().values()
    assert equal["fit"] == setting["fit"]
    # a tuned sweep played inline leaves no fit behind in this process for the next one
    sweep("tavreli", {"castling": [False]}, agents=FIT, tune=TINY_TUNE, **FAST)
    assert len(tune_calls) == 1
    with pytest.raises(TavreiError, match=r"tavreli\[castling=false\].*--tune"):
        sweep("tavreli", {"castling": [False]}, agents="play:nodes=20,weights=fit", **FAST)


def test_sweeps_without_fit_agents_keep_their_settings_hashes():
    """Adding the fits table must not orphan stored games: a plain sweep's settings carry
    no fit, and its hashes are those version 1 of the store gave (checked value)."""
    res = sweep("tavreli", {"splits": [True]}, agents="greedy", seed=1, **FAST)
    (setting,) = res.store.settings().values()
    assert "fit" not in setting
    assert res.hashes == ["6f6d567074c746941f9e"]


@pytest.mark.parametrize("tune, message", [
    ({"gens": 1}, "unknown setting 'gens'"),
    ({"games": 0}, "games must be a whole number 1 or more"),
    ({"nodes": True}, "nodes must be a whole number"),
    ({"max_plies": 10 ** 6}, "max_plies must be"),
    ("yes", "expected True or a mapping"),
])
def test_bad_tune_settings_are_named(tune, message):
    with pytest.raises(TavreiError, match=message):
        tune_settings(tune)


def test_tune_without_a_fit_agent_is_refused_before_anything_runs(tune_calls):
    with pytest.raises(TavreiError, match="weights=fit"):
        sweep("tavreli", GRID, agents="greedy", tune=True, **FAST)
    assert tune_calls == []


# -- the store: version 2 adds the fits table ------------------------------------------------

def _version_1(path: Path) -> None:
    """Make a store file as version 1 of the package wrote it (no fits table)."""
    db = sqlite3.connect(path)
    db.executescript("DROP TABLE fits; UPDATE meta SET value='1' WHERE key='version';")
    db.commit()
    db.close()


@pytest.fixture
def stored_v1(tmp_path):
    path = tmp_path / "v1.sqlite"
    res = sweep("tavreli", {"splits": [True]}, agents="greedy", store=path, **FAST)
    games = res.comparable()
    res.store.close()
    _version_1(path)
    return path, games


def test_a_version_1_store_is_migrated_and_keeps_its_games(stored_v1):
    path, games = stored_v1
    with ResultsStore(path) as db:
        assert db.version == STORE_VERSION == 2
        assert db.fits() == {}
        db.add_fit("k", "vh", "cell", {"weights": {}})
        assert db.fit("k") == {"weights": {}}
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT value FROM meta").fetchall() == [("2",)]
    again = sweep("tavreli", {"splits": [True]}, agents="greedy", store=path, **FAST)
    assert again.played == 0 and again.comparable() == games


def test_a_read_only_version_1_store_is_read_as_it_is(stored_v1):
    path, games = stored_v1
    with ResultsStore(path, readonly=True) as db:
        assert db.version == 1 and db.fits() == {} and db.fit("k") is None
        assert len(db.games()) == len(games)
        with pytest.raises(StoreError, match="read-only store of version 1"):
            db.add_fit("k", "vh", "cell", {"weights": {}})
    with sqlite3.connect(path) as raw:       # nothing was written to it
        assert raw.execute("SELECT value FROM meta").fetchall() == [("1",)]


@pytest.mark.parametrize("damage, message", [
    ("CREATE TABLE extra (x)", "has table extra"),          # v1 and more: not migrated
    # says version 2, has not its layout
    ("UPDATE meta SET value='2'", "lacks index sqlite_autoindex_fits_1, table fits"),
])
def test_a_version_1_store_with_something_else_is_refused(stored_v1, damage, message):
    path, _ = stored_v1
    with sqlite3.connect(path) as raw:
        raw.executescript(damage)
    with pytest.raises(StoreError, match=message):
        ResultsStore(path)


def test_a_fit_of_another_evaluation_or_method_is_tuned_again(tmp_path, tune_calls,
                                                             monkeypatch):
    # the store keys a fit by the variant, the tune's settings *and* FIT_VERSION (the
    # evaluation's and the fit method's versions): weights fit to an older evaluation
    # must not be found for a newer one
    from tavrei_lab.lab.tune import FIT_VERSION
    store = tmp_path / "lab.sqlite"
    cell = {"splits": [False]}
    first = sweep("tavreli", cell, agents=FIT, store=store, tune=TINY_TUNE, **FAST)
    assert first.tuned == 1
    assert next(iter(first.store.fits().values()))["doc"]["fit_version"] == FIT_VERSION
    first.store.close()
    same = sweep("tavreli", cell, agents=FIT, store=store, tune=TINY_TUNE, **FAST)
    assert same.tuned == 0 and len(tune_calls) == 1
    same.store.close()
    monkeypatch.setattr(FIT_MODULE, "FIT_VERSION", FIT_VERSION + "-changed")
    newer = sweep("tavreli", cell, agents=FIT, store=store, tune=TINY_TUNE, **FAST)
    assert newer.tuned == 1 and len(tune_calls) == 2, "an old fit was reused"
    assert newer.played == 2            # its games were played by the new fit: new games
    assert len(newer.store.fits()) == 2


def test_a_damaged_fit_is_set_aside_and_tuned_again(tmp_path, tune_calls):
    store = tmp_path / "lab.sqlite"
    sweep("tavreli", {"splits": [False]}, agents=FIT, store=store, tune=TINY_TUNE,
          **FAST).store.close()
    with sqlite3.connect(store) as raw:
        raw.execute("UPDATE fits SET json='{not json'")
    with pytest.warns(RuntimeWarning, match="set aside"):
        again = sweep("tavreli", {"splits": [False]}, agents=FIT, store=store,
                      tune=TINY_TUNE, **FAST)
    assert again.tuned == 1 and len(tune_calls) == 2


# -- the command line --------------------------------------------------------------------------

def test_a_damaged_tune_checkpoint_in_a_sweep_is_named_and_kept(tmp_path, monkeypatch):
    # a settings.json cut short in STORE.tunes/ stopped the sweep with a JSONDecodeError
    real = FIT_MODULE.run_tune
    planted: list[Path] = []

    def damaged_first(rules, **kwargs):
        folder = Path(str(kwargs["out"]) + ".games")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "settings.json").write_text('{"variant": {"id": "tav')
        planted.append(folder)
        return real(rules, **kwargs)
    monkeypatch.setattr(FIT_MODULE, "run_tune", damaged_first)
    store = tmp_path / "lab.sqlite"
    with pytest.raises(TuneCheckpointError, match="remove it and run the sweep again") as caught:
        sweep("tavreli", GRID, agents=FIT, store=store, tune=TINY_TUNE, **FAST)
    assert str(planted[0]) in str(caught.value) and "--out" not in str(caught.value)
    assert str(tmp_path / "lab.sqlite.tunes") in str(planted[0])
    assert (planted[0] / "settings.json").read_text() == '{"variant": {"id": "tav'


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tavrei_lab", "sweep", "--strength-games", "0",
                           *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_sweep_tune_on_the_command_line(tmp_path):
    args = ["--grid", "splits=true,false", "--agents", FIT, "--games", "2",
            "--max-plies", "16", "--executor", "inline", "--no-progress",
            "--store", str(tmp_path / "s.sqlite"), "--tune", "--tune-generations", "1",
            "--tune-games", "2", "--tune-nodes", "10"]
    first = _cli(*args)
    assert first.returncode == 0, first.stderr
    assert "weights fit to 2 cells: 2 tuned now, 0 from the store" in first.stdout
    again = _cli(*args)
    assert again.returncode == 0, again.stderr
    assert "weights fit to 2 cells: 0 tuned now, 2 from the store" in again.stdout
    assert "4 games in 2 cells: 0 played now" in again.stdout


@pytest.mark.parametrize("args, message", [
    (["--agents", "greedy", "--tune"], "weights=fit"),
    (["--agents", FIT, "--tune-games", "3"], "--tune-games needs --tune"),
])
def test_sweep_tune_bad_input_is_one_line(args, message):
    proc = _cli("--games", "2", "--executor", "inline", "--no-progress", *args)
    assert proc.returncode == 2
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


# -- noise: node-limited self-play that does not repeat one game ----------------------------

def test_play_noise_varies_self_play_and_bad_noise_is_named():
    from tavrei_lab.engine.agents import make_agent
    kw = dict(games=3, max_plies=24, executor="inline", progress=False)
    plain = sweep("tavreli", None, agents="play:nodes=30", **kw)
    blurred = sweep("tavreli", None, agents="play:nodes=30,noise=10", **kw)
    assert len({_moves(g.record) for g in plain.games()}) == 1       # one game, three times
    assert len({_moves(g.record) for g in blurred.games()}) == 3
    again = sweep("tavreli", None, agents="play:nodes=30,noise=10", **kw)
    assert again.comparable() == blurred.comparable()                # still seeded
    assert "noise=10" in repr(make_agent("play:nodes=30,noise=10"))
    for bad in ("play:nodes=30,noise=x", "play:nodes=30,noise=-1"):
        with pytest.raises(TavreiError, match="noise"):
            make_agent(bad)
