"""The Python readers refuse what they cannot read in one line, with the package's error.

``ResultsTable.from_json``, ``read_games``, ``read_record``'s ``time_limit`` and the
compiled build's manifest: a bad shape, a pipe, a device, text that is not UTF-8 or
a one-line record each end in a ``TavreiError`` (or, for the manifest, the pure
Python), never a raw ``TypeError``/``KeyError``/``RecursionError``, a hang or a
read to the end of ``/dev/zero``.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tavrei_lab import builds, read_games, read_record
from tavrei_lab.errors import ArgumentError, RecordError, TavreiError
from tavrei_lab.lab.table import ResultsTable
from tavrei_lab.lab.table_json import MAX_TABLE_BYTES

ROOT = Path(__file__).resolve().parents[1]

CELL = {"cell": "tavreli", "agents": "random v random", "games": 4, "white_wins": 2,
        "draws": 1, "black_wins": 1, "length_mean": 40.0, "length_sd": 3.0}


def table_text(rows: list, columns: list | None = None) -> str:
    cols = columns if columns is not None else [{"name": k, "description": ""} for k in CELL]
    return json.dumps({"title": "t", "columns": cols, "rows": rows})


@pytest.mark.parametrize("text, where", [
    ('{"columns": 5, "rows": []}', "'columns' is not a list"),
    ('{"columns": [5], "rows": []}', r"columns\[0\]"),
    ('{"columns": [], "rows": [5]}', r"rows\[0\]: not an object"),
    ('{"columns": [{"name": [1]}], "rows": []}', r"columns\[0\]"),
    ('{"columns": [{"name": "a", "description": 5}], "rows": []}', "description"),
    ('{"title": {"a": 1}, "columns": [], "rows": []}', "'title' is not text"),
    ('{"columns": [], "rows": [{"a": [1, 2]}]}', r"rows\[0\]\['a'\]: a list"),
    ('{"columns": [], "rows": [{"games": 1e400}]}', "past a float's range"),
    ('{"columns": [], "rows": [{"a": ' + "9" * 400 + "}]}", "number past"),
    ('{"columns": [], "rows": [{"a": ' + "9" * 5000 + "}]}", "too long to read"),
    ('{"columns": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ('{"columns": [], "rows": [{"games": "4"}]}', r"rows\[0\]\['games'\]: not a whole"),
    ('{"columns": [], "rows": [{"games": -1}]}', "not a whole number"),
    ('{"columns": [], "rows": [{"games": 2, "white_wins": 9, "draws": 0, "black_wins": 0}]}',
     "do not add up"),
    ("[1, 2]", "a list, not an object"),
    ("{}", "no 'columns'"),
])
def test_a_table_json_of_the_wrong_shape_is_refused_saying_where(text: str,
                                                                  where: str) -> None:
    with pytest.raises(TavreiError, match="not a ResultsTable JSON: .*" + where) as caught:
        ResultsTable.from_json(text)
    assert "\n" not in str(caught.value)


def test_a_table_json_still_reads_what_to_json_wrote(tmp_path: Path) -> None:
    rows = [CELL, {**CELL, "cell": "orthodox", "white_wins": 1, "draws": 3, "black_wins": 0,
                   "length_mean": math.nan}]
    file = tmp_path / "cells.json"
    ResultsTable("t", [(k, "d") for k in CELL], rows).to_json(str(file))
    back = ResultsTable.from_json(file)
    assert back.rows[0] == CELL and math.isnan(back.rows[1]["length_mean"])
    assert back.compare("tavreli", "orthodox", "draw").difference == pytest.approx(-0.5)


@pytest.mark.parametrize("bad, said", [
    ({"games": None}, "'games' is None, not a number of games"),
    ({"white_wins": 5}, "wins and draws add up to 7, not its 4 games"),
    ({"length_mean": "long"}, "'length_mean' is 'long', not a finite number"),
])
def test_comparing_a_hand_built_table_with_bad_counts_names_the_cell(bad: dict,
                                                                     said: str) -> None:
    """A table built in Python (not through ``from_json``) meets the same checks when
    compared: it was a raw TypeError, KeyError or ValueError."""
    table = ResultsTable("t", [(k, "") for k in CELL], [CELL, {**CELL, "cell": "b", **bad}])
    measure = "length" if "length_mean" in bad else "white_score"
    with pytest.raises(TavreiError, match=f"cell b: its {said}"):
        table.compare("tavreli", "b", measure)


def test_a_table_file_that_is_a_pipe_a_device_or_too_large_is_refused_at_once(
        tmp_path: Path) -> None:
    fifo = tmp_path / "cells.json"
    os.mkfifo(fifo)
    with pytest.raises(TavreiError, match=r"cells\.json: not a ResultsTable JSON: a pipe"):
        ResultsTable.from_json(fifo)                        # no writer: it hung
    with pytest.raises(TavreiError, match="/dev/zero: .*a device"):
        ResultsTable.from_json("/dev/zero")                 # it read to MemoryError
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_TABLE_BYTES + 1)                     # sparse: nothing is written
    with pytest.raises(TavreiError, match="more than 67,108,864 bytes"):
        ResultsTable.from_json(big)
    with pytest.raises(TavreiError, match="no such table file"):
        ResultsTable.from_json(tmp_path / "missing.json")
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "gone.json")
    with pytest.raises(TavreiError, match="dangling.json: .*No such file"):
        ResultsTable.from_json(dangling)


def test_read_games_names_a_file_that_is_not_utf8_and_its_line(tmp_path: Path) -> None:
    file = tmp_path / "games.pgn"
    file.write_bytes(b'[Variant "orthodox"]\n\n1. e2-e4 \xff *\n')
    with pytest.raises(RecordError, match=r"games\.pgn: line 3 is not UTF-8"):
        list(read_games(file))


def test_read_games_takes_one_line_of_movetext_as_a_record() -> None:
    """It was opened as a file name (FileNotFoundError)."""
    assert [len(g.moves) for g in read_games("1. e2-e4 e7-e5 *")] == [2]
    assert [len(g.moves) for g in read_games("e2-e4 e7-e5", "orthodox")] == [2]


def test_read_games_refuses_a_missing_file_a_pipe_and_a_device(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.pgn"
    os.mkfifo(fifo)
    for source, said in [(fifo, "a pipe"), ("/dev/zero", "a device"),
                         (str(tmp_path / "none.pgn"), "No such file"), (tmp_path, "a folder")]:
        with pytest.raises(RecordError, match=f"cannot read the records: {said}"):
            list(read_games(source))


@pytest.mark.parametrize("limit", [math.nan, -1, math.inf, 10 ** 400, "60", True])
def test_a_time_limit_that_is_not_a_time_is_refused(limit: object) -> None:
    """``nan`` compared false with every clock reading: it meant no limit at all."""
    with pytest.raises(ArgumentError, match="time_limit must be a finite number"):
        read_record("1. e2-e4 *", "orthodox", time_limit=limit)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="time_limit"):
        next(read_games("1. e2-e4 *", "orthodox", time_limit=limit))  # type: ignore[arg-type]
    assert len(read_record("1. e2-e4 *", "orthodox", time_limit=None).moves) == 1


def _fake_build(tmp_path: Path, manifest: bytes | None) -> Path:
    import importlib.machinery
    package = tmp_path / "tavrei_lab"
    source = builds.source_path("tavrei_lab.rules.stacking", package)
    source.parent.mkdir(parents=True)
    source.write_text("VALUE = 1\n", encoding="utf-8")
    source.with_name("stacking" + importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    if manifest is not None:
        (package / builds.MANIFEST).write_bytes(manifest)
    return package


@pytest.mark.parametrize("manifest", [b'{"sources": []}', b"null", b'{"sources": null}',
                                      b'{"sources": {"tavrei_lab.rules.stacking": 5}}',
                                      b"[" * 100_000, b"\xff\xfe", b" " * 70_000])
def test_a_damaged_build_manifest_runs_the_pure_python(tmp_path: Path, manifest: bytes,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVREI_PURE", raising=False)
    package = _fake_build(tmp_path, manifest)
    stale = ["tavrei_lab.rules.stacking"]
    assert builds.modules_to_run_pure(package) == (stale, stale)


def test_a_build_manifest_that_is_a_pipe_is_not_waited_on(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVREI_PURE", raising=False)
    package = _fake_build(tmp_path, None)
    os.mkfifo(package / builds.MANIFEST)
    stale = ["tavrei_lab.rules.stacking"]
    assert builds.modules_to_run_pure(package) == (stale, stale)


def test_the_stale_build_warning_is_one_line_on_the_command_line(tmp_path: Path) -> None:
    """Python's own form is two lines: the importing file and line, then that source line."""
    import shutil
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "tavrei_lab", copy / "tavrei_lab",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "_compiled.json"))
    import importlib.machinery
    tavrel = copy / "tavrei_lab" / "core" / "tavrel.py"
    tavrel.with_name("tavrel" + importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    env = {k: v for k, v in os.environ.items() if k not in ("TAVREI_PURE", "PYTHONWARNINGS")}
    env["PYTHONPATH"] = str(copy)
    run = subprocess.run([sys.executable, "-m", "tavrei_lab", "variants"], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith("StaleBuildWarning: tavrei_lab: the compiled tavrel is older")
    assert run.stderr.count("\n") == 1, run.stderr
    strict = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c",
                             "import tavrei_lab"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert strict.returncode == 1 and "StaleBuildWarning" in strict.stderr
