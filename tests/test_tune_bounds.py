"""A tune's bounds, its --out and its games folder: everything that can be refused is
refused at once in one line (exit status 2) with nothing made or played; what it
reads back from its folder is bounded and never a traceback; what it plays is
planned as workers free up; a tune that stops says what is kept and how to resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tavrei_lab.errors import LimitError, OutputError
from tavrei_lab.lab import tune as tune_module
from tavrei_lab.lab.sweep import tune_settings
from tavrei_lab.lab.tune import (
    TUNE_IN_FLIGHT,
    TuneCheckpointError,
    TuneInterrupted,
    tune,
)
from tavrei_lab.lab.tune_checkpoint import MAX_GAME_LINE_BYTES

ROOT = Path(__file__).resolve().parents[1]
TUNE = ["tune", "--variant", "tavreli-no-split", "--generations", "1", "--games", "2",
        "--nodes", "20", "--executor", "inline", "--no-progress"]


def _cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tavrei_lab", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)


def _one_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


# -- bounds ---------------------------------------------------------------------------

@pytest.mark.parametrize("args, what", [
    (["--games", "1000000000"], "games must be at most 5000"),
    (["--games", "100000", "--workers", "2"], "games must be at most 5000"),
    (["--generations", "1000000000"], "generations must be at most 100"),
    (["--generations", "100", "--games", "40"], "is 8000 games; the limit is 5000"),
    (["--nodes", "1000000000000"], "nodes must be at most 1000000000"),
    (["--gate-games", "1000000000"], "gate_games must be at most 5000"),
])
def test_tune_past_its_bounds_is_refused_at_once_with_nothing_made(tmp_path, args, what):
    out = tmp_path / "w.json"
    started = time.monotonic()
    line = _one_line(_cli(*TUNE, "--out", str(out), *args))
    assert what in line
    assert time.monotonic() - started < 60
    assert list(tmp_path.iterdir()) == []          # no games folder, no file


def test_a_sweeps_tune_has_the_same_bounds():
    with pytest.raises(LimitError, match="games must be at most"):
        tune_settings({"games": 1_000_000_000})
    with pytest.raises(LimitError, match="generations must be at most"):
        tune_settings({"generations": 1_000_000_000})
    proc = _cli("sweep", "--strength-games", "0",
                "--tune", "--tune-games", "1000000000", "--agents",
                "play:nodes=5,weights=fit,random", "--no-progress")
    assert "games must be at most" in _one_line(proc)


def test_the_corrected_command_runs_after_a_typo_was_refused(tmp_path):
    out = tmp_path / "w.json"
    _one_line(_cli(*TUNE, "--out", str(out), "--nodes", "1000000000000"))
    proc = _cli(*TUNE, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert out.is_file()


def test_a_games_folder_without_games_takes_new_settings(tmp_path):
    """A run stopped before its first game (its folder holds only settings.json) does
    not block another run of other settings in the same place."""
    out = tmp_path / "w.json"
    folder = tmp_path / "w.json.games"
    folder.mkdir()
    (folder / "settings.json").write_text(json.dumps(
        {"settings_hash": "x", "games": 9, "nodes": 1, "seed": 4}))
    tune("tavreli-no-split", generations=1, games=2, nodes=20, out=out, executor="inline",
         bar=False)
    assert json.loads((folder / "settings.json").read_text())["games"] == 2


# -- lazy planning --------------------------------------------------------------------

def test_a_generations_games_are_submitted_as_workers_free_up(tmp_path, monkeypatch):
    count = TUNE_IN_FLIGHT * 3
    state = {"now": 0, "most": 0}
    lock = threading.Lock()

    def fake_game(task: Any) -> dict[str, Any]:
        time.sleep(0.002)
        with lock:
            state["now"] -= 1
        return {"index": task.index, "score": 0.5, "plies": 10, "adjudicated": False,
                "positions": []}

    class Counting(ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
            with lock:
                state["now"] += 1
                state["most"] = max(state["most"], state["now"])
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(tune_module, "play_tune_game", fake_game)
    with Counting(max_workers=2) as pool:
        tune("tavreli-no-split", generations=1, games=count, nodes=20,
             out=tmp_path / "w.json", executor=pool, bar=False)
    assert 0 < state["most"] <= TUNE_IN_FLIGHT
    lines = (tmp_path / "w.json.games" / "generation-1.jsonl").read_text().splitlines()
    assert sorted(json.loads(x)["index"] for x in lines) == list(range(count))


# -- --out ----------------------------------------------------------------------------

def test_out_that_is_a_folder_or_a_fifo_is_refused_before_play(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    assert "is a folder, not a file; no game was played" in _one_line(
        _cli(*TUNE, "--out", str(folder)))
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "f"
        os.mkfifo(fifo)
        assert "is not a regular file" in _one_line(_cli(*TUNE, "--out", str(fifo)))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["d"] + (["f"] if hasattr(os, "mkfifo") else []))


def test_an_empty_out_is_one_line():
    assert "--out '': no file named" in _one_line(_cli(*TUNE, "--out", ""))
    with pytest.raises(OutputError, match="no file named"):
        tune("tavreli-no-split", generations=1, games=2, nodes=20, out="")


def test_out_in_a_missing_folder_is_refused_and_no_folder_made(tmp_path):
    line = _one_line(_cli(*TUNE, "--out", str(tmp_path / "nodir" / "deeper" / "w.json")))
    assert "no such folder" in line and "no game was played" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root may write in a read-only folder")
def test_out_in_a_read_only_folder_is_refused_before_play(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        line = _one_line(_cli(*TUNE, "--out", str(folder / "w.json")))
        assert "no game was played" in line
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_weights_file_that_cannot_be_written_at_the_end_says_the_games_are_kept(
        tmp_path, monkeypatch):
    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tune_module, "save_weights", full)
    out = tmp_path / "w.json"
    with pytest.raises(TuneInterrupted, match="2 games of this tune are kept") as caught:
        tune("tavreli-no-split", generations=1, games=2, nodes=20, out=out,
             executor="inline", bar=False)
    assert "No space left on device" in str(caught.value) and str(out) in str(caught.value)


def test_a_full_disk_names_the_games_file_not_standard_output(tmp_path, monkeypatch):
    real_open = Path.open

    def failing_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        handle = real_open(self, *args, **kwargs)
        if self.suffix == ".jsonl" and args and args[0] == "a":
            def write(text: str) -> int:
                raise OSError(28, "No space left on device")
            handle.write = write    # type: ignore[method-assign]
        return handle

    monkeypatch.setattr(Path, "open", failing_open)
    with pytest.raises(TuneInterrupted) as caught:
        tune("tavreli-no-split", generations=1, games=2, nodes=20, out=tmp_path / "w.json",
             executor="inline", bar=False)
    message = str(caught.value)
    assert "generation-1.jsonl" in message and "No space left on device" in message
    assert "kept in" in message


# -- the games folder -----------------------------------------------------------------

def _first_run(tmp_path: Path) -> tuple[Path, Path, dict[str, Any]]:
    out = tmp_path / "w.json"
    doc = tune("tavreli-no-split", generations=1, games=2, nodes=20, out=out,
               executor="inline", bar=False)
    return out, tmp_path / "w.json.games", doc


def _row(index: int, **change: Any) -> str:
    row = {"index": index, "score": 1.0, "plies": 30, "adjudicated": False,
           "termination": "checkmate", "positions": [[[0, 1.0]]], **change}
    return json.dumps(row)


@pytest.mark.parametrize("damaged", [
    _row(1, positions=[[[0, 1e400]]]).replace("Infinity", "1e400"),
    _row(1, positions=[[[0, 10 ** 400]]]),
    _row(1, positions=[[[10 ** 400, 1.0]]]),
    '{"index": 1, "score": 1.0, "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
    _row(1, positions=[[[0, 1.0]]] * (MAX_GAME_LINE_BYTES // 8)),   # one huge valid line
])
def test_a_game_line_no_float_holds_or_nested_or_huge_is_played_again(tmp_path, damaged):
    out, folder, first = _first_run(tmp_path)
    games = folder / "generation-1.jsonl"
    kept = next(x for x in games.read_text().splitlines() if json.loads(x)["index"] == 0)
    games.write_text(kept + "\n" + damaged + "\n")
    said: list[str] = []
    started = time.monotonic()
    again = tune("tavreli-no-split", generations=1, games=2, nodes=20, out=out,
                 executor="inline", progress=said.append, bar=False)
    assert time.monotonic() - started < 120
    assert any("1 games to play (1 kept from before)" in s for s in said), said
    assert again["weights"] == first["weights"]


@pytest.mark.parametrize("settings, reason", [
    (b"[" * 100_000 + b"]" * 100_000, "nested too deep"),
    (b"null", "not the settings a tune writes"),
    (b'{"games": 1' + b"0" * 5000 + b"}", "a number too long"),
])
def test_a_settings_file_nested_or_null_is_damaged_and_kept(tmp_path, settings, reason):
    out, folder, _doc = _first_run(tmp_path)
    (folder / "settings.json").write_bytes(settings)
    games = (folder / "generation-1.jsonl").read_bytes()
    with pytest.raises(TuneCheckpointError, match=reason) as caught:
        tune("tavreli-no-split", generations=1, games=2, nodes=20, out=out,
             executor="inline", bar=False)
    assert "other settings" not in str(caught.value)
    assert (folder / "settings.json").read_bytes() == settings
    assert (folder / "generation-1.jsonl").read_bytes() == games


def test_games_without_their_settings_are_not_reused_for_other_settings(tmp_path):
    out, folder, _doc = _first_run(tmp_path)
    (folder / "settings.json").unlink()
    games = (folder / "generation-1.jsonl").read_bytes()
    with pytest.raises(TuneCheckpointError, match="no settings.json"):
        tune("tavreli-no-split", generations=1, games=2, nodes=30, seed=9, out=out,
             executor="inline", bar=False)
    assert (folder / "generation-1.jsonl").read_bytes() == games
    assert not (folder / "settings.json").exists()


# -- agent specs and --option ---------------------------------------------------------

@pytest.mark.parametrize("option, what", [
    ("splits=maybe", "--option 'splits=maybe': expected true or false"),
    ("bogus=1", "--option 'bogus=1': tavreli-no-split has no option 'bogus'"),
])
def test_tune_option_errors_name_the_option_not_a_sweep_grid(tmp_path, option, what):
    line = _one_line(_cli(*TUNE, "--out", str(tmp_path / "w.json"), "--option", option))
    assert what in line and "sweep grid" not in line


def test_a_tune_option_given_twice_is_refused(tmp_path):
    line = _one_line(_cli(*TUNE, "--out", str(tmp_path / "w.json"), "--option",
                          "splits=false", "--option", "splits=true"))
    assert "given twice" in line


# -- Ctrl-C ---------------------------------------------------------------------------

@pytest.mark.parametrize("group", [False, True])
def test_ctrl_c_says_how_many_games_are_kept_and_how_to_resume(tmp_path, group):
    out = tmp_path / "w.json"
    args = ["tune", "--variant", "tavreli-no-split", "--generations", "1", "--games", "400",
            "--nodes", "20", "--workers", "2", "--no-progress", "--out", str(out)]
    proc = subprocess.Popen([sys.executable, "-m", "tavrei_lab", *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    games = tmp_path / "w.json.games" / "generation-1.jsonl"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and proc.poll() is None:
        if games.exists() and len(games.read_bytes().splitlines()) >= 2:
            break
        time.sleep(0.1)
    if group:      # as a terminal delivers Ctrl-C: to every process of the group
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=90)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    lines = [x for x in err.strip().splitlines() if x and not x.startswith("generation ")]
    assert len(lines) == 1, err
    kept = len([x for x in games.read_text().splitlines() if x.strip()])
    assert lines[0].startswith(f"interrupted: {kept} games of this tune are kept in ")
    assert lines[0].endswith("resume with: tavrei-lab " + " ".join(args)), lines[0]


# -- --scheduler ----------------------------------------------------------------------

@pytest.mark.parametrize("address, what", [
    ("127.0.0.1:99999", "the port must be a number 1..65535"),
    ("tcp://:8786", "not an address"),
    ("127.0.0.1:1", "nothing is listening there (connection refused)"),
])
def test_a_scheduler_address_where_nothing_can_answer_is_said_at_once(tmp_path, address,
                                                                       what):
    pytest.importorskip("distributed")
    started = time.monotonic()
    line = _one_line(_cli(*TUNE, "--out", str(tmp_path / "w.json"), "--scheduler", address))
    assert what in line and "not dask's protocol" not in line and "Timed out" not in line
    assert time.monotonic() - started < 15
    assert list(tmp_path.iterdir()) == []


# -- a dask cluster that loses its workers ----------------------------------------------

def test_a_tune_whose_dask_workers_are_gone_stops_with_the_games_kept(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(tune_module, "WORKER_CHECK_SECONDS", 0.2)
    monkeypatch.setattr(tune_module, "NO_WORKER_WAIT", 1.0)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        games = tmp_path / "w.json.games" / "generation-1.jsonl"

        def kill_the_worker() -> None:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                if games.exists() and games.read_bytes().count(b"\n") >= 1:
                    break
                time.sleep(0.05)
            cluster.scale(0)

        threading.Thread(target=kill_the_worker, daemon=True).start()
        started = time.monotonic()
        with pytest.raises(TuneInterrupted, match="no dask worker was connected") as caught:
            tune("tavreli-no-split", generations=1, games=200, nodes=20,
                 out=tmp_path / "w.json", executor=client, bar=False)
    kept = games.read_bytes().count(b"\n")
    assert f"{kept} games of this tune are kept in" in str(caught.value)
    assert time.monotonic() - started < 150


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_games_file_that_is_a_fifo_is_named_not_waited_for(tmp_path):
    out, folder, _doc = _first_run(tmp_path)
    games = folder / "generation-1.jsonl"
    games.unlink()
    os.mkfifo(games)
    with pytest.raises(TuneCheckpointError, match="generation-1.jsonl is not a regular file"):
        tune("tavreli-no-split", generations=1, games=2, nodes=20, out=out,
             executor="inline", bar=False)


def test_a_match_is_bounded_and_planned_as_workers_free_up(monkeypatch):
    from tavrei_lab.engine.weights import DEFAULT_WEIGHTS
    from tavrei_lab.lab.tune import match
    with pytest.raises(LimitError, match="match: games must be 1..5000"):
        match("tavreli-no-split", DEFAULT_WEIGHTS, DEFAULT_WEIGHTS, games=1_000_000_000)
    state = {"now": 0, "most": 0}
    lock = threading.Lock()

    def fake_game(task: Any) -> dict[str, Any]:
        time.sleep(0.002)
        with lock:
            state["now"] -= 1
        return {"index": task.index, "score": float(task.index % 2), "plies": 10,
                "adjudicated": False, "positions": []}

    class Counting(ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
            with lock:
                state["now"] += 1
                state["most"] = max(state["most"], state["now"])
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(tune_module, "play_tune_game", fake_game)
    with Counting(max_workers=2) as pool:
        result = match("tavreli-no-split", DEFAULT_WEIGHTS, DEFAULT_WEIGHTS,
                       games=TUNE_IN_FLIGHT * 3, executor=pool)
    assert 0 < state["most"] <= TUNE_IN_FLIGHT
    assert result["games"] == TUNE_IN_FLIGHT * 3 and result["score"] == 0.0
