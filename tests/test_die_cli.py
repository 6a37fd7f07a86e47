"""``tavrei-lab play`` and ``tavrei-lab replay`` for die games."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tavrei_lab import Game
from tavrei_lab.cli import main
from tavrei_lab.cli.play import play_game
from tavrei_lab.engine.agents import RandomAgent


def play(tmp_path: Path, name: str, *args: str) -> bytes:
    out = tmp_path / name
    assert main(["play", "--variant", "gavrilov-die", *args, "--out", str(out)]) == 0
    return out.read_bytes()


def test_same_seed_same_record_byte_for_byte(tmp_path: Path) -> None:
    first = play(tmp_path, "a.txt", "--seed", "11", "--agent", "random")
    second = play(tmp_path, "b.txt", "--seed", "11", "--agent", "random")
    assert first == second
    assert play(tmp_path, "c.txt", "--seed", "12", "--agent", "random") != first
    text = first.decode()
    assert '[Seed "11"]' in text and '[Termination "' in text and "@" in text


def test_same_seed_same_record_in_another_process(tmp_path: Path) -> None:
    """A fresh interpreter with a different hash seed writes the same bytes."""
    here = play(tmp_path, "here.txt", "--seed", "5", "--white", "random", "--black", "random")
    out = tmp_path / "there.txt"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    subprocess.run([sys.executable, "-m", "tavrei_lab", "play", "--variant", "gavrilov-die",
                    "--seed", "5", "--white", "random", "--black", "random", "--out", str(out)],
                   check=True, env=env, capture_output=True)
    assert out.read_bytes() == here


def test_the_record_replays_to_the_reported_end(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    record = play(tmp_path, "g.txt", "--seed", "3").decode()
    capsys.readouterr()
    assert main(["replay", "--variant", "gavrilov-die", "--json", str(tmp_path / "g.txt")]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert "pending_roll" in facts and facts["pending_roll"] is None
    game = Game.from_record(record)
    assert facts["position"] == game.position.string
    tags = dict(line[1:-1].split(" ", 1) for line in record.splitlines() if line.startswith("["))
    outcome = game.outcome(claim_draw=True)
    if tags["Termination"].startswith('"max-plies'):
        assert tags["Result"] == '"1/2-1/2"' and outcome is None
    else:
        assert outcome is not None and f'"{outcome.termination}"' == tags["Termination"]
        assert f'"{outcome.result()}"' == tags["Result"]


def test_replay_reports_the_pending_roll(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pending.txt"
    path.write_text("1. @P b2-b3 @B 2. @Q\n", encoding="utf-8")
    assert main(["replay", "--variant", "gavrilov-die", "--json", str(path)]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["pending_roll"] == "Q"
    assert facts["position"].endswith("@Q") and facts["side_to_move"] == "white"
    # on Q, after b2-b3: pawns 6, knights 6, rooks 4, queen c1 -> b1 c2 d2 b2 a3 (5)
    assert facts["legal_moves"] == 21


def test_max_plies_adjudicates_a_draw_as_every_self_play_game_does(tmp_path: Path) -> None:
    """The cap of docs/adjudication.md: a draw, named max-plies, after that many plies
    (moves; the die's rolls and passes are not plies)."""
    text = play(tmp_path, "short.txt", "--seed", "1", "--max-plies", "6").decode()
    assert '[Result "1/2-1/2"]' in text
    assert '[Termination "max-plies (adjudicated draw after 6 plies)"]' in text
    assert "{adjudicated a draw: no result after 6 plies} 1/2-1/2" in text
    game = Game.from_record(text)
    assert game.ply == 6 and game.outcome(claim_draw=True) is None


def test_every_seeded_game_terminates(tmp_path: Path) -> None:
    for seed in range(8):
        game = Game("gavrilov-die", seed=seed)
        tags = play_game(game, [RandomAgent(seed), RandomAgent(seed + 100)], max_plies=400)
        assert tags["Result"] in ("1-0", "0-1", "1/2-1/2", "*")
        assert tags["Termination"]


def test_bad_agent_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--variant", "gavrilov-die", "--agent", "nonesuch"]) == 2
    assert "unknown agent" in capsys.readouterr().err


def _seed_whose_first_roll_is(face: str) -> int:
    for seed in range(1000):
        probe = Game("gavrilov-die", seed=seed).copy()
        if probe.roll() == face:
            return seed
    raise AssertionError("no seed found")


def test_a_person_plays_in_the_terminal() -> None:
    seed = _seed_whose_first_roll_is("P")
    game = Game("gavrilov-die", seed=seed)
    typed = io.StringIO("zz-9\nd1-c2\nmoves\nresign\n")
    shown = io.StringIO()
    tags = play_game(game, [None, RandomAgent(1)], max_plies=50, stdin=typed, stdout=shown)
    out = shown.getvalue()
    assert "white rolls @P" in out
    assert "die shows @P" in out                       # the prompt tells the roll
    assert "not legal" in out and "the die shows P" in out and "topped by a king" in out
    assert "legal: a2-a3 b2-b3 c2-c3 d2-d3 e2-e3 f2-f3" in out
    assert tags == {"Result": "0-1", "Termination": "resignation"}
    assert game.ply == 0


def test_a_person_who_stops_typing_leaves_the_game_unfinished(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    out = tmp_path / "h.txt"
    assert main(["play", "--variant", "gavrilov-die", "--seed", "2", "--human", "roll",
                 "--out", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "colour roll: you @" in shown and "you play " in shown
    text = out.read_text(encoding="utf-8")
    assert '[Termination "abandoned"]' in text and '"human"' in text


def test_die_passes_do_not_make_a_repetition() -> None:
    from tavrei_lab.cli.play import move_repetitions
    game = Game("gavrilov-die", seed=1)
    game.play("@B @B @B @B")                 # four skips: the start position, white to roll
    assert game.positions[-1].key() == game.positions[0].key()  # the same position ...
    assert move_repetitions(game) == 1       # ... but no move repeated anything
    play_game(game, [RandomAgent(1), RandomAgent(2)], max_plies=400)
    assert game.ply > 0                      # play went on instead of calling it a draw
    shuffle = Game("gavrilov-die")
    shuffle.play("@N b1-a3 @N b6-a4 @N a3-b1 @N a4-b6 " * 2)
    assert move_repetitions(shuffle) == 3    # knights out and back twice: a real repetition
    outcome = shuffle.rules.outcome(shuffle.position, move_repetitions(shuffle),
                                    claim_draw=True)
    assert outcome is not None and outcome.termination == "threefold-repetition"
    assert play_game(shuffle, [RandomAgent(1), RandomAgent(2)], 400)["Result"] == "1/2-1/2"
