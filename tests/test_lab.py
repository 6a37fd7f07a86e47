"""The variant lab: cells, measures, piece values, the store, the executors.

Games are kept tiny (greedy agents, a few games, a ply limit): the machine
is shared, and what is checked is the bookkeeping, not the games' quality.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor

import pytest

from tavrei_lab.errors import TavreiError, VariantError
from tavrei_lab.lab import (
    ResultsStore,
    ResultsTable,
    build_cells,
    drama,
    fit_logistic,
    lead_changes,
    piece_values,
    sweep,
)
from tavrei_lab.lab.runner import GameSpec, play_game
from tavrei_lab.lab.shipping import variant_fingerprint
from tavrei_lab.lab.sweep import LabTask, play_lab_game
from tavrei_lab.variant import load_variant

SMALL = dict(agents="greedy", games=4, seed=5, max_plies=30, progress=False)


def results(table: ResultsTable) -> list[dict]:
    """A table's rows without the store each was read from: what two runs must share."""
    return [{k: v for k, v in row.items() if k != "store"} for row in table.to_dicts()]


class CountingExecutor(Executor):
    """Runs calls inline and counts them: "nothing ran" is then a number."""

    def __init__(self) -> None:
        self.calls = 0

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.calls += 1
        f: Future = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            f.set_exception(exc)
        return f


# -- cells ------------------------------------------------------------------------

def test_cells_equal_the_variants_built_by_hand():
    cells = build_cells("tavreli", {"splits": [True, False]})
    assert [c.name for c in cells] == ["tavreli[splits=true]", "tavreli[splits=false]"]
    by_hand = {True: load_variant("tavreli"), False: load_variant("tavreli-no-split")}
    for cell in cells:
        hand = by_hand[cell.option_dict["splits"]]
        assert cell.rules.options == hand.options
        assert variant_fingerprint(cell.rules) == variant_fingerprint(hand)
    # and a game of the cell is the game of the hand-written file, move for move
    cell = cells[1]
    spec = GameSpec("x", "greedy", "greedy", seed=11, max_plies=40)
    lab_result, _ = play_lab_game(LabTask(spec, cell.parcel()))
    hand_result = play_game(spec, rules=by_hand[False])
    def moves(record: str) -> str:     # the Variant tags name the file or the cell
        return "\n".join(line for line in record.splitlines()
                         if not line.startswith(("[Variant ", "[VariantData ")))

    assert moves(lab_result.record) == moves(hand_result.record)
    assert ({k: v for k, v in lab_result.comparable().items() if k != "record"}
            == {k: v for k, v in hand_result.comparable().items() if k != "record"})


def test_cell_values_from_text_take_the_options_type():
    cells = build_cells(["tavreli", "orthodox"], {"castling": ["true", "false"],
                                                   "demote_by": ["any"]})
    assert [c.name for c in cells] == [
        "tavreli[castling=true,demote_by=any]", "tavreli[castling=false,demote_by=any]",
        "orthodox[castling=true,demote_by=any]", "orthodox[castling=false,demote_by=any]"]
    assert cells[1].rules.options["castling"] is False


@pytest.mark.parametrize("grid, words", [
    ({"splitz": [True]}, ["splitz", "unknown option", "tavreli"]),
    ({"splits": ["maybe"]}, ["splits", "maybe", "true or false"]),
    ({"promotion": ["sometimes"]}, ["promotion", "sometimes"]),
    ({"splits": []}, ["splits", "no values"]),
    ({"splits": [True, True]}, ["splits", "twice"]),
])
def test_a_bad_grid_fails_before_any_game(grid, words, tmp_path):
    ex = CountingExecutor()
    store = tmp_path / "lab.sqlite"
    with pytest.raises(VariantError) as err:
        sweep("tavreli", grid, executor=ex, store=store, **SMALL)
    for w in words:
        assert w in str(err.value)
    assert ex.calls == 0
    assert not store.exists()          # nothing run, nothing written


def test_a_bad_agent_or_base_fails_before_any_game():
    ex = CountingExecutor()
    with pytest.raises(TavreiError, match="unknown agent 'grandmaster'"):
        sweep("tavreli", {"splits": [True]}, executor=ex,
              **{**SMALL, "agents": "grandmaster"})
    with pytest.raises(VariantError, match="unknown variant 'tavrelli'"):
        sweep("tavrelli", {"splits": [True]}, executor=ex, **SMALL)
    assert ex.calls == 0


# -- measures ---------------------------------------------------------------------

def test_lead_changes_and_drama_follow_their_definitions():
    assert lead_changes([0.1, 0.2, -0.3]) == 0                 # within the margin: level
    assert lead_changes([1, -1, 1, -1]) == 3
    assert lead_changes([1, 0, 0, 1]) == 0                     # level, then the same side
    assert drama([1.0, 3.0], "black") is not None
    d, trailed = drama([1.0, 3.0], "black")
    assert trailed and d > 0.1
    assert drama([1.0], None) is None


def test_sweep_table_has_every_measure_with_intervals():
    res = sweep("tavreli", {"splits": [True, False]}, executor="inline", **SMALL)
    table = res.table
    assert table.column("games") == [4, 4]
    for name in ("white_score", "draw_rate", "decisive_rate", "end_checkmate",
                 "end_max-plies", "comeback_rate"):
        assert f"{name}_lo" in table.columns and f"{name}_hi" in table.columns
        for row in table.rows:
            if name == "white_score" and row["white_score_lo"] is None:
                continue        # a t interval: none when every game gave one score
            assert 0 <= row[f"{name}_lo"] <= row[name] <= row[f"{name}_hi"] <= 1
    for name in ("length_mean", "length_median", "branching", "branching_by_stage",
                 "opening_entropy", "opening_diversity", "lead_changes", "drama",
                 "mean_tower_height", "prisoners_taken", "prisoners_freed", "splits",
                 "promotions", "demotions"):
        assert name in table.columns
    r_split, r_whole = table.rows
    assert r_whole["splits"] == 0 < r_split["splits"]            # the option took effect
    assert r_split["white_score"] == (r_split["white_wins"] + r_split["draws"] / 2) / 4
    games = res.games()
    assert sum(g.result.plies for g in games[:4]) / 4 == pytest.approx(r_split["length_mean"])


def test_two_agents_play_every_cell_with_colours_alternating():
    res = sweep("tavreli", {"splits": [False]}, executor="inline",
                **{**SMALL, "agents": "greedy,random", "games": 2})
    assert res.table.column("agents") == ["greedy v random"]
    games = res.games()
    assert [(g.result.white, g.result.black) for g in games] == [("greedy", "random"),
                                                                 ("random", "greedy")]


# -- piece values -----------------------------------------------------------------

def test_logistic_regression_recovers_known_piece_values():
    rng = random.Random(2020)
    true = {"intercept": 0.15, "a": 0.4, "b": 1.2, "c": 2.0}   # ratnik, vsadnik, ratoborets
    samples = []
    for game in range(2500):
        diff = [0] * 8
        diff[6], diff[5], diff[3] = rng.randint(-3, 3), rng.randint(-2, 2), rng.randint(-1, 1)
        z = true["intercept"] + true["a"] * diff[6] + true["b"] * diff[5] + true["c"] * diff[3]
        score = 1.0 if rng.random() < 1 / (1 + math.exp(-z)) else 0.0
        for _ in range(3):            # several positions per game share its result
            samples.append((diff, score, game))
    values, fit = piece_values(samples, {3: "ratoborets", 5: "vsadnik", 6: "ratnik"})
    assert fit is not None and fit.converged
    got = {v.name: v for v in values}
    assert set(got) == {"ratoborets", "vsadnik", "ratnik"}     # never-varying kinds left out
    for name, key in (("ratnik", "a"), ("vsadnik", "b"), ("ratoborets", "c")):
        assert abs(got[name].coef - true[key]) < 3 * got[name].se, name
    assert abs(got["ratoborets"].value - 5.0) < 3 * got["ratoborets"].value_se
    assert abs(got["vsadnik"].value - 3.0) < 3 * got["vsadnik"].value_se
    # clustered errors are larger than the naive ones (3 copies of each game)
    naive = fit_logistic([[s[0][6], s[0][5], s[0][3]] for s in samples],
                         [s[1] for s in samples])
    assert fit.se[1] > 1.4 * naive.se[1]


def test_a_rare_piece_is_reported_not_allowed_to_wreck_the_fit():
    rng = random.Random(7)
    samples = []
    for game in range(400):
        diff = [0] * 8
        diff[6] = rng.randint(-3, 3)
        diff[7] = 1 if game < 2 else 0         # a helgi in two games: quasi-separation
        score = 1.0 if rng.random() < 1 / (1 + math.exp(-0.5 * diff[6])) else 0.0
        if game < 2:
            score = 1.0
        samples.append((diff, score, game))
    values, fit = piece_values(samples, {6: "ratnik", 7: "helgi"})
    assert fit is not None and fit.converged
    got = {v.name: v for v in values}
    assert got["ratnik"].value == 1.0 and got["ratnik"].coef > 0.2
    assert got["helgi"].value is None and "too rare" in got["helgi"].note
    # without the rule the helgi's coefficient diverges and nothing is estimated
    values, fit = piece_values(samples, {6: "ratnik", 7: "helgi"}, min_support=1)
    assert fit is not None and not fit.converged
    assert all(v.value is None and "separate" in v.note for v in values)


def test_regression_says_when_it_cannot_fit():
    fit = fit_logistic([[0], [0], [1], [1]], [0, 0, 1, 1], ["x"])   # perfectly separated
    assert not fit.converged
    assert math.isinf(fit.se[1])


# -- store ------------------------------------------------------------------------

def test_store_resumes_and_never_mixes_settings(tmp_path):
    path = tmp_path / "lab.sqlite"
    first = sweep("tavreli", {"splits": [True, False]}, executor="inline", store=path,
                  **{**SMALL, "games": 2})
    assert first.played == 4
    again = sweep("tavreli", {"splits": [True, False]}, executor="inline", store=path,
                  **SMALL)
    assert again.played == 4                        # only games 2 and 3 of each cell
    fresh = sweep("tavreli", {"splits": [True, False]}, executor="inline", **SMALL)
    assert results(again.table) == results(fresh.table)
    other_seed = sweep("tavreli", {"splits": [True, False]}, executor="inline", store=path,
                       **{**SMALL, "seed": 6})
    assert other_seed.played == 8                   # a new setting: nothing reused
    assert other_seed.table.column("games") == [4, 4]
    from_file = ResultsTable.from_store(path)
    assert len(from_file) == 4                      # two cells x two seeds, never pooled
    assert from_file.column("games") == [4, 4, 4, 4]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    rows = db.execute("SELECT COUNT(*), COUNT(DISTINCT settings_hash) FROM games").fetchone()
    assert rows == (16, 4)
    assert db.execute("SELECT COUNT(*) FROM games g LEFT JOIN settings s ON "
                      "g.settings_hash = s.hash WHERE s.hash IS NULL").fetchone()[0] == 0
    db.close()


def test_stored_records_replay_to_the_stored_results(tmp_path):
    path = tmp_path / "lab.sqlite"
    res = sweep(["tavreli", "gavrilov-die"], {"splits": [True, False]}, executor="inline",
                store=path, **SMALL)
    store = ResultsStore(path)
    games = store.games()
    assert len(games) == 16
    from tavrei_lab.game import Game
    for g in games:
        game = g.replay()
        assert game.ply == g.result.plies
        # the record alone names its rules (a cell is not a shipped variant: its whole
        # definition travels in the record), so it replays without the store
        alone = Game.from_record(g.record)
        assert alone.rules.options == g.rules().options
        assert alone.positions == game.positions
    assert {g.result.termination for g in games} - {"max-plies"}   # some real endings too
    # a record that does not lead to its stored result is caught
    bad = games[0]
    moves = bad.record.rstrip().rsplit(" ", 2)[0]
    bad.result.record = moves + " " + bad.result.result + "\n"
    with pytest.raises(TavreiError):
        bad.replay()
    store.close()
    assert res.table.column("games") == [4, 4, 4, 4]


def test_export_csv_and_json(tmp_path):
    path = tmp_path / "lab.sqlite"
    res = sweep("tavreli", {"splits": [False]}, executor="inline", store=path, **SMALL)
    store = ResultsStore(path)
    lines = store.export_csv().strip().splitlines()
    assert len(lines) == 1 + 4 and lines[0].startswith("settings_hash,game_index,cell")
    data = json.loads(store.export_json())
    assert len(data["games"]) == 4 and data["games"][0]["measures"]["branching"]
    store.close()
    table = ResultsTable.from_store(path)
    assert json.loads(table.to_json())["rows"][0]["cell"] == "tavreli[splits=false]"
    assert table.to_csv().splitlines()[0].startswith("cell,agents,seed,settings,games")
    pieces = ResultsTable.from_store(path, kind="pieces")
    assert pieces.column("cell") and set(pieces.column("cell")) == {"tavreli[splits=false]"}
    written = res.save(tmp_path / "out")
    assert {p.name for p in written} >= {"cells.csv", "cells.json", "pieces.csv",
                                          "white_score.svg", "game_length.svg"}


def test_from_store_refuses_what_is_not_a_store(tmp_path):
    with pytest.raises(TavreiError, match="no such results store"):
        ResultsTable.from_store(tmp_path / "missing.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(TavreiError, match="not a results store"):
        ResultsTable.from_store(junk)


def test_without_sqlite3_the_store_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "sqlite3", None)     # as in some Pyodide releases
    with pytest.raises(TavreiError, match="needs Python's sqlite3 module"):
        ResultsStore(":memory:")


def test_in_the_browser_store_objects_of_one_file_share_an_exclusive_connection(
        tmp_path, monkeypatch):
    """JupyterLite's file system loses SQLite's locks and WAL index; an exclusive-mode
    connection works there but keeps the file to itself. So in the browser every store
    object of a file shares one connection -- and notebook 10's steps (a sweep whose
    result keeps the store open, the same sweep again, a table read from the file)
    all work while the first is still open."""
    from tavrei_lab.lab import store as store_module
    monkeypatch.setattr(store_module, "_IN_BROWSER", True)
    path = tmp_path / "lab.sqlite"
    kwargs = dict(base="tavreli", grid={"splits": [True, False]}, agents="random",
                  games=2, seed=2020, max_plies=20, store=str(path), executor="inline",
                  progress=False)
    first = sweep(**kwargs)
    db = first.store.db
    assert db.execute("PRAGMA locking_mode").fetchone()[0] == "exclusive"
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again = sweep(**kwargs)                         # would be "database is locked"
    assert again.played == 0 and again.store.db is db
    assert len(ResultsTable.from_store(str(path))) == 2
    assert store_module._BROWSER.open_files[os.path.abspath(path)][1] == 2
    first.store.close()
    assert again.games()[0].replay() is not None     # the other user still reads
    again.store.close()
    assert store_module._BROWSER.open_files == {}
    with pytest.raises(sqlite3.ProgrammingError):   # closed with its last user
        db.execute("SELECT 1")
    with ResultsStore(path) as reopened:            # and nothing was lost
        assert len(reopened) == 4                   # 2 cells x 2 games


def _sweep_cli(store, *extra):
    return [sys.executable, "-m", "tavrei_lab", "sweep", "--strength-games", "0",
            "--base", "tavreli",
            "--grid", "splits=true,false", "--agents", "greedy", "--games", "6",
            "--seed", "3", "--max-plies", "50", "--no-progress", "--store", str(store),
            *extra]


def _stored(path) -> int:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def test_a_killed_run_resumes_to_the_same_table(tmp_path):
    killed = tmp_path / "killed.sqlite"
    proc = subprocess.Popen(_sweep_cli(killed, "--executor", "inline"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while _stored(killed) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stderr.close()
    kept = _stored(killed)
    assert 3 <= kept < 12, kept                     # killed part-way, finished games kept
    again = subprocess.run(_sweep_cli(killed, "--executor", "inline"), capture_output=True,
                           text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"{12 - kept} played now, {kept} from the store" in again.stdout
    whole = tmp_path / "whole.sqlite"
    subprocess.run(_sweep_cli(whole, "--executor", "inline"), check=True,
                   capture_output=True, timeout=300)
    resumed, straight = ResultsTable.from_store(killed), ResultsTable.from_store(whole)
    assert results(resumed) == results(straight)
    assert len(resumed) == 2


def test_ctrl_c_keeps_the_finished_games(tmp_path):
    store = tmp_path / "interrupted.sqlite"
    # (the child takes Ctrl-C even when this run was started in the background, where
    # the shell hands its children SIGINT ignored and Python then never raises it)
    proc = subprocess.Popen(_sweep_cli(store, "--workers", "2"), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while _stored(store) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)                 # what Ctrl-C sends
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    kept = _stored(store)
    assert 3 <= kept < 12           # (resuming from here: test_a_killed_run_resumes...)
    with ResultsStore(store) as db:
        assert len(db.games()) == kept


def test_stopping_when_the_interval_is_narrow(tmp_path):
    kw = dict(SMALL, games=40, max_plies=30)
    res = sweep("tavreli", {"splits": [True]}, executor="inline", stop_width=0.55, batch=4,
                store=tmp_path / "s.sqlite", **kw)
    unit = res.units[0]
    assert unit.stopped_early and 4 <= unit.limit < 40
    row = res.table.rows[0]
    assert row["games"] == unit.limit
    assert row["white_score_hi"] - row["white_score_lo"] < 0.55
    # the same in another executor and on a rerun: the looks fall on the same games
    again = sweep("tavreli", {"splits": [True]}, executor="threads", workers=2,
                  stop_width=0.55, batch=4, **kw)
    assert again.comparable() == res.comparable()


# -- plots ------------------------------------------------------------------------

def test_plots_draw_intervals_and_a_heat_map():
    res = sweep("tavreli", {"splits": [True, False], "castling": [True, False]},
                executor="inline", **{**SMALL, "games": 2})
    plots = res.plots()
    assert set(plots) >= {"white_score", "game_length", "heat_map"}
    svg = plots["white_score"].svg
    assert svg.count('class="interval"') == 4
    assert svg.count('class="heat"') == 0 and plots["heat_map"].svg.count('class="heat"') == 4
    row = res.table.rows[0]
    assert f'data-lo="{row["white_score_lo"]:.6g}"' in svg
    assert plots["game_length"].svg.count('class="box"') == 4


def test_plots_from_a_store_file(tmp_path):
    path = tmp_path / "lab.sqlite"
    res = sweep("tavreli", {"splits": [True, False], "castling": [True, False]},
                executor="inline", store=path, **{**SMALL, "games": 2})
    from tavrei_lab.lab.plots import store_plots
    from_file = store_plots(path)
    assert {k: p.svg for k, p in from_file.items()} == {k: p.svg
                                                        for k, p in res.plots().items()}
    sweep("tavreli", {"splits": [True]}, executor="inline", store=path,
          **{**SMALL, "games": 2, "seed": 9})       # another setting: no longer a 2x2 grid
    assert "heat_map" not in store_plots(path)
    assert store_plots(path)["white_score"].svg.count('class="interval"') == 5


# -- executors --------------------------------------------------------------------

def test_identical_results_inline_and_in_processes(tmp_path):
    # a module registered at run time in a class the standard pickle cannot carry:
    # forked workers have it already, so it needs no carrying
    local = _runtime_variant(tmp_path, _runtime_module("lab-test-fork").name)
    bases = ["tavreli", local]
    inline = sweep(bases, {"splits": [True, False]}, executor="inline", **SMALL)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        pooled = sweep(bases, {"splits": [True, False]}, executor=pool, **SMALL)
    assert inline.comparable() == pooled.comparable()
    assert len(pooled.table) == 4


def _runtime_module(name: str):
    """A rule module defined at run time (as in a notebook): a class in a function."""
    from tavrei_lab.rules.registry import register_rule_module
    from tavrei_lab.rules.stacking import TowerChessRules

    class NotebookRules(TowerChessRules):
        pass

    NotebookRules.name = name
    register_rule_module(NotebookRules, name)
    return NotebookRules


def _runtime_variant(tmp_path, module: str):
    path = tmp_path / "notebook-variant.toml"
    path.write_text(f'name = "Made in a notebook"\nextends = "tavreli"\nrules = "{module}"\n'
                    "[options]\nsplits = false\n", encoding="utf-8")
    return str(path)


def test_spawned_workers_get_variant_files_or_fail_before_the_first_game(tmp_path):
    _runtime_module("lab-test-spawn")
    file_variant = _runtime_variant(tmp_path, "tower-chess")
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        res = sweep(file_variant, None, executor=pool, **{**SMALL, "games": 2})
        assert res.table.column("games") == [2]
        inline = sweep(file_variant, None, executor="inline", **{**SMALL, "games": 2})
        assert res.comparable() == inline.comparable()
        local = _runtime_variant(tmp_path, "lab-test-spawn")
        store = tmp_path / "none.sqlite"
        with pytest.raises(TavreiError, match="registered at run time") as err:
            sweep(local, None, executor=pool, store=store, **{**SMALL, "games": 2})
        assert "the workers cannot build this variant" in str(err.value)
        assert "unknown rule module 'lab-test-spawn'" in str(err.value.__cause__)
        with ResultsStore(store) as db:
            assert db.games() == []                   # nothing was played


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed",
                                      reason="the [cluster] extra (make setup installs it)")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=40)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_identical_results_on_a_local_dask_cluster(dask_client, tmp_path):
    module = "lab-test-dask"
    _runtime_module(module)
    local = _runtime_variant(tmp_path, module)
    bases = ["tavreli", local]
    inline = sweep(bases, {"castling": [True, False]}, executor="inline", **SMALL)
    on_dask = sweep(bases, {"castling": [True, False]}, executor=dask_client, **SMALL)
    assert inline.comparable() == on_dask.comparable()
    assert len(on_dask.table) == 4
    from tavrei_lab.lab import tournament
    kw = dict(variants=["tavreli", local], agents=["greedy", "random"], games=2, seed=1,
              max_plies=20, progress=False)
    assert (tournament(executor=dask_client, **kw).comparable()
            == tournament(executor="inline", **kw).comparable())


def test_cli_sweep_on_a_dask_scheduler(dask_client, tmp_path):
    address = dask_client.scheduler.address
    store = tmp_path / "cli.sqlite"
    proc = subprocess.run(_sweep_cli(store, "--scheduler", address, "--games", "2"),
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert proc.returncode == 0, proc.stderr
    assert "4 games in 2 cells: 4 played now" in proc.stdout
    inline = sweep("tavreli", {"splits": [True, False]}, agents="greedy", games=2, seed=3,
                   max_plies=50, executor="inline", progress=False)
    assert results(ResultsTable.from_store(store)) == results(inline.table)


def test_cli_compare_on_a_dask_scheduler(dask_client, tmp_path):
    address = dask_client.scheduler.address
    proc = subprocess.run([sys.executable, "-m", "tavrei_lab", "compare", "--variants",
                           "tavreli", "--agents", "greedy,random", "--games", "2", "--seed",
                           "4", "--max-plies", "20", "--no-progress", "--scheduler", address,
                           "--out", str(tmp_path / "dask")], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    subprocess.run([sys.executable, "-m", "tavrei_lab", "compare", "--variants", "tavreli",
                    "--agents", "greedy,random", "--games", "2", "--seed", "4",
                    "--max-plies", "20", "--no-progress", "--executor", "inline", "--out",
                    str(tmp_path / "inline")], check=True, capture_output=True, timeout=300)
    records = sorted(p.name for p in (tmp_path / "dask" / "records").iterdir())
    assert len(records) == 2
    for name in records:
        assert ((tmp_path / "dask" / "records" / name).read_text()
                == (tmp_path / "inline" / "records" / name).read_text())


def test_cli_scheduler_that_does_not_answer_is_one_line():
    proc = subprocess.run([sys.executable, "-m", "tavrei_lab", "sweep", "--strength-games", "0",
                           "--games", "1",
                           "--scheduler", "tcp://127.0.0.1:9"], capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    line, = proc.stderr.splitlines()
    said = line.split("--scheduler tcp://127.0.0.1:9: ", 1)[1]
    # Which of these a closed port gives depends on the machine's network, not on us.
    assert said.startswith(("nothing is listening there", "cannot connect",
                            "nothing answered")), line


def test_cli_sweep_errors_are_one_line():
    proc = subprocess.run([sys.executable, "-m", "tavrei_lab", "sweep", "--strength-games", "0",
                           "--grid",
                           "splits=true,false", "--grid", "nonsense=1,2", "--games", "2"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "unknown option 'nonsense'" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "tavrei_lab", "sweep", "--strength-games", "0",
                           "--grid", "splits"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "OPTION=VALUE1,VALUE2" in proc.stderr


def test_a_sweep_saved_over_another_leaves_no_chart_of_the_first(tmp_path):
    # a heat map (two-option grid) stayed beside the next sweep's tables, which it did
    # not describe; a file of the user's own is kept
    from tavrei_lab.lab.sweep import SWEEP_PLOT_NAMES
    out = tmp_path / "out"
    two = sweep("tavreli", {"splits": [True, False], "pass_over_own": [True, False]},
                executor="inline", **{**SMALL, "games": 2})
    two.save(out)
    assert (out / "heat_map.svg").exists()
    assert set(two.plots()) <= SWEEP_PLOT_NAMES
    (out / "my_notes.svg").write_text("<svg/>", encoding="utf-8")
    one = sweep("tavreli", {"splits": [False]}, executor="inline", **{**SMALL, "games": 2})
    one.save(out)
    assert not (out / "heat_map.svg").exists()
    assert (out / "my_notes.svg").exists() and (out / "white_score.svg").exists()
