"""One results table: compare.table.ResultsTable reads and writes tables (JSON in and
out, a cell's row); lab.table.ResultsTable is it plus the store and the differences,
and the old import paths keep naming the same code."""

from __future__ import annotations

import pytest

from tavrei_lab.compare import ResultsTable as CompareTable
from tavrei_lab.compare import table_json as home_json
from tavrei_lab.compare import tournament
from tavrei_lab.errors import TavreiError
from tavrei_lab.lab import ResultsTable as LabTable
from tavrei_lab.lab import table_json as old_json


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
    path = tmp_path / "variants.json"
    res.table.to_json(str(path))
    back = CompareTable.from_json(path)
    assert type(back) is CompareTable
    assert (back.title, back.columns, back.rows) == (res.table.title, res.table.columns,
                                                     res.table.rows)
    with pytest.raises(TavreiError, match="not a ResultsTable JSON"):
        CompareTable.from_json('{"title": 3}')


def test_the_lab_table_is_the_one_table_plus_store_and_differences():
    text = _cells().to_json()
    lab = LabTable.from_json(text)
    assert type(lab) is LabTable and issubclass(LabTable, CompareTable)
    assert lab.compare("a", "b", "decisive").n_a == 20
    assert len(lab.differences().rows) == 3
    assert LabTable.from_json.__func__ is CompareTable.from_json.__func__
    assert LabTable.cell_row is CompareTable.cell_row
    assert CompareTable.from_json(text).cell_row("b")["black_wins"] == 12
    with pytest.raises(TavreiError, match="no cell 'c' in the table"):
        CompareTable.from_json(text).cell_row("c")
    for name in ("COUNT_COLUMNS", "MAX_TABLE_BYTES", "MAX_TABLE_INT", "TableShapeError",
                 "table_parts"):
        assert getattr(old_json, name) is getattr(home_json, name)
