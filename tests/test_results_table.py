"""One results table: ``lab.table.ResultsTable`` reads and writes tables (JSON in and out,
a cell's row), reads a store and tests the differences between cells, for a tournament
and a sweep alike; ``tavrei_lab.compare``, the old path, warns and names the same code."""

from __future__ import annotations

import importlib
import sys

import pytest

from tavrei_lab.errors import TavreiError
from tavrei_lab.lab import ResultsTable, tournament
from tavrei_lab.lab import table_json as home_json

LabTable = ResultsTable


def _cells() -> LabTable:
    cols = [(c, "") for c in ("cell", "agents", "games", "white_wins", "draws", "black_wins",
                              "length_mean", "length_sd")]
    rows = [{"cell": "a", "agents": "p v p", "games": 20, "white_wins": 12, "draws": 2,
             "black_wins": 6, "length_mean": 50.0, "length_sd": 9.0},
            {"cell": "b", "agents": "p v p", "games": 20, "white_wins": 5, "draws": 3,
             "black_wins": 12, "length_mean": 61.0, "length_sd": 7.0}]
    return LabTable("cells", cols, rows)


def test_a_tournaments_table_is_read_back_from_its_json(tmp_path):
    res = tournament(["tavreli", "tavreli-no-split"], ["greedy", "random"], games=2, seed=1,
                     max_plies=4, executor="inline", progress=False)
    assert type(res.table) is ResultsTable
    path = tmp_path / "variants.json"
    res.table.to_json(str(path))
    back = ResultsTable.from_json(path)
    assert type(back) is ResultsTable
    assert (back.title, back.columns, back.rows) == (res.table.title, res.table.columns,
                                                     res.table.rows)
    with pytest.raises(TavreiError, match="not a ResultsTable JSON"):
        ResultsTable.from_json('{"title": 3}')


def test_the_one_table_reads_json_and_tests_differences():
    text = _cells().to_json()
    lab = ResultsTable.from_json(text)
    assert type(lab) is ResultsTable
    assert lab.compare("a", "b", "decisive").n_a == 20
    assert len(lab.differences().rows) == 3
    assert lab.cell_row("b")["black_wins"] == 12
    with pytest.raises(TavreiError, match="no cell 'c' in the table"):
        lab.cell_row("c")


def test_there_is_one_class_called_results_table():
    from pathlib import Path

    import tavrei_lab
    root = Path(tavrei_lab.__file__).parent
    homes = [str(p.relative_to(root)) for p in sorted(root.rglob("*.py"))
             if "\nclass ResultsTable" in p.read_text(encoding="utf-8")]
    assert homes == ["lab/table.py"]


def _old(name: str):  # type: ignore[no-untyped-def]
    """Import an old ``tavrei_lab.compare`` module afresh (its warning comes once a process)."""
    for key in [k for k in sys.modules if k == "tavrei_lab.compare"
                or k.startswith("tavrei_lab.compare.")]:
        del sys.modules[key]
    with pytest.warns(DeprecationWarning, match="tavrei_lab.compare is now part of"):
        return importlib.import_module(name)


def test_the_old_compare_paths_warn_and_name_the_same_code():
    from tavrei_lab import lab
    from tavrei_lab.lab import parallel, plots, results, runner, shipping, statistics
    from tavrei_lab.lab import table as table_module
    new_tournament = importlib.import_module("tavrei_lab.lab.tournament")
    compare = _old("tavrei_lab.compare")
    for name in compare.__all__:
        expected = (table_module.tournament_games_table if name == "games_table"
                    else getattr(lab, name))
        assert getattr(compare, name) is expected, name
    pairs = {"tavrei_lab.compare.tournament": (runner, new_tournament, results),
             "tavrei_lab.compare.table": (table_module, results),
             "tavrei_lab.compare.stats": (importlib.import_module("tavrei_lab.lab.game_stats"),
                                          statistics),
             "tavrei_lab.compare.statistics": (statistics,),
             "tavrei_lab.compare.parallel": (parallel,), "tavrei_lab.compare.plots": (plots,),
             "tavrei_lab.compare.results": (results,), "tavrei_lab.compare.shipping": (shipping,),
             "tavrei_lab.compare.table_json": (home_json,)}
    for old_name, homes in pairs.items():
        old = _old(old_name)
        assert old.__all__, old_name
        for name in old.__all__:
            home = "tournament_games_table" if (old_name, name) == (
                "tavrei_lab.compare.table", "games_table") else name
            assert any(getattr(h, home, None) is getattr(old, name) for h in homes), \
                (old_name, name)
