"""Tournaments: reproducible on any executor, records replay, statistics, tables, plots, CLI."""

from __future__ import annotations

import csv
import io
import json
import os
import warnings
import xml.etree.ElementTree as ET
from concurrent.futures import Executor, Future, ProcessPoolExecutor

import pytest

from tavrei_lab import Game
from tavrei_lab.cli import main
from tavrei_lab.errors import TavreiError
from tavrei_lab.lab import (
    ADJUDICATED,
    InlineExecutor,
    Progress,
    prisoner_changes,
    resolve_executor,
    schedule,
    tournament,
    wilson_interval,
)
from tavrei_lab.lab import parallel as parallel_module

SMALL = dict(variants=["orthodox", "tavreli", "gavrilov-die"], agents=["greedy", "random"],
             games=2, seed=3, max_plies=24, progress=False)


@pytest.fixture(scope="module")
def inline_result():
    return tournament(executor="inline", **SMALL)


def test_seeded_tournament_is_reproducible(inline_result):
    again = tournament(executor="inline", **SMALL)
    assert again.comparable() == inline_result.comparable()
    assert str(again) == str(inline_result)


def test_same_results_on_threads(inline_result):
    res = tournament(executor="threads", workers=2, **SMALL)
    assert res.comparable() == inline_result.comparable()


class WatchedPool(ProcessPoolExecutor):
    """The real process pool, remembering its calls and its workers' process ids."""

    def __init__(self, max_workers: int) -> None:
        super().__init__(max_workers=max_workers)
        self.submitted: list[str] = []
        self.worker_pids: set[int] = set()

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.submitted.append(fn.__name__)
        future = super().submit(fn, *args, **kwargs)
        self.worker_pids |= set(self._processes or ())     # started on demand by submit
        return future


@pytest.mark.filterwarnings("error::RuntimeWarning")     # a fallback to inline fails here
def test_same_results_on_processes_that_really_ran_the_games(inline_result, monkeypatch):
    pools: list[WatchedPool] = []

    def watched(workers: int) -> WatchedPool:
        pools.append(WatchedPool(workers))
        return pools[-1]

    monkeypatch.setattr(parallel_module, "_process_pool", watched)
    res = tournament(executor="processes", workers=2, **SMALL)
    assert res.comparable() == inline_result.comparable()
    (pool,) = pools
    # "int": the start-up probe; "_unpack": each variant built once on the workers
    games = [name for name in pool.submitted if name not in ("int", "_unpack")]
    assert pool.submitted.count("_unpack") == 3
    assert len(games) == len(res.games) == 3 * 2
    assert pool.worker_pids and os.getpid() not in pool.worker_pids


class CountingExecutor(Executor):
    """A home-made executor (as a cluster client's would be): it must work unchanged."""

    def __init__(self) -> None:
        self.calls = 0

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.calls += 1
        f: Future = Future()
        f.set_result(fn(*args, **kwargs))
        return f


def test_any_executor_works_and_is_not_shut_down(inline_result):
    ex = CountingExecutor()
    res = tournament(executor=ex, **SMALL)
    # one call per game, plus one per variant: the probe that each variant reaches
    # the workers before the first game (compare.shipping)
    assert len(res.games) == 3 * 2
    assert ex.calls == len(res.games) + 3
    assert res.comparable() == inline_result.comparable()
    assert ex.submit(int, "5").result() == 5        # still usable


def test_falls_back_to_inline_when_processes_are_unavailable(monkeypatch):
    def broken(workers):
        raise NotImplementedError("no processes in this interpreter")
    monkeypatch.setattr(parallel_module, "_process_pool", broken)
    with pytest.warns(RuntimeWarning, match="running games in this process"):
        ex, owned = resolve_executor("processes")
    assert isinstance(ex, InlineExecutor) and owned
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = tournament("orthodox", "random", games=1, seed=1, max_plies=4, progress=False)
    assert len(res.games) == 1


def test_pyodide_runs_inline(monkeypatch):
    monkeypatch.setattr(parallel_module.sys, "platform", "emscripten")
    for name in ("processes", "threads", "inline"):
        ex, owned = resolve_executor(name)
        assert isinstance(ex, InlineExecutor) and owned


def test_bad_executor_and_inputs_are_refused():
    with pytest.raises(TavreiError, match="unknown executor"):
        resolve_executor("gpu")
    with pytest.raises(TavreiError, match="unknown agent"):
        tournament("tavreli", "greedy,stockfish", games=1, executor="inline", progress=False)
    with pytest.raises(TavreiError, match="unknown variant"):
        tournament("tavreli-xyz", "greedy", games=1, executor="inline", progress=False)
    with pytest.raises(TavreiError, match="games must be"):
        tournament("tavreli", "greedy", games=0, executor="inline", progress=False)


def test_schedule_alternates_colours_and_records_seeds():
    specs = schedule(["tavreli"], ["a", "b", "c"], games=4, seed=9)
    assert len(specs) == 3 * 4                        # three pairs
    first = [s for s in specs if (s.agent_a, s.agent_b) == ("a", "b")]
    assert [(s.white, s.black) for s in first] == [("a", "b"), ("b", "a")] * 2
    assert len({s.seed for s in specs}) == len(specs)
    assert schedule(["tavreli"], ["a", "b", "c"], games=4, seed=9) == specs
    assert schedule(["tavreli"], ["a", "b", "c"], games=4, seed=10) != specs


def test_every_record_replays_to_the_same_game(inline_result):
    for g in inline_result.games:
        game = Game.from_record(g.record)
        assert game.ply == g.plies
        assert game.tags["White"] == g.white and game.tags["Seed"] == str(g.seed)
        assert game.tags["Result"] == g.result
        if g.adjudicated:
            assert g.termination == ADJUDICATED and g.plies == SMALL["max_plies"]
            assert "adjudicated" in game.tags["Termination"]
            assert game.outcome(claim_draw=True) is None        # not a rules ending
        else:
            outcome = game.outcome(claim_draw=True)
            assert outcome is not None and outcome.termination == g.termination
            assert outcome.result() == g.result


def test_die_games_record_their_rolls(inline_result):
    die = [g for g in inline_result.games if g.variant == "gavrilov-die"]
    assert die and all(g.rolls > 0 and "@" in g.record for g in die)


def test_stronger_agent_beats_random():
    res = tournament("tavreli", "greedy,random", games=4, seed=7, max_plies=120,
                     executor="processes", workers=2, progress=False)
    row = res.pairs_table().row(agent_a="greedy")
    assert row["a_wins"] >= 3, [(g.result, g.termination) for g in res.games]
    # a t interval on per-game scores; Wilson's on points when A won every game
    assert row["a_score_lo"] > 0.5


def test_wilson_interval():
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0 and 0.69 < lo < 0.73
    assert wilson_interval(0, 10) == (0.0, pytest.approx(1 - lo))
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(1 - hi) and 0.23 < lo < 0.24
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_prisoners_taken_and_freed():
    g = Game()
    g.play("e2-e4 d7-d5")
    before = g.position
    m = g.push("e4xd5")                      # white ratnik takes the black ratnik prisoner
    assert prisoner_changes(before, m, g.position) == (1, 0)
    g.play("c7-c6")
    before = g.position
    m = g.push("d5(1)xc6")                   # a split: the ratnik takes on, freeing d5
    assert g.position.tower("d5")[-1].color == 1
    assert prisoner_changes(before, m, g.position) == (1, 1)
    o = Game("orthodox")
    o.play("e2-e4 d7-d5")
    before = o.position
    m = o.push("e4xd5")                      # orthodox: the captured pawn is gone
    assert prisoner_changes(before, m, o.position) == (0, 0)


def test_tables_export_and_show(inline_result):
    table = inline_result.variants_table()
    assert table.column("variant") == ["orthodox", "tavreli", "gavrilov-die"]
    rows = list(csv.DictReader(io.StringIO(table.to_csv())))
    assert len(rows) == 3 and int(rows[0]["games"]) == 2
    data = json.loads(table.to_json())
    assert [c["name"] for c in data["columns"]] == table.columns
    assert all(c["description"] for c in data["columns"])
    html = table._repr_html_()
    assert "<table>" in html and "first_move_advantage" in html
    for row in table.rows:
        assert row["white_wins"] + row["draws"] + row["black_wins"] == row["games"]
        ends = sum(v for k, v in row.items() if k.startswith("end_"))
        assert ends == row["games"]
        assert row["white_wins_lo"] <= row["white_wins_rate"] <= row["white_wins_hi"]
    orth = table.row(variant="orthodox")
    assert orth["max_tower"] == 1 and orth["prisoners_taken"] == 0
    assert "Per variant" in str(table)


def test_the_pairs_table_names_the_colours_the_games_were_played_in(inline_result):
    """pairs.json said agent A was white "in the odd-numbered games", but games.json numbers
    a pair's games from 0 and A is white in games 0, 2, ...: the words follow the games."""
    said = {c["name"]: c["description"]
            for c in json.loads(inline_result.pairs_table().to_json())["columns"]}
    games = json.loads(inline_result.games_table().to_json())["rows"]
    checked = 0
    for pair in inline_result.pairs_table().rows:
        a, b = pair["agent_a"], pair["agent_b"]
        if a == b:
            continue
        for g in games:
            if g["variant"] == pair["variant"] and {g["white"], g["black"]} == {a, b}:
                parity = "even" if g["index"] % 2 == 0 else "odd"
                colour_of = "agent_a" if g["white"] == a else "agent_b"
                assert f"white in the {parity}-numbered games" in said[colour_of], (g, said)
                checked += 1
    assert checked >= 2
    assert said["agent_a"] == "agent A (white in the even-numbered games)"
    assert said["agent_b"] == "agent B (white in the odd-numbered games)"
    from tavrei_lab.i18n import speaking
    with speaking("ru"):
        russian = {c["name"]: c["description"]
                   for c in json.loads(inline_result.pairs_table().to_json())["columns"]}
    assert russian["agent_a"] == "программа A (играет белыми в партиях с чётными номерами)"
    assert russian["agent_b"] == "программа B (играет белыми в партиях с нечётными номерами)"


def test_plots_are_svg_with_one_group_per_variant(inline_result):
    plots = inline_result.plots()
    assert {"game_length", "branching", "max_tower", "results", "endings"} <= set(plots)
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.fromstring(plots["game_length"].svg)
    groups = root.findall(".//s:g[@class='box']", ns)
    assert [g.get("data-group") for g in groups] == ["orthodox", "tavreli", "gavrilov-die"]
    medians = [float(g.get("data-median")) for g in groups]
    table = inline_result.variants_table()
    assert medians == table.column("median_plies")
    bars = ET.fromstring(plots["endings"].svg).findall(".//s:rect[@data-count]", ns)
    assert sum(int(b.get("data-count")) for b in bars) == len(inline_result.games)
    assert plots["results"]._repr_svg_().startswith("<svg")


def test_progress_bar_in_a_terminal():
    out = io.StringIO()
    bar = Progress(3, "games", mode="terminal", stream=out)
    for _ in range(3):
        bar.update()
    bar.close()
    text = out.getvalue()   # tqdm's text bar
    assert "games: 100%" in text and "3/3" in text and text.endswith("\n")
    silent = io.StringIO()
    Progress(3, stream=silent).update()             # not a tty: says nothing
    assert silent.getvalue() == ""


def test_cli_compare_writes_records_tables_and_plots(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["compare", "--variants", "orthodox,tavreli-no-split", "--agents",
                 "greedy,alphabeta:1", "--games", "2", "--seed", "1", "--max-plies", "10",
                 "--executor", "inline", "--no-progress", "--out", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "Per variant" in printed and "Per agent pair" in printed
    records = sorted((out / "records").iterdir())
    assert len(records) == 4
    game = Game.from_record(records[0].read_text(encoding="utf-8"))
    assert game.ply == 10
    for name in ("variants", "pairs", "games"):
        assert (out / f"{name}.csv").exists() and (out / f"{name}.json").exists()
    assert len(list((out / "plots").glob("*.svg"))) >= 5
    settings = json.loads((out / "settings.json").read_text())
    assert settings["seed"] == 1 and settings["agents"] == ["greedy", "alphabeta:1"]


def test_cli_compare_bad_agent_exits_2(capsys):
    assert main(["compare", "--agents", "greedy,nobody", "--games", "1",
                 "--executor", "inline", "--no-progress"]) == 2
    assert "unknown agent" in capsys.readouterr().err
