"""The CLI contract: replay, perft, show, variants, check (exit 2 with one line on bad input)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tavrei_lab.cli import main
from tests.conftest import load_games

GAMES = load_games()["games"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("record", [g for g in GAMES if g.get("expected_at_end")][:4],
                         ids=lambda g: f"game{g['n']}")
def test_replay_json(record: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.txt"
    path.write_text(" ".join(record["moves"]), encoding="utf-8")
    code, out, _ = run(capsys, "replay", "--json", str(path))
    assert code == 0
    facts = json.loads(out)
    expected = record["expected_at_end"]
    assert facts["plies"] == expected["plies"]
    assert facts["side_to_move"] == expected["side_to_move"]
    assert facts["in_check"] == expected["in_check"]
    assert facts["legal_moves"] == expected["legal_moves"]
    assert (facts["outcome"] == "checkmate") == expected["checkmate"]
    assert isinstance(facts["position"], str) and facts["position"].count("/") == 7


def test_replay_reads_a_record_from_stdin() -> None:
    text = '[Event "x"]\n[Variant "tavreli"]\n\n1. e2-e4 e7-e5 *\n'
    proc = subprocess.run([sys.executable, "-m", "tavrei_lab", "replay", "--json", "-"],
                          input=text, capture_output=True, text=True, check=True)
    assert json.loads(proc.stdout)["plies"] == 2


def test_replay_illegal_move_exits_2_with_one_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("e2-e4 e7-e5 e4-e5")
    code, out, err = run(capsys, "replay", "--json", str(path))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "ply 3" in lines[0] and "e4-e5" in lines[0]


def test_replay_unparsable_move_exits_2(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("e2-e4 e7=e5")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "e7=e5" in err and len(err.strip().splitlines()) == 1


def test_missing_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "replay", "/no/such/file.txt")
    assert code == 2 and "No such file" in err


def test_perft_and_divide(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "2")
    assert code == 0 and out.strip() == "1519"
    code, out, _ = run(capsys, "perft", "--divide", "2")
    lines = out.strip().splitlines()
    assert lines[-1] == "1519"
    per_move = dict(line.split(": ") for line in lines[:-2])
    assert len(per_move) == 39 and sum(map(int, per_move.values())) == 1519
    code, out, _ = run(capsys, "perft", "--variant", "orthodox", "--moves", "e2-e4 e7-e5", "3")
    assert out.strip() == "24825"            # python-chess: the same count


def test_perft_from_a_position_and_a_variant_file(capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parents[1]
    code, out, _ = run(capsys, "perft", "--variant", str(root / "variants" / "orthodox.toml"),
                       "--position", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "2")
    assert code == 0 and out.strip() == "191"


def test_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "--moves", "e2-e4 d7-d5 e4xd5")
    assert code == 0
    assert "d5: p:K' P:H'" in out          # the tower listed bottom -> top
    assert "legal moves:" in out


def test_variants_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants")
    assert code == 0 and "tavreli-no-split" in out and "orthodox" in out
    root = Path(__file__).resolve().parents[1]
    code, out, _ = run(capsys, "check", str(root / "variants" / "tavreli-no-split.toml"))
    assert code == 0 and "ok" in out
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "tavreli"\n[options]\nsplits = 1\n')
    code, _, err = run(capsys, "check", str(bad))
    assert code == 2 and "options.splits" in err


def test_console_script_is_installed() -> None:
    exe = Path(sys.executable).with_name("tavrei-lab")
    proc = subprocess.run([str(exe), "perft", "1"], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "39"


def test_replay_says_in_check_in_words_not_as_a_python_bool(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """replay printed "шах: False" under TAVREI_LANG=ru (the summary's bool, written as
    Python writes it): a reader gets да/нет, and yes/no in English."""
    checked = tmp_path / "check.txt"        # d1-h5: check along the opened diagonal
    checked.write_text("1. e2-e4 f7-f6 2. d2-d4 g7-g5 3. d1-h5\n", encoding="utf-8")
    quiet = tmp_path / "quiet.txt"
    quiet.write_text("1. e2-e4 e7-e5\n", encoding="utf-8")
    _code, out, _err = run(capsys, "replay", str(checked))
    assert ", in check: yes, " in out
    _code, out, _err = run(capsys, "replay", str(quiet))
    assert ", in check: no, " in out
    monkeypatch.setenv("TAVREI_LANG", "ru")
    _code, out, _err = run(capsys, "replay", str(checked))
    assert ", шах: да, " in out and "True" not in out
    _code, out, _err = run(capsys, "replay", str(quiet))
    assert ", шах: нет, " in out and "False" not in out
