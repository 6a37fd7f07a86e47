"""Progress the Jupyter way on every long run: replays of long records and
tuning report through ``core.progress`` (tqdm.auto), and every long command takes the
same ``--progress`` / ``--no-progress`` flags."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from tavrei_lab import Game, read_record
from tavrei_lab.cli import build_parser
from tavrei_lab.core import progress as progress_module


class _Recorder:
    """Stands in for ``progress_bar``: what was asked for, and how far each bar went."""

    def __init__(self) -> None:
        self.bars: list[dict[str, Any]] = []

    def __call__(self, total: int | None, description: str, **kw: Any) -> Any:
        import io

        from tqdm import tqdm
        bar = tqdm(total=total, file=io.StringIO())
        self.bars.append({"total": total, "description": description, "bar": bar, **kw})
        return bar


def _long_record(plies: int) -> str:
    game = Game()
    while game.ply < plies:        # knights out and back: legal as long as we like
        for text in ("g1-f3", "g8-f6", "f3-g1", "f6-g8"):
            game.push(text)
    return game.record()


def test_a_long_record_replays_with_a_bar_and_a_short_one_without(monkeypatch) -> None:
    recorder = _Recorder()
    monkeypatch.setattr(progress_module, "progress_bar", recorder)
    short = read_record(_long_record(8))
    assert short.ply == 8 and recorder.bars == []             # no bar object at all
    text = _long_record(1200)
    game = read_record(text)
    assert game.ply == 1200 and len(recorder.bars) == 1
    seen = recorder.bars[0]
    assert seen["description"] == "replay" and seen["delay"] == 1.0 and seen["mode"] is None
    assert seen["bar"].n == seen["total"] >= 1200              # closed at the full count
    read_record(text, progress=False)
    Game().play(text.split("\n\n", 1)[1], progress="off")
    assert len(recorder.bars) == 2 and recorder.bars[1]["mode"] == "off"


def test_tune_shows_a_bar_of_each_generation_games(monkeypatch, tmp_path) -> None:
    from tavrei_lab.lab import tune as tune_module
    recorder = _Recorder()
    monkeypatch.setattr(tune_module, "progress_bar", recorder)
    tune_module.tune("tavreli-no-split", generations=1, games=2, nodes=40,
                     out=tmp_path / "w.json", executor="inline", max_plies=30)
    assert [(b["total"], b["description"], b["bar"].n) for b in recorder.bars] == \
        [(2, "tune generation 1", 2)]
    tune_module.tune("tavreli-no-split", generations=1, games=2, nodes=40,
                     out=tmp_path / "w.json", executor="inline", max_plies=30, bar=False)
    assert recorder.bars[-1]["mode"] == "off"


LONG_COMMANDS = ("soak", "compare", "sweep", "tune", "tree", "perft", "replay")


@pytest.mark.parametrize("command", LONG_COMMANDS)
def test_every_long_command_takes_the_same_progress_flags(command: str) -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    p = sub.choices[command]
    needed = {"tune": ["--out", "w.json"], "replay": ["-"], "perft": ["1"],
              "tree": []}.get(command, [])
    assert p.parse_args(needed).progress is None                 # default: a tty decides
    assert p.parse_args([*needed, "--progress"]).progress is True
    assert p.parse_args([*needed, "--no-progress"]).progress is False
    with pytest.raises(SystemExit):
        p.parse_args([*needed, "--progress", "--no-progress"])
